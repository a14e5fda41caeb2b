/* Test helper: SL2VL tables read back from the switches, many in one
 * process. `smpquery sl2vl LID PORT` starts a process per switch port (and
 * under umad2sim a process start costs more than its MADs); this sends the
 * same SMPs, LID-routed SubnGet(NodeInfo) once per switch for its port
 * count, then SubnGet(SLtoVLMappingTable) with attribute modifier
 * (in port << 8 | out port) for every in port 0..NumPorts, and prints them
 * as smpquery prints them. Under ibsim run it with LD_PRELOAD=libumad2sim.so
 * and SIM_HOST=<CA name>.
 *
 *   sl2vl_read < PORTS    PORTS: "LID OUT-PORT" lines (decimal or 0x hex)
 *
 * Prints, per line of PORTS, `smpquery sl2vl LID OUT-PORT`'s output for a
 * switch ("# SL2VL table: Lid LID", the SL header, and one "ports: in I,
 * out O: | VL|...| VL|" row per in port), and exits 0; exits 1 at the first
 * SMP that gets no answer or an error status, naming it, and 2 at a line of
 * PORTS that is not two numbers (nothing after it is read). */
#define _DEFAULT_SOURCE /* htobe16 and friends under -std=c11 */
#include <endian.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/umad.h>
#include <infiniband/umad_sm.h>
#include <infiniband/umad_types.h>

enum { kMadSize = 256, kTimeoutMs = 2000, kRetries = 5, kNodeInfoNumPorts = 3, kNodeInfoType = 2, kSwitch = 2 };

struct smp_client {
  int fd, agent;
  void *umad;
  uint64_t tid;
};

static int fail(const char *what, int lid, int in, int out) {
  fprintf(stderr, "sl2vl_read: %s (LID %d, in %d, out %d)\n", what, lid, in, out);
  return 1;
}

/* SubnGet(attr, mod) to `lid`: NULL and its 64 data bytes in *data, or what failed. */
static const char *smp_get(struct smp_client *c, int lid, uint16_t attr, uint32_t mod, const uint8_t **data) {
  struct umad_smp *smp;
  const uint64_t tid = c->tid++;
  int len;

  memset(c->umad, 0, umad_size() + kMadSize);
  smp = umad_get_mad(c->umad);
  smp->base_version = UMAD_BASE_VERSION;
  smp->mgmt_class = UMAD_CLASS_SUBN_LID_ROUTED;
  smp->class_version = 1;
  smp->method = UMAD_METHOD_GET;
  smp->tid = htobe64(tid);
  smp->attr_id = htobe16(attr);
  smp->attr_mod = htobe32(mod);
  umad_set_addr(c->umad, lid, 0, 0, 0);
  if (umad_send(c->fd, c->agent, c->umad, kMadSize, kTimeoutMs, kRetries) < 0) return "send failed";
  do {
    len = kMadSize;
    if (umad_recv(c->fd, c->umad, &len, kTimeoutMs * (kRetries + 1)) < 0 || umad_status(c->umad) != 0)
      return "no answer";
    smp = umad_get_mad(c->umad);
    /* umad2sim and ibsim keep their agent and client ids in the upper 32
     * bits; skip a late answer to an earlier SMP. */
  } while ((be64toh(smp->tid) & 0xffffffffu) != (tid & 0xffffffffu));
  if (smp->status != 0) return "the SMP answer carries an error status";
  *data = smp->data;
  return NULL;
}

int main(void) {
  struct smp_client c = {.tid = 1};
  int lid, out, last_lid = -1, ports = 0, fields;
  const char *error;
  const uint8_t *data;

  if (umad_init() < 0 || (c.fd = umad_open_port(NULL, 0)) < 0) return fail("cannot open the umad port", 0, 0, 0);
  if ((c.agent = umad_register(c.fd, UMAD_CLASS_SUBN_LID_ROUTED, 1, 0, NULL)) < 0)
    return fail("cannot register an SMP agent", 0, 0, 0);
  if (!(c.umad = umad_alloc(1, umad_size() + kMadSize))) return fail("out of memory", 0, 0, 0);
  while ((fields = scanf("%i %i", &lid, &out)) == 2) {
    if (lid != last_lid) {
      if ((error = smp_get(&c, lid, UMAD_SM_ATTR_NODE_INFO, 0, &data))) return fail(error, lid, 0, out);
      if (data[kNodeInfoType] != kSwitch) return fail("not a switch", lid, 0, out);
      ports = data[kNodeInfoNumPorts];
      last_lid = lid;
    }
    printf("# SL2VL table: Lid %d\n#                 SL: |", lid);
    for (int sl = 0; sl < 16; ++sl) printf("%2d|", sl);
    printf("\n");
    for (int in = 0; in <= ports; ++in) {
      if ((error = smp_get(&c, lid, UMAD_SM_ATTR_SLVL_TABLE, (uint32_t)(in << 8 | out), &data)))
        return fail(error, lid, in, out);
      printf("ports: in %2d, out %2d: |", in, out);
      /* SL 2k in the high nibble of byte k, SL 2k+1 in the low one. */
      for (int sl = 0; sl < 16; ++sl) printf("%2u|", (unsigned)(sl % 2 ? data[sl / 2] & 0xf : data[sl / 2] >> 4));
      printf("\n");
    }
  }
  if (fields != EOF) {
    fprintf(stderr, "sl2vl_read: a line of the input is not \"LID OUT-PORT\"\n");
    return 2;
  }
  umad_free(c.umad);
  umad_unregister(c.fd, c.agent);
  umad_close_port(c.fd);
  return 0;
}
