/* KMP_ENABLE_TASK_THROTTLING=0: a thread that creates many tasks queues them all, however
 * many wait, instead of running one itself when its queue is full (tomp's default, as
 * libomp's: a creator's deque holds 256).  Here the primary creates 2000 tasks while the
 * other thread sits in the first one it took; the first task the primary runs must see all
 * 2000 created.  Each task waits until the primary has run one, so the run ends whichever
 * way it goes.  Failed before the setting was read (the primary ran task 258 or so itself).
 * test-env: KMP_ENABLE_TASK_THROTTLING=0
 * test-libgomp-fails: libgomp has no such setting and runs a task itself beyond 64 per thread
 */
#include <omp.h>

#include "check.h"

enum { N = 2000 };

int main(void) {
  int created = 0, seen = -1, go = 0;
#pragma omp parallel num_threads(2)
#pragma omp master
  {
    for (int i = 0; i < N; i++) {
#pragma omp atomic write
      created = i + 1;
#pragma omp task shared(created, seen, go)
      {
        if (omp_get_thread_num() == 0) {
          int c;
#pragma omp atomic read
          c = created;
          if (seen < 0) seen = c;
#pragma omp atomic write
          go = 1;
        }
        for (int g = 0; !g;) {
#pragma omp atomic read
          g = go;
        }
      }
    }
#pragma omp atomic write
    go = 1;
  }
  CHECKF(seen == N || seen == -1, "the primary ran a task after creating %d of %d", seen, N);
  return 0;
}
