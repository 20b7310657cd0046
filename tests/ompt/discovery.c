/* A small program for the tool-discovery scenarios: one parallel region, omp_control_tool
 * before and after, and (with DISCOVERY_END=1) omp_control_tool(end) then another region. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

volatile int sink;

int main(void) {
#pragma omp parallel num_threads(2)
  sink += omp_get_thread_num();
  printf("prog: control_tool(start)=%d\n", omp_control_tool(omp_control_tool_start, 0, NULL));
  printf("prog: control_tool(100,5)=%d\n", omp_control_tool(100, 5, NULL));
  fflush(stdout);
  const char *e = getenv("DISCOVERY_END");
  if (e && *e == '1') {
    printf("prog: control_tool(end)=%d\n", omp_control_tool(omp_control_tool_end, 0, NULL));
    printf("prog: after end\n");
    fflush(stdout);
#pragma omp parallel num_threads(2)
    {
      sink += omp_get_thread_num();
#pragma omp barrier
    }
    printf("prog: control_tool(start) after end=%d\n",
           omp_control_tool(omp_control_tool_start, 0, NULL));
  }
  printf("prog: done\n");
  return 0;
}
