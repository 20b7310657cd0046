/* The thread table: every OpenMP thread tomp knows, by global thread number (gtid).
 *
 * Who reads it: core (lookup by number, iteration: OMPT's finalize walks it), a front-end
 * that hands out thread numbers (LLVM's __kmpc_global_thread_num is tomp_self->gtid), a signal
 * handler, and a debugger that reads the process's memory from outside (OMPD).  So the layout
 * is fixed and documented here, readers take no lock, and nothing a reader can reach is ever
 * freed or moved.  The table is exported as the data symbol `tomp_thread_table` (version node
 * TOMP_DEBUG_1.0 of the version script), so a debugger finds it by name.
 *
 * Layout (version 1): a header of 32-bit words, then an array of max_chunks chunk pointers.
 * Chunk c, once allocated, holds chunk_size entries, the slots of gtids c * chunk_size ..
 * (c + 1) * chunk_size - 1; each entry is a pointer to the thread's tomp_thread_t or NULL.
 * The header also gives the offsets of the descriptor fields a reader needs first, so an
 * out-of-process reader does not depend on how tomp_thread_t is laid out today.
 *
 * How to read it (no lock; in a signal handler too):
 *     n = load-acquire(count)                       numbers handed out: gtids 0 .. n-1
 *     for g in 0 .. n-1:
 *       chunk = load-acquire(chunks[g / chunk_size])
 *       thr   = chunk ? load-acquire(chunk[g % chunk_size]) : NULL
 *       thr == NULL: number g belongs to a thread that has ended (or was never started)
 *   A thread's entry is set (release) before count covers its number, and before the thread
 *   runs any OpenMP code; a descriptor's gtid field holds its number.
 *
 * Numbers are never reused in the life of the process: a thread that ends (a worker ended by
 * omp_pause_resource, a program thread that exits) has its entry cleared to NULL, and its
 * number stays retired.  Descriptors are never freed, so a pointer a reader loaded stays
 * readable even if the thread ends meanwhile.  In the child of fork() only the forking thread
 * remains: every other entry is cleared there.  Capacity: max_chunks * chunk_size numbers
 * (4 Mi); a thread beyond that runs without a number (gtid TOMP_GTID_NONE, after one
 * message).
 *
 * This header is self-contained (a debugger plug-in or a test can include it alone). */
#ifndef TOMP_THREAD_TABLE_H
#define TOMP_THREAD_TABLE_H

#include <stddef.h>
#include <stdint.h>

#define TOMP_THREAD_TABLE_VERSION 1
#define TOMP_THREAD_CHUNK 1024u  /* entries per chunk (a power of two) */
#define TOMP_THREAD_CHUNKS 4096u /* chunk pointers */
#define TOMP_GTID_NONE 0xffffffffu

struct tomp_thread;

typedef struct tomp_thread_table {
  uint32_t version;    /* TOMP_THREAD_TABLE_VERSION */
  uint32_t chunk_size; /* TOMP_THREAD_CHUNK */
  uint32_t max_chunks; /* TOMP_THREAD_CHUNKS */
  uint32_t count;      /* numbers handed out (release-stored after the entry is set) */
  /* the descriptor (struct tomp_thread) as a reader needs it: */
  uint32_t thread_size; /* sizeof(tomp_thread_t) */
  uint32_t off_gtid;    /* uint32_t: this table's number for the thread */
  uint32_t off_state;   /* int: ompt_state_t, always current */
  uint32_t off_wait_id; /* uint64_t: ompt_wait_id_t while state is a wait, always current */
  uint32_t off_type;    /* int: ompt_thread_t (1 initial, 2 worker) */
  uint32_t off_pthread; /* pthread_t of the thread */
  uint32_t off_task;    /* struct tomp_task *: the task the thread executes now */
  uint32_t off_team;    /* struct tomp_team *: its innermost team (NULL outside regions) */
  struct tomp_thread **chunks[TOMP_THREAD_CHUNKS]; /* NULL until used; never freed or moved */
} tomp_thread_table_t;

#endif
