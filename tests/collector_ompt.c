/* An OMPT tool (ompt_start_tool in this executable) and a Collector API collector attached
 * at the same time: both see every region, explicit barrier and lock wait; STOPping the
 * collector leaves the OMPT tool's events alone; a new collector session sees events again;
 * omp_control_tool still finds the OMPT tool; the collector's region ids and the ids the tool
 * gives the regions correspond one to one.
 * test-no-libgomp: libgomp has no __omp_collector_api (nor OMPT)
 * test-cflags: -rdynamic
 * test-no-libomp: libomp 14 has no __omp_collector_api
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp-tools.h>
#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "omp_collector_api.h"

#define HDR OMP_COLLECTORAPI_HEADERSIZE
#define R 12

/* ---- the OMPT tool ---------------------------------------------------------------------- */

static long o_begin, o_end, o_ebar, o_lock, o_threads;
static uint64_t o_next_id;

static void on_parallel_begin(ompt_data_t *etd, const ompt_frame_t *ef, ompt_data_t *pd,
                              unsigned req, int flags, const void *ra) {
  (void)etd, (void)ef, (void)req, (void)flags, (void)ra;
  pd->value = __atomic_add_fetch(&o_next_id, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&o_begin, 1, __ATOMIC_RELAXED);
}
static void on_parallel_end(ompt_data_t *pd, ompt_data_t *etd, int flags, const void *ra) {
  (void)pd, (void)etd, (void)flags, (void)ra;
  __atomic_fetch_add(&o_end, 1, __ATOMIC_RELAXED);
}
static void on_sync_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t *pd,
                         ompt_data_t *td, const void *ra) {
  (void)pd, (void)td, (void)ra;
  if (kind == ompt_sync_region_barrier_explicit && ep == ompt_scope_begin)
    __atomic_fetch_add(&o_ebar, 1, __ATOMIC_RELAXED);
}
static void on_mutex_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl, ompt_wait_id_t w,
                             const void *ra) {
  (void)hint, (void)impl, (void)w, (void)ra;
  if (kind == ompt_mutex_lock) __atomic_fetch_add(&o_lock, 1, __ATOMIC_RELAXED);
}
static void on_thread_begin(ompt_thread_t type, ompt_data_t *td) {
  (void)type, (void)td;
  __atomic_fetch_add(&o_threads, 1, __ATOMIC_RELAXED);
}

static ompt_get_parallel_info_t get_parallel_info;

static int tool_init(ompt_function_lookup_t lookup, int dev, ompt_data_t *data) {
  (void)dev, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
  set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
  set(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
  set(ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_wait);
  set(ompt_callback_mutex_acquire, (ompt_callback_t)on_mutex_acquire);
  set(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
  return 1;
}
static void tool_fini(ompt_data_t *data) { (void)data; }

ompt_start_tool_result_t *ompt_start_tool(unsigned int v, const char *rt);
ompt_start_tool_result_t *ompt_start_tool(unsigned int v, const char *rt) {
  (void)v, (void)rt;
  static ompt_start_tool_result_t r = {tool_init, tool_fini, {0}};
  return &r;
}

/* ---- the collector ---------------------------------------------------------------------- */

static int (*api)(void *);
static long c_ev[OMP_EVENT_THR_END_ATWT + 1];
static int id_mismatch;

static int request(int r, int ev, void (*cb)(OMP_COLLECTORAPI_EVENT), uint64_t *out) {
  uint64_t buf[8] = {0};
  char *p = (char *)buf;
  int memsz = r == OMP_REQ_REGISTER ? 12 : r == OMP_REQ_CURRENT_PRID ? 8 : 0;
  int h[4] = {HDR + memsz, r, -1, -1};
  memcpy(p, h, sizeof h);
  if (r == OMP_REQ_REGISTER) {
    memcpy(p + HDR, &ev, 4);
    memcpy(p + HDR + 4, &cb, 8);
  }
  CHECK(api(buf) == 0);
  int ec;
  memcpy(&ec, p + 8, 4);
  if (out) memcpy(out, p + HDR, 8);
  return ec;
}

/* collector region id -> OMPT region id, both seen by the encountering thread */
static uint64_t map_c[64], map_o[64];
static int nmap;

static void collector_cb(OMP_COLLECTORAPI_EVENT e) {
  __atomic_fetch_add(&c_ev[e], 1, __ATOMIC_RELAXED);
  if (e == OMP_EVENT_FORK) {
    uint64_t prid;
    CHECK(request(OMP_REQ_CURRENT_PRID, 0, NULL, &prid) == OMP_ERRCODE_OK);
    int i = __atomic_fetch_add(&nmap, 1, __ATOMIC_RELAXED);
    if (i < 64) map_c[i] = prid;
  }
}

static void start_collector(void) {
  CHECK(request(OMP_REQ_START, 0, NULL, NULL) == OMP_ERRCODE_OK);
  static const int evs[] = {OMP_EVENT_FORK, OMP_EVENT_JOIN, OMP_EVENT_THR_BEGIN_EBAR,
                            OMP_EVENT_THR_END_EBAR, OMP_EVENT_THR_BEGIN_LKWT,
                            OMP_EVENT_THR_END_LKWT, OMP_EVENT_THR_BEGIN_IDLE,
                            OMP_EVENT_THR_END_IDLE};
  for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++)
    CHECK(request(OMP_REQ_REGISTER, evs[i], collector_cb, NULL) == OMP_ERRCODE_OK);
}

static omp_lock_t lock;

static long regions(void) {
  long threads = 0;
  for (int r = 0; r < R; r++) {
#pragma omp parallel num_threads(3) reduction(+ : threads)
    {
      threads++;
      if (omp_get_thread_num() == 0) {
        /* the region as each interface names it */
        ompt_data_t *pd;
        int size;
        uint64_t prid;
        CHECK(get_parallel_info(0, &pd, &size) == 2);
        if (request(OMP_REQ_CURRENT_PRID, 0, NULL, &prid) == OMP_ERRCODE_OK) {
          int i = nmap - 1;
          if (i < 0 || i >= 64 || map_c[i] != prid) id_mismatch = 1;
          else map_o[i] = pd->value;
        }
      }
#pragma omp barrier
      omp_set_lock(&lock);
      omp_unset_lock(&lock);
    }
  }
  return threads;
}

/* looked up: gcc 12's libgomp, which the test links against, lacks omp_control_tool */
static int control_tool_flush(void) {
  int (*f)(int, int, void *) = (int (*)(int, int, void *))dlsym(RTLD_DEFAULT, "omp_control_tool");
  CHECK(f != NULL);
  return f(omp_control_tool_flush, 0, NULL);
}

static long c(int e) { return __atomic_load_n(&c_ev[e], __ATOMIC_RELAXED); }
static void c_reset(void) { memset(c_ev, 0, sizeof c_ev); }

int main(void) {
  api = (int (*)(void *))dlsym(RTLD_DEFAULT, OMP_COLLECTOR_API);
  CHECK(api != NULL);
  omp_init_lock(&lock);
  CHECK(o_threads == 1); /* the tool is up (initial thread_begin) */
  start_collector();

  long t = regions();
  CHECK(o_begin == R && o_end == R);
  CHECK(c(OMP_EVENT_FORK) == R && c(OMP_EVENT_JOIN) == R);
  CHECK(o_ebar == t && c(OMP_EVENT_THR_BEGIN_EBAR) == t && c(OMP_EVENT_THR_END_EBAR) == t);
  CHECK(o_lock == t && c(OMP_EVENT_THR_BEGIN_LKWT) == t && c(OMP_EVENT_THR_END_LKWT) == t);
  CHECK(c(OMP_EVENT_THR_END_IDLE) == R * 2);
  CHECK(o_threads >= 3); /* the workers' thread_begin still reaches the tool */
  CHECK(!id_mismatch && nmap == R);
  for (int i = 0; i < R; i++) {
    CHECK(map_c[i] != 0 && map_o[i] != 0);
    for (int j = 0; j < i; j++) CHECK(map_c[i] != map_c[j] && map_o[i] != map_o[j]);
  }
  /* the OMPT tool is present: it has no control_tool callback */
  CHECK(control_tool_flush() == omp_control_tool_nocallback);

  /* collector stopped: the OMPT tool still sees everything */
  CHECK(request(OMP_REQ_STOP, 0, NULL, NULL) == OMP_ERRCODE_OK);
  c_reset();
  o_begin = o_ebar = o_lock = 0;
  nmap = 0;
  t = regions();
  CHECK(o_begin == R && o_ebar == t && o_lock == t);
  for (int e = 0; e <= OMP_EVENT_THR_END_ATWT; e++) CHECK(c(e) == 0);
  CHECK(control_tool_flush() == omp_control_tool_nocallback);

  /* a new collector session: both again */
  start_collector();
  o_begin = o_ebar = 0;
  t = regions();
  CHECK(o_begin == R && c(OMP_EVENT_FORK) == R && o_ebar == t && c(OMP_EVENT_THR_BEGIN_EBAR) == t);
  CHECK(!id_mismatch);
  CHECK(request(OMP_REQ_STOP, 0, NULL, NULL) == OMP_ERRCODE_OK);
  omp_destroy_lock(&lock);
  printf("ok: %ld implicit tasks\n", t);
  return 0;
}
