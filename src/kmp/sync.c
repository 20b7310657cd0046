/* Synchronisation constructs of LLVM's ABI: critical, master/masked, single and copyprivate,
 * flush, ordered and doacross.
 *
 * A critical section's name is a kmp_critical_name the program holds once per name: 32
 * zeroed bytes.  Its first 4 bytes are tomp's lock word (core/lock.h) in place, as gcc's
 * name slot is: zero is already the unlocked state, so a name costs no allocation and no
 * lazy pointer to publish.  The unnamed critical (and a named one gcc-built code uses too)
 * takes the lock gcc's code takes instead: critname.h looks at each name once.  Hints
 * (critical_with_hint) are advisory (OpenMP 5.2 15.1: a hint does not change semantics); tools are
 * told the hint. */
#include <stdio.h>
#include <string.h>

#include "critname.h"
#include "kmp.h"
#include "lock.h"
#include "ws.h"

/* ---- critical ----------------------------------------------------------------------------- */

static TOMP_OBSERVED_TWIN void critical_observed(const void *ra, void *fp, uint32_t *w,
                                                 unsigned hint) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  tomp_ev_mutex_acquire(thr, TOMP_MUTEX_CRITICAL, hint, w);
  tomp_lockword_acquire(w, ompt_state_wait_critical);
  tomp_ev_mutex_acquired(thr, TOMP_MUTEX_CRITICAL, w);
}

static TOMP_OBSERVED_TWIN void end_critical_observed(const void *ra, void *fp, uint32_t *w) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  tomp_lockword_release(w);
  tomp_ev_mutex_released(thr, TOMP_MUTEX_CRITICAL, w);
}

/* A tool listens, or the name is used for the first time (critname.h): out of line, so the
 * entry points' common path stays one load, one branch and the lock word's CAS. */
static TOMP_OBSERVED_TWIN void critical_other(const void *ra, void *fp, kmp_critical_name *crit,
                                              unsigned hint) {
  uint32_t *w = tomp_kmp_crit_word(crit);
  if (tomp_listening())
    critical_observed(ra, fp, w, hint);
  else
    tomp_lockword_acquire(w, ompt_state_wait_critical);
}

static TOMP_OBSERVED_TWIN void end_critical_other(const void *ra, void *fp,
                                                  kmp_critical_name *crit) {
  uint32_t *w = tomp_kmp_crit_word(crit);
  if (tomp_listening())
    end_critical_observed(ra, fp, w);
  else
    tomp_lockword_release(w);
}

/* The name's own lock word, or NULL when critical_other must decide. */
static inline uint32_t *crit_own(kmp_critical_name *crit) {
  kmp_crit_slot_t *s = (kmp_crit_slot_t *)(void *)crit;
  if (tomp_unlikely(tomp_listening()) ||
      tomp_unlikely(__atomic_load_n(&s->kind, __ATOMIC_ACQUIRE) != TOMP_CRIT_OWN))
    return NULL;
  return &s->word;
}

TOMP_EXPORT void __kmpc_critical(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit) {
  (void)loc, (void)gtid;
  uint32_t *w = crit_own(crit);
  if (!w) return critical_other(TOMP_CODEPTR(), TOMP_ENTRY_FRAME(), crit, 0);
  tomp_lockword_acquire(w, ompt_state_wait_critical);
}

TOMP_EXPORT void __kmpc_critical_with_hint(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit,
                                           uint32_t hint) {
  (void)loc, (void)gtid;
  uint32_t *w = crit_own(crit);
  if (!w) return critical_other(TOMP_CODEPTR(), TOMP_ENTRY_FRAME(), crit, hint);
  tomp_lockword_acquire(w, ompt_state_wait_critical);
}

TOMP_EXPORT void __kmpc_end_critical(ident_t *loc, kmp_int32 gtid, kmp_critical_name *crit) {
  (void)loc, (void)gtid;
  uint32_t *w = crit_own(crit);
  if (!w) return end_critical_other(TOMP_CODEPTR(), TOMP_ENTRY_FRAME(), crit);
  tomp_lockword_release(w);
}

/* ---- master / masked ------------------------------------------------------------------ */

/* OpenMP 5.2 10.5: the filter selects a thread number of the binding team; outside a team
 * the one thread is number 0.  The selected thread's masked-begin and -end events (OMPT's
 * masked callback, for master too): gcc inlines the construct, clang calls here. */
static TOMP_OBSERVED_TWIN kmp_int32 masked_observed(const void *ra, void *fp, kmp_int32 filter) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  bool mine = thr->tid == (unsigned)filter;
  if (mine && TOMP_EV_WANTED(TOMP_EV_MASKED)) tomp_ev_masked_(thr, ompt_scope_begin);
  return mine;
}

static TOMP_OBSERVED_TWIN void end_masked_observed(const void *ra, void *fp) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  if (TOMP_EV_WANTED(TOMP_EV_MASKED)) tomp_ev_masked_(thr, ompt_scope_end);
}

TOMP_EXPORT kmp_int32 __kmpc_masked(ident_t *loc, kmp_int32 gtid, kmp_int32 filter) {
  (void)loc, (void)gtid;
  TOMP_OBSERVED_PATH(masked_observed, filter);
  return tomp_thread()->tid == (unsigned)filter;
}
TOMP_EXPORT void __kmpc_end_masked(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
  TOMP_OBSERVED_PATH(end_masked_observed);
}

TOMP_EXPORT kmp_int32 __kmpc_master(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
  TOMP_OBSERVED_PATH(masked_observed, 0);
  return tomp_thread()->tid == 0;
}
TOMP_EXPORT void __kmpc_end_master(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
  TOMP_OBSERVED_PATH(end_masked_observed);
}

/* ---- single and copyprivate ------------------------------------------------------------ */

static TOMP_OBSERVED_TWIN kmp_int32 single_observed(const void *ra, void *fp) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  return tomp_single_start(thr);
}

TOMP_EXPORT kmp_int32 __kmpc_single(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
  TOMP_OBSERVED_PATH_THR(thr, single_observed);
  return tomp_single_start_quiet(thr);
}

/* The executor leaves the block: its work-end event, which gcc's ABI never shows (core
 * defers it to the executor's next event; here the call says when). */
TOMP_EXPORT void __kmpc_end_single(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
  if (tomp_listening()) {
    tomp_thread_t *thr = tomp_thread();
    TOMP_ENTRY(thr);
    tomp_ev_single_flush_(thr);
  }
}

/* After a single with copyprivate every thread calls this; didit says which one executed
 * the block.  The others copy from its variables with cpy_func(own, executor's), and nobody
 * leaves before all have copied: two barriers around the copy (the second replaces the
 * construct's own, which the compiler leaves out). */
TOMP_EXPORT void __kmpc_copyprivate(ident_t *loc, kmp_int32 gtid, size_t cpy_size, void *cpy_data,
                                    void (*cpy_func)(void *, void *), kmp_int32 didit) {
  (void)loc, (void)gtid, (void)cpy_size;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_team_t *team = thr->team;
  if (!team || team->nthreads == 1) return;
  if (didit) team->scratch = cpy_data;
  tomp_barrier_wait(thr, ompt_state_wait_barrier_implicit_workshare, false);
  if (!didit) cpy_func(cpy_data, team->scratch);
  tomp_barrier_wait(thr, ompt_state_wait_barrier_implicit_workshare, false);
}

/* Newer clangs: the executor passes its data (the others NULL) and every thread gets the
 * executor's back after one barrier; the compiler copies and adds the closing barrier. */
TOMP_EXPORT void *__kmpc_copyprivate_light(ident_t *loc, kmp_int32 gtid, void *cpy_data) {
  (void)loc, (void)gtid;
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_team_t *team = thr->team;
  if (!team || team->nthreads == 1) return cpy_data;
  if (cpy_data) team->scratch = cpy_data;
  tomp_barrier_wait(thr, ompt_state_wait_barrier_implicit_workshare, false);
  return team->scratch;
}

/* ---- flush -------------------------------------------------------------------------------- */

static TOMP_OBSERVED_TWIN void flush_observed(const void *ra, void *fp) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  if (TOMP_EV_WANTED(TOMP_EV_FLUSH)) tomp_ev_flush_(thr);
}

TOMP_EXPORT void __kmpc_flush(ident_t *loc) {
  (void)loc;
  /* A full fence.  TSan does not model fences (gcc refuses them with -Werror=tsan), so its
   * build uses a sequentially consistent read-modify-write of a shared word instead, which
   * it does model and which orders as a fence does on x86. */
#ifdef __SANITIZE_THREAD__
  static int word;
  __atomic_fetch_add(&word, 0, __ATOMIC_SEQ_CST);
#else
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
  TOMP_OBSERVED_PATH(flush_observed);
}

/* ---- ordered ------------------------------------------------------------------------------ */

static TOMP_OBSERVED_TWIN void ordered_observed(const void *ra, void *fp) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  tomp_ordered_start(thr);
}

TOMP_EXPORT void __kmpc_ordered(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
  TOMP_OBSERVED_PATH_THR(thr, ordered_observed);
  if (thr->team && thr->team->nthreads > 1) tomp_ordered_start(thr); /* alone: always our turn */
}

static TOMP_OBSERVED_TWIN void end_ordered_observed(const void *ra, void *fp) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY_AT(thr, ra, fp);
  tomp_ordered_end(thr);
}

/* Without a tool nothing to do: the turn passes when the thread takes its next chunk. */
TOMP_EXPORT void __kmpc_end_ordered(ident_t *loc, kmp_int32 gtid) {
  (void)loc, (void)gtid;
  TOMP_OBSERVED_PATH(end_ordered_observed);
}

/* ---- the error directive (clang 16 on): severity 1 warning, 2 fatal ----------------------- */

/* The message is libomp's (core/error.c), with the construct's location as libomp gives it:
 * "FILE:LINE:COL" from psource ";FILE;FUNCTION;LINE;COL;;", else "unknown". */
static void error_location(const ident_t *loc, char *buf, size_t n) {
  char file[256];
  int line = 0, col = 0;
  if (loc && loc->psource &&
      sscanf(loc->psource, ";%255[^;];%*[^;];%d;%d", file, &line, &col) == 3 &&
      strcmp(file, "unknown"))
    snprintf(buf, n, "%s:%d:%d", file, line, col);
  else
    snprintf(buf, n, "unknown");
}

TOMP_EXPORT void __kmpc_error(ident_t *loc, int severity, const char *message) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  char where[300];
  error_location(loc, where, sizeof where);
  tomp_error_directive_at(thr, severity != 1, message, (size_t)-1, where);
}
