/* Collector API requests for the tests that open and close sessions (header, not a test):
 * one request record, then the terminating zero size.  The test looks `api` up with dlsym
 * (its binary links against whichever libgomp) before the first request. */
#ifndef TOMP_TEST_COLLECTOR_CLIENT_H
#define TOMP_TEST_COLLECTOR_CLIENT_H
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "omp_collector_api.h"

static int (*api)(void *);

/* One request r with memsz bytes of arguments; returns its error code. */
static int request(int r, const void *mem, int memsz) {
  uint64_t buf[8] = {0};
  int h[4] = {OMP_COLLECTORAPI_HEADERSIZE + memsz, r, -1, -1};
  memcpy(buf, h, sizeof h);
  if (memsz) memcpy((char *)buf + OMP_COLLECTORAPI_HEADERSIZE, mem, (size_t)memsz);
  CHECK(api(buf) == 0);
  memcpy(h, buf, sizeof h);
  return h[2];
}

/* OMP_REQ_REGISTER of event ev with callback cb. */
static int reg(int ev, void (*cb)(OMP_COLLECTORAPI_EVENT)) {
  char in[12];
  memcpy(in, &ev, 4);
  memcpy(in + 4, &cb, 8);
  return request(OMP_REQ_REGISTER, in, 12);
}
#endif
