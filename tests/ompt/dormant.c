/* A tool that registers no callback and looks up nothing that reads runtime records is
 * attached but leaves the tool path off (it pays what no tool pays); the path turns on as
 * soon as it asks for more, at initialize or later.  The tool lives in the executable.
 *   dormant none   registers nothing: omp_control_tool answers "no callback", programs run,
 *                  finalize runs once at exit
 *   dormant late   registers nothing at initialize; after a first region it registers
 *                  parallel_begin/end and looks up ompt_get_task_info: the next region is
 *                  reported (once, paired) and every implicit task has its exit frame
 *   dormant info   looks up ompt_get_task_info at initialize: frames from the start
 *   dormant chunk  registers dispatch while tasks made with the path off wait: they run
 *                  observed and none is reported as a taskloop chunk (a block's
 *                  chunk_pending was once left uninitialised there: ASan's malloc fill)
 * Prints "finalize" from the tool's finalize and "ok MODE" at the end of main. */
#include <dlfcn.h>
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

static const char *mode = "none";
static ompt_function_lookup_t lookup;
static ompt_set_callback_t set_callback;
static ompt_get_task_info_t get_task_info;
static int begins, ends;

static void on_parallel_begin(ompt_data_t *etd, const ompt_frame_t *etf, ompt_data_t *pd,
                              unsigned int req, int flags, const void *ra) {
  (void)etd, (void)etf, (void)pd, (void)req, (void)flags, (void)ra;
  __atomic_add_fetch(&begins, 1, __ATOMIC_RELAXED);
}

static void on_parallel_end(ompt_data_t *pd, ompt_data_t *etd, int flags, const void *ra) {
  (void)pd, (void)etd, (void)flags, (void)ra;
  __atomic_add_fetch(&ends, 1, __ATOMIC_RELAXED);
}

static int initialize(ompt_function_lookup_t lk, int dev, ompt_data_t *td) {
  (void)dev, (void)td;
  lookup = lk;
  set_callback = (ompt_set_callback_t)lk("ompt_set_callback");
  if (!strcmp(mode, "info")) get_task_info = (ompt_get_task_info_t)lk("ompt_get_task_info");
  return 1;
}

static void finalize(ompt_data_t *td) {
  (void)td;
  printf("finalize\n");
  fflush(stdout);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int v, const char *rt) {
  (void)v, (void)rt;
  static ompt_start_tool_result_t r = {initialize, finalize, {0}};
  const char *m = getenv("DORMANT_MODE");
  if (m) mode = m;
  return &r;
}

static int chunk_dispatches, go;

static void on_dispatch(ompt_data_t *pd, ompt_data_t *td, ompt_dispatch_t kind,
                        ompt_data_t instance) {
  (void)pd, (void)td, (void)instance;
  if (kind == ompt_dispatch_taskloop_chunk)
    __atomic_add_fetch(&chunk_dispatches, 1, __ATOMIC_RELAXED);
}

/* tasks deferred with the tool path off, run after dispatch is registered */
static int late_dispatch(void) {
  int ran = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    int creator = omp_get_thread_num();
    for (int i = 0; i < 20; i++) {
#pragma omp task shared(ran) firstprivate(creator)
      {
        /* the other thread holds back until dispatch is registered; a task the runtime
         * runs at once on the creator (a cut-off) must not wait for what follows */
        while (omp_get_thread_num() != creator && !__atomic_load_n(&go, __ATOMIC_ACQUIRE)) {
        }
        __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
      }
    }
    EXPECT(set_callback(ompt_callback_dispatch, (ompt_callback_t)on_dispatch) != ompt_set_error);
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
  }
  return ran;
}

/* every thread of the current team: its implicit task has an exit frame */
static void check_frames(void) {
  int flags = 0, tnum = -1;
  ompt_data_t *task_data = NULL, *par = NULL;
  ompt_frame_t *frame = NULL;
  EXPECT(get_task_info(0, &flags, &task_data, &frame, &par, &tnum) == 2);
  EXPECT(flags & ompt_task_implicit);
  EXPECT(frame && frame->exit_frame.ptr != NULL);
  EXPECT(tnum == omp_get_thread_num());
}

static long work(void) {
  long sum = 0, tasks = 0;
  omp_lock_t l;
  omp_init_lock(&l);
#pragma omp parallel num_threads(2) reduction(+ : sum)
  {
#pragma omp for schedule(dynamic, 3)
    for (int i = 0; i < 100; i++)
      sum += i;
#pragma omp single
    for (int i = 0; i < 10; i++) {
#pragma omp task
      {
        omp_set_lock(&l);
        tasks++;
        omp_unset_lock(&l);
      }
    }
  }
  omp_destroy_lock(&l);
  return sum + tasks;
}

int main(void) {
  EXPECT(work() == 4960);
  if (!strcmp(mode, "none")) {
    /* looked up, not linked: GCC 12's libgomp has no omp_control_tool, and libomp's carries
     * another symbol version than tomp's */
    int (*control_tool)(int, int, void *) =
        (int (*)(int, int, void *))dlsym(RTLD_DEFAULT, "omp_control_tool");
    EXPECT(control_tool &&
           control_tool(omp_control_tool_flush, 0, NULL) == omp_control_tool_nocallback);
    EXPECT(begins == 0);
  } else if (!strcmp(mode, "late")) {
    EXPECT(begins == 0);
    EXPECT(set_callback(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin) !=
           ompt_set_error);
    EXPECT(set_callback(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end) !=
           ompt_set_error);
    get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
#pragma omp parallel num_threads(2)
    check_frames();
    EXPECT(begins == 1 && ends == 1);
    EXPECT(work() == 4960);
    EXPECT(begins == 2 && ends == 2);
  } else if (!strcmp(mode, "chunk")) {
    EXPECT(late_dispatch() == 20);
    EXPECT(chunk_dispatches == 0);
  } else if (!strcmp(mode, "info")) {
#pragma omp parallel num_threads(2)
    check_frames();
  } else {
    printf("ERROR unknown mode %s\n", mode);
    return 2;
  }
  printf("%s %s\n", check_failures ? "failed" : "ok", mode);
  return check_failures != 0;
}
