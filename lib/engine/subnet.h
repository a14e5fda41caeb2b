/* The subnet as a subnet manager discovered it, in plain C arrays: what the
 * OpenSM plugin fills from OpenSM's subnet (plugin/ftclos_osm.c) and
 * engine/subnet_fabric.h turns into a Fabric with the subnet's own LIDs. Plain
 * C so the plugin's C side can fill it; no OpenSM types. The arrays belong to
 * the caller. */
#ifndef FTCLOS_ROUTE_SUBNET_H
#define FTCLOS_ROUTE_SUBNET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ftclos_node_type { FTCLOS_SWITCH = 0, FTCLOS_CA = 1 };

/* One node: a switch or an end node (CA; routers are treated as CAs). */
struct ftclos_node {
  int type;                /* enum ftclos_node_type */
  uint64_t guid;           /* node GUID, host order */
  int num_ports;           /* physical ports, not counting switch port 0 */
  const char *description; /* node description; may be NULL */
};

/* One cable, given once: port a_port of node a to port b_port of node b
 * (indices into the node array, port numbers from 1). */
struct ftclos_link {
  int a, a_port;
  int b, b_port;
};

/* One end port that owns LIDs: switch port 0 or a CA port. */
struct ftclos_lid {
  int node;          /* index into the node array */
  int port;          /* 0 for a switch, the CA port number otherwise */
  uint64_t guid;     /* port GUID, host order */
  uint16_t base_lid; /* host order; 0 when the subnet manager gave it none */
  uint8_t lmc;       /* the port owns base_lid .. base_lid + 2^lmc - 1 */
};

struct ftclos_subnet {
  const struct ftclos_node *nodes;
  size_t num_nodes;
  const struct ftclos_link *links;
  size_t num_links;
  const struct ftclos_lid *lids;
  size_t num_lids;
  int lmc; /* the subnet's configured LMC */
  int data_vls; /* data VLs every cabled port offers (the SLs a routing may use); 0: unknown */
};

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FTCLOS_ROUTE_SUBNET_H */
