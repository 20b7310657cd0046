/* OMP_DISPLAY_ENV, and the affinity format (OMP_DISPLAY_AFFINITY, OMP_AFFINITY_FORMAT, and
 * for the routines of src/api/display.c: omp_display_affinity, omp_capture_affinity).
 *
 * Streams follow libgomp: the environment block and the automatic OMP_DISPLAY_AFFINITY
 * lines go to stderr, omp_display_affinity() to stdout.  Each is one write() so lines of
 * different threads do not interleave. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "affinity.h"

const char tomp_default_affinity_format[] = "level %L thread %i affinity %A";

/* ---- a growable string ----------------------------------------------------------------- */

typedef struct {
  char *p;
  size_t n, cap;
} str_t;

static void str_putn(str_t *s, const char *x, size_t n) {
  if (s->n + n + 1 > s->cap) {
    size_t cap = s->cap ? s->cap : 256;
    while (cap < s->n + n + 1) cap *= 2;
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

static void str_puts(str_t *s, const char *x) { str_putn(s, x, strlen(x)); }

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

static const struct {
  char c;
  const char *name;
} fields[] = {{'t', "team_num"},      {'T', "num_teams"},        {'L', "nesting_level"},
              {'n', "thread_num"},    {'N', "num_threads"},      {'a', "ancestor_tnum"},
              {'H', "host"},          {'P', "process_id"},       {'i', "native_thread_id"},
              {'A', "thread_affinity"}};

/* Parse one %-field at fmt (just after '%'): flags, width and field letter.  Returns the
 * field letter ('%' for "%%") or 0 if unknown, and advances *fmtp past it. */
static char parse_field(const char **fmtp, bool *zero, bool *right, int *width) {
  const char *f = *fmtp;
  *zero = *right = false;
  *width = 0;
  if (*f == '%') {
    *fmtp = f + 1;
    return '%';
  }
  if (*f == '0') {
    *zero = *right = true;
    f++;
  }
  if (*f == '.') {
    *right = true;
    f++;
  }
  while (isdigit((unsigned char)*f)) {
    if (*width < 100000) *width = *width * 10 + (*f - '0');
    f++;
  }
  char c = 0;
  if (*f == '{') {
    const char *e = strchr(f, '}');
    if (e) {
      for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strlen(fields[i].name) == (size_t)(e - f - 1) &&
            !strncmp(f + 1, fields[i].name, (size_t)(e - f - 1)))
          c = fields[i].c;
      if (c) f = e + 1;
    }
  } else {
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
      if (*f == fields[i].c) c = *f;
    if (c) f++;
  }
  *fmtp = f;
  return c;
}

bool tomp_affinity_format_valid(const char *fmt) {
  for (const char *f = fmt; *f;) {
    if (*f++ != '%') continue;
    bool z, r;
    int w;
    if (!parse_field(&f, &z, &r, &w)) return false;
  }
  return true;
}

static int ancestor_of_parent(tomp_thread_t *thr) {
  int lvl = thr->team ? (int)thr->team->level : 0;
  return tomp_ancestor_thread_num(thr, lvl - 1);
}

static void format_affinity(str_t *out, const char *fmt, tomp_thread_t *thr) {
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
    bool zero, right;
    int width;
    char c = parse_field(&f, &zero, &right, &width);
    char val[4096];
    tomp_team_t *team = thr->team;
    unsigned league_size = tomp_icv_of(thr)->league_size; /* 0 outside a teams region: 1 team */
    switch (c) {
    case '%': snprintf(val, sizeof val, "%%"); break;
    case 't': snprintf(val, sizeof val, "%u", tomp_icv_of(thr)->league_num); break;
    case 'T': snprintf(val, sizeof val, "%u", league_size ? league_size : 1); break;
    case 'L': snprintf(val, sizeof val, "%u", team ? team->level : 0); break;
    case 'n': snprintf(val, sizeof val, "%u", team ? thr->tid : 0); break;
    case 'N': snprintf(val, sizeof val, "%u", team ? team->nthreads : 1); break;
    case 'a': snprintf(val, sizeof val, "%d", ancestor_of_parent(thr)); break;
    case 'H':
      if (gethostname(val, sizeof val - 1)) snprintf(val, sizeof val, "unknown");
      val[sizeof val - 1] = 0;
      break;
    case 'P': snprintf(val, sizeof val, "%ld", (long)getpid()); break;
    case 'i': snprintf(val, sizeof val, "%ld", (long)gettid()); break;
    case 'A': tomp_cpus_format_self(val, sizeof val); break;
    default:
      if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
        tomp_warn("affinity format '%s' has an unknown field at '%.*s'; printed as is", fmt,
                  (int)(f - start + 1), start);
      str_putn(out, start, (size_t)(f - start));
      continue;
    }
    int len = (int)strlen(val);
    if (c == '%' || width <= len) {
      str_puts(out, val);
    } else if (!right) {
      str_puts(out, val);
      for (int i = len; i < width; i++) str_putn(out, " ", 1);
    } else {
      /* zero padding goes after a number's sign: -1 in 7 digits is -000001 */
      const char *v = val;
      if (zero && *v == '-' && c != 'H' && c != 'A') str_putn(out, v++, 1);
      for (int i = len; i < width; i++) str_putn(out, zero ? "0" : " ", 1);
      str_puts(out, v);
    }
  }
}

const char *tomp_affinity_format_current(void) {
  const char *f = __atomic_load_n(&tomp_g.affinity_format, __ATOMIC_ACQUIRE);
  return f ? f : tomp_default_affinity_format;
}

static uint64_t hash_str(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

/* Hash of the last line shown for this thread: OMP_DISPLAY_AFFINITY shows a thread's line
 * when it first runs in a region and whenever what the format reports changes. */
static __thread uint64_t last_shown;

void tomp_display_affinity_thread(tomp_thread_t *thr) {
  str_t s = {0};
  format_affinity(&s, tomp_affinity_format_current(), thr);
  uint64_t h = hash_str(s.p ? s.p : "", s.n) | 1;
  if (h != last_shown) {
    last_shown = h;
    str_putn(&s, "\n", 1);
    write_all(2, s.p, s.n);
  }
  free(s.p);
}

size_t tomp_affinity_capture(char *buffer, size_t size, const char *format, tomp_thread_t *thr) {
  str_t s = {0};
  format_affinity(&s, format && *format ? format : tomp_affinity_format_current(), thr);
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
  format_affinity(&s, format && *format ? format : tomp_affinity_format_current(), thr);
  str_putn(&s, "\n", 1);
  fflush(stdout);
  write_all(1, s.p, s.n);
  free(s.p);
}

/* ---- OMP_DISPLAY_ENV ------------------------------------------------------------------- */

static const char *bind_name(unsigned b) {
  switch (b) {
  case TOMP_BIND_FALSE: return "FALSE";
  case TOMP_BIND_TRUE: return "TRUE";
  case TOMP_BIND_PRIMARY: return "MASTER"; /* libgomp 12 still prints the 4.x name */
  case TOMP_BIND_CLOSE: return "CLOSE";
  case TOMP_BIND_SPREAD: return "SPREAD";
  default: return "?";
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
    if ((k == TOMP_SCHED_STATIC && ch > 0) || ((k == TOMP_SCHED_DYNAMIC || k == TOMP_SCHED_GUIDED) && ch > 1) ||
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
