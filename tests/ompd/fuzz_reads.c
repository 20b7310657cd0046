/* libtompd on corrupt memory (tests/scenarios/ompd_fuzz.sh): the library's sources are
 * compiled into this program with ASan and UBSan, and its callbacks serve an address space
 * whose layout header and thread-table header are well formed (so that the library gets past
 * its compatibility checks) but whose every other byte is pseudo-random: words that look like
 * pointers into a small arena, small integers, or noise, the same on every read.  For each
 * seed it makes handles for the table's threads and walks everything from them (regions and
 * their enclosing regions, tasks and their generating and scheduling tasks, team members,
 * functions, frames, states, ICVs at every scope, tool data, display control variables),
 * releasing what it got.  It asserts that every call returns one of OpenMP 5.2's ompd_rc_t
 * values and that the library neither crashes nor reads outside what the callbacks give it
 * (the sanitizers abort the program on a bad access).
 *
 *   fuzz_reads [SEEDS [FIRST]]     (defaults 3000, 1) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp-tools.h"
#include "../../src/core/thread_table.h"
#include "../../src/ompd/ompd_layout.h"

static unsigned checks, fails;
#define CHECK(cond, ...)                                                                           \
  do {                                                                                             \
    checks++;                                                                                      \
    if (!(cond)) {                                                                                 \
      fails++;                                                                                     \
      printf("FAIL seed %llu: %s: ", (unsigned long long)seed, #cond);                             \
      printf(__VA_ARGS__);                                                                         \
      printf("\n");                                                                                \
    }                                                                                              \
  } while (0)

/* ---- the fake address space ---- */
#define LAYOUT_AT 0x10000ull
#define TABLE_AT 0x20000ull
#define ARENA 0x7f0000000000ull
#define ARENA_SIZE 0x4000ull

static uint64_t seed;
static tomp_ompd_layout_t L;
static tomp_thread_table_t T; /* its header; chunks[] come from the arena */
#define TABLE_HDR offsetof(tomp_thread_table_t, chunks)

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

/* the word at an 8-aligned address: a pointer into the arena, a small number, or noise */
static uint64_t word_at(uint64_t a) {
  uint64_t h = mix(a ^ mix(seed));
  switch (h & 7) {
  case 0:
  case 1:
  case 2:
  case 3:
    return (ARENA + ((h >> 8) % ARENA_SIZE)) & ~7ull;
  case 4:
  case 5:
    return (h >> 8) % 5;
  case 6:
    return 0;
  default:
    return h;
  }
}

/* planted values (the thread table's chunks and entries, each entry's number and id), so
 * that thread handles are valid and the walk goes on from them into random memory */
static struct {
  uint64_t addr, value;
  unsigned len;
} plant[200];
static unsigned nplant;
static void plant_value(uint64_t addr, uint64_t value, unsigned len) {
  if (nplant < sizeof plant / sizeof plant[0]) {
    plant[nplant].addr = addr, plant[nplant].value = value, plant[nplant].len = len;
    nplant++;
  }
}

static int byte_at(uint64_t a, unsigned char *b) {
  for (unsigned i = nplant; i-- > 0;)
    if (a >= plant[i].addr && a < plant[i].addr + plant[i].len) {
      *b = (unsigned char)(plant[i].value >> (8 * (a - plant[i].addr)));
      return 0;
    }
  if (a >= LAYOUT_AT && a < LAYOUT_AT + sizeof L) {
    *b = ((unsigned char *)&L)[a - LAYOUT_AT];
    return 0;
  }
  if (a >= TABLE_AT && a < TABLE_AT + TABLE_HDR) {
    *b = ((unsigned char *)&T)[a - TABLE_AT];
    return 0;
  }
  /* the chunk pointer array and everything in the arena */
  if ((a >= TABLE_AT && a < TABLE_AT + sizeof T) || (a >= ARENA && a < ARENA + ARENA_SIZE + 4096)) {
    uint64_t w = word_at(a & ~7ull);
    *b = (unsigned char)(w >> (8 * (a & 7)));
    return 0;
  }
  return -1; /* unmapped */
}

static unsigned long reads;
static ompd_rc_t cb_read(ompd_address_space_context_t *c, ompd_thread_context_t *t,
                         const ompd_address_t *addr, ompd_size_t n, void *buf) {
  reads++;
  for (ompd_size_t i = 0; i < n; i++)
    if (byte_at(addr->address + i, (unsigned char *)buf + i)) return ompd_rc_error;
  return ompd_rc_ok;
}
static ompd_rc_t cb_read_string(ompd_address_space_context_t *c, ompd_thread_context_t *t,
                                const ompd_address_t *addr, ompd_size_t n, void *buf) {
  for (ompd_size_t i = 0; i < n; i++) {
    if (byte_at(addr->address + i, (unsigned char *)buf + i)) return ompd_rc_error;
    if (!((char *)buf)[i]) return ompd_rc_ok;
  }
  return ompd_rc_incomplete;
}
static ompd_rc_t cb_write(ompd_address_space_context_t *c, ompd_thread_context_t *t,
                          const ompd_address_t *addr, ompd_size_t n, const void *buf) {
  return ompd_rc_error;
}
static ompd_rc_t cb_alloc(ompd_size_t n, void **p) {
  *p = malloc(n ? n : 1);
  return *p ? ompd_rc_ok : ompd_rc_nomem;
}
static ompd_rc_t cb_free(void *p) {
  free(p);
  return ompd_rc_ok;
}
static ompd_rc_t cb_print(const char *s, int category) {
  return ompd_rc_ok;
}
static ompd_rc_t cb_sizes(ompd_address_space_context_t *c, ompd_device_type_sizes_t *s) {
  *s = (ompd_device_type_sizes_t){1, 2, 4, 8, 8, 8};
  return ompd_rc_ok;
}
static ompd_rc_t cb_symbol(ompd_address_space_context_t *c, ompd_thread_context_t *t,
                           const char *name, ompd_address_t *a, const char *file) {
  if (strcmp(name, "tomp_ompd_layout")) return ompd_rc_error;
  a->segment = ompd_segment_none;
  a->address = LAYOUT_AT;
  return ompd_rc_ok;
}
static ompd_rc_t cb_convert(ompd_address_space_context_t *c, const void *in, ompd_size_t unit,
                            ompd_size_t count, void *out) {
  memcpy(out, in, unit * count);
  return ompd_rc_ok;
}
static ompd_rc_t cb_thread_ctx(ompd_address_space_context_t *c, ompd_thread_id_t kind,
                               ompd_size_t size, const void *id, ompd_thread_context_t **out) {
  *out = (ompd_thread_context_t *)1; /* never dereferenced by the library */
  return ompd_rc_ok;
}
static const ompd_callbacks_t callbacks = {cb_alloc,   cb_free,    cb_print,     cb_sizes,
                                           cb_symbol,  cb_read,    cb_write,     cb_read_string,
                                           cb_convert, cb_convert, cb_thread_ctx};
static struct _ompd_aspace_cont { int unused; } ctx;

/* a layout that passes the library's checks: sizes, and for each field a random offset that
 * leaves room for its 8 bytes */
static void make_layout(void) {
  memset(&L, 0, sizeof L);
  L.magic = TOMP_OMPD_MAGIC;
  L.version = TOMP_OMPD_LAYOUT_VERSION;
  L.layout_size = sizeof L;
  L.pointer_size = 8;
  L.openmp_version = 202111;
  L.version_string = ARENA + 64;
  L.thread_table = TABLE_AT;
  L.global = ARENA + 128;
  L.thread_size = 256, L.team_size = 256, L.task_size = 256, L.icv_size = 64, L.global_size = 256;
  uint64_t r = mix(seed * 77);
#define FIELD_(s, f, t)                                                                            \
  r = mix(r);                                                                                      \
  L.s##_##f = (uint32_t)(r % (L.s##_size - 8)) & ~3u;
  TOMP_OMPD_ALL_FIELDS(FIELD_)
  TOMP_OMPD_V2_FIELDS(FIELD_)
#undef FIELD_
  /* version 2's runner table: up to 3 entries of garbage (function addresses that may match
   * what the library reads as a function, offsets of any size) */
  L.runner_size = 16;
  L.runners = ARENA + 0x2000;
  L.runners_end = L.runners + 16 * (mix(seed * 91) % 4);
  memset(&T, 0, sizeof T);
  T.version = TOMP_THREAD_TABLE_VERSION;
  T.chunk_size = 4;
  T.max_chunks = 8;
  T.count = 1 + (uint32_t)(mix(seed * 13) % 32);
  T.thread_size = L.thread_size;
  nplant = 0;
  for (uint32_t g = 0; g < T.count; g++) {
    uint64_t chunk = ARENA + 0x3000 + 0x100 * (g / T.chunk_size);
    uint64_t thr = word_at(ARENA + 8 * g) & ~7ull;
    if (thr < ARENA) thr = ARENA + 0x40 * g;
    if (g % T.chunk_size == 0) plant_value(TABLE_AT + TABLE_HDR + 8 * (g / T.chunk_size), chunk, 8);
    plant_value(chunk + 8 * (g % T.chunk_size), thr, 8);
    plant_value(thr + L.thread_gtid, g, 4);
    plant_value(thr + L.thread_lwp, 1000 + g, 4);
  }
}

static ompd_rc_t rc_ok(ompd_rc_t rc, const char *what) {
  CHECK(rc >= ompd_rc_ok && rc <= ompd_rc_callback_error, "%s returned %d", what, (int)rc);
  return rc;
}
#define CALL(expr) rc_ok((expr), #expr)

static unsigned long n_threads, n_regions, n_tasks;

static void walk_task(ompd_task_handle_t *t, int depth) {
  n_tasks++;
  ompd_address_t fn;
  ompd_frame_info_t ex, en;
  ompd_word_t v;
  ompd_address_t ptr;
  CALL(ompd_get_task_function(t, &fn));
  CALL(ompd_get_task_frame(t, &ex, &en));
  CALL(ompd_get_tool_data(t, ompd_scope_task, &v, &ptr));
  for (ompd_icv_id_t id = 1; id < 40; id++) {
    const char *s = NULL;
    CALL(ompd_get_icv_from_scope(t, ompd_scope_task, id, &v));
    CALL(ompd_get_icv_from_scope(t, ompd_scope_implicit_task, id, &v));
    if (CALL(ompd_get_icv_string_from_scope(t, ompd_scope_task, id, &s)) == ompd_rc_ok)
      free((void *)s);
  }
  ompd_parallel_handle_t *p = NULL;
  if (CALL(ompd_get_task_parallel_handle(t, &p)) == ompd_rc_ok) CALL(ompd_rel_parallel_handle(p));
  if (depth >= 6) return;
  ompd_task_handle_t *g = NULL;
  if (CALL(ompd_get_generating_task_handle(t, &g)) == ompd_rc_ok) {
    int c;
    CALL(ompd_task_handle_compare(t, g, &c));
    walk_task(g, depth + 1);
    CALL(ompd_rel_task_handle(g));
  }
  if (CALL(ompd_get_scheduling_task_handle(t, &g)) == ompd_rc_ok) {
    walk_task(g, depth + 1);
    CALL(ompd_rel_task_handle(g));
  }
}

static void walk_parallel(ompd_parallel_handle_t *p, int depth) {
  n_regions++;
  ompd_word_t v;
  ompd_address_t ptr;
  CALL(ompd_get_tool_data(p, ompd_scope_parallel, &v, &ptr));
  for (ompd_icv_id_t id = 1; id < 40; id++) {
    const char *s = NULL;
    CALL(ompd_get_icv_from_scope(p, ompd_scope_parallel, id, &v));
    if (CALL(ompd_get_icv_string_from_scope(p, ompd_scope_parallel, id, &s)) == ompd_rc_ok)
      free((void *)s);
  }
  for (int i = -1; i < 4; i++) {
    ompd_thread_handle_t *th = NULL;
    ompd_task_handle_t *t = NULL;
    if (CALL(ompd_get_thread_in_parallel(p, i, &th)) == ompd_rc_ok) {
      ompd_word_t st;
      ompd_wait_id_t w;
      CALL(ompd_get_state(th, &st, &w));
      CALL(ompd_rel_thread_handle(th));
    }
    if (CALL(ompd_get_task_in_parallel(p, i, &t)) == ompd_rc_ok) {
      walk_task(t, 5);
      CALL(ompd_rel_task_handle(t));
    }
  }
  ompd_parallel_handle_t *e = NULL;
  if (depth < 8 && CALL(ompd_get_enclosing_parallel_handle(p, &e)) == ompd_rc_ok) {
    int c;
    CALL(ompd_parallel_handle_compare(p, e, &c));
    walk_parallel(e, depth + 1);
    CALL(ompd_rel_parallel_handle(e));
  }
}

static void walk_thread(ompd_thread_handle_t *th) {
  n_threads++;
  ompd_word_t st, v;
  ompd_wait_id_t w;
  ompd_address_t ptr;
  uint64_t id;
  CALL(ompd_get_state(th, &st, &w));
  CALL(ompd_get_thread_id(th, 1, 8, &id));
  CALL(ompd_get_thread_id(th, 0, 8, &id));
  CALL(ompd_get_tool_data(th, ompd_scope_thread, &v, &ptr));
  ompd_parallel_handle_t *p = NULL;
  if (CALL(ompd_get_curr_parallel_handle(th, &p)) == ompd_rc_ok) {
    walk_parallel(p, 0);
    CALL(ompd_rel_parallel_handle(p));
  }
  ompd_task_handle_t *t = NULL;
  if (CALL(ompd_get_curr_task_handle(th, &t)) == ompd_rc_ok) {
    walk_task(t, 0);
    CALL(ompd_rel_task_handle(t));
  }
}

static void one_seed(void) {
  make_layout();
  ompd_address_space_handle_t *as = NULL;
  if (CALL(ompd_process_initialize(&ctx, &as)) != ompd_rc_ok) return;
  const char *s = NULL;
  if (CALL(ompd_get_omp_version_string(as, &s)) == ompd_rc_ok) free((void *)s);
  const char *const *vars = NULL;
  if (CALL(ompd_get_display_control_vars(as, &vars)) == ompd_rc_ok)
    CALL(ompd_rel_display_control_vars(&vars));
  ompd_word_t v;
  for (ompd_icv_id_t id = 1; id < 40; id++) {
    CALL(ompd_get_icv_from_scope(as, ompd_scope_address_space, id, &v));
    if (CALL(ompd_get_icv_string_from_scope(as, ompd_scope_address_space, id, &s)) == ompd_rc_ok)
      free((void *)s);
  }
  /* every table entry's thread by its id, and two ids no thread has */
  for (uint32_t g = 0; g < T.count + 2; g++) {
    int32_t id4 = (int32_t)(g < T.count ? 1000 + g : g);
    ompd_thread_handle_t *th = NULL;
    if (CALL(ompd_get_thread_handle(as, 1, 4, &id4, &th)) == ompd_rc_ok) {
      walk_thread(th);
      CALL(ompd_rel_thread_handle(th));
    }
  }
  CALL(ompd_rel_address_space_handle(as));
}

int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 3000;
  uint64_t first = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
  if (ompd_initialize(202111, &callbacks) != ompd_rc_ok) {
    printf("ompd_initialize failed\n");
    return 1;
  }
  unsigned long got_threads = 0;
  for (seed = first; seed < first + n; seed++) {
    unsigned long before = n_threads;
    one_seed();
    got_threads += n_threads > before;
  }
  ompd_finalize();
  printf("%lu seeds (%lu with a thread handle): %lu threads, %lu regions, %lu tasks walked, "
         "%lu reads, %u checks, %u failed\n",
         n, got_threads, n_threads, n_regions, n_tasks, reads, checks, fails);
  /* the walk must get somewhere, or the test proves nothing */
  CHECK(got_threads > n / 4 && n_regions > n / 4 && n_tasks > n, "too shallow a walk");
  return fails != 0;
}
