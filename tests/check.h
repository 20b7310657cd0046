/* Shared CHECK macro for the tests (header, not a test). */
#include <stdio.h>
#include <stdlib.h>
#define CHECK(c)                                                                                   \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                       \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)
