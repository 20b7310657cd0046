/* Directed blame: samples taken while a thread waits for a lock, critical section, atomic or
 * ordered construct are counted per wait id in a fixed open-addressing table (the handler
 * inserts with CAS and never allocates); when a holder releases that wait id it takes the
 * count and records its own call path in a TP_REC_BLAME record: the report charges the
 * waiters' time to that path. */
#include "rec.h"

#define BLAME_BITS 12
#define BLAME_SIZE (1u << BLAME_BITS)
#define BLAME_PROBES 32

typedef struct slot {
  _Atomic uint64_t key; /* wait id; 0 = empty.  Keys are never removed. */
  _Atomic uint64_t count;
} slot_t;
static slot_t table[BLAME_SIZE];

static uint32_t home(uint64_t id) {
  return (uint32_t)((id * 0x9e3779b97f4a7c15ull) >> (64 - BLAME_BITS));
}

void tp_blame_sample(uint64_t wait_id) {
  if (!wait_id) return;
  for (uint32_t i = 0, h = home(wait_id); i < BLAME_PROBES; i++) {
    slot_t *s = &table[(h + i) & (BLAME_SIZE - 1)];
    uint64_t k = atomic_load_explicit(&s->key, memory_order_relaxed);
    if (!k && atomic_compare_exchange_strong(&s->key, &k, wait_id)) k = wait_id;
    if (k == wait_id) {
      atomic_fetch_add_explicit(&s->count, 1, memory_order_relaxed);
      return;
    }
  }
}

void tp_blame_release(tp_thread_t *t, int kind, uint64_t wait_id) {
  if (!wait_id || !t) return;
  uint64_t n = 0;
  for (uint32_t i = 0, h = home(wait_id); i < BLAME_PROBES; i++) {
    slot_t *s = &table[(h + i) & (BLAME_SIZE - 1)];
    uint64_t k = atomic_load_explicit(&s->key, memory_order_relaxed);
    if (!k) return;
    if (k == wait_id) {
      if (atomic_load_explicit(&s->count, memory_order_relaxed))
        n = atomic_exchange_explicit(&s->count, 0, memory_order_relaxed);
      break;
    }
  }
  if (!n) return;
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
  tp_buf_put(t, b, b->h.size);
}
