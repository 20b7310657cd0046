/* The tests' assertions (a header, not a test).  Every test includes this file rather than
 * writing its own: the tests in tests/ as "check.h", those in tests/ompt/ and tests/archer/
 * as "../check.h".
 *
 *   CHECK(c)             c must hold: otherwise print FILE:LINE and the condition on stderr
 *                        and exit 1 (the test fails).
 *   CHECKF(c, fmt, ...)  the same, followed by a printf-style note of the values that explain
 *                        the failure (which loop, which iteration, what was seen).
 *   EXPECT(c)            for code where exiting is not safe, such as an OMPT tool's callbacks
 *                        on any thread: print "ERROR FILE:LINE: check failed: c" on stdout
 *                        (tests/ompt/common.sh's no_errors and the tool scripts look for ERROR)
 *                        and count the failure in check_failures; the test must end with a
 *                        nonzero status when check_failures is not 0. */
#ifndef TOMP_TESTS_CHECK_H
#define TOMP_TESTS_CHECK_H
#include <stdio.h>
#include <stdlib.h>

#define CHECK(c)                                                                                   \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                        \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

#define CHECKF(c, ...)                                                                             \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #c);                        \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static int check_failures __attribute__((unused));

#define EXPECT(c)                                                                                  \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      printf("ERROR %s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                           \
      __atomic_add_fetch(&check_failures, 1, __ATOMIC_RELAXED);                                    \
    }                                                                                              \
  } while (0)
#endif
