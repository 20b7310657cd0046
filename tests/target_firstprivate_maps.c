/* GOMP_target_ext's host fallback and the map entries it reads, called directly with what gcc
 * emits (gfortran for an absent optional or unallocated dummy under has_device_addr: a
 * GOMP_MAP_FIRSTPRIVATE entry with a NULL host address, libgomp.fortran/
 * target-has-device-addr-3.f90 and -4.f90).  A NULL firstprivate is skipped (the region sees
 * NULL), also when a GOMP_MAP_ATTACH entry follows it; an ATTACH after a firstprivate copy
 * changes nothing on the host (libgomp 12's fallback leaves it alone too: host and device
 * pointers are the same); copies are aligned as their kinds say, also beyond 64 bytes (the
 * copy area's slack once covered only 64); GOMP_MAP_FIRSTPRIVATE_INT values pass as they are.
 * And the same through the compiler: firstprivate of an over-aligned object.
 * test-gcc-only: it calls GOMP_target_ext (libgomp's ABI) itself */
#include <stdint.h>
#include <string.h>

#include "check.h"

void GOMP_target_ext(int device, void (*fn)(void *), size_t mapnum, void **hostaddrs, size_t *sizes,
                     unsigned short *kinds, unsigned flags, void **depend, void **args);

/* ABI values (gcc's gomp-constants.h) */
#define DEVICE_ICV (-1)
#define MAP_TOFROM 3
#define MAP_FIRSTPRIVATE 12
#define MAP_FIRSTPRIVATE_INT 13
#define MAP_ATTACH 0x50
#define KIND(k, log2align) ((unsigned short)((k) | ((log2align) << 8)))

enum { MAXMAP = 8 };
static void *seen[MAXMAP]; /* the region's hostaddrs */
static size_t nseen;
/* what the region saw in its copies (they are gone once the region ends) */
static long seen_x;
static char seen_c, seen_b1, seen_b2;

struct big {
  char c[40];
} __attribute__((aligned(1024)));

static void body(void *arg) {
  void **h = arg;
  for (size_t i = 0; i < nseen; i++)
    seen[i] = h[i];
}

static void body_x(void *arg) { /* the long is the first present entry */
  body(arg);
  void **h = arg;
  seen_x = *(long *)(h[0] ? h[0] : h[1]);
}

static void body_align(void *arg) {
  body(arg);
  void **h = arg;
  seen_c = *(char *)h[0];
  seen_b1 = ((struct big *)h[1])->c[39];
  seen_b2 = ((struct big *)h[3])->c[0];
}

static void run(void (*fn)(void *), size_t n, void **hostaddrs, size_t *sizes,
                unsigned short *kinds) {
  nseen = n;
  void *args[1] = {NULL};
  GOMP_target_ext(DEVICE_ICV, fn, n, hostaddrs, sizes, kinds, 0, NULL, args);
}

int main(void) {
  long x = 1234567;
  int m = 5;

  /* absent optional: NULL firstprivate entries (with and without an ATTACH after them),
   * among present ones */
  uintptr_t slots[4] = {11, 22, 33, 44};
  uintptr_t *ptrvar = slots;
  {
    void *h[] = {NULL, &x, NULL, &ptrvar, &m};
    size_t s[] = {sizeof(long), sizeof x, 64, 0, sizeof m};
    unsigned short k[] = {KIND(MAP_FIRSTPRIVATE, 3), KIND(MAP_FIRSTPRIVATE, 3),
                          KIND(MAP_FIRSTPRIVATE, 3), KIND(MAP_ATTACH, 3), KIND(MAP_TOFROM, 2)};
    run(body_x, 5, h, s, k);
    CHECK(seen[0] == NULL && seen[2] == NULL);
    CHECK(seen[1] != &x && seen_x == 1234567);
    CHECK(seen[4] == &m);
    CHECK(slots[0] == 11 && slots[1] == 22 && slots[2] == 33 && slots[3] == 44);
  }

  /* a present firstprivate with an ATTACH (bias 2): copied; the host's pointer and what it
   * points to stay as they are */
  {
    void *h[] = {&x, &ptrvar};
    size_t s[] = {sizeof x, 2};
    unsigned short k[] = {KIND(MAP_FIRSTPRIVATE, 3), KIND(MAP_ATTACH, 3)};
    seen_x = 0;
    run(body_x, 2, h, s, k);
    CHECK(seen[0] != &x && seen_x == 1234567);
    CHECK(seen[1] == &ptrvar && ptrvar == slots);
    CHECK(slots[0] == 11 && slots[1] == 22 && slots[2] == 33 && slots[3] == 44);
  }

  /* alignments beyond the fallback's usual slack, and FIRSTPRIVATE_INT values */
  {
    static struct big b1, b2;
    memset(b1.c, 'a', sizeof b1.c);
    memset(b2.c, 'b', sizeof b2.c);
    char c = 'z';
    void *h[] = {&c, &b1, (void *)(uintptr_t)77, &b2};
    size_t s[] = {1, sizeof b1, 0, sizeof b2};
    unsigned short k[] = {KIND(MAP_FIRSTPRIVATE, 0), KIND(MAP_FIRSTPRIVATE, 10),
                          KIND(MAP_FIRSTPRIVATE_INT, 0), KIND(MAP_FIRSTPRIVATE, 12)};
    run(body_align, 4, h, s, k);
    CHECK(seen_c == 'z');
    CHECK(((uintptr_t)seen[1] & 1023) == 0 && seen_b1 == 'a');
    CHECK(seen[2] == (void *)(uintptr_t)77);
    CHECK(((uintptr_t)seen[3] & 4095) == 0 && seen_b2 == 'b');
  }

  /* the same through the compiler */
  {
    struct big v;
    memset(v.c, 'v', sizeof v.c);
    int ok = 0;
#pragma omp target firstprivate(v) map(from : ok)
    {
      ok = ((uintptr_t)&v & 1023) == 0 && v.c[0] == 'v' && v.c[39] == 'v';
      v.c[0] = 'w';
    }
    CHECK(ok && v.c[0] == 'v');
  }
  return 0;
}
