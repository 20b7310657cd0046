/* The counting build (make COUNT=1, build-count/): what the synchronisation algorithms cost in
 * cache-line terms, counted where they happen.  Each site names the operation it belongs to
 * and what it does to memory other threads use:
 *   RMW    an atomic read-modify-write (fetch-add, CAS, exchange; a sequentially consistent
 *          store too: on x86 it is an exchange), which takes the line exclusively
 *   WRITE  a line written with plain or release stores that another thread reads next
 *   WAKE   a futex wake system call
 *   WAIT   what waiting itself costs, per poll or per sleep (a sleeper's registration RMWs
 *          and futex wait, a worker's busy word): it grows with how long and how often a
 *          thread waits (the machine, the load), so it is kept apart from the algorithm's
 * and every operation counts its episodes (barriers released, forks, successful steals,
 * tasks completed).  At exit the library prints the totals on stderr (bench/count.sh
 * differences two runs of each kind).  Without TOMP_COUNT every macro is empty: the release
 * build is unchanged. */
#ifndef TOMP_COUNT_H
#define TOMP_COUNT_H

enum { TOMP_CNT_BARRIER, TOMP_CNT_FORKJOIN, TOMP_CNT_STEAL, TOMP_CNT_TASK, TOMP_CNT_NOPS };
enum {
  TOMP_CNT_EPISODE,
  TOMP_CNT_RMW,
  TOMP_CNT_WRITE,
  TOMP_CNT_WAKE,
  TOMP_CNT_WAIT,
  TOMP_CNT_NKINDS
};

#ifdef TOMP_COUNT
#include <stdint.h>
extern uint64_t tomp_count[TOMP_CNT_NOPS][TOMP_CNT_NKINDS] __attribute__((visibility("hidden")));
/* relaxed adds to global counters: the counting build perturbs timing, never the counts */
#define TOMP_COUNT_ADD(op, kind, n)                                                                \
  __atomic_add_fetch(&tomp_count[(op)][TOMP_CNT_##kind], (uint64_t)(n), __ATOMIC_RELAXED)
#else
#define TOMP_COUNT_ADD(op, kind, n) ((void)0)
#endif

#endif
