/* Places and thread binding.
 *
 * Topology comes from sched_getaffinity (the CPUs we may use) and sysfs (which of them share
 * a core, a socket, a last-level cache, a NUMA node).  A place is a set of CPU ids; binding a
 * thread to a place is one sched_setaffinity on the thread itself, skipped when the thread
 * is already there, so a region whose threads keep their places costs no system call.
 *
 * The placement of a team is computed once by its master (tomp_affinity_team, before any
 * worker starts) and stored in the team: the partition the team works in, the master's
 * place and the policy.  Every thread's place and sub-partition is then a pure function of
 * those and its thread number (assign()), so nothing per thread needs saving or restoring. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "affinity.h"
#include "env_kmp.h"

tomp_place_t *tomp_places;
int tomp_nplaces;
int tomp_places_start;

static cpu_set_t *proc_mask; /* the process's CPUs at start-up */
static size_t mask_size;     /* bytes of every cpu_set_t we allocate */
static int max_cpus;         /* ids < max_cpus fit in a mask */
static int *avail;           /* ids in proc_mask, ascending */
static int navail;
static cpu_set_t **place_sets; /* per place, for sched_setaffinity */
static int initial_place = -1;

/* ---- CPU discovery ----------------------------------------------------------------------- */

void tomp_affinity_init(void) {
  for (int n = 1024;; n *= 2) {
    cpu_set_t *m = CPU_ALLOC(n);
    if (!m) break;
    size_t sz = CPU_ALLOC_SIZE(n);
    CPU_ZERO_S(sz, m);
    if (sched_getaffinity(0, sz, m) == 0) {
      proc_mask = m;
      mask_size = sz;
      max_cpus = n;
      break;
    }
    CPU_FREE(m);
    if (errno != EINVAL || n >= (1 << 20)) break;
  }
  if (!proc_mask) { /* no affinity support: assume CPUs 0..nprocs-1 */
    max_cpus = (int)tomp_num_procs;
    mask_size = CPU_ALLOC_SIZE(max_cpus);
    proc_mask = CPU_ALLOC(max_cpus);
    if (!proc_mask) tomp_fatal("out of memory for a CPU mask");
    CPU_ZERO_S(mask_size, proc_mask);
    for (int i = 0; i < max_cpus; i++) CPU_SET_S(i, mask_size, proc_mask);
  }
  avail = tomp_malloc(sizeof(int) * (size_t)max_cpus);
  for (int i = 0; i < max_cpus; i++)
    if (CPU_ISSET_S(i, mask_size, proc_mask)) avail[navail++] = i;
  if (navail == 0) avail[navail++] = 0;
  /* omp_get_num_procs: the processors available to the program, not all online ones */
  tomp_num_procs = (unsigned)navail;
}

static bool cpu_ok(int id) {
  return id >= 0 && id < max_cpus && CPU_ISSET_S(id, mask_size, proc_mask);
}

/* Read a small sysfs file; false if absent. */
static bool read_sysfs(const char *path, char *buf, size_t n) {
  FILE *f = fopen(path, "r");
  if (!f) return false;
  size_t r = fread(buf, 1, n - 1, f);
  fclose(f);
  buf[r] = 0;
  return r > 0;
}

/* Smallest id of a sysfs CPU list ("0-3,8-11") that we may use, or -1. */
static int cpulist_first_avail(const char *s) {
  int best = -1;
  while (*s) {
    char *e;
    long a = strtol(s, &e, 10);
    if (e == s) break;
    long b = a;
    s = e;
    if (*s == '-') {
      b = strtol(s + 1, &e, 10);
      s = e;
    }
    for (long i = a; i <= b && i < max_cpus; i++)
      if (cpu_ok((int)i) && (best < 0 || i < best)) best = (int)i;
    if (*s == ',') s++;
    else break;
  }
  return best;
}

enum { LVL_THREADS, LVL_CORES, LVL_LL_CACHES, LVL_NUMA, LVL_SOCKETS };

static long read_long(const char *path, long dflt) {
  char buf[64];
  if (!read_sysfs(path, buf, sizeof buf)) return dflt;
  char *e;
  long v = strtol(buf, &e, 10);
  return e == buf ? dflt : v;
}

/* A key equal for CPUs sharing the level's resource. */
static long group_key(int cpu, int lvl) {
  char path[256], buf[4096];
  switch (lvl) {
  case LVL_CORES:
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
    if (read_sysfs(path, buf, sizeof buf)) {
      int k = cpulist_first_avail(buf);
      if (k >= 0) return k;
    }
    return cpu;
  case LVL_LL_CACHES: {
    long best_level = -1, key = -1;
    for (int i = 0; i < 16; i++) {
      snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, i);
      long lv = read_long(path, -1);
      if (lv < 0) continue;
      snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
               cpu, i);
      if (lv > best_level && read_sysfs(path, buf, sizeof buf)) {
        int k = cpulist_first_avail(buf);
        if (k >= 0) {
          best_level = lv;
          key = k;
        }
      }
    }
    if (key >= 0) return key;
    return group_key(cpu, LVL_SOCKETS);
  }
  case LVL_NUMA: {
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d", cpu);
    DIR *d = opendir(path);
    long node = 0;
    if (d) {
      struct dirent *de;
      while ((de = readdir(d)))
        if (!strncmp(de->d_name, "node", 4) && isdigit((unsigned char)de->d_name[4])) {
          node = strtol(de->d_name + 4, NULL, 10);
          break;
        }
      closedir(d);
    }
    return node;
  }
  case LVL_SOCKETS:
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
             cpu);
    return read_long(path, 0);
  default:
    return cpu;
  }
}

/* ---- KMP_HW_SUBSET ----------------------------------------------------------------------- */

/* Per CPU i: the position of its unit (key) among the units of its parent (same parent key),
 * in the order of their first CPUs.  Units are numbered as their first CPUs come, so a new
 * unit's number is one more than the largest its parent has so far. */
static void unit_ranks(const long *key, const long *parent, int n, int *rank) {
  for (int i = 0; i < n; i++) {
    int r = 0;
    for (int j = 0; j < i; j++) {
      if (parent[j] != parent[i]) continue;
      if (key[j] == key[i]) {
        r = rank[j]; /* j is the first CPU of i's unit */
        break;
      }
      if (rank[j] >= r) r = rank[j] + 1;
    }
    rank[i] = r;
  }
}

int tomp_affinity_subset(const int count[3], const int offset[3]) {
  /* per CPU: its keys at the levels socket, core, hardware thread, and its parent's */
  long *key[3], *parent[3];
  for (int l = 0; l < 3; l++) {
    key[l] = tomp_malloc(sizeof(long) * (size_t)navail);
    parent[l] = tomp_malloc(sizeof(long) * (size_t)navail);
  }
  for (int i = 0; i < navail; i++) {
    key[0][i] = group_key(avail[i], LVL_SOCKETS);
    key[1][i] = group_key(avail[i], LVL_CORES);
    key[2][i] = avail[i];
    parent[0][i] = 0;
    parent[1][i] = key[0][i];
    parent[2][i] = key[1][i];
  }
  int *rank[3];
  for (int l = 0; l < 3; l++) {
    rank[l] = tomp_malloc(sizeof(int) * (size_t)navail);
    unit_ranks(key[l], parent[l], navail, rank[l]);
  }
  bool *keep = tomp_malloc(sizeof(bool) * (size_t)navail);
  int units[3] = {0, 0, 0}, kept = 0;
  for (int i = 0; i < navail; i++) {
    keep[i] = true;
    for (int l = 0; l < 3; l++) {
      int r = rank[l][i];
      if (r + 1 > units[l]) units[l] = r + 1;
      if (r < offset[l] || (count[l] && r >= offset[l] + count[l])) keep[i] = false;
    }
    kept += keep[i];
  }
  int bad = -1; /* a level asked for more units than a parent has */
  for (int l = 0; l < 3; l++)
    if (offset[l] + count[l] > units[l]) bad = l;
  if (bad < 0 && kept > 0) {
    int k = 0;
    CPU_ZERO_S(mask_size, proc_mask);
    for (int i = 0; i < navail; i++)
      if (keep[i]) {
        avail[k++] = avail[i];
        CPU_SET_S(avail[i], mask_size, proc_mask);
      }
    navail = k;
    tomp_num_procs = (unsigned)navail;
    /* the initial thread, and every thread it starts, runs on the subset */
    sched_setaffinity(0, mask_size, proc_mask);
  }
  for (int l = 0; l < 3; l++) {
    free(key[l]);
    free(parent[l]);
    free(rank[l]);
  }
  free(keep);
  return bad >= 0 ? bad : kept > 0 ? -1 : 3;
}

/* ---- Building the place list -------------------------------------------------------------- */

typedef struct {
  int *ids;
  int n, cap;
} idvec_t;

static void idvec_push(idvec_t *v, int id) {
  if (v->n == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 8;
    int *p = tomp_malloc(sizeof(int) * (size_t)v->cap);
    if (v->ids) memcpy(p, v->ids, sizeof(int) * (size_t)v->n);
    free(v->ids);
    v->ids = p;
  }
  v->ids[v->n++] = id;
}

static void idvec_remove(idvec_t *v, int id) {
  int j = 0;
  for (int i = 0; i < v->n; i++)
    if (v->ids[i] != id) v->ids[j++] = v->ids[i];
  v->n = j;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Sort, drop duplicates and CPUs we may not use. */
static void idvec_normalise(idvec_t *v) {
  if (v->n) qsort(v->ids, (size_t)v->n, sizeof(int), cmp_int);
  int j = 0;
  for (int i = 0; i < v->n; i++)
    if (cpu_ok(v->ids[i]) && (j == 0 || v->ids[j - 1] != v->ids[i])) v->ids[j++] = v->ids[i];
  v->n = j;
}

static bool idvec_equal(const idvec_t *a, const idvec_t *b) {
  return a->n == b->n && (a->n == 0 || !memcmp(a->ids, b->ids, sizeof(int) * (size_t)a->n));
}

typedef struct {
  idvec_t *p;
  int n, cap;
  long ids; /* processor numbers in all places */
} placevec_t;

#define MAX_PLACES 65536
/* Processor numbers in all places together: a real list names each processor in a place or
 * a few; without a bound `{0:1292}:64620` builds 83 million before any is checked against the
 * machine (30 s and 330 MB, found by tests/fuzz/env.c) */
#define MAX_PLACE_IDS (1L << 20)

static void placevec_push(placevec_t *pv, idvec_t v) {
  if (pv->n == pv->cap) {
    pv->cap = pv->cap ? pv->cap * 2 : 8;
    idvec_t *np = tomp_malloc(sizeof(idvec_t) * (size_t)pv->cap);
    if (pv->p) memcpy(np, pv->p, sizeof(idvec_t) * (size_t)pv->n);
    free(pv->p);
    pv->p = np;
  }
  pv->p[pv->n++] = v;
  pv->ids += v.n;
}

static void placevec_free(placevec_t *pv) {
  for (int i = 0; i < pv->n; i++) free(pv->p[i].ids);
  free(pv->p);
  pv->p = NULL;
  pv->n = pv->cap = 0;
}

void tomp_places_clear(void) {
  for (int i = 0; i < tomp_nplaces; i++) {
    free(tomp_places[i].procs);
    CPU_FREE(place_sets[i]);
  }
  free(tomp_places);
  free(place_sets);
  tomp_places = NULL;
  place_sets = NULL;
  tomp_nplaces = 0;
}

/* Install pv (normalised, empty places dropped) as the place list; consumes pv. */
static int install(placevec_t *pv) {
  tomp_places_clear();
  int n = 0;
  for (int i = 0; i < pv->n; i++) {
    idvec_normalise(&pv->p[i]);
    if (pv->p[i].n) n++;
  }
  if (n == 0) {
    placevec_free(pv);
    return 0;
  }
  tomp_places = tomp_calloc((size_t)n, sizeof *tomp_places);
  place_sets = tomp_calloc((size_t)n, sizeof *place_sets);
  int k = 0;
  for (int i = 0; i < pv->n; i++) {
    if (!pv->p[i].n) {
      free(pv->p[i].ids);
      continue;
    }
    tomp_places[k].nprocs = pv->p[i].n;
    tomp_places[k].procs = pv->p[i].ids;
    place_sets[k] = CPU_ALLOC(max_cpus);
    if (!place_sets[k]) tomp_fatal("out of memory for a CPU mask");
    CPU_ZERO_S(mask_size, place_sets[k]);
    for (int j = 0; j < pv->p[i].n; j++) CPU_SET_S(pv->p[i].ids[j], mask_size, place_sets[k]);
    k++;
  }
  free(pv->p);
  tomp_nplaces = n;
  return n;
}

/* Places at a topology level, in order of their first CPU. */
static void places_at_level(placevec_t *pv, int lvl) {
  long *keys = tomp_malloc(sizeof(long) * (size_t)navail);
  int *owner = tomp_malloc(sizeof(int) * (size_t)navail);
  for (int i = 0; i < navail; i++) {
    keys[i] = group_key(avail[i], lvl);
    owner[i] = -1;
    for (int j = 0; j < i; j++)
      if (keys[j] == keys[i]) {
        owner[i] = owner[j];
        break;
      }
    if (owner[i] < 0) {
      idvec_t v = {0};
      placevec_push(pv, v);
      owner[i] = pv->n - 1;
    }
    idvec_push(&pv->p[owner[i]], avail[i]);
  }
  free(keys);
  free(owner);
}

void tomp_places_default(void) {
  placevec_t pv = {0};
  places_at_level(&pv, LVL_THREADS);
  install(&pv);
}

/* ---- OMP_PLACES parser ------------------------------------------------------------------- */

typedef struct {
  const char *s;
  bool bad;
} cursor_t;

static void skip_ws(cursor_t *c) {
  while (isspace((unsigned char)*c->s)) c->s++;
}

static bool eat(cursor_t *c, char ch) {
  skip_ws(c);
  if (*c->s != ch) return false;
  c->s++;
  return true;
}

/* A decimal integer, optionally signed; sets bad on absence or overflow. */
static long num(cursor_t *c, bool allow_neg) {
  skip_ws(c);
  const char *p = c->s;
  bool neg = false;
  if (*p == '-' || *p == '+') {
    neg = *p == '-';
    if (neg && !allow_neg) {
      c->bad = true;
      return 0;
    }
    p++;
  }
  if (!isdigit((unsigned char)*p)) {
    c->bad = true;
    return 0;
  }
  long v = 0;
  while (isdigit((unsigned char)*p)) {
    v = v * 10 + (*p++ - '0');
    if (v > INT_MAX) {
      c->bad = true;
      return 0;
    }
  }
  c->s = p;
  return neg ? -v : v;
}

/* res-interval list inside braces, or a bare res; the ids, unfiltered. */
static idvec_t parse_place(cursor_t *c) {
  idvec_t v = {0};
  skip_ws(c);
  if (!eat(c, '{')) {
    long r = num(c, false);
    if (!c->bad) idvec_push(&v, (int)r);
    return v;
  }
  do {
    if (eat(c, '!')) {
      long r = num(c, false);
      if (c->bad) break;
      idvec_remove(&v, (int)r);
      continue;
    }
    long r = num(c, false);
    if (c->bad) break;
    long cnt = 1, stride = 1;
    if (eat(c, ':')) {
      cnt = num(c, false);
      if (!c->bad && cnt < 1) c->bad = true;
      if (!c->bad && eat(c, ':')) stride = num(c, true);
      if (c->bad) break;
    }
    for (long i = 0; i < cnt; i++) {
      long id = r + i * stride;
      if (id < 0 || id > INT_MAX || cnt > MAX_PLACES) {
        c->bad = true;
        break;
      }
      idvec_push(&v, (int)id);
    }
  } while (!c->bad && eat(c, ','));
  if (!c->bad && !eat(c, '}')) c->bad = true;
  return v;
}

static bool parse_explicit(cursor_t *c, placevec_t *pv) {
  do {
    bool excl = eat(c, '!');
    idvec_t base = parse_place(c);
    if (c->bad) {
      free(base.ids);
      return false;
    }
    if (excl) {
      idvec_normalise(&base);
      for (int i = 0; i < pv->n; i++) {
        idvec_t tmp = {0};
        for (int j = 0; j < pv->p[i].n; j++) idvec_push(&tmp, pv->p[i].ids[j]);
        idvec_normalise(&tmp);
        if (idvec_equal(&tmp, &base)) pv->p[i].n = 0; /* dropped by install() */
        free(tmp.ids);
      }
      free(base.ids);
      continue;
    }
    long len = 1, stride = 1;
    if (eat(c, ':')) {
      len = num(c, false);
      if (!c->bad && len < 1) c->bad = true;
      if (!c->bad && eat(c, ':')) stride = num(c, true);
      if (c->bad || len > MAX_PLACES || pv->n + len > MAX_PLACES ||
          (long)base.n * len > MAX_PLACE_IDS - pv->ids) {
        c->bad = true;
        free(base.ids);
        return false;
      }
    }
    for (long i = 0; i < len; i++) {
      idvec_t v = {0};
      for (int j = 0; j < base.n; j++) {
        long id = base.ids[j] + i * stride;
        if (id < 0 || id > INT_MAX) {
          c->bad = true;
          break;
        }
        idvec_push(&v, (int)id);
      }
      placevec_push(pv, v);
      if (c->bad) break;
    }
    free(base.ids);
    if (c->bad) return false;
  } while (eat(c, ','));
  skip_ws(c);
  return *c->s == 0;
}

static const struct {
  const char *name;
  int lvl;
} anames[] = {{"threads", LVL_THREADS},     {"cores", LVL_CORES},
              {"ll_caches", LVL_LL_CACHES}, {"numa_domains", LVL_NUMA},
              {"sockets", LVL_SOCKETS}};

bool tomp_places_parse(const char *var, const char *value) {
  cursor_t c = {value, false};
  placevec_t pv = {0};
  skip_ws(&c);
  if (isalpha((unsigned char)*c.s)) {
    const char *w = c.s;
    while (isalnum((unsigned char)*c.s) || *c.s == '_') c.s++;
    size_t wl = (size_t)(c.s - w);
    int lvl = -1;
    for (size_t i = 0; i < sizeof anames / sizeof anames[0]; i++)
      if (strlen(anames[i].name) == wl && !strncasecmp(w, anames[i].name, wl)) lvl = anames[i].lvl;
    if (lvl < 0) {
      tomp_warn("%s='%s': unknown place name (expected threads, cores, ll_caches, "
                "numa_domains, sockets or an explicit list); ignored",
                var, value);
      return false;
    }
    long want = -1;
    if (eat(&c, '(')) {
      want = num(&c, false);
      if (c.bad || want < 1 || !eat(&c, ')')) {
        tomp_warn("%s='%s': the number of places must be a positive integer in parentheses; "
                  "ignored",
                  var, value);
        return false;
      }
    }
    skip_ws(&c);
    if (*c.s) {
      tomp_warn("%s='%s': unexpected text after the place name; ignored", var, value);
      return false;
    }
    places_at_level(&pv, lvl);
    if (want > 0 && want < pv.n) {
      for (int i = (int)want; i < pv.n; i++) free(pv.p[i].ids);
      pv.n = (int)want;
    } else if (want > pv.n) {
      tomp_warn("%s='%s' asks for %ld places but only %d exist; using %d", var, value, want, pv.n,
                pv.n);
    }
    install(&pv);
    return true;
  }
  if (!parse_explicit(&c, &pv)) {
    placevec_free(&pv);
    tomp_warn("%s='%s' is not a valid place list; ignored", var, value);
    return false;
  }
  if (install(&pv) == 0) {
    tomp_warn("%s='%s' names no CPU this process may run on; ignored", var, value);
    return false;
  }
  return true;
}

/* ---- GOMP_CPU_AFFINITY (libgomp's own variable) ------------------------------------------ */

/* Items N, N-M or N-M:S (M >= N, S >= 1), separated by blanks or one comma with blanks around
 * it; every CPU listed is one place, in the order given, repeats kept (libgomp 12 builds the
 * same list).  Decimal only: libgomp's strtoul also takes 0x1 and 010. */
bool tomp_places_parse_cpus(const char *var, const char *value) {
  cursor_t c = {value, false};
  placevec_t pv = {0};
  long missing = 0, first_missing = -1;
  skip_ws(&c);
  if (!*c.s) c.bad = true;
  while (!c.bad && *c.s) {
    long lo = num(&c, false), hi = lo, step = 1;
    if (!c.bad && *c.s == '-') {
      c.s++;
      hi = num(&c, false);
      if (!c.bad && *c.s == ':') {
        c.s++;
        step = num(&c, false);
      }
    }
    if (c.bad || hi < lo || step < 1 || (hi - lo) / step >= MAX_PLACES - pv.n) {
      c.bad = true;
      break;
    }
    for (long id = lo; id <= hi; id += step) {
      if (!cpu_ok((int)id)) {
        if (missing++ == 0) first_missing = id;
        continue;
      }
      idvec_t v = {0};
      idvec_push(&v, (int)id);
      placevec_push(&pv, v);
    }
    const char *item_end = c.s;
    skip_ws(&c);
    if (*c.s == ',') {
      c.s++;
      skip_ws(&c);
      if (!*c.s) c.bad = true; /* a trailing comma */
    } else if (*c.s && c.s == item_end) {
      c.bad = true; /* no separator */
    }
  }
  if (c.bad) {
    placevec_free(&pv);
    tomp_warn("%s='%s' is not a list of CPU numbers and ranges (N, N-M, N-M:S); ignored", var,
              value);
    return false;
  }
  if (pv.n == 0) {
    placevec_free(&pv);
    tomp_warn("%s='%s' names no CPU this process may run on; ignored", var, value);
    return false;
  }
  if (missing)
    tomp_warn("%s='%s': CPU %ld%s not one this process may run on; left out", var, value,
              first_missing, missing > 1 ? " and others are" : " is");
  install(&pv);
  return true;
}

/* ---- Binding ------------------------------------------------------------------------------- */

/* KMP_AFFINITY=verbose: libomp's line for each thread bound (the calling one) */
static void verbose_bound(tomp_thread_t *thr) {
  char ids[256];
  tomp_cpus_format_self(ids, sizeof ids);
  tomp_inform(254, "KMP_AFFINITY: pid %d tid %d thread %u bound to OS proc set %s", (int)getpid(),
              (int)gettid(), thr->gtid, ids);
}

static bool bind_self(tomp_thread_t *thr, int place) {
  if (thr->place == place) return true;
  if (place < 0 || place >= tomp_nplaces) return false;
  if (sched_setaffinity(0, mask_size, place_sets[place]) != 0) {
    static int warned;
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
      tomp_warn("cannot bind a thread to place %d (%s); threads may run unbound", place,
                strerror(errno));
    return false;
  }
  thr->place = place;
  if (tomp_unlikely(tomp_affinity_verbose)) verbose_bound(thr);
  return true;
}

void tomp_affinity_bind_initial(void) {
  if (tomp_nplaces <= 0) return;
  tomp_thread_t fake;
  fake.place = -1;
  fake.gtid = 0;
  int p = tomp_places_start % tomp_nplaces;
  if (bind_self(&fake, p)) initial_place = p;
}

int tomp_affinity_initial_place(void) { return __atomic_exchange_n(&initial_place, -1, __ATOMIC_ACQ_REL); }

/* Place of thread i of T threads bound with policy in the partition [F, F+P) whose thread 0
 * was on place master, and its sub-partition (OpenMP 5.1 section 2.6.2). */
static int assign_in(int F, int P, int T, int master, int policy, int i, int *pfirst,
                     int *pcount) {
  int m0 = master - F;
  *pfirst = F;
  *pcount = P;
  if (P <= 0) return -1;
  switch (policy) {
  case TOMP_BIND_PRIMARY:
    return master;
  case TOMP_BIND_SPREAD:
    if (T <= P) {
      /* T sub-partitions of consecutive places, the larger ones first; thread 0 keeps the
       * master's place in the sub-partition holding it, the others take the first place of
       * the following sub-partitions in order. */
      int base = P / T, rem = P % T;
      int k0 = m0 < rem * (base + 1) ? m0 / (base + 1) : rem + (m0 - rem * (base + 1)) / base;
      int k = (k0 + i) % T;
      int start = k * base + (k < rem ? k : rem);
      *pfirst = F + start;
      *pcount = base + (k < rem);
      return i == 0 ? master : F + start;
    }
    /* more threads than places: as close, but each thread's partition is its place */
    __attribute__((fallthrough));
  case TOMP_BIND_CLOSE:
  default: {
    int j;
    if (T <= P) {
      j = i;
    } else {
      int s = T / P, r = T % P;
      j = i < r * (s + 1) ? i / (s + 1) : r + (i - r * (s + 1)) / s;
    }
    int place = F + (m0 + j) % P;
    if (policy == TOMP_BIND_SPREAD) {
      *pfirst = place;
      *pcount = 1;
    }
    return place;
  }
  }
}

/* Place of thread tid of team, and its sub-partition. */
static int assign(const tomp_team_t *t, unsigned tid, int *pfirst, int *pcount) {
  return assign_in((int)t->place_first, (int)t->place_count, (int)t->nthreads, t->place_master,
                   t->bind_policy, (int)tid, pfirst, pcount);
}

/* ---- Host leagues (league.c): team k of nteams run by the encountering thread gets the
 * place and partition KMP_TEAMS_PROC_BIND gives thread k of a team of nteams (spread by
 * default, as libomp), the thread binding itself there while it runs the team. */

void tomp_affinity_league_team(tomp_thread_t *thr, unsigned k, unsigned nteams,
                               tomp_league_aff_t *save) {
  if (tomp_nplaces <= 0 || thr->team) return;
  if (k == 0) {
    save->place = thr->place;
    save->mask = NULL;
    if (thr->place < 0 && (save->mask = CPU_ALLOC(max_cpus)) &&
        sched_getaffinity(0, mask_size, save->mask) != 0) {
      CPU_FREE(save->mask);
      save->mask = NULL;
    }
  }
  int master = save->place >= 0 ? save->place : 0, first, count;
  int place = assign_in(0, tomp_nplaces, (int)nteams, master, tomp_g.kmp_teams_proc_bind, (int)k,
                        &first, &count);
  thr->league_first = first;
  thr->league_count = count;
  bind_self(thr, place);
}

void tomp_affinity_league_end(tomp_thread_t *thr, tomp_league_aff_t *save) {
  if (tomp_nplaces <= 0 || thr->team) return;
  thr->league_count = 0;
  if (save->place >= 0) {
    bind_self(thr, save->place);
  } else if (save->mask) {
    sched_setaffinity(0, mask_size, save->mask);
    thr->place = -1;
    CPU_FREE(save->mask);
  }
}

int tomp_affinity_partition(tomp_thread_t *thr, int *first) {
  *first = 0;
  if (tomp_nplaces <= 0) return 0;
  tomp_team_t *t = thr->team;
  if (!t) {
    if (thr->league_count) { /* a host league's team: its share */
      *first = thr->league_first;
      return thr->league_count;
    }
    return tomp_nplaces;
  }
  int pc;
  if (t->bind_policy) {
    assign(t, thr->tid, first, &pc);
    return pc;
  }
  *first = (int)t->place_first;
  return (int)t->place_count;
}

void tomp_affinity_team(tomp_thread_t *thr, tomp_team_t *team, unsigned bind) {
  if (tomp_unlikely(tomp_g.display_affinity)) tomp_display_affinity_fork(team);
  if (tomp_nplaces <= 0) {
    team->bind_policy = 0;
    team->place_first = 0;
    team->place_count = 0;
    team->place_master = -1;
    return;
  }
  int first, count = tomp_affinity_partition(thr, &first);
  team->place_first = (unsigned)first;
  team->place_count = (unsigned)count;
  unsigned var = thr->task->icv.bind;
  unsigned pol = var == TOMP_BIND_FALSE ? 0 : bind ? bind : var;
  if (pol == TOMP_BIND_TRUE) pol = TOMP_BIND_CLOSE;
  team->bind_policy = (unsigned char)pol;
  int m = thr->place;
  if (m < first || m >= first + count) m = first;
  team->place_master = m;
}

void tomp_bind_thread(tomp_thread_t *thr, tomp_team_t *team, unsigned bind) {
  (void)bind; /* the policy was fixed for the whole team by tomp_affinity_team */
  if (team->bind_policy) {
    int f, c;
    bind_self(thr, assign(team, thr->tid, &f, &c));
  }
  if (tomp_unlikely(tomp_g.display_affinity)) tomp_display_affinity_thread(thr);
}

/* ---- Text forms ---------------------------------------------------------------------------- */

/* Where the next piece of a text form goes: NULL once there is no room left (snprintf(NULL, 0)
 * only measures; buf itself may be NULL when n is 0, and NULL + 0 is undefined behaviour). */
static inline char *tail(char *buf, size_t n, size_t pos) { return pos < n ? buf + pos : NULL; }

/* Append "a-b,c" ranges of a sorted id list. */
static size_t fmt_ids(char *buf, size_t n, size_t pos, const int *ids, int cnt, bool braces_style) {
  for (int i = 0; i < cnt;) {
    int j = i;
    while (j + 1 < cnt && ids[j + 1] == ids[j] + 1) j++;
    const char *sep = i ? "," : "";
    int w;
    if (j == i)
      w = snprintf(tail(buf, n, pos), pos < n ? n - pos : 0, "%s%d", sep, ids[i]);
    else if (braces_style)
      w = snprintf(tail(buf, n, pos), pos < n ? n - pos : 0, "%s%d:%d", sep, ids[i],
                   j - i + 1);
    else
      w = snprintf(tail(buf, n, pos), pos < n ? n - pos : 0, "%s%d-%d", sep, ids[i], ids[j]);
    pos += (size_t)(w > 0 ? w : 0);
    i = j + 1;
  }
  return pos;
}

size_t tomp_places_format(char *buf, size_t n) {
  size_t pos = 0;
  if (n) buf[0] = 0;
  for (int i = 0; i < tomp_nplaces; i++) {
    int w = snprintf(tail(buf, n, pos), pos < n ? n - pos : 0, "%s{", i ? "," : "");
    pos += (size_t)(w > 0 ? w : 0);
    pos = fmt_ids(buf, n, pos, tomp_places[i].procs, tomp_places[i].nprocs, true);
    w = snprintf(tail(buf, n, pos), pos < n ? n - pos : 0, "}");
    pos += (size_t)(w > 0 ? w : 0);
  }
  return pos;
}

size_t tomp_cpus_format_self(char *buf, size_t n) {
  cpu_set_t *m = CPU_ALLOC(max_cpus);
  if (n) buf[0] = 0;
  if (!m) return 0;
  CPU_ZERO_S(mask_size, m);
  size_t pos = 0;
  if (sched_getaffinity(0, mask_size, m) == 0) {
    int *ids = tomp_malloc(sizeof(int) * (size_t)max_cpus);
    int cnt = 0;
    for (int i = 0; i < max_cpus; i++)
      if (CPU_ISSET_S(i, mask_size, m)) ids[cnt++] = i;
    pos = fmt_ids(buf, n, 0, ids, cnt, false);
    free(ids);
  }
  CPU_FREE(m);
  return pos;
}
