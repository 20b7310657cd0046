/* Task-parallel merge sort: an ordinary OpenMP program, built with plain `gcc -fopenmp`.
 *
 * Sorts 4 million pseudo-random integers with recursive tasks (taskwait joins each split),
 * checks the result against qsort, and reports which OpenMP runtime is loaded. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 4 << 20, CUTOFF = 4096 };

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static void merge(const int *a, size_t na, const int *b, size_t nb, int *out) {
  size_t i = 0, j = 0, k = 0;
  while (i < na && j < nb) out[k++] = b[j] < a[i] ? b[j++] : a[i++];
  while (i < na) out[k++] = a[i++];
  while (j < nb) out[k++] = b[j++];
}

/* Sorts v[0..n) using tmp[0..n) as scratch. */
static void msort(int *v, int *tmp, size_t n) {
  if (n <= CUTOFF) {
    qsort(v, n, sizeof *v, cmp_int);
    return;
  }
  size_t h = n / 2;
#pragma omp task
  msort(v, tmp, h);
  msort(v + h, tmp + h, n - h);
#pragma omp taskwait
  merge(v, h, v + h, n - h, tmp);
  memcpy(v, tmp, n * sizeof *v);
}

int main(void) {
  int *v = malloc(N * sizeof *v), *tmp = malloc(N * sizeof *v), *ref = malloc(N * sizeof *v);
  if (!v || !tmp || !ref) return 1;
  unsigned s = 12345;
  for (size_t i = 0; i < N; i++) {
    s = s * 1103515245u + 12345u;
    v[i] = ref[i] = (int)(s >> 1);
  }
  double t0 = omp_get_wtime();
  int nthreads = 1;
#pragma omp parallel
#pragma omp single
  {
    nthreads = omp_get_num_threads();
    msort(v, tmp, N);
  }
  double t1 = omp_get_wtime();
  qsort(ref, N, sizeof *ref, cmp_int);
  if (memcmp(v, ref, N * sizeof *v) != 0) {
    fprintf(stderr, "the parallel sort differs from qsort\n");
    return 1;
  }
  Dl_info info;
  const char *lib = "?";
  char path[4096];
  if (dladdr((void *)omp_get_num_threads, &info) && info.dli_fname &&
      realpath(info.dli_fname, path))
    lib = path;
  printf("sorted %d integers with tasks on %d threads in %.3f s (checked against qsort)\n", N,
         nthreads, t1 - t0);
  printf("OpenMP runtime loaded: %s (%s)\n", lib, strstr(lib, "tomp") ? "tomp" : "not tomp");
  free(v);
  free(tmp);
  free(ref);
  return 0;
}
