/* Async-signal safety of the OMPT inquiry entry points: every thread (the initial thread
 * and each worker, from its thread_begin) gets a per-thread SIGPROF timer at 20 kHz, and the
 * handler calls every inquiry entry point while parallel regions, barriers and nested
 * regions run for 1.5 s.  Success: no crash, no deadlock (the timeout), sane answers, at
 * least 100 samples; run twice.  The tool is in this executable (linked -rdynamic).
 *
 * test-cflags: -rdynamic -lrt
 * test-timeout: 60
 * test-repeat: 2
 * test-no-libgomp: libgomp has no OMPT: ompt_start_tool is never called
 * test-libomp-fails: libomp 14 exits with SIGSEGV here (not investigated)
 */
#include <errno.h>
#include <omp-tools.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static ompt_get_state_t get_state;
static ompt_get_thread_data_t get_thread_data;
static ompt_get_parallel_info_t get_parallel_info;
static ompt_get_task_info_t get_task_info;
static ompt_get_task_memory_t get_task_memory;
static ompt_get_unique_id_t get_unique_id;
static ompt_get_num_procs_t get_num_procs;
static ompt_get_num_places_t get_num_places;
static ompt_get_place_num_t get_place_num;
static ompt_get_place_proc_ids_t get_place_proc_ids;
static ompt_get_partition_place_nums_t get_partition_place_nums;
static ompt_get_proc_id_t get_proc_id;
static ompt_get_target_info_t get_target_info;
static ompt_get_num_devices_t get_num_devices;

static volatile int samples, bad;
static __thread timer_t my_timer;
static __thread int have_timer;
static __thread ompt_data_t *my_data;

static void handler(int sig) {
  (void)sig;
  int saved = errno;
  ompt_wait_id_t wid;
  int st = get_state(&wid);
  if (st == ompt_state_undefined && my_data) bad = 1;
  if (my_data && get_thread_data() != my_data) bad = 2;
  for (int l = 0; l < 4; l++) {
    ompt_data_t *pd, *td;
    ompt_frame_t *fr;
    int size, flags, tnum;
    if (get_parallel_info(l, &pd, &size) == 2 && (size < 1 || !pd)) bad = 3;
    if (get_task_info(l, &flags, &td, &fr, &pd, &tnum) == 2 && (!td || !fr || tnum < 0)) bad = 4;
  }
  void *addr;
  size_t sz;
  get_task_memory(&addr, &sz, 0);
  if (!get_unique_id()) bad = 5;
  if (get_num_procs() < 1) bad = 6;
  int ids[8], nums[8];
  if (get_num_places() > 0) get_place_proc_ids(0, 8, ids);
  get_place_num();
  get_partition_place_nums(8, nums);
  get_proc_id();
  uint64_t dev;
  ompt_id_t tid, hid;
  if (get_target_info(&dev, &tid, &hid)) bad = 7;
  if (get_num_devices() != 0) bad = 8;
  __atomic_add_fetch(&samples, 1, __ATOMIC_RELAXED);
  errno = saved;
}

static void start_timer(void) {
  struct sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = SIGPROF;
  sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
  if (timer_create(CLOCK_MONOTONIC, &sev, &my_timer)) {
    perror("timer_create");
    exit(2);
  }
  struct itimerspec its = {{0, 50000}, {0, 50000}}; /* 20 kHz */
  timer_settime(my_timer, 0, &its, NULL);
  have_timer = 1;
}

static void stop_timer(void) {
  if (have_timer) timer_delete(my_timer);
  have_timer = 0;
}

static void on_thread_begin(ompt_thread_t type, ompt_data_t *data) {
  (void)type;
  my_data = data;
  start_timer();
}

static void on_thread_end(ompt_data_t *data) {
  (void)data;
  stop_timer();
}

static int initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *tool_data) {
  (void)dev;
  (void)tool_data;
#define GET(v, name) v = (__typeof__(v))lookup(name)
  GET(get_state, "ompt_get_state");
  GET(get_thread_data, "ompt_get_thread_data");
  GET(get_parallel_info, "ompt_get_parallel_info");
  GET(get_task_info, "ompt_get_task_info");
  GET(get_task_memory, "ompt_get_task_memory");
  GET(get_unique_id, "ompt_get_unique_id");
  GET(get_num_procs, "ompt_get_num_procs");
  GET(get_num_places, "ompt_get_num_places");
  GET(get_place_num, "ompt_get_place_num");
  GET(get_place_proc_ids, "ompt_get_place_proc_ids");
  GET(get_partition_place_nums, "ompt_get_partition_place_nums");
  GET(get_proc_id, "ompt_get_proc_id");
  GET(get_target_info, "ompt_get_target_info");
  GET(get_num_devices, "ompt_get_num_devices");
  ompt_set_callback_t set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
  set_callback(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
  set_callback(ompt_callback_thread_end, (ompt_callback_t)on_thread_end);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &sa, NULL);
  return 1;
}

static void finalize(ompt_data_t *tool_data) { (void)tool_data; }

ompt_start_tool_result_t *ompt_start_tool(unsigned int v, const char *rv) {
  (void)v;
  (void)rv;
  static ompt_start_tool_result_t r = {initialize, finalize, {0}};
  return &r;
}

volatile long sink;

int main(void) {
  if (!get_state) {
    printf("tool not started\n");
    return 1;
  }
  /* a thread tomp does not know yet: state undefined, no data */
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  long regions = 0;
  do {
    for (int i = 0; i < 200; i++, regions++) {
#pragma omp parallel num_threads(3)
      {
        sink += omp_get_thread_num();
#pragma omp barrier
#pragma omp parallel num_threads(2)
        sink += 1;
      }
    }
    clock_gettime(CLOCK_MONOTONIC, &t);
  } while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 1500000000L);
  stop_timer();
  printf("regions=%ld samples=%d bad=%d\n", regions, samples, bad);
  return bad != 0 || samples < 100;
}
