/* test-no-libgomp: libgomp has no Collector API
 *
 * OMP_REQ_REGISTER with a callback word that cannot be a code address (a small integer, a
 * non-canonical address; in both the packed and the naturally aligned layout) is refused with
 * OMP_ERRCODE_ERROR and never called: regions run afterwards without a crash.  A real
 * callback registered after them still fires.  (Found by tests/fuzz/collector.c: tomp
 * registered any non-NULL word, and the next fork called address 0x40.) */
#include <dlfcn.h>
#include <omp.h>
#include <stdint.h>

#include "collector_client.h"

static int forks;
static void on_fork(OMP_COLLECTORAPI_EVENT e) {
  (void)e;
  __atomic_add_fetch(&forks, 1, __ATOMIC_RELAXED);
}

/* REGISTER with the word w at mem + 4 (packed) and, if aligned, w at mem + 8 too. */
static int reg_word(int ev, uintptr_t w, int aligned) {
  char in[16] = {0};
  memcpy(in, &ev, 4);
  if (aligned)
    memcpy(in + 8, &w, 8);
  else
    memcpy(in + 4, &w, 8);
  return request(OMP_REQ_REGISTER, in, aligned ? 16 : 12);
}

int main(void) {
  api = (int (*)(void *))dlsym(RTLD_DEFAULT, "__omp_collector_api");
  CHECK(api != NULL);
  CHECK(request(OMP_REQ_START, NULL, 0) == OMP_ERRCODE_OK);
  static const uintptr_t bad[] = {0x40, 0xffff, (uintptr_t)1 << 47, ~(uintptr_t)0};
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECKF(reg_word(OMP_EVENT_FORK, bad[i], 0) == OMP_ERRCODE_ERROR, "word %#lx",
           (unsigned long)bad[i]);
    CHECKF(reg_word(OMP_EVENT_FORK, bad[i], 1) == OMP_ERRCODE_ERROR, "word %#lx aligned",
           (unsigned long)bad[i]);
    CHECK(reg_word(OMP_EVENT_JOIN, bad[i], 0) == OMP_ERRCODE_ERROR);
  }
  int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  n++;
  CHECK(n == 2);
  CHECK(reg(OMP_EVENT_FORK, on_fork) == OMP_ERRCODE_OK);
  n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
  n++;
  CHECK(n == 2);
  CHECKF(forks == 1, "%d fork events", forks);
  CHECK(request(OMP_REQ_STOP, NULL, 0) == OMP_ERRCODE_OK);
  return 0;
}
