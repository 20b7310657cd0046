/* Directed blame by ownership.  A waiting sample is charged to whoever holds the mutex at
 * the moment of the sample, not to whoever releases it next: runtimes (tomp, libomp) make
 * the mutex available before they dispatch mutex_released (as the OpenMP spec words the
 * release events), so a waiter with a short critical section can acquire and release
 * before the previous holder's release callback runs, and a count kept per mutex would go
 * to that short holder.
 *
 *  - mutex_acquire: the thread notes the wait id it is about to wait for (`wanted`).  The
 *    sample's own wait id is not enough: libomp reports its internal lock object in the wait
 *    state but the user's omp_lock_t in the mutex callbacks.
 *  - mutex_acquired: the thread takes one of its TP_HELD inboxes and publishes it as the
 *    owner of the wait id in a fixed open-addressing table (CAS insert; keys are never
 *    removed, so a lookup without a lock is safe).
 *  - the handler of a thread in a mutex wait looks up the owner of the id it waits for and
 *    adds one to the owner's inbox (atomics on preallocated memory: signal-safe).
 *  - mutex_released: the owner takes its inbox's count (exchange with 0) and records a
 *    TP_REC_BLAME with its own call path.
 * The table keeps naming the last holder after its release, so a sample taken while nobody
 * holds the mutex (the hand-off to the next holder; or a timer signal delivered late to a
 * waiter that was not running, common on a loaded machine) goes to the last holder, and is
 * reported with that thread's next release through the same inbox (usually the same call
 * path); if that last holder is the waiting thread itself, the sample is not charged.  A sample read at the very moment ownership changes may go to the previous or the
 * next holder. */
#include "rec.h"

#define OWNER_BITS 14
#define OWNER_SIZE (1u << OWNER_BITS)
#define OWNER_PROBES 64

typedef struct slot {
  _Atomic uint64_t key;          /* wait id; 0 = empty.  Keys are never removed. */
  _Atomic(tp_held_t *) owner;    /* the holder's (or last holder's) inbox */
} slot_t;
static slot_t table[OWNER_SIZE];

static uint32_t home(uint64_t id) {
  return (uint32_t)((id * 0x9e3779b97f4a7c15ull) >> (64 - OWNER_BITS));
}

/* The slot of `id`, inserted if `insert` and absent; NULL when absent or the table is full. */
static slot_t *find(uint64_t id, int insert) {
  for (uint32_t i = 0, h = home(id); i < OWNER_PROBES; i++) {
    slot_t *s = &table[(h + i) & (OWNER_SIZE - 1)];
    uint64_t k = atomic_load_explicit(&s->key, memory_order_acquire);
    if (!k) {
      if (!insert) return NULL;
      if (atomic_compare_exchange_strong(&s->key, &k, id)) return s;
    }
    if (k == id) return s;
  }
  return NULL;
}

void tp_blame_acquire(tp_thread_t *t, uint64_t wait_id) {
  atomic_store_explicit(&t->wanted, wait_id, memory_order_relaxed);
}

bool tp_blame_holds(const tp_thread_t *t, uint64_t wait_id) {
  for (int i = 0; i < TP_HELD; i++)
    if (wait_id && t->held[i].id == wait_id) return true;
  return false;
}

void tp_blame_acquired(tp_thread_t *t, uint64_t wait_id, const void *codeptr_ra) {
  atomic_store_explicit(&t->wanted, 0, memory_order_relaxed);
  if (!wait_id) return;
  slot_t *s = find(wait_id, 1);
  if (!s) return;
  tp_held_t *in = NULL;
  for (int i = 0; i < TP_HELD && !in; i++)
    if (!t->held[i].id) in = &t->held[i];
  if (in) {
    in->id = wait_id; /* its count may hold late samples: charged with this release */
    /* where it was acquired, in case the release comes through a tail call (two words of
     * the task's OMPT frame: no unwinding on this path) */
    tp_taskinfo_t ti;
    tp_task_now(&ti);
    in->acq_codeptr = (uint64_t)(uintptr_t)codeptr_ra;
    in->acq_enter = ti.enter_frame;
    in->acq_flags = ti.frame_flags >> 16;
  }
  /* more than TP_HELD mutexes held at once: nobody is blamed for this one */
  atomic_store_explicit(&s->owner, in, memory_order_release);
}

/* Signal-safe. */
void tp_blame_sample(tp_thread_t *t, uint64_t state_wait_id, uint64_t interval_ns) {
  uint64_t id = atomic_load_explicit(&t->wanted, memory_order_relaxed);
  if (!id) id = state_wait_id;
  if (!id) return;
  slot_t *s = find(id, 0);
  tp_held_t *in = s ? atomic_load_explicit(&s->owner, memory_order_acquire) : NULL;
  /* its own inbox: it was the last holder and waits to take the mutex again, while the
   * runtime hands it to the next holder, which has not run its acquired callback yet */
  if (!in || (in >= t->held && in < t->held + TP_HELD)) return;
  atomic_fetch_add_explicit(&in->count, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&in->ns, interval_ns, memory_order_relaxed);
}

void tp_blame_release(tp_thread_t *t, int kind, uint64_t wait_id) {
  if (!wait_id) return;
  tp_held_t *in = NULL;
  for (int i = 0; i < TP_HELD && !in; i++)
    if (t->held[i].id == wait_id) in = &t->held[i];
  if (!in) return; /* acquired before the tool saw it, or beyond TP_HELD */
  uint64_t n = atomic_exchange_explicit(&in->count, 0, memory_order_relaxed);
  uint64_t ns = atomic_exchange_explicit(&in->ns, 0, memory_order_relaxed);
  in->id = 0;
  if (!n || atomic_load_explicit(&tp_g.stopped, memory_order_relaxed)) return;
  char buf[sizeof(tp_blame_t) + TP_MAX_FRAMES * sizeof(tp_frame_t)];
  tp_blame_t *b = (tp_blame_t *)buf;
  tp_taskinfo_t ti;
  tp_task_now(&ti);
  b->context = ti.context;
  b->exit_frame = ti.exit_frame;
  b->enter_frame = ti.enter_frame;
  b->frame_flags = ti.frame_flags;
  b->nframes = tp_unwind(b->frames, TP_MAX_FRAMES, b->exit_frame, NULL);
  b->h.type = TP_REC_BLAME;
  b->h.size = (uint32_t)(sizeof(tp_blame_t) + b->nframes * sizeof(tp_frame_t));
  b->thread = t->index;
  b->kind = (uint32_t)kind;
  b->ts_ns = tp_now_ns();
  b->wait_id = wait_id;
  b->samples = n;
  b->wait_ns = ns;
  b->acq_codeptr = in->acq_codeptr;
  b->acq_enter = in->acq_enter;
  b->acq_flags = in->acq_flags;
  b->pad = 0;
  tp_buf_put(t, b, b->h.size);
}
