/* Tools for measuring what OMPT costs a program (bench/callgrind.sh).
 *
 * Built twice:
 *   null-tool.so   initialize registers no callback, looks up nothing and returns 1: a tool
 *                  is attached but no event has a receiver.  tomp then leaves its tool path
 *                  off (nothing the tool could see would differ); libomp pays its
 *                  enabled-but-unregistered checks.
 *   sampler-tool.so  (-DSAMPLER) no callback either, but initialize looks up ompt_get_state
 *                  and ompt_get_task_info, as a sampling profiler does: tomp keeps states,
 *                  frames and task records for it (the tool path is on).
 *   empty-tool.so  (-DEMPTY_CALLBACKS) registers parallel_begin/end, implicit_task,
 *                  sync_region and sync_region_wait with empty bodies: the price of
 *                  delivering those events, without any work done in the tool.
 *
 *   all-tool.so    (-DALL_CALLBACKS) registers every callback (OpenMP 5.2 numbers 1..37) with
 *                  an empty body: the price of delivering every event tomp produces
 *                  (bench/ompt-cost.sh).
 *
 * Load with OMP_TOOL_LIBRARIES=/path/to/null-tool.so.  With BENCH_TOOL_ANNOUNCE set in the
 * environment, initialize says on stderr that it ran and how many callbacks the runtime took
 * (bench/run.sh checks it, so a runtime that silently ignored the tool is noticed). */
#include <omp-tools.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef EMPTY_CALLBACKS
static void on_parallel_begin(ompt_data_t *encountering_task_data,
                              const ompt_frame_t *encountering_task_frame,
                              ompt_data_t *parallel_data, unsigned int requested_parallelism,
                              int flags, const void *codeptr_ra) {
  (void)encountering_task_data, (void)encountering_task_frame, (void)parallel_data;
  (void)requested_parallelism, (void)flags, (void)codeptr_ra;
}

static void on_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data,
                            int flags, const void *codeptr_ra) {
  (void)parallel_data, (void)encountering_task_data, (void)flags, (void)codeptr_ra;
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                             ompt_data_t *task_data, unsigned int actual_parallelism,
                             unsigned int index, int flags) {
  (void)endpoint, (void)parallel_data, (void)task_data, (void)actual_parallelism;
  (void)index, (void)flags;
}

static void on_sync(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                    ompt_data_t *parallel_data, ompt_data_t *task_data, const void *codeptr_ra) {
  (void)kind, (void)endpoint, (void)parallel_data, (void)task_data, (void)codeptr_ra;
}
#endif

#ifdef ALL_CALLBACKS
/* One empty body for every callback: the x86-64 calling convention lets a function that
 * ignores its arguments stand in for any signature returning void.  control_tool returns a
 * value and gets its own. */
static void on_any(void) {}
static int on_control_tool(uint64_t command, uint64_t modifier, void *arg, const void *ra) {
  (void)command, (void)modifier, (void)arg, (void)ra;
  return 0;
}
#endif

static int tool_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                           ompt_data_t *tool_data) {
  (void)initial_device_num, (void)tool_data;
  int taken = 0;
#ifdef EMPTY_CALLBACKS
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set) return 0;
  set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
  set(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
  set(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
  set(ompt_callback_sync_region, (ompt_callback_t)on_sync);
  set(ompt_callback_sync_region_wait, (ompt_callback_t)on_sync);
#elif defined(ALL_CALLBACKS)
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set) return 0;
  for (int ev = 1; ev <= 37; ev++)
    taken += set((ompt_callbacks_t)ev, ev == ompt_callback_control_tool
                                           ? (ompt_callback_t)on_control_tool
                                           : (ompt_callback_t)on_any) >= ompt_set_sometimes;
#elif defined(SAMPLER)
  if (!lookup("ompt_get_state") || !lookup("ompt_get_task_info")) return 0;
#else
  (void)lookup;
#endif
  if (getenv("BENCH_TOOL_ANNOUNCE"))
    fprintf(stderr, "bench-tool: initialized, %d callbacks registered\n", taken);
  return 1;
}

static void tool_finalize(ompt_data_t *tool_data) { (void)tool_data; }

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version);

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
  (void)omp_version, (void)runtime_version;
  static ompt_start_tool_result_t result = {tool_initialize, tool_finalize, {.value = 0}};
  return &result;
}
