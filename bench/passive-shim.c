/* Bench-only LD_PRELOAD shim for bench/callgrind.sh: forces tomp's spin budgets to zero.
 *
 * Instruction counts are only repeatable if nobody spins: a spinning waiter executes as many
 * instructions as the scheduler lets it, which differs from run to run.  libgomp and libomp
 * stop spinning with OMP_WAIT_POLICY=passive; tomp does too once its environment parser is
 * merged, but a tomp build without it spins whatever the environment says.  So this shim
 * writes 0 into tomp_spin_count and tomp_spin_count_oversub (hidden symbols: callgrind.sh
 * finds their offsets with nm and passes them as TOMP_BENCH_SPIN_OFFSETS=hex,hex), in the
 * mapped libtomp.so (TOMP_BENCH_LIB, a real path).  Both values are what OMP_WAIT_POLICY=passive
 * sets in a tomp that parses it, so the shim never changes a run that already honours the
 * policy.  It runs at start-up only and so cancels out of per-op counts. */
#define _GNU_SOURCE
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

struct want {
  const char *lib;
  ElfW(Addr) base;
};

static int find_lib(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct want *w = arg;
  char real[PATH_MAX];
  if (info->dlpi_name && info->dlpi_name[0] && realpath(info->dlpi_name, real) &&
      !strcmp(real, w->lib)) {
    w->base = info->dlpi_addr;
    return 1;
  }
  return 0;
}

__attribute__((constructor)) static void zero_spins(void) {
  const char *lib = getenv("TOMP_BENCH_LIB"), *offs = getenv("TOMP_BENCH_SPIN_OFFSETS");
  if (!lib || !offs) return;
  struct want w = {lib, 0};
  /* Not loaded: the valgrind launcher, or a run on another runtime.  Nothing to do. */
  if (!dl_iterate_phdr(find_lib, &w)) return;
  char *end;
  for (const char *p = offs; *p; p = end + (*end == ',')) {
    unsigned long off = strtoul(p, &end, 16);
    if (end == p) break;
    *(unsigned long *)(w.base + off) = 0;
  }
}
