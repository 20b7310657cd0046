/* An LD_PRELOAD that counts calls into the C allocator (glibc only): malloc, calloc,
 * realloc, free (of a non-NULL pointer) and the aligned forms, and prints the counts on stderr
 * at exit as one line:
 *
 *   malloc-count: malloc=N calloc=N realloc=N aligned=N free=N
 *
 * Each call is passed to glibc's own entry (__libc_malloc, ...), so nothing else changes.
 * Used by bench/task-memory.sh; build: gcc -O2 -fPIC -shared -o malloc-count.so malloc-count.c */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static unsigned long n_malloc, n_calloc, n_realloc, n_aligned, n_free;
#define COUNT(c) __atomic_add_fetch(&(c), 1, __ATOMIC_RELAXED)

void *malloc(size_t n) {
  COUNT(n_malloc);
  return __libc_malloc(n);
}
void *calloc(size_t a, size_t b) {
  COUNT(n_calloc);
  return __libc_calloc(a, b);
}
void *realloc(void *p, size_t n) {
  COUNT(n_realloc);
  return __libc_realloc(p, n);
}
void free(void *p) {
  if (p) COUNT(n_free);
  __libc_free(p);
}
void *memalign(size_t a, size_t n) {
  COUNT(n_aligned);
  return __libc_memalign(a, n);
}
void *aligned_alloc(size_t a, size_t n) {
  COUNT(n_aligned);
  return __libc_memalign(a, n);
}
int posix_memalign(void **out, size_t a, size_t n) {
  COUNT(n_aligned);
  void *p = __libc_memalign(a, n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

__attribute__((destructor)) static void report(void) {
  char buf[160];
  int len = snprintf(buf, sizeof buf,
                     "malloc-count: malloc=%lu calloc=%lu realloc=%lu aligned=%lu free=%lu\n",
                     n_malloc, n_calloc, n_realloc, n_aligned, n_free);
  if (len > 0) {
    ssize_t w = write(2, buf, (size_t)len < sizeof buf ? (size_t)len : sizeof buf - 1);
    (void)w;
  }
}
