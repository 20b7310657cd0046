/* OMPD breakpoints (ompd_api.sh): this program defines the ompd_bp_* functions itself, so
 * libtomp (which calls them through their exported names) runs this program's copies, and
 * in each one it reads its own process through libtompd, as a debugger stopped there would:
 * OpenMP 5.2 says what the current parallel region and task are at each breakpoint.
 *   parallel_begin / _end: the region beginning / ending; the task that encountered it
 *   task_begin / _end:     the task beginning / ending
 *   thread_begin:          a thread that is already an OpenMP thread (its handle exists)
 * and ompd_dll_locations is set before ompd_dll_locations_valid is called.
 *   OMP_DEBUG=enabled OMPD_LIB=libtompd.so ompd_api_bp REGION_FN TASK_FN   (from nm) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "omp-tools.h"

static int fails, checks;
#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    __atomic_add_fetch(&checks, 1, __ATOMIC_RELAXED);                                              \
    if (!(cond)) {                                                                                 \
      __atomic_add_fetch(&fails, 1, __ATOMIC_RELAXED);                                             \
      printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                       \
      printf(__VA_ARGS__);                                                                         \
      printf("\n");                                                                                \
    }                                                                                              \
  } while (0)

/* ---- callbacks on this process ---- */
struct _ompd_aspace_cont {
  int unused;
};
static struct _ompd_aspace_cont self_ctx;
static ompd_rc_t cb_alloc(ompd_size_t n, void **p) {
  *p = malloc(n ? n : 1);
  return *p ? ompd_rc_ok : ompd_rc_nomem;
}
static ompd_rc_t cb_free(void *p) {
  free(p);
  return ompd_rc_ok;
}
static ompd_rc_t cb_sizes(ompd_address_space_context_t *c, ompd_device_type_sizes_t *s) {
  (void)c;
  *s = (ompd_device_type_sizes_t){1, 2, 4, 8, 8, 8};
  return ompd_rc_ok;
}
static ompd_rc_t cb_symbol(ompd_address_space_context_t *c, ompd_thread_context_t *t,
                           const char *name, ompd_address_t *addr, const char *file) {
  (void)c, (void)t, (void)file;
  void *p = dlsym(RTLD_DEFAULT, name);
  if (!p) return ompd_rc_error;
  addr->segment = 0;
  addr->address = (uint64_t)(uintptr_t)p;
  return ompd_rc_ok;
}
/* process_vm_readv: an unmapped address is an error, not a crash */
static ompd_rc_t cb_read(ompd_address_space_context_t *c, ompd_thread_context_t *t,
                         const ompd_address_t *a, ompd_size_t n, void *buf) {
  (void)c, (void)t;
  struct iovec l = {buf, n}, r = {(void *)(uintptr_t)a->address, n};
  return process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)n ? ompd_rc_ok : ompd_rc_error;
}
static ompd_rc_t cb_convert(ompd_address_space_context_t *c, const void *in, ompd_size_t unit,
                            ompd_size_t count, void *out) {
  (void)c;
  memcpy(out, in, unit * count);
  return ompd_rc_ok;
}
static const ompd_callbacks_t callbacks = {cb_alloc,   cb_free,    NULL, cb_sizes,
                                           cb_symbol,  cb_read,    NULL, cb_read,
                                           cb_convert, cb_convert, NULL};

#define OMPD_FUNCS(X)                                                                              \
  X(initialize)                                                                                    \
  X(process_initialize) X(get_thread_handle) X(rel_thread_handle) X(get_state)                     \
      X(get_curr_parallel_handle) X(get_enclosing_parallel_handle) X(rel_parallel_handle)          \
          X(parallel_handle_compare) X(get_curr_task_handle) X(get_generating_task_handle)         \
              X(get_task_in_parallel) X(rel_task_handle) X(task_handle_compare)                    \
                  X(get_task_function) X(enumerate_icvs) X(get_icv_from_scope) X(get_thread_in_parallel)
#define F(name) static __typeof__(ompd_##name) *p_##name;
OMPD_FUNCS(F)
#undef F
static ompd_address_space_handle_t *as;
static uint64_t region_fn, task_fn;

static void ompd_up(void) {
  void *dl = dlopen(getenv("OMPD_LIB"), RTLD_NOW);
  if (!dl) {
    printf("FAIL: dlopen %s: %s\n", getenv("OMPD_LIB"), dlerror());
    exit(1);
  }
#define F(name) p_##name = (__typeof__(p_##name))dlsym(dl, "ompd_" #name);
  OMPD_FUNCS(F)
#undef F
  if (p_initialize(202111, &callbacks) != ompd_rc_ok ||
      p_process_initialize(&self_ctx, &as) != ompd_rc_ok) {
    printf("FAIL: OMPD set-up\n");
    exit(1);
  }
}

static ompd_thread_handle_t *me(void) {
  ompd_thread_handle_t *th = NULL;
  int lwp = gettid();
  ompd_rc_t rc = p_get_thread_handle(as, 1, 4, &lwp, &th);
  CHECK(rc == ompd_rc_ok, "own thread handle: %d", rc);
  return th;
}
static int64_t icv(void *h, ompd_scope_t scope, const char *name) {
  ompd_icv_id_t cur = 0, next;
  const char *n;
  ompd_scope_t s;
  int more = 1;
  ompd_word_t v = -1;
  while (more && p_enumerate_icvs(as, cur, &next, &n, &s, &more) == ompd_rc_ok) {
    if (!strcmp(n, name)) {
      CHECK(p_get_icv_from_scope(h, scope, next, &v) == ompd_rc_ok, "%s", name);
      return v;
    }
    cur = next;
  }
  CHECK(0, "no ICV %s", name);
  return -1;
}

/* ---- the breakpoints ---- */
static int n_valid, n_pbegin, n_pend, n_tbegin, n_tend, n_thread, n_explicit;
static int locations_set;

void ompd_dll_locations_valid(void) {
  /* (looked up: the program links against no library that defines it) */
  const char ***locs = dlsym(RTLD_DEFAULT, "ompd_dll_locations");
  n_valid++;
  locations_set = locs && *locs && (*locs)[0] && !strcmp((*locs)[0], "libtompd.so");
}
void ompd_bp_thread_begin(void) {
  __atomic_add_fetch(&n_thread, 1, __ATOMIC_RELAXED);
  if (!as) return; /* the initial thread's, inside libtomp's start-up */
  ompd_thread_handle_t *th = me();
  ompd_word_t st = -1;
  if (th) CHECK(p_get_state(th, &st, NULL) == ompd_rc_ok && st == ompt_state_idle, "new worker");
  if (th) p_rel_thread_handle(th);
}
void ompd_bp_thread_end(void) {}

/* the region beginning or ending is the current one; the task that encountered it (the
 * initial task) is the current task */
static void at_parallel(int *count) {
  __atomic_add_fetch(count, 1, __ATOMIC_RELAXED);
  ompd_thread_handle_t *th = me();
  ompd_parallel_handle_t *p = NULL, *outer = NULL;
  ompd_task_handle_t *cur = NULL, *init = NULL;
  if (!th) return;
  CHECK(p_get_curr_parallel_handle(th, &p) == ompd_rc_ok, "current region");
  CHECK(p_get_curr_task_handle(th, &cur) == ompd_rc_ok, "current task");
  if (!p || !cur) return;
  CHECK(icv(p, ompd_scope_parallel, "team-size-var") == 3 &&
            icv(p, ompd_scope_parallel, "levels-var") == 1,
        "the region beginning/ending (3 threads, level 1)");
  CHECK(p_get_enclosing_parallel_handle(p, &outer) == ompd_rc_ok &&
            p_get_task_in_parallel(outer, 0, &init) == ompd_rc_ok,
        "enclosing region");
  /* the team's workers: none is outside all parallel regions (work_serial), not even one
   * created for this region that has not started to run yet */
  for (int i = 1; i < 3; i++) {
    ompd_thread_handle_t *w = NULL;
    ompd_word_t st = -1;
    CHECK(p_get_thread_in_parallel(p, i, &w) == ompd_rc_ok &&
              p_get_state(w, &st, NULL) == ompd_rc_ok && st != ompt_state_work_serial,
          "team member %d's state: %#lx", i, (long)st);
    if (w) p_rel_thread_handle(w);
  }
  int c = 99;
  if (init) p_task_handle_compare(cur, init, &c);
  CHECK(c == 0, "the current task is the encountering (initial) task");
  p_rel_task_handle(cur);
  if (init) p_rel_task_handle(init);
  if (outer) p_rel_parallel_handle(outer);
  p_rel_parallel_handle(p);
  p_rel_thread_handle(th);
}
void ompd_bp_parallel_begin(void) {
  at_parallel(&n_pbegin);
}
void ompd_bp_parallel_end(void) {
  at_parallel(&n_pend);
}

/* the current task is the one beginning or ending: an implicit task of the region (its
 * function the region's body, its thread number the thread's) or an explicit task (the task
 * construct's body, generated by an implicit task) */
static void at_task(int *count) {
  __atomic_add_fetch(count, 1, __ATOMIC_RELAXED);
  ompd_thread_handle_t *th = me();
  ompd_task_handle_t *t = NULL, *gen = NULL;
  if (!th || p_get_curr_task_handle(th, &t) != ompd_rc_ok) {
    CHECK(0, "current task");
    return;
  }
  ompd_address_t fn = {0, 0};
  CHECK(p_get_task_function(t, &fn) == ompd_rc_ok, "task function");
  if (icv(t, ompd_scope_task, "explicit-task-var")) {
    __atomic_add_fetch(&n_explicit, 1, __ATOMIC_RELAXED);
    CHECK(fn.address == task_fn, "explicit task: %#lx, expected %#lx", (long)fn.address,
          (long)task_fn);
    CHECK(p_get_generating_task_handle(t, &gen) == ompd_rc_ok &&
              icv(gen, ompd_scope_task, "implicit-task-var") == 1,
          "generated by an implicit task");
    if (gen) p_rel_task_handle(gen);
  } else {
    CHECK(fn.address == region_fn, "implicit task: %#lx, expected %#lx", (long)fn.address,
          (long)region_fn);
    CHECK(icv(t, ompd_scope_implicit_task, "thread-num-var") == omp_get_thread_num(),
          "its thread's number");
  }
  p_rel_task_handle(t);
  p_rel_thread_handle(th);
}
void ompd_bp_task_begin(void) {
  at_task(&n_tbegin);
}
void ompd_bp_task_end(void) {
  at_task(&n_tend);
}

/* ---- the program ---- */
static volatile int sum;
static void spawn(int i) {
#pragma omp task firstprivate(i)
  __atomic_add_fetch(&sum, i, __ATOMIC_RELAXED);
}
static void region(void) {
#pragma omp parallel num_threads(3)
  {
#pragma omp single
    for (int i = 1; i <= 4; i++)
      spawn(i);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  region_fn = strtoull(argv[1], NULL, 16);
  task_fn = strtoull(argv[2], NULL, 16);
  CHECK(n_valid == 1 && locations_set, "ompd_dll_locations set before ompd_dll_locations_valid");
  ompd_up();
  region();
  region();
  CHECK(sum == 20, "tasks ran");
  CHECK(n_pbegin == 2 && n_pend == 2, "parallel begin/end: %d/%d", n_pbegin, n_pend);
  CHECK(n_tbegin == 2 * 3 + 8 && n_tend == n_tbegin,
        "task begin/end: %d/%d (6 implicit, 8 explicit)", n_tbegin, n_tend);
  CHECK(n_explicit == 16, "explicit task begin+end: %d", n_explicit);
  CHECK(n_thread >= 3, "thread begin: %d (initial + 2 workers)", n_thread);
  printf("%d checks, %d failed\n", checks, fails);
  return fails != 0;
}
