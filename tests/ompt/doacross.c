/* OMPT for doacross loops (ordered(2) with depend(sink) / depend(source), signed and unsigned
 * long long loops): OpenMP 5.2's doacross-source / doacross-sink events as `dependences`
 * callbacks of the encountering task, entries of type source / sink with the iteration
 * vector (logical iteration numbers) in variable.value.  One thread: the order is fixed and
 * checked (dispatch events left out).  Two threads (argument x: a longer loop): every source
 * and every sink is still reported once (4x2 iterations: 8 sources, 6 sinks; the ull loop:
 * 2 sources, 1 sink).
 *
 * ompt-run: OMP_NUM_THREADS=1
 * ompt-grep: a=3,3 b=1
 * ompt-filecheck: CHECK drop=^[0-9]+: dispatch( |$)
 * ompt-run: x3 OMP_NUM_THREADS=2 -- x
 * ompt-grep: a=4,4 b=1
 * ompt-count: kinds=source == 10
 * ompt-count: kinds=sink == 7
 */
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
