/* The compiler's function behind a front-end's runner.
 *
 * Core calls one `void fn(void *data)` per region and per task.  A front-end whose compiler's
 * outlined functions have another signature passes core a runner of its own, which calls the
 * compiler's function found in data (LLVM's: region_body calls the microtask, tomp_kmp_task_run
 * the task routine).  Core then records the runner as the region's or the task's function
 * (thr->fn, team->fn, task->fn), while a debugger wants the user's.  So the front-end declares,
 * beside each runner, where in the runner's data argument the compiler's entry is:
 *
 *   TOMP_RUNNER(region_body, offsetof(kmp_region_t, fn));
 *
 * at file scope puts the pair in the linker section tomp_runners (no code runs: it costs
 * nothing), and OMPD's exported layout gives the table to its library (src/ompd/ompd_layout.h,
 * version 2), which reports the pointer at data + entry_off for a function that is a runner.
 * data is thr->fn_data, team->fn_data or task->data, whichever goes with the function read. */
#ifndef TOMP_RUNNER_H
#define TOMP_RUNNER_H

#include <stdint.h>

typedef struct tomp_runner {
  void (*fn)(void *); /* the front-end's runner */
  uint64_t entry_off; /* byte offset in its data argument of the compiler's function pointer */
} tomp_runner_t;

#define TOMP_RUNNER(fn_, off_)                                                                     \
  static const tomp_runner_t tomp_runner_##fn_                                                     \
      __attribute__((used, section("tomp_runners"), aligned(8))) = {(fn_), (off_)}

/* The table, collected by the linker (weak: a build without such a front-end has none). */
extern const tomp_runner_t __start_tomp_runners[] __attribute__((weak, visibility("hidden")));
extern const tomp_runner_t __stop_tomp_runners[] __attribute__((weak, visibility("hidden")));

/* The compiler's function behind fn when fn is a runner (data: its argument), else fn: the
 * key under which core keeps a task kind's run times (task.h, short tasks).  Only compared,
 * never called (its real signature is the compiler's). */
static inline void (*tomp_runner_entry(void (*fn)(void *), const void *data))(void *) {
  for (const tomp_runner_t *r = __start_tomp_runners; r && r < __stop_tomp_runners; r++)
    if (r->fn == fn) return *(void (*const *)(void *))((const char *)data + r->entry_off);
  return fn;
}

#endif
