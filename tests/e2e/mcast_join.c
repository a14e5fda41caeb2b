/* Test helper: joins the port it runs on to a multicast group as a full
 * member, by an SA MCMemberRecord Set (IBA 15.2.5.17), as a host's IPoIB
 * driver would; infiniband-diags have no tool for it. Runs under ibsim as
 * sa_client.h says. The group is created on the first join.
 *
 *   mcast_join GROUP [SL]   GROUP: 1..65535, MGID ff12:1234::GROUP; SL 0..15 (default 0)
 *
 * Prints "joined MGID ... MLID 0x...." and exits 0 when the SA accepts;
 * exits 1 with the SA's status (or the umad error) otherwise. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/umad_sa_mcm.h>

#include "sa_client.h"

static int fail(const char *what) {
  fprintf(stderr, "mcast_join: %s\n", what);
  return 1;
}

/* The record of a full-member join of `port` to group `group` on `sl`,
 * with the fields OpenSM requires to create a group. */
static uint64_t fill_record(struct umad_sa_mcmember_record *rec, const umad_port_t *port, unsigned group,
                            unsigned sl) {
  memset(rec, 0, sizeof(*rec));
  rec->mgid[0] = 0xff;
  rec->mgid[1] = 0x12; /* flags 1 (transient), scope 2 (link-local) */
  rec->mgid[2] = 0x12;
  rec->mgid[3] = 0x34;
  rec->mgid[14] = (uint8_t)(group >> 8);
  rec->mgid[15] = (uint8_t)group;
  memcpy(rec->portgid, &port->gid_prefix, 8); /* both network order already */
  memcpy(rec->portgid + 8, &port->port_guid, 8);
  rec->qkey = htobe32(0x12345678);
  rec->pkey = htobe16(0xffff);
  rec->sl_flow_hop = htobe32((uint32_t)sl << 28);
  rec->scope_state = 0x20 | UMAD_SA_MCM_JOIN_STATE_FULL_MEMBER;
  return UMAD_SA_MCM_COMP_MASK_MGID | UMAD_SA_MCM_COMP_MASK_PORT_GID | UMAD_SA_MCM_COMP_MASK_QKEY |
         UMAD_SA_MCM_COMP_MASK_TCLASS | UMAD_SA_MCM_COMP_MASK_PKEY | UMAD_SA_MCM_COMP_MASK_SL |
         UMAD_SA_MCM_COMP_MASK_FLOW_LABEL | UMAD_SA_MCM_COMP_MASK_SCOPE | UMAD_SA_MCM_COMP_MASK_JOIN_STATE;
}

int main(int argc, char **argv) {
  struct sa_client sa;
  struct umad_sa_packet *answer;
  struct umad_sa_mcmember_record rec;
  unsigned group, sl = 0;
  uint64_t comp_mask;
  const char *error;

  if (argc < 2 || argc > 3 || (group = (unsigned)strtoul(argv[1], NULL, 0)) < 1 || group > 0xffff ||
      (argc == 3 && (sl = (unsigned)strtoul(argv[2], NULL, 0)) > 15))
    return fail("usage: mcast_join GROUP(1..65535) [SL(0..15)]");
  if ((error = sa_open(&sa))) return fail(error);
  comp_mask = fill_record(&rec, &sa.port, group, sl);
  if ((error = sa_exchange(&sa, UMAD_METHOD_SET, UMAD_SA_ATTR_MCMEMBER_REC, ((uint64_t)time(NULL) << 16) | group,
                           comp_mask, &rec, sizeof(rec), &answer)))
    return fail(error);
  if (answer->mad_hdr.status != 0) {
    fprintf(stderr, "mcast_join: the SA refused the join: MAD status 0x%04x\n", be16toh(answer->mad_hdr.status));
    return 1;
  }
  memcpy(&rec, answer->data, sizeof(rec));
  printf("joined MGID ff12:1234::%x MLID 0x%04X SL %u\n", group, be16toh(rec.mlid), be32toh(rec.sl_flow_hop) >> 28);
  sa_close(&sa);
  return 0;
}
