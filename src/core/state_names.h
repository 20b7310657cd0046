/* The thread states tomp enumerates, in value order: one list for both tool interfaces, so
 * that OMPT's ompt_enumerate_states (src/ompt/entry.c) and OMPD's ompd_enumerate_states
 * (tools/ompd/threads.c, which may include this core header as it includes thread_table.h)
 * give a tool and a debugger the same answer.  Every ompt_state_t of OpenMP 5.2, the two
 * deprecated barrier states included (tomp never enters them; LLVM's runtime and libompd
 * list them too).  Self-contained: it needs only omp-tools.h.
 *
 *   X(state)   state: an ompt_state_t enumerator; #state is its name */
#ifndef TOMP_STATE_NAMES_H
#define TOMP_STATE_NAMES_H

#include "omp-tools.h"

#define TOMP_STATE_NAMES(X)                                                                        \
  X(ompt_state_work_serial)                                                                        \
  X(ompt_state_work_parallel)                                                                      \
  X(ompt_state_work_reduction)                                                                     \
  X(ompt_state_wait_barrier)                                                                       \
  X(ompt_state_wait_barrier_implicit_parallel)                                                     \
  X(ompt_state_wait_barrier_implicit_workshare)                                                    \
  X(ompt_state_wait_barrier_implicit)                                                              \
  X(ompt_state_wait_barrier_explicit)                                                              \
  X(ompt_state_wait_barrier_implementation)                                                        \
  X(ompt_state_wait_barrier_teams)                                                                 \
  X(ompt_state_wait_taskwait)                                                                      \
  X(ompt_state_wait_taskgroup)                                                                     \
  X(ompt_state_wait_mutex)                                                                         \
  X(ompt_state_wait_lock)                                                                          \
  X(ompt_state_wait_critical)                                                                      \
  X(ompt_state_wait_atomic)                                                                        \
  X(ompt_state_wait_ordered)                                                                       \
  X(ompt_state_wait_target)                                                                        \
  X(ompt_state_wait_target_map)                                                                    \
  X(ompt_state_wait_target_update)                                                                 \
  X(ompt_state_idle)                                                                               \
  X(ompt_state_overhead)

#endif
