/* libomp's own environment variables (env_kmp.h): what clang, icx and ifx users put in job
 * scripts, mapped onto tomp's ICVs, places and waits for every program (one runtime serves
 * both ABIs, and a user who sets a libomp variable asks for its effect whichever compiler
 * built the code).  The values accepted, their units and which variable outranks which are
 * libomp 14's (measured by running the same values on it; docs/kmp-abi.md, "libomp's
 * environment variables").  A bad value gets one message and a safe default: in libomp's form
 * and with its message number in a process whose OpenMP code is all clang's (abi.h), in
 * tomp's otherwise.  Variables of libomp's that tomp has no counterpart for are named in one
 * message at start-up rather than ignored silently. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "abi.h"
#include "affinity.h"
#include "env_kmp.h"

bool tomp_affinity_verbose;
const char *tomp_env_places_name;

#define kwarn(number, ...)                                                                         \
  (tomp_llvm_only() ? tomp_warn_llvm(number, __VA_ARGS__) : tomp_warn(__VA_ARGS__))

static bool settings; /* KMP_SETTINGS */

/* ---- values ---------------------------------------------------------------------------- */

/* Which word of the NULL-ended list v is (the whole value, any case, blanks around), or -1. */
static int is_one_of(const char *v, const char *const *words) {
  for (int i = 0; words[i]; i++) {
    const char *s = v;
    if (tomp_env_scan_word(&s, words[i]) && tomp_env_at_end(s)) return i;
  }
  return -1;
}

/* libomp's booleans: 1 true, 0 false, -1 neither */
static int kmp_bool(const char *v) {
  static const char *const yes[] = {"1", "true", "on", "yes", ".t.", NULL};
  static const char *const no[] = {"0", "false", "off", "no", ".f.", NULL};
  return is_one_of(v, yes) >= 0 ? 1 : is_one_of(v, no) >= 0 ? 0 : -1;
}

static void env_kmp_bool(const char *name, bool *dst) {
  const char *v = getenv(name);
  if (!v) return;
  int b = kmp_bool(v);
  if (b >= 0)
    *dst = b;
  else
    kwarn(20, "%s='%s' is not a boolean (1, true, on, yes; 0, false, off, no); using %s", name, v,
          *dst ? "true" : "false");
}

/* An integer in [min, max]: out of range gives the bound, anything else the default *dst,
 * each with one message (libomp's #80 cases: "value too small", "value too large"). */
static void env_kmp_int(const char *name, long min, long max, int *dst, const char *dflt_text) {
  const char *v = getenv(name);
  if (!v) return;
  const char *s = v;
  unsigned long x;
  if (!tomp_env_scan_ulong(&s, ULONG_MAX, &x) || !tomp_env_at_end(s)) {
    kwarn(80, "%s='%s' is not a non-negative integer; using %s", name, v, dflt_text);
    return;
  }
  if (x < (unsigned long)min) {
    kwarn(80, "%s='%s': value too small (%ld to %ld); using %ld", name, v, min, max, min);
    x = (unsigned long)min;
  } else if (x > (unsigned long)max) {
    kwarn(80, "%s='%s': value too large (%ld to %ld); using %ld", name, v, min, max, max);
    x = (unsigned long)max;
  }
  *dst = (int)x;
}

/* KMP_BLOCKTIME: milliseconds, or a number with one of libomp's units s, m, h, d, or
 * infinite; large values are INT_MAX - 1 ms (libomp's largest finite blocktime). */
static bool parse_blocktime(const char *v, int *ms) {
  static const char *const infinite[] = {"infinite", "infinity", NULL};
  if (is_one_of(v, infinite) >= 0) {
    *ms = INT_MAX;
    return true;
  }
  const char *s = v;
  static const unsigned long muls[] = {1000ul, 60000ul, 3600000ul, 86400000ul};
  unsigned long x, unit;
  if (!tomp_env_scan_unit(&s, "smhd", muls, 1, &x, &unit) || !tomp_env_at_end(s)) return false;
  *ms = x > (unsigned long)(INT_MAX - 1) / unit ? INT_MAX - 1 : (int)(x * unit);
  return true;
}

static unsigned long ms_polls(int ms) {
  unsigned long p = tomp_spin_polls_per_ms;
  return p && (unsigned long)ms > ULONG_MAX / p ? ULONG_MAX : (unsigned long)ms * p;
}

/* KMP_STACKSIZE: a number with an optional unit B, K, M, G or T (and a B after it, "4mb");
 * bytes without one (libomp's unit for this variable; OMP_STACKSIZE's is K). */
static bool parse_size(const char *v, size_t *out) {
  static const unsigned long muls[] = {1, 1ul << 10, 1ul << 20, 1ul << 30, 1ul << 40};
  const char *s = v;
  unsigned long x, mul;
  if (!tomp_env_scan_unit(&s, "bkmgt", muls, 1, &x, &mul)) return false;
  if (mul > 1 && tolower((unsigned char)*s) == 'b') s++;
  if (!tomp_env_at_end(s) || x > SIZE_MAX / mul) return false;
  *out = (size_t)(x * mul);
  return true;
}

#define MIN_STACK 16384 /* libomp's smallest worker stack (its "16k") */

static void env_stacksize(void) {
  const char *v = getenv("KMP_STACKSIZE");
  if (!v) return;
  size_t n;
  if (!parse_size(v, &n)) {
    kwarn(80,
          "KMP_STACKSIZE='%s' is not a size (bytes, or a number with B, K, M, G or T); using "
          "the default",
          v);
    return;
  }
  if (n < MIN_STACK) {
    kwarn(80, "KMP_STACKSIZE='%s': value too small; using 16k", v);
    n = MIN_STACK;
  }
  tomp_g.stacksize = n;
}

/* ---- KMP_AFFINITY ---------------------------------------------------------------------- */

enum { AFF_UNSET, AFF_NONE, AFF_DISABLED, AFF_COMPACT, AFF_SCATTER, AFF_EXPLICIT };

static struct {
  int type;
  const char *type_word; /* as libomp's listing names it */
  bool warnings, respect;
  const char *places;    /* granularity as an OMP_PLACES name, NULL: not given */
  const char *gran_word; /* granularity as the listing names it */
  char *proclist;        /* the text between proclist=[ and ], NULL: none */
  unsigned long permute, offset;
} aff = {AFF_UNSET, NULL, true, true, NULL, "core", NULL, 0, 0};

static const struct {
  const char *word, *places, *shown;
} grans[] = {{"fine", "threads", "thread"},
             {"thread", "threads", "thread"},
             {"core", "cores", "core"},
             {"socket", "sockets", "socket"},
             {"package", "sockets", "socket"},
             {"numa", "numa_domains", "numa"},
             {"numa_domain", "numa_domains", "numa"},
             {"ll_cache", "ll_caches", "ll_cache"}};

static const struct {
  const char *word;
  int type;
  const char *shown;
} types[] = {{"none", AFF_NONE, "none"},
             {"disabled", AFF_DISABLED, "disabled"},
             {"compact", AFF_COMPACT, "compact"},
             {"logical", AFF_COMPACT, "compact"},
             {"scatter", AFF_SCATTER, "scatter"},
             {"physical", AFF_SCATTER, "scatter"},
             {"balanced", AFF_SCATTER, "balanced"},
             {"explicit", AFF_EXPLICIT, "explicit"}};

static bool tok_is(const char *t, size_t n, const char *w) {
  return strlen(w) == n && !strncasecmp(t, w, n);
}

/* One comma-separated part of KMP_AFFINITY (blanks trimmed); the number of integers seen
 * after the type so far in *nints. */
static void affinity_part(const char *v, const char *t, size_t n, int *nints) {
  static const char *const mods[] = {"noverbose",    "respect",    "norespect",
                                     "warnings",     "nowarnings", "duplicates",
                                     "noduplicates", "reset",      "noreset"};
  if (tok_is(t, n, "verbose")) {
    tomp_affinity_verbose = true;
    return;
  }
  for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++)
    if (tok_is(t, n, mods[i])) {
      if (i == 1 || i == 2) aff.respect = i == 1;
      if (i == 3 || i == 4) aff.warnings = i == 3;
      if (i == 0) tomp_affinity_verbose = false;
      return;
    }
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (tok_is(t, n, types[i].word)) {
      aff.type = types[i].type;
      aff.type_word = types[i].shown;
      *nints = 0;
      return;
    }
  if (n > 12 && !strncasecmp(t, "granularity=", 12)) {
    const char *g = t + 12;
    size_t gn = n - 12;
    for (size_t i = 0; i < sizeof grans / sizeof grans[0]; i++)
      if (tok_is(g, gn, grans[i].word)) {
        aff.places = grans[i].places;
        aff.gran_word = grans[i].shown;
        return;
      }
    kwarn(192, "KMP_AFFINITY='%s': granularity=%.*s is not supported by tomp; using core", v,
          (int)gn, g);
    aff.places = "cores";
    aff.gran_word = "core";
    return;
  }
  if (n >= 11 && !strncasecmp(t, "proclist=[", 10) && t[n - 1] == ']') {
    free(aff.proclist);
    aff.proclist = strndup(t + 10, n - 11);
    return;
  }
  if (aff.type != AFF_UNSET && *nints < 2 && isdigit((unsigned char)*t)) {
    const char *s = t;
    unsigned long x;
    if (tomp_env_scan_ulong(&s, INT_MAX, &x) && s == t + n) {
      *(*nints == 0 ? &aff.permute : &aff.offset) = x;
      ++*nints;
      return;
    }
  }
  kwarn(58, "KMP_AFFINITY='%s': unknown part '%.*s'; ignored", v, (int)n, t);
}

static void affinity_parse(void) {
  const char *v = getenv("KMP_AFFINITY");
  if (!v) return;
  int nints = 0;
  for (const char *p = v;;) {
    while (isspace((unsigned char)*p))
      p++;
    const char *q = p;
    int depth = 0; /* commas inside [...] and {...} belong to a proclist */
    while (*q && (depth > 0 || *q != ',')) {
      if (*q == '[' || *q == '{') depth++;
      if ((*q == ']' || *q == '}') && depth > 0) depth--;
      q++;
    }
    const char *e = q;
    while (e > p && isspace((unsigned char)e[-1]))
      e--;
    if (e > p) affinity_part(v, p, (size_t)(e - p), &nints);
    if (!*q) break;
    p = q + 1;
  }
  if (aff.type == AFF_EXPLICIT && !aff.proclist) {
    kwarn(62, "KMP_AFFINITY='%s': explicit without proclist=[...]; using none", v);
    aff.type = AFF_NONE;
    aff.type_word = "none";
  }
  if (aff.permute)
    kwarn(58, "KMP_AFFINITY='%s': tomp does not support a permute level; ignored", v);
}

/* libomp's proclist ("3", "0-7", "{0,1}", "{0-3}", separated by commas) as an OMP_PLACES list:
 * each id or id in a range is a place, each braced set one place. */
static bool proclist_places(const char *pl, char *out, size_t size) {
  size_t pos = 0;
  const char *s = pl;
  bool first = true;
  for (;;) {
    while (isspace((unsigned char)*s))
      s++;
    bool set = *s == '{';
    if (set) s++;
    int w = snprintf(out + pos, size - pos, "%s%s", first ? "" : ",", set ? "{" : "");
    if (w < 0 || (size_t)w >= size - pos) return false;
    pos += (size_t)w;
    first = false;
    for (bool first_in_set = true;; first_in_set = false) {
      unsigned long a, b;
      if (!tomp_env_scan_ulong(&s, INT_MAX, &a)) return false;
      b = a;
      while (isspace((unsigned char)*s))
        s++;
      if (*s == '-') {
        s++;
        if (!tomp_env_scan_ulong(&s, INT_MAX, &b) || b < a) return false;
      }
      if (set)
        w = snprintf(out + pos, size - pos, "%s%lu:%lu", first_in_set ? "" : ",", a, b - a + 1);
      else
        w = snprintf(out + pos, size - pos, "{%lu}:%lu", a, b - a + 1);
      if (w < 0 || (size_t)w >= size - pos) return false;
      pos += (size_t)w;
      while (isspace((unsigned char)*s))
        s++;
      if (!set) break;
      if (*s == ',') {
        s++;
        continue;
      }
      if (*s++ != '}') return false;
      if (pos + 2 > size) return false;
      out[pos++] = '}';
      out[pos] = 0;
      break;
    }
    while (isspace((unsigned char)*s))
      s++;
    if (!*s) return true;
    if (*s++ != ',') return false;
  }
}

bool tomp_env_kmp_affinity(void) {
  if (aff.type == AFF_UNSET) return false;
  (void)tomp_env_kmp_outranks("OMP_PLACES");
  (void)tomp_env_kmp_outranks("GOMP_CPU_AFFINITY");
  int bind = TOMP_BIND_FALSE;
  tomp_places_clear();
  if (aff.type == AFF_COMPACT || aff.type == AFF_SCATTER) {
    const char *name = aff.places ? aff.places : "cores";
    if (tomp_places_parse("KMP_AFFINITY", name)) {
      tomp_env_places_name = name;
      /* compact: thread i on place i (close); scatter and balanced: threads as far apart as
       * the places allow (spread) */
      bind = aff.type == AFF_COMPACT ? TOMP_BIND_CLOSE : TOMP_BIND_SPREAD;
    }
  } else if (aff.type == AFF_EXPLICIT) {
    char buf[4096];
    if (!proclist_places(aff.proclist, buf, sizeof buf))
      kwarn(58,
            "KMP_AFFINITY: proclist=[%s] is not a list of ids, id-id ranges and {sets} of "
            "them; threads are not bound",
            aff.proclist);
    else if (tomp_places_parse("KMP_AFFINITY's proclist", buf))
      bind = TOMP_BIND_CLOSE;
  }
  /* the offset: thread 0 on that place, the others after it (close or spread from there) */
  tomp_places_start = bind != TOMP_BIND_FALSE ? (int)(aff.offset % (unsigned long)INT_MAX) : 0;
  tomp_g.icv.bind = (unsigned char)bind;
  tomp_g.bind_list[0] = (unsigned char)bind;
  tomp_g.bind_list_len = 1;
  return true;
}

const char *tomp_env_kmp_granularity(void) {
  return aff.places;
}

const char *tomp_env_kmp_affinity_shown(void) {
  static char buf[512];
  if (aff.type == AFF_DISABLED) {
    snprintf(buf, sizeof buf, "%sverbose,%swarnings,disabled", tomp_affinity_verbose ? "" : "no",
             aff.warnings ? "" : "no");
    return buf;
  }
  int n = snprintf(buf, sizeof buf, "%sverbose,%swarnings,%srespect,granularity=%s,",
                   tomp_affinity_verbose ? "" : "no", aff.warnings ? "" : "no",
                   aff.respect ? "" : "no", aff.gran_word);
  if (n < 0 || (size_t)n >= sizeof buf) return buf;
  if (aff.type == AFF_EXPLICIT)
    snprintf(buf + n, sizeof buf - (size_t)n, "proclist=[%s],explicit", aff.proclist);
  else if (aff.type == AFF_COMPACT || aff.type == AFF_SCATTER)
    snprintf(buf + n, sizeof buf - (size_t)n, "%s,%lu,%lu", aff.type_word, aff.permute, aff.offset);
  else
    snprintf(buf + n, sizeof buf - (size_t)n, "none");
  return buf;
}

/* ---- KMP_HW_SUBSET ------------------------------------------------------------------------ */

/* Items N<unit>[@offset], separated by ',' or 'x', in any order: units s, socket(s),
 * package(s); c, core(s); t, thread(s) (any case).  libomp's other levels (NUMA nodes, dies,
 * tiles, caches) and core attributes (":intel_core") are refused with one message. */
static void env_hw_subset(void) {
  const char *v = getenv("KMP_HW_SUBSET");
  if (!v) return;
  static const char *const names[3][4] = {{"s", "socket", "sockets", "package"},
                                          {"c", "core", "cores", NULL},
                                          {"t", "thread", "threads", NULL}};
  static const char *const shown[3] = {"sockets than the machine has", "cores than a socket has",
                                       "threads than a core has"};
  int count[3] = {0, 0, 0}, offset[3] = {0, 0, 0};
  bool seen[3] = {false, false, false};
  const char *s = v;
  for (;;) {
    unsigned long n, off = 0;
    if (!tomp_env_scan_ulong(&s, INT_MAX, &n) || n == 0) goto invalid;
    const char *w = s;
    while (isalpha((unsigned char)*s))
      s++;
    size_t wn = (size_t)(s - w);
    int level = -1;
    for (int pass = 0; pass < 2 && level < 0; pass++) {
      for (int l = 0; l < 3 && level < 0; l++)
        for (int k = 0; k < 4 && level < 0; k++)
          if (names[l][k] && tok_is(w, wn, names[l][k])) level = l;
      /* "1sx2c": the x is a separator */
      if (level < 0 && pass == 0 && wn > 1 && tolower((unsigned char)w[wn - 1]) == 'x') {
        wn--;
        s--;
      } else
        break;
    }
    if (level < 0) {
      if (!wn) goto invalid;
      while (isalnum((unsigned char)*s) || *s == '_')
        s++; /* "L2", "numa_domain" */
      kwarn(286,
            "KMP_HW_SUBSET='%s': tomp supports sockets, cores and threads, not '%.*s'; "
            "ignored",
            v, (int)(s - w), w);
      return;
    }
    if (*s == '@' && (s++, !tomp_env_scan_ulong(&s, INT_MAX, &off))) goto invalid;
    if (*s == ':') {
      kwarn(286, "KMP_HW_SUBSET='%s': tomp does not support core attributes (':'); ignored", v);
      return;
    }
    if (seen[level]) goto invalid;
    seen[level] = true;
    count[level] = (int)n;
    offset[level] = (int)off;
    while (isspace((unsigned char)*s))
      s++;
    if (!*s) break;
    if (*s != ',' && *s != 'x' && *s != 'X') goto invalid;
    s++;
  }
  int r = tomp_affinity_subset(count, offset);
  if (r >= 0) {
    kwarn(285, "KMP_HW_SUBSET='%s' ignored: %s%s", v, r < 3 ? "more " : "no CPU would remain",
          r < 3 ? shown[r] : "");
    return;
  }
  /* nthreads-var's default follows the processors left */
  tomp_g.icv.nthreads = tomp_num_procs;
  tomp_g.nthreads_list[0] = tomp_num_procs;
  return;
invalid:
  kwarn(247, "KMP_HW_SUBSET='%s' is not a list of N<unit>[@offset] (units s, c, t); ignored", v);
}

/* ---- start-up ---------------------------------------------------------------------------- */

void tomp_env_kmp_early(void) {
  /* defaults (again: the env fuzz target runs start-up many times) */
  free(aff.proclist);
  aff.type = AFF_UNSET;
  aff.type_word = NULL;
  aff.warnings = aff.respect = true;
  aff.places = NULL;
  aff.gran_word = "core";
  aff.proclist = NULL;
  aff.permute = aff.offset = 0;
  tomp_places_start = 0;
  tomp_affinity_verbose = false;
  tomp_env_places_name = NULL;
  settings = false;
  bool on = true;
  env_kmp_bool("KMP_WARNINGS", &on);
  tomp_warnings_off = !on;
  env_kmp_bool("KMP_SETTINGS", &settings);
  env_hw_subset();
  affinity_parse();
}

bool tomp_env_kmp_outranks(const char *name) {
  const char *rival;
  if (!strcmp(name, "OMP_WAIT_POLICY"))
    rival = "KMP_LIBRARY";
  else if (!strcmp(name, "OMP_STACKSIZE") || !strcmp(name, "GOMP_STACKSIZE"))
    rival = "KMP_STACKSIZE";
  else
    rival = aff.type != AFF_UNSET ? "KMP_AFFINITY" : NULL; /* places and binding */
  if (!rival || !getenv(rival)) return false;
  if (getenv(name)) kwarn(182, "%s: ignored because %s has been defined", name, rival);
  return true;
}

/* libomp's library modes and blocktime on tomp's spin-then-sleep waits:
 * - throughput (the default): tomp's waits (2 ms of polling, less when threads outnumber
 *   CPUs or the machine is busy), or OMP_WAIT_POLICY's;
 * - turnaround: active waits (as OMP_WAIT_POLICY=active) that sleep after the blocktime
 *   (200 ms unless KMP_BLOCKTIME says otherwise), as libomp's;
 * - serial: teams of one thread (thread-limit-var 1);
 * - KMP_BLOCKTIME=N: waits poll for N ms, then sleep, however busy the machine (as a
 *   GOMP_SPINCOUNT count); 0 sleeps at once, infinite polls as OMP_WAIT_POLICY=active.
 * What kmp_get_blocktime answers follows libomp: KMP_BLOCKTIME, else INT_MAX for
 * OMP_WAIT_POLICY=active, 0 for passive, else 200. */
void tomp_env_kmp_wait(void) {
  int lib = tomp_g.wait_policy == 1 ? 2 : 3;
  bool lib_set = false;
  const char *v = getenv("KMP_LIBRARY");
  if (v) {
    static const char *const names[] = {"serial", "turnaround", "throughput", NULL};
    int i = is_one_of(v, names);
    if (i >= 0) {
      lib = i + 1;
      lib_set = true;
    } else {
      kwarn(42, "KMP_LIBRARY='%s' is not serial, turnaround or throughput; using throughput", v);
    }
  }
  tomp_g.kmp_library = lib;
  if (lib_set && lib == 1) tomp_g.icv.thread_limit = 1;
  if (lib_set && lib == 2) tomp_g.wait_policy = 1;

  v = getenv("KMP_BLOCKTIME");
  int bt = -1;
  if (v && !parse_blocktime(v, &bt)) {
    kwarn(39,
          "KMP_BLOCKTIME='%s' is not a time (milliseconds, or a number with s, m, h or d) "
          "or infinite; using the default",
          v);
    bt = -1;
  }
  tomp_g.kmp_blocktime = bt >= 0                   ? bt
                         : lib_set && lib == 2     ? 200
                         : tomp_g.wait_policy == 1 ? INT_MAX
                         : tomp_g.wait_policy == 0 ? 0
                                                   : 200;
  if (bt >= 0 && getenv("GOMP_SPINCOUNT")) {
    tomp_warn("KMP_BLOCKTIME='%s': ignored, GOMP_SPINCOUNT sets the waits", v);
    return;
  }
  if (lib_set && lib == 2) {
    tomp_env_spin_active();
    if (tomp_g.kmp_blocktime != INT_MAX) tomp_env_spin_set(ms_polls(tomp_g.kmp_blocktime));
  } else if (bt == INT_MAX) {
    tomp_env_spin_active();
  } else if (bt >= 0) {
    tomp_env_spin_set(ms_polls(bt));
  }
}

void tomp_kmp_blocktime_apply(int ms) {
  tomp_env_spin_set(ms_polls(ms)); /* the time asked for, however busy the machine */
}

/* Names tomp reads itself (the rest of KMP_* and LIBOMP_* is listed as ignored).
 * KMP_DUPLICATE_LIB_OK asks libomp not to stop when a second OpenMP runtime is loaded, which
 * tomp never does. */
static const char *const known[] = {
    "KMP_AFFINITY",         "KMP_BLOCKTIME",        "KMP_DETERMINISTIC_REDUCTION",
    "KMP_DISP_NUM_BUFFERS", "KMP_DUPLICATE_LIB_OK", "KMP_ENABLE_TASK_THROTTLING",
    "KMP_HW_SUBSET",        "KMP_LIBRARY",          "KMP_SETTINGS",
    "KMP_STACKSIZE",        "KMP_TEAMS_PROC_BIND",  "KMP_TEAMS_THREAD_LIMIT",
    "KMP_WARNINGS"};

static void name_ignored(void) {
  char list[512];
  size_t pos = 0;
  int n = 0;
  for (char **e = environ; e && *e; e++) {
    const char *s = *e;
    if (strncmp(s, "KMP_", 4) && strncmp(s, "LIBOMP_", 7)) continue;
    size_t len = strcspn(s, "=");
    bool ours = false;
    for (size_t i = 0; i < sizeof known / sizeof known[0] && !ours; i++)
      ours = strlen(known[i]) == len && !strncmp(s, known[i], len);
    if (ours) continue;
    int w = snprintf(list + pos, sizeof list - pos, "%s%.*s", n ? ", " : "", (int)len, s);
    if (w > 0 && (size_t)w < sizeof list - pos) pos += (size_t)w;
    n++;
  }
  if (n)
    tomp_warn("libomp setting%s with no counterpart in tomp, ignored: %s (docs/kmp-abi.md)",
              n > 1 ? "s" : "", list);
}

void tomp_env_kmp_init(void) {
  env_stacksize();
  tomp_g.kmp_disp_num_buffers = 7;
  env_kmp_int("KMP_DISP_NUM_BUFFERS", 1, 4096, &tomp_g.kmp_disp_num_buffers, "7");
  tomp_g.kmp_teams_thread_limit = 0;
  env_kmp_int("KMP_TEAMS_THREAD_LIMIT", 1, INT_MAX, &tomp_g.kmp_teams_thread_limit,
              "the default (no limit)");
  tomp_g.kmp_teams_proc_bind = TOMP_BIND_SPREAD;
  const char *v = getenv("KMP_TEAMS_PROC_BIND");
  if (v) {
    static const char *const words[] = {"primary", "master", "close", "spread", NULL};
    static const int binds[] = {TOMP_BIND_PRIMARY, TOMP_BIND_PRIMARY, TOMP_BIND_CLOSE,
                                TOMP_BIND_SPREAD};
    int i = is_one_of(v, words);
    if (i >= 0)
      tomp_g.kmp_teams_proc_bind = binds[i];
    else
      kwarn(42, "KMP_TEAMS_PROC_BIND='%s' is not spread, close or primary; using spread", v);
  }
  bool throttle = true;
  env_kmp_bool("KMP_ENABLE_TASK_THROTTLING", &throttle);
  tomp_g.task_throttling = throttle;
  bool det = false;
  env_kmp_bool("KMP_DETERMINISTIC_REDUCTION", &det);
  tomp_g.kmp_deterministic_reduction = det;
  name_ignored();
}

void tomp_env_kmp_report(void) {
  if (tomp_affinity_verbose) {
    size_t n = tomp_places_format(NULL, 0);
    char *p = tomp_malloc(n + 1);
    tomp_places_format(p, n + 1);
    tomp_inform(157, "KMP_AFFINITY: %u available OS procs; %d places %s; binding %s",
                tomp_num_procs, tomp_nplaces, tomp_nplaces ? p : "(none)",
                tomp_bind_word(tomp_g.icv.bind));
    free(p);
  }
  if (settings) tomp_kmp_settings_print();
}
