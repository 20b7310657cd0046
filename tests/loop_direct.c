/* Every GOMP_loop_* start/next pair (long and unsigned long long) called directly, over
 * many shapes: up and down counting, chunked or not, empty loops, loops ending at
 * LONG_MAX / ULLONG_MAX, 1..5 threads and more threads than iterations.  Each logical
 * iteration must be handed out exactly once and every handed-out value must be one the
 * loop would take.
 * test-gcc-only: it calls GOMP_* entry points directly */
#include <limits.h>
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef unsigned long long ull;
bool GOMP_loop_static_start(long, long, long, long, long *, long *);
bool GOMP_loop_dynamic_start(long, long, long, long, long *, long *);
bool GOMP_loop_guided_start(long, long, long, long, long *, long *);
bool GOMP_loop_runtime_start(long, long, long, long *, long *);
bool GOMP_loop_nonmonotonic_dynamic_start(long, long, long, long, long *, long *);
bool GOMP_loop_nonmonotonic_guided_start(long, long, long, long, long *, long *);
bool GOMP_loop_nonmonotonic_runtime_start(long, long, long, long *, long *);
bool GOMP_loop_maybe_nonmonotonic_runtime_start(long, long, long, long *, long *);
bool GOMP_loop_start(long, long, long, long, long, long *, long *, uintptr_t *, void **);
bool GOMP_loop_static_next(long *, long *);
bool GOMP_loop_dynamic_next(long *, long *);
bool GOMP_loop_guided_next(long *, long *);
bool GOMP_loop_runtime_next(long *, long *);
bool GOMP_loop_nonmonotonic_dynamic_next(long *, long *);
bool GOMP_loop_nonmonotonic_guided_next(long *, long *);
bool GOMP_loop_nonmonotonic_runtime_next(long *, long *);
bool GOMP_loop_maybe_nonmonotonic_runtime_next(long *, long *);
void GOMP_loop_end(void);
void GOMP_loop_end_nowait(void);
bool GOMP_loop_ull_static_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_dynamic_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_guided_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_runtime_start(bool, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_nonmonotonic_dynamic_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_nonmonotonic_guided_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_nonmonotonic_runtime_start(bool, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_maybe_nonmonotonic_runtime_start(bool, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_start(bool, ull, ull, ull, long, ull, ull *, ull *, uintptr_t *, void **);
bool GOMP_loop_ull_static_next(ull *, ull *);
bool GOMP_loop_ull_dynamic_next(ull *, ull *);
bool GOMP_loop_ull_guided_next(ull *, ull *);
bool GOMP_loop_ull_runtime_next(ull *, ull *);
bool GOMP_loop_ull_nonmonotonic_dynamic_next(ull *, ull *);
bool GOMP_loop_ull_nonmonotonic_guided_next(ull *, ull *);
bool GOMP_loop_ull_nonmonotonic_runtime_next(ull *, ull *);
bool GOMP_loop_ull_maybe_nonmonotonic_runtime_next(ull *, ull *);

static const char *cur_name = "";
#define MAXN 5000
static int hits[MAXN];

/* kinds: 0 static 1 dynamic 2 guided 3 runtime 4 nm-dynamic 5 nm-guided 6 nm-runtime
 * 7 maybe-nm-runtime 8..11 GOMP_loop_start with sched static/dynamic/guided/runtime */
static const char *kind_names[] = {"static", "dynamic", "guided", "runtime", "nm_dynamic",
                                   "nm_guided", "nm_runtime", "maybe_nm_runtime", "start_static",
                                   "start_dynamic", "start_guided", "start_runtime"};
#define NKINDS 12

/* gcc passes chunk 0 only for static schedules */
static bool dyn_kind(int k) { return k == 1 || k == 2 || k == 4 || k == 5 || k == 9 || k == 10; }

static bool l_start(int k, long s, long e, long inc, long ch, long *a, long *b) {
  if (ch == 0 && dyn_kind(k)) ch = 1;
  switch (k) {
  case 0: return GOMP_loop_static_start(s, e, inc, ch, a, b);
  case 1: return GOMP_loop_dynamic_start(s, e, inc, ch, a, b);
  case 2: return GOMP_loop_guided_start(s, e, inc, ch, a, b);
  case 3: return GOMP_loop_runtime_start(s, e, inc, a, b);
  case 4: return GOMP_loop_nonmonotonic_dynamic_start(s, e, inc, ch, a, b);
  case 5: return GOMP_loop_nonmonotonic_guided_start(s, e, inc, ch, a, b);
  case 6: return GOMP_loop_nonmonotonic_runtime_start(s, e, inc, a, b);
  case 7: return GOMP_loop_maybe_nonmonotonic_runtime_start(s, e, inc, a, b);
  case 8: return GOMP_loop_start(s, e, inc, 1, ch, a, b, NULL, NULL);
  case 9: return GOMP_loop_start(s, e, inc, 2 | 0x80000000L, ch, a, b, NULL, NULL);
  case 10: return GOMP_loop_start(s, e, inc, 3, ch, a, b, NULL, NULL);
  default: return GOMP_loop_start(s, e, inc, 0, ch, a, b, NULL, NULL);
  }
}
static bool l_next(int k, long *a, long *b) {
  switch (k) {
  case 0: return GOMP_loop_static_next(a, b);
  case 1: return GOMP_loop_dynamic_next(a, b);
  case 2: return GOMP_loop_guided_next(a, b);
  case 3: return GOMP_loop_runtime_next(a, b);
  case 4: return GOMP_loop_nonmonotonic_dynamic_next(a, b);
  case 5: return GOMP_loop_nonmonotonic_guided_next(a, b);
  case 6: return GOMP_loop_nonmonotonic_runtime_next(a, b);
  case 7: return GOMP_loop_maybe_nonmonotonic_runtime_next(a, b);
  case 8: return GOMP_loop_static_next(a, b);
  case 9: return GOMP_loop_dynamic_next(a, b);
  case 10: return GOMP_loop_guided_next(a, b);
  default: return GOMP_loop_runtime_next(a, b);
  }
}
static bool u_start(int k, bool up, ull s, ull e, ull inc, ull ch, ull *a, ull *b) {
  if (ch == 0 && dyn_kind(k)) ch = 1;
  switch (k) {
  case 0: return GOMP_loop_ull_static_start(up, s, e, inc, ch, a, b);
  case 1: return GOMP_loop_ull_dynamic_start(up, s, e, inc, ch, a, b);
  case 2: return GOMP_loop_ull_guided_start(up, s, e, inc, ch, a, b);
  case 3: return GOMP_loop_ull_runtime_start(up, s, e, inc, a, b);
  case 4: return GOMP_loop_ull_nonmonotonic_dynamic_start(up, s, e, inc, ch, a, b);
  case 5: return GOMP_loop_ull_nonmonotonic_guided_start(up, s, e, inc, ch, a, b);
  case 6: return GOMP_loop_ull_nonmonotonic_runtime_start(up, s, e, inc, a, b);
  case 7: return GOMP_loop_ull_maybe_nonmonotonic_runtime_start(up, s, e, inc, a, b);
  case 8: return GOMP_loop_ull_start(up, s, e, inc, 1, ch, a, b, NULL, NULL);
  case 9: return GOMP_loop_ull_start(up, s, e, inc, 2, ch, a, b, NULL, NULL);
  case 10: return GOMP_loop_ull_start(up, s, e, inc, 3 | 0x80000000L, ch, a, b, NULL, NULL);
  default: return GOMP_loop_ull_start(up, s, e, inc, 0, ch, a, b, NULL, NULL);
  }
}
static bool u_next(int k, ull *a, ull *b) {
  switch (k) {
  case 0: case 8: return GOMP_loop_ull_static_next(a, b);
  case 1: case 9: return GOMP_loop_ull_dynamic_next(a, b);
  case 2: case 10: return GOMP_loop_ull_guided_next(a, b);
  case 3: case 11: return GOMP_loop_ull_runtime_next(a, b);
  case 4: return GOMP_loop_ull_nonmonotonic_dynamic_next(a, b);
  case 5: return GOMP_loop_ull_nonmonotonic_guided_next(a, b);
  case 6: return GOMP_loop_ull_nonmonotonic_runtime_next(a, b);
  default: return GOMP_loop_ull_maybe_nonmonotonic_runtime_next(a, b);
  }
}

/* trip count of the loop, computed independently of the runtime */
static ull trips_long(long s, long e, long inc) {
  ull n = 0;
  if (inc > 0)
    for (long i = s; i < e; n++) { if ((ull)e - (ull)i <= (ull)inc) { n++; break; } i += inc; }
  else
    for (long i = s; i > e; n++) { if ((ull)i - (ull)e <= -(ull)inc) { n++; break; } i += inc; }
  return n;
}

static void run_long(int k, long s, long e, long inc, long ch, int nthr, bool nowait) {
  static char buf[200];
  snprintf(buf, sizeof buf, "long %s s=%ld e=%ld inc=%ld ch=%ld nthr=%d", kind_names[k], s, e, inc,
           ch, nthr);
  cur_name = buf;
  ull n = trips_long(s, e, inc);
  CHECKF(n < MAXN, "%s", cur_name);
  memset(hits, 0, sizeof hits);
#pragma omp parallel num_threads(nthr)
  {
    long a, b;
    if (l_start(k, s, e, inc, ch, &a, &b)) {
      do {
        CHECKF(inc > 0 ? a < b : a > b, "%s", cur_name);
        for (long i = a; inc > 0 ? i < b : i > b;) {
          ull d = inc > 0 ? (ull)i - (ull)s : (ull)s - (ull)i;
          ull st = inc > 0 ? (ull)inc : -(ull)inc;
          CHECKF(d % st == 0, "%s", cur_name);
          CHECKF(d / st < n, "%s", cur_name);
          __atomic_add_fetch(&hits[d / st], 1, __ATOMIC_RELAXED);
          if (inc > 0 ? (ull)b - (ull)i <= (ull)inc : (ull)i - (ull)b <= -(ull)inc) break; /* no overflow past the end */
          i += inc;
        }
      } while (l_next(k, &a, &b));
    }
    if (nowait) {
      GOMP_loop_end_nowait();
#pragma omp barrier
    } else {
      GOMP_loop_end();
    }
  }
  for (ull i = 0; i < n; i++)
    CHECKF(hits[i] == 1, "%s", cur_name);
}

static void run_ull(int k, bool up, ull s, ull e, ull inc, ull ch, int nthr) {
  static char buf[200];
  snprintf(buf, sizeof buf, "ull %s up=%d s=%llu e=%llu inc=%lld ch=%llu nthr=%d", kind_names[k],
           up, s, e, (long long)inc, ch, nthr);
  cur_name = buf;
  ull st = up ? inc : -inc;
  ull n = up ? (s < e ? (e - s) / st + ((e - s) % st != 0) : 0)
             : (s > e ? (s - e) / st + ((s - e) % st != 0) : 0);
  CHECKF(n < MAXN, "%s", cur_name);
  memset(hits, 0, sizeof hits);
#pragma omp parallel num_threads(nthr)
  {
    ull a, b;
    if (u_start(k, up, s, e, inc, ch, &a, &b)) {
      do {
        CHECKF(up ? a < b : a > b, "%s", cur_name);
        for (ull i = a; up ? i < b : i > b;) {
          ull d = up ? i - s : s - i;
          CHECKF(d % st == 0, "%s", cur_name);
          CHECKF(d / st < n, "%s", cur_name);
          __atomic_add_fetch(&hits[d / st], 1, __ATOMIC_RELAXED);
          if ((up ? b - i : i - b) <= st) break;
          i += inc;
        }
      } while (u_next(k, &a, &b));
    }
    GOMP_loop_end();
  }
  for (ull i = 0; i < n; i++)
    CHECKF(hits[i] == 1, "%s", cur_name);
}

int main(void) {
  /* the last rows sit at the edges of long (valid loops: the variable never overflows) */
#ifndef SPAN
  static const long shapes[][3] = {
      {0, 1000, 1},           {0, 1000, 7},  {1000, 0, -1},
      {1000, -3, -13},        {5, 5, 1},     {5, 4, 1},
      {-50, 50, 3},           {0, 3, 1},     {LONG_MAX - 100, LONG_MAX, 10},
      {LONG_MIN + 100, LONG_MIN, -10},       {LONG_MIN, LONG_MIN + 50, 1},
  };
#else
  /* spans (end - start) that do not fit in a long */
  static const long shapes[][3] = {
      {LONG_MIN, 3 * (1L << 61), 1L << 60},
      {LONG_MAX, -(3L << 61), -(1L << 60)},
      {-(1L << 62) * 2 + 5, (1L << 62) + 7, 1L << 58},
  };
#endif
  static const long chunks[] = {0, 1, 3, 64};
  for (int k = 0; k < NKINDS; k++)
    for (unsigned s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
      for (int c = 0; c < 4; c++)
        for (int t = 1; t <= 5; t += (t < 3 ? 1 : 2))
          run_long(k, shapes[s][0], shapes[s][1], shapes[s][2], chunks[c], t, (s + c) % 2);
#ifndef SPAN
  static const ull ushapes[][4] = {
      {1, 0, 1000, 1},
      {1, 0, 1000, 7},
      {0, 1000, 0, (ull)-1},
      {0, 1000, 20, (ull)-13},
      {1, 5, 5, 1},
      {1, (ull)LONG_MAX - 50, (ull)LONG_MAX + 50, 1},
      {0, 20000, 0, (ull)-(ull)1000},
      {1, 0, 3, 1},
      {1, ULLONG_MAX - 100, ULLONG_MAX, 10},
      {0, ULLONG_MAX, ULLONG_MAX - 200, (ull)-4},
      {1, 0, 15ULL << 60, 1ULL << 60},
  };
#else
  static const ull ushapes[][4] = {{1, 0, 15ULL << 60, 1ULL << 60}};
#endif
  static const ull uchunks[] = {0, 1, 5};
  for (int k = 0; k < NKINDS; k++)
    for (unsigned s = 0; s < sizeof ushapes / sizeof ushapes[0]; s++)
      for (int c = 0; c < 3; c++)
        for (int t = 1; t <= 4; t += 3)
          run_ull(k, ushapes[s][0], ushapes[s][1], ushapes[s][2], ushapes[s][3], uchunks[c], t);
  /* orphaned: outside any parallel region */
  cur_name = "orphaned";
  {
    long a, b, sum = 0;
    if (GOMP_loop_dynamic_start(0, 100, 1, 7, &a, &b)) do
        for (long i = a; i < b; i++) sum += i;
      while (GOMP_loop_dynamic_next(&a, &b));
    GOMP_loop_end();
    CHECKF(sum == 4950, "%s", cur_name);
  }
  puts("ok");
  return 0;
}
