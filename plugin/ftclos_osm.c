/* OpenSM event plugin "osmftclos": registers the external routing engine
 * "ftclos" (OpenSM 3.3.23's osm_register_external_routing_engine) from its
 * create() callback. On every heavy sweep the engine copies the subnet OpenSM
 * discovered into plain C arrays, lets the ftclos core (ftclos_engine.h)
 * recognize and route it, and writes the result into every switch's new_lft.
 * A failure returns -1 so that OpenSM tries the next engine in
 * `routing_engine` (then min-hop).
 *
 * This file is C because OpenSM's headers are (osm_event_plugin.h has a
 * member named `delete`). Symbols such as osm_port_get_lid_range_ho live in
 * the opensm executable itself (linked -rdynamic), so the module is linked
 * without -z defs. Everything runs under OpenSM's lock except path_sl.
 * update_sl2vl programs the SL-to-VL tables the routing's SLs need;
 * mcast_build_stree builds every multicast group's tree down the unicast
 * order (lib/paths/mcast_tree.h). */
#include <opensm/osm_config.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <complib/cl_qmap.h>
#include <iba/ib_types.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_log.h>
#include <opensm/osm_mcast_tbl.h>
#include <opensm/osm_mcm_port.h>
#include <opensm/osm_multicast.h>
#include <opensm/osm_node.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_port.h>
#include <opensm/osm_switch.h>
#include <opensm/osm_version.h>

#include "core/version.h"
#include "ftclos_engine.h"

/* A test build overrides the version string to check that OpenSM refuses a
 * plugin built for another version. */
#ifdef FTCLOS_OSM_VERSION_OVERRIDE
#define FTCLOS_OSM_VERSION FTCLOS_OSM_VERSION_OVERRIDE
#else
#define FTCLOS_OSM_VERSION OSM_VERSION
#endif

#define FTCLOS_ENGINE_NAME "ftclos"

struct ftclos_plugin {
  osm_opensm_t *osm;
  struct ftclos_engine *engine;
  int sl2vl_refused; /* this sweep's ERR 14 for a port with too few VLs was logged */
};

static void plugin_log(void *ctx, int level, const char *line) {
  struct ftclos_plugin *plugin = ctx;
  osm_log_level_t osm_level = level == FTCLOS_LOG_ERROR  ? OSM_LOG_ERROR
                              : level == FTCLOS_LOG_INFO ? OSM_LOG_INFO
                                                         : OSM_LOG_VERBOSE;
  /* Error lines are "ERR nn: ...": logged as "ftclos ERR nn: ..." like this file's own. */
  if (osm_log_is_active(&plugin->osm->log, osm_level))
    osm_log(&plugin->osm->log, osm_level, level == FTCLOS_LOG_ERROR ? "ftclos %s\n" : "ftclos: %s\n", line);
}

/* Parses event_plugin_options into the engine; logs and returns the error. */
static int apply_options(struct ftclos_plugin *plugin) {
  char *err = NULL;
  int rc = ftclos_engine_set_options(plugin->engine, plugin->osm->subn.opt.event_plugin_options, &err);
  if (rc != 0)
    osm_log(&plugin->osm->log, OSM_LOG_ERROR,
            "ftclos ERR 01: bad event_plugin_options \"%.200s\": %.300s; the ftclos engine will refuse to route\n",
            plugin->osm->subn.opt.event_plugin_options ? plugin->osm->subn.opt.event_plugin_options : "",
            err ? err : "?");
  ftclos_free(err);
  return rc;
}

/* The subnet in the arrays of ftclos_engine.h; nodes in node-GUID order. */
struct node_key {
  osm_node_t *node;
  int index;
};

struct subnet_arrays {
  struct ftclos_subnet subnet;
  osm_node_t **node_at;      /* by node index */
  struct node_key *by_addr;  /* sorted by address, for index_of */
  size_t count;
};

static int compare_keys(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const struct node_key *)a)->node, y = (uintptr_t)((const struct node_key *)b)->node;
  return x < y ? -1 : x > y;
}

static int index_of(const struct subnet_arrays *arrays, osm_node_t *node) {
  struct node_key key = {node, -1};
  const struct node_key *found = bsearch(&key, arrays->by_addr, arrays->count, sizeof(key), compare_keys);
  return found ? found->index : -1;
}

static void free_arrays(struct subnet_arrays *arrays) {
  free((void *)arrays->subnet.nodes);
  free((void *)arrays->subnet.links);
  free((void *)arrays->subnet.lids);
  free(arrays->node_at);
  free(arrays->by_addr);
  memset(arrays, 0, sizeof(*arrays));
}

/* Data VLs an OperationalVLs or VLCap code offers (IBA PortInfo: 1 VL0,
 * 2 VL0-1, 3 VL0-3, 4 VL0-7, 5 VL0-14). */
static unsigned data_vls(uint8_t code) {
  static const unsigned vls[] = {0, 1, 2, 4, 8, 15};
  return code < sizeof(vls) / sizeof(vls[0]) ? vls[code] : 0;
}

/* The data VLs every cabled port will run: what osm_link_mgr sets as
 * OperationalVLs after routing (the lower VLCap of the two ends, at most
 * max_op_vls), the least over the subnet; DF-SSSP reads the same bound. */
static int offered_vls(osm_opensm_t *osm, const struct subnet_arrays *arrays) {
  uint8_t least = osm->subn.opt.max_op_vls;
  size_t i;
  for (i = 0; i < arrays->count; ++i) {
    uint32_t p, ports = osm_node_get_num_physp(arrays->node_at[i]);
    for (p = 0; p < ports; ++p) {
      osm_physp_t *physp = osm_node_get_physp_ptr(arrays->node_at[i], p);
      uint8_t cap;
      if (!physp || !physp->p_remote_physp)
        continue;
      cap = ib_port_info_get_vl_cap(&physp->port_info);
      if (cap && cap < least)
        least = cap;
    }
  }
  return (int)data_vls(least);
}

/* Fills `arrays` (free with free_arrays, also after a failure); 0 or -ENOMEM. */
static int collect_subnet(osm_opensm_t *osm, struct subnet_arrays *arrays) {
  cl_qmap_t *node_tbl = &osm->subn.node_guid_tbl, *port_tbl = &osm->subn.port_guid_tbl;
  size_t n = cl_qmap_count(node_tbl), i = 0, links = 0, max_links = 1, lids = 0;
  struct ftclos_node *nodes = calloc(n + 1, sizeof(*nodes));
  struct ftclos_lid *lid_tbl = calloc(cl_qmap_count(port_tbl) + 1, sizeof(*lid_tbl));
  struct ftclos_link *link_tbl;
  osm_node_t *node;
  osm_port_t *port;

  memset(arrays, 0, sizeof(*arrays));
  arrays->subnet.nodes = nodes;
  arrays->subnet.lids = lid_tbl;
  arrays->node_at = calloc(n + 1, sizeof(*arrays->node_at));
  arrays->by_addr = calloc(n + 1, sizeof(*arrays->by_addr));
  arrays->count = n;
  if (!nodes || !lid_tbl || !arrays->node_at || !arrays->by_addr)
    return -ENOMEM;

  for (node = (osm_node_t *)cl_qmap_head(node_tbl); node != (osm_node_t *)cl_qmap_end(node_tbl);
       node = (osm_node_t *)cl_qmap_next(&node->map_item), ++i) {
    nodes[i].type = osm_node_get_type(node) == IB_NODE_TYPE_SWITCH ? FTCLOS_SWITCH : FTCLOS_CA;
    nodes[i].guid = cl_ntoh64(osm_node_get_node_guid(node));
    nodes[i].num_ports = osm_node_get_num_physp(node) - 1;
    nodes[i].description = node->print_desc;
    arrays->node_at[i] = node;
    arrays->by_addr[i].node = node;
    arrays->by_addr[i].index = (int)i;
    max_links += osm_node_get_num_physp(node);
  }
  qsort(arrays->by_addr, n, sizeof(*arrays->by_addr), compare_keys);

  link_tbl = calloc(max_links, sizeof(*link_tbl));
  arrays->subnet.links = link_tbl;
  if (!link_tbl)
    return -ENOMEM;
  for (i = 0; i < n; ++i) {
    int p, a = (int)i;
    for (p = 1; p <= nodes[i].num_ports; ++p) {
      osm_physp_t *physp = osm_node_get_physp_ptr(arrays->node_at[i], (uint32_t)p), *remote;
      int b, q;
      if (!physp || !(remote = physp->p_remote_physp) || !remote->p_node)
        continue;
      b = index_of(arrays, remote->p_node);
      q = remote->port_num;
      if (b < 0 || b < a || (b == a && q <= p))
        continue; /* listed from the other end (or looped back) */
      link_tbl[links].a = a;
      link_tbl[links].a_port = p;
      link_tbl[links].b = b;
      link_tbl[links].b_port = q;
      ++links;
    }
  }

  for (port = (osm_port_t *)cl_qmap_head(port_tbl); port != (osm_port_t *)cl_qmap_end(port_tbl);
       port = (osm_port_t *)cl_qmap_next(&port->map_item)) {
    uint16_t lo = 0, hi = 0;
    int at = port->p_node ? index_of(arrays, port->p_node) : -1;
    if (at < 0 || !port->p_physp)
      continue;
    osm_port_get_lid_range_ho(port, &lo, &hi);
    lid_tbl[lids].node = at;
    lid_tbl[lids].port = port->p_physp->port_num;
    lid_tbl[lids].guid = cl_ntoh64(port->guid);
    lid_tbl[lids].base_lid = lo;
    lid_tbl[lids].lmc = 0;
    while (lo && hi >= lo && (1u << lid_tbl[lids].lmc) < (unsigned)(hi - lo + 1))
      ++lid_tbl[lids].lmc;
    ++lids;
  }
  arrays->subnet.num_nodes = n;
  arrays->subnet.num_links = links;
  arrays->subnet.num_lids = lids;
  arrays->subnet.lmc = osm->subn.opt.lmc;
  arrays->subnet.data_vls = offered_vls(osm, arrays);
  return 0;
}

/* Copies the engine's tables into new_lft of every switch; -1 on a port the
 * switch does not have. */
static int write_lfts(struct ftclos_plugin *plugin, const struct subnet_arrays *arrays) {
  osm_opensm_t *osm = plugin->osm;
  cl_qmap_t *sw_tbl = &osm->subn.sw_guid_tbl;
  osm_switch_t *sw;
  unsigned switches = 0, unrouted = 0;

  for (sw = (osm_switch_t *)cl_qmap_head(sw_tbl); sw != (osm_switch_t *)cl_qmap_end(sw_tbl);
       sw = (osm_switch_t *)cl_qmap_next(&sw->map_item)) {
    const uint8_t *ports = NULL;
    uint16_t max_lid = 0;
    unsigned lid;
    int at = index_of(arrays, sw->p_node);
    uint8_t num_ports = osm_node_get_num_physp(sw->p_node);

    if (at < 0 || ftclos_engine_lft(plugin->engine, (size_t)at, &ports, &max_lid) != 0) {
      osm_log(&osm->log, OSM_LOG_ERROR, "ftclos ERR 11: no table for switch 0x%016" PRIx64 " (%s)\n",
              cl_ntoh64(osm_node_get_node_guid(sw->p_node)), sw->p_node->print_desc);
      return -1;
    }
    for (lid = 1; lid <= sw->max_lid_ho; ++lid) {
      uint8_t port = lid <= max_lid ? ports[lid] : FTCLOS_NO_PATH;
      if (port != FTCLOS_NO_PATH && port >= num_ports) {
        osm_log(&osm->log, OSM_LOG_ERROR,
                "ftclos ERR 11: port %u for LID %u on switch 0x%016" PRIx64 " (%s), which has %u ports\n", port, lid,
                cl_ntoh64(osm_node_get_node_guid(sw->p_node)), sw->p_node->print_desc, num_ports - 1u);
        return -1;
      }
      sw->new_lft[lid] = port;
      if (port == FTCLOS_NO_PATH) {
        osm_port_t *dest = osm_get_port_by_lid_ho(&osm->subn, (uint16_t)lid);
        unrouted += dest != NULL;
      } else if (port != 0) {
        osm_switch_count_path(sw, port);
      }
    }
    ++switches;
  }
  osm_log(&osm->log, OSM_LOG_INFO, "ftclos: LFTs written to %u switches, %u (switch, LID) entries without a path\n",
          switches, unrouted);
  return 0;
}

/* Leaves every new_lft as OpenSM handed it over (all OSM_NO_PATH), so the
 * engine tried next starts clean after a failure half-way through. */
static void reset_lfts(osm_opensm_t *osm) {
  cl_qmap_t *sw_tbl = &osm->subn.sw_guid_tbl;
  osm_switch_t *sw;
  for (sw = (osm_switch_t *)cl_qmap_head(sw_tbl); sw != (osm_switch_t *)cl_qmap_end(sw_tbl);
       sw = (osm_switch_t *)cl_qmap_next(&sw->map_item))
    if (sw->new_lft)
      memset(sw->new_lft, OSM_NO_PATH, sw->lft_size);
}

/* 0: the core's min-hop matrices are not built. The engine routes and
 * builds multicast trees (mcast_build_stree) without them, as dfsssp and
 * nue do; they hold every switch's hops to every switch LID, one malloc per
 * pair (FT(48,3): 8.3 million, about 530 MB, and the matrices' iterations).
 * An engine OpenSM falls back to builds its own; OpenSM's debug dump
 * opensm.fdbs then shows HOPS UNKNOWN. */
static int ftclos_build_lid_matrices(void *context) {
  (void)context;
  return 0;
}

static int ftclos_ucast_build_fwd_tables(void *context) {
  struct ftclos_plugin *plugin = context;
  osm_opensm_t *osm = plugin->osm;
  struct subnet_arrays arrays;
  char *err = NULL;
  int rc;

  if (apply_options(plugin) != 0) {
    osm_log(&osm->log, OSM_LOG_ERROR, "ftclos ERR 01: not routing; OpenSM falls back to its next routing engine\n");
    ftclos_engine_clear(plugin->engine);
    return -1;
  }
  rc = collect_subnet(osm, &arrays);
  if (rc == 0)
    rc = ftclos_engine_route(plugin->engine, &arrays.subnet, osm->subn.opt.dump_files_dir, &err);
  if (rc == -EIO) {
    osm_log(&osm->log, OSM_LOG_ERROR, "ftclos %s; the tables are installed all the same\n", err ? err : "?");
    rc = 0;
  }
  if (rc == 0)
    rc = write_lfts(plugin, &arrays);
  else
    osm_log(&osm->log, OSM_LOG_ERROR,
            "ftclos %s; OpenSM falls back to its next routing engine\n",
            err ? err : "ERR 10: out of memory");
  ftclos_free(err);
  free_arrays(&arrays);
  if (rc != 0) {
    reset_lfts(osm);
    ftclos_engine_clear(plugin->engine);
    return -1;
  }
  plugin->sl2vl_refused = 0;
  if (ftclos_engine_sl_count(plugin->engine) > 1 && !osm->subn.opt.qos)
    osm_log(&osm->log, OSM_LOG_ERROR,
            "ftclos ERR 14: the routing sends on SLs 0-%u, one VL each, but qos is FALSE: OpenSM programs no "
            "SL2VL tables then (set qos TRUE)\n",
            ftclos_engine_sl_count(plugin->engine) - 1);
  return 0;
}

/* OpenSM's QoS manager (qos TRUE) asks for every (in, out) port pair of a
 * switch and for every CA port (in = out = 0): SL k runs on VL k for the SLs
 * the routing uses, so that each SL's routes have VLs of their own; the
 * other SLs keep qos_sl2vl's entries. A port that offers too few VLs keeps
 * qos_sl2vl's table (ERR 14, once per sweep). */
static void ftclos_update_sl2vl(void *context, osm_physp_t *port, uint8_t in, uint8_t out, ib_slvl_table_t *table) {
  struct ftclos_plugin *plugin = context;
  unsigned sls = ftclos_engine_sl_count(plugin->engine), vls, sl;
  uint8_t code;
  (void)in;
  /* A switch's port 0 only takes packets for the switch itself: no channel to wait on. */
  if (sls <= 1 || (out == 0 && osm_node_get_type(osm_physp_get_node_ptr(port)) == IB_NODE_TYPE_SWITCH))
    return;
  code = ib_port_info_get_op_vls(&port->port_info);
  vls = data_vls(code ? code : ib_port_info_get_vl_cap(&port->port_info));
  if (vls < sls) {
    if (!plugin->sl2vl_refused)
      osm_log(&plugin->osm->log, OSM_LOG_ERROR,
              "ftclos ERR 14: port %u of 0x%016" PRIx64 " (%s) offers %u data VLs, the routing needs %u; "
              "its SL2VL stays qos_sl2vl's (further ports not logged this sweep)\n",
              out, cl_ntoh64(osm_node_get_node_guid(osm_physp_get_node_ptr(port))),
              osm_physp_get_node_ptr(port)->print_desc, vls, sls);
    plugin->sl2vl_refused = 1;
    return;
  }
  for (sl = 0; sl < sls; ++sl)
    ib_slvl_table_set(table, (uint8_t)sl, (uint8_t)sl);
}

static uint8_t ftclos_path_sl(void *context, uint8_t hint, const ib_net16_t slid, const ib_net16_t dlid) {
  struct ftclos_plugin *plugin = context;
  return ftclos_engine_path_sl(plugin->engine, hint, cl_ntoh16(slid), cl_ntoh16(dlid));
}

/* The member port GUIDs of every group of the box (repeats allowed), as
 * OpenSM's osm_mcast_make_port_list_and_map gathers them; NULL when out of
 * memory. */
static uint64_t *member_guids(osm_mgrp_box_t *mbox, size_t *count) {
  cl_list_item_t *item;
  size_t n = 0, i = 0;
  uint64_t *guids;
  osm_mgrp_t *mgrp;
  for (item = cl_qlist_head(&mbox->mgrp_list); item != cl_qlist_end(&mbox->mgrp_list); item = cl_qlist_next(item)) {
    mgrp = cl_item_obj(item, mgrp, list_item);
    n += cl_qmap_count(&mgrp->mcm_port_tbl);
  }
  guids = malloc((n ? n : 1) * sizeof(*guids));
  if (!guids)
    return NULL;
  for (item = cl_qlist_head(&mbox->mgrp_list); item != cl_qlist_end(&mbox->mgrp_list); item = cl_qlist_next(item)) {
    cl_map_item_t *member;
    mgrp = cl_item_obj(item, mgrp, list_item);
    for (member = cl_qmap_head(&mgrp->mcm_port_tbl); member != cl_qmap_end(&mgrp->mcm_port_tbl);
         member = cl_qmap_next(member))
      guids[i++] = cl_ntoh64(((osm_mcm_port_t *)member)->port->guid);
  }
  *count = i;
  return guids;
}

/* OpenSM clears the MLID on every switch first (osm_mcast_mgr.c), then asks
 * for the tree; an error leaves the group without one: OpenSM 3.3.23 does not
 * fall back to its own tree. So a group whose members no switch reaches
 * going down the unicast order still gets a (shortest-path) tree, with ERR 15. */
static ib_api_status_t ftclos_mcast_build_stree(void *context, osm_mgrp_box_t *mbox) {
  struct ftclos_plugin *plugin = context;
  osm_opensm_t *osm = plugin->osm;
  struct ftclos_mcast_port *ports = NULL;
  size_t members = 0, count = 0, i;
  uint64_t *guids = member_guids(mbox, &members);
  char *err = NULL;
  int rc;

  if (!guids) {
    osm_log(&osm->log, OSM_LOG_ERROR, "ftclos ERR 10: out of memory for MLID 0x%04X's members\n", mbox->mlid);
    return IB_INSUFFICIENT_MEMORY;
  }
  if (members < 2) { /* as OpenSM's own tree builder: nothing to do */
    free(guids);
    return IB_SUCCESS;
  }
  rc = ftclos_engine_mcast_tree(plugin->engine, mbox->mlid, guids, members, &ports, &count, &err);
  free(guids);
  if (rc != 0)
    osm_log(&osm->log, OSM_LOG_ERROR, "ftclos %s%s\n", err ? err : "ERR 10: out of memory",
            rc < 0 ? "; the group gets no tree" : "");
  ftclos_free(err);
  for (i = 0; rc >= 0 && i < count; ++i) {
    osm_switch_t *sw = osm_get_switch_by_guid(&osm->subn, cl_hton64(ports[i].switch_guid));
    if (!sw || ports[i].port >= osm_node_get_num_physp(sw->p_node) || !osm_switch_supports_mcast(sw)) {
      osm_log(&osm->log, OSM_LOG_ERROR,
              "ftclos ERR 16: MLID 0x%04X: switch 0x%016" PRIx64 " port %u is not in the subnet or takes no "
              "multicast; the group gets no tree\n", mbox->mlid, ports[i].switch_guid, ports[i].port);
      rc = -ENOENT;
    }
  }
  for (i = 0; rc >= 0 && i < count; ++i)
    osm_mcast_tbl_set(osm_switch_get_mcast_tbl_ptr(osm_get_switch_by_guid(&osm->subn, cl_hton64(ports[i].switch_guid))),
                      mbox->mlid, ports[i].port);
  ftclos_free(ports);
  return rc >= 0 ? IB_SUCCESS : IB_ERROR;
}

/* The deferred polish is ready: a heavy sweep installs it (a light sweep
 * would not route), as the console's "resweep heavy" asks for one. Only the
 * flag and the SM's signal, both safe from another thread. */
static void request_heavy_sweep(void *ctx) {
  struct ftclos_plugin *plugin = ctx;
  plugin->osm->subn.force_heavy_sweep = TRUE;
  osm_sm_sweep(&plugin->osm->sm);
}

static void ftclos_destroy_engine(void *context) {
  struct ftclos_plugin *plugin = context;
  ftclos_engine_clear(plugin->engine);
}

static int ftclos_setup(struct osm_routing_engine *re, osm_opensm_t *osm) {
  (void)osm;
  re->build_lid_matrices = ftclos_build_lid_matrices;
  re->ucast_build_fwd_tables = ftclos_ucast_build_fwd_tables;
  re->path_sl = ftclos_path_sl;
  re->update_sl2vl = ftclos_update_sl2vl;
  re->mcast_build_stree = ftclos_mcast_build_stree;
  re->destroy = ftclos_destroy_engine;
  return 0;
}

static void ftclos_delete(void *plugin_data) {
  struct ftclos_plugin *plugin = plugin_data;
  if (!plugin)
    return;
  ftclos_engine_destroy(plugin->engine);
  free(plugin);
}

static void *ftclos_create(struct osm_opensm *osm) {
  struct ftclos_plugin *plugin = calloc(1, sizeof(*plugin));
  external_routing_engine_module_t module = {FTCLOS_ENGINE_NAME, ftclos_setup, NULL};
  char *err = NULL;
  cl_status_t status;

  /* First, so that every report from this plugin can be tied to its release. */
  osm_log(&osm->log, OSM_LOG_INFO, "ftclos " FTCLOS_VERSION " (built for " FTCLOS_OSM_VERSION ")\n");
  if (!plugin) {
    osm_log(&osm->log, OSM_LOG_ERROR, "ftclos ERR 12: out of memory; plugin not loaded\n");
    return NULL;
  }
  plugin->osm = osm;
  plugin->engine = ftclos_engine_create(plugin_log, plugin, &err);
  if (!plugin->engine) {
    osm_log(&osm->log, OSM_LOG_ERROR, "ftclos ERR 12: %s; plugin not loaded\n", err ? err : "cannot create engine");
    ftclos_free(err);
    free(plugin);
    return NULL;
  }
  ftclos_engine_set_sweep_request(plugin->engine, request_heavy_sweep, plugin);
  apply_options(plugin); /* a bad option is logged now and refused at routing time */
  module.context = plugin;
  status = osm_register_external_routing_engine(osm, &module, plugin);
  if (status != CL_SUCCESS) {
    osm_log(&osm->log, OSM_LOG_ERROR,
            "ftclos ERR 12: cannot register routing engine \"" FTCLOS_ENGINE_NAME "\" (%s); plugin not loaded\n",
            CL_STATUS_MSG(status));
    ftclos_delete(plugin);
    return NULL;
  }
  osm_log(&osm->log, OSM_LOG_INFO,
          "ftclos: routing engine \"" FTCLOS_ENGINE_NAME "\" registered (event_plugin_options \"%.200s\")\n",
          osm->subn.opt.event_plugin_options ? osm->subn.opt.event_plugin_options : "");
  return plugin;
}

/* The one exported symbol (see ftclos_osm.map). */
osm_event_plugin_t osm_event_plugin = {
    .osm_version = FTCLOS_OSM_VERSION,
    .create = ftclos_create,
    .delete = ftclos_delete,
};
