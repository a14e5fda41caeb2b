/* Test helper: joins the port it runs on to a multicast group as a full
 * member, by an SA MCMemberRecord Set (IBA 15.2.5.17), as a host's IPoIB
 * driver would; infiniband-diags have no tool for it. Under ibsim run it
 * with LD_PRELOAD=libumad2sim.so and SIM_HOST=<CA name> (umad2sim picks the
 * simulated node from SIM_HOST). The group is created on the first join.
 *
 *   mcast_join GROUP [SL]   GROUP: 1..65535, MGID ff12:1234::GROUP; SL 0..15 (default 0)
 *
 * Prints "joined MGID ... MLID 0x...." and exits 0 when the SA accepts;
 * exits 1 with the SA's status (or the umad error) otherwise. */
#include <endian.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/umad.h>
#include <infiniband/umad_sa.h>
#include <infiniband/umad_sa_mcm.h>
#include <infiniband/umad_types.h>

enum { kMadSize = 256, kTimeoutMs = 2000, kRetries = 5, kQp1Qkey = 0x80010000 };

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
  umad_port_t port;
  struct umad_sa_packet *mad;
  struct umad_sa_mcmember_record rec;
  void *umad;
  unsigned group, sl = 0;
  int fd, agent, len = kMadSize;

  if (argc < 2 || argc > 3 || (group = (unsigned)strtoul(argv[1], NULL, 0)) < 1 || group > 0xffff ||
      (argc == 3 && (sl = (unsigned)strtoul(argv[2], NULL, 0)) > 15))
    return fail("usage: mcast_join GROUP(1..65535) [SL(0..15)]");
  if (umad_init() < 0 || umad_get_port(NULL, 0, &port) < 0) return fail("no umad port");
  if (port.sm_lid == 0) return fail("the port knows no SM yet");
  if ((fd = umad_open_port(NULL, 0)) < 0) return fail("cannot open the umad port");
  if ((agent = umad_register(fd, UMAD_CLASS_SUBN_ADM, UMAD_SA_CLASS_VERSION, 0, NULL)) < 0)
    return fail("cannot register an SA agent");
  if (!(umad = umad_alloc(1, umad_size() + kMadSize))) return fail("out of memory");
  memset(umad, 0, umad_size() + kMadSize);
  mad = umad_get_mad(umad);
  mad->mad_hdr.base_version = UMAD_BASE_VERSION;
  mad->mad_hdr.mgmt_class = UMAD_CLASS_SUBN_ADM;
  mad->mad_hdr.class_version = UMAD_SA_CLASS_VERSION;
  mad->mad_hdr.method = UMAD_METHOD_SET;
  mad->mad_hdr.tid = htobe64(((uint64_t)time(NULL) << 16) | group);
  mad->mad_hdr.attr_id = htobe16(UMAD_SA_ATTR_MCMEMBER_REC);
  mad->comp_mask = htobe64(fill_record(&rec, &port, group, sl));
  memcpy(mad->data, &rec, sizeof(rec));
  umad_set_addr(umad, port.sm_lid, 1, port.sm_sl, kQp1Qkey);
  if (umad_send(fd, agent, umad, kMadSize, kTimeoutMs, kRetries) < 0) return fail("send failed");
  if (umad_recv(fd, umad, &len, kTimeoutMs * (kRetries + 1)) < 0 || umad_status(umad) != 0)
    return fail("no answer from the SA");
  if (mad->mad_hdr.status != 0) {
    fprintf(stderr, "mcast_join: the SA refused the join: MAD status 0x%04x\n", be16toh(mad->mad_hdr.status));
    return 1;
  }
  memcpy(&rec, mad->data, sizeof(rec));
  printf("joined MGID ff12:1234::%x MLID 0x%04X SL %u\n", group, be16toh(rec.mlid), be32toh(rec.sl_flow_hop) >> 28);
  umad_free(umad);
  umad_close_port(fd);
  umad_release_port(&port);
  return 0;
}
