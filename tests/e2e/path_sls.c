/* Test helper: the SL OpenSM's SA answers for (source LID, destination
 * LID) pairs, one PathRecord Get each (IBA 15.2.5.16) from the port it runs
 * on, in one process: `saquery -p --slid --dlid` starts a process per pair
 * (a quarter second each under umad2sim) and `saquery -p` alone asks for
 * a table umad2sim cuts short. Under ibsim run it with
 * LD_PRELOAD=libumad2sim.so and SIM_HOST=<CA name>.
 *
 *   path_sls [--keep-going] < PAIRS    PAIRS: "SLID DLID" lines (decimal or 0x hex)
 *
 * Prints "pair SLID DLID SL" per pair (an `ftclos audit --sl` file's line)
 * and exits 0; exits 1 at the first pair the SA answers with an error, or
 * not at all, naming it. --keep-going prints "none SLID DLID STATUS" for a
 * pair the SA answers with an error status (no path while a change's
 * steps go out) and goes on. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sa_client.h"

enum {
  kPrDlid = 40, /* PathRecord byte offsets */
  kPrSlid = 42,
  kPrQosSl = 52, /* QoSClass:12, SL:4 */
};
static const uint64_t kCompMaskDlid = 1u << 4, kCompMaskSlid = 1u << 5;

static int fail(const char *what, int slid, int dlid) {
  fprintf(stderr, "path_sls: %s (SLID %d, DLID %d)\n", what, slid, dlid);
  return 1;
}

int main(int argc, char **argv) {
  struct sa_client sa;
  uint8_t record[64];
  uint64_t tid = 1;
  int slid, dlid;
  const char *error = sa_open(&sa);
  const int keep_going = argc > 1 && strcmp(argv[1], "--keep-going") == 0;

  if (error) return fail(error, 0, 0);
  while (scanf("%i %i", &slid, &dlid) == 2) {
    struct umad_sa_packet *answer;
    const uint16_t dlid_be = htobe16((uint16_t)dlid), slid_be = htobe16((uint16_t)slid);
    uint16_t qos_sl;

    memset(record, 0, sizeof(record));
    memcpy(record + kPrDlid, &dlid_be, 2);
    memcpy(record + kPrSlid, &slid_be, 2);
    if ((error = sa_exchange(&sa, UMAD_METHOD_GET, UMAD_SA_ATTR_PATH_REC, tid++, kCompMaskDlid | kCompMaskSlid,
                             record, sizeof(record), &answer)))
      return fail(error, slid, dlid);
    if (answer->mad_hdr.status != 0 && keep_going) {
      printf("none %d %d 0x%04x\n", slid, dlid, be16toh(answer->mad_hdr.status));
      continue;
    }
    if (answer->mad_hdr.status != 0) {
      fprintf(stderr, "path_sls: the SA answered MAD status 0x%04x (SLID %d, DLID %d)\n",
              be16toh(answer->mad_hdr.status), slid, dlid);
      return 1;
    }
    memcpy(&qos_sl, answer->data + kPrQosSl, 2);
    printf("pair %d %d %u\n", slid, dlid, be16toh(qos_sl) & 0xf);
  }
  sa_close(&sa);
  return 0;
}
