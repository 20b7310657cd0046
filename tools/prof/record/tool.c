/* libtomp-prof.so: the OMPT recording tool (placeholder). */
#include <omp-tools.h>
#include <stddef.h>

__attribute__((visibility("default"))) ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                                                                const char *runtime_version);
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
  (void)omp_version;
  (void)runtime_version;
  return NULL;
}
