/* Shared by the fuzz targets (tests/fuzz/NAME.c, built and run by tools/fuzz.sh): each target is
 * linked with every object of tomp, built by clang with -fsanitize=fuzzer-no-link,address,
 * undefined, so it calls the parsers directly (hidden symbols link within one executable). */
#ifndef TOMP_FUZZ_H
#define TOMP_FUZZ_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a C string of at most max bytes (a NUL in the input ends it). */
static inline char *fuzz_string(const uint8_t *data, size_t size, size_t max) {
  size_t n = size < max ? size : max;
  char *s = malloc(n + 1);
  if (!s) abort();
  memcpy(s, data, n);
  s[n] = 0;
  return s;
}

/* Where a finding is told: stderr as it was before libFuzzer closed it (-close_fd_mask=2
 * silences tomp's warnings about the bad inputs). */
#include <stdio.h>
#include <unistd.h>
static int fuzz_report_fd = 2;
__attribute__((constructor)) static void fuzz_keep_stderr(void) {
  int fd = dup(2);
  if (fd >= 0) fuzz_report_fd = fd;
}

/* A property the parser promised does not hold: a finding, as a crash would be. */
#define FUZZ_ASSERT(c)                                                                             \
  do {                                                                                             \
    if (!(c)) {                                                                                    \
      dprintf(fuzz_report_fd, "fuzz: %s:%d: property violated: %s\n", __FILE__, __LINE__, #c);     \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)
#endif
