/* The profile under construction: an arena for everything the profile points to, and hash
 * tables that intern strings, locations and (process, thread, stack) triples, so that each
 * distinct stack is one tp_stack_t however many samples land on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rep.h"

void *rep_alloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) {
    fputs("tomp-prof report: out of memory\n", stderr);
    exit(1);
  }
  return p;
}

/* TOMP_PROF_TEST_MOVE=1 (for tests): every growth of an array up to 64 Ki elements moves it
 * to new memory and fills the old copy with 0xa5 bytes, kept allocated for the next 8 moves,
 * so that code still reading through a pointer taken before a call that grew the array reads
 * non-canonical pointers (and crashes) instead of what a realloc in place would leave. */
static int test_move(void) {
  static int on = -1;
  if (on < 0) {
    const char *v = getenv("TOMP_PROF_TEST_MOVE");
    on = v && !strcmp(v, "1");
  }
  return on;
}

static void *move_poisoned(void *p, size_t *cap, size_t need, size_t elem) {
  static void *quarantine[8];
  static unsigned next;
  void *q = rep_alloc(need * elem);
  if (p) {
    memcpy(q, p, *cap * elem);
    memset(p, 0xa5, *cap * elem);
    free(quarantine[next % 8]);
    quarantine[next++ % 8] = p;
  }
  *cap = need;
  return q;
}

void *rep_grow(void *p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return p;
  if (need <= 65536 && test_move()) return move_poisoned(p, cap, need, elem);
  size_t n = *cap ? *cap : 16;
  while (n < need) n *= 2;
  void *q = realloc(p, n * elem);
  if (!q) {
    fputs("tomp-prof report: out of memory\n", stderr);
    exit(1);
  }
  memset((char *)q + *cap * elem, 0, (n - *cap) * elem);
  *cap = n;
  return q;
}

/* Arena blocks are chained through their first word; the chain hangs off p->priv. */
typedef struct block {
  struct block *next;
  size_t used, size;
  _Alignas(16) char data[];
} block_t;

struct rep_model {
  tp_profile_t *p;
  size_t loccap, stackcap, threadcap;
  /* open addressing; each table holds index + 1 (0 = empty) */
  uint32_t *strtab;
  const char **strs;
  size_t nstrs, strcap, strtabsize;
  uint32_t *loctab;
  size_t loctabsize;
  uint32_t *stacktab;
  size_t stacktabsize;
};

void *rep_arena(rep_model_t *m, size_t n) {
  block_t *b = m->p->priv;
  n = (n + 15) & ~(size_t)15;
  if (!b || b->size - b->used < n) {
    size_t size = n > (1u << 20) ? n : (1u << 20);
    block_t *nb = rep_alloc(sizeof *nb + size);
    nb->size = size;
    nb->next = b;
    m->p->priv = b = nb;
  }
  void *r = b->data + b->used;
  b->used += n;
  return r;
}

static uint64_t hash_bytes(const void *s, size_t n, uint64_t h) {
  const unsigned char *c = s;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001b3ull;
  return h;
}
static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x9e3779b97f4a7c15ull + (h >> 29); }

rep_model_t *rep_model_new(tp_profile_t *p) {
  rep_model_t *m = rep_alloc(sizeof *m);
  m->p = p;
  return m;
}

tp_profile_t *rep_profile(rep_model_t *m) { return m->p; }

void rep_model_done(rep_model_t *m) {
  if (!m) return;
  free(m->strtab);
  free(m->strs);
  free(m->loctab);
  free(m->stacktab);
  free(m);
}

/* Generic probe: tab has `size` slots (power of two), holding index+1; eq(i) compares. */
typedef int (*eq_fn)(rep_model_t *m, uint32_t idx, const void *key);
typedef uint64_t (*hash_fn)(rep_model_t *m, uint32_t idx);

static uint32_t *find_slot(uint32_t *tab, size_t size, uint64_t h, rep_model_t *m, eq_fn eq,
                           const void *key) {
  for (size_t i = h & (size - 1);; i = (i + 1) & (size - 1))
    if (!tab[i] || eq(m, tab[i] - 1, key)) return &tab[i];
}

static void rehash(uint32_t **tab, size_t *size, size_t count, rep_model_t *m, hash_fn hf) {
  if (*size && count * 2 < *size) return;
  size_t ns = *size ? *size * 2 : 1024;
  uint32_t *nt = rep_alloc(ns * sizeof *nt);
  for (size_t i = 0; i < *size; i++) {
    uint32_t v = (*tab)[i];
    if (!v) continue;
    size_t j = hf(m, v - 1) & (ns - 1);
    while (nt[j]) j = (j + 1) & (ns - 1);
    nt[j] = v;
  }
  free(*tab);
  *tab = nt;
  *size = ns;
}

/* ---- strings ---- */
static uint64_t str_hash_idx(rep_model_t *m, uint32_t i) {
  return hash_bytes(m->strs[i], strlen(m->strs[i]), 0xcbf29ce484222325ull);
}
static int str_eq(rep_model_t *m, uint32_t i, const void *key) { return !strcmp(m->strs[i], key); }

const char *rep_str(rep_model_t *m, const char *s) {
  if (!s) return NULL;
  rehash(&m->strtab, &m->strtabsize, m->nstrs, m, str_hash_idx);
  uint32_t *slot = find_slot(m->strtab, m->strtabsize, hash_bytes(s, strlen(s), 0xcbf29ce484222325ull),
                             m, str_eq, s);
  if (*slot) return m->strs[*slot - 1];
  size_t n = strlen(s) + 1;
  char *c = rep_arena(m, n);
  memcpy(c, s, n);
  m->strs = rep_grow(m->strs, &m->strcap, m->nstrs + 1, sizeof *m->strs);
  m->strs[m->nstrs] = c;
  *slot = (uint32_t)++m->nstrs;
  return c;
}

/* ---- locations: strings are interned, so pointers compare ---- */
static uint64_t loc_hash(const tp_loc_t *l) {
  uint64_t h = mix(mix(mix(0x51ed27, (uintptr_t)l->func), (uintptr_t)l->file), l->line);
  return mix(mix(h, l->kind), (uintptr_t)l->module);
}
static uint64_t loc_hash_idx(rep_model_t *m, uint32_t i) { return loc_hash(&m->p->locs[i]); }
static int loc_eq(rep_model_t *m, uint32_t i, const void *key) {
  const tp_loc_t *a = &m->p->locs[i], *b = key;
  return a->func == b->func && a->file == b->file && a->line == b->line && a->kind == b->kind &&
         a->module == b->module;
}

uint32_t rep_loc(rep_model_t *m, const char *func, const char *file, uint32_t line, uint32_t kind,
                 const char *module, uint64_t addr) {
  tp_loc_t key = {rep_str(m, func ? func : "[unknown]"), rep_str(m, file), line, kind,
                  rep_str(m, module), addr};
  tp_profile_t *p = m->p;
  rehash(&m->loctab, &m->loctabsize, p->nlocs, m, loc_hash_idx);
  uint32_t *slot = find_slot(m->loctab, m->loctabsize, loc_hash(&key), m, loc_eq, &key);
  if (*slot) return *slot - 1;
  p->locs = rep_grow(p->locs, &m->loccap, p->nlocs + 1, sizeof *p->locs);
  p->locs[p->nlocs] = key;
  *slot = (uint32_t)++p->nlocs;
  return *slot - 1;
}

uint32_t rep_omp_loc(rep_model_t *m, const char *name) {
  return rep_loc(m, name, NULL, 0, TP_LOC_OMP, NULL, 0);
}

/* ---- stacks ---- */
typedef struct stack_key {
  uint32_t proc, thread, depth;
  const uint32_t *locs;
} stack_key_t;

static uint64_t stack_hash(uint32_t proc, uint32_t thread, const uint32_t *locs, uint32_t depth) {
  return hash_bytes(locs, depth * sizeof *locs, mix(mix(0x7e57, proc), thread));
}
static uint64_t stack_hash_idx(rep_model_t *m, uint32_t i) {
  const tp_stack_t *s = &m->p->stacks[i];
  return stack_hash(s->proc, s->thread, s->locs, s->depth);
}
static int stack_eq(rep_model_t *m, uint32_t i, const void *key) {
  const tp_stack_t *s = &m->p->stacks[i];
  const stack_key_t *k = key;
  return s->proc == k->proc && s->thread == k->thread && s->depth == k->depth &&
         !memcmp(s->locs, k->locs, k->depth * sizeof *k->locs);
}

tp_stack_t *rep_stack(rep_model_t *m, uint32_t proc, uint32_t thread, const uint32_t *locs,
                      uint32_t depth) {
  tp_profile_t *p = m->p;
  stack_key_t key = {proc, thread, depth, locs};
  rehash(&m->stacktab, &m->stacktabsize, p->nstacks, m, stack_hash_idx);
  uint32_t *slot = find_slot(m->stacktab, m->stacktabsize, stack_hash(proc, thread, locs, depth), m,
                             stack_eq, &key);
  if (*slot) return &p->stacks[*slot - 1];
  p->stacks = rep_grow(p->stacks, &m->stackcap, p->nstacks + 1, sizeof *p->stacks);
  tp_stack_t *s = &p->stacks[p->nstacks];
  uint32_t *copy = rep_arena(m, depth * sizeof *copy + 1);
  memcpy(copy, locs, depth * sizeof *copy);
  s->proc = proc;
  s->thread = thread;
  s->depth = depth;
  s->locs = copy;
  *slot = (uint32_t)++p->nstacks;
  return s;
}
