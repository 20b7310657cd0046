/* Per-thread record buffers and the data file.
 *
 * Each OpenMP thread owns TP_NCHUNKS fixed-size chunks, allocated when the thread begins.
 * Only the owning thread appends (its signal handler or its callbacks, kept apart by
 * in_write/pending); a full chunk is handed to the writer thread (state FULL, sem_post, both
 * signal-safe), which writes it and hands it back (FREE).  When no chunk is free the sample is
 * dropped and counted.  Every write to the file holds `file_lock` and happens outside signal
 * handlers; a thread's chunks are written in fill order so its records stay in time order. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rec.h"

__thread tp_thread_t *tp_self __attribute__((tls_model("initial-exec")));

static int fd = -1;
static pthread_mutex_t file_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(tp_thread_t *) all_threads;
static _Atomic uint32_t nthreads;
static sem_t wake;
static pthread_t writer;
static int writer_running;
static _Atomic int writer_stop;
static int finished;

uint64_t tp_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void write_all(const void *p, size_t n) {
  const char *c = p;
  while (n > 0 && fd >= 0) {
    ssize_t w = write(fd, c, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      fprintf(stderr, "tomp-prof: writing the data file failed (%s); recording stops\n",
              w < 0 ? strerror(errno) : "no progress");
      close(fd);
      fd = -1;
      atomic_store(&tp_g.stopped, 1);
      return;
    }
    c += w;
    n -= (size_t)w;
  }
}

static int mpi_rank(void) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                     "MV2_COMM_WORLD_RANK", "SLURM_PROCID"};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
    const char *v = getenv(vars[i]);
    char *end;
    if (!v || !*v) continue;
    long r = strtol(v, &end, 10);
    if (!*end && r >= 0 && r < 1 << 30) return (int)r;
  }
  return -1;
}

/* /proc/self/<name> into a malloc'd buffer (these files have no size). */
static char *slurp_proc(const char *path, size_t *len) {
  int f = open(path, O_RDONLY | O_CLOEXEC);
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  if (f < 0 || !buf) {
    if (f >= 0) close(f);
    free(buf);
    *len = 0;
    return NULL;
  }
  for (;;) {
    if (n == cap) {
      char *nb = realloc(buf, cap * 2);
      if (!nb) break;
      buf = nb;
      cap *= 2;
    }
    ssize_t r = read(f, buf + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    n += (size_t)r;
  }
  close(f);
  *len = n;
  return buf;
}

static uint32_t pad8(uint64_t n) { return (uint32_t)((n + 7) & ~(uint64_t)7); }

static int create_file(const char *dir, int rank, char *path, size_t size) {
  mkdir(dir, 0777); /* the record command made it; a bare OMP_TOOL_LIBRARIES may not */
  if (rank >= 0)
    snprintf(path, size, "%s/tomp-prof.r%d.%lld.dat", dir, rank, (long long)tp_g.pid);
  else
    snprintf(path, size, "%s/tomp-prof.%lld.dat", dir, (long long)tp_g.pid);
  return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
}

int tp_buf_open(const char *runtime) {
  char path[4200];
  int rank = mpi_rank();
  fd = create_file(tp_g.cfg.dir, rank, path, sizeof path);
  if (fd < 0 && strcmp(tp_g.cfg.dir, ".")) {
    fprintf(stderr, "tomp-prof: TOMP_PROF_DIR='%s': cannot create %s (%s); writing to the current directory\n",
            tp_g.cfg.dir, path, strerror(errno));
    strcpy(tp_g.cfg.dir, ".");
    fd = create_file(tp_g.cfg.dir, rank, path, sizeof path);
  }
  if (fd < 0) {
    fprintf(stderr, "tomp-prof: cannot create %s (%s); not recording\n", path, strerror(errno));
    return -1;
  }
  sem_init(&wake, 0, 0); /* handlers may post before the writer thread runs */
  size_t cmdlen;
  char *cmd = slurp_proc("/proc/self/cmdline", &cmdlen);
  uint32_t size = pad8(sizeof(tp_header_t) + cmdlen);
  tp_header_t *h = calloc(1, size);
  if (!h) {
    free(cmd);
    return -1;
  }
  h->h.type = TP_REC_HEADER;
  h->h.size = size;
  memcpy(h->magic, TP_MAGIC, 8);
  h->version = TP_VERSION;
  h->sample_hz = tp_g.cfg.hz;
  h->pid = tp_g.pid;
  h->rank = rank;
  h->flags = tp_g.cfg.trace ? TP_HDR_TRACE : 0;
  h->start_ns = tp_g.start_ns;
  struct timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  h->start_realtime_ns = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
  snprintf(h->runtime, sizeof h->runtime, "%s", runtime ? runtime : "");
  if (cmd) memcpy(h + 1, cmd, cmdlen);
  write_all(h, size);
  free(h);
  free(cmd);
  return fd >= 0 ? 0 : -1;
}

void tp_buf_write_direct(const void *rec, uint32_t size) {
  pthread_mutex_lock(&file_lock);
  write_all(rec, size);
  pthread_mutex_unlock(&file_lock);
}

/* ---- appending (owning thread only) ---- */

void *tp_buf_reserve_sig(tp_thread_t *t, uint32_t max) {
  tp_chunk_t *c = t->cur;
  if (c && c->used + max <= TP_CHUNK_SIZE) return c->data + c->used;
  if (c) {
    atomic_store_explicit(&c->state, TP_CHUNK_FULL, memory_order_release);
    t->cur = NULL;
    sem_post(&wake);
  }
  for (int i = 0; i < TP_NCHUNKS; i++) {
    c = &t->chunks[i];
    if (c->data && atomic_load_explicit(&c->state, memory_order_acquire) == TP_CHUNK_FREE) {
      c->used = 0;
      c->seq = t->next_seq++;
      atomic_store_explicit(&c->state, TP_CHUNK_ACTIVE, memory_order_relaxed);
      t->cur = c;
      return c->data;
    }
  }
  return NULL;
}

void tp_buf_commit_sig(tp_thread_t *t, uint32_t size) { t->cur->used += size; }

static void write_full_locked(tp_thread_t *t);

static int spare_chunks(tp_thread_t *t) {
  int n = 0;
  for (int i = 0; i < TP_NCHUNKS; i++)
    n += t->chunks[i].data && atomic_load_explicit(&t->chunks[i].state, memory_order_relaxed) == TP_CHUNK_FREE;
  return n;
}

/* Callback context (never a handler): when no chunk is free, write ours out here rather than
 * drop the record. */
static int append(tp_thread_t *t, const void *rec, uint32_t size) {
  void *p = tp_buf_reserve_sig(t, size);
  if (!p) {
    pthread_mutex_lock(&file_lock);
    write_full_locked(t);
    pthread_mutex_unlock(&file_lock);
    p = tp_buf_reserve_sig(t, size);
    if (!p) return 0;
  }
  memcpy(p, rec, size);
  tp_buf_commit_sig(t, size);
  return 1;
}

/* Dekker with the finisher: in_write is raised before `stopped` is read; the finisher raises
 * `stopped` before waiting for in_write to fall. */
static int begin_write(tp_thread_t *t) {
  atomic_store(&t->in_write, 1);
  if (atomic_load(&tp_g.stopped) || atomic_load_explicit(&t->closed, memory_order_relaxed)) {
    atomic_store(&t->in_write, 0);
    return 0;
  }
  return 1;
}

/* A sample parked while we wrote: append it now (still inside the write). */
static void end_write(tp_thread_t *t) {
  for (;;) {
    if (atomic_load_explicit(&t->pending, memory_order_relaxed)) {
      atomic_signal_fence(memory_order_acquire);
      tp_sample_t *s = (tp_sample_t *)t->pending_buf;
      /* counted here, not in the handler: this counter has one writer, the callback side */
      t->parked_samples += (uint64_t)append(t, s, s->h.size);
      atomic_store_explicit(&t->pending, 0, memory_order_relaxed);
    }
    atomic_store(&t->in_write, 0);
    if (!atomic_load_explicit(&t->pending, memory_order_relaxed)) return;
    if (!begin_write(t)) return;
  }
}

void tp_buf_put(tp_thread_t *t, const void *rec, uint32_t size) {
  if (!t) return;
  if (!spare_chunks(t) && !atomic_load(&t->closed)) {
    /* A traced program can outrun the writer thread: keep a spare chunk for the handler by
     * writing our full ones now, outside in_write so samples meanwhile are not parked. */
    pthread_mutex_lock(&file_lock);
    if (!atomic_load(&t->closed)) write_full_locked(t);
    pthread_mutex_unlock(&file_lock);
  }
  if (!begin_write(t)) return;
  append(t, rec, size);
  end_write(t);
}

/* ---- writing chunks out (never in a handler) ---- */

/* With file_lock held: t's full chunks, oldest first. */
static void write_full_locked(tp_thread_t *t) {
  for (;;) {
    tp_chunk_t *best = NULL;
    for (int i = 0; i < TP_NCHUNKS; i++) {
      tp_chunk_t *c = &t->chunks[i];
      if (c->data && atomic_load_explicit(&c->state, memory_order_acquire) == TP_CHUNK_FULL &&
          (!best || c->seq < best->seq))
        best = c;
    }
    if (!best) return;
    write_all(best->data, best->used);
    best->used = 0;
    atomic_store_explicit(&best->state, TP_CHUNK_FREE, memory_order_release);
  }
}

void tp_buf_flush_full(void) {
  pthread_mutex_lock(&file_lock);
  for (tp_thread_t *t = atomic_load(&all_threads); t; t = t->next_all)
    if (!atomic_load(&t->closed)) write_full_locked(t);
  pthread_mutex_unlock(&file_lock);
}

/* Own thread's chunks, the partial one included; in_write keeps our handler out. */
static void flush_own_locked(tp_thread_t *t) {
  write_full_locked(t);
  if (t->cur && t->cur->used) {
    write_all(t->cur->data, t->cur->used);
    t->cur->used = 0;
  }
}

void tp_buf_flush_self(tp_thread_t *t) {
  if (!t || !begin_write(t)) return;
  pthread_mutex_lock(&file_lock);
  flush_own_locked(t);
  pthread_mutex_unlock(&file_lock);
  end_write(t);
  tp_buf_flush_full();
}

static void *writer_main(void *arg) {
  (void)arg;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  while (!atomic_load(&writer_stop)) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 200 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000;
    }
    while (sem_timedwait(&wake, &ts) < 0 && errno == EINTR) {
    }
    for (tp_thread_t *t = atomic_load(&all_threads); t; t = t->next_all) tp_cpu_open_for(t);
    tp_buf_flush_full();
  }
  return NULL;
}

static void start_writer_once(void) {
  /* A plain pthread of the tool (not an OpenMP thread), created with every signal blocked
   * (timer and overflow signals go to their own threads anyway). */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  writer_running = pthread_create(&writer, NULL, writer_main, NULL) == 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void tp_buf_wake_writer(void) { sem_post(&wake); }

void tp_buf_start_writer(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  if (!atomic_load_explicit(&tp_g.stopped, memory_order_relaxed)) pthread_once(&once, start_writer_once);
}

/* ---- threads ---- */

tp_thread_t *tp_thread_new(uint32_t kind) {
  tp_thread_t *t = aligned_alloc(64, (sizeof(tp_thread_t) + 63) & ~(size_t)63);
  if (!t) return NULL;
  memset(t, 0, sizeof *t);
  for (int i = 0; i < TP_MAX_COUNTERS; i++) t->ctr_fd[i] = -1;
  t->overflow_fd = -1;
  t->index = atomic_fetch_add(&nthreads, 1);
  t->kind = kind;
  t->tid = gettid();
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void *lo;
    size_t size;
    if (pthread_attr_getstack(&attr, &lo, &size) == 0) {
      t->stack_lo = (uint64_t)(uintptr_t)lo;
      t->stack_hi = t->stack_lo + size;
    }
    pthread_attr_destroy(&attr);
  }
  /* populated now: a page fault on a fresh page would cost the handler microseconds */
  char *mem = mmap(NULL, (size_t)TP_NCHUNKS * TP_CHUNK_SIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (mem != MAP_FAILED)
    for (int i = 0; i < TP_NCHUNKS; i++) t->chunks[i].data = mem + (size_t)i * TP_CHUNK_SIZE;
  t->next_all = atomic_load(&all_threads);
  while (!atomic_compare_exchange_weak(&all_threads, &t->next_all, t)) {
  }
  tp_thread_rec_t r = {{TP_REC_THREAD, sizeof r}, t->index, kind, t->tid, tp_now_ns()};
  tp_buf_put(t, &r, sizeof r);
  return t;
}

void tp_sampler_quiesce(tp_thread_t *t) {
  while (atomic_load(&t->in_handler) || atomic_load(&t->in_write)) sched_yield();
}

void tp_thread_close(tp_thread_t *t) {
  tp_sampler_disarm(t);
  tp_counters_close(t); /* a thread's own handler is kept out by ctr_ok, others' by quiesce */
  tp_cpu_stop(t);       /* likewise by sw_state */
  atomic_store(&t->in_write, 1); /* keeps our own handler (a signal still in flight) out */
  pthread_mutex_lock(&file_lock);
  if (!atomic_load(&t->closed)) {
    flush_own_locked(t);
    atomic_store(&t->closed, 1);
    if (t->chunks[0].data) munmap(t->chunks[0].data, (size_t)TP_NCHUNKS * TP_CHUNK_SIZE);
    for (int i = 0; i < TP_NCHUNKS; i++) t->chunks[i].data = NULL;
    t->cur = NULL;
  }
  pthread_mutex_unlock(&file_lock);
  atomic_store(&t->in_write, 0);
}

/* ---- the end ---- */

/* Quantile of the handler-time histogram, in ns (bucket middle). */
static uint64_t quantile(const uint64_t *hist, uint64_t total, double q) {
  uint64_t seen = 0;
  for (int i = 0; i < TP_HIST; i++) {
    seen += hist[i];
    if (seen > (uint64_t)(q * (double)total)) return (uint64_t)i * TP_HIST_NS + TP_HIST_NS / 2;
  }
  return TP_HIST * TP_HIST_NS;
}

static void print_stats(const tp_end_t *end, const uint64_t *hist, const uint64_t *cpu_hist,
                        uint64_t ncpu, const uint64_t *run_hist, uint64_t nrun,
                        uint64_t lost_parked, uint64_t nswitch, uint64_t ndropped) {
  uint64_t n = end->samples, creates = atomic_load(&tp_g.creates);
  if (n)
    fprintf(stderr,
            "tomp-prof: %llu samples; handler time per sample: median %llu ns, p90 %llu ns, "
            "mean %llu ns (wall clock: includes preemption)\n",
            (unsigned long long)n, (unsigned long long)quantile(hist, n, 0.5),
            (unsigned long long)quantile(hist, n, 0.9), (unsigned long long)(end->sample_ns / n));
  if (nrun)
    fprintf(stderr,
            "tomp-prof: handler time per sample not preempted (%llu samples: no context "
            "switch of the thread during the handler): median %llu ns, p90 %llu ns\n",
            (unsigned long long)nrun, (unsigned long long)quantile(run_hist, nrun, 0.5),
            (unsigned long long)quantile(run_hist, nrun, 0.9));
  if (ncpu)
    fprintf(stderr,
            "tomp-prof: handler CPU time per sample: median %llu ns, p90 %llu ns (thread CPU "
            "clock from the handler's clock read to one at its end; not the kernel's signal "
            "delivery)\n",
            (unsigned long long)quantile(cpu_hist, ncpu, 0.5),
            (unsigned long long)quantile(cpu_hist, ncpu, 0.9));
  if (tp_g.cfg.cpu)
    fprintf(stderr,
            "tomp-prof: CPU time per sample from context-switch records on %llu of %llu "
            "threads (the others read the thread CPU clock: a system call per sample); %llu "
            "of them went over to the clock (more than 4 switches per sample)\n",
            (unsigned long long)nswitch, (unsigned long long)end->threads,
            (unsigned long long)ndropped);
  if (end->lost)
    fprintf(stderr, "tomp-prof: %llu samples lost: %llu with no free chunk, %llu during a callback's write\n",
            (unsigned long long)end->lost, (unsigned long long)(end->lost - lost_parked),
            (unsigned long long)lost_parked);
  if (creates) {
    uint64_t ch[TP_HIST];
    for (int i = 0; i < TP_HIST; i++) ch[i] = atomic_load(&tp_g.create_hist[i]);
    fprintf(stderr, "tomp-prof: %llu explicit tasks; task_create callback: median %llu ns, mean %llu ns; "
            "%llu creation paths found in the memo\n",
            (unsigned long long)creates, (unsigned long long)quantile(ch, creates, 0.5),
            (unsigned long long)(atomic_load(&tp_g.create_ns) / creates),
            (unsigned long long)atomic_load(&tp_g.memo_hits));
  }
}

void tp_buf_finish(void) {
  if (finished || tp_g.pid != getpid()) return; /* a forked child writes nothing */
  finished = 1;
  atomic_store(&tp_g.stopped, 1);
  if (writer_running) {
    atomic_store(&writer_stop, 1);
    sem_post(&wake);
    pthread_join(writer, NULL);
    writer_running = 0;
  }
  tp_end_t end = {{TP_REC_END, sizeof end}, 0, 0, 0, 0, 0, 0, 0};
  static uint64_t hist[TP_HIST], cpu_hist[TP_HIST], run_hist[TP_HIST];
  uint64_t lost_parked = 0, ncpu = 0, nrun = 0, nswitch = 0, ndropped = 0;
  for (tp_thread_t *t = atomic_load(&all_threads); t; t = t->next_all) {
    tp_sampler_disarm(t);
    tp_sampler_quiesce(t);
    nswitch += t->sw_used;
    ndropped += t->sw_dropped;
    tp_thread_close(t);
    end.samples += t->samples + t->parked_samples;
    end.lost += t->lost;
    end.lost_ns += t->lost_ns;
    end.sample_ns += t->handler_ns;
    end.threads++;
    for (int i = 0; i < TP_HIST; i++) hist[i] += t->cost_hist[i];
    for (int i = 0; i < TP_HIST; i++) cpu_hist[i] += t->cpu_hist[i];
    ncpu += t->cpu_samples;
    for (int i = 0; i < TP_HIST; i++) run_hist[i] += t->run_hist[i];
    nrun += t->run_samples;
    lost_parked += t->lost_parked;
  }
  if (tp_g.cfg.stats) print_stats(&end, hist, cpu_hist, ncpu, run_hist, nrun, lost_parked, nswitch, ndropped);
  tp_ctx_write_regions();
  size_t len;
  char *maps = slurp_proc("/proc/self/maps", &len);
  uint32_t size = pad8(sizeof(tp_maps_t) + len);
  tp_maps_t *m = calloc(1, size);
  if (m) {
    m->h.type = TP_REC_MAPS;
    m->h.size = size;
    m->len = len;
    if (maps) memcpy(m->text, maps, len);
    tp_buf_write_direct(m, size);
  }
  free(m);
  free(maps);
  end.end_ns = tp_now_ns();
  end.contexts = tp_ctx_count();
  tp_buf_write_direct(&end, sizeof end);
  pthread_mutex_lock(&file_lock);
  if (fd >= 0) close(fd);
  fd = -1;
  pthread_mutex_unlock(&file_lock);
}

void tp_buf_forked_child(void) {
  /* The child has one thread, no timers and a copy of the parent's buffers: it records
   * nothing, so the parent's file only ever holds the parent's data. */
  atomic_store(&tp_g.stopped, 1);
  writer_running = 0;
  finished = 1;
  if (fd >= 0) close(fd);
  fd = -1;
  pthread_mutex_init(&file_lock, NULL);
}
