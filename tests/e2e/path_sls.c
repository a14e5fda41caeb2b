/* Test helper: the SL OpenSM's SA answers for (source LID, destination
 * LID) pairs, one PathRecord Get each (IBA 15.2.5.16) from the port it runs
 * on, in one process: `saquery -p --slid --dlid` starts a process per pair
 * (a quarter second each under umad2sim) and `saquery -p` alone asks for
 * a table umad2sim cuts short. Under ibsim run it with
 * LD_PRELOAD=libumad2sim.so and SIM_HOST=<CA name>.
 *
 *   path_sls < PAIRS    PAIRS: "SLID DLID" lines (decimal or 0x hex)
 *
 * Prints "pair SLID DLID SL" per pair (an `ftclos audit --sl` file's line)
 * and exits 0; exits 1 at the first pair the SA answers with an error, or
 * not at all, naming it. */
#include <endian.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/umad.h>
#include <infiniband/umad_sa.h>
#include <infiniband/umad_types.h>

enum {
  kMadSize = 256,
  kTimeoutMs = 2000,
  kRetries = 5,
  kQp1Qkey = 0x80010000,
  kPrDlid = 40,  /* PathRecord byte offsets */
  kPrSlid = 42,
  kPrQosSl = 52, /* QoSClass:12, SL:4 */
};
static const uint64_t kCompMaskDlid = 1u << 4, kCompMaskSlid = 1u << 5;

static int fail(const char *what, int slid, int dlid) {
  fprintf(stderr, "path_sls: %s (SLID %d, DLID %d)\n", what, slid, dlid);
  return 1;
}

int main(void) {
  umad_port_t port;
  int slid, dlid;
  uint64_t tid = 1;
  void *umad;
  int fd, agent;

  if (umad_init() < 0 || umad_get_port(NULL, 0, &port) < 0) return fail("no umad port", 0, 0);
  if (port.sm_lid == 0) return fail("the port knows no SM yet", 0, 0);
  if ((fd = umad_open_port(NULL, 0)) < 0) return fail("cannot open the umad port", 0, 0);
  if ((agent = umad_register(fd, UMAD_CLASS_SUBN_ADM, UMAD_SA_CLASS_VERSION, 0, NULL)) < 0)
    return fail("cannot register an SA agent", 0, 0);
  if (!(umad = umad_alloc(1, umad_size() + kMadSize))) return fail("out of memory", 0, 0);
  while (scanf("%i %i", &slid, &dlid) == 2) {
    struct umad_sa_packet *mad;
    uint16_t lid_be, qos_sl;
    int len = kMadSize;

    memset(umad, 0, umad_size() + kMadSize);
    mad = umad_get_mad(umad);
    mad->mad_hdr.base_version = UMAD_BASE_VERSION;
    mad->mad_hdr.mgmt_class = UMAD_CLASS_SUBN_ADM;
    mad->mad_hdr.class_version = UMAD_SA_CLASS_VERSION;
    mad->mad_hdr.method = UMAD_METHOD_GET;
    mad->mad_hdr.tid = htobe64(tid++);
    mad->mad_hdr.attr_id = htobe16(UMAD_SA_ATTR_PATH_REC);
    mad->comp_mask = htobe64(kCompMaskDlid | kCompMaskSlid);
    lid_be = htobe16((uint16_t)dlid);
    memcpy(mad->data + kPrDlid, &lid_be, 2);
    lid_be = htobe16((uint16_t)slid);
    memcpy(mad->data + kPrSlid, &lid_be, 2);
    umad_set_addr(umad, port.sm_lid, 1, port.sm_sl, kQp1Qkey);
    if (umad_send(fd, agent, umad, kMadSize, kTimeoutMs, kRetries) < 0) return fail("send failed", slid, dlid);
    if (umad_recv(fd, umad, &len, kTimeoutMs * (kRetries + 1)) < 0 || umad_status(umad) != 0)
      return fail("no answer from the SA", slid, dlid);
    if (mad->mad_hdr.status != 0) {
      fprintf(stderr, "path_sls: the SA answered MAD status 0x%04x (SLID %d, DLID %d)\n",
              be16toh(mad->mad_hdr.status), slid, dlid);
      return 1;
    }
    memcpy(&qos_sl, mad->data + kPrQosSl, 2);
    printf("pair %d %d %u\n", slid, dlid, be16toh(qos_sl) & 0xf);
  }
  umad_free(umad);
  umad_close_port(fd);
  umad_release_port(&port);
  return 0;
}
