/* Tasks tomp runs at once on the encountering thread (team of one, if(0), final): what
 * the task sees while it runs (omp_in_final, its own ICVs, the thread number, the nesting
 * level), that a change of an ICV inside it stays inside it, and that deferred children of
 * such a task may outlive it (if(0) in a team of two, an event in a team of one).  Task
 * blocks are recycled between kinds of tasks: a task with one dependence and many successors
 * has a block of the size a plain task has, so the run mixes them (under ASan a block freed
 * with stale successor storage shows up). */
#include <omp.h>

#include "check.h"

#define ROUNDS 50
#define KIDS 8

static long kids_done, holds;
static int ga;

static void readers_and_writer(int *seen, int hold) {
  /* one writer with KIDS successors: its successor array outgrows its inline room.  An
   * earlier sibling still incomplete (hold) keeps them all deferred in a team of one.  (Not
   * in a busy team: libgomp runs a task with an event at once when its queue is long.) */
  omp_event_handle_t ev;
  if (hold) {
#pragma omp task detach(ev) shared(holds)
    __atomic_add_fetch(&holds, 1, __ATOMIC_RELAXED);
  }
  /* no argument block: header + one dependence node is a plain task's size exactly */
#pragma omp task depend(out : ga)
  ga = 7;
  for (int k = 0; k < KIDS; k++) {
#pragma omp task depend(in : ga) shared(seen) firstprivate(k)
    seen[k] = ga;
  }
  if (hold) omp_fulfill_event(ev);
#pragma omp taskwait
}

int main(void) {
  int seen[KIDS];

  /* team of one: every plain task runs at once, in the task's own data environment */
#pragma omp parallel num_threads(1)
  {
    omp_set_num_threads(5);
    for (int r = 0; r < ROUNDS; r++) {
      int ran = 0, nt = -1, fin = -1, lvl = -1, tid = -1;
#pragma omp task shared(ran, nt, fin, lvl, tid)
      {
        nt = omp_get_max_threads();
        fin = omp_in_final();
        lvl = omp_get_level();
        tid = omp_get_thread_num();
        omp_set_num_threads(2); /* the task's own ICV */
        ran = 1;
      }
#pragma omp taskwait /* tomp runs it at once here; libgomp may defer it */
      CHECK(ran == 1);
      CHECK(nt == 5 && fin == 0 && lvl == 1 && tid == 0);
      CHECK(omp_get_max_threads() == 5);

      int f_in = -1, f_child = -1;
#pragma omp task final(1) shared(f_in, f_child)
      {
        f_in = omp_in_final();
#pragma omp task shared(f_child)
        f_child = omp_in_final(); /* included in a final task: final too */
      }
#pragma omp taskwait
      CHECK(f_in == 1 && f_child == 1);

      int m = 0;
#pragma omp task mergeable untied shared(m)
      m = omp_in_final() + 1;
#pragma omp taskwait
      CHECK(m == 1);

      ga = 0;
      for (int k = 0; k < KIDS; k++) seen[k] = -1;
      readers_and_writer(seen, 1);
      for (int k = 0; k < KIDS; k++) CHECK(seen[k] == 7);

      /* tasks that leave a deferred child behind (one with an event is never run at once)
       * take the blocks the writer and readers left */
      long got = 0;
#pragma omp taskgroup
      for (int k = 0; k < KIDS + 1; k++) {
        if (k == ((r & 1) ? KIDS : 0)) {
          /* first or last, a child of our own: which kind of task takes which block on the
           * list shifts by one every other round */
          omp_event_handle_t ev;
#pragma omp task detach(ev) shared(got)
          __atomic_add_fetch(&got, 1, __ATOMIC_RELAXED);
          omp_fulfill_event(ev);
          continue;
        }
#pragma omp task shared(got)
        {
          omp_event_handle_t ev;
#pragma omp task detach(ev) shared(got)
          __atomic_add_fetch(&got, 1, __ATOMIC_RELAXED);
          omp_fulfill_event(ev);
        }
      }
      CHECK(got == KIDS + 1);
    }
  }

  /* two threads: if(0) tasks whose deferred children outlive them, mixed with tasks with
   * dependences, so blocks go round between the kinds */
  kids_done = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    for (int r = 0; r < ROUNDS; r++) {
      ga = 0;
      for (int k = 0; k < KIDS; k++) seen[k] = -1;
      readers_and_writer(seen, 0);
      for (int k = 0; k < KIDS; k++) CHECK(seen[k] == 7);
      /* then as many blocks again for if(0) tasks, each leaving a child behind */
      for (int k = 0; k < KIDS; k++) {
        int outer = 0;
#pragma omp task if(0) shared(outer)
        {
#pragma omp task
          __atomic_add_fetch(&kids_done, 1, __ATOMIC_RELAXED);
          outer = 1; /* no taskwait: the child may still be queued */
        }
        CHECK(outer == 1); /* if(0): done before the encountering task goes on */
      }
    }
  }
  CHECK(kids_done == ROUNDS * KIDS);

  /* outside any parallel region, too */
  int x = 0;
#pragma omp task shared(x)
  x = omp_get_level() + 1;
#pragma omp taskwait
  CHECK(x == 1);
  printf("ok\n");
  return 0;
}
