/* The inquiry entry points of a tool whose initialize returned 0 (the OMPT interface is
 * inactive): a program that kept them gets the answers for a thread the runtime does not
 * know, as from libomp (LLVM's misc/api_calls_without_ompt): no thread data, no parallel
 * region, no task, place and processor -1.  Before, tomp answered as if the tool were
 * attached (thread data, region and task found, the CPU).
 * test-cflags: -rdynamic
 * test-no-libgomp: libgomp has no OMPT: ompt_start_tool is never called
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>

#include "check.h"

static ompt_get_thread_data_t get_thread_data;
static ompt_get_parallel_info_t get_parallel_info;
static ompt_get_task_info_t get_task_info;
static ompt_get_proc_id_t get_proc_id;
static ompt_get_place_num_t get_place_num;

static int tool_initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data) {
  (void)dev, (void)data;
  get_thread_data = (ompt_get_thread_data_t)lookup("ompt_get_thread_data");
  get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
  get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  get_proc_id = (ompt_get_proc_id_t)lookup("ompt_get_proc_id");
  get_place_num = (ompt_get_place_num_t)lookup("ompt_get_place_num");
  return 0; /* declined */
}
#include "ompt_tool.h"

static void check_nothing(void) {
  CHECK(get_thread_data() == NULL);
  CHECK(get_parallel_info(0, NULL, NULL) == 0);
  CHECK(get_task_info(0, NULL, NULL, NULL, NULL, NULL) == 0);
  CHECK(get_proc_id() == -1);
  CHECK(get_place_num() == -1);
}

int main(void) {
  CHECK(omp_get_max_threads() > 0);
  CHECK(get_thread_data && get_parallel_info && get_task_info && get_proc_id && get_place_num);
  check_nothing();
#pragma omp parallel num_threads(2)
  check_nothing();
  printf("a declined tool's inquiry entry points answer nothing\n");
  return 0;
}
