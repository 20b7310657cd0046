/* The counting build's report (count.h): the totals, printed at exit. */
#include "count.h"

#ifdef TOMP_COUNT
#include <stdio.h>

uint64_t tomp_count[TOMP_CNT_NOPS][TOMP_CNT_NKINDS];

__attribute__((destructor)) static void count_report(void) {
  static const char *const op[TOMP_CNT_NOPS] = {"barrier", "forkjoin", "steal", "task"};
  for (int i = 0; i < TOMP_CNT_NOPS; i++)
    fprintf(stderr, "tomp-count: %s episodes=%llu rmw=%llu write=%llu wake=%llu wait=%llu\n", op[i],
            (unsigned long long)tomp_count[i][TOMP_CNT_EPISODE],
            (unsigned long long)tomp_count[i][TOMP_CNT_RMW],
            (unsigned long long)tomp_count[i][TOMP_CNT_WRITE],
            (unsigned long long)tomp_count[i][TOMP_CNT_WAKE],
            (unsigned long long)tomp_count[i][TOMP_CNT_WAIT]);
}
#else
/* ISO C forbids an empty translation unit */
typedef int tomp_count_unused_t;
#endif
