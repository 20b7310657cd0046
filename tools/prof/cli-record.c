/* tomp-prof record: placeholder. */
#include <stdio.h>

#include "tomp-prof.h"

int tp_cmd_record(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("tomp-prof record: not implemented yet\n", stderr);
  return 1;
}

int tp_cmd_dump(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fputs("tomp-prof dump: not implemented yet\n", stderr);
  return 1;
}
