/* pprof profile (github.com/google/pprof/proto/profile.proto), protobuf encoded by hand and
 * gzip-compressed with zlib; `go tool pprof` reads it.  One Sample per stack of the model with
 * the values [samples count, time ns, work ns, wait ns, blame ns, cpu ns, then one per
 * counter recorded (record --counters: cycles, instructions... in events)] (time is the default), and
 * labels thread (the tool's thread index), tid, pid and rank (when there is one).  Each model
 * location is one Location; functions are keyed by (name, file); each ELF module is a Mapping
 * marked as already symbolized so that pprof does not try to re-resolve the addresses.
 * Module-relative addresses are placed in disjoint synthetic ranges, one per mapping. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "export-util.h"
#include "profile.h"

enum { WT_VARINT = 0, WT_LEN = 2 };
/* Field numbers of profile.proto. */
enum { PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE, PROFILE_MAPPING, PROFILE_LOCATION,
       PROFILE_FUNCTION, PROFILE_STRING_TABLE, PROFILE_DURATION_NANOS = 10,
       PROFILE_PERIOD_TYPE = 11, PROFILE_PERIOD, PROFILE_COMMENT, PROFILE_DEFAULT_SAMPLE_TYPE };
enum { VALUETYPE_TYPE = 1, VALUETYPE_UNIT };
enum { SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE, SAMPLE_LABEL };
enum { LABEL_KEY = 1, LABEL_STR, LABEL_NUM, LABEL_NUM_UNIT };
enum { MAPPING_ID = 1, MAPPING_MEMORY_START, MAPPING_MEMORY_LIMIT, MAPPING_FILE_OFFSET,
       MAPPING_FILENAME, MAPPING_BUILD_ID, MAPPING_HAS_FUNCTIONS, MAPPING_HAS_FILENAMES,
       MAPPING_HAS_LINE_NUMBERS };
enum { LOCATION_ID = 1, LOCATION_MAPPING_ID, LOCATION_ADDRESS, LOCATION_LINE };
enum { LINE_FUNCTION_ID = 1, LINE_LINE };
enum { FUNCTION_ID = 1, FUNCTION_NAME, FUNCTION_SYSTEM_NAME, FUNCTION_FILENAME };

#define MAPPING_SPAN (1ull << 40) /* each mapping's synthetic address range */

static void pb_varint(tp_buf_t *b, uint64_t v) {
  uint8_t tmp[10];
  size_t n = 0;
  do {
    tmp[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  tp_buf_put(b, tmp, n);
}

static size_t varint_size(uint64_t v) {
  size_t n = 1;
  while (v > 0x7f) v >>= 7, n++;
  return n;
}

static void pb_key(tp_buf_t *b, unsigned field, unsigned wt) { pb_varint(b, (uint64_t)field << 3 | wt); }

/* A scalar field; zero is the default and is left out, as proto3 encoders do. */
static void pb_uint(tp_buf_t *b, unsigned field, uint64_t v) {
  if (!v) return;
  pb_key(b, field, WT_VARINT);
  pb_varint(b, v);
}

static void pb_bytes(tp_buf_t *b, unsigned field, const void *data, size_t n) {
  pb_key(b, field, WT_LEN);
  pb_varint(b, n);
  tp_buf_put(b, data, n);
}

/* Appends the finished submessage `sub` as field `field` of b and empties sub for reuse. */
static void pb_msg(tp_buf_t *b, unsigned field, tp_buf_t *sub) {
  pb_bytes(b, field, sub->p, sub->len);
  sub->len = 0;
}

static void pb_packed(tp_buf_t *b, unsigned field, const uint64_t *v, size_t n) {
  if (!n) return;
  size_t bytes = 0;
  for (size_t i = 0; i < n; i++) bytes += varint_size(v[i]);
  pb_key(b, field, WT_LEN);
  pb_varint(b, bytes);
  for (size_t i = 0; i < n; i++) pb_varint(b, v[i]);
}

typedef struct strtab {
  tp_intern_t tab;
  const char **s;
  size_t cap;
  char **fixed; /* UTF-8-repaired copies, freed with the table */
  size_t nfixed, capfixed;
} strtab_t;

static uint64_t str_id(strtab_t *t, const char *s) {
  if (!s) s = "";
  char *fixed = tp_utf8_fixed(s);
  if (fixed) {
    t->fixed = tp_ex_grow(t->fixed, &t->capfixed, t->nfixed + 1, sizeof *t->fixed);
    t->fixed[t->nfixed++] = fixed;
    s = fixed;
  }
  int isnew;
  uint32_t i = tp_intern(&t->tab, s, NULL, &isnew);
  if (isnew) {
    t->s = tp_ex_grow(t->s, &t->cap, (size_t)i + 1, sizeof *t->s);
    t->s[i] = s;
  }
  return i;
}

static uint64_t to_ns(double sec) {
  return sec > 0 && isfinite(sec) ? (uint64_t)llround(sec * 1e9) : 0;
}

static void value_type(tp_buf_t *b, tp_buf_t *sub, strtab_t *st, unsigned field,
                       const char *type, const char *unit) {
  pb_uint(sub, VALUETYPE_TYPE, str_id(st, type));
  pb_uint(sub, VALUETYPE_UNIT, str_id(st, unit));
  pb_msg(b, field, sub);
}

static void label_str(tp_buf_t *b, tp_buf_t *sub, strtab_t *st, const char *key, const char *v) {
  pb_uint(sub, LABEL_KEY, str_id(st, key));
  pb_uint(sub, LABEL_STR, str_id(st, v));
  pb_msg(b, SAMPLE_LABEL, sub);
}

/* The innermost construct of a stack whose name starts with `prefix` (`omp parallel @ ` or
 * `omp task @ `: outlined bodies as stacks.c names them), NULL if none. */
static const char *innermost(const tp_profile_t *p, const tp_stack_t *s, const char *prefix) {
  size_t n = strlen(prefix);
  for (uint32_t d = s->depth; d-- > 0;) {
    const char *fn = p->locs[s->locs[d]].func;
    if (!strncmp(fn, prefix, n)) return fn + n;
  }
  return NULL;
}

static void label_num(tp_buf_t *b, tp_buf_t *sub, strtab_t *st, const char *key, int64_t num,
                      const char *unit) {
  pb_uint(sub, LABEL_KEY, str_id(st, key));
  pb_key(sub, LABEL_NUM, WT_VARINT);
  pb_varint(sub, (uint64_t)num); /* int64: negative numbers as 10-byte two's complement */
  /* pprof drops a numeric label whose value is 0 unless it has a unit (thread 0!) */
  pb_uint(sub, LABEL_NUM_UNIT, str_id(st, unit));
  pb_msg(b, SAMPLE_LABEL, sub);
}

static void encode(const tp_profile_t *p, tp_buf_t *b) {
  strtab_t st = {0};
  tp_buf_t sub = {0}, sub2 = {0};
  str_id(&st, ""); /* string_table[0] must be "" */

  static const char *const types[][2] = {{"samples", "count"}, {"time", "nanoseconds"},
      {"work", "nanoseconds"}, {"wait", "nanoseconds"}, {"blame", "nanoseconds"}, {"cpu", "nanoseconds"}};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    value_type(b, &sub, &st, PROFILE_SAMPLE_TYPE, types[i][0], types[i][1]);
  /* counters (record --counters): one more sample type each, in events */
  for (uint32_t k = 0; k < p->nctr; k++)
    value_type(b, &sub, &st, PROFILE_SAMPLE_TYPE, p->ctr_names[k],
               strstr(p->ctr_names[k], "-clock") ? "nanoseconds" : "count");
  value_type(b, &sub, &st, PROFILE_PERIOD_TYPE, "time", "nanoseconds");
  uint32_t hz = p->nprocs ? p->procs[0].sample_hz : 0;
  pb_uint(b, PROFILE_PERIOD, hz ? (uint64_t)(1e9 / hz) : 0);
  pb_uint(b, PROFILE_DEFAULT_SAMPLE_TYPE, str_id(&st, "time"));
  double dur = 0;
  for (size_t i = 0; i < p->nprocs; i++) {
    if (p->procs[i].duration > dur) dur = p->procs[i].duration;
    if (p->procs[i].cmdline) pb_uint(b, PROFILE_COMMENT, str_id(&st, p->procs[i].cmdline));
  }
  pb_uint(b, PROFILE_DURATION_NANOS, to_ns(dur));

  tp_intern_t maps = {0}, funcs = {0};
  for (size_t i = 0; i < p->nlocs; i++) {
    const tp_loc_t *l = &p->locs[i];
    uint64_t map = 0;
    if (l->module) {
      int isnew;
      map = tp_intern(&maps, l->module, NULL, &isnew) + 1;
      if (isnew) {
        pb_uint(&sub, MAPPING_ID, map);
        pb_uint(&sub, MAPPING_MEMORY_START, map * MAPPING_SPAN);
        pb_uint(&sub, MAPPING_MEMORY_LIMIT, (map + 1) * MAPPING_SPAN);
        pb_uint(&sub, MAPPING_FILENAME, str_id(&st, l->module));
        pb_uint(&sub, MAPPING_HAS_FUNCTIONS, 1);
        pb_uint(&sub, MAPPING_HAS_FILENAMES, 1);
        pb_uint(&sub, MAPPING_HAS_LINE_NUMBERS, 1);
        pb_msg(b, PROFILE_MAPPING, &sub);
      }
    }
    int isnew;
    uint64_t fn = tp_intern(&funcs, l->func, l->file, &isnew) + 1;
    if (isnew) {
      uint64_t name = str_id(&st, l->func);
      pb_uint(&sub, FUNCTION_ID, fn);
      pb_uint(&sub, FUNCTION_NAME, name);
      pb_uint(&sub, FUNCTION_SYSTEM_NAME, name);
      pb_uint(&sub, FUNCTION_FILENAME, str_id(&st, l->file));
      pb_msg(b, PROFILE_FUNCTION, &sub);
    }
    pb_uint(&sub, LOCATION_ID, i + 1);
    pb_uint(&sub, LOCATION_MAPPING_ID, map);
    if (map) pb_uint(&sub, LOCATION_ADDRESS, map * MAPPING_SPAN + (l->addr % MAPPING_SPAN));
    pb_uint(&sub2, LINE_FUNCTION_ID, fn);
    pb_uint(&sub2, LINE_LINE, l->line);
    pb_msg(&sub, LOCATION_LINE, &sub2);
    pb_msg(b, PROFILE_LOCATION, &sub);
  }
  tp_intern_free(&maps);
  tp_intern_free(&funcs);

  uint64_t *ids = NULL;
  size_t cap = 0;
  for (size_t i = 0; i < p->nstacks; i++) {
    const tp_stack_t *s = &p->stacks[i];
    ids = tp_ex_grow(ids, &cap, (size_t)s->depth + 1, sizeof *ids);
    for (uint32_t d = 0; d < s->depth; d++) ids[d] = (uint64_t)s->locs[s->depth - 1 - d] + 1; /* leaf first */
    pb_packed(&sub, SAMPLE_LOCATION_ID, ids, s->depth);
    enum { NFIX = 6 };
    uint64_t vals[NFIX + TP_NCTR] = {s->samples, to_ns(s->v[TP_M_TIME]), to_ns(s->v[TP_M_WORK]),
                                     to_ns(s->v[TP_M_WAIT]), to_ns(s->v[TP_M_BLAME]),
                                     to_ns(s->v[TP_M_CPU])};
    int NV = NFIX + (int)p->nctr;
    for (uint32_t k = 0; k < p->nctr; k++)
      vals[NFIX + k] = s->ctr[k] > 0 && isfinite(s->ctr[k]) ? (uint64_t)llround(s->ctr[k]) : 0;
    /* pb_packed leaves out an empty list, but the value list always has all NV entries */
    size_t bytes = 0;
    for (int k = 0; k < NV; k++) bytes += varint_size(vals[k]);
    pb_key(&sub, SAMPLE_VALUE, WT_LEN);
    pb_varint(&sub, bytes);
    for (int k = 0; k < NV; k++) pb_varint(&sub, vals[k]);
    if (s->thread < p->nthreads) {
      const tp_thread_t *th = &p->threads[s->thread];
      label_num(&sub, &sub2, &st, "thread", th->index, "index");
      label_num(&sub, &sub2, &st, "tid", th->tid, NULL);
    }
    /* the innermost parallel region and task on the path, as labels: -tagfocus=region=... */
    const char *region = innermost(p, s, "omp parallel @ "), *task = innermost(p, s, "omp task @ ");
    if (region) label_str(&sub, &sub2, &st, "region", region);
    if (task) label_str(&sub, &sub2, &st, "task", task);
    if (s->proc < p->nprocs) {
      label_num(&sub, &sub2, &st, "pid", p->procs[s->proc].pid, NULL);
      if (p->procs[s->proc].rank >= 0) label_num(&sub, &sub2, &st, "rank", p->procs[s->proc].rank, "index");
    }
    pb_msg(b, PROFILE_SAMPLE, &sub);
  }
  free(ids);

  for (size_t i = 0; i < st.tab.n; i++) pb_bytes(b, PROFILE_STRING_TABLE, st.s[i], strlen(st.s[i]));
  tp_intern_free(&st.tab);
  free(st.s);
  for (size_t i = 0; i < st.nfixed; i++) free(st.fixed[i]);
  free(st.fixed);
  free(sub.p);
  free(sub2.p);
}

static int gzip_out(const tp_buf_t *b, FILE *out) {
  z_stream z;
  memset(&z, 0, sizeof z);
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    fputs("tomp-prof: zlib: deflateInit2 failed\n", stderr);
    return -1;
  }
  uint8_t chunk[1 << 15];
  z.next_in = b->p;
  z.avail_in = (uInt)b->len; /* profiles are far below 4 GiB */
  int rc;
  do {
    z.next_out = chunk;
    z.avail_out = sizeof chunk;
    rc = deflate(&z, Z_FINISH);
    if (rc == Z_STREAM_ERROR) break;
    fwrite(chunk, 1, sizeof chunk - z.avail_out, out);
  } while (rc != Z_STREAM_END);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) {
    fputs("tomp-prof: zlib: compression failed\n", stderr);
    return -1;
  }
  return 0;
}

int tp_export_pprof(const tp_profile_t *p, FILE *out) {
  tp_buf_t b = {0};
  encode(p, &b);
  int rc = gzip_out(&b, out);
  free(b.p);
  if (rc == 0 && ferror(out)) {
    fputs("tomp-prof: writing the pprof file failed\n", stderr);
    rc = -1;
  }
  return rc;
}
