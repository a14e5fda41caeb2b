/* The C API of ftclos_engine.h, from C: option errors, the error contract,
 * path_sl hints, and routing a hand-made FT(4,2) (4 leaves of 2 hosts, 2
 * spines) the way ftclos_osm.c hands OpenSM's subnet over. */
#include "ftclos_engine.h"
#include "ftclos_engine.h" /* include guard */

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                  \
  do {                                                               \
    if (!(cond)) {                                                   \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                    \
    }                                                                \
  } while (0)

static int log_lines;
static void count_log(void *ctx, int level, const char *line) {
  (void)ctx;
  (void)level;
  (void)line;
  ++log_lines;
}

static void test_options(struct ftclos_engine *engine) {
  char *err = NULL;
  CHECK(ftclos_engine_set_options(engine, NULL, &err) == 0 && err == NULL);
  CHECK(ftclos_engine_set_options(engine, "scheme=dmodk, pathbits_file=off lmc_shortfall=refuse", &err) == 0);
  CHECK(ftclos_engine_set_options(engine, "scheme=dmodc", &err) == -EINVAL);
  CHECK(err && strstr(err, "did you mean \"dmodk\""));
  ftclos_free(err);
  err = NULL;
  CHECK(ftclos_engine_set_options(engine, "colour=blue", &err) == -EINVAL);
  CHECK(err && strstr(err, "unknown option \"colour\""));
  ftclos_free(err);
  err = NULL;
  CHECK(ftclos_engine_set_options(engine, "lmc_shortfall=maybe", &err) == -EINVAL);
  ftclos_free(err);
  err = NULL;
  CHECK(ftclos_engine_set_options(engine, "scheme", &err) == -EINVAL);
  ftclos_free(err);
  err = NULL;
  CHECK(ftclos_engine_set_options(engine, "unreachable=allow", &err) == 0);
  CHECK(ftclos_engine_set_options(engine, "unreachable=sometimes", &err) == -EINVAL);
  CHECK(err && strstr(err, "expected refuse or allow"));
  ftclos_free(err);
}

enum { LEAVES = 4, SPINES = 2, HOSTS = 8, NODES = LEAVES + SPINES + HOSTS };

/* The tree of the first host of every leaf: one spine, down to each leaf's port 1. */
static void test_mcast_tree(struct ftclos_engine *engine, const struct ftclos_node *nodes) {
  uint64_t members[LEAVES + 1];
  struct ftclos_mcast_port *ports = NULL;
  size_t count = 0, k;
  char *err = NULL;
  int i, spines = 0, host_ports = 0;

  for (i = 0; i < LEAVES; ++i)
    members[i] = nodes[LEAVES + SPINES + 2 * i].guid + 1;
  CHECK(ftclos_engine_mcast_tree(engine, 0xC001, members, LEAVES, &ports, &count, &err) == 0);
  CHECK(err == NULL);
  for (k = 0; ports && k < count; ++k) {
    CHECK(ports[k].switch_guid >= 0x100u && ports[k].switch_guid < 0x100u + LEAVES + SPINES);
    spines += ports[k].switch_guid >= 0x100u + LEAVES;
    host_ports += ports[k].switch_guid < 0x100u + LEAVES && ports[k].port == 1;
  }
  CHECK(spines == LEAVES); /* one spine, one port per leaf */
  CHECK(host_ports == LEAVES);
  CHECK(count == 3 * LEAVES);
  ftclos_free(ports);

  members[LEAVES] = 0x999; /* no such port */
  CHECK(ftclos_engine_mcast_tree(engine, 0xC001, members, LEAVES + 1, &ports, &count, &err) == -ENOENT);
  CHECK(err && strstr(err, "ERR 16") && strstr(err, "0x0000000000000999"));
  CHECK(ports == NULL && count == 0);
  ftclos_free(err);
}

static void test_route(struct ftclos_engine *engine) {
  struct ftclos_node nodes[NODES];
  struct ftclos_link links[HOSTS + LEAVES * SPINES];
  struct ftclos_lid lids[NODES];
  struct ftclos_subnet subnet = {nodes, NODES, links, 0, lids, NODES, 0, 0}; /* data_vls 0: unknown */
  const uint8_t *ports = NULL;
  uint16_t max_lid = 0;
  char *err = NULL;
  int i, j, n = 0;

  for (i = 0; i < NODES; ++i) {
    int is_switch = i < LEAVES + SPINES;
    nodes[i].type = is_switch ? FTCLOS_SWITCH : FTCLOS_CA;
    nodes[i].guid = (is_switch ? 0x100u : 0x300u) + (unsigned)i;
    nodes[i].num_ports = is_switch ? 4 : 1;
    nodes[i].description = NULL;
    lids[i].node = i;
    lids[i].port = is_switch ? 0 : 1;
    lids[i].guid = nodes[i].guid + (is_switch ? 0u : 1u);
    lids[i].base_lid = (uint16_t)(i + 1); /* switches 1-6, hosts 7-14 */
    lids[i].lmc = 0;
  }
  for (i = 0; i < LEAVES; ++i) {
    for (j = 0; j < 2; ++j) {
      struct ftclos_link host = {i, 1 + j, LEAVES + SPINES + 2 * i + j, 1};
      links[n++] = host;
    }
    for (j = 0; j < SPINES; ++j) {
      struct ftclos_link up = {i, 3 + j, LEAVES + j, 1 + i};
      links[n++] = up;
    }
  }
  subnet.num_links = (size_t)n;

  CHECK(ftclos_engine_lft(engine, 0, &ports, &max_lid) == -ENOENT);
  CHECK(ftclos_engine_set_options(engine, "scheme=mikant", &err) == 0);
  CHECK(ftclos_engine_route(engine, &subnet, NULL, &err) == -EHOSTUNREACH);
  CHECK(err && strstr(err, "mikant"));
  ftclos_free(err);
  err = NULL;

  CHECK(ftclos_engine_set_options(engine, "scheme=dmodk", &err) == 0);
  CHECK(ftclos_engine_route(engine, &subnet, NULL, &err) == 0);
  CHECK(err == NULL);
  CHECK(log_lines > 0);
  for (i = 0; i < LEAVES; ++i) {
    CHECK(ftclos_engine_lft(engine, (size_t)i, &ports, &max_lid) == 0);
    if (!ports)
      continue;
    CHECK(max_lid == NODES);
    CHECK(ports[i + 1] == 0); /* its own LID */
    for (j = 0; j < HOSTS; ++j) {
      int lid = LEAVES + SPINES + j + 1, leaf = j / 2;
      CHECK(leaf == i ? ports[lid] == 1 + j % 2 : (ports[lid] == 3 || ports[lid] == 4));
    }
  }
  for (i = 0; i < SPINES; ++i) {
    CHECK(ftclos_engine_lft(engine, (size_t)(LEAVES + i), &ports, &max_lid) == 0);
    for (j = 0; ports && j < HOSTS; ++j)
      CHECK(ports[LEAVES + SPINES + j + 1] == 1 + j / 2);
  }
  CHECK(ftclos_engine_lft(engine, LEAVES + SPINES, &ports, &max_lid) == -ENOENT); /* a CA */
  test_mcast_tree(engine, nodes);

  /* A path-bits file that cannot be written: -EIO, the tables stay. */
  CHECK(ftclos_engine_set_options(engine, "scheme=dmodk pathbits_file=pathbits", &err) == 0);
  CHECK(ftclos_engine_route(engine, &subnet, "/nonexistent/ftclos-test", &err) == -EIO);
  CHECK(err && strstr(err, "/nonexistent/ftclos-test/pathbits"));
  ftclos_free(err);
  err = NULL;
  CHECK(ftclos_engine_lft(engine, 0, &ports, &max_lid) == 0);
  CHECK(ftclos_engine_path_sl(engine, 3, 7, 8) == 3); /* dmodk pins no SL: the hint stays */

  /* Two CAs claiming one LID: refused, and the old routing is dropped. */
  lids[NODES - 1].base_lid = lids[NODES - 2].base_lid;
  CHECK(ftclos_engine_route(engine, &subnet, NULL, &err) == -EPROTO);
  CHECK(err && strstr(err, "belongs to both"));
  ftclos_free(err);
  CHECK(ftclos_engine_lft(engine, 0, &ports, &max_lid) == -ENOENT);
}

int main(void) {
  char *err = NULL;
  struct ftclos_engine *engine = ftclos_engine_create(count_log, NULL, &err);
  CHECK(engine != NULL);
  if (!engine)
    return 1;
  test_options(engine);
  test_route(engine);
  ftclos_engine_clear(engine);
  ftclos_engine_destroy(engine);
  ftclos_engine_destroy(NULL);
  if (failures)
    fprintf(stderr, "%d checks failed\n", failures);
  return failures ? 1 : 0;
}
