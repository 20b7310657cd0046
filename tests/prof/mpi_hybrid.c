/* MPI + OpenMP with a known imbalance (tests/prof/mpi.sh): every rank computes a parallel
 * loop, then all ranks combine their results in MPI_Allreduce and meet in MPI_Barrier.  Rank
 * 1 computes four times as much as rank 0, so rank 0 spends most of each step waiting inside
 * the MPI calls for rank 1.  Self-checking: the reduced sum must equal the sum computed on
 * every rank from the closed form.  Built with mpicc -fopenmp.  Argument: steps (default 6). */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define CHUNK 6000000L /* iterations of rank 0's loop per step */

/* Sums i over [lo, hi): exact in a double for these sizes. */
__attribute__((noinline)) static double rank_kernel(long lo, long hi) {
  double s = 0;
  for (long i = lo; i < hi; i++) s += (double)(i & 1023);
  return s;
}

__attribute__((noinline)) static double compute_step(long n) {
  double sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
  for (long b = 0; b < 64; b++) sum += rank_kernel(b * (n / 64), (b + 1) * (n / 64));
  return sum;
}

static double expected(long n) { /* what compute_step(n) returns */
  long per = n / 64, total = 64 * per;
  double full = (double)(total / 1024) * (1023.0 * 1024 / 2);
  for (long i = total / 1024 * 1024; i < total; i++) full += (double)(i & 1023);
  return full;
}

int main(int argc, char **argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int steps = argc > 1 ? atoi(argv[1]) : 6;
  int bad = 0;
  for (int step = 0; step < steps; step++) {
    long n = rank == 1 ? 4 * CHUNK : CHUNK;
    double local = compute_step(n), global = 0;
    if (local != expected(n)) bad = 1;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double want = 0;
    for (int r = 0; r < size; r++) want += expected(r == 1 ? 4 * CHUNK : CHUNK);
    if (global != want) bad = 1;
    MPI_Barrier(MPI_COMM_WORLD);
  }
  int anybad = 0;
  MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) printf("mpi_hybrid: %d ranks x %d threads, %d steps: %s\n", size, omp_get_max_threads(),
                        steps, anybad ? "WRONG" : "ok");
  MPI_Finalize();
  return anybad;
}
