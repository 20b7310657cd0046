/* target constructs, GCC's calls: the host fallback (src/core/league.h runs the region).
 *
 * Host and "device" share memory, so map clauses need no data movement and target
 * data/update/enter/exit are no-ops apart from their depend clauses; firstprivate variables are
 * copied before the region runs, because the region must not write the original.
 *
 * The device argument is checked first (device.c, tomp_device_construct): omp_invalid_device,
 * or any device but the host under OMP_TARGET_OFFLOAD=MANDATORY, terminates the program.
 *
 * nowait: the target task is executed undeferred, after its dependences are satisfied; it is
 * complete when GOMP_target_ext returns, which satisfies every later dependence and taskwait. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#include "gomp.h"
#include "league.h"

#pragma weak GOMP_taskwait_depend

/* ABI facts (gcc's gomp-constants.h) */
#define GOMP_TARGET_FLAG_NOWAIT (1u << 0)
#define GOMP_TARGET_FLAG_EXIT_DATA (1u << 1)
#define GOMP_MAP_FIRSTPRIVATE 12
#define GOMP_TARGET_ARG_DEVICE_MASK ((1u << 7) - 1)
#define GOMP_TARGET_ARG_DEVICE_ALL 0
#define GOMP_TARGET_ARG_SUBSEQUENT_PARAM (1u << 7)
#define GOMP_TARGET_ARG_ID_MASK (((1u << 8) - 1) << 8)
#define GOMP_TARGET_ARG_NUM_TEAMS (1u << 8)
#define GOMP_TARGET_ARG_THREAD_LIMIT (2u << 8)
#define GOMP_TARGET_ARG_VALUE_SHIFT 16

static void wait_depend(void **depend) {
  if (depend && GOMP_taskwait_depend) GOMP_taskwait_depend(depend);
}

/* The thread_limit the construct asked for (0: none), from gcc's launch arguments. */
static unsigned arg_thread_limit(void **args) {
  unsigned tl = 0;
  for (; args && *args; args++) {
    uintptr_t a = (uintptr_t)*args;
    intptr_t val;
    if (a & GOMP_TARGET_ARG_SUBSEQUENT_PARAM) {
      if (!*++args) break;
      val = (intptr_t)*args;
    } else {
      val = (intptr_t)a >> GOMP_TARGET_ARG_VALUE_SHIFT;
    }
    if ((a & GOMP_TARGET_ARG_DEVICE_MASK) != GOMP_TARGET_ARG_DEVICE_ALL) continue;
    if ((a & GOMP_TARGET_ARG_ID_MASK) == GOMP_TARGET_ARG_THREAD_LIMIT && val > 0)
      tl = tomp_thread_limit_clamp(val > (intptr_t)~0u ? ~0u : (unsigned)val);
  }
  return tl;
}

/* A firstprivate entry that gets a copy: gfortran passes a NULL host address for an absent
 * optional or unallocated dummy (under has_device_addr); the region then sees NULL, as on
 * libgomp.  (The other kinds the fallback sees need nothing: FIRSTPRIVATE_INT carries its
 * value in hostaddrs itself, and the mapping kinds, ATTACH among them, name host memory the
 * region uses as it is.) */
static inline bool copied(void **hostaddrs, unsigned short *kinds, size_t i) {
  return (kinds[i] & 0xff) == GOMP_MAP_FIRSTPRIVATE && hostaddrs[i] != NULL;
}

/* Give firstprivate entries private copies (hostaddrs is the caller's scratch array), each
 * aligned as its kind says (log2 in the high byte). */
static void *copy_firstprivate(size_t mapnum, void **hostaddrs, size_t *sizes,
                               unsigned short *kinds, char *stackbuf, size_t stacksize) {
  size_t need = 0, maxal = 1;
  for (size_t i = 0; i < mapnum; i++)
    if (copied(hostaddrs, kinds, i)) {
      size_t al = (size_t)1 << (kinds[i] >> 8);
      need = ((need + al - 1) & ~(al - 1)) + sizes[i];
      if (al > maxal) maxal = al;
    }
  if (need == 0) return NULL;
  /* the offsets above assume a start aligned to the largest alignment: room to get there from
   * the buffer's own (64 for the stack buffer, less from malloc) */
  need += maxal;
  char *buf = need <= stacksize ? stackbuf : tomp_malloc(need);
  uintptr_t at = (uintptr_t)buf;
  for (size_t i = 0; i < mapnum; i++)
    if (copied(hostaddrs, kinds, i)) {
      uintptr_t al = (uintptr_t)1 << (kinds[i] >> 8);
      at = (at + al - 1) & ~(al - 1);
      memcpy((void *)at, hostaddrs[i], sizes[i]);
      hostaddrs[i] = (void *)at;
      at += sizes[i];
    }
  return buf == stackbuf ? NULL : buf;
}

TOMP_EXPORT void GOMP_target_ext(int device, void (*fn)(void *), size_t mapnum, void **hostaddrs,
                                 size_t *sizes, unsigned short *kinds, unsigned flags,
                                 void **depend, void **args) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_device_construct(device, "target construct");
  wait_depend(depend);
  char stackbuf[512] __attribute__((aligned(64)));
  void *heap = copy_firstprivate(mapnum, hostaddrs, sizes, kinds, stackbuf, sizeof stackbuf);
  tomp_target_run(thr, fn, hostaddrs, arg_thread_limit(args),
                  (flags & GOMP_TARGET_FLAG_NOWAIT) ? ompt_target_nowait : ompt_target);
  free(heap);
}

/* GCC 4.x form: no firstprivate, no launch arguments. */
TOMP_EXPORT void GOMP_target(int device, void (*fn)(void *), const void *unused, size_t mapnum,
                             void **hostaddrs, size_t *sizes, unsigned char *kinds) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  (void)unused, (void)mapnum, (void)sizes, (void)kinds;
  tomp_device_construct(device, "target construct");
  tomp_target_run(thr, fn, hostaddrs, 0, ompt_target);
}

/* Data environments: memory is shared, so there is nothing to map. */
TOMP_EXPORT void GOMP_target_data(int device, const void *unused, size_t mapnum,
                                  void **hostaddrs, size_t *sizes, unsigned char *kinds) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  (void)unused, (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds;
  tomp_device_construct(device, "target data construct");
  tomp_target_point(thr, ompt_target_enter_data);
}

TOMP_EXPORT void GOMP_target_data_ext(int device, size_t mapnum, void **hostaddrs,
                                      size_t *sizes, unsigned short *kinds) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds;
  tomp_device_construct(device, "target data construct");
  tomp_target_point(thr, ompt_target_enter_data);
}

TOMP_EXPORT void GOMP_target_end_data(void) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  tomp_target_point(thr, ompt_target_exit_data);
}

TOMP_EXPORT void GOMP_target_update(int device, const void *unused, size_t mapnum,
                                    void **hostaddrs, size_t *sizes, unsigned char *kinds) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  (void)unused, (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds;
  tomp_device_construct(device, "target update directive");
  tomp_target_point(thr, ompt_target_update);
}

TOMP_EXPORT void GOMP_target_update_ext(int device, size_t mapnum, void **hostaddrs,
                                        size_t *sizes, unsigned short *kinds, unsigned flags,
                                        void **depend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds;
  tomp_device_construct(device, "target update directive");
  wait_depend(depend);
  tomp_target_point(thr, (flags & GOMP_TARGET_FLAG_NOWAIT) ? ompt_target_update_nowait
                                                           : ompt_target_update);
}

TOMP_EXPORT void GOMP_target_enter_exit_data(int device, size_t mapnum, void **hostaddrs,
                                             size_t *sizes, unsigned short *kinds,
                                             unsigned flags, void **depend) {
  tomp_thread_t *thr = tomp_thread();
  TOMP_ENTRY(thr);
  (void)mapnum, (void)hostaddrs, (void)sizes, (void)kinds;
  tomp_device_construct(device, (flags & GOMP_TARGET_FLAG_EXIT_DATA)
                                    ? "target exit data directive"
                                    : "target enter data directive");
  wait_depend(depend);
  int kind = (flags & GOMP_TARGET_FLAG_EXIT_DATA) ? ompt_target_exit_data : ompt_target_enter_data;
  tomp_target_point(thr, (flags & GOMP_TARGET_FLAG_NOWAIT) ? kind + 8 : kind);
}

/* Offload images of programs built with offloading: there is no device to load them on. */
TOMP_EXPORT void GOMP_offload_register(const void *host_table, int target_type,
                                       const void *target_data) {
  (void)host_table, (void)target_type, (void)target_data;
}
TOMP_EXPORT void GOMP_offload_unregister(const void *host_table, int target_type,
                                         const void *target_data) {
  (void)host_table, (void)target_type, (void)target_data;
}
TOMP_EXPORT void GOMP_offload_register_ver(unsigned version, const void *host_table,
                                           int target_type, const void *target_data) {
  (void)version, (void)host_table, (void)target_type, (void)target_data;
}
TOMP_EXPORT void GOMP_offload_unregister_ver(unsigned version, const void *host_table,
                                             int target_type, const void *target_data) {
  (void)version, (void)host_table, (void)target_type, (void)target_data;
}
