/* Host device memory routines: omp_target_alloc/free/is_present/memcpy/memcpy_rect on the
 * initial device, failures for device numbers that do not exist.
 * test-gcc-only: for clang programs the omp_target_* memory routines are libomptarget's */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(void) {
  int host = omp_get_initial_device();
  int *p = omp_target_alloc(100 * sizeof(int), host);
  CHECK(p != NULL);
  CHECK(omp_target_is_present(p, host));
  CHECK(omp_target_alloc(16, host + 7) == NULL);
  int src[100];
  for (int i = 0; i < 100; i++) src[i] = i * 3;
  CHECK(omp_target_memcpy(p, src, 50 * sizeof(int), 10 * sizeof(int), 0, host, host) == 0);
  for (int i = 0; i < 50; i++) CHECK(p[10 + i] == i * 3);
  CHECK(omp_target_memcpy(p, src, 4, 0, 0, host + 7, host) != 0);
  omp_target_free(p, host);

  /* rectangular copy: a 2x3 block from (1,2) of a 4x5 array to (0,1) of a 3x4 array */
  CHECK(omp_target_memcpy_rect(NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, host, host) >= 3);
  int a[4][5], b[3][4];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++) a[i][j] = i * 10 + j;
  memset(b, 0xff, sizeof b);
  size_t vol[2] = {2, 3}, doff[2] = {0, 1}, soff[2] = {1, 2}, ddim[2] = {3, 4}, sdim[2] = {4, 5};
  CHECK(omp_target_memcpy_rect(b, a, sizeof(int), 2, vol, doff, soff, ddim, sdim, host, host) == 0);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) {
      int in = i < 2 && j >= 1 && j < 4;
      CHECK(b[i][j] == (in ? (i + 1) * 10 + (j - 1 + 2) : -1));
    }
  /* 3-D */
  int c3[2][3][4], d3[2][3][4];
  for (int i = 0; i < 24; i++) ((int *)c3)[i] = i;
  memset(d3, 0, sizeof d3);
  size_t v3[3] = {2, 2, 2}, o3[3] = {0, 1, 2}, z3[3] = {0, 0, 0}, dims[3] = {2, 3, 4};
  CHECK(omp_target_memcpy_rect(d3, c3, sizeof(int), 3, v3, z3, o3, dims, dims, host, host) == 0);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      for (int k = 0; k < 2; k++) CHECK(d3[i][j][k] == c3[i][j + 1][k + 2]);
  CHECK(omp_target_memcpy_rect(d3, c3, sizeof(int), 3, v3, z3, o3, dims, dims, 5, host) != 0);
  printf("routines_device ok\n");
  return 0;
}
