/* A misbehaving tool (issue 17 E; tests/scenarios/ompt_misbehave.sh): every callback calls
 * every OMPT inquiry entry point and a long list of omp_* routines, a lock's included (with a
 * guard against its own mutex callbacks), on whatever thread and in whatever state the
 * runtime is in: thread begin and end, fork and join, barriers, tasks, locks, critical,
 * worksharing.  The inquiry entry points (OpenMP 5.2 sec. 19.6) are there for callbacks to
 * call; omp_* routines in a callback are the tool's own risk, but must not crash or deadlock
 * the runtime.  Checked: the
 * program's results, that every answer is sane (a known state, thread data in callbacks, a
 * thread number inside its team, positive processor counts), and that the callbacks ran. */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "../check.h"

static ompt_get_state_t get_state;
static ompt_get_thread_data_t get_thread_data;
static ompt_get_parallel_info_t get_parallel_info;
static ompt_get_task_info_t get_task_info;
static ompt_get_task_memory_t get_task_memory;
static ompt_get_num_places_t get_num_places;
static ompt_get_place_proc_ids_t get_place_proc_ids;
static ompt_get_place_num_t get_place_num;
static ompt_get_partition_place_nums_t get_partition_place_nums;
static ompt_get_proc_id_t get_proc_id;
static ompt_get_num_procs_t get_num_procs;
static ompt_enumerate_states_t enumerate_states;
static ompt_enumerate_mutex_impls_t enumerate_mutex_impls;
static ompt_get_unique_id_t get_unique_id;
static ompt_get_target_info_t get_target_info;
static ompt_get_num_devices_t get_num_devices;
static ompt_get_callback_t get_callback;

static int known_state[1024];
static int pokes, finalized, finalizing;
static __thread int poking;

/* every inquiry entry point and omp_* routine, answers checked for sanity */
static void poke(void) {
  if (poking) return; /* the lock below calls our mutex callbacks */
  poking = 1;
  __atomic_fetch_add(&pokes, 1, __ATOMIC_RELAXED);
  ompt_wait_id_t wait;
  int st = get_state(&wait);
  EXPECT(st >= 0 && st < 1024 && known_state[st]);
  EXPECT(get_state(NULL) == st || 1); /* NULL wait id is allowed */
  (void)get_thread_data();
  for (int level = 0; level < 4; level++) {
    ompt_data_t *pd;
    int size = -1;
    if (get_parallel_info(level, &pd, &size) == 2) EXPECT(size >= 1);
    int flags = 0, tnum = -1;
    ompt_data_t *td, *tpd;
    ompt_frame_t *fr;
    if (get_task_info(level, &flags, &td, &fr, &tpd, &tnum) == 2) EXPECT(tnum >= 0);
    void *addr;
    size_t bytes;
    (void)get_task_memory(&addr, &bytes, level);
  }
  int np = get_num_places();
  EXPECT(np >= 0);
  for (int p = 0; p < np && p < 4; p++) {
    int ids[256];
    int n = get_place_proc_ids(p, 0, NULL);
    EXPECT(n >= 0);
    if (n > 0 && n <= 256) EXPECT(get_place_proc_ids(p, n, ids) == n);
  }
  (void)get_place_num();
  int nums[64];
  int pn = get_partition_place_nums(0, NULL);
  if (pn > 0 && pn <= 64) (void)get_partition_place_nums(pn, nums);
  (void)get_proc_id();
  EXPECT(get_num_procs() > 0);
  EXPECT(get_unique_id() != 0);
  uint64_t dev;
  ompt_id_t tid, hid;
  (void)get_target_info(&dev, &tid, &hid);
  EXPECT(get_num_devices() >= 0);
  ompt_callback_t cb;
  /* registered; in the finalizer the registrations may already be gone */
  int got = get_callback(ompt_callback_parallel_begin, &cb);
  EXPECT(finalizing || (got == 1 && cb != NULL));
  /* the program's routines */
  int n = omp_get_num_threads(), t = omp_get_thread_num(), level = omp_get_level();
  EXPECT(n >= 1 && t >= 0 && t < n);
  EXPECT(level >= 0 && omp_get_active_level() >= 0 && omp_get_active_level() <= level);
  for (int l = 0; l <= level; l++)
    EXPECT(omp_get_ancestor_thread_num(l) >= 0 && omp_get_team_size(l) >= 1);
  EXPECT(omp_get_max_threads() >= 1 && omp_get_thread_limit() >= 1 && omp_get_num_procs() >= 1);
  (void)omp_in_parallel(), (void)omp_get_dynamic(), (void)omp_get_max_active_levels();
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  (void)omp_get_proc_bind(), (void)omp_get_num_places(), (void)omp_get_place_num();
  (void)omp_get_partition_num_places(), (void)omp_get_cancellation(), (void)omp_in_final();
  (void)omp_get_default_device(), (void)omp_get_num_devices(), (void)omp_is_initial_device();
  (void)omp_get_initial_device(), (void)omp_get_device_num(), (void)omp_get_team_num();
  EXPECT(omp_get_num_teams() >= 1);
  (void)omp_get_max_task_priority(), (void)omp_get_supported_active_levels();
  EXPECT(omp_get_wtime() > 0 && omp_get_wtick() > 0);
  char fmt[64];
  (void)omp_get_affinity_format(fmt, sizeof fmt);
  omp_lock_t l;
  omp_init_lock(&l);
  omp_set_lock(&l);
  EXPECT(!omp_test_lock(&l));
  omp_unset_lock(&l);
  omp_destroy_lock(&l);
  poking = 0;
}

static void check_live(void) {
  EXPECT(!__atomic_load_n(&finalized, __ATOMIC_RELAXED));
  poke();
}

static void on_thread(ompt_thread_t t, ompt_data_t *d) {
  (void)t, (void)d, check_live();
}
static void on_thread_end(ompt_data_t *d) {
  (void)d, check_live();
}
static void on_parallel_begin(ompt_data_t *e, const ompt_frame_t *f, ompt_data_t *p, unsigned n,
                              int fl, const void *ra) {
  (void)e, (void)f, (void)p, (void)n, (void)fl, (void)ra, check_live();
}
static void on_parallel_end(ompt_data_t *p, ompt_data_t *e, int fl, const void *ra) {
  (void)p, (void)e, (void)fl, (void)ra, check_live();
}
static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t, unsigned n,
                             unsigned i, int fl) {
  (void)ep, (void)p, (void)t, (void)n, (void)i, (void)fl, check_live();
}
static void on_task_create(ompt_data_t *e, const ompt_frame_t *f, ompt_data_t *t, int fl, int d,
                           const void *ra) {
  (void)e, (void)f, (void)t, (void)fl, (void)d, (void)ra, check_live();
}
static void on_task_schedule(ompt_data_t *a, ompt_task_status_t s, ompt_data_t *b) {
  (void)a, (void)s, (void)b, check_live();
}
static void on_sync(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t,
                    const void *ra) {
  (void)k, (void)ep, (void)p, (void)t, (void)ra, check_live();
}
static void on_work(ompt_work_t w, ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t,
                    uint64_t n, const void *ra) {
  (void)w, (void)ep, (void)p, (void)t, (void)n, (void)ra, check_live();
}
static void on_dispatch(ompt_data_t *p, ompt_data_t *t, ompt_dispatch_t k, ompt_data_t i) {
  (void)p, (void)t, (void)k, (void)i, check_live();
}
static void on_mutex_acquire(ompt_mutex_t k, unsigned h, unsigned impl, ompt_wait_id_t w,
                             const void *ra) {
  (void)k, (void)h, (void)impl, (void)w, (void)ra, check_live();
}
static void on_mutex(ompt_mutex_t k, ompt_wait_id_t w, const void *ra) {
  (void)k, (void)w, (void)ra, check_live();
}
static void on_masked(ompt_scope_endpoint_t ep, ompt_data_t *p, ompt_data_t *t, const void *ra) {
  (void)ep, (void)p, (void)t, (void)ra, check_live();
}
static void on_dependences(ompt_data_t *t, const ompt_dependence_t *d, int n) {
  (void)t, (void)d, (void)n, check_live();
}
static void on_reduction(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t *p,
                         ompt_data_t *t, const void *ra) {
  (void)k, (void)ep, (void)p, (void)t, (void)ra, check_live();
}

static int tool_initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data) {
  (void)dev, (void)data;
#define LOOK(v, name) v = (__typeof__(v))lookup(name)
  LOOK(get_state, "ompt_get_state");
  LOOK(get_thread_data, "ompt_get_thread_data");
  LOOK(get_parallel_info, "ompt_get_parallel_info");
  LOOK(get_task_info, "ompt_get_task_info");
  LOOK(get_task_memory, "ompt_get_task_memory");
  LOOK(get_num_places, "ompt_get_num_places");
  LOOK(get_place_proc_ids, "ompt_get_place_proc_ids");
  LOOK(get_place_num, "ompt_get_place_num");
  LOOK(get_partition_place_nums, "ompt_get_partition_place_nums");
  LOOK(get_proc_id, "ompt_get_proc_id");
  LOOK(get_num_procs, "ompt_get_num_procs");
  LOOK(enumerate_states, "ompt_enumerate_states");
  LOOK(enumerate_mutex_impls, "ompt_enumerate_mutex_impls");
  LOOK(get_unique_id, "ompt_get_unique_id");
  LOOK(get_target_info, "ompt_get_target_info");
  LOOK(get_num_devices, "ompt_get_num_devices");
  LOOK(get_callback, "ompt_get_callback");
#undef LOOK
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!get_state || !get_thread_data || !get_parallel_info || !get_task_info || !get_task_memory ||
      !get_num_places || !get_place_proc_ids || !get_place_num || !get_partition_place_nums ||
      !get_proc_id || !get_num_procs || !enumerate_states || !enumerate_mutex_impls ||
      !get_unique_id || !get_target_info || !get_num_devices || !get_callback || !set) {
    printf("ERROR: an OMPT entry point is missing\n");
    return 0;
  }
  int s = ompt_state_undefined;
  const char *name;
  while (enumerate_states(s, &s, &name))
    if (s >= 0 && s < 1024) known_state[s] = 1;
  int m = ompt_mutex_impl_none;
  unsigned guard = 0;
  while (enumerate_mutex_impls(m, &m, &name) && guard++ < 64) {
  }
#define SET(e, f) set(e, (ompt_callback_t)f)
  SET(ompt_callback_thread_begin, on_thread);
  SET(ompt_callback_thread_end, on_thread_end);
  SET(ompt_callback_parallel_begin, on_parallel_begin);
  SET(ompt_callback_parallel_end, on_parallel_end);
  SET(ompt_callback_implicit_task, on_implicit_task);
  SET(ompt_callback_task_create, on_task_create);
  SET(ompt_callback_task_schedule, on_task_schedule);
  SET(ompt_callback_sync_region, on_sync);
  SET(ompt_callback_sync_region_wait, on_sync);
  SET(ompt_callback_work, on_work);
  SET(ompt_callback_dispatch, on_dispatch);
  SET(ompt_callback_mutex_acquire, on_mutex_acquire);
  SET(ompt_callback_mutex_acquired, on_mutex);
  SET(ompt_callback_mutex_released, on_mutex);
  SET(ompt_callback_lock_init, on_mutex_acquire);
  SET(ompt_callback_lock_destroy, on_mutex);
  SET(ompt_callback_masked, on_masked);
  SET(ompt_callback_dependences, on_dependences);
  SET(ompt_callback_reduction, on_reduction);
#undef SET
  return 1;
}

static void tool_finalize(ompt_data_t *data) {
  (void)data;
  finalizing = 1;
  poke(); /* the finalizer may inquire too */
  __atomic_store_n(&finalized, 1, __ATOMIC_RELAXED);
  printf("finalize pokes=%d\n", __atomic_load_n(&pokes, __ATOMIC_RELAXED));
  fflush(stdout);
}

#include "misbehave.h"

int main(void) {
  omp_set_max_active_levels(2);
  omp_lock_t lock;
  omp_init_lock(&lock);
  long sum = 0, tasks = 0, crit = 0, sec = 0;
  int dep = 0, order_ok = 1;
#pragma omp parallel num_threads(3) reduction(+ : sum)
  {
#pragma omp for schedule(dynamic, 5)
    for (int i = 0; i < 200; i++)
      sum += i;
#pragma omp sections
    {
#pragma omp section
#pragma omp atomic
      sec++;
#pragma omp section
#pragma omp atomic
      sec++;
    }
#pragma omp single
    {
      for (int i = 0; i < 30; i++) {
#pragma omp task
        {
#pragma omp atomic
          tasks++;
        }
      }
#pragma omp task depend(out : dep)
      dep = 1;
#pragma omp task depend(in : dep)
      if (dep != 1) order_ok = 0;
#pragma omp taskwait
    }
#pragma omp critical
    crit++;
    omp_set_lock(&lock);
    crit++;
    omp_unset_lock(&lock);
#pragma omp masked
    crit += 0;
#pragma omp barrier
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
      crit++;
    }
  }
  omp_destroy_lock(&lock);
  CHECKF(sum == 19900 && tasks == 30 && sec == 2 && crit == 3 * 2 + 3 * 2 && order_ok,
         "sum %ld tasks %ld sections %ld crit %ld order %d", sum, tasks, sec, crit, order_ok);
  CHECKF(pokes > 50, "only %d callbacks inquired", pokes);
  CHECKF(check_failures == 0, "%d inquiry answers were not sane", check_failures);
  printf("ok: %d callbacks inquired everything\n", pokes);
  return 0;
}
