/* Tool keys: the no-listener path's test, rewritten instead of evaluated (event.h).
 *
 * Every test of TOMP_LISTENING() is compiled (x86-64) as a five-byte no-op followed by the
 * no-tool code, with a record of the no-op's address and of the tool code's in the section
 * tomp_tool_keys.  While tomp_listeners is 0 nothing else runs: a program without a tool
 * executes the same instructions as a build without OMPT, plus one no-op per test.  When a
 * tool path turns on (an OMPT tool's, a Collector API session's), tomp_tool_keys_sync rewrites
 * every no-op into a jump to its tool code; when the last one turns off, back.  The word
 * itself stays the truth: the code behind a key tests tomp_listeners again wherever it
 * calls a tool, so a key that is still on after its path turned off only costs time.
 *
 * Rewriting code other threads may be running: each no-op lies inside one aligned 8-byte word
 * (the key's .balign 8,,4), so one aligned 8-byte store replaces it whole and a thread
 * fetching it sees the no-op or the jump, never a mix.  The text pages are made writable for
 * the rewrite (staying executable: other threads run on them meanwhile), and a membarrier
 * SYNC_CORE afterwards makes every thread of the process refetch its instructions.  The
 * rewrite happens when a tool path changes state, at most a few times in a run; the first
 * one, for a tool found at start-up, before any other thread exists. */
#include <errno.h>
#include <linux/membarrier.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

#if TOMP_TOOL_KEYS

typedef struct {
  int32_t site, target; /* each relative to its own field's address (no run-time relocation) */
} tomp_key_rec_t;

extern const tomp_key_rec_t __start_tomp_tool_keys[] TOMP_HIDDEN;
extern const tomp_key_rec_t __stop_tomp_tool_keys[] TOMP_HIDDEN;

static const unsigned char nop5[5] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
static pthread_mutex_t keys_lock = PTHREAD_MUTEX_INITIALIZER;
static bool keys_on, keys_broken;

static unsigned char *site_of(const tomp_key_rec_t *k) {
  return (unsigned char *)&k->site + k->site;
}

static void jump_to(const tomp_key_rec_t *k, unsigned char out[5]) {
  unsigned char *s = site_of(k), *t = (unsigned char *)&k->target + k->target;
  int32_t rel = (int32_t)(t - (s + 5));
  out[0] = 0xe9;
  memcpy(out + 1, &rel, 4);
}

/* One aligned 8-byte load and store (atomic on x86-64), written as instructions: a
 * sanitizer's atomic (ThreadSanitizer keeps sync records per address) has no business with
 * code addresses. */
static void store5(unsigned char *s, const unsigned char b[5]) {
  uint64_t *w = (uint64_t *)((uintptr_t)s & ~(uintptr_t)7), v;
  __asm__ volatile("movq (%1), %0" : "=r"(v) : "r"(w) : "memory");
  memcpy((unsigned char *)&v + (s - (unsigned char *)w), b, 5);
  __asm__ volatile("movq %1, (%0)" : : "r"(w), "r"(v) : "memory");
}

/* Every thread of the process executes a serializing instruction before it returns to user
 * code; registration is needed once.  Without the command (Linux < 4.16) the rewrite is still
 * seen: x86 keeps instruction fetch coherent with stores, this only removes the delay. */
static void sync_core(void) {
  static int registered;
  if (!registered)
    registered = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0,
                         0) == 0 ? 1 : -1;
  if (registered > 0) syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0);
}

bool tomp_tool_keys_sync(void) {
  pthread_mutex_lock(&keys_lock);
  bool want = __atomic_load_n(&tomp_listeners, __ATOMIC_SEQ_CST) != 0, ok = !keys_broken;
  const tomp_key_rec_t *k, *b = __start_tomp_tool_keys, *e = __stop_tomp_tool_keys;
  if (want == keys_on || !ok || b == e) goto out;
  uintptr_t lo = UINTPTR_MAX, hi = 0, page = (uintptr_t)sysconf(_SC_PAGESIZE);
  for (k = b; k < e; k++) {
    uintptr_t s = (uintptr_t)site_of(k);
    if ((s & 7) > 3) { /* the key's alignment directive failed: an atomic rewrite is impossible */
      tomp_warn("tool keys: site %p straddles an 8-byte word; the tool path stays off", (void *)s);
      ok = false, keys_broken = true;
      goto out;
    }
    if (s < lo) lo = s;
    if (s + 5 > hi) hi = s + 5;
  }
  lo &= ~(page - 1), hi = (hi + page - 1) & ~(page - 1);
  if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE | PROT_EXEC)) {
    tomp_warn("tool keys: cannot make tomp's code writable (mprotect: %s); the tool path "
              "stays off, so the tool sees no event",
              strerror(errno));
    ok = false, keys_broken = true;
    goto out;
  }
  unsigned skipped = 0;
  for (k = b; k < e; k++) {
    unsigned char jmp[5], *s = site_of(k);
    jump_to(k, jmp);
    if (!memcmp(s, want ? nop5 : jmp, 5))
      store5(s, want ? jmp : nop5);
    else if (memcmp(s, want ? jmp : nop5, 5))
      skipped++; /* neither form: a debugger's breakpoint, say; leave it be */
  }
  if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_EXEC))
    tomp_warn("tool keys: cannot make tomp's code read-only again (mprotect: %s)", strerror(errno));
  sync_core();
  if (skipped)
    tomp_warn("tool keys: %u of %zu sites held unexpected bytes and were left unchanged", skipped,
              (size_t)(e - b));
  keys_on = want;
out:
  tomp_observers_sync();
  pthread_mutex_unlock(&keys_lock);
  return ok;
}

void tomp_tool_keys_lock(void) { pthread_mutex_lock(&keys_lock); }
void tomp_tool_keys_unlock(void) { pthread_mutex_unlock(&keys_lock); }

#else

bool tomp_tool_keys_sync(void) { /* the tests load tomp_listeners */
  tomp_observers_sync();
  return true;
}
void tomp_tool_keys_lock(void) {}
void tomp_tool_keys_unlock(void) {}

#endif
