/* tomp-prof report: placeholder until the loader and views land. */
#include <stdio.h>

#include "tomp-prof.h"

int tp_cmd_report(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("tomp-prof report: not implemented yet\n", stderr);
  return 1;
}
