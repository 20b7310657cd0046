/* An OMPT tool inside a test program (a header, not a test; the program is built with
 * -rdynamic so that the runtime finds ompt_start_tool).  Define
 *   static int tool_initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data);
 * before including it: this header adds a finalize that does nothing and the
 * ompt_start_tool that returns both. */
#ifndef TOMP_TESTS_OMPT_TOOL_H
#define TOMP_TESTS_OMPT_TOOL_H
#include <omp-tools.h>

static void tool_finalize(ompt_data_t *data) { (void)data; }
ompt_start_tool_result_t *ompt_start_tool(unsigned v, const char *rv);
ompt_start_tool_result_t *ompt_start_tool(unsigned v, const char *rv) {
  (void)v, (void)rv;
  static ompt_start_tool_result_t r = {tool_initialize, tool_finalize, {0}};
  return &r;
}
#endif
