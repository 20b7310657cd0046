/* Parallel Mandelbrot set: an ordinary OpenMP program, built with plain `gcc -fopenmp`.
 *
 * It computes a 2400x1600 image in parallel (rows shared out by the OpenMP runtime), checks
 * the result against a serial computation, prints a small ASCII rendering, and reports which
 * OpenMP runtime the dynamic loader actually bound it to. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 2400, H = 1600, MAXIT = 200 };

static int escape_time(double cr, double ci) {
  double zr = 0, zi = 0;
  int it = 0;
  while (it < MAXIT && zr * zr + zi * zi <= 4.0) {
    double t = zr * zr - zi * zi + cr;
    zi = 2 * zr * zi + ci;
    zr = t;
    it++;
  }
  return it;
}

static double re_of(int x, int w) { return -2.2 + 3.2 * x / w; }
static double im_of(int y, int h) { return -1.2 + 2.4 * y / h; }

int main(void) {
  static unsigned char img[H][W];
  long inside = 0;
  int nthreads = 0;
  double t0 = omp_get_wtime();
#pragma omp parallel reduction(+ : inside)
  {
#pragma omp single nowait
    nthreads = omp_get_num_threads();
#pragma omp for schedule(static, 8)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        int it = escape_time(re_of(x, W), im_of(y, H));
        img[y][x] = it == MAXIT;
        inside += it == MAXIT;
      }
  }
  double t1 = omp_get_wtime();

  long serial = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int in = escape_time(re_of(x, W), im_of(y, H)) == MAXIT;
      if (in != img[y][x]) {
        fprintf(stderr, "mismatch at %d,%d\n", x, y);
        return 1;
      }
      serial += in;
    }
  if (serial != inside) {
    fprintf(stderr, "reduction gave %ld, serial count %ld\n", inside, serial);
    return 1;
  }

  for (int y = 0; y < H; y += H / 20) {
    char line[81];
    for (int c = 0; c < 80; c++) line[c] = img[y][c * W / 80] ? '#' : ' ';
    line[80] = 0;
    printf("|%s|\n", line);
  }
  Dl_info info;
  const char *lib = "?";
  char path[4096];
  if (dladdr((void *)omp_get_num_threads, &info) && info.dli_fname &&
      realpath(info.dli_fname, path))
    lib = path;
  printf("%ld of %d points are in the set (checked against a serial run)\n", inside, W * H);
  printf("%d threads, %.3f s\n", nthreads, t1 - t0);
  printf("OpenMP runtime loaded: %s (%s)\n", lib, strstr(lib, "tomp") ? "tomp" : "not tomp");
  return 0;
}
