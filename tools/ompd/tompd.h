/* libtompd.so: tomp's OMPD library (OpenMP 5.2 chapter 20), which a debugger loads to read a
 * process or core file running tomp in OpenMP terms.
 *
 * The layout contract.  The library finds everything from two exported data symbols of
 * libtomp (dynamic symbol table, version node TOMP_DEBUG_1.0), so a stripped libtomp and a
 * core file without debug information are enough:
 *   tomp_ompd_layout   src/ompd/ompd_layout.h: magic, layout version, the addresses of the
 *                      thread table and of the global settings, the size of each structure
 *                      read (thread, team, task, ICVs, globals) and the offset of each field
 *   tomp_thread_table  src/core/thread_table.h: every OpenMP thread, by global number
 * ompd_process_initialize reads the layout once into the address-space handle and answers
 * ompd_rc_incompatible for a magic, layout version, pointer size or table version it does not
 * know; every later read takes offsets and sizes from that copy.
 *
 * Rules kept by every file here: the target is read only through the debugger's callbacks
 * (access.c); the library keeps no state but the callbacks and its handles; every handle
 * carries a magic word and what it referred to (re-read before use); every count and index read
 * from the target is bounded before it is used, so a corrupt or foreign address space gets an error
 * code, never a crash.
 *
 * Error codes for arguments.  OpenMP 5.2's ompd_rc_t (omp-tools.h) defines
 * `ompd_rc_stale_handle = 2, // handle is no longer valid` and
 * `ompd_rc_bad_input = 3, // bad input parameters (other than handle)`: bad_input is not for
 * handles.  So a NULL handle, a released one, one of another kind or not made by this library,
 * and one whose thread, region or task is gone all answer ompd_rc_stale_handle (what LLVM's
 * libompd tests and gdb plug-in accept); a NULL output pointer, a wrong scope, index, id kind
 * or size, or a context the debugger's callbacks do not know answer ompd_rc_bad_input. */
#ifndef TOMPD_H
#define TOMPD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../include/omp-tools.h"
#include "../../src/core/thread_table.h"
#include "../../src/ompd/ompd_layout.h"

#define TOMPD_EXPORT __attribute__((visibility("default")))
#define TOMPD_API_VERSION 202111 /* the OMPD of OpenMP 5.2 */

/* Sanity bounds on what is read from the target */
#define TOMPD_MAX_TEAM 65536u  /* threads in one team */
#define TOMPD_MAX_STRING 4096u /* strings read from the target */
#define TOMPD_MAX_RUNNERS 64u  /* entries of the layout's runner table (version 2) */

enum {
  TOMPD_AS_MAGIC = 0x41537470,
  TOMPD_TH_MAGIC = 0x54487470,
  TOMPD_PA_MAGIC = 0x50417470,
  TOMPD_TA_MAGIC = 0x54417470
};

struct _ompd_aspace_handle {
  uint32_t magic;
  ompd_address_space_context_t *ctx;
  tomp_ompd_layout_t L; /* the runtime's layout, checked */
  uint32_t chunk_size;  /* thread table geometry, checked */
  uint32_t max_chunks;
  uint64_t chunks_addr; /* address of the table's chunk pointer array */
};

struct _ompd_thread_handle {
  uint32_t magic;
  ompd_address_space_handle_t *as;
  ompd_thread_context_t *tctx; /* the debugger's, if it gave one */
  uint64_t addr;               /* the thread descriptor */
  uint32_t gtid;
};

/* team == 0: the implicit parallel region of an initial thread (thread: its descriptor) */
struct _ompd_parallel_handle {
  uint32_t magic;
  ompd_address_space_handle_t *as;
  uint64_t team, thread;
  uint64_t id, parent; /* what identified the region when the handle was made */
  uint32_t level;
};

struct _ompd_task_handle {
  uint32_t magic;
  ompd_address_space_handle_t *as;
  uint64_t addr;
  uint64_t parent; /* identity, re-checked */
  uint32_t flags;
  uint64_t bp_thread; /* made in a breakpoint of this thread, about this task */
};

/* ---- access.c: callbacks, reads, handles ---- */
extern const ompd_callbacks_t *tompd_cb;
/* n bytes at addr; an address below 4096 is a corrupt pointer (ompd_rc_error) */
ompd_rc_t tompd_read(ompd_address_space_handle_t *as, uint64_t addr, void *buf, size_t n);
ompd_rc_t tompd_u64(ompd_address_space_handle_t *as, uint64_t addr, uint64_t *v);
ompd_rc_t tompd_u32(ompd_address_space_handle_t *as, uint64_t addr, uint32_t *v);
ompd_rc_t tompd_i32(ompd_address_space_handle_t *as, uint64_t addr, int32_t *v);
ompd_rc_t tompd_u8(ompd_address_space_handle_t *as, uint64_t addr, uint8_t *v);
/* a NUL-terminated string of the target, at most TOMPD_MAX_STRING bytes, into buf */
ompd_rc_t tompd_string(ompd_address_space_handle_t *as, uint64_t addr, char *buf, size_t size);
/* memory from the debugger's allocator */
ompd_rc_t tompd_alloc(size_t n, void *pp);
void tompd_free(void *p);
/* a copy of s from the debugger's allocator */
ompd_rc_t tompd_strdup(const char *s, const char **out);
bool tompd_as_ok(const ompd_address_space_handle_t *as);

/* ---- threads.c ---- */
bool tompd_thread_ok(const ompd_thread_handle_t *th);
/* a handle for the thread descriptor at addr (its gtid read from it) */
ompd_rc_t tompd_thread_make(ompd_address_space_handle_t *as, uint64_t addr,
                            ompd_thread_handle_t **out);
/* the thread is still the table's entry for its number */
ompd_rc_t tompd_thread_check(ompd_thread_handle_t *th);

/* ---- regions.c ---- */
bool tompd_parallel_ok(const ompd_parallel_handle_t *ph);
bool tompd_task_ok(const ompd_task_handle_t *th);
ompd_rc_t tompd_parallel_check(ompd_parallel_handle_t *ph);
ompd_rc_t tompd_task_check(ompd_task_handle_t *th);
/* nthreads of a region (1 for an initial thread's implicit region) */
ompd_rc_t tompd_parallel_size(ompd_parallel_handle_t *ph, uint32_t *n);
/* The user's function behind fn, the function core recorded with argument data: fn itself,
 * or for a front-end's runner (layout version 2) the compiler's function it calls. */
ompd_rc_t tompd_entry(ompd_address_space_handle_t *as, uint64_t fn, uint64_t data, uint64_t *entry);

#endif
