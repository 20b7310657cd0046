/* LLVM's task and dependence ABI as the tests that call it directly need it (a header, not a
 * test): kmp_task_t, kmp_depend_info and the entry points, declared as LLVM 14's kmp.h has
 * them, so that a test can pass what clang 14 cannot write (inoutset, omp_all_memory). */
#ifndef TOMP_TESTS_KDEPS_H
#define TOMP_TESTS_KDEPS_H
#include <stddef.h>
#include <stdint.h>

typedef int32_t (*entry_t)(int32_t, void *);
typedef struct {
  void *shareds;
  entry_t routine;
  int32_t part_id;
  void *data1, *data2;
} kmp_task_t;
typedef struct {
  intptr_t base_addr;
  size_t len;
  uint8_t flags;
} dep_t;

kmp_task_t *__kmpc_omp_task_alloc(void *loc, int32_t gtid, int32_t flags, size_t sz, size_t shsz,
                                  entry_t entry);
int32_t __kmpc_omp_task_with_deps(void *loc, int32_t gtid, kmp_task_t *t, int32_t n, dep_t *d,
                                  int32_t nn, dep_t *nd);
int32_t __kmpc_omp_taskwait(void *loc, int32_t gtid);
void __kmpc_omp_wait_deps(void *loc, int32_t gtid, int32_t n, dep_t *d, int32_t nn, dep_t *nd);
int32_t __kmpc_global_thread_num(void *loc);

/* kmp_depend_info flags */
#define IN 0x1
#define OUT 0x2
#define INOUT 0x3
#define MTX 0x4
#define SET 0x8
#define ALL 0x80 /* omp_all_memory (address 0); libomp also takes out on the address -1 */
#endif
