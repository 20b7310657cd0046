/* Doacross (ordered(2) with depend(sink) / depend(source), signed and unsigned long long
 * loops): each source and each sink is a `dependences` callback of the encountering task
 * with the iteration vector (logical iteration numbers). */
#include <omp.h>
#include <stdio.h>

static int a[4][3];
static unsigned long long b[4];

int main(int argc, char **argv) {
  (void)argv;
  int n = argc > 1 ? 4 : 3;
  unsigned long long base = (argc > 2 ? 1ULL : 3ULL) << 62;
#pragma omp parallel for ordered(2) schedule(dynamic)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 2; j++) {
#pragma omp ordered depend(sink : i - 1, j)
      a[i][j] = (i ? a[i - 1][j] : 0) + 1;
#pragma omp ordered depend(source)
    }
#pragma omp parallel for ordered(1) schedule(dynamic)
  for (unsigned long long k = base; k < base + 2; k++) {
#pragma omp ordered depend(sink : k - 1)
    b[k - base] = k;
#pragma omp ordered depend(source)
  }
  printf("a=%d,%d b=%llu\n", a[n - 1][0], a[n - 1][1], b[1] - base);
  return 0;
}
