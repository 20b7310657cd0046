/* Environment variables: read once at start-up into tomp_g and the initial task's ICVs.
 *
 * Every variable gets its default first; a value is applied only if it parses completely.
 * A malformed value (empty, not a number, negative, out of range, trailing text, unknown
 * keyword, bad list) produces exactly one line naming the variable, the value and the
 * default kept (tests/scenarios/env_bad.sh checks 200 such values).
 *
 * Compared with libgomp 12 (checked by running the same values on it): libgomp also
 * rejects most of these, but prints a blank line plus "Invalid value for environment
 * variable X" without the value or the default; tomp differs in that it also refuses
 * OMP_SCHEDULE chunk 0 (libgomp takes it silently), validates OMP_AFFINITY_FORMAT at
 * start-up (libgomp accepts anything and aborts when a bad field is displayed), prints one
 * line, not two, for a place list naming no usable CPU, warns when OMP_PLACES=name(n) asks
 * for more places than exist, and treats a >16-level OMP_NUM_THREADS/OMP_PROC_BIND list as
 * its first 16 levels (with a warning), follows OpenMP 5.2 for OMP_TARGET_OFFLOAD=mandatory
 * (the default device becomes omp_invalid_device; libgomp 12 ignores the setting when it has
 * no offload device) and leaves out GOMP_CPU_AFFINITY CPUs the process may not run on (libgomp
 * keeps them and fails to create threads).  OMP_DISPLAY_ENV prints libgomp's keys in libgomp's
 * order (env_display.sh compares them); GOMP_SPINCOUNT's default differs (tomp's own).
 *
 * OMP_TOOL, OMP_TOOL_LIBRARIES and OMP_TOOL_VERBOSE_INIT belong to the OMPT layer,
 * OMP_ALLOCATOR to the allocator module; they are not read here. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "abi.h"
#include "affinity.h"
#include "env_kmp.h"

int tomp_env_display;
unsigned long tomp_env_spin_count_shown;

/* ---- small parsers: all take the whole value (surrounding blanks allowed) ---------------- */

static const char *skip_blank(const char *s) {
  while (isspace((unsigned char)*s)) s++;
  return s;
}

static bool at_end(const char *s) { return *skip_blank(s) == 0; }

/* Unsigned decimal at *sp (no sign), advancing it; false on no digits or > max. */
static bool scan_ulong(const char **sp, unsigned long max, unsigned long *out) {
  const char *s = skip_blank(*sp);
  if (!isdigit((unsigned char)*s)) return false;
  unsigned long v = 0;
  while (isdigit((unsigned char)*s)) {
    unsigned d = (unsigned)(*s++ - '0');
    if (v > (max - d) / 10) return false;
    v = v * 10 + d;
  }
  *sp = s;
  *out = v;
  return true;
}

static bool parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out) {
  unsigned long v;
  if (!scan_ulong(&s, max, &v) || !at_end(s) || v < min) return false;
  *out = v;
  return true;
}

/* Case-insensitive match of a whole word, blanks around allowed; advances *sp. */
static bool scan_word(const char **sp, const char *w) {
  const char *s = skip_blank(*sp);
  size_t n = strlen(w);
  if (strncasecmp(s, w, n)) return false;
  if (isalnum((unsigned char)s[n]) || s[n] == '_') return false;
  *sp = skip_blank(s + n);
  return true;
}

static bool is_word(const char *s, const char *w) { return scan_word(&s, w) && *s == 0; }

static bool parse_bool(const char *s, bool *out) {
  if (is_word(s, "true")) *out = true;
  else if (is_word(s, "false")) *out = false;
  else return false;
  return true;
}

static const char *getenv_set(const char *name) { return getenv(name); }

/* A number (any, up to ULONG_MAX) and an optional unit after blanks: one letter of units (any
 * case), whose multiplier is the entry of muls at the letter's place, dflt without one.
 * Advances *sp past the unit; the caller checks what follows and that x * mul fits. */
static bool scan_unit(const char **sp, const char *units, const unsigned long *muls,
                      unsigned long dflt, unsigned long *x, unsigned long *mul) {
  if (!scan_ulong(sp, ULONG_MAX, x)) return false;
  const char *s = skip_blank(*sp);
  const char *u = *s ? strchr(units, tolower((unsigned char)*s)) : NULL;
  *mul = u ? muls[u - units] : dflt;
  *sp = u ? s + 1 : s;
  return true;
}

/* the parsers for env_kmp.c (env_kmp.h) */
bool tomp_env_scan_ulong(const char **sp, unsigned long max, unsigned long *out) {
  return scan_ulong(sp, max, out);
}
bool tomp_env_scan_unit(const char **sp, const char *units, const unsigned long *muls,
                        unsigned long dflt, unsigned long *x, unsigned long *mul) {
  return scan_unit(sp, units, muls, dflt, x, mul);
}
bool tomp_env_scan_word(const char **sp, const char *w) { return scan_word(sp, w); }
bool tomp_env_at_end(const char *s) { return at_end(s); }

/* ---- one function per variable --------------------------------------------------------- */

static void env_bool(const char *name, int *dst) {
  const char *v = getenv_set(name);
  bool b;
  if (!v) return;
  if (parse_bool(v, &b)) *dst = b;
  else tomp_warn("%s='%s' is not true or false; using the default (%s)", name, v,
                 *dst ? "true" : "false");
}

/* A non-negative (min 0) or positive (min 1) integer up to INT_MAX. */
static bool env_int(const char *name, unsigned long min, long *dst) {
  const char *v = getenv_set(name);
  unsigned long x;
  if (!v) return false;
  if (parse_ulong(v, min, INT_MAX, &x)) {
    *dst = (long)x;
    return true;
  }
  tomp_warn("%s='%s' is not a %s integer (at most %d); using the default (%ld)", name, v,
            min ? "positive" : "non-negative", INT_MAX, *dst);
  return false;
}

static int env_num_threads(void) {
  const char *v = getenv_set("OMP_NUM_THREADS");
  if (!v) return 0;
  unsigned list[16];
  unsigned n = 0;
  const char *s = v;
  bool ok = true, truncated = false;
  for (;;) {
    unsigned long x;
    if (!scan_ulong(&s, INT_MAX, &x) || x == 0) {
      ok = false;
      break;
    }
    if (n < 16) list[n++] = (unsigned)x;
    else truncated = true;
    s = skip_blank(s);
    if (*s == ',') {
      s++;
      continue;
    }
    ok = *s == 0;
    break;
  }
  if (!ok) {
    tomp_warn("OMP_NUM_THREADS='%s' is not a positive integer list; using the default (%u)", v,
              tomp_g.nthreads_list[0]);
    return 0;
  }
  if (truncated)
    tomp_warn("OMP_NUM_THREADS='%s' has more than 16 levels; tomp uses the first 16", v);
  memcpy(tomp_g.nthreads_list, list, n * sizeof list[0]);
  tomp_g.nthreads_list_len = n;
  tomp_g.icv.nthreads = list[0];
  return (int)n;
}

/* OMP_SCHEDULE sets the initial run-sched-var twice: as libgomp reads it, for gcc code
 * (tomp_g.icv), and as libomp reads it, for clang code (tomp_g.run_sched_kmp).  They differ
 * where the variable is unset (libgomp dynamic,1; libomp static), for static without a modifier
 * (libgomp adds monotonic, libomp does not), and for libomp's own kinds static_steal and
 * trapezoidal, which clang code gets and gcc code reads as libgomp would after refusing them
 * (unset), without a message (the value is valid for one of the two). */
static void env_schedule(void) {
  const char *v = getenv_set("OMP_SCHEDULE");
  if (!v) return;
  const char *s = v;
  int mod = 0; /* 1 monotonic, 2 nonmonotonic */
  const char *t = s;
  if (scan_word(&t, "monotonic") && *t == ':') {
    mod = 1;
    s = t + 1;
  } else if (t = s, scan_word(&t, "nonmonotonic") && *t == ':') {
    mod = 2;
    s = t + 1;
  }
  int kind = 0;
  static const char *const kinds[] = {NULL,     "static",      "dynamic",     "guided",
                                      "auto",   "trapezoidal", "static_steal"};
  for (int k = 1; k <= TOMP_SCHED_STATIC_STEAL && !kind; k++) {
    t = s;
    if (scan_word(&t, kinds[k])) {
      kind = k;
      s = t;
    }
  }
  unsigned long chunk = 0;
  bool ok = kind != 0;
  bool have_chunk = false;
  if (ok && *s == ',') {
    s++;
    ok = scan_ulong(&s, INT_MAX, &chunk) && chunk > 0;
    have_chunk = true;
  }
  if (ok) ok = at_end(s);
  if (!ok) {
    tomp_warn("OMP_SCHEDULE='%s' is not [monotonic:|nonmonotonic:]static|dynamic|guided|auto"
              "[,positive chunk] (or libomp's static_steal, trapezoidal); using the default",
              v);
    return;
  }
  if (!have_chunk) chunk = kind == TOMP_SCHED_STATIC ? 0 : 1;
  tomp_g.run_sched_kmp = kind | (mod == 1 ? (int)TOMP_SCHED_MONOTONIC : 0);
  tomp_g.run_sched_kmp_chunk = (int)chunk;
  if (kind > TOMP_SCHED_AUTO) return; /* libomp's kinds: gcc code keeps the default */
  int sched = kind;
  /* static is monotonic whatever the modifier says (as in libgomp) */
  if (mod == 1 || kind == TOMP_SCHED_STATIC) sched |= (int)TOMP_SCHED_MONOTONIC;
  tomp_g.icv.run_sched = sched;
  tomp_g.icv.run_sched_chunk = (int)chunk;
}

static int env_proc_bind(bool *given) {
  const char *v = getenv_set("OMP_PROC_BIND");
  *given = false;
  if (!v || tomp_env_kmp_outranks("OMP_PROC_BIND")) return 0;
  bool b;
  if (parse_bool(v, &b)) {
    *given = true;
    tomp_g.icv.bind = b ? TOMP_BIND_TRUE : TOMP_BIND_FALSE;
    tomp_g.bind_list[0] = tomp_g.icv.bind;
    tomp_g.bind_list_len = 1;
    return 1;
  }
  unsigned char list[16];
  unsigned n = 0;
  const char *s = v;
  bool ok = true, truncated = false;
  for (;;) {
    int k;
    if (scan_word(&s, "primary") || scan_word(&s, "master")) k = TOMP_BIND_PRIMARY;
    else if (scan_word(&s, "close")) k = TOMP_BIND_CLOSE;
    else if (scan_word(&s, "spread")) k = TOMP_BIND_SPREAD;
    else {
      ok = false;
      break;
    }
    if (n < 16) list[n++] = (unsigned char)k;
    else truncated = true;
    if (*s == ',') {
      s++;
      continue;
    }
    ok = *s == 0;
    break;
  }
  if (!ok) {
    tomp_warn("OMP_PROC_BIND='%s' is not true, false or a list of primary, close, spread; "
              "using the default (false)",
              v);
    return 0;
  }
  if (truncated) tomp_warn("OMP_PROC_BIND='%s' has more than 16 levels; tomp uses the first 16", v);
  *given = true;
  memcpy(tomp_g.bind_list, list, n);
  tomp_g.bind_list_len = n;
  tomp_g.icv.bind = list[0];
  return (int)n;
}

static void env_target_offload(void) {
  const char *v = getenv_set("OMP_TARGET_OFFLOAD");
  if (!v) return;
  if (is_word(v, "default")) tomp_g.target_offload = TOMP_OFFLOAD_DEFAULT;
  else if (is_word(v, "mandatory")) tomp_g.target_offload = TOMP_OFFLOAD_MANDATORY;
  else if (is_word(v, "disabled")) tomp_g.target_offload = TOMP_OFFLOAD_DISABLED;
  else
    tomp_warn("OMP_TARGET_OFFLOAD='%s' is not default, mandatory or disabled; using the default "
              "(default)",
              v);
}

/* number[B|K|M|G], unit K when absent */
static void env_stacksize(void) {
  /* both called: each set one says it is ignored */
  if (tomp_env_kmp_outranks("OMP_STACKSIZE") | tomp_env_kmp_outranks("GOMP_STACKSIZE")) return;
  const char *name = "OMP_STACKSIZE";
  const char *v = getenv_set(name);
  if (!v) {
    name = "GOMP_STACKSIZE";
    v = getenv_set(name);
  }
  if (!v) return;
  static const unsigned long muls[] = {1, 1ul << 10, 1ul << 20, 1ul << 30};
  const char *s = v;
  unsigned long x, mul;
  bool ok = scan_unit(&s, "bkmg", muls, 1ul << 10, &x, &mul) && x > 0 && at_end(s) &&
            x <= SIZE_MAX / mul;
  if (!ok) {
    tomp_warn("%s='%s' is not a positive size (number with optional B, K, M or G suffix); "
              "using the default (system default stack)",
              name, v);
    return;
  }
  tomp_g.stacksize = (size_t)(x * mul);
}

#define SPIN_ACTIVE 30000000000ul /* practically forever */
#define SPIN_OVERSUB_ACTIVE 1000ul

void tomp_env_spin_active(void) {
  tomp_spin_count = SPIN_ACTIVE;
  /* spinning forever while our CPU is what the awaited thread needs helps nobody */
  tomp_spin_count_oversub = SPIN_OVERSUB_ACTIVE;
  tomp_spin_oversub_scaled = false; /* asked for: active waits, however many threads */
  tomp_busy_sampling = false;       /* and however busy the machine */
}

/* Atomic stores: kmp_set_blocktime calls it while other threads wait (tomp_spins reads). */
void tomp_env_spin_set(unsigned long x) {
  tomp_store_rlx(&tomp_spin_count, x);
  if (tomp_load_rlx(&tomp_spin_count_oversub) > x) tomp_store_rlx(&tomp_spin_count_oversub, x);
  tomp_store_rlx(&tomp_busy_sampling, false); /* the count asked for, however busy the machine */
  tomp_store_rlx(&tomp_machine_busy, 0);      /* (a verdict sampled before no longer counts) */
  tomp_store_rlx(&tomp_yield_slow, 0);
}

static void env_wait_policy(void) {
  const char *v = getenv_set("OMP_WAIT_POLICY");
  if (v && tomp_env_kmp_outranks("OMP_WAIT_POLICY")) v = NULL; /* KMP_LIBRARY decides */
  if (v) {
    if (is_word(v, "active")) {
      tomp_g.wait_policy = 1;
      tomp_env_spin_active();
    } else if (is_word(v, "passive")) {
      tomp_g.wait_policy = 0;
      tomp_spin_count = 0;
      tomp_spin_count_oversub = 0;
    } else {
      tomp_warn("OMP_WAIT_POLICY='%s' is not active or passive; using the default (spin %lu "
                "polls, then sleep)",
                v, tomp_spin_count);
    }
  }
  /* GOMP_SPINCOUNT overrides the policy's spin budget (libgomp's rule) */
  v = getenv_set("GOMP_SPINCOUNT");
  if (!v) return;
  unsigned long x;
  if (is_word(v, "infinite") || is_word(v, "infinity")) {
    x = ULONG_MAX;
  } else {
    static const unsigned long muls[] = {1000ul, 1000000ul, 1000000000ul, 1000000000000ul};
    const char *s = v;
    unsigned long mul;
    if (!scan_unit(&s, "kmgt", muls, 1, &x, &mul) || !at_end(s) || x > ULONG_MAX / mul) {
      tomp_warn("GOMP_SPINCOUNT='%s' is not a non-negative count (optional k, M, G, T suffix) or "
                "infinite; using the default (%lu)",
                v, tomp_spin_count);
      return;
    }
    x *= mul;
  }
  tomp_env_spin_set(x);
}

static void env_display_env(void) {
  const char *v = getenv_set("OMP_DISPLAY_ENV");
  if (!v) return;
  bool b;
  if (parse_bool(v, &b)) tomp_env_display = b;
  else if (is_word(v, "verbose")) tomp_env_display = 2;
  else tomp_warn("OMP_DISPLAY_ENV='%s' is not true, false or verbose; using the default (false)", v);
}

/* OMP_DEBUG (debug-var, 5.2): enabled turns on OMPD's breakpoints and state (src/ompd). */
static void env_debug(void) {
  const char *v = getenv_set("OMP_DEBUG");
  if (!v) return;
  if (is_word(v, "enabled")) tomp_g.debug = 1;
  else if (is_word(v, "disabled")) tomp_g.debug = 0;
  else tomp_warn("OMP_DEBUG='%s' is not enabled or disabled; using the default (disabled)", v);
}

static void env_affinity_format(void) {
  const char *v = getenv_set("OMP_AFFINITY_FORMAT");
  if (!v) return;
  if (!*v || !tomp_affinity_format_valid(v)) {
    tomp_warn("OMP_AFFINITY_FORMAT='%s' is %s; using the default ('%s')", v,
              *v ? "not a valid format (unknown %-field)" : "empty",
              tomp_affinity_format_default());
    return;
  }
  free(tomp_g.affinity_format);
  tomp_g.affinity_format = strdup(v);
  if (!tomp_g.affinity_format) tomp_fatal("out of memory");
}

/* OMP_PLACES that does not parse: for a clang-only process libomp's choice, one place per
 * core, with libomp's message number (its OMP_PLACES warning); else none (tomp's message). */
static bool places_fallback(const char *pl) {
  if (!tomp_llvm_only()) return tomp_places_parse("OMP_PLACES", pl);
  bool off = tomp_warnings_off;
  tomp_warnings_off = true; /* the one message is the one below */
  bool ok = tomp_places_parse("OMP_PLACES", pl);
  tomp_warnings_off = off;
  if (ok) return true;
  tomp_warn_llvm(250, "OMP_PLACES='%s' is not a valid place list; using \"cores\"", pl);
  tomp_env_places_name = "cores";
  return tomp_places_parse("OMP_PLACES", "cores");
}

/* Places: OMP_PLACES, else libgomp's GOMP_CPU_AFFINITY (one place per CPU listed), turns
 * binding on unless OMP_PROC_BIND says false (then GOMP_CPU_AFFINITY is not even read, as
 * in libgomp); OMP_PROC_BIND alone binds to one place per hardware thread (or per
 * KMP_AFFINITY's granularity). */
static void env_places(bool bind_given) {
  const char *pl = getenv_set("OMP_PLACES");
  bool bind_off = bind_given && tomp_g.icv.bind == TOMP_BIND_FALSE;
  const char *gca = bind_off || pl ? NULL : getenv_set("GOMP_CPU_AFFINITY");
  if ((pl && places_fallback(pl)) || (gca && tomp_places_parse_cpus("GOMP_CPU_AFFINITY", gca))) {
    if (pl && !tomp_env_places_name && isalpha((unsigned char)*skip_blank(pl))) {
      static char name[32]; /* for the KMP_SETTINGS listing: "cores", "threads(4)" */
      snprintf(name, sizeof name, "%s", skip_blank(pl));
      tomp_env_places_name = name;
    }
    if (!bind_given) {
      tomp_g.icv.bind = TOMP_BIND_TRUE;
      tomp_g.bind_list[0] = TOMP_BIND_TRUE;
    }
  } else if (bind_given && !bind_off) {
    const char *g = tomp_env_kmp_granularity();
    if (g && tomp_places_parse("KMP_AFFINITY", g)) tomp_env_places_name = g;
    else tomp_places_default();
  }
  if (bind_off) tomp_places_clear();
}

void tomp_env_init(void) {
  /* defaults */
  tomp_g.icv.nthreads = tomp_num_procs;
  tomp_g.icv.thread_limit = ~0u >> 1;
  tomp_g.icv.max_active_levels = 1;
  /* run-sched-var: libgomp's dynamic,1 for gcc code, libomp's static for clang code */
  tomp_g.icv.run_sched = TOMP_SCHED_DYNAMIC;
  tomp_g.icv.run_sched_chunk = 1;
  tomp_g.icv.run_sched_initial = 1;
  tomp_g.run_sched_kmp = TOMP_SCHED_STATIC;
  tomp_g.run_sched_kmp_chunk = 0;
  tomp_g.icv.default_device = 0;
  tomp_g.icv.dyn = 0;
  tomp_g.icv.bind = TOMP_BIND_FALSE;
  tomp_g.nthreads_list[0] = tomp_num_procs;
  tomp_g.nthreads_list_len = 1;
  tomp_g.bind_list[0] = TOMP_BIND_FALSE;
  tomp_g.bind_list_len = 1;
  tomp_g.stacksize = 0;
  tomp_g.wait_policy = -1;
  tomp_g.cancellation = 0;
  tomp_g.max_task_priority = 0;
  tomp_g.display_affinity = 0;
  tomp_g.num_teams = 0;
  tomp_g.teams_thread_limit = 0;
  tomp_g.target_offload = TOMP_OFFLOAD_DEFAULT;
  tomp_g.affinity_format = strdup(tomp_affinity_format_default());
  if (!tomp_g.affinity_format) tomp_fatal("out of memory");

  tomp_env_kmp_early(); /* KMP_WARNINGS first */

  int dyn = 0;
  env_bool("OMP_DYNAMIC", &dyn);
  tomp_g.icv.dyn = (unsigned char)dyn;

  int nlist = env_num_threads();
  env_schedule();

  long l = (long)tomp_g.icv.thread_limit;
  if (env_int("OMP_THREAD_LIMIT", 1, &l)) tomp_g.icv.thread_limit = (unsigned)l;

  /* max-active-levels: OMP_MAX_ACTIVE_LEVELS, else OMP_NESTED, else a nested list */
  int nested = -1;
  {
    const char *v = getenv_set("OMP_NESTED");
    bool b;
    if (v) {
      if (parse_bool(v, &b)) nested = b;
      else tomp_warn("OMP_NESTED='%s' is not true or false; using the default (false)", v);
    }
  }
  bool bind_given;
  int blist = env_proc_bind(&bind_given);
  l = 1;
  if (env_int("OMP_MAX_ACTIVE_LEVELS", 0, &l)) {
    tomp_g.icv.max_active_levels =
        l > (long)TOMP_SUPPORTED_ACTIVE_LEVELS ? TOMP_SUPPORTED_ACTIVE_LEVELS : (unsigned)l;
  } else if (nested >= 0) {
    tomp_g.icv.max_active_levels = nested ? TOMP_SUPPORTED_ACTIVE_LEVELS : 1;
  } else if (nlist > 1 || blist > 1) {
    tomp_g.icv.max_active_levels = TOMP_SUPPORTED_ACTIVE_LEVELS;
  }

  env_stacksize();
  env_wait_policy();
  tomp_env_kmp_wait();
  tomp_env_spin_count_shown = tomp_spin_count;
  tomp_env_kmp_init();

  int canc = 0;
  env_bool("OMP_CANCELLATION", &canc);
  tomp_g.cancellation = canc;

  /* OpenMP 5.2: with offloading mandatory and no device but the host, the default device is
   * omp_invalid_device, so a device construct without a device clause terminates (device.c);
   * an explicit OMP_DEFAULT_DEVICE still wins. */
  env_target_offload();
  if (tomp_g.target_offload == TOMP_OFFLOAD_MANDATORY)
    tomp_g.icv.default_device = TOMP_INVALID_DEVICE;
  l = 0;
  if (env_int("OMP_DEFAULT_DEVICE", 0, &l)) tomp_g.icv.default_device = (int)l;
  l = 0;
  if (env_int("OMP_MAX_TASK_PRIORITY", 0, &l)) tomp_g.max_task_priority = (int)l;
  l = 0;
  if (env_int("OMP_NUM_TEAMS", 1, &l)) tomp_g.num_teams = (int)l;
  l = 0;
  if (env_int("OMP_TEAMS_THREAD_LIMIT", 1, &l)) tomp_g.teams_thread_limit = (int)l;

  env_debug();

  int da = 0;
  env_bool("OMP_DISPLAY_AFFINITY", &da);
  tomp_g.display_affinity = da;
  env_affinity_format();

  if (!tomp_env_kmp_affinity()) env_places(bind_given);
  tomp_env_kmp_report(); /* before the first binding, which KMP_AFFINITY=verbose shows */
  if (tomp_g.icv.bind != TOMP_BIND_FALSE) tomp_affinity_bind_initial();

  env_display_env();
  if (tomp_env_display) tomp_display_env_print(tomp_env_display == 2);
}
