/* OpenMP 5.1 memory allocators: allocators made from traits, the predefined allocators and
 * memory spaces, def-allocator-var and OMP_ALLOCATOR; the allocation routines (src/api/alloc.c)
 * and the front-ends' allocate clauses (GOMP_alloc) allocate here.
 *
 * Memory spaces: the host has one kind of memory, so every memory space is the C heap; the
 * high-bandwidth, large-capacity, constant and low-latency spaces are accepted and behave as
 * the default one (the specification lets a space map to the memory that best fits it).
 *
 * Traits: alignment, pool_size and fallback (with fb_data) take effect; pinned=true is real:
 * pinned blocks get pages of their own that are mlock()ed, and a block that cannot be locked
 * (RLIMIT_MEMLOCK) counts as an allocation failure, so the fallback trait decides.  sync_hint,
 * access and partition are validated and have no further effect: memory is coherent and
 * accessible to all threads, pool accounting is a single atomic counter in every case.
 *
 * Pools count each block's bytes requested plus tomp's header (pool_cost), as libgomp and libomp
 * count theirs with their own headers: pool_size bounds the memory the allocator uses, so two
 * blocks of half the pool never both fit (LLVM's api/omp_alloc_null_fb.c).  The alignment slack
 * is not counted: it depends on where the heap puts the block, and GCC's alloc-9.c expects a
 * 32-byte-aligned pool of 512 bytes to hold blocks of 380 and 4 bytes.  An allocation that would take the pool past pool_size fails, and so does one the heap
 * refuses; then the fallback applies: default_mem_fb retries with TOMP_DEFAULT_MEM_ALLOC (with the same alignment),
 * null_fb returns NULL, abort_fb ends the program with a message, allocator_fb retries with the
 * fb_data allocator.
 *
 * Every block carries a header just below the returned address naming its allocator, so
 * omp_free and omp_realloc work whatever allocator argument they get.
 *
 * Handles: the predefined allocators are the small integers OpenMP gives them (alloc.h); an
 * allocator made by omp_init_allocator is the address of its descriptor, recognised by a magic
 * word.  Bad handles, traits and alignments get one message and a safe default.
 *
 * def-allocator-var lives in the task's ICVs (tomp_icv_t.def_allocator); 0 there means "the
 * OMP_ALLOCATOR setting, else omp_default_mem_alloc", so the environment can be read here
 * without depending on the order of library start-up. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>

#include "alloc.h"

#define ALLOC_MAGIC 0x746f6d70616c6c63ull /* "tompallc" */
#define HDR_MAGIC ((uintptr_t)0x5a17c0de5a17c0deull)
#define NPREDEF 8
#define UNLIMITED SIZE_MAX
#define MAX_FB_CHAIN 16

typedef struct alloc {
  uint64_t magic;
  tomp_memspace_t memspace;
  size_t alignment; /* power of two; 1 = none requested */
  size_t pool_size; /* UNLIMITED or bytes */
  size_t used;      /* bytes taken from the pool (atomic) */
  uintptr_t fallback;
  tomp_allocator_t fb_data;
  uintptr_t sync_hint, access, partition;
  bool pinned;
} alloc_t;

typedef struct {
  void *base;     /* what the heap returned */
  size_t size;    /* bytes requested (pool accounting, realloc copies) */
  size_t total;   /* bytes obtained from the heap */
  alloc_t *alloc; /* allocator that served the block (after any fallback) */
  uintptr_t check;
} hdr_t;

#define PREDEF(space, acc)                                                                         \
  {                                                                                                \
    .magic = ALLOC_MAGIC, .memspace = (space), .alignment = 1, .pool_size = UNLIMITED,             \
    .fallback = TOMP_ATV_DEFAULT_MEM_FB, .sync_hint = TOMP_ATV_CONTENDED, .access = (acc),         \
    .partition = TOMP_ATV_ENVIRONMENT                                                              \
  }
/* Statically initialised: other libraries' constructors may allocate before ours runs. */
static alloc_t predef[NPREDEF + 1] = {
    PREDEF(TOMP_DEFAULT_MEM_SPACE, TOMP_ATV_ALL),    PREDEF(TOMP_DEFAULT_MEM_SPACE, TOMP_ATV_ALL),
    PREDEF(TOMP_LARGE_CAP_MEM_SPACE, TOMP_ATV_ALL),  PREDEF(TOMP_CONST_MEM_SPACE, TOMP_ATV_ALL),
    PREDEF(TOMP_HIGH_BW_MEM_SPACE, TOMP_ATV_ALL),    PREDEF(TOMP_LOW_LAT_MEM_SPACE, TOMP_ATV_ALL),
    PREDEF(TOMP_DEFAULT_MEM_SPACE, TOMP_ATV_CGROUP), PREDEF(TOMP_DEFAULT_MEM_SPACE, TOMP_ATV_PTEAM),
    PREDEF(TOMP_DEFAULT_MEM_SPACE, TOMP_ATV_THREAD)};
static tomp_allocator_t env_default; /* from OMP_ALLOCATOR; 0 = unset */
static size_t page_size = 4096;

static void warn_once(int *flag, const char *fmt, const char *what) {
  if (!__atomic_exchange_n(flag, 1, __ATOMIC_RELAXED)) tomp_warn(fmt, what);
}

static void set_defaults(alloc_t *a, tomp_memspace_t ms) {
  *a = (alloc_t)PREDEF(ms, TOMP_ATV_ALL);
}

/* The allocator behind a handle; NULL if the handle is not one. */
static alloc_t *lookup(tomp_allocator_t h) {
  if (h <= NPREDEF) return h ? &predef[h] : NULL;
  if (h < 4096 || (h & (_Alignof(alloc_t) - 1))) return NULL;
  alloc_t *a = (alloc_t *)h;
  return a->magic == ALLOC_MAGIC ? a : NULL;
}

tomp_allocator_t tomp_allocator_default(void) {
  tomp_allocator_t h = tomp_icv()->def_allocator;
  if (!h) h = env_default;
  return h ? h : TOMP_DEFAULT_MEM_ALLOC;
}

/* The allocator an allocation routine uses: the argument, else def-allocator-var. */
static alloc_t *resolve(tomp_allocator_t h, const char *who) {
  static int warned;
  if (h == TOMP_NULL_ALLOCATOR) h = tomp_allocator_default();
  alloc_t *a = lookup(h);
  if (tomp_unlikely(!a)) {
    warn_once(&warned, "%s: invalid allocator handle; using omp_default_mem_alloc", who);
    a = &predef[TOMP_DEFAULT_MEM_ALLOC];
  }
  return a;
}

static bool pool_take(alloc_t *a, size_t n) {
  if (a->pool_size == UNLIMITED) return true;
  size_t used = tomp_load_rlx(&a->used);
  do {
    if (n > a->pool_size || used > a->pool_size - n) return false;
  } while (!__atomic_compare_exchange_n(&a->used, &used, used + n, true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
  return true;
}

/* What a block of size bytes takes from its allocator's pool (no overflow: alloc_with checks
 * the larger heap request first). */
static size_t pool_cost(size_t size) { return size + sizeof(hdr_t); }

static void pool_give(alloc_t *a, size_t n) {
  if (a->pool_size != UNLIMITED) __atomic_fetch_sub(&a->used, n, __ATOMIC_RELAXED);
}

static void *heap_get(alloc_t *a, size_t total) {
  if (!a->pinned) return malloc(total);
  void *p = NULL;
  if (posix_memalign(&p, page_size, total)) return NULL;
  if (mlock(p, total)) {
    free(p);
    return NULL;
  }
  return p;
}

static void heap_put(alloc_t *a, void *base, size_t total) {
  if (a->pinned) munlock(base, total);
  free(base);
}

/* One attempt with allocator a, then its fallback chain. */
static void *alloc_with(alloc_t *a, size_t align, size_t size, bool zero, int depth) {
  size_t al = align > a->alignment ? align : a->alignment;
  if (al < _Alignof(max_align_t)) al = _Alignof(max_align_t);
  size_t total = size + sizeof(hdr_t) + al - 1;
  if (total < size) goto fail; /* overflow */
  if (a->pinned) {
    total = (total + page_size - 1) & ~(page_size - 1);
    if (total < size) goto fail;
  }
  if (!pool_take(a, pool_cost(size))) goto fail;
  void *base = heap_get(a, total);
  if (!base) {
    pool_give(a, pool_cost(size));
    goto fail;
  }
  uintptr_t ret = ((uintptr_t)base + sizeof(hdr_t) + al - 1) & ~(uintptr_t)(al - 1);
  hdr_t *h = (hdr_t *)ret - 1;
  h->base = base;
  h->size = size;
  h->total = total;
  h->alloc = a;
  h->check = ret ^ HDR_MAGIC;
  if (zero) memset((void *)ret, 0, size);
  return (void *)ret;

fail:
  switch (a->fallback) {
  case TOMP_ATV_NULL_FB:
    return NULL;
  case TOMP_ATV_ABORT_FB:
    tomp_fatal("cannot allocate %zu bytes with an allocator whose fallback is abort_fb", size);
  case TOMP_ATV_ALLOCATOR_FB: {
    alloc_t *fb = lookup(a->fb_data);
    if (!fb || depth >= MAX_FB_CHAIN) return NULL;
    return alloc_with(fb, align, size, zero, depth + 1);
  }
  default: /* default_mem_fb */
    if (a == &predef[TOMP_DEFAULT_MEM_ALLOC]) return NULL;
    return alloc_with(&predef[TOMP_DEFAULT_MEM_ALLOC], align, size, zero, depth + 1);
  }
}

static size_t check_align(size_t align, const char *who) {
  static int warned;
  if (align == 0) return 1;
  if (tomp_unlikely(align & (align - 1))) {
    warn_once(&warned, "%s: alignment is not a power of two; rounding it up", who);
    size_t p = 1;
    while (p < align && p << 1) p <<= 1;
    return p;
  }
  return align;
}

static hdr_t *header_of(void *ptr, const char *who) {
  static int warned;
  hdr_t *h = (hdr_t *)ptr - 1;
  if (tomp_unlikely(h->check != ((uintptr_t)ptr ^ HDR_MAGIC))) {
    warn_once(&warned, "%s: pointer was not allocated by omp_alloc and friends (ignored)", who);
    return NULL;
  }
  return h;
}

static void free_block(hdr_t *h, bool account) {
  alloc_t *a = h->alloc;
  if (account) pool_give(a, pool_cost(h->size));
  h->check = 0;
  heap_put(a, h->base, h->total);
}

/* ---- entry points (alloc.h) ------------------------------------------------------------------ */

void *tomp_alloc(size_t alignment, size_t size, tomp_allocator_t allocator, bool zero,
                 const char *who) {
  alignment = check_align(alignment, who);
  return alloc_with(resolve(allocator, who), alignment, size, zero, 0);
}

void tomp_free(void *ptr, const char *who) {
  if (!ptr) return;
  hdr_t *h = header_of(ptr, who);
  if (h) free_block(h, true);
}

void *tomp_realloc(void *ptr, size_t size, tomp_allocator_t allocator, const char *who) {
  hdr_t *h = header_of(ptr, who);
  if (!h) return NULL;
  if (size == 0) {
    free_block(h, true);
    return NULL;
  }
  alloc_t *a = allocator == TOMP_NULL_ALLOCATOR ? h->alloc : resolve(allocator, who);
  /* Moving within one pool: the old block's share is available to the new one. */
  bool same = a == h->alloc;
  if (same) pool_give(a, pool_cost(h->size));
  void *p = alloc_with(a, 1, size, false, 0);
  if (!p) {
    if (same && a->pool_size != UNLIMITED)
      __atomic_fetch_add(&a->used, pool_cost(h->size), __ATOMIC_RELAXED);
    return NULL; /* the old block stays valid */
  }
  memcpy(p, ptr, h->size < size ? h->size : size);
  free_block(h, !same);
  return p;
}

bool tomp_allocator_valid(tomp_allocator_t allocator) {
  return lookup(allocator) != NULL;
}

void tomp_allocator_destroy(tomp_allocator_t allocator, const char *who) {
  if (allocator <= NPREDEF) return; /* null and predefined allocators are not destroyed */
  alloc_t *a = lookup(allocator);
  if (!a) {
    static int warned;
    warn_once(&warned, "%s: invalid allocator handle (ignored)", who);
    return;
  }
  a->magic = 0;
  free(a);
}

/* ---- allocators ------------------------------------------------------------------------------ */

static const char *trait_name(int key) {
  static const char *const names[] = {"?",         "sync_hint", "alignment", "access", "pool_size",
                                      "fallback", "fb_data",   "pinned",    "partition"};
  return key >= 1 && key <= 8 ? names[key] : "unknown";
}

/* Apply one trait; false if the key or value is not valid. */
static bool apply_trait(alloc_t *a, int key, uintptr_t v) {
  bool dflt = v == (uintptr_t)TOMP_ATV_DEFAULT;
  switch (key) {
  case TOMP_ATK_SYNC_HINT:
    if (dflt) v = TOMP_ATV_CONTENDED;
    if (v != TOMP_ATV_CONTENDED && v != TOMP_ATV_UNCONTENDED && v != TOMP_ATV_SERIALIZED &&
        v != TOMP_ATV_PRIVATE)
      return false;
    a->sync_hint = v;
    return true;
  case TOMP_ATK_ALIGNMENT:
    if (dflt) v = 1;
    if (v == 0 || (v & (v - 1))) return false;
    a->alignment = v;
    return true;
  case TOMP_ATK_ACCESS:
    if (dflt) v = TOMP_ATV_ALL;
    if (v != TOMP_ATV_ALL && v != TOMP_ATV_CGROUP && v != TOMP_ATV_PTEAM && v != TOMP_ATV_THREAD)
      return false;
    a->access = v;
    return true;
  case TOMP_ATK_POOL_SIZE:
    a->pool_size = dflt ? UNLIMITED : v;
    return true;
  case TOMP_ATK_FALLBACK:
    if (dflt) v = TOMP_ATV_DEFAULT_MEM_FB;
    if (v != TOMP_ATV_DEFAULT_MEM_FB && v != TOMP_ATV_NULL_FB && v != TOMP_ATV_ABORT_FB &&
        v != TOMP_ATV_ALLOCATOR_FB)
      return false;
    a->fallback = v;
    return true;
  case TOMP_ATK_FB_DATA:
    if (!lookup(v)) return false;
    a->fb_data = v;
    return true;
  case TOMP_ATK_PINNED:
    if (dflt) v = TOMP_ATV_FALSE;
    if (v != TOMP_ATV_TRUE && v != TOMP_ATV_FALSE) return false;
    a->pinned = v == TOMP_ATV_TRUE;
    return true;
  case TOMP_ATK_PARTITION:
    if (dflt) v = TOMP_ATV_ENVIRONMENT;
    if (v != TOMP_ATV_ENVIRONMENT && v != TOMP_ATV_NEAREST && v != TOMP_ATV_BLOCKED &&
        v != TOMP_ATV_INTERLEAVED)
      return false;
    a->partition = v;
    return true;
  default:
    return false;
  }
}

tomp_allocator_t tomp_allocator_init(tomp_memspace_t memspace, long ntraits,
                                     const tomp_alloctrait_t traits[], const char *who) {
  if ((uintptr_t)memspace > TOMP_LOW_LAT_MEM_SPACE) {
    tomp_warn("%s: invalid memory space %#lx; returning omp_null_allocator", who,
              (unsigned long)memspace);
    return TOMP_NULL_ALLOCATOR;
  }
  if (ntraits < 0 || (ntraits > 0 && !traits)) {
    tomp_warn("%s: invalid trait array (%ld traits); returning omp_null_allocator", who, ntraits);
    return TOMP_NULL_ALLOCATOR;
  }
  alloc_t tmp;
  set_defaults(&tmp, memspace);
  for (long i = 0; i < ntraits; i++)
    if (!apply_trait(&tmp, (int)traits[i].key, traits[i].value)) {
      tomp_warn("%s: invalid value %#lx for trait %s (key %d); returning omp_null_allocator",
                who, (unsigned long)traits[i].value, trait_name((int)traits[i].key),
                (int)traits[i].key);
      return TOMP_NULL_ALLOCATOR;
    }
  if (tmp.fallback == TOMP_ATV_ALLOCATOR_FB && !tmp.fb_data) {
    tomp_warn("%s: fallback allocator_fb needs an fb_data allocator; returning "
              "omp_null_allocator", who);
    return TOMP_NULL_ALLOCATOR;
  }
  alloc_t *a = aligned_alloc(_Alignof(alloc_t) > 16 ? _Alignof(alloc_t) : 16,
                             (sizeof *a + 15) & ~(size_t)15);
  if (!a) return TOMP_NULL_ALLOCATOR;
  *a = tmp;
  return (tomp_allocator_t)(uintptr_t)a;
}

/* ---- OMP_ALLOCATOR ------------------------------------------------------------------------------
 * A predefined allocator ("omp_high_bw_mem_alloc" or its number), or a predefined memory space
 * with optional traits: "omp_default_mem_space:alignment=64,pool_size=1048576,fallback=null_fb".
 * Trait values are numbers or the omp_atv_ names without their prefix; fb_data names a
 * predefined allocator. */

static const char *const alloc_names[NPREDEF + 1] = {
    "omp_null_allocator",   "omp_default_mem_alloc", "omp_large_cap_mem_alloc",
    "omp_const_mem_alloc",  "omp_high_bw_mem_alloc", "omp_low_lat_mem_alloc",
    "omp_cgroup_mem_alloc", "omp_pteam_mem_alloc",   "omp_thread_mem_alloc"};
static const char *const space_names[] = {"omp_default_mem_space", "omp_large_cap_mem_space",
                                          "omp_const_mem_space", "omp_high_bw_mem_space",
                                          "omp_low_lat_mem_space"};
static const struct {
  const char *name;
  uintptr_t value;
} value_names[] = {{"default", (uintptr_t)TOMP_ATV_DEFAULT},
                   {"false", TOMP_ATV_FALSE},
                   {"true", TOMP_ATV_TRUE},
                   {"contended", TOMP_ATV_CONTENDED},
                   {"uncontended", TOMP_ATV_UNCONTENDED},
                   {"serialized", TOMP_ATV_SERIALIZED},
                   {"sequential", TOMP_ATV_SEQUENTIAL},
                   {"private", TOMP_ATV_PRIVATE},
                   {"all", TOMP_ATV_ALL},
                   {"thread", TOMP_ATV_THREAD},
                   {"pteam", TOMP_ATV_PTEAM},
                   {"cgroup", TOMP_ATV_CGROUP},
                   {"default_mem_fb", TOMP_ATV_DEFAULT_MEM_FB},
                   {"null_fb", TOMP_ATV_NULL_FB},
                   {"abort_fb", TOMP_ATV_ABORT_FB},
                   {"allocator_fb", TOMP_ATV_ALLOCATOR_FB},
                   {"environment", TOMP_ATV_ENVIRONMENT},
                   {"nearest", TOMP_ATV_NEAREST},
                   {"blocked", TOMP_ATV_BLOCKED},
                   {"interleaved", TOMP_ATV_INTERLEAVED}};

static bool match(const char *s, size_t n, const char *name) {
  return strlen(name) == n && strncasecmp(s, name, n) == 0;
}

static bool parse_number(const char *s, size_t n, uintptr_t *out) {
  char buf[32];
  if (n == 0 || n >= sizeof buf) return false;
  memcpy(buf, s, n);
  buf[n] = 0;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(buf, &end, 0);
  if (errno || *end || buf[0] == '-') return false;
  *out = (uintptr_t)v;
  return true;
}

static bool parse_value(int key, const char *s, size_t n, uintptr_t *out) {
  if (key == TOMP_ATK_FB_DATA) {
    for (unsigned i = 1; i <= NPREDEF; i++)
      if (match(s, n, alloc_names[i])) return *out = i, true;
    return parse_number(s, n, out) && *out >= 1 && *out <= NPREDEF;
  }
  for (size_t i = 0; i < sizeof value_names / sizeof value_names[0]; i++)
    if (match(s, n, value_names[i].name)) return *out = value_names[i].value, true;
  return parse_number(s, n, out);
}

static tomp_allocator_t parse_env(const char *s) {
  size_t n = strcspn(s, ":");
  for (unsigned i = 1; i <= NPREDEF; i++)
    if (match(s, n, alloc_names[i]) && !s[n]) return i;
  uintptr_t num;
  if (!s[n] && parse_number(s, n, &num) && num >= 1 && num <= NPREDEF) return num;
  int space = -1;
  for (int i = 0; i < 5; i++)
    if (match(s, n, space_names[i])) space = i;
  if (space < 0) return 0;
  tomp_alloctrait_t traits[16];
  int nt = 0;
  const char *p = s[n] ? s + n + 1 : s + n;
  while (*p) {
    size_t len = strcspn(p, ",");
    const char *eq = memchr(p, '=', len);
    if (!eq || nt == 16) return 0;
    int key = 0;
    for (int k = 1; k <= 8; k++)
      if (match(p, (size_t)(eq - p), trait_name(k))) key = k;
    uintptr_t v;
    if (!key || !parse_value(key, eq + 1, len - (size_t)(eq + 1 - p), &v)) return 0;
    traits[nt].key = key;
    traits[nt++].value = v;
    p += len;
    if (*p == ',') p++;
  }
  if (nt == 0) return space == 0 ? TOMP_DEFAULT_MEM_ALLOC : (tomp_allocator_t)(space + 1);
  return tomp_allocator_init((tomp_memspace_t)space, nt, traits, "OMP_ALLOCATOR");
}

__attribute__((constructor(110))) static void alloc_ctor(void) {
  long ps = sysconf(_SC_PAGESIZE);
  if (ps > 0) page_size = (size_t)ps;
  const char *e = getenv("OMP_ALLOCATOR");
  if (!e) return;
  while (*e == ' ' || *e == '\t') e++;
  char buf[512];
  size_t n = strlen(e);
  while (n && (e[n - 1] == ' ' || e[n - 1] == '\t')) n--;
  if (n >= sizeof buf) n = sizeof buf - 1;
  memcpy(buf, e, n);
  buf[n] = 0;
  env_default = parse_env(buf);
  if (!env_default)
    tomp_warn("OMP_ALLOCATOR: cannot use '%s'; using omp_default_mem_alloc", buf);
}
