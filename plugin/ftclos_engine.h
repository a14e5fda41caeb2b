/* The C boundary between OpenSM's routing-engine callbacks (ftclos_osm.c,
 * plain C because OpenSM's headers are not C++) and the ftclos core (C++).
 * Conventions after leveldb's c.h and rdma-core's verbs.h: everything has the
 * ftclos_ prefix, the engine is opaque, functions return 0 or a negative
 * errno value, and a failing call that takes `char **errptr` stores a
 * malloc'ed message there (free it with ftclos_free). Nothing throws.
 *
 * Input: the subnet as OpenSM discovered it, in the plain arrays of
 * engine/subnet.h that the caller owns for the duration of one call. Output: per switch, the out port for
 * every LID 0..max_lid (FTCLOS_NO_PATH where there is none). */
#ifndef FTCLOS_ENGINE_H
#define FTCLOS_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/subnet.h" /* struct ftclos_subnet: the input, plain C */

#ifdef __cplusplus
extern "C" {
#endif

#define FTCLOS_NO_PATH 0xFF /* OpenSM's OSM_NO_PATH */

enum ftclos_log_level { FTCLOS_LOG_ERROR = 0, FTCLOS_LOG_INFO = 1, FTCLOS_LOG_VERBOSE = 2 };

/* Receives every log line of the engine (no trailing newline). Lines at
 * FTCLOS_LOG_ERROR start with their number, "ERR nn: " (plugin/README.md). */
typedef void (*ftclos_log_fn)(void *log_ctx, int level, const char *line);

struct ftclos_engine;

/* Creates an engine with no routing yet. Returns NULL with errno set (and a
 * message in *errptr) on failure. `log` may be NULL. */
struct ftclos_engine *ftclos_engine_create(ftclos_log_fn log, void *log_ctx, char **errptr);
/* Frees the engine and its routing; NULL is a no-op. */
void ftclos_engine_destroy(struct ftclos_engine *engine);

/* Asks the SM for a heavy sweep. Called from a thread of the engine's own,
 * outside any OpenSM callback and lock. */
typedef void (*ftclos_sweep_request_fn)(void *ctx);

/* Where the engine asks for a sweep once a polish it deferred after a repair
 * is ready (engine/deferred_polish.h); NULL (the default): it never asks, and
 * the result goes in at whatever heavy sweep comes next. */
void ftclos_engine_set_sweep_request(struct ftclos_engine *engine, ftclos_sweep_request_fn request, void *ctx);

/* Parses an event_plugin_options string ("scheme=dmodk pathbits_file=x",
 * separated by spaces or commas; NULL or empty = defaults) and keeps it for
 * the next ftclos_engine_route. Returns 0, or -EINVAL with the reason in
 * *errptr for an unknown key or value; the engine then keeps the error and
 * refuses to route until valid options are set. */
int ftclos_engine_set_options(struct ftclos_engine *engine, const char *options, char **errptr);

/* Recognizes the fabric, routes it with the configured scheme, checks the
 * tables with the auditor and keeps them (and the SLs for
 * ftclos_engine_path_sl). `dump_dir` is where a relative pathbits_file goes
 * (may be NULL: the working directory). Returns 0, or a negative errno value
 * with the reason, "ERR nn: ...", in *errptr: -EINVAL for bad options,
 * -EPROTO for a subnet it cannot read, -EHOSTUNREACH when the scheme cannot
 * route this fabric or its tables leave CAs unreachable, -ERANGE for an LMC
 * below the scheme's need with lmc_shortfall=refuse, -ENOMEM, -EIO when the
 * path-bits file cannot be written (the tables are kept).
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

/* How many SLs the last routing sends on (SLs 0 .. n-1; they need VLs
 * 0 .. n-1, one VL per SL): 1 when it needs no SL but 0 or there is no
 * routing. Thread-safe against ftclos_engine_route. */
unsigned ftclos_engine_sl_count(struct ftclos_engine *engine);

/* One port of one switch's MFT entry for a multicast group. */
struct ftclos_mcast_port {
  uint64_t switch_guid; /* node GUID, host order */
  uint8_t port;         /* 0: the switch itself is a member */
};

/* The multicast tree of `mlid` (host order) for the member ports
 * `member_guids` (port GUIDs, host order; repeats ignored) on the fabric of
 * the last routing, keeping its unicast order (lib/paths/mcast_tree.h).
 * Stores a malloc'ed array of every (switch, port) of the group's MFT
 * entries in *ports (free with ftclos_free) and its length in *count.
 * Returns 0; 1 when no switch reaches every member going down the order,
 * so the tree is a shortest-path tree that may close credit loops with
 * unicast ("ERR 15: ..." in *errptr, the tables filled all the same);
 * -ENOENT when there is no routing or a member is not in its fabric;
 * -EHOSTUNREACH when no tree joins the members; -ENOMEM. */
int ftclos_engine_mcast_tree(struct ftclos_engine *engine, uint16_t mlid, const uint64_t *member_guids,
                             size_t num_members, struct ftclos_mcast_port **ports, size_t *count, char **errptr);

/* Drops the routing (path_sl then returns hints). */
void ftclos_engine_clear(struct ftclos_engine *engine);

/* Frees a message from *errptr. */
void ftclos_free(void *ptr);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FTCLOS_ENGINE_H */
