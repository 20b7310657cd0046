/* ordered loops: the ordered regions run in iteration order under every schedule, with
 * skipped ordered regions, long and unsigned long long variables, 1..4 threads. */
#include <omp.h>

#include "check.h"

#define N 500
static int seq[N], pos;

static void record(int i) { seq[pos++] = i; } /* only ever called inside ordered */

int main(void) {
  volatile unsigned long long vbig = 1ULL << 63;
  unsigned long long big = vbig;
  for (int t = 1; t <= 4; t++) {
    for (int kind = 0; kind < 8; kind++) {
      pos = 0;
#pragma omp parallel num_threads(t)
      {
        switch (kind) {
        case 0:
#pragma omp for ordered schedule(dynamic)
          for (int i = 0; i < N; i++) {
#pragma omp ordered
            record(i);
          }
          break;
        case 1:
#pragma omp for ordered schedule(dynamic, 7)
          for (long i = N - 1; i >= 0; i--) {
#pragma omp ordered
            record(N - 1 - (int)i);
          }
          break;
        case 2:
#pragma omp for ordered schedule(guided, 3)
          for (int i = 0; i < N; i++) {
            volatile int w = 0;
            for (int k = 0; k < (i % 13) * 50; k++) w += k; /* uneven work before */
#pragma omp ordered
            record(i);
          }
          break;
        case 3:
#pragma omp for ordered schedule(static)
          for (unsigned long long i = big; i < big + N; i++) { /* needs the ull entry points */
#pragma omp ordered
            record((int)(i - big));
          }
          break;
        case 4:
#pragma omp for ordered schedule(static, 5)
          for (int i = 0; i < N; i++) {
            if (i % 3 == 1) continue; /* iterations without an ordered region */
#pragma omp ordered
            record(i);
          }
          break;
        case 5:
#pragma omp for ordered schedule(runtime)
          for (unsigned long long i = big + N; i > big; i--) {
#pragma omp ordered
            record(N - (int)(i - big));
          }
          break;
        case 6:
#pragma omp for ordered schedule(dynamic, 3)
          for (unsigned long long i = big; i < big + N; i++) {
#pragma omp ordered
            record((int)(i - big));
          }
          break;
        case 7:
#pragma omp for ordered schedule(guided)
          for (unsigned long long i = big; i < big + N; i++) {
#pragma omp ordered
            record((int)(i - big));
          }
          break;
        }
      }
      if (kind == 4) {
        int k = 0;
        for (int i = 0; i < N; i++)
          if (i % 3 != 1) CHECK(seq[k++] == i);
        CHECK(pos == k);
      } else {
        CHECK(pos == N);
        for (int i = 0; i < N; i++) CHECK(seq[i] == i);
      }
    }
  }
  /* combined: parallel for ordered */
  pos = 0;
#pragma omp parallel for ordered schedule(dynamic, 2) num_threads(3)
  for (int i = 0; i < N; i++) {
#pragma omp ordered
    record(i);
  }
  for (int i = 0; i < N; i++) CHECK(seq[i] == i);
  puts("ok");
  return 0;
}
