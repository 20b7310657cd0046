/* LLVM's tasking entry points called directly, as clang's code calls them: the task block
 * (kmp_task_t, privates, shareds), the destructors flag (once per task: deferred, if(0),
 * each taskloop chunk and the taskloop's pattern), an untied routine that queues itself
 * again at its scheduling points, taskloop's bounds written into each
 * chunk's privates and task_dup's lastprivate flag on the last chunk only, the older task
 * reduction form (init(priv), no original's address), and the allocator
 * entry points; proxy tasks and __kmpc_omp_task_parts; tasks allocated before earlier ones
 * are submitted.  Serial and in a team of 3. */
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../check.h"

typedef int32_t (*entry_t)(int32_t, void *);
typedef struct {
  void *shareds;
  entry_t routine;
  int32_t part_id;
  union {
    int32_t priority;
    entry_t destructors;
  } data1, data2;
} kmp_task_t;

kmp_task_t *__kmpc_omp_task_alloc(void *loc, int32_t gtid, int32_t flags, size_t sz, size_t shsz,
                                  entry_t entry);
int32_t __kmpc_omp_task(void *loc, int32_t gtid, kmp_task_t *t);
void __kmpc_omp_task_begin_if0(void *loc, int32_t gtid, kmp_task_t *t);
void __kmpc_omp_task_complete_if0(void *loc, int32_t gtid, kmp_task_t *t);
int32_t __kmpc_omp_taskwait(void *loc, int32_t gtid);
int32_t __kmpc_global_thread_num(void *loc);
void __kmpc_taskloop(void *loc, int32_t gtid, kmp_task_t *t, int32_t if_val, uint64_t *lb,
                     uint64_t *ub, int64_t st, int32_t nogroup, int32_t sched, uint64_t grainsize,
                     void *task_dup);
void __kmpc_taskgroup(void *loc, int32_t gtid);
void __kmpc_end_taskgroup(void *loc, int32_t gtid);
void *__kmpc_task_reduction_init(int32_t gtid, int32_t num, void *data);
void *__kmpc_task_reduction_get_th_data(int32_t gtid, void *tg, void *data);
void *__kmpc_alloc(int32_t gtid, size_t size, uintptr_t allocator);
void *__kmpc_aligned_alloc(int32_t gtid, size_t align, size_t size, uintptr_t allocator);
void __kmpc_free(int32_t gtid, void *ptr, uintptr_t allocator);
void __kmpc_proxy_task_completed_ooo(kmp_task_t *t);
int32_t __kmpc_omp_task_parts(void *loc, int32_t gtid, kmp_task_t *t);

#define TIED 0x1
#define DESTRUCTORS 0x8
#define PROXY 0x10

static int ran, dtors, parts;

/* a task with a private int and two shared pointers */
typedef struct {
  kmp_task_t t;
  int priv;
} plain_task_t;

static int32_t plain_body(int32_t gtid, void *p) {
  plain_task_t *t = p;
  CHECK(gtid == __kmpc_global_thread_num(NULL));
  int **sh = t->t.shareds;
  CHECK(*sh[0] == 7 && *sh[1] == 8 && t->priv == 42);
  __atomic_fetch_add(&ran, 1, __ATOMIC_SEQ_CST);
  return 0;
}

static int32_t plain_dtor(int32_t gtid, void *p) {
  plain_task_t *t = p;
  CHECK(t->priv == 42);
  t->priv = -1;
  __atomic_fetch_add(&dtors, 1, __ATOMIC_SEQ_CST);
  return 0;
}

static int seven = 7, eight = 8;

static kmp_task_t *make_plain(int32_t gtid) {
  kmp_task_t *t = __kmpc_omp_task_alloc(NULL, gtid, TIED | DESTRUCTORS, sizeof(plain_task_t),
                                        2 * sizeof(int *), plain_body);
  CHECK(t && t->shareds && ((uintptr_t)t->shareds % sizeof(void *)) == 0);
  CHECK((char *)t->shareds >= (char *)t + sizeof(plain_task_t));
  int **sh = t->shareds;
  sh[0] = &seven;
  sh[1] = &eight;
  ((plain_task_t *)t)->priv = 42;
  t->data1.destructors = plain_dtor;
  return t;
}

/* untied: three parts, queued again at the end of the first two */
static int32_t untied_body(int32_t gtid, void *p) {
  kmp_task_t *t = p;
  __atomic_fetch_add(&parts, 1, __ATOMIC_SEQ_CST);
  switch (t->part_id) {
  case 0:
    t->part_id = 1;
    __kmpc_omp_task(NULL, gtid, t);
    return 0;
  case 1:
    t->part_id = 2;
    __kmpc_omp_task(NULL, gtid, t);
    return 0;
  default:
    __atomic_fetch_add(&ran, 1, __ATOMIC_SEQ_CST);
    return 0;
  }
}

/* taskloop: the bounds where clang puts them (after kmp_task_t), a lastprivate flag */
typedef struct {
  kmp_task_t t;
  uint64_t lb, ub;
  int64_t st;
  int32_t liter;
  int fp;
} loop_task_t;

static int hits[100], dups, last_flags, loop_dtors;

static int32_t loop_body(int32_t gtid, void *p) {
  loop_task_t *t = p;
  CHECK(t->fp == 5);
  for (uint64_t i = t->lb; i <= t->ub; i += (uint64_t)t->st)
    __atomic_fetch_add(&hits[i], 1, __ATOMIC_SEQ_CST);
  if (t->liter) CHECK(t->ub == 99);
  return 0;
}

static void loop_dup(kmp_task_t *dst, kmp_task_t *src, int32_t lastpriv) {
  loop_task_t *d = (loop_task_t *)dst, *s = (loop_task_t *)src;
  CHECK(s->fp == 5);
  d->fp = s->fp;
  d->liter = lastpriv;
  __atomic_fetch_add(&dups, 1, __ATOMIC_SEQ_CST);
  if (lastpriv) __atomic_fetch_add(&last_flags, 1, __ATOMIC_SEQ_CST);
}

static int32_t loop_dtor(int32_t gtid, void *p) {
  __atomic_fetch_add(&loop_dtors, 1, __ATOMIC_SEQ_CST);
  return 0;
}

/* the older task reduction input (no original's address) */
typedef struct {
  void *shar;
  size_t size;
  void *init, *fini, *comb;
  uint32_t flags;
} red_input_t;

static int red_threads;
static void red_init(void *priv) {
  *(long *)priv = 0;
}
static void red_comb(void *shar, void *priv) {
  *(long *)shar += *(long *)priv;
}

typedef struct {
  kmp_task_t t;
  void *tg;
} red_task_t;
static long red_var;

static int32_t red_body(int32_t gtid, void *p) {
  red_task_t *t = p;
  long *mine = __kmpc_task_reduction_get_th_data(gtid, t->tg, &red_var);
  /* libomp keeps no copies for a team of one */
  if (red_threads > 1) CHECK(mine != &red_var);
  *mine += 1;
  return 0;
}

static void run_all(int nth) {
  int32_t gtid = __kmpc_global_thread_num(NULL);
  ran = dtors = parts = 0;
  /* deferred (or run at once: the runtime decides), then if(0) */
  for (int i = 0; i < 10; i++)
    __kmpc_omp_task(NULL, gtid, make_plain(gtid));
  __kmpc_omp_taskwait(NULL, gtid);
  CHECKF(ran == 10 && dtors == 10, "ran %d dtors %d", ran, dtors);
  /* two tasks allocated before either is submitted, submitted in allocation order */
  kmp_task_t *a = make_plain(gtid), *b = make_plain(gtid);
  __kmpc_omp_task(NULL, gtid, a);
  kmp_task_t *c = make_plain(gtid);
  __kmpc_omp_task(NULL, gtid, b);
  __kmpc_omp_task(NULL, gtid, c);
  __kmpc_omp_taskwait(NULL, gtid);
  CHECKF(ran == 13 && dtors == 13, "ran %d dtors %d", ran, dtors);
  ran = dtors = 10;
  kmp_task_t *t = make_plain(gtid);
  __kmpc_omp_task_begin_if0(NULL, gtid, t);
  plain_body(gtid, t);
  CHECK(dtors == 10);
  __kmpc_omp_task_complete_if0(NULL, gtid, t);
  CHECKF(ran == 11 && dtors == 11, "ran %d dtors %d", ran, dtors);

  /* untied, deferred and if(0) */
  ran = parts = 0;
  for (int i = 0; i < 10; i++)
    __kmpc_omp_task(NULL, gtid,
                    __kmpc_omp_task_alloc(NULL, gtid, 0, sizeof(kmp_task_t), 0, untied_body));
  __kmpc_omp_taskwait(NULL, gtid);
  CHECKF(ran == 10 && parts == 30, "ran %d parts %d", ran, parts);

  /* taskloop, num_tasks(4) */
  for (int i = 0; i < 100; i++)
    hits[i] = 0;
  dups = last_flags = loop_dtors = 0;
  loop_task_t *lt = (loop_task_t *)__kmpc_omp_task_alloc(NULL, gtid, TIED | DESTRUCTORS,
                                                         sizeof(loop_task_t), 0, loop_body);
  lt->lb = 0;
  lt->ub = 99;
  lt->st = 1;
  lt->fp = 5;
  lt->t.data1.destructors = loop_dtor;
  __kmpc_taskloop(NULL, gtid, &lt->t, 1, &lt->lb, &lt->ub, 1, 0, 2, 4, (void *)loop_dup);
  for (int i = 0; i < 100; i++)
    CHECKF(hits[i] == 1, "iteration %d ran %d times", i, hits[i]);
  CHECKF(dups == 4 && last_flags == 1, "dups %d last %d", dups, last_flags);
  CHECKF(loop_dtors == 5, "destructors %d (4 chunks and the pattern)", loop_dtors);

  /* task reduction, older form */
  red_var = 1;
  red_threads = nth;
  __kmpc_taskgroup(NULL, gtid);
  red_input_t in = {&red_var, sizeof(long), (void *)red_init, NULL, (void *)red_comb, 0};
  void *tg = __kmpc_task_reduction_init(gtid, 1, &in);
  for (int i = 0; i < 20; i++) {
    red_task_t *rt =
        (red_task_t *)__kmpc_omp_task_alloc(NULL, gtid, TIED, sizeof(red_task_t), 0, red_body);
    rt->tg = tg;
    __kmpc_omp_task(NULL, gtid, &rt->t);
  }
  __kmpc_end_taskgroup(NULL, gtid);
  CHECKF(red_var == 1 + 20, "red_var %ld with %d threads", red_var, nth);

  /* allocators: omp_default_mem_alloc is 1 in both compilers' omp.h */
  char *p = __kmpc_alloc(gtid, 100, 1);
  char *q = __kmpc_aligned_alloc(gtid, 256, 100, 1);
  CHECK(p && q && (uintptr_t)q % 256 == 0);
  p[99] = q[99] = 1;
  __kmpc_free(gtid, p, 1);
  __kmpc_free(gtid, q, 1);
}

/* A proxy task (as an offloading runtime makes them) is complete only once
 * __kmpc_proxy_task_completed_ooo says so: a taskwait waits for that even after its body
 * ran.  The older __kmpc_omp_task_parts submits like __kmpc_omp_task.  In a team (libomp
 * keeps proxy tasks for teams with a task team). */
static int proxy_done;
static void *complete_later(void *t) {
  while (!__atomic_load_n(&ran, __ATOMIC_SEQ_CST))
    sched_yield();
  usleep(20000);
  __atomic_store_n(&proxy_done, 1, __ATOMIC_SEQ_CST);
  __kmpc_proxy_task_completed_ooo(t);
  return NULL;
}

static void proxy(void) {
  int32_t gtid = __kmpc_global_thread_num(NULL);
  ran = dtors = proxy_done = 0;
  kmp_task_t *t = __kmpc_omp_task_alloc(NULL, gtid, TIED | PROXY, sizeof(plain_task_t),
                                        2 * sizeof(int *), plain_body);
  int **sh = t->shareds;
  sh[0] = &seven;
  sh[1] = &eight;
  ((plain_task_t *)t)->priv = 42;
  pthread_t th;
  CHECK(pthread_create(&th, NULL, complete_later, t) == 0);
  __kmpc_omp_task(NULL, gtid, t);
  __kmpc_omp_taskwait(NULL, gtid);
  CHECK(__atomic_load_n(&proxy_done, __ATOMIC_SEQ_CST) == 1 && ran == 1);
  pthread_join(th, NULL);
  __kmpc_omp_task_parts(NULL, gtid, make_plain(gtid));
  __kmpc_omp_taskwait(NULL, gtid);
  CHECK(ran == 2 && dtors == 1);
}

int main(void) {
  run_all(1);
#pragma omp parallel num_threads(3)
  if (omp_get_thread_num() == 0) {
    run_all(omp_get_num_threads());
    proxy();
  }
  printf("ok\n");
  return 0;
}
