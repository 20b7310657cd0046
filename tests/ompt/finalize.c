/* The tool is finalized while other threads are busy (tests/scenarios/ompt_finalize.sh, with
 * tests/ompt/finalize_tool.c):
 *   region  ompt_finalize_tool (through omp_control_tool(end)) from one thread of a nested
 *           region while every other thread keeps making events; then more regions
 *   exit    exit() from a worker while the others are still in the region
 *   main    ompt_finalize_tool from the main thread with the pool parked; then more regions */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile long sink;
static int started; /* threads in the nested regions */

static void busy_loop(int n) {
#pragma omp for schedule(dynamic, 1) nowait
  for (int i = 0; i < n; i++) sink += i;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "region";
  omp_set_max_active_levels(2);
  if (!strcmp(mode, "region")) {
#pragma omp parallel num_threads(2)
    {
      int outer = omp_get_thread_num();
#pragma omp parallel num_threads(2)
      {
        __atomic_add_fetch(&started, 1, __ATOMIC_RELAXED);
        for (int k = 0; k < 40; k++) {
          busy_loop(20);
          if (k == 5 && outer == 0 && omp_get_thread_num() == 0) {
            while (__atomic_load_n(&started, __ATOMIC_RELAXED) < 4) {
            }
            omp_control_tool(omp_control_tool_end, 0, NULL);
            printf("finalized in region\n");
            fflush(stdout);
          }
        }
      }
    }
  } else if (!strcmp(mode, "exit")) {
#pragma omp parallel num_threads(4)
    {
      busy_loop(40);
      if (omp_get_thread_num() == 1) {
        fflush(stdout);
        exit(0);
      }
      for (;;) busy_loop(20);
    }
  } else {
#pragma omp parallel num_threads(4)
    busy_loop(100);
    omp_control_tool(omp_control_tool_end, 0, NULL);
    printf("finalized outside\n");
    fflush(stdout);
  }
#pragma omp parallel num_threads(4)
  busy_loop(100);
  printf("end\n");
  return 0;
}
