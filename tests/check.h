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
 *                        nonzero status when check_failures is not 0.
 *   WATCHDOG(s, what, step)  for a test whose failure would be a hang (a wait nobody ends):
 *                        each use (re)arms an alarm of s seconds; if it goes off, the test
 *                        prints "FILE: watchdog: no progress in s s: what (at step N)" on
 *                        stderr and exits 1.  Used once per step of the test (a region, a
 *                        round), so the time a step takes bounds it, not the whole run's. */
#ifndef TOMP_TESTS_CHECK_H
#define TOMP_TESTS_CHECK_H
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static const char *check_watchdog_file, *check_watchdog_what;
static unsigned check_watchdog_secs;
static volatile long check_watchdog_step;

static void __attribute__((unused)) check_watchdog_put(const char *s) {
  if (write(2, s, strlen(s)) < 0) _exit(1);
}

/* the alarm's handler: only async-signal-safe calls */
static void __attribute__((unused)) check_watchdog_fire(int sig) {
  char num[2][24];
  unsigned long v[2] = {check_watchdog_secs, (unsigned long)check_watchdog_step};
  char *p[2];
  (void)sig;
  for (int k = 0; k < 2; k++) {
    p[k] = num[k] + sizeof num[k] - 1;
    *p[k] = 0;
    do
      *--p[k] = (char)('0' + v[k] % 10);
    while (v[k] /= 10);
  }
  check_watchdog_put(check_watchdog_file);
  check_watchdog_put(": watchdog: no progress in ");
  check_watchdog_put(p[0]);
  check_watchdog_put(" s: ");
  check_watchdog_put(check_watchdog_what);
  check_watchdog_put(" (at step ");
  check_watchdog_put(p[1]);
  check_watchdog_put(")\n");
  _exit(1);
}

static void __attribute__((unused))
check_watchdog(const char *file, unsigned secs, const char *what, long step) {
  if (!check_watchdog_file) signal(SIGALRM, check_watchdog_fire);
  check_watchdog_file = file;
  check_watchdog_what = what;
  check_watchdog_secs = secs;
  check_watchdog_step = step;
  alarm(secs);
}

#define WATCHDOG(secs, what, step) check_watchdog(__FILE__, (secs), (what), (step))
/* after the last watched step: the rest of the test (its teardown) runs unwatched */
#define WATCHDOG_OFF() alarm(0)
#endif
