/* The C boundary between OpenSM's routing-engine callbacks (ftclos_osm.c,
 * plain C because OpenSM's headers are not C++) and the ftclos core (C++).
 * Conventions after leveldb's c.h and rdma-core's verbs.h: everything has the
 * ftclos_ prefix, the engine is opaque, functions return 0 or a negative
 * errno value, and a failing call that takes `char **errptr` stores a
 * malloc'ed message there (free it with ftclos_free). Nothing throws.
 *
 * Input: the subnet as OpenSM discovered it, in plain arrays that the caller
 * owns for the duration of one call. Output: per switch, the out port for
 * every LID 0..max_lid (FTCLOS_NO_PATH where there is none). */
#ifndef FTCLOS_ENGINE_H
#define FTCLOS_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FTCLOS_NO_PATH 0xFF /* OpenSM's OSM_NO_PATH */

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
  uint16_t base_lid; /* host order; 0 when OpenSM gave it none */
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
};

enum ftclos_log_level { FTCLOS_LOG_ERROR = 0, FTCLOS_LOG_INFO = 1, FTCLOS_LOG_VERBOSE = 2 };

/* Receives every log line of the engine (no trailing newline). */
typedef void (*ftclos_log_fn)(void *log_ctx, int level, const char *line);

struct ftclos_engine;

/* Creates an engine with no routing yet. Returns NULL with errno set (and a
 * message in *errptr) on failure. `log` may be NULL. */
struct ftclos_engine *ftclos_engine_create(ftclos_log_fn log, void *log_ctx, char **errptr);
/* Frees the engine and its routing; NULL is a no-op. */
void ftclos_engine_destroy(struct ftclos_engine *engine);

/* Parses an event_plugin_options string ("scheme=dmodk pathbits_file=x",
 * separated by spaces or commas; NULL or empty = defaults) and keeps it for
 * the next ftclos_engine_route. Returns 0, or -EINVAL with the reason in
 * *errptr for an unknown key or value; the engine then keeps the error and
 * refuses to route until valid options are set. */
int ftclos_engine_set_options(struct ftclos_engine *engine, const char *options, char **errptr);

/* Recognizes the fabric, routes it with the configured scheme and keeps the
 * tables (and the SLs for ftclos_engine_path_sl). `dump_dir` is where a
 * relative pathbits_file goes (may be NULL: the working directory). Returns
 * 0, or a negative errno value with the reason in *errptr: -EINVAL for bad
 * options, -EHOSTUNREACH when the scheme cannot route this fabric, -ENOMEM,
 * -EIO when the path-bits file cannot be written (the tables are kept).
 * On failure other than -EIO the previous routing is dropped. */
int ftclos_engine_route(struct ftclos_engine *engine, const struct ftclos_subnet *subnet, const char *dump_dir,
                        char **errptr);

/* The LFT computed for node `node` (an index into the last subnet given to
 * ftclos_engine_route): *ports[lid] for lid 0 .. *max_lid. Returns 0, or
 * -ENOENT when the node is no switch or there is no routing. The table lives
 * until the next route or destroy. */
int ftclos_engine_lft(const struct ftclos_engine *engine, size_t node, const uint8_t **ports, uint16_t *max_lid);

/* The SL the routed scheme needs for packets to `dlid` (host order), or
 * `hint` when it needs none. Thread-safe against ftclos_engine_route. */
uint8_t ftclos_engine_path_sl(struct ftclos_engine *engine, uint8_t hint, uint16_t slid, uint16_t dlid);

/* Drops the routing (path_sl then returns hints). */
void ftclos_engine_clear(struct ftclos_engine *engine);

/* Frees a message from *errptr. */
void ftclos_free(void *ptr);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FTCLOS_ENGINE_H */
