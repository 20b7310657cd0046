/* Sampling: one wall-clock POSIX timer per OpenMP thread (CLOCK_MONOTONIC, delivered to that
 * thread by SIGEV_THREAD_ID), so a thread is sampled whether it computes, spins or sleeps in
 * a wait.  SIGPROF is installed with SA_RESTART; a sample can still interrupt a system call
 * that the kernel does not restart (nanosleep, futex waits with timeouts, ...), which then
 * returns EINTR to the program, as under any sampling profiler.
 *
 * The handler is async-signal-safe: OMPT inquiry functions (signal-safe by the spec's
 * design and in tomp and libomp), the libgcc unwinder (its tables are found lock-free through
 * _dl_find_object; warmed up before the first timer), and stores into the thread's own
 * preallocated chunk.  It never allocates, locks or does I/O.  The thread's CPU time comes
 * from its context-switch records (cputime.c), so the handler makes no system call. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "rec.h"

static int is_mutex_wait(int state) {
  return state == ompt_state_wait_lock || state == ompt_state_wait_critical ||
         state == ompt_state_wait_atomic ||
         state == ompt_state_wait_ordered || state == ompt_state_wait_mutex;
}

uint32_t tp_frame_flags(const ompt_frame_t *f) {
  return ((uint32_t)f->exit_frame_flags & 0xffff) | ((uint32_t)f->enter_frame_flags << 16);
}

void tp_task_now(tp_taskinfo_t *ti) {
  int tflags = 0, thread_num = 0;
  ompt_data_t *task = NULL;
  ompt_frame_t *frame = NULL;
  ti->context = ti->exit_frame = ti->enter_frame = 0;
  ti->frame_flags = 0;
  ti->parallel = NULL;
  if (!tp_g.get_task_info || tp_g.get_task_info(0, &tflags, &task, &frame, &ti->parallel, &thread_num) != 2)
    return;
  if (task) ti->context = task->value & ~TP_TASK_EXPLICIT;
  /* An implicit task is current on its thread before its implicit_task callback has given
   * it its region's context (a primary forking a region wakes its workers in between, and a
   * worker starts in the runtime): its region, if the tool knows it, names that context. */
  if (!ti->context && (tflags & ompt_task_implicit) && !(tflags & ompt_task_initial) && ti->parallel) {
    const tp_region_t *r = ti->parallel->ptr;
    if (r && atomic_load_explicit(&r->live, memory_order_acquire)) ti->context = r->context;
  }
  if (frame) {
    ti->exit_frame = (uint64_t)(uintptr_t)frame->exit_frame.ptr;
    ti->enter_frame = (uint64_t)(uintptr_t)frame->enter_frame.ptr;
    ti->frame_flags = tp_frame_flags(frame);
  }
}

static void fill_sample(tp_thread_t *t, tp_sample_t *s, uint64_t now, uint64_t interval,
                        uint64_t cpu, const uint64_t *counters, unsigned ncounters,
                        const ucontext_t *uc) {
  ompt_wait_id_t wait_id = 0;
  int state = tp_g.get_state ? tp_g.get_state(&wait_id) : ompt_state_undefined;
  int team = 0;
  ompt_data_t *par2 = NULL;
  tp_taskinfo_t ti;
  tp_task_now(&ti);
  ompt_data_t *par = ti.parallel;
  s->h.type = TP_REC_SAMPLE;
  s->thread = t->index;
  s->state = (uint32_t)state;
  s->ts_ns = now;
  s->wait_id = wait_id;
  s->context = ti.context;
  s->region = 0;
  s->region_context = 0;
  s->team_size = 1;
  s->team_waiting = 0;
  s->exit_frame = ti.exit_frame;
  s->enter_frame = ti.enter_frame;
  s->frame_flags = ti.frame_flags;
  s->flags = 0;
  s->ncounters = 0;
  s->interval_ns = interval;
  s->cpu_ns = cpu;
  if (tp_g.get_parallel_info && tp_g.get_parallel_info(0, &par2, &team) == 2) {
    if (!par) par = par2;
    if (team > 0) s->team_size = (uint32_t)team;
  }
  tp_region_t *r = par ? par->ptr : NULL;
  if (r && !atomic_load_explicit(&r->live, memory_order_acquire)) {
    /* the region has ended: LLVM's libomp keeps answering with it while its workers wait
     * for the next region in a barrier state; such a worker is idle, not in this region */
    r = NULL;
    if (state >= ompt_state_wait_barrier && state < ompt_state_wait_taskwait) s->context = 0;
  }
  if (r) {
    s->region = r->instance;
    s->region_context = r->context;
    s->team_waiting = tp_region_waiting(r);
    if (s->team_waiting > s->team_size) s->team_waiting = s->team_size;
  }
  if (is_mutex_wait(state)) tp_blame_sample(t, wait_id, interval);
  int exact = 0, truncated = 0;
  s->nframes = tp_unwind_sig(t, s->frames, TP_MAX_FRAMES, (uint64_t)uc->uc_mcontext.gregs[REG_RIP],
                             (uint64_t)uc->uc_mcontext.gregs[REG_RSP], &exact, &truncated);
  s->flags = (exact ? TP_SAMPLE_LEAF_EXACT : 0) | (truncated ? TP_SAMPLE_TRUNCATED : 0);
  s->ncounters = ncounters;
  uint64_t *cv = (uint64_t *)(s->frames + s->nframes);
  for (unsigned i = 0; i < ncounters; i++) cv[i] = counters[i];
  s->h.size = (uint32_t)(sizeof(tp_sample_t) + s->nframes * sizeof(tp_frame_t) +
                         ncounters * sizeof(uint64_t));
}

static void on_sigprof(int sig, siginfo_t *si, void *ucv) {
  (void)sig;
  (void)si;
  int saved_errno = errno;
  tp_thread_t *t = tp_self;
  if (!t) goto out;
  atomic_store(&t->in_handler, 1);
  /* TOMP_PROF_STATS: the handler's CPU time on one sample in 8 (two clock reads, outside the
   * wall-clock measure below) */
  uint64_t c0 = tp_g.cfg.stats && tp_g.cfg.cpu && !(t->samples & 7) ? tp_cpu_ns() : TP_CPU_UNKNOWN;
  /* Every expiry closes an interval (the time since the previous one): overruns and late
   * delivery make it longer than the period; the sample stands for all of it. */
  uint64_t t0 = tp_now_ns();
  uint64_t from = t->last_ns, interval = t0 - from;
  t->last_ns = t0;
  int overflow = t->overflow_fd >= 0; /* sampled on a counter's overflow, not the timer */
  unsigned nc = tp_counters_n();
  uint64_t counters[TP_MAX_COUNTERS];
  if (atomic_load(&tp_g.stopped) || atomic_load_explicit(&t->closed, memory_order_relaxed))
    goto done;
  /* the thread's CPU time over the interval (taken while paused too: paused time is not
   * thread time of the recording, nor are its CPU time and events) */
  uint64_t cpu = tp_cpu_take(t, from, t0);
  if (atomic_load_explicit(&tp_g.paused, memory_order_relaxed)) {
    if (nc) tp_counters_read(t, counters);
    goto done;
  }
  /* on a counter's overflow the thread was running: the sample stands for its CPU time */
  if (overflow && cpu != TP_CPU_UNKNOWN) interval = cpu;
  if (nc) tp_counters_read(t, counters);
  tp_sample_t *s;
  int parked = atomic_load_explicit(&t->in_write, memory_order_relaxed);
  if (parked) {
    /* interrupted a record being appended: park the sample, the writer appends it */
    if (atomic_load_explicit(&t->pending, memory_order_relaxed)) {
      t->lost++;
      t->lost_ns += interval;
      t->lost_parked++;
      goto done;
    }
    s = (tp_sample_t *)t->pending_buf;
  } else {
    s = tp_buf_reserve_sig(t, (uint32_t)TP_SAMPLE_MAX);
    if (!s) {
      t->lost++;
      t->lost_ns += interval;
      goto done;
    }
  }
  fill_sample(t, s, t0, interval, cpu, counters, nc, ucv);
  atomic_signal_fence(memory_order_release);
  if (parked) {
    atomic_store_explicit(&t->pending, 1, memory_order_relaxed); /* counted when appended */
  } else {
    tp_buf_commit_sig(t, s->h.size);
    t->samples++;
  }
  uint64_t d = tp_now_ns() - t0;
  t->handler_ns += d;
  t->cost_hist[d / TP_HIST_NS < TP_HIST ? d / TP_HIST_NS : TP_HIST - 1]++;
  if (tp_g.cfg.stats && tp_cpu_switched(t) == 0) {
    t->run_hist[d / TP_HIST_NS < TP_HIST ? d / TP_HIST_NS : TP_HIST - 1]++;
    t->run_samples++;
  }
  if (c0 != TP_CPU_UNKNOWN) {
    uint64_t c1 = tp_cpu_ns();
    if (c1 != TP_CPU_UNKNOWN && c1 >= c0) {
      uint64_t dc = c1 - c0;
      t->cpu_hist[dc / TP_HIST_NS < TP_HIST ? dc / TP_HIST_NS : TP_HIST - 1]++;
      t->cpu_samples++;
    }
  }
done:
  atomic_store(&t->in_handler, 0);
out:
  errno = saved_errno;
}

void tp_sampler_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigprof;
  sa.sa_flags = SA_RESTART | SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  /* Installed for good: after finalize a signal still in flight must find a handler (the
   * default action of SIGPROF ends the process). */
  sigaction(SIGPROF, &sa, NULL);
}

void tp_sampler_arm(tp_thread_t *t) {
  if (!t || t->timer_ok || t->overflow_fd >= 0) return;
  tp_counters_open(t);
  if (tp_counters_sampling()) {
    tp_cpu_start(t);
    t->last_ns = tp_now_ns();
    if (tp_counters_arm_overflow(t) == 0) return;
    /* this thread's counter could not be armed (the probe at start-up could): the timer */
  }
  struct sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = SIGPROF;
  sev._sigev_un._tid = (int)gettid();
  if (timer_create(CLOCK_MONOTONIC, &sev, &t->timer) != 0) return;
  tp_cpu_start(t);
  t->last_ns = tp_now_ns();
  uint64_t period = 1000000000ull / tp_g.cfg.hz;
  /* stagger the first expiry so that the threads of a team are not all hit at once */
  uint64_t first = period + (period / 16) * (t->index % 16);
  struct itimerspec its = {{(time_t)(period / 1000000000u), (long)(period % 1000000000u)},
                           {(time_t)(first / 1000000000u), (long)(first % 1000000000u)}};
  if (timer_settime(t->timer, 0, &its, NULL) != 0) {
    timer_delete(t->timer);
    return;
  }
  t->timer_ok = 1;
}

void tp_sampler_disarm(tp_thread_t *t) {
  if (!t) return;
  tp_counters_disarm_overflow(t);
  if (atomic_exchange(&t->timer_ok, 0)) timer_delete(t->timer);
}
