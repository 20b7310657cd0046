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
  uint64_t site;        /* hash of (kind, codeptr, user frames): the creation site alone */
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
/* id -> node, for the walk up a context's ancestors (ids beyond it are not folded) */
#define NODES (2 * TABLE_SIZE)
static _Atomic(tp_ctx_t *) nodes[NODES];
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

/* The node for these frames: found, or inserted (and its record written); NULL when the
 * table is full. */
static tp_ctx_t *intern_frames(tp_thread_t *t, uint32_t kind, uint64_t parent,
                               const ompt_frame_t *frame, uint64_t exit_fp, uint64_t codeptr,
                               const tp_frame_t *f, uint32_t n) {
  uint32_t u = user_start(f, n, codeptr);
  uint64_t site = mix(mix(kind, codeptr), n - u);
  for (uint32_t i = u; i < n; i++) site = mix(site, f[i].pc);
  /* Recursion: a creation at the site that created one of the creating task's ancestors
   * (a recursive task function, nested parallel regions in a recursion) takes that
   * ancestor's context, as --fold-recursion would show it.  Otherwise every task of a
   * recursive program has a creation path of its own (BOTS sort: as many contexts as tasks,
   * each a table insert and a record; fib: the table fills). */
  for (uint64_t a = parent; a && a < NODES;) {
    tp_ctx_t *c = atomic_load_explicit(&nodes[a], memory_order_acquire);
    if (!c) break;
    if (c->site == site && same(c, c->hash, kind, c->parent, codeptr, f, n)) return c;
    a = c->parent;
  }
  uint64_t h = mix(site, parent);
  tp_ctx_t *mine = NULL;
  for (uint32_t probe = 0; probe < 256; probe++) {
    _Atomic(tp_ctx_t *) *slot = &table[(h + probe) & (TABLE_SIZE - 1)];
    tp_ctx_t *c = atomic_load_explicit(slot, memory_order_acquire);
    if (!c) {
      if (!mine) {
        mine = calloc(1, sizeof *mine + n * sizeof(tp_frame_t));
        if (!mine) return NULL;
        mine->id = atomic_fetch_add(&next_id, 1);
        mine->parent = parent;
        mine->hash = h;
        mine->codeptr = codeptr;
        mine->kind = kind;
        mine->nframes = n;
        mine->site = site;
        if (frame) {
          mine->exit_frame = exit_fp;
          mine->enter_frame = (uint64_t)(uintptr_t)frame->enter_frame.ptr;
          mine->frame_flags = tp_frame_flags(frame);
        }
        memcpy(mine->frames, f, n * sizeof(tp_frame_t));
      }
      if (atomic_compare_exchange_strong(slot, &c, mine)) {
        atomic_fetch_add(&ninterned, 1);
        if (mine->id < NODES) atomic_store_explicit(&nodes[mine->id], mine, memory_order_release);
        write_context(t, mine);
        return mine;
      }
    }
    if (same(c, h, kind, parent, codeptr, f, n)) {
      free(mine);
      return c;
    }
  }
  free(mine);
  return NULL;
}

/* Per-thread memo of recent creation stacks: a creation from the same call path as a
 * remembered one has, frame for frame, the same return addresses at the same offsets from
 * tp_ctx_intern's own frame, and its task's exit frame at the same offset too (frames have
 * fixed sizes, the fast walk's assumption).  Checking those slots (one load per frame)
 * replaces the walk: the remembered frames are used.  Offsets, not stack addresses, are
 * compared: a recursive task program (BOTS sort) creates its tasks from task bodies that run
 * at ever different stack depths (a task runs wherever its thread picked it up, e.g. nested
 * in a taskwait), so absolute addresses would almost never repeat.  The parent context is not
 * part of the shape (the same code creates tasks for many parents); the answers for the last
 * few parents are kept (one task creating several, recursion levels alternating).  Only slots
 * between our own frame and the task's exit frame (or the thread's stack end) are read: the live
 * stack. */
#define MEMO_WAYS 64
#define MEMO_FRAMES 48
#define MEMO_PARENTS 8
#define NO_EXIT INT64_MIN
typedef struct memo {
  uint64_t codeptr;
  int64_t exit_off; /* exit_fp - our CFA; NO_EXIT: no exit frame */
  uint64_t max_off; /* the farthest slot read */
  uint32_t kind, n;
  uint64_t parent[MEMO_PARENTS], id[MEMO_PARENTS]; /* recent answers: parent -> context */
  tp_ctx_t *node[MEMO_PARENTS];
  uint32_t next;            /* the answer replaced next */
  int64_t off[MEMO_FRAMES]; /* frame CFA - our CFA (-1: CFA unknown, not checked) */
  uint64_t ra[MEMO_FRAMES]; /* the return address at CFA - 8 */
  uint64_t pc[MEMO_FRAMES]; /* the frames' pcs as the walk gave them */
} memo_t;

static memo_t *memo_way(tp_thread_t *t, uint64_t codeptr) {
  if (!t->memo) t->memo = calloc(MEMO_WAYS, sizeof(memo_t));
  return t->memo ? &((memo_t *)t->memo)[(codeptr >> 4) % MEMO_WAYS] : NULL;
}

static int64_t exit_offset(uint64_t exit_fp, uint64_t my_cfa) {
  return exit_fp ? (int64_t)(exit_fp - my_cfa) : NO_EXIT;
}

static int memo_hit(const tp_thread_t *t, const memo_t *m, uint32_t kind, uint64_t codeptr,
                    uint64_t exit_fp, uint64_t my_cfa) {
  if (!m->n || m->codeptr != codeptr || m->kind != kind ||
      m->exit_off != exit_offset(exit_fp, my_cfa))
    return 0;
  /* without an exit frame bounding them, the slots must lie inside the thread's stack */
  if (m->exit_off == NO_EXIT && (!t->stack_hi || my_cfa + m->max_off > t->stack_hi)) return 0;
  for (uint32_t i = 0; i < m->n; i++)
    if (m->off[i] >= 0 &&
        *(const uint64_t *)(uintptr_t)(my_cfa + (uint64_t)m->off[i] - 8) != m->ra[i])
      return 0;
  return 1;
}

static void memo_fill(memo_t *m, uint32_t kind, uint64_t codeptr, uint64_t exit_fp, uint64_t my_cfa,
                      const tp_frame_t *f, uint32_t n) {
  m->n = 0;
  if (n == 0 || n > MEMO_FRAMES) return;
  m->max_off = 0;
  for (uint32_t i = 0; i < n; i++) {
    m->pc[i] = f[i].pc;
    if (!f[i].cfa || f[i].cfa < my_cfa) {
      m->off[i] = -1;
      m->ra[i] = 0;
      continue;
    }
    m->off[i] = (int64_t)(f[i].cfa - my_cfa);
    m->ra[i] = *(const uint64_t *)(uintptr_t)(f[i].cfa - 8);
    if ((uint64_t)m->off[i] > m->max_off) m->max_off = (uint64_t)m->off[i];
  }
  m->codeptr = codeptr;
  m->exit_off = exit_offset(exit_fp, my_cfa);
  m->kind = kind;
  memset(m->node, 0, sizeof m->node);
  m->n = n;
}

__attribute__((noinline)) uint64_t tp_ctx_intern(tp_thread_t *t, uint32_t kind, uint64_t parent,
                                                 const ompt_frame_t *frame, const void *codeptr_ra,
                                                 tp_ctx_t **node) {
  tp_frame_t f[TP_MAX_FRAMES];
  uint64_t exit_fp = frame ? (uint64_t)(uintptr_t)frame->exit_frame.ptr : 0;
  uint64_t codeptr = (uint64_t)(uintptr_t)codeptr_ra;
  /* frame 0 of the walk below is this function's: its CFA (we keep a frame pointer) */
  uint64_t my_cfa = (uint64_t)(uintptr_t)__builtin_frame_address(0) + 16;
  memo_t *m = t ? memo_way(t, codeptr) : NULL;
  uint32_t n;
  if (m && memo_hit(t, m, kind, codeptr, exit_fp, my_cfa)) {
    if (tp_g.cfg.stats) atomic_fetch_add_explicit(&tp_g.memo_hits, 1, memory_order_relaxed);
    for (uint32_t k = 0; k < MEMO_PARENTS; k++)
      if (m->node[k] && m->parent[k] == parent) {
        if (node) *node = m->node[k];
        return m->id[k];
      }
    n = m->n; /* the same frames as the remembered walk */
    for (uint32_t i = 0; i < n; i++)
      f[i] = (tp_frame_t){m->pc[i], m->off[i] >= 0 ? my_cfa + (uint64_t)m->off[i] : 0};
  } else {
    /* frames above the creating task's exit frame belong to the parent context */
    int truncated = 0;
    n = tp_unwind(f, TP_MAX_FRAMES, exit_fp, &truncated);
    if (m && !truncated && n && f[0].cfa == my_cfa)
      memo_fill(m, kind, codeptr, exit_fp, my_cfa, f, n);
    else if (m)
      m->n = 0;
  }
  tp_ctx_t *c = intern_frames(t, kind, parent, frame, exit_fp, codeptr, f, n);
  if (m && m->n && c) {
    uint32_t k = m->next++ % MEMO_PARENTS;
    m->parent[k] = parent;
    m->node[k] = c;
    m->id[k] = c->id;
  }
  if (node) *node = c;
  return c ? c->id : parent; /* table full: the work is charged to the parent context */
}

uint64_t tp_ctx_count(void) {
  return atomic_load(&ninterned);
}

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
  t->wait_suspended = 0;
}

/* Takes t's count off its barrier's waiting count (generation-checked). */
static void wait_uncount(tp_thread_t *t, tp_region_t *r) {
  uint64_t w = atomic_load(&r->waiting);
  while ((uint32_t)(w >> 32) == t->wait_gen && (uint32_t)w > 0 &&
         !atomic_compare_exchange_weak(&r->waiting, &w, w - 1)) {
  }
}

void tp_region_wait_end(tp_thread_t *t) {
  tp_region_t *r = t->wait_region;
  if (!r) return;
  t->wait_region = NULL;
  if (!t->wait_suspended) wait_uncount(t, r);
  t->wait_suspended = 0;
}

void tp_region_wait_suspend(tp_thread_t *t) {
  if (!t->wait_region || t->wait_suspended) return;
  t->wait_suspended = 1;
  wait_uncount(t, t->wait_region);
}

void tp_region_wait_resume(tp_thread_t *t) {
  tp_region_t *r = t->wait_region;
  if (!r || !t->wait_suspended) return;
  t->wait_suspended = 0;
  uint64_t w = atomic_load(&r->waiting);
  while ((uint32_t)(w >> 32) == t->wait_gen && !atomic_compare_exchange_weak(&r->waiting, &w, w + 1)) {
  }
}

uint32_t tp_region_waiting(const tp_region_t *r) {
  return (uint32_t)atomic_load_explicit(&r->waiting, memory_order_relaxed);
}
