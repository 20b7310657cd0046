/* libomp's own API routines (kmp_* and kmpc_*, declared by LLVM's omp.h as extensions) that
 * programs and LLVM's runtime tests call.  Settings tomp has no counterpart for are kept and
 * answered back (blocktime, library mode), so a program that sets and reads them sees its
 * values; what each one does on tomp is in docs/kmp-abi.md.  The ompc_* names are other names
 * of omp_* routines (src/kmp/aliases.ld). */
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "env_kmp.h"
#include "kmp.h"
#include "ws.h"

/* ---- stack size: for worker threads not yet created (tomp makes workers on demand) ---- */

TOMP_EXPORT void kmp_set_stacksize_s(size_t size) {
  tomp_thread();
  if (size < 16384) {
    tomp_warn("kmp_set_stacksize: %zu bytes is too small; value unchanged", size);
    return;
  }
  tomp_g.stacksize = size;
}
TOMP_EXPORT void kmp_set_stacksize(int size) {
  kmp_set_stacksize_s(size > 0 ? (size_t)size : 0);
}
TOMP_EXPORT size_t kmp_get_stacksize_s(void) {
  tomp_thread();
  if (tomp_g.stacksize) return tomp_g.stacksize;
  /* no setting: the system's default for new threads, which workers get */
  pthread_attr_t a;
  size_t size = 0;
  if (pthread_attr_init(&a) == 0) {
    pthread_attr_getstacksize(&a, &size);
    pthread_attr_destroy(&a);
  }
  return size;
}
TOMP_EXPORT int kmp_get_stacksize(void) {
  return (int)kmp_get_stacksize_s();
}

/* ---- blocktime and library mode: set from KMP_BLOCKTIME, KMP_LIBRARY and OMP_WAIT_POLICY at
 * start-up (src/core/env_kmp.c, which maps them onto tomp's waits); kmp_set_blocktime sets the
 * waits of the whole process from then on (libomp's: the calling thread's team), the library
 * mode set is kept and answered ------------------------------------------------------------ */

static int blocktime = -1; /* milliseconds; -1: not set, the environment's */
static int library;        /* 0: not set, the environment's */

TOMP_EXPORT void kmp_set_blocktime(int ms) {
  tomp_thread();
  if (ms < 0) ms = 0;
  __atomic_store_n(&blocktime, ms, __ATOMIC_RELAXED);
  tomp_kmp_blocktime_apply(ms);
}
/* Unset, it answers as libomp does: KMP_BLOCKTIME, else by the wait policy: active spins
 * forever (INT_MAX), passive sleeps at once (0), otherwise libomp's default of 200 ms. */
TOMP_EXPORT int kmp_get_blocktime(void) {
  int b = __atomic_load_n(&blocktime, __ATOMIC_RELAXED);
  if (b >= 0) return b;
  tomp_thread();
  return tomp_g.kmp_blocktime;
}
TOMP_EXPORT void kmp_set_library(int mode) {
  if (mode < 1 || mode > 3) {
    tomp_warn("kmp_set_library(%d): not serial (1), turnaround (2) or throughput (3); unchanged",
              mode);
    return;
  }
  __atomic_store_n(&library, mode, __ATOMIC_RELAXED);
}
TOMP_EXPORT void kmp_set_library_serial(void) {
  kmp_set_library(1);
}
TOMP_EXPORT void kmp_set_library_turnaround(void) {
  kmp_set_library(2);
}
TOMP_EXPORT void kmp_set_library_throughput(void) {
  kmp_set_library(3);
}
TOMP_EXPORT int kmp_get_library(void) {
  int l = __atomic_load_n(&library, __ATOMIC_RELAXED);
  if (l) return l;
  tomp_thread();
  return tomp_g.kmp_library;
}

/* kmp_set_defaults("NAME=value ..."): libomp takes the settings as if they were in the
 * environment.  tomp takes OMP_TARGET_OFFLOAD (as libomp: any case; a value other than
 * disabled or mandatory is default), which programs set so before they use devices; other
 * settings are read once at start-up: one warning, ignored. */
static void set_default(const char *item, size_t n) {
  static const char name[] = "OMP_TARGET_OFFLOAD=";
  size_t k = sizeof name - 1;
  if (n > k && strncasecmp(item, name, k) == 0) {
    const char *v = item + k;
    size_t vn = n - k;
    int kind = TOMP_OFFLOAD_DEFAULT;
    if (vn == 8 && strncasecmp(v, "disabled", vn) == 0) kind = TOMP_OFFLOAD_DISABLED;
    if (vn == 9 && strncasecmp(v, "mandatory", vn) == 0) kind = TOMP_OFFLOAD_MANDATORY;
    __atomic_store_n(&tomp_g.target_offload, kind, __ATOMIC_RELAXED);
    return;
  }
  static int warned;
  if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
    tomp_warn("kmp_set_defaults(\"%.*s\"): ignored (tomp reads its settings from the environment "
              "at start-up)",
              (int)n, item);
}

TOMP_EXPORT void kmp_set_defaults(const char *str) {
  tomp_thread();
  if (!str) return;
  /* items separated by blanks or '|' */
  for (const char *p = str; *p;) {
    size_t n = strcspn(p, " \t|");
    if (n) set_default(p, n);
    p += n;
    p += strspn(p, " \t|");
  }
}
/* Kept and answered in the KMP_SETTINGS listing only: tomp's dynamic loops have no fixed ring
 * of buffers.  libomp takes a value in 1..4096 before its initialisation; tomp is initialised
 * when it is loaded, so this changes nothing either way. */
TOMP_EXPORT void kmp_set_disp_num_buffers(int n) {
  (void)n;
}
TOMP_EXPORT void kmp_set_warnings_on(void) {
  __atomic_store_n(&tomp_warnings_off, false, __ATOMIC_RELAXED);
}
TOMP_EXPORT void kmp_set_warnings_off(void) {
  __atomic_store_n(&tomp_warnings_off, true, __ATOMIC_RELAXED);
}

/* ---- memory --------------------------------------------------------------------------- */

TOMP_EXPORT void *kmp_malloc(size_t size) {
  return malloc(size);
}
TOMP_EXPORT void *kmp_calloc(size_t n, size_t size) {
  return calloc(n, size);
}
TOMP_EXPORT void *kmp_realloc(void *p, size_t size) {
  return realloc(p, size);
}
TOMP_EXPORT void kmp_free(void *p) {
  free(p);
}
TOMP_EXPORT void *kmp_aligned_malloc(size_t size, size_t align) {
  void *p;
  if (align < sizeof(void *) || (align & (align - 1))) return NULL; /* not a power of two */
  return posix_memalign(&p, align, size) ? NULL : p;
}

/* ---- cancellation status (kinds: 1 parallel, 2 loop, 3 sections, 4 taskgroup) ----------- */

TOMP_EXPORT int kmp_get_cancellation_status(int kind) {
  tomp_thread_t *thr = tomp_thread();
  if (!tomp_g.cancellation) return 0;
  switch (kind) {
  case 1:
    return tomp_ws_region_cancelled(thr);
  case 2:
  case 3:
    return tomp_ws_cancel_point(thr);
  default:
    return 0;
  }
}

/* ---- affinity masks: a kmp_affinity_mask_t holds a pointer to a cpu_set_t ------------- */

TOMP_EXPORT int kmp_get_affinity_max_proc(void) {
  return CPU_SETSIZE;
}
TOMP_EXPORT void kmp_create_affinity_mask(void **mask) {
  cpu_set_t *s = tomp_calloc(1, sizeof *s);
  *mask = s;
}
TOMP_EXPORT void kmp_destroy_affinity_mask(void **mask) {
  free(*mask);
  *mask = NULL;
}
static cpu_set_t *mask_set(void **mask) {
  return mask ? *mask : NULL;
}
TOMP_EXPORT int kmp_set_affinity_mask_proc(int proc, void **mask) {
  cpu_set_t *s = mask_set(mask);
  if (!s || proc < 0 || proc >= CPU_SETSIZE) return -1;
  CPU_SET(proc, s);
  return 0;
}
TOMP_EXPORT int kmp_unset_affinity_mask_proc(int proc, void **mask) {
  cpu_set_t *s = mask_set(mask);
  if (!s || proc < 0 || proc >= CPU_SETSIZE) return -1;
  CPU_CLR(proc, s);
  return 0;
}
TOMP_EXPORT int kmp_get_affinity_mask_proc(int proc, void **mask) {
  cpu_set_t *s = mask_set(mask);
  if (!s || proc < 0 || proc >= CPU_SETSIZE) return -1;
  return CPU_ISSET(proc, s) != 0;
}
TOMP_EXPORT int kmp_set_affinity(void **mask) {
  cpu_set_t *s = mask_set(mask);
  if (!s) return -1;
  return sched_setaffinity(0, sizeof *s, s) ? -1 : 0;
}
TOMP_EXPORT int kmp_get_affinity(void **mask) {
  cpu_set_t *s = mask_set(mask);
  if (!s) return -1;
  return sched_getaffinity(0, sizeof *s, s) ? -1 : 0;
}

/* ---- the kmpc_* spellings (same routines, other names) -------------------------------- */

TOMP_EXPORT void *kmpc_malloc(size_t size) {
  return malloc(size);
}
TOMP_EXPORT void *kmpc_calloc(size_t n, size_t size) {
  return calloc(n, size);
}
TOMP_EXPORT void *kmpc_realloc(void *p, size_t size) {
  return realloc(p, size);
}
TOMP_EXPORT void kmpc_free(void *p) {
  free(p);
}
TOMP_EXPORT void *kmpc_aligned_malloc(size_t size, size_t align) {
  return kmp_aligned_malloc(size, align);
}
TOMP_EXPORT void kmpc_set_stacksize(int size) {
  kmp_set_stacksize(size);
}
TOMP_EXPORT void kmpc_set_stacksize_s(size_t size) {
  kmp_set_stacksize_s(size);
}
TOMP_EXPORT void kmpc_set_blocktime(int ms) {
  kmp_set_blocktime(ms);
}
TOMP_EXPORT void kmpc_set_library(int mode) {
  kmp_set_library(mode);
}
TOMP_EXPORT void kmpc_set_defaults(const char *str) {
  kmp_set_defaults(str);
}
TOMP_EXPORT void kmpc_set_disp_num_buffers(int n) {
  (void)n;
}
