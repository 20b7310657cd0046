/* The __omp_collector_api record stream (src/collector/collector.c).  The input is cut into
 * records: a byte for the request (any int value now and then), a byte for the room after the
 * 16-byte header (0..60, whole words), a byte choosing what a REGISTER's callback slots hold
 * (a real function, packed or aligned; NULL; a non-code word), then the record's bytes.  Each
 * stream ends with its zero word, and after each a region runs (fork/join, barriers: the
 * registered callbacks fire) and the session is stopped.  Properties: every request gets an
 * error code in range, and a reply size no larger than the room it had unless the code says
 * the room was too small. */
#include "fuzz.h"

#include <omp_collector_api.h>

void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags);

static unsigned events;
static void callback(OMP_COLLECTORAPI_EVENT e) {
  (void)e;
  __atomic_add_fetch(&events, 1, __ATOMIC_RELAXED);
}

static void body(void *arg) {
  (void)arg;
}

enum { MAXREC = 32, HDR = OMP_COLLECTORAPI_HEADERSIZE };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int buf[MAXREC * (HDR + 64) / 4 + 1];
  char *p = (char *)buf;
  int *rec[MAXREC];
  int room[MAXREC];
  int nrec = 0;
  size_t i = 0;
  while (i + 3 <= size && nrec < MAXREC) {
    int req = data[i] < 0xf0 ? data[i] % (OMP_REQ_LAST + 1) : (int)(data[i] * 0x1010101u);
    int mem = (data[i + 1] % 16) * 4;
    int how = data[i + 2] % 4;
    i += 3;
    int *r = (int *)p;
    r[0] = HDR + mem;
    r[1] = req;
    r[2] = -1; /* errcode: the runtime's to set */
    r[3] = -1;
    char *m = p + HDR;
    size_t take = size - i < (size_t)mem ? size - i : (size_t)mem;
    memset(m, 0, mem);
    memcpy(m, data + i, take);
    i += take;
    if (req == OMP_REQ_REGISTER && mem >= 4) {
      /* the callback slots hold only what the runtime may call, or words it must refuse */
      void (*f)(OMP_COLLECTORAPI_EVENT) = callback;
      uintptr_t junk = 0x40; /* not a code address */
      memset(m + 4, 0, mem - 4);
      if (how == 0 && mem >= 12) memcpy(m + 4, &f, sizeof f);
      if (how == 1 && mem >= 16) memcpy(m + 8, &f, sizeof f); /* struct {int; void *;} */
      if (how == 3 && mem >= 12) memcpy(m + 4, &junk, sizeof junk);
    }
    rec[nrec] = r;
    room[nrec++] = mem;
    p += HDR + mem;
  }
  *(int *)p = 0;
  FUZZ_ASSERT(__omp_collector_api(buf) == 0);
  for (int k = 0; k < nrec; k++) {
    int ec = rec[k][2], rsz = rec[k][3];
    FUZZ_ASSERT(ec >= OMP_ERRCODE_OK && ec < OMP_ERRCODE_LAST);
    FUZZ_ASSERT(rsz >= 0);
    if (ec != OMP_ERRCODE_MEM_TOO_SMALL) FUZZ_ASSERT(rsz <= room[k]);
  }
  GOMP_parallel(body, NULL, 2, 0);
  int stop[5] = {HDR, OMP_REQ_STOP, 0, 0, 0};
  __omp_collector_api(stop);
  return 0;
}
