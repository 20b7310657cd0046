/* OMP_DISPLAY_ENV, and the affinity format (OMP_DISPLAY_AFFINITY, OMP_AFFINITY_FORMAT, and
 * for the routines of src/api/display.c: omp_display_affinity, omp_capture_affinity).
 *
 * Streams: the environment block goes to stderr; the affinity lines (OMP_DISPLAY_AFFINITY's
 * and omp_display_affinity's) to stderr as libgomp writes them, or to stdout as libomp does
 * when the process's OpenMP code is all clang's (abi.h).  Each line is one write() so lines of
 * different threads do not interleave. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi.h"
#include "affinity.h"
#include "env_kmp.h"

/* ---- a growable string ----------------------------------------------------------------- */

typedef struct {
  char *p;
  size_t n, cap;
} str_t;

static void str_putn(str_t *s, const char *x, size_t n) {
  if (s->n + n + 1 > s->cap) {
    size_t cap = s->cap ? s->cap : 256;
    while (cap < s->n + n + 1)
      cap *= 2;
    char *np = tomp_malloc(cap);
    if (s->p) memcpy(np, s->p, s->n);
    free(s->p);
    s->p = np;
    s->cap = cap;
  }
  memcpy(s->p + s->n, x, n);
  s->n += n;
  s->p[s->n] = 0;
}

static void str_puts(str_t *s, const char *x) {
  str_putn(s, x, strlen(x));
}

static void __attribute__((format(printf, 2, 3))) str_printf(str_t *s, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof buf) {
    str_putn(s, buf, (size_t)n);
    return;
  }
  char *big = tomp_malloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  str_putn(s, big, (size_t)n);
  free(big);
}

static void write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w <= 0) return;
    p += w;
    n -= (size_t)w;
  }
}

/* ---- affinity format -------------------------------------------------------------------- */

/* The initial affinity-format-var is implementation defined: libgomp's, or libomp's when the
 * process's OpenMP code is all clang's (abi.h). */
static const char gnu_default_format[] = "level %L thread %i affinity %A";
static const char llvm_default_format[] = "OMP: pid %P tid %i thread %n bound to OS proc set {%A}";

const char *tomp_affinity_format_default(void) {
  return tomp_llvm_only() ? llvm_default_format : gnu_default_format;
}

static const struct {
  char c;
  const char *name;
} fields[] = {{'t', "team_num"},       {'T', "num_teams"},   {'L', "nesting_level"},
              {'n', "thread_num"},     {'N', "num_threads"}, {'a', "ancestor_tnum"},
              {'H', "host"},           {'P', "process_id"},  {'i', "native_thread_id"},
              {'A', "thread_affinity"}};

/* One %-field: "%[[[0].] size ] type" (OMP_AFFINITY_FORMAT, OpenMP 5.1 sec. 6.14). */
typedef struct {
  char c;     /* the field's short name, '%' for "%%", 0 for a type the table lacks */
  bool zero;  /* leading zeros */
  bool right; /* right-justified */
  int width;  /* minimum width, 0 for none */
} field_t;

/* Parse the %-field at *fmtp (just after its '%') and advance past it.  What the text leaves
 * open follows the program's compiler (llvm: libomp's reading; else libgomp's, or tomp's where
 * libgomp refuses the format):
 * - a 0 without the dot: libomp ignores it (left-justified, spaces: "%05n" is "0    "); tomp
 *   zero-fills and right-justifies ("00000"); libgomp 12 ends the program ("leading zero not
 *   followed by dot");
 * - an unknown type: libomp skips it (a short name, or a long name up to its closing brace)
 *   and prints "undefined"; libgomp 12 ends the program when it formats one; for gcc
 *   programs tomp refuses such a format (tomp_affinity_format_valid) and prints what it
 *   cannot read as it is.
 * A 0 on a field that is not a number (H, A) pads with spaces in both ("the result is
 * unspecified"). */
static field_t parse_field(const char **fmtp, bool llvm) {
  const char *f = *fmtp;
  field_t r = {0};
  if (*f == '%') {
    *fmtp = f + 1;
    r.c = '%';
    return r;
  }
  if (*f == '0') {
    r.zero = true;
    f++;
  }
  if (*f == '.') {
    r.right = true;
    f++;
  } else if (r.zero) {
    r.right = !llvm;
    r.zero = !llvm;
  }
  while (isdigit((unsigned char)*f)) {
    if (r.width < 100000) r.width = r.width * 10 + (*f - '0');
    f++;
  }
  if (*f == '{') {
    const char *e = f + 1;
    while (isalnum((unsigned char)*e) || *e == '_')
      e++;
    size_t len = (size_t)(e - f - 1);
    if (*e == '}')
      for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strlen(fields[i].name) == len && !strncmp(f + 1, fields[i].name, len))
          r.c = fields[i].c;
    if (r.c || llvm) f = *e == '}' ? e + 1 : e;
  } else {
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
      if (*f == fields[i].c) r.c = *f;
    if (r.c || (llvm && *f)) f++;
  }
  *fmtp = f;
  return r;
}

bool tomp_affinity_format_valid(const char *fmt) {
  if (tomp_llvm_only()) return true; /* libomp takes any format */
  for (const char *f = fmt; *f;) {
    if (*f++ != '%') continue;
    if (!parse_field(&f, false).c) return false;
  }
  return true;
}

static int ancestor_of_parent(tomp_thread_t *thr) {
  int lvl = thr->team ? (int)thr->team->level : 0;
  return tomp_ancestor_thread_num(thr, lvl - 1);
}

static void format_affinity(str_t *out, const char *fmt, tomp_thread_t *thr, bool llvm) {
  static int warned;
  for (const char *f = fmt; *f;) {
    if (*f != '%') {
      const char *e = strchr(f, '%');
      size_t n = e ? (size_t)(e - f) : strlen(f);
      str_putn(out, f, n);
      f += n;
      continue;
    }
    const char *start = f++;
    field_t fd = parse_field(&f, llvm);
    char val[4096];
    tomp_team_t *team = thr->team;
    unsigned league_size = tomp_icv_of(thr)->league_size; /* 0 outside a teams region: 1 team */
    switch (fd.c) {
    case '%':
      snprintf(val, sizeof val, "%%");
      break;
    case 't':
      snprintf(val, sizeof val, "%u", tomp_icv_of(thr)->league_num);
      break;
    case 'T':
      snprintf(val, sizeof val, "%u", league_size ? league_size : 1);
      break;
    case 'L':
      snprintf(val, sizeof val, "%u", team ? team->level : 0);
      break;
    case 'n':
      snprintf(val, sizeof val, "%u", team ? thr->tid : 0);
      break;
    case 'N':
      snprintf(val, sizeof val, "%u", team ? team->nthreads : 1);
      break;
    case 'a':
      snprintf(val, sizeof val, "%d", ancestor_of_parent(thr));
      break;
    case 'H':
      if (gethostname(val, sizeof val - 1)) snprintf(val, sizeof val, "unknown");
      val[sizeof val - 1] = 0;
      break;
    case 'P':
      snprintf(val, sizeof val, "%ld", (long)getpid());
      break;
    case 'i':
      snprintf(val, sizeof val, "%ld", (long)gettid());
      break;
    case 'A':
      tomp_cpus_format_self(val, sizeof val);
      break;
    default:
      if (llvm) {
        str_puts(out, "undefined");
        continue;
      }
      if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
        tomp_warn("affinity format '%s' has an unknown field at '%.*s'; printed as is", fmt,
                  (int)(f - start + 1), start);
      str_putn(out, start, (size_t)(f - start));
      continue;
    }
    int len = (int)strlen(val);
    if (fd.c == '%' || fd.width <= len) {
      str_puts(out, val);
    } else if (!fd.right) {
      str_puts(out, val);
      for (int i = len; i < fd.width; i++)
        str_putn(out, " ", 1);
    } else {
      /* zero padding goes after a number's sign: -1 in 7 digits is -000001 */
      const char *v = val;
      bool zero = fd.zero && fd.c != 'H' && fd.c != 'A';
      if (zero && *v == '-') str_putn(out, v++, 1);
      for (int i = len; i < fd.width; i++)
        str_putn(out, zero ? "0" : " ", 1);
      str_puts(out, v);
    }
  }
}

const char *tomp_affinity_format_current(void) {
  const char *f = __atomic_load_n(&tomp_g.affinity_format, __ATOMIC_ACQUIRE);
  return f ? f : tomp_affinity_format_default();
}

/* One line (a newline is added) on stdout, after what the program's stdio holds, or stderr. */
static void show_line(str_t *s, bool to_stdout) {
  str_putn(s, "\n", 1);
  if (to_stdout) fflush(stdout);
  write_all(to_stdout ? 1 : 2, s->p, s->n);
}

/* ---- OMP_DISPLAY_AFFINITY ----------------------------------------------------------------
 * OpenMP 5.0/5.1 sec. 6.13, OMP_DISPLAY_AFFINITY: the information is displayed "for all OpenMP
 * threads in the parallel region upon entering the first parallel region and when any change occurs
 * in the information accessible by the format specifiers"; "If affinity of any thread in a parallel
 * region changes then thread affinity information for all threads in that region is
 * displayed."  What counts is the information, every field of the table, not the format: a
 * new format alone shows nothing (as in libomp; LLVM's affinity_display.1.c checks it).  Each
 * thread formats that information (INFO_FORMAT) as it enters a region and compares it with
 * what it had when it last showed its line.  Threads enter one by one and none may wait for the
 * others (a worker of a large team releases its part of the team only after it entered), so a
 * region keeps, under its lock, the lines of the threads that found theirs unchanged; the
 * first thread whose information changed shows those too, and every later one shows its own.
 *
 * Where the lines go is the implementation's choice: libgomp writes them to stderr, libomp to
 * stdout (which LLVM's tests read), so clang programs get stdout (abi.h); omp_display_affinity
 * likewise. */

typedef struct {
  pthread_mutex_t lock;
  bool changed; /* some thread's line changed: every thread of the region shows its line */
  unsigned cap; /* entries of held */
  char **held;  /* by thread number: lines of threads that entered before a change was seen */
} disp_t;

#define INFO_FORMAT "%t %T %L %n %N %a %H %P %i %A" /* every field of the table */
static __thread char *last_info; /* this thread's INFO_FORMAT when it last showed its line */

void tomp_display_affinity_fork(tomp_team_t *team) {
  disp_t *d = team->aff_disp;
  if (!d) {
    d = tomp_calloc(1, sizeof *d);
    pthread_mutex_init(&d->lock, NULL);
    team->aff_disp = d;
  }
  for (unsigned i = 0; i < d->cap; i++) { /* the last region's threads found no change */
    free(d->held[i]);
    d->held[i] = NULL;
  }
  if (d->cap < team->nthreads) {
    free(d->held);
    d->held = tomp_calloc(team->nthreads, sizeof *d->held);
    d->cap = team->nthreads;
  }
  d->changed = false;
}

void tomp_display_affinity_free(tomp_team_t *team) {
  disp_t *d = team->aff_disp;
  if (!d) return;
  for (unsigned i = 0; i < d->cap; i++)
    free(d->held[i]);
  free(d->held);
  pthread_mutex_destroy(&d->lock);
  free(d);
  team->aff_disp = NULL;
}

void tomp_display_affinity_thread(tomp_thread_t *thr) {
  bool llvm = tomp_llvm_only();
  str_t s = {0};
  str_putn(&s, "", 0);
  format_affinity(&s, tomp_affinity_format_current(), thr, llvm);
  str_t info = {0};
  format_affinity(&info, INFO_FORMAT, thr, llvm);
  bool same = last_info && !strcmp(last_info, info.p);
  if (same) {
    free(info.p);
  } else {
    free(last_info);
    last_info = info.p;
  }
  disp_t *d = thr->team ? thr->team->aff_disp : NULL;
  if (!d) {
    if (!same) show_line(&s, llvm);
    free(s.p);
    return;
  }
  pthread_mutex_lock(&d->lock);
  if (!same && !d->changed) {
    d->changed = true;
    for (unsigned i = 0; i < d->cap; i++)
      if (d->held[i]) {
        str_t h = {.p = d->held[i], .n = strlen(d->held[i]), .cap = strlen(d->held[i]) + 1};
        show_line(&h, llvm);
        free(h.p);
        d->held[i] = NULL;
      }
  }
  if (!same || d->changed) {
    show_line(&s, llvm);
    free(s.p);
  } else if (thr->tid < d->cap) {
    d->held[thr->tid] = s.p; /* shown if another thread's line changes in this region */
  } else {
    free(s.p);
  }
  pthread_mutex_unlock(&d->lock);
}

size_t tomp_affinity_capture(char *buffer, size_t size, const char *format, tomp_thread_t *thr) {
  str_t s = {0};
  format_affinity(&s, format && *format ? format : tomp_affinity_format_current(), thr,
                  tomp_llvm_only());
  if (buffer && size) {
    size_t k = s.n < size - 1 ? s.n : size - 1;
    if (k) memcpy(buffer, s.p, k);
    buffer[k] = 0;
  }
  size_t n = s.n;
  free(s.p);
  return n;
}

void tomp_affinity_display(const char *format, tomp_thread_t *thr) {
  str_t s = {0};
  bool llvm = tomp_llvm_only();
  format_affinity(&s, format && *format ? format : tomp_affinity_format_current(), thr, llvm);
  show_line(&s, llvm);
  free(s.p);
}

/* ---- OMP_DISPLAY_ENV ------------------------------------------------------------------- */

static const char *bind_name(unsigned b) {
  switch (b) {
  case TOMP_BIND_FALSE:
    return "FALSE";
  case TOMP_BIND_TRUE:
    return "TRUE";
  case TOMP_BIND_PRIMARY:
    return "MASTER"; /* libgomp 12 still prints the 4.x name */
  case TOMP_BIND_CLOSE:
    return "CLOSE";
  case TOMP_BIND_SPREAD:
    return "SPREAD";
  default:
    return "?";
  }
}

void tomp_display_env_print(int verbose) {
  str_t s = {0};
  tomp_icv_t *icv = tomp_self ? tomp_icv_of(tomp_self) : &tomp_g.icv;
  str_puts(&s, "\nOPENMP DISPLAY ENVIRONMENT BEGIN\n");
  str_puts(&s, "  _OPENMP = '201511'\n");
  str_printf(&s, "  OMP_DYNAMIC = '%s'\n", icv->dyn ? "TRUE" : "FALSE");
  str_printf(&s, "  OMP_NESTED = '%s'\n", icv->max_active_levels > 1 ? "TRUE" : "FALSE");
  str_printf(&s, "  OMP_NUM_THREADS = '%u", icv->nthreads);
  for (unsigned i = 1; i < tomp_g.nthreads_list_len; i++)
    str_printf(&s, ",%u", tomp_g.nthreads_list[i]);
  str_puts(&s, "'\n");
  {
    unsigned k = (unsigned)icv->run_sched & ~TOMP_SCHED_MONOTONIC;
    bool mono = (icv->run_sched & (int)TOMP_SCHED_MONOTONIC) && k != TOMP_SCHED_STATIC;
    static const char *const kn[] = {"?", "STATIC", "DYNAMIC", "GUIDED", "AUTO"};
    str_printf(&s, "  OMP_SCHEDULE = '%s%s", mono ? "MONOTONIC:" : "", k <= 4 ? kn[k] : "?");
    int ch = icv->run_sched_chunk;
    if ((k == TOMP_SCHED_STATIC && ch > 0) ||
        ((k == TOMP_SCHED_DYNAMIC || k == TOMP_SCHED_GUIDED) && ch > 1) ||
        (k == TOMP_SCHED_AUTO && ch > 1))
      str_printf(&s, ",%d", ch);
    str_puts(&s, "'\n");
  }
  str_printf(&s, "  OMP_PROC_BIND = '%s", bind_name(icv->bind));
  for (unsigned i = 1; i < tomp_g.bind_list_len; i++)
    str_printf(&s, ",%s", bind_name(tomp_g.bind_list[i]));
  str_puts(&s, "'\n");
  {
    size_t n = tomp_places_format(NULL, 0);
    char *p = tomp_malloc(n + 1);
    tomp_places_format(p, n + 1);
    str_printf(&s, "  OMP_PLACES = '%s'\n", p);
    free(p);
  }
  str_printf(&s, "  OMP_STACKSIZE = '%zu'\n", tomp_g.stacksize);
  str_printf(&s, "  OMP_WAIT_POLICY = '%s'\n", tomp_g.wait_policy == 1 ? "ACTIVE" : "PASSIVE");
  str_printf(&s, "  OMP_THREAD_LIMIT = '%u'\n",
             icv->thread_limit >= (~0u >> 1) ? ~0u : icv->thread_limit);
  str_printf(&s, "  OMP_MAX_ACTIVE_LEVELS = '%u'\n", icv->max_active_levels);
  str_printf(&s, "  OMP_NUM_TEAMS = '%d'\n", tomp_g.num_teams);
  str_printf(&s, "  OMP_TEAMS_THREAD_LIMIT = '%d'\n", tomp_g.teams_thread_limit);
  str_printf(&s, "  OMP_CANCELLATION = '%s'\n", tomp_g.cancellation ? "TRUE" : "FALSE");
  str_printf(&s, "  OMP_DEFAULT_DEVICE = '%d'\n", icv->default_device);
  str_printf(&s, "  OMP_MAX_TASK_PRIORITY = '%d'\n", tomp_g.max_task_priority);
  str_printf(&s, "  OMP_DISPLAY_AFFINITY = '%s'\n", tomp_g.display_affinity ? "TRUE" : "FALSE");
  str_printf(&s, "  OMP_AFFINITY_FORMAT = '%s'\n", tomp_affinity_format_current());
  {
    const char *a = getenv("OMP_ALLOCATOR");
    str_printf(&s, "  OMP_ALLOCATOR = '%s'\n", a && *a ? a : "omp_default_mem_alloc");
  }
  str_printf(&s, "  OMP_TARGET_OFFLOAD = '%s'\n",
             tomp_g.target_offload == TOMP_OFFLOAD_MANDATORY  ? "MANDATORY"
             : tomp_g.target_offload == TOMP_OFFLOAD_DISABLED ? "DISABLED"
                                                              : "DEFAULT");
  if (verbose) {
    str_puts(&s, "  GOMP_CPU_AFFINITY = ''\n");
    str_printf(&s, "  GOMP_STACKSIZE = '%zu'\n", tomp_g.stacksize);
    str_printf(&s, "  GOMP_SPINCOUNT = '%lu'\n", tomp_env_spin_count_shown);
  }
  str_puts(&s, "OPENMP DISPLAY ENVIRONMENT END\n");
  fflush(stderr);
  write_all(2, s.p, s.n);
  free(s.p);
}

/* ---- KMP_SETTINGS (env_kmp.h) ---------------------------------------------------------- */

const char *tomp_bind_word(unsigned bind) {
  static const char *const words[] = {"false", "true", "primary", "close", "spread"};
  return bind < sizeof words / sizeof words[0] ? words[bind] : "false";
}

/* A size as libomp lists it: the largest unit that divides it (k, M, G), else bytes. */
static void size_text(str_t *s, size_t n) {
  if (n && n % (1ul << 30) == 0) str_printf(s, "%zuG", n >> 30);
  else if (n && n % (1ul << 20) == 0) str_printf(s, "%zuM", n >> 20);
  else if (n && n % (1ul << 10) == 0) str_printf(s, "%zuk", n >> 10);
  else str_printf(s, "%zu", n);
}

static int cmp_env_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* libomp's listing: the OpenMP-related variables set ("User settings"), then the settings in
 * effect ("Effective settings"), each "   NAME=value" or "   NAME: value is not defined", on
 * stderr.  Lists what tomp reads (docs/kmp-abi.md). */
void tomp_kmp_settings_print(void) {
  str_t s = {0};
  str_puts(&s, "\nUser settings:\n\n");
  size_t n = 0;
  for (char **e = environ; e && *e; e++) n++;
  char **set = tomp_calloc(n + 1, sizeof *set);
  size_t k = 0;
  for (char **e = environ; e && *e; e++)
    if (!strncmp(*e, "KMP_", 4) || !strncmp(*e, "OMP_", 4) || !strncmp(*e, "GOMP_", 5) ||
        !strncmp(*e, "LIBOMP_", 7))
      set[k++] = *e;
  qsort(set, k, sizeof *set, cmp_env_name);
  for (size_t i = 0; i < k; i++) str_printf(&s, "   %s\n", set[i]);
  free(set);

  str_puts(&s, "\nEffective settings:\n\n");
  tomp_icv_t *icv = &tomp_g.icv;
  str_printf(&s, "   KMP_BLOCKTIME=%d\n", tomp_g.kmp_blocktime);
  str_printf(&s, "   KMP_DETERMINISTIC_REDUCTION=%s\n",
             tomp_g.kmp_deterministic_reduction ? "true" : "false");
  str_printf(&s, "   KMP_DISP_NUM_BUFFERS=%d\n", tomp_g.kmp_disp_num_buffers);
  str_printf(&s, "   KMP_ENABLE_TASK_THROTTLING=%s\n", tomp_g.task_throttling ? "true" : "false");
  const char *hw = getenv("KMP_HW_SUBSET");
  if (hw) str_printf(&s, "   KMP_HW_SUBSET='%s'\n", hw);
  else str_puts(&s, "   KMP_HW_SUBSET: value is not defined\n");
  static const char *const libs[] = {"?", "serial", "turnaround", "throughput"};
  str_printf(&s, "   KMP_LIBRARY=%s\n", libs[tomp_g.kmp_library & 3]);
  str_puts(&s, "   KMP_SETTINGS=true\n");
  size_t stack = tomp_g.stacksize;
  if (!stack) { /* the system's default, which workers get */
    pthread_attr_t a;
    if (pthread_attr_init(&a) == 0) {
      pthread_attr_getstacksize(&a, &stack);
      pthread_attr_destroy(&a);
    }
  }
  str_puts(&s, "   KMP_STACKSIZE=");
  size_text(&s, stack);
  str_puts(&s, "\n");
  str_printf(&s, "   KMP_TEAMS_PROC_BIND=%s\n",
             tomp_bind_word((unsigned)tomp_g.kmp_teams_proc_bind));
  if (tomp_g.kmp_teams_thread_limit)
    str_printf(&s, "   KMP_TEAMS_THREAD_LIMIT=%d\n", tomp_g.kmp_teams_thread_limit);
  else str_puts(&s, "   KMP_TEAMS_THREAD_LIMIT: value is not defined\n");
  str_printf(&s, "   KMP_WARNINGS=%s\n", tomp_warnings_off ? "false" : "true");
  str_printf(&s, "   OMP_AFFINITY_FORMAT='%s'\n", tomp_affinity_format_current());
  const char *a = getenv("OMP_ALLOCATOR");
  str_printf(&s, "   OMP_ALLOCATOR=%s\n", a && *a ? a : "omp_default_mem_alloc");
  str_printf(&s, "   OMP_CANCELLATION=%s\n", tomp_g.cancellation ? "true" : "false");
  str_printf(&s, "   OMP_DEFAULT_DEVICE=%d\n", icv->default_device);
  str_printf(&s, "   OMP_DISPLAY_AFFINITY=%s\n", tomp_g.display_affinity ? "true" : "false");
  str_printf(&s, "   OMP_DISPLAY_ENV=%s\n", tomp_env_display ? "true" : "false");
  str_printf(&s, "   OMP_DYNAMIC=%s\n", icv->dyn ? "true" : "false");
  str_printf(&s, "   OMP_MAX_ACTIVE_LEVELS=%u\n", icv->max_active_levels);
  str_printf(&s, "   OMP_MAX_TASK_PRIORITY=%d\n", tomp_g.max_task_priority);
  str_printf(&s, "   OMP_NUM_TEAMS=%d\n", tomp_g.num_teams);
  if (getenv("OMP_NUM_THREADS")) {
    str_printf(&s, "   OMP_NUM_THREADS='%u", tomp_g.nthreads_list[0]);
    for (unsigned i = 1; i < tomp_g.nthreads_list_len; i++)
      str_printf(&s, ",%u", tomp_g.nthreads_list[i]);
    str_puts(&s, "'\n");
  } else {
    str_puts(&s, "   OMP_NUM_THREADS: value is not defined\n");
  }
  if (tomp_env_places_name) {
    str_printf(&s, "   OMP_PLACES='%s'\n", tomp_env_places_name);
  } else if (tomp_nplaces) {
    size_t pn = tomp_places_format(NULL, 0);
    char *p = tomp_malloc(pn + 1);
    tomp_places_format(p, pn + 1);
    str_printf(&s, "   OMP_PLACES='%s'\n", p);
    free(p);
  } else {
    str_puts(&s, "   OMP_PLACES: value is not defined\n");
  }
  str_printf(&s, "   OMP_PROC_BIND='%s", tomp_bind_word(tomp_g.bind_list[0]));
  for (unsigned i = 1; i < tomp_g.bind_list_len; i++)
    str_printf(&s, ",%s", tomp_bind_word(tomp_g.bind_list[i]));
  str_puts(&s, "'\n");
  {
    /* as clang code reads run-sched-var (docs/kmp-abi.md, "Schedules") */
    static const char *const kinds[] = {"?",    "static",      "dynamic",     "guided",
                                        "auto", "trapezoidal", "static_steal"};
    int kind = tomp_g.run_sched_kmp & ~(int)TOMP_SCHED_MONOTONIC;
    str_printf(&s, "   OMP_SCHEDULE='%s%s", tomp_g.run_sched_kmp < 0 ? "monotonic:" : "",
               kinds[kind >= 0 && kind <= 6 ? kind : 0]);
    if (tomp_g.run_sched_kmp_chunk > 0) str_printf(&s, ",%d", tomp_g.run_sched_kmp_chunk);
    str_puts(&s, "'\n");
  }
  str_puts(&s, "   OMP_STACKSIZE=");
  if (stack % 1024) str_printf(&s, "%zu", stack / 1024);
  else size_text(&s, stack);
  str_printf(&s, "\n   OMP_TARGET_OFFLOAD=%s\n",
             tomp_g.target_offload == TOMP_OFFLOAD_MANDATORY  ? "MANDATORY"
             : tomp_g.target_offload == TOMP_OFFLOAD_DISABLED ? "DISABLED"
                                                              : "DEFAULT");
  str_printf(&s, "   OMP_TEAMS_THREAD_LIMIT=%d\n", tomp_g.teams_thread_limit);
  str_printf(&s, "   OMP_THREAD_LIMIT=%u\n", icv->thread_limit);
  str_printf(&s, "   OMP_WAIT_POLICY=%s\n", tomp_g.wait_policy == 1 ? "ACTIVE" : "PASSIVE");
  /* libomp lists KMP_AFFINITY last */
  str_printf(&s, "   KMP_AFFINITY='%s'\n\n", tomp_env_kmp_affinity_shown());
  fflush(stderr);
  write_all(2, s.p, s.n);
  free(s.p);
}
