/* The SA client the e2e helpers share (mcast_join.c, path_sls.c): the
 * first umad port with an SA agent, and one request-answer exchange with
 * the SM's SA. Under ibsim run them with LD_PRELOAD=libumad2sim.so and
 * SIM_HOST=<CA name> (umad2sim picks the simulated node from SIM_HOST). */
#ifndef FTCLOS_TESTS_E2E_SA_CLIENT_H
#define FTCLOS_TESTS_E2E_SA_CLIENT_H

#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/umad.h>
#include <infiniband/umad_sa.h>
#include <infiniband/umad_types.h>

enum { kSaMadSize = 256, kSaTimeoutMs = 2000, kSaRetries = 5, kSaQp1Qkey = 0x80010000 };

struct sa_client {
  umad_port_t port;
  int fd, agent;
  void *umad;
};

/* Opens the port and registers the agent; NULL, or what failed. */
static inline const char *sa_open(struct sa_client *sa) {
  if (umad_init() < 0 || umad_get_port(NULL, 0, &sa->port) < 0) return "no umad port";
  if (sa->port.sm_lid == 0) return "the port knows no SM yet";
  if ((sa->fd = umad_open_port(NULL, 0)) < 0) return "cannot open the umad port";
  if ((sa->agent = umad_register(sa->fd, UMAD_CLASS_SUBN_ADM, UMAD_SA_CLASS_VERSION, 0, NULL)) < 0)
    return "cannot register an SA agent";
  if (!(sa->umad = umad_alloc(1, umad_size() + kSaMadSize))) return "out of memory";
  return NULL;
}

/* Sends `record` (`size` bytes) as `method` on attribute `attr` with
 * `comp_mask` and waits for the answer; NULL and the answer in *answer (its
 * MAD status unchecked), or what failed. */
static inline const char *sa_exchange(struct sa_client *sa, uint8_t method, uint16_t attr, uint64_t tid,
                                      uint64_t comp_mask, const void *record, size_t size,
                                      struct umad_sa_packet **answer) {
  struct umad_sa_packet *mad;
  int len = kSaMadSize;

  memset(sa->umad, 0, umad_size() + kSaMadSize);
  mad = umad_get_mad(sa->umad);
  mad->mad_hdr.base_version = UMAD_BASE_VERSION;
  mad->mad_hdr.mgmt_class = UMAD_CLASS_SUBN_ADM;
  mad->mad_hdr.class_version = UMAD_SA_CLASS_VERSION;
  mad->mad_hdr.method = method;
  mad->mad_hdr.tid = htobe64(tid);
  mad->mad_hdr.attr_id = htobe16(attr);
  mad->comp_mask = htobe64(comp_mask);
  memcpy(mad->data, record, size);
  umad_set_addr(sa->umad, sa->port.sm_lid, 1, sa->port.sm_sl, kSaQp1Qkey);
  if (umad_send(sa->fd, sa->agent, sa->umad, kSaMadSize, kSaTimeoutMs, kSaRetries) < 0) return "send failed";
  if (umad_recv(sa->fd, sa->umad, &len, kSaTimeoutMs * (kSaRetries + 1)) < 0 || umad_status(sa->umad) != 0)
    return "no answer from the SA";
  *answer = mad;
  return NULL;
}

static inline void sa_close(struct sa_client *sa) {
  umad_free(sa->umad);
  umad_close_port(sa->fd);
  umad_release_port(&sa->port);
}

#endif
