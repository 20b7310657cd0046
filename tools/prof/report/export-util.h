/* Helpers shared by the exporters (export-speedscope.c, export-pprof.c, export-chrome.c):
 * JSON output that is valid whatever bytes the symbol names and paths contain, a growable
 * byte buffer, and an interning table keyed on one or two strings.  Keys are not copied: they
 * must outlive the table (they point into the profile or are literals). */
#ifndef TP_EXPORT_UTIL_H
#define TP_EXPORT_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A JSON string literal with its quotes; NULL is written as "".  Invalid UTF-8 bytes become
 * U+FFFD so that strict parsers accept the file. */
void tp_json_str(FILE *out, const char *s);
/* NULL if s is valid UTF-8, else a malloc'd copy with each invalid byte replaced by U+FFFD
 * (protobuf string fields must be UTF-8). */
char *tp_utf8_fixed(const char *s);
/* A JSON number (%.*g); NaN and infinities, which JSON cannot express, are written as 0. */
void tp_json_num(FILE *out, double v, int digits);

/* Allocation for the exporters: the report program stops with a message when memory runs out. */
void *tp_ex_alloc(size_t n);
void *tp_ex_grow(void *p, size_t *cap, size_t need, size_t elem);

typedef struct tp_buf {
  uint8_t *p;
  size_t len, cap;
} tp_buf_t;
void tp_buf_put(tp_buf_t *b, const void *data, size_t n);

/* Interning: tp_intern returns the dense index (0, 1, 2, ... in first-seen order) of the key
 * (a, b); either string may be NULL (distinct from ""). *isnew tells whether it was added. */
typedef struct tp_intern_ent {
  const char *a, *b;
  uint32_t idx;
  uint32_t used;
} tp_intern_ent_t;
typedef struct tp_intern {
  tp_intern_ent_t *ent;
  size_t cap, n;
} tp_intern_t;
uint32_t tp_intern(tp_intern_t *t, const char *a, const char *b, int *isnew);
void tp_intern_free(tp_intern_t *t);

#endif
