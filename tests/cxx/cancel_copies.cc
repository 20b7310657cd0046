// Cancelled tasks and taskloop chunks whose firstprivate copies were made by a copy
// constructor (gcc's cpyfn) must still run, so that the copies are destroyed (gcc puts the
// destructors at the end of the task's body); they leave at their cancellation point.  A
// task that cannot have copies may be discarded.  Counts constructions against destructions.
// Run by tests/scenarios/cxx_cancel_copies.sh with OMP_CANCELLATION=true.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int live;    // objects constructed and not yet destroyed
static int started; // bodies started
static int late;    // bodies that passed their cancellation point after the cancel
static int cancelled;

struct Counted {
  int v;
  Counted() : v(1) { __atomic_add_fetch(&live, 1, __ATOMIC_SEQ_CST); }
  Counted(const Counted &o) : v(o.v) { __atomic_add_fetch(&live, 1, __ATOMIC_SEQ_CST); }
  ~Counted() { __atomic_sub_fetch(&live, 1, __ATOMIC_SEQ_CST); }
};

// Spin until *p != 0; a bound so that a runtime that breaks the premise fails, not hangs.
static void await(int *p, const char *what) {
  double t0 = omp_get_wtime();
  while (!__atomic_load_n(p, __ATOMIC_ACQUIRE))
    if (omp_get_wtime() - t0 > 30) {
      fprintf(stderr, "FAIL: gave up waiting for %s (%d bodies started, thread %d)\n", what,
              started, omp_get_thread_num());
      exit(2);
    }
}

enum { NTASKS = 40 };

// Says "cancelled" when the canceller's body leaves: `cancel` that activates cancellation
// leaves the body at once, through the destructors of its locals.
struct SayCancelled {
  ~SayCancelled() { __atomic_store_n(&cancelled, 1, __ATOMIC_RELEASE); }
};

// The first task waits until all are created, then cancels the taskgroup; the creator waits
// for that before its taskgroup ends, so the other tasks are all still queued.
static void tasks() {
  Counted obj;
  int all_created = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    if (omp_get_num_threads() != 2) {
      fprintf(stderr, "SKIP: no team of two\n");
      exit(77);
    }
#pragma omp taskgroup
    {
      for (int i = 0; i < NTASKS; i++) {
#pragma omp task firstprivate(obj) shared(all_created)
        {
          int me = __atomic_fetch_add(&started, 1, __ATOMIC_SEQ_CST);
          if (me == 0) {
            SayCancelled say;
            await(&all_created, "the tasks' creation");
#pragma omp cancel taskgroup
          }
#pragma omp cancellation point taskgroup
          if (__atomic_load_n(&cancelled, __ATOMIC_ACQUIRE) && obj.v) late++;
        }
      }
      __atomic_store_n(&all_created, 1, __ATOMIC_RELEASE);
      await(&cancelled, "the cancel");
    }
  }
}

// Taskloop chunks: the first chunk to start waits until a second one starts (the creator
// runs chunks only once it has created them all), then cancels; the others wait for that.
static void taskloop() {
  Counted obj;
  started = 0;
  cancelled = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskloop num_tasks(NTASKS) firstprivate(obj)
  for (int i = 0; i < NTASKS; i++) {
    int me = __atomic_fetch_add(&started, 1, __ATOMIC_SEQ_CST);
    if (me == 0) {
      SayCancelled say;
      while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < 2) {
      }
#pragma omp cancel taskgroup
    } else if (me == 1) {
      await(&cancelled, "the taskloop's cancel");
    }
#pragma omp cancellation point taskgroup
    if (__atomic_load_n(&cancelled, __ATOMIC_ACQUIRE) && obj.v) late++;
  }
}

// The verdict on one construct: every copy destroyed, no body past its cancellation point.
static int verdict(const char *what) {
  int fails = 0;
  if (live != 0) {
    fprintf(stderr, "FAIL: %s: %d firstprivate copies never destroyed (%d of %d bodies ran)\n",
            what, live, started, NTASKS);
    fails++;
  }
  if (late) {
    fprintf(stderr, "FAIL: %s: %d bodies went past their cancellation point\n", what, late);
    fails++;
  }
  return fails;
}

int main() {
  if (!omp_get_cancellation()) {
    fprintf(stderr, "FAIL: run with OMP_CANCELLATION=true\n");
    return 1;
  }
  tasks();
  int fails = verdict("task");
  late = 0;
  live = 0; // counted apart from the tasks' leftovers
  taskloop();
  fails += verdict("taskloop");
  return fails != 0;
}
