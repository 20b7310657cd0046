/* The Collector API (__omp_collector_api), as a collector uses it.
 *
 * Before the runtime initialises (.preinit_array): requests before START are sequence
 * errors; START and REGISTER(FORK) in one batch.  Then: TAU's batch of REGISTER records for
 * every event (28-byte records, pointer unaligned) plus one in the aligned 32-byte layout;
 * malformed lists and records; a workload of nested regions, explicit and implicit barriers,
 * single, critical, locks, atomic (GOMP_atomic_start), ordered, sampled by a SIGPROF
 * (setitimer) handler that asks STATE and CURRENT_PRID; exact event counts, per-thread
 * begin/end pairing, unique non-zero region ids, parent ids of nested regions; threads sent
 * SIGPROF while blocked on a lock, a critical section, an ordered region, an explicit and an
 * implicit barrier, and while idle are seen in the matching state with the right wait id;
 * PAUSE/RESUME, UNREGISTER, STOP (everything then refused, nothing delivered) and a second
 * session after START; a thread tomp never saw.  With a preloaded sanitizer runtime the
 * session starts in main() (instrumented code cannot run before it initialises), and under
 * TSan the directed waits are skipped (TSan holds signals back from a sleeping thread).
 * test-no-libgomp: libgomp has no __omp_collector_api
 * test-timeout: 120
 * test-no-libomp: libomp 14 has no __omp_collector_api
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "check.h"
#include "omp_collector_api.h"

#define NEV (OMP_EVENT_THR_END_ATWT + 1)
#define HDR OMP_COLLECTORAPI_HEADERSIZE

static int (*api)(void *);

/* ---- building request lists --------------------------------------------------------------- */

typedef struct {
  uint64_t buf[256]; /* 8-aligned storage */
  size_t off;
} msg_t;

static char *at(msg_t *m, size_t off) { return (char *)m->buf + off; }

/* Append a record with memsz bytes of mem (copied from in, if given); returns its offset. */
static size_t add(msg_t *m, int r, size_t memsz, const void *in, size_t insz) {
  size_t o = m->off;
  int h[4] = {(int)(HDR + memsz), r, -1, -1};
  memcpy(at(m, o), h, sizeof h);
  memset(at(m, o + HDR), 0, memsz);
  if (in) memcpy(at(m, o + HDR), in, insz);
  m->off += HDR + memsz;
  memset(at(m, m->off), 0, 4); /* the terminating zero size */
  return o;
}

static int ec_of(msg_t *m, size_t o) {
  int v;
  memcpy(&v, at(m, o + 8), 4);
  return v;
}
static int rsz_of(msg_t *m, size_t o) {
  int v;
  memcpy(&v, at(m, o + 12), 4);
  return v;
}
static uint64_t u64_of(msg_t *m, size_t o, size_t at_off) {
  uint64_t v;
  memcpy(&v, at(m, o + HDR + at_off), 8);
  return v;
}
static int int_of(msg_t *m, size_t o) {
  int v;
  memcpy(&v, at(m, o + HDR), 4);
  return v;
}

/* TAU / OpenUH layout: the 4-byte event immediately followed by the callback. */
static size_t add_register(msg_t *m, int ev, void (*cb)(OMP_COLLECTORAPI_EVENT)) {
  char in[12];
  memcpy(in, &ev, 4);
  memcpy(in + 4, &cb, 8);
  return add(m, OMP_REQ_REGISTER, 12, in, 12);
}

static size_t add_register_aligned(msg_t *m, int ev, void (*cb)(OMP_COLLECTORAPI_EVENT)) {
  struct {
    int ev;
    void (*cb)(OMP_COLLECTORAPI_EVENT);
  } in = {ev, cb};
  return add(m, OMP_REQ_REGISTER, sizeof in, &in, sizeof in);
}

static void msg_init(msg_t *m) {
  m->off = 0;
  memset(m->buf, 0, 4);
}

/* one request with no arguments; returns its error code */
static int simple(int r) {
  msg_t m;
  msg_init(&m);
  size_t o = add(&m, r, 0, NULL, 0);
  CHECK(api(m.buf) == 0);
  return ec_of(&m, o);
}

static int reg(int ev, void (*cb)(OMP_COLLECTORAPI_EVENT)) {
  msg_t m;
  msg_init(&m);
  size_t o = add_register(&m, ev, cb);
  CHECK(api(m.buf) == 0);
  return ec_of(&m, o);
}

static int unreg(int ev) {
  msg_t m;
  msg_init(&m);
  size_t o = add(&m, OMP_REQ_UNREGISTER, 4, &ev, 4);
  CHECK(api(m.buf) == 0);
  return ec_of(&m, o);
}

/* STATE, CURRENT_PRID and PARENT_PRID in one call (async-signal-safe: stack only). */
typedef struct {
  int rc, st_ec, state, cur_ec, par_ec;
  uint64_t wait_id, cur, parent;
} query_t;

static query_t query(void) {
  msg_t m;
  msg_init(&m);
  size_t s = add(&m, OMP_REQ_STATE, 12, NULL, 0);
  size_t c = add(&m, OMP_REQ_CURRENT_PRID, 8, NULL, 0);
  size_t p = add(&m, OMP_REQ_PARENT_PRID, 8, NULL, 0);
  query_t q;
  q.rc = api(m.buf);
  q.st_ec = ec_of(&m, s);
  q.state = int_of(&m, s);
  q.wait_id = u64_of(&m, s, 4);
  q.cur_ec = ec_of(&m, c);
  q.cur = u64_of(&m, c, 0);
  q.par_ec = ec_of(&m, p);
  q.parent = q.par_ec == OMP_ERRCODE_OK ? u64_of(&m, p, 0) : 0;
  return q;
}

static uint64_t cur_prid(void) {
  query_t q = query();
  CHECK(q.rc == 0 && q.cur_ec == OMP_ERRCODE_OK);
  return q.cur;
}

/* ---- the collector's callbacks -------------------------------------------------------------- */

static long ev_count[NEV];
static int session = 1;
static int pair_errors;
static __thread int open_session;
static __thread int open_ev[NEV];

#define MAXFORKS 4096
static uint64_t fork_ids[MAXFORKS];
static int nforks_recorded;
static __thread uint64_t expect_parent; /* the encountering thread's region before a fork */
static __thread uint64_t last_forked;   /* the id its last FORK event announced */
static int fork_errors;

static void on_fork(void) {
  query_t q = query();
  if (q.rc != 0 || q.st_ec || q.cur_ec || q.par_ec) fork_errors |= 1;
  if (q.state != THR_OVHD_STATE) fork_errors |= 2;
  if (q.cur == 0 || q.cur == expect_parent) fork_errors |= 4;
  if (q.parent != expect_parent) fork_errors |= 8;
  last_forked = q.cur;
  int i = __atomic_fetch_add(&nforks_recorded, 1, __ATOMIC_RELAXED);
  if (i < MAXFORKS) fork_ids[i] = q.cur;
}

/* Begin events are odd from THR_BEGIN_IDLE on; on each thread a begin and its end alternate. */
static void collector_cb(OMP_COLLECTORAPI_EVENT e) {
  if ((int)e <= 0 || (int)e >= NEV) {
    __atomic_fetch_add(&pair_errors, 1000, __ATOMIC_RELAXED);
    return;
  }
  __atomic_fetch_add(&ev_count[e], 1, __ATOMIC_RELAXED);
  int s = __atomic_load_n(&session, __ATOMIC_RELAXED);
  if (open_session != s) {
    memset(open_ev, 0, sizeof open_ev);
    open_session = s;
  }
  if (e == OMP_EVENT_FORK) on_fork();
  if (e >= OMP_EVENT_THR_BEGIN_IDLE) {
    int begin = (e - OMP_EVENT_THR_BEGIN_IDLE) % 2 == 0;
    int b = begin ? (int)e : (int)e - 1;
    if (begin == open_ev[b]) __atomic_fetch_add(&pair_errors, 1, __ATOMIC_RELAXED);
    open_ev[b] = begin;
  }
}

static int aligned_fork_calls;
static void fork_cb_aligned(OMP_COLLECTORAPI_EVENT e) {
  __atomic_fetch_add(&aligned_fork_calls, 1, __ATOMIC_RELAXED);
  collector_cb(e);
}

static long count(int e) { return __atomic_load_n(&ev_count[e], __ATOMIC_RELAXED); }
static void reset_counts(void) {
  for (int i = 0; i < NEV; i++) __atomic_store_n(&ev_count[i], 0, __ATOMIC_RELAXED);
}
static long total_events(void) {
  long t = 0;
  for (int i = 0; i < NEV; i++) t += count(i);
  return t;
}

/* ---- before the runtime is initialised --------------------------------------------------- */

static int early_ok, early_rc_seq, early_ec_seq[2], early_ec_start[2];

static void start_session(void) {
  api = (int (*)(void *))dlsym(RTLD_DEFAULT, OMP_COLLECTOR_API);
  if (!api) return;
  msg_t m;
  msg_init(&m);
  size_t a = add_register(&m, OMP_EVENT_FORK, collector_cb);
  size_t b = add(&m, OMP_REQ_STATE, 12, NULL, 0);
  early_rc_seq = api(m.buf);
  early_ec_seq[0] = ec_of(&m, a);
  early_ec_seq[1] = ec_of(&m, b);
  msg_init(&m);
  a = add(&m, OMP_REQ_START, 0, NULL, 0);
  b = add_register(&m, OMP_EVENT_FORK, collector_cb);
  early_ok = api(m.buf) == 0;
  early_ec_start[0] = ec_of(&m, a);
  early_ec_start[1] = ec_of(&m, b);
}

/* A preloaded TSan or ASan runtime initialises after .preinit_array: no instrumented code
 * (tomp's sanitizer builds) may run before it, so there main() starts the session instead.  TSan also
 * holds a signal back until the thread passes one of its interceptors, so a thread asleep in
 * tomp's futex wait never runs the handler: the directed-wait checks are release-only. */
static int under_tsan, under_sanitizer;
static void early(int argc, char **argv, char **envp) {
  (void)argc, (void)argv;
  for (char **e = envp; e && *e; e++)
    if (!strncmp(*e, "LD_PRELOAD=", 11)) {
      under_tsan = strstr(*e, "libtsan") != NULL;
      under_sanitizer = under_tsan || strstr(*e, "libasan") != NULL;
    }
  if (!under_sanitizer) start_session();
}
__attribute__((section(".preinit_array"), used)) static void (*early_p)(int, char **,
                                                                      char **) = early;

/* ---- SIGPROF sampling ---------------------------------------------------------------------- */

typedef struct {
  int state, seq;
  uint64_t wait_id, prid;
} slot_t;
static slot_t slots[4];
static __thread slot_t *my_slot;
static int samples, sample_errors, state_hist[THR_LAST_STATE + 1];
static query_t bad_sample;

static void check_samples(void) {
  if (!sample_errors) return;
  fprintf(stderr, "bad sample (%d): rc %d ec %d/%d state %d wait id %#llx region %llu\n", sample_errors,
          bad_sample.rc, bad_sample.st_ec, bad_sample.cur_ec, bad_sample.state,
          (unsigned long long)bad_sample.wait_id, (unsigned long long)bad_sample.cur);
  exit(1);
}

static void on_sigprof(int sig) {
  (void)sig;
  int saved = errno;
  query_t q = query();
  int bad = q.rc != 0 || q.st_ec != OMP_ERRCODE_OK || q.cur_ec != OMP_ERRCODE_OK ||
            q.state < THR_OVHD_STATE || q.state > THR_ATWT_STATE;
  if (!bad) {
    /* outside regions and when idle there is no region; working threads are in one */
    if ((q.state == THR_SERIAL_STATE || q.state == THR_IDLE_STATE) && q.cur != 0) bad = 2;
    if ((q.state == THR_WORK_STATE || q.state == THR_IBAR_STATE || q.state == THR_ODWT_STATE) &&
        q.cur == 0)
      bad = 3;
    if ((q.state == THR_LKWT_STATE || q.state == THR_CTWT_STATE || q.state == THR_IBAR_STATE ||
         q.state == THR_EBAR_STATE || q.state == THR_ODWT_STATE || q.state == THR_ATWT_STATE) &&
        q.wait_id == 0)
      bad = 4;
    __atomic_fetch_add(&state_hist[q.state], 1, __ATOMIC_RELAXED);
  }
  if (bad) {
    bad_sample = q;
    __atomic_store_n(&sample_errors, bad, __ATOMIC_RELAXED);
  }
  __atomic_fetch_add(&samples, 1, __ATOMIC_RELAXED);
  slot_t *s = my_slot;
  if (s) {
    __atomic_store_n(&s->wait_id, q.wait_id, __ATOMIC_RELAXED);
    __atomic_store_n(&s->prid, q.cur, __ATOMIC_RELAXED);
    __atomic_store_n(&s->state, q.state, __ATOMIC_RELAXED);
    __atomic_fetch_add(&s->seq, 1, __ATOMIC_RELEASE);
  }
  errno = saved;
}

static void sleep_ms(int ms) {
  struct timespec ts = {0, ms * 1000000L};
  nanosleep(&ts, NULL);
}

/* Signal thread t until its handler reports `state` (and wait_id, if nonzero) from a sample
 * taken after the call started. */
static int poke_until(pthread_t t, slot_t *s, int state, uint64_t wait_id) {
  for (int i = 0; i < 20000; i++) {
    int seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
    pthread_kill(t, SIGPROF);
    for (int j = 0; j < 50 && __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) == seq; j++) sleep_ms(1);
    if (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) == seq) continue;
    if (__atomic_load_n(&s->state, __ATOMIC_RELAXED) == state &&
        (!wait_id || __atomic_load_n(&s->wait_id, __ATOMIC_RELAXED) == wait_id))
      return 1;
  }
  fprintf(stderr, "thread never seen in state %d (last %d, wait id %#llx)\n", state,
          __atomic_load_n(&s->state, __ATOMIC_RELAXED),
          (unsigned long long)__atomic_load_n(&s->wait_id, __ATOMIC_RELAXED));
  return 0;
}

/* ---- the workload ------------------------------------------------------------------------ */

static omp_lock_t lock;
static long double atomic_ld;
static long expect_idle_end;

typedef struct {
  long forks, threads, singles, ordered, nested_threads;
} expect_t;

/* forks: FORK events are being delivered (the region ids they announce can be checked) */
static void workload(int rounds, expect_t *x, int forks) {
  for (int r = 0; r < rounds; r++) {
    uint64_t ids[4] = {0}, outer = 0;
    int nthr = 0, ord_next = 0;
    long sizes = 0;
    expect_parent = cur_prid();
#pragma omp parallel num_threads(4) reduction(+ : sizes)
    {
      int tid = omp_get_thread_num();
      if (tid == 0) {
        nthr = omp_get_num_threads();
        outer = forks ? last_forked : cur_prid();
      }
#pragma omp barrier
      ids[tid] = cur_prid();
      volatile double acc = 0;
#pragma omp for schedule(dynamic)
      for (int i = 0; i < 200; i++)
        for (int k = 0; k < 10000; k++) acc += k * 0.5;
#pragma omp single
      x->singles++;
#pragma omp critical
      x->threads++;
      omp_set_lock(&lock);
      omp_unset_lock(&lock);
      if (omp_test_lock(&lock)) omp_unset_lock(&lock);
#pragma omp atomic
      atomic_ld += 1.0L;
#pragma omp for ordered schedule(static, 1)
      for (int i = 0; i < 8; i++) {
#pragma omp ordered
        {
          CHECK(ord_next == i);
          ord_next++;
        }
      }
      expect_parent = cur_prid();
      CHECK(expect_parent == outer);
#pragma omp parallel num_threads(2) reduction(+ : sizes)
      {
        query_t q = query();
        CHECK(q.rc == 0 && q.cur != 0 && q.cur != outer);
        if (omp_get_thread_num() == 0) {
          CHECK(q.par_ec == OMP_ERRCODE_OK && q.parent == outer);
          CHECK(!forks || q.cur == last_forked);
          sizes += omp_get_num_threads() - 1;
        } else {
          CHECK(q.par_ec == OMP_ERRCODE_THREAD_ERR);
        }
      }
      /* workers are not masters: PARENT_PRID is theirs only at fork */
      query_t q = query();
      if (tid == 0) CHECK(q.par_ec == OMP_ERRCODE_OK && q.parent == 0);
      else CHECK(q.par_ec == OMP_ERRCODE_THREAD_ERR);
    }
    expect_parent = 0;
    CHECK(outer != 0);
    for (int t = 0; t < nthr; t++) CHECK(ids[t] == outer);
    x->forks += 1 + nthr;
    x->ordered += 8;
    expect_idle_end += (nthr - 1) + sizes;
    x->nested_threads += nthr + sizes;
  }
}

static void check_counts(const expect_t *x, long threads) {
  CHECK(count(OMP_EVENT_FORK) == x->forks);
  CHECK(count(OMP_EVENT_JOIN) == x->forks);
  CHECK(count(OMP_EVENT_THR_END_IDLE) == expect_idle_end);
  /* the explicit barrier, and the single's closing barrier: gcc calls GOMP_barrier for it
   * (clang's __kmpc_barrier says it is implicit) */
#ifdef __clang__
  const long single_ebar = 0, single_ibar = threads;
#else
  const long single_ebar = threads, single_ibar = 0;
#endif
  CHECK(count(OMP_EVENT_THR_BEGIN_EBAR) == threads + single_ebar);
  CHECK(count(OMP_EVENT_THR_END_EBAR) == threads + single_ebar);
  /* the two loops' and the region's closing barriers; the nested regions' */
  CHECK(count(OMP_EVENT_THR_BEGIN_IBAR) == 3 * threads + single_ibar + x->nested_threads);
  CHECK(count(OMP_EVENT_THR_END_IBAR) == 3 * threads + single_ibar + x->nested_threads);
  CHECK(count(OMP_EVENT_THR_BEGIN_CTWT) == threads);
  CHECK(count(OMP_EVENT_THR_END_CTWT) == threads);
  CHECK(count(OMP_EVENT_THR_BEGIN_LKWT) == threads); /* omp_test_lock never waits */
  CHECK(count(OMP_EVENT_THR_END_LKWT) == threads);
  /* gcc's lock-based atomic (GOMP_atomic_start); clang calls libatomic: no runtime event */
#ifdef __clang__
  const long atwt = 0;
#else
  const long atwt = threads;
#endif
  CHECK(count(OMP_EVENT_THR_BEGIN_ATWT) == atwt);
  CHECK(count(OMP_EVENT_THR_END_ATWT) == atwt);
  CHECK(count(OMP_EVENT_THR_BEGIN_SINGLE) == x->singles);
  CHECK(count(OMP_EVENT_THR_END_SINGLE) == x->singles);
  CHECK(count(OMP_EVENT_THR_BEGIN_ORDERED) == x->ordered);
  CHECK(count(OMP_EVENT_THR_END_ORDERED) == x->ordered);
  CHECK(count(OMP_EVENT_THR_BEGIN_ODWT) == x->ordered);
  CHECK(count(OMP_EVENT_THR_END_ODWT) == x->ordered);
  CHECK(count(OMP_EVENT_THR_BEGIN_MASTER) == 0);
  CHECK(__atomic_load_n(&pair_errors, __ATOMIC_RELAXED) == 0);
  CHECK(fork_errors == 0);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void check_unique_fork_ids(void) {
  int n = __atomic_load_n(&nforks_recorded, __ATOMIC_RELAXED);
  CHECK(n > 0 && n <= MAXFORKS);
  qsort(fork_ids, (size_t)n, sizeof fork_ids[0], cmp_u64);
  CHECK(fork_ids[0] != 0);
  for (int i = 1; i < n; i++) CHECK(fork_ids[i] != fork_ids[i - 1]);
}

/* the constructs of workload(), without asking the collector anything */
static void plain_regions(void) {
  long n = 0;
  for (int r = 0; r < 3; r++) {
#pragma omp parallel num_threads(4) reduction(+ : n)
    {
#pragma omp barrier
#pragma omp single
      n++;
#pragma omp critical
      n++;
      omp_set_lock(&lock);
      omp_unset_lock(&lock);
#pragma omp for ordered schedule(static, 1)
      for (int i = 0; i < 4; i++) {
#pragma omp ordered
        n++;
      }
#pragma omp parallel num_threads(2)
      {
#pragma omp barrier
      }
    }
  }
  CHECK(n >= 3 * (1 + 1 + 4));
}

/* ---- waits seen from a signal handler ---------------------------------------------------- */

static omp_lock_t held;

static void directed_waits(void) {
  static pthread_t worker;
  static int step;
#pragma omp parallel num_threads(2)
  {
    int tid = omp_get_thread_num();
    my_slot = &slots[tid];
    if (tid == 1) worker = pthread_self();
#pragma omp barrier
    if (omp_get_num_threads() == 2) {
      /* a lock held by thread 0 */
      if (tid == 0) {
        omp_set_lock(&held);
        __atomic_store_n(&step, 1, __ATOMIC_RELEASE);
        CHECK(poke_until(worker, &slots[1], THR_LKWT_STATE, (uint64_t)(uintptr_t)&held));
        CHECK(__atomic_load_n(&slots[1].prid, __ATOMIC_RELAXED) == cur_prid());
        omp_unset_lock(&held);
      } else {
        while (__atomic_load_n(&step, __ATOMIC_ACQUIRE) < 1) sleep_ms(1);
        omp_set_lock(&held);
        omp_unset_lock(&held);
      }
#pragma omp barrier
      /* a critical section thread 0 is in */
      if (tid == 0) {
#pragma omp critical(cx)
        {
          __atomic_store_n(&step, 2, __ATOMIC_RELEASE);
          CHECK(poke_until(worker, &slots[1], THR_CTWT_STATE, 0));
        }
      } else {
        while (__atomic_load_n(&step, __ATOMIC_ACQUIRE) < 2) sleep_ms(1);
#pragma omp critical(cx)
        step = 3;
      }
      /* an explicit barrier thread 0 has not reached */
      if (tid == 0) CHECK(poke_until(worker, &slots[1], THR_EBAR_STATE, 0));
#pragma omp barrier
      /* an ordered region: iteration 1 (thread 1) waits for iteration 0 (thread 0) */
#pragma omp for ordered schedule(static, 1)
      for (int i = 0; i < 2; i++) {
#pragma omp ordered
        if (i == 0) CHECK(poke_until(worker, &slots[1], THR_ODWT_STATE, 0));
      }
      /* the region's closing barrier */
      if (tid == 0) CHECK(poke_until(worker, &slots[1], THR_IBAR_STATE, 0));
    }
  }
  /* the worker parked again: idle, in no region */
  CHECK(poke_until(worker, &slots[1], THR_IDLE_STATE, 0));
  CHECK(__atomic_load_n(&slots[1].prid, __ATOMIC_RELAXED) == 0);
}

/* ---- a thread tomp never saw ------------------------------------------------------------- */

static void *foreign(void *arg) {
  query_t *out = arg;
  *out = query();
  return NULL;
}

/* ---- malformed requests ------------------------------------------------------------------ */

static void bad_requests(void) {
  CHECK(api(NULL) == -1);
  msg_t m;
  msg_init(&m);
  size_t o = add(&m, OMP_REQ_CURRENT_PRID, 8, NULL, 0);
  CHECK(api(at(&m, 2)) == -1); /* not 4-aligned */
  int sz = 12;                 /* shorter than the header */
  memcpy(at(&m, o), &sz, 4);
  CHECK(api(m.buf) == -1);
  sz = 26; /* not a multiple of 4 */
  memcpy(at(&m, o), &sz, 4);
  CHECK(api(m.buf) == -1);

  /* a good record before a bad one is processed; the rest is ignored */
  msg_init(&m);
  size_t good = add(&m, OMP_REQ_CURRENT_PRID, 8, NULL, 0);
  size_t bad = add(&m, OMP_REQ_STATE, 12, NULL, 0);
  size_t after = add(&m, OMP_REQ_STATE, 12, NULL, 0);
  sz = 18;
  memcpy(at(&m, bad), &sz, 4);
  CHECK(api(m.buf) == -1);
  CHECK(ec_of(&m, good) == OMP_ERRCODE_OK && u64_of(&m, good, 0) == 0);
  CHECK(ec_of(&m, after) == -1); /* untouched */

  /* record-level errors: the call itself succeeds */
  msg_init(&m);
  size_t unk = add(&m, 42, 4, NULL, 0);
  size_t neg = add(&m, -1, 0, NULL, 0);
  size_t small_prid = add(&m, OMP_REQ_CURRENT_PRID, 4, NULL, 0);
  size_t small_par = add(&m, OMP_REQ_PARENT_PRID, 0, NULL, 0);
  size_t small_state = add(&m, OMP_REQ_STATE, 0, NULL, 0);
  size_t state4 = add(&m, OMP_REQ_STATE, 4, NULL, 0);
  size_t short_reg = add(&m, OMP_REQ_REGISTER, 4, NULL, 0);
  size_t short_unreg = add(&m, OMP_REQ_UNREGISTER, 0, NULL, 0);
  int ev = 0;
  size_t reg0 = add_register(&m, ev, collector_cb);
  size_t reg99 = add_register(&m, 99, collector_cb);
  size_t regimpl = add_register(&m, OMP_EVENT_THR_RESERVED_IMPL, collector_cb);
  size_t regnull = add_register(&m, OMP_EVENT_JOIN, NULL);
  size_t regmaster = add_register(&m, OMP_EVENT_THR_BEGIN_MASTER, collector_cb);
  ev = 77;
  size_t unreg77 = add(&m, OMP_REQ_UNREGISTER, 4, &ev, 4);
  size_t again = add(&m, OMP_REQ_START, 0, NULL, 0);
  size_t par = add(&m, OMP_REQ_PARENT_PRID, 8, NULL, 0);
  CHECK(api(m.buf) == 0);
  CHECK(ec_of(&m, unk) == OMP_ERRCODE_UNKNOWN);
  CHECK(ec_of(&m, neg) == OMP_ERRCODE_UNKNOWN);
  CHECK(ec_of(&m, small_prid) == OMP_ERRCODE_MEM_TOO_SMALL && rsz_of(&m, small_prid) == 8);
  CHECK(ec_of(&m, small_par) == OMP_ERRCODE_THREAD_ERR ||
        (ec_of(&m, small_par) == OMP_ERRCODE_MEM_TOO_SMALL && rsz_of(&m, small_par) == 8));
  CHECK(ec_of(&m, small_state) == OMP_ERRCODE_MEM_TOO_SMALL && rsz_of(&m, small_state) == 12);
  CHECK(ec_of(&m, state4) == OMP_ERRCODE_OK && rsz_of(&m, state4) == 4 &&
        int_of(&m, state4) == THR_SERIAL_STATE);
  CHECK(ec_of(&m, short_reg) == OMP_ERRCODE_ERROR);
  CHECK(ec_of(&m, short_unreg) == OMP_ERRCODE_ERROR);
  CHECK(ec_of(&m, reg0) == OMP_ERRCODE_UNKNOWN);
  CHECK(ec_of(&m, reg99) == OMP_ERRCODE_UNKNOWN);
  CHECK(ec_of(&m, regimpl) == OMP_ERRCODE_UNKNOWN);
  CHECK(ec_of(&m, regnull) == OMP_ERRCODE_ERROR);
  CHECK(ec_of(&m, regmaster) == OMP_ERRCODE_UNSUPPORTED);
  CHECK(ec_of(&m, unreg77) == OMP_ERRCODE_UNKNOWN);
  CHECK(ec_of(&m, again) == OMP_ERRCODE_SEQUENCE_ERR); /* already started */
  CHECK(ec_of(&m, par) == OMP_ERRCODE_THREAD_ERR);     /* the initial thread, no region */
}

/* omp_control_tool, looked up: gcc 12's libgomp (which the test links against) lacks it */
static int control_tool_flush(void) {
  int (*f)(int, int, void *) = (int (*)(int, int, void *))dlsym(RTLD_DEFAULT, "omp_control_tool");
  CHECK(f != NULL);
  return f(omp_control_tool_flush, 0, NULL);
}

/* ---- main --------------------------------------------------------------------------------- */

int main(void) {
  if (under_sanitizer) start_session();
  CHECK(api != NULL);
  /* requests before START were refused; START and the batched REGISTER worked, and both
   * before tomp's own constructor ran */
  CHECK(early_rc_seq == 0);
  CHECK(early_ec_seq[0] == OMP_ERRCODE_SEQUENCE_ERR && early_ec_seq[1] == OMP_ERRCODE_SEQUENCE_ERR);
  CHECK(early_ok && early_ec_start[0] == OMP_ERRCODE_OK && early_ec_start[1] == OMP_ERRCODE_OK);
  CHECK((int (*)(void *))dlsym(RTLD_DEFAULT, OMP_COLLECTOR_API) == api);
  /* a collector session is not an OMPT tool */
  CHECK(control_tool_flush() == omp_control_tool_notool);

  omp_set_max_active_levels(2);
  omp_init_lock(&lock);
  omp_init_lock(&held);

  query_t q = query();
  CHECK(q.rc == 0 && q.state == THR_SERIAL_STATE && q.cur == 0);
  bad_requests();

  /* TAU's registration: one record per event in one call (28 bytes each, unaligned pointer),
   * FORK in the aligned layout */
  msg_t m;
  msg_init(&m);
  size_t recs[NEV];
  for (int e = OMP_EVENT_FORK; e < NEV; e++)
    recs[e] = e == OMP_EVENT_FORK ? add_register_aligned(&m, e, fork_cb_aligned)
                                  : add_register(&m, e, collector_cb);
  CHECK(api(m.buf) == 0);
  for (int e = OMP_EVENT_FORK; e < NEV; e++) {
    int want = e == OMP_EVENT_THR_BEGIN_MASTER || e == OMP_EVENT_THR_END_MASTER
                   ? OMP_ERRCODE_UNSUPPORTED
                   : OMP_ERRCODE_OK;
    CHECK(ec_of(&m, recs[e]) == want);
    CHECK(rsz_of(&m, recs[e]) == 0);
  }

  /* the workload, sampled by a profiling timer */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigprof;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  CHECK(sigaction(SIGPROF, &sa, NULL) == 0);
  struct itimerval it = {{0, 500}, {0, 500}};
  CHECK(setitimer(ITIMER_PROF, &it, NULL) == 0);
  reset_counts();
  expect_t x = {0, 0, 0, 0, 0};
  workload(40, &x, 1);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &off, NULL);
  check_counts(&x, x.threads);
  CHECK(aligned_fork_calls == x.forks);
  CHECK(atomic_ld == (long double)x.threads);
  check_unique_fork_ids();
  check_samples();
  printf("%d samples; serial %d work %d ibar %d ebar %d idle %d lkwt %d ctwt %d odwt %d\n",
         samples, state_hist[THR_SERIAL_STATE], state_hist[THR_WORK_STATE],
         state_hist[THR_IBAR_STATE], state_hist[THR_EBAR_STATE], state_hist[THR_IDLE_STATE],
         state_hist[THR_LKWT_STATE], state_hist[THR_CTWT_STATE], state_hist[THR_ODWT_STATE]);

  /* waits, seen from the waiting thread's signal handler */
  if (under_tsan) printf("TSan: directed waits not checked (signals held back)\n");
  else directed_waits();
  check_samples();
  CHECK(__atomic_load_n(&pair_errors, __ATOMIC_RELAXED) == 0);

  /* PAUSE: nothing is delivered; a REGISTER issued meanwhile still counts */
  CHECK(simple(OMP_REQ_PAUSE) == OMP_ERRCODE_OK);
  CHECK(simple(OMP_REQ_PAUSE) == OMP_ERRCODE_OK); /* ignored */
  CHECK(unreg(OMP_EVENT_FORK) == OMP_ERRCODE_OK);
  CHECK(reg(OMP_EVENT_FORK, collector_cb) == OMP_ERRCODE_OK);
  reset_counts();
  expect_t y = {0, 0, 0, 0, 0};
  workload(3, &y, 0);
  CHECK(total_events() == 0);
  /* states and region ids stay available while paused */
#pragma omp parallel num_threads(2)
  CHECK(cur_prid() != 0);
  CHECK(simple(OMP_REQ_RESUME) == OMP_ERRCODE_OK);
  CHECK(simple(OMP_REQ_RESUME) == OMP_ERRCODE_OK); /* ignored */
  reset_counts();
  expect_idle_end = 0;
  expect_t z = {0, 0, 0, 0, 0};
  workload(3, &z, 1);
  check_counts(&z, z.threads);

  /* UNREGISTER: that event alone stops */
  CHECK(unreg(OMP_EVENT_FORK) == OMP_ERRCODE_OK);
  CHECK(unreg(OMP_EVENT_FORK) == OMP_ERRCODE_OK); /* not registered: ignored */
  CHECK(unreg(OMP_EVENT_THR_BEGIN_MASTER) == OMP_ERRCODE_UNSUPPORTED);
  reset_counts();
#pragma omp parallel num_threads(2)
  {
#pragma omp barrier
  }
  CHECK(count(OMP_EVENT_FORK) == 0 && count(OMP_EVENT_JOIN) == 1);
  CHECK(count(OMP_EVENT_THR_BEGIN_EBAR) >= 1);

  /* STOP: every callback cancelled, every request refused, nothing delivered */
  CHECK(simple(OMP_REQ_STOP) == OMP_ERRCODE_OK);
  __atomic_fetch_add(&session, 1, __ATOMIC_RELAXED);
  CHECK(simple(OMP_REQ_STOP) == OMP_ERRCODE_SEQUENCE_ERR);
  CHECK(simple(OMP_REQ_PAUSE) == OMP_ERRCODE_SEQUENCE_ERR);
  CHECK(simple(OMP_REQ_RESUME) == OMP_ERRCODE_SEQUENCE_ERR);
  CHECK(reg(OMP_EVENT_JOIN, collector_cb) == OMP_ERRCODE_SEQUENCE_ERR);
  CHECK(unreg(OMP_EVENT_JOIN) == OMP_ERRCODE_SEQUENCE_ERR);
  q = query();
  CHECK(q.rc == 0 && q.st_ec == OMP_ERRCODE_SEQUENCE_ERR && q.cur_ec == OMP_ERRCODE_SEQUENCE_ERR &&
        q.par_ec == OMP_ERRCODE_SEQUENCE_ERR);
  reset_counts();
  plain_regions();
  CHECK(total_events() == 0);
  CHECK(control_tool_flush() == omp_control_tool_notool);

  /* a second session: nothing registered until the collector registers again */
  CHECK(simple(OMP_REQ_START) == OMP_ERRCODE_OK);
  reset_counts();
#pragma omp parallel num_threads(2)
  {
#pragma omp barrier
  }
  CHECK(total_events() == 0);
  CHECK(reg(OMP_EVENT_FORK, collector_cb) == OMP_ERRCODE_OK);
  CHECK(reg(OMP_EVENT_JOIN, collector_cb) == OMP_ERRCODE_OK);
  CHECK(reg(OMP_EVENT_THR_BEGIN_EBAR, collector_cb) == OMP_ERRCODE_OK);
  CHECK(reg(OMP_EVENT_THR_END_EBAR, collector_cb) == OMP_ERRCODE_OK);
  expect_parent = 0;
  for (int i = 0; i < 5; i++) {
#pragma omp parallel num_threads(3)
    {
#pragma omp barrier
      CHECK(cur_prid() != 0);
    }
  }
  CHECK(count(OMP_EVENT_FORK) == 5 && count(OMP_EVENT_JOIN) == 5);
  CHECK(count(OMP_EVENT_THR_BEGIN_EBAR) >= 5);
  CHECK(count(OMP_EVENT_THR_BEGIN_EBAR) == count(OMP_EVENT_THR_END_EBAR));
  CHECK(__atomic_load_n(&pair_errors, __ATOMIC_RELAXED) == 0);
  CHECK(fork_errors == 0);
  check_unique_fork_ids(); /* ids of the new session differ from the first one's */

  /* a thread the runtime never saw: serial, no region, not a master */
  pthread_t pt;
  query_t fq;
  CHECK(pthread_create(&pt, NULL, foreign, &fq) == 0);
  pthread_join(pt, NULL);
  CHECK(fq.rc == 0 && fq.state == THR_SERIAL_STATE && fq.cur == 0 &&
        fq.par_ec == OMP_ERRCODE_THREAD_ERR);

  CHECK(simple(OMP_REQ_STOP) == OMP_ERRCODE_OK);
  omp_destroy_lock(&lock);
  omp_destroy_lock(&held);
  printf("ok: %ld forks, %ld implicit tasks checked\n", x.forks, x.threads);
  return 0;
}
