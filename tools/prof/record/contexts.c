/* Creation contexts and parallel-region structs.
 *
 * A context is (parent context, kind, codeptr_ra, the creator's frames up to its task's exit
 * frame).  They are interned in a lock-free open-addressing table (CAS on empty slots), so a
 * call path that creates a million tasks costs one TP_REC_CONTEXT record; the thread whose
 * insert wins writes it.  Each parallel context also sums its regions' instances and wall time
 * (TP_REC_REGION at the end).
 *
 * Region structs hang off parallel_data->ptr.  They are pooled per encountering thread and
 * never freed, because a signal handler on a worker may still read one after its region ended
 * (it then reads stale but harmless values). */
#include <stdlib.h>
#include <string.h>

#include "rec.h"

typedef struct tp_ctx {
  uint64_t id, parent, hash, codeptr;
  uint32_t kind, nframes;
  uint64_t exit_frame, enter_frame;
  uint32_t frame_flags;
  _Atomic uint32_t max_team;
  _Atomic uint64_t instances, wall_ns;
  tp_frame_t frames[];
} tp_ctx_t;

#define TABLE_BITS 16
#define TABLE_SIZE (1u << TABLE_BITS)
static _Atomic(tp_ctx_t *) table[TABLE_SIZE];
static _Atomic uint64_t next_id = 1;
static _Atomic uint64_t ninterned;
static _Atomic uint64_t next_instance = 1;

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

/* Frames leafward of the runtime call's return address (codeptr_ra) are the tool's and the
 * runtime's: the runtime may reach the callback by different internal paths for the same
 * user call, so they are kept in the record but left out of the identity. */
static uint32_t user_start(const tp_frame_t *f, uint32_t n, uint64_t codeptr) {
  for (uint32_t i = 0; codeptr && i < n; i++)
    if (f[i].pc == codeptr) return i;
  return 0;
}

static int same(const tp_ctx_t *c, uint64_t hash, uint32_t kind, uint64_t parent,
                uint64_t codeptr, const tp_frame_t *f, uint32_t n) {
  if (c->hash != hash || c->kind != kind || c->parent != parent || c->codeptr != codeptr)
    return 0;
  uint32_t a = user_start(c->frames, c->nframes, codeptr), b = user_start(f, n, codeptr);
  if (c->nframes - a != n - b) return 0;
  for (uint32_t i = 0; i < n - b; i++)
    if (c->frames[a + i].pc != f[b + i].pc) return 0;
  return 1;
}

static void write_context(tp_thread_t *t, const tp_ctx_t *c) {
  uint32_t size = (uint32_t)(sizeof(tp_context_t) + c->nframes * sizeof(tp_frame_t));
  char buf[sizeof(tp_context_t) + TP_MAX_FRAMES * sizeof(tp_frame_t)];
  tp_context_t *r = (tp_context_t *)buf;
  r->h.type = TP_REC_CONTEXT;
  r->h.size = size;
  r->id = c->id;
  r->parent = c->parent;
  r->kind = c->kind;
  r->thread = t ? t->index : 0;
  r->codeptr_ra = c->codeptr;
  r->exit_frame = c->exit_frame;
  r->enter_frame = c->enter_frame;
  r->frame_flags = c->frame_flags;
  r->nframes = c->nframes;
  memcpy(r->frames, c->frames, c->nframes * sizeof(tp_frame_t));
  if (t)
    tp_buf_put(t, r, size);
  else
    tp_buf_write_direct(r, size);
}

uint64_t tp_ctx_intern(tp_thread_t *t, uint32_t kind, uint64_t parent, const ompt_frame_t *frame,
                       const void *codeptr_ra, tp_ctx_t **node) {
  tp_frame_t f[TP_MAX_FRAMES];
  uint64_t exit_fp = frame ? (uint64_t)(uintptr_t)frame->exit_frame.ptr : 0;
  /* frames above the creating task's exit frame belong to the parent context */
  uint32_t n = tp_unwind(f, TP_MAX_FRAMES, exit_fp, NULL);
  uint64_t codeptr = (uint64_t)(uintptr_t)codeptr_ra;
  uint32_t u = user_start(f, n, codeptr);
  uint64_t h = mix(mix(mix(kind, parent), codeptr), n - u);
  for (uint32_t i = u; i < n; i++) h = mix(h, f[i].pc);
  tp_ctx_t *mine = NULL;
  for (uint32_t probe = 0; probe < 256; probe++) {
    _Atomic(tp_ctx_t *) *slot = &table[(h + probe) & (TABLE_SIZE - 1)];
    tp_ctx_t *c = atomic_load_explicit(slot, memory_order_acquire);
    if (!c) {
      if (!mine) {
        mine = calloc(1, sizeof *mine + n * sizeof(tp_frame_t));
        if (!mine) break;
        mine->id = atomic_fetch_add(&next_id, 1);
        mine->parent = parent;
        mine->hash = h;
        mine->codeptr = codeptr;
        mine->kind = kind;
        mine->nframes = n;
        if (frame) {
          mine->exit_frame = exit_fp;
          mine->enter_frame = (uint64_t)(uintptr_t)frame->enter_frame.ptr;
          mine->frame_flags = tp_frame_flags(frame);
        }
        memcpy(mine->frames, f, n * sizeof(tp_frame_t));
      }
      if (atomic_compare_exchange_strong(slot, &c, mine)) {
        atomic_fetch_add(&ninterned, 1);
        write_context(t, mine);
        if (node) *node = mine;
        return mine->id;
      }
    }
    if (same(c, h, kind, parent, codeptr, f, n)) {
      free(mine);
      if (node) *node = c;
      return c->id;
    }
  }
  free(mine); /* table full: the work is charged to the parent context */
  if (node) *node = NULL;
  return parent;
}

uint64_t tp_ctx_count(void) { return atomic_load(&ninterned); }

void tp_ctx_write_regions(void) {
  for (uint32_t i = 0; i < TABLE_SIZE; i++) {
    tp_ctx_t *c = atomic_load(&table[i]);
    if (!c || c->kind != TP_CTX_PARALLEL || !atomic_load(&c->instances)) continue;
    tp_region_rec_t r = {{TP_REC_REGION, sizeof r}, c->id, atomic_load(&c->instances),
                         atomic_load(&c->wall_ns), atomic_load(&c->max_team), 0};
    tp_buf_write_direct(&r, sizeof r);
  }
}

/* ---- regions ---- */

tp_region_t *tp_region_get(tp_thread_t *t) {
  if (!t->free_regions) {
    enum { BATCH = 32 };
    tp_region_t *b = calloc(BATCH, sizeof *b);
    if (!b) return NULL;
    for (int i = 0; i < BATCH; i++) {
      b[i].next_free = t->free_regions;
      t->free_regions = &b[i];
    }
  }
  tp_region_t *r = t->free_regions;
  t->free_regions = r->next_free;
  /* a new generation: late decrements from the previous user of this struct are ignored */
  uint64_t gen = (atomic_load(&r->waiting) >> 32) + 1;
  atomic_store(&r->waiting, gen << 32);
  r->instance = atomic_fetch_add(&next_instance, 1);
  r->context = 0;
  r->ctx = NULL;
  r->team_size = 0;
  r->begin_ns = 0;
  r->next_free = NULL;
  return r;
}

void tp_region_put(tp_thread_t *t, tp_region_t *r) {
  r->next_free = t->free_regions;
  t->free_regions = r;
}

void tp_region_done(tp_region_t *r, uint64_t end_ns) {
  tp_ctx_t *c = r->ctx;
  if (!c) return;
  atomic_fetch_add(&c->instances, 1);
  atomic_fetch_add(&c->wall_ns, end_ns - r->begin_ns);
  uint32_t m = atomic_load(&c->max_team);
  while (r->team_size > m && !atomic_compare_exchange_weak(&c->max_team, &m, r->team_size)) {
  }
}

void tp_region_wait_begin(tp_thread_t *t, tp_region_t *r) {
  tp_region_wait_end(t);
  if (!r) return;
  uint64_t w = atomic_load(&r->waiting);
  while (!atomic_compare_exchange_weak(&r->waiting, &w, w + 1)) {
  }
  t->wait_region = r;
  t->wait_gen = (uint32_t)(w >> 32);
}

void tp_region_wait_end(tp_thread_t *t) {
  tp_region_t *r = t->wait_region;
  if (!r) return;
  t->wait_region = NULL;
  uint64_t w = atomic_load(&r->waiting);
  while ((uint32_t)(w >> 32) == t->wait_gen && (uint32_t)w > 0 &&
         !atomic_compare_exchange_weak(&r->waiting, &w, w - 1)) {
  }
}

uint32_t tp_region_waiting(const tp_region_t *r) {
  return (uint32_t)atomic_load_explicit(&r->waiting, memory_order_relaxed);
}
