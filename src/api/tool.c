/* omp_control_tool (OpenMP 5.2 sec. 18.14): a program's message to its tool.  The answer
 * comes from the observer that serves tools (src/ompt) through the event layer; with none,
 * omp_control_tool_notool. */
#include "internal.h"
#include "omp.h"

TOMP_EXPORT int omp_control_tool(int command, int modifier, void *arg) {
  return tomp_ev_control_tool(command, modifier, arg, TOMP_CODEPTR(), TOMP_ENTRY_FRAME());
}
