/* Call stacks.
 *
 * The reference walk is libgcc's DWARF unwinder (_Unwind_Backtrace): it needs no frame
 * pointers, so -O2 user code unwinds, and it steps through the signal trampoline (libgcc
 * recognises the kernel's sigreturn frame), so a walk started in the SIGPROF handler reaches
 * the interrupted code.  It costs ~100-200 ns per frame (it parses CIEs and FDEs every time).
 *
 * The fast walk reuses what the reference walk learned: at a given pc, a function's frame
 * has a fixed size, so CFA = sp + delta(pc), and the return address sits at CFA - 8 (x86-64).
 * Every reference walk stores delta per pc in a lock-free table (one 64-bit word per pc:
 * pc << 16 | delta/8, with flags for "outermost frame" and "not cacheable"); a fast walk
 * that meets a pc not in the table falls back to the reference walk.  Frames whose size
 * varies at one pc (alloca, variable-length arrays) break the assumption: every 64th walk of
 * a thread is a reference walk, and a pc seen with two different sizes is marked not
 * cacheable for good.  Loads in the fast walk stay inside the thread's stack bounds.
 *
 * Note on CFAs: inside an _Unwind_Backtrace callback, _Unwind_GetCFA answers the CFA of the
 * frame below (the callee), i.e. the stack pointer of the frame being reported; the frame's
 * own CFA is the value reported for the next frame.  tp_frame_t.cfa is the frame's own CFA
 * (0 for the outermost frame, which has no next). */
#include <string.h>
#include <unwind.h>

#include "rec.h"

/* ---- the delta cache ---- */

#define CACHE_BITS 16
#define CACHE_SIZE (1u << CACHE_BITS)
#define CACHE_PROBES 8
#define D_END 0x8000u  /* outermost frame: the reference walk stopped after it */
#define D_VAR 0x4000u  /* not cacheable */
#define D_MASK 0x3fffu /* delta / 8 */
#define D_MISS 0xffffffffu
#define VERIFY_EVERY 64

static _Atomic uint64_t cache[CACHE_SIZE];

static uint32_t slot_of(uint64_t pc) { return (uint32_t)((pc * 0x9e3779b97f4a7c15ull) >> (64 - CACHE_BITS)); }

static uint32_t lookup(uint64_t pc) {
  uint32_t h = slot_of(pc);
  for (uint32_t i = 0; i < CACHE_PROBES; i++) {
    uint64_t e = atomic_load_explicit(&cache[(h + i) & (CACHE_SIZE - 1)], memory_order_relaxed);
    if (!e) return D_MISS;
    if (e >> 16 == pc) return (uint32_t)(e & 0xffff);
  }
  return D_MISS;
}

static void learn(uint64_t pc, uint32_t v) {
  if (!pc || pc >> 48) return;
  uint32_t h = slot_of(pc);
  for (uint32_t i = 0; i < CACHE_PROBES; i++) {
    _Atomic uint64_t *s = &cache[(h + i) & (CACHE_SIZE - 1)];
    uint64_t e = atomic_load_explicit(s, memory_order_relaxed);
    if (!e && atomic_compare_exchange_strong(s, &e, pc << 16 | v)) return;
    if (e >> 16 != pc) continue;
    /* known: a different answer at the same pc means the frame size varies */
    while ((e & 0xffff) != v && !(e & D_VAR) &&
           !atomic_compare_exchange_weak(s, &e, pc << 16 | D_VAR)) {
    }
    return;
  }
}

/* ---- the reference walk ---- */

typedef struct walk {
  tp_frame_t *out;
  uint32_t n, max;
  uint64_t stop_cfa;  /* 0: none */
  uint64_t pc;        /* signal walk: frames before the one at this pc are the handler's */
  uint64_t sp0;       /* stack pointer of out[0] */
  int skip;           /* frames still to skip (plain walk) */
  int found;
  int seen;           /* frames skipped looking for pc */
  int truncated;
  int stopped;        /* ended by stop_cfa or the limit rather than at the stack's end */
  uint64_t after_sig[2]; /* bit i: out[i] was interrupted by a signal (its pc is exact) */
  tp_frame_t cut;     /* the frame dropped by stop_cfa: still worth learning */
} walk_t;

static _Unwind_Reason_Code step(struct _Unwind_Context *ctx, void *arg) {
  walk_t *w = arg;
  int before = 0;
  uint64_t ip = (uint64_t)_Unwind_GetIPInfo(ctx, &before);
  uint64_t sp = (uint64_t)_Unwind_GetCFA(ctx); /* the previous frame's CFA */
  if (w->skip > 0) {
    w->skip--;
    return _URC_NO_REASON;
  }
  if (!w->found) {
    /* the handler's own frames and the trampoline: skip until the interrupted pc */
    if (ip != w->pc) return ++w->seen > 32 ? _URC_END_OF_STACK : _URC_NO_REASON;
    w->found = 1;
  }
  if (w->n == 0) {
    w->sp0 = sp;
  } else {
    w->out[w->n - 1].cfa = sp;
    if (w->stop_cfa && sp > w->stop_cfa) {
      w->cut = w->out[--w->n]; /* above the stop: it belongs to the parent */
      w->stopped = 1;
      return _URC_END_OF_STACK;
    }
    if (w->n >= w->max) {
      w->truncated = w->stopped = 1;
      return _URC_END_OF_STACK;
    }
  }
  if (!ip) {
    /* the outermost frame (its return address is undefined): a natural end */
    if (w->n) w->out[w->n - 1].cfa = 0;
    return _URC_END_OF_STACK;
  }
  if (before && w->n < 128) w->after_sig[w->n / 64] |= 1ull << (w->n % 64);
  w->out[w->n].pc = ip;
  w->out[w->n].cfa = 0;
  w->n++;
  return _URC_NO_REASON;
}

static void learn_frame(uint64_t pc, uint64_t cfa, uint64_t sp) {
  uint64_t d = cfa - sp;
  learn(pc, cfa > sp && d % 8 == 0 && d / 8 <= D_MASK ? (uint32_t)(d / 8) : D_VAR);
}

/* Teach the cache what a reference walk found. */
static void learn_walk(const walk_t *w, uint64_t sp0) {
  uint64_t sp = sp0;
  if (w->cut.pc && w->cut.cfa) {
    /* a fast walk has to look at the frame beyond the stop to know it is beyond */
    learn_frame(w->cut.pc, w->cut.cfa, w->n ? w->out[w->n - 1].cfa : sp0);
  }
  for (uint32_t i = 0; i < w->n; i++) {
    const tp_frame_t *f = &w->out[i];
    int next_after_sig = i + 1 < w->n && i + 1 < 128 && (w->after_sig[(i + 1) / 64] >> ((i + 1) % 64) & 1);
    int after_sig = i > 0 && i < 128 && (w->after_sig[i / 64] >> (i % 64) & 1);
    if (next_after_sig || after_sig) {
      learn(f->pc, D_VAR); /* a signal frame (or what it interrupted) mid-stack: never cached */
    } else if (!f->cfa) {
      if (i + 1 == w->n && !w->stopped) learn(f->pc, D_END);
    } else {
      learn_frame(f->pc, f->cfa, sp);
    }
    sp = f->cfa;
    if (!sp) break;
  }
}

/* ---- the fast walk: -1 when it cannot answer ---- */

/* The thread's own small copy of the table's answers for the pcs of its recent stacks (the
 * handler's walks only): consecutive samples of a thread mostly share their outer frames,
 * and 64 words next to the thread's other data stay in a few cache lines and one page,
 * where lookups in the 512 KiB table miss the caches and the TLB once per frame after other
 * processes ran.  Emptied at each of the thread's reference walks, so an answer the table
 * has since marked not cacheable is dropped within VERIFY_EVERY walks. */
static uint32_t lookup_memo(tp_thread_t *t, uint64_t pc) {
  uint64_t *m = &t->pcmemo[(pc ^ pc >> 7) % TP_PCMEMO];
  if (*m >> 16 == pc) return (uint32_t)(*m & 0xffff);
  uint32_t v = lookup(pc);
  if (v != D_MISS && !(v & D_VAR) && !(pc >> 48)) *m = pc << 16 | v;
  return v;
}

static int fast_walk(tp_frame_t *out, uint32_t max, uint64_t pc, uint64_t sp, uint64_t stop_cfa,
                     tp_thread_t *t, int memo, int *truncated) {
  uint32_t n = 0;
  uint64_t stack_hi = t ? t->stack_hi : 0;
  if (!stack_hi || sp >= stack_hi || sp < t->stack_lo) return -1; /* e.g. on a sigaltstack */
  for (;;) {
    uint32_t v = memo ? lookup_memo(t, pc) : lookup(pc);
    if (v == D_MISS || (v & D_VAR)) return -1;
    if (n >= max) {
      *truncated = 1;
      return (int)n;
    }
    if (v & D_END) {
      out[n].pc = pc;
      out[n].cfa = 0;
      return (int)n + 1;
    }
    uint64_t cfa = sp + (uint64_t)(v & D_MASK) * 8;
    if (cfa < sp + 8 || cfa > stack_hi) return -1;
    if (stop_cfa && cfa > stop_cfa) return (int)n;
    out[n].pc = pc;
    out[n].cfa = cfa;
    n++;
    pc = *(const uint64_t *)(uintptr_t)(cfa - 8);
    sp = cfa;
    if (!pc) return (int)n;
  }
}

static int verify_turn(void) {
  tp_thread_t *t = tp_self;
  return !t || (t->unwinds++ % VERIFY_EVERY) == 0;
}

__attribute__((noinline)) uint32_t tp_unwind(tp_frame_t *out, uint32_t max, uint64_t stop_cfa,
                                             int *truncated) {
  int trunc = 0;
  tp_thread_t *t = tp_self;
  if (!verify_turn()) {
    /* our own frame has a frame pointer: the caller's sp is our CFA */
    uint64_t sp = (uint64_t)(uintptr_t)__builtin_frame_address(0) + 16;
    uint64_t pc = (uint64_t)(uintptr_t)__builtin_return_address(0);
    int n = fast_walk(out, max, pc, sp, stop_cfa, t, 0, &trunc);
    if (n >= 0) {
      if (truncated) *truncated = trunc;
      return (uint32_t)n;
    }
  }
  walk_t w = {.out = out, .max = max, .stop_cfa = stop_cfa, .skip = 1, .found = 1};
  _Unwind_Backtrace(step, &w);
  learn_walk(&w, w.sp0);
  if (truncated) *truncated = w.truncated;
  return w.n;
}

uint32_t tp_unwind_sig(tp_thread_t *t, tp_frame_t *out, uint32_t max, uint64_t pc, uint64_t sp,
                       int *exact, int *truncated) {
  *exact = 1;
  *truncated = 0;
  if (t->unwinds++ % VERIFY_EVERY) {
    int n = fast_walk(out, max, pc, sp, 0, t, 1, truncated);
    if (n > 0) return (uint32_t)n;
  }
  memset(t->pcmemo, 0, sizeof t->pcmemo);
  walk_t w = {.out = out, .max = max, .pc = pc};
  _Unwind_Backtrace(step, &w);
  *truncated = w.truncated;
  if (!w.found || w.n == 0) {
    /* the unwinder could not get through the trampoline: keep at least the pc */
    out[0].pc = pc;
    out[0].cfa = 0;
    return 1;
  }
  learn_walk(&w, sp);
  return w.n;
}

void tp_unwind_warmup(void) {
  tp_frame_t f[4];
  tp_unwind(f, 4, 0, NULL);
}
