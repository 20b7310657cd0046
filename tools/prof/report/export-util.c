/* Shared exporter helpers: JSON strings and numbers, buffers, interning (export-util.h). */
#include "export-util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if the bytes there are not one
 * (overlong forms, surrogates and code points above U+10FFFF are rejected). */
static int utf8_len(const unsigned char *s) {
  unsigned c = s[0];
  int n;
  unsigned cp;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) n = 2, cp = c & 0x1f;
  else if (c >= 0xe0 && c <= 0xef) n = 3, cp = c & 0x0f;
  else if (c >= 0xf0 && c <= 0xf4) n = 4, cp = c & 0x07;
  else return 0;
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (s[i] & 0x3f);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff))) return 0;
  if (cp >= 0xd800 && cp <= 0xdfff) return 0;
  return n;
}

void tp_json_str(FILE *out, const char *s) {
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  putc('"', out);
  while (*p) {
    unsigned c = *p;
    if (c == '"' || c == '\\') {
      putc('\\', out);
      putc((int)c, out);
      p++;
    } else if (c < 0x20 || c == 0x7f) {
      switch (c) {
      case '\n': fputs("\\n", out); break;
      case '\t': fputs("\\t", out); break;
      case '\r': fputs("\\r", out); break;
      default: fprintf(out, "\\u%04x", c); break;
      }
      p++;
    } else {
      int n = utf8_len(p);
      if (n == 0) {
        fputs("\\ufffd", out);
        p++;
      } else {
        fwrite(p, 1, (size_t)n, out);
        p += n;
      }
    }
  }
  putc('"', out);
}

char *tp_utf8_fixed(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  size_t bad = 0, n = 0;
  for (; p[n];) {
    int k = utf8_len(p + n);
    if (!k) bad++, k = 1;
    n += (size_t)k;
  }
  if (!bad) return NULL;
  char *r = tp_ex_alloc(n + 2 * bad + 1), *o = r;
  for (size_t i = 0; i < n;) {
    int k = utf8_len(p + i);
    if (k) memcpy(o, p + i, (size_t)k), o += k, i += (size_t)k;
    else memcpy(o, "\xef\xbf\xbd", 3), o += 3, i++;
  }
  *o = 0;
  return r;
}

void tp_json_num(FILE *out, double v, int digits) {
  if (!isfinite(v)) v = 0;
  fprintf(out, "%.*g", digits, v);
}

void *tp_ex_alloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) {
    fputs("tomp-prof: out of memory\n", stderr);
    exit(1);
  }
  return p;
}

void *tp_ex_grow(void *p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return p;
  size_t c = *cap ? *cap : 16;
  while (c < need) c *= 2;
  p = realloc(p, c * elem);
  if (!p) {
    fputs("tomp-prof: out of memory\n", stderr);
    exit(1);
  }
  *cap = c;
  return p;
}

void tp_buf_put(tp_buf_t *b, const void *data, size_t n) {
  b->p = tp_ex_grow(b->p, &b->cap, b->len + n, 1);
  memcpy(b->p + b->len, data, n);
  b->len += n;
}

static uint64_t hash_str(uint64_t h, const char *s) {
  if (!s) return h * 31 + 7;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return (h ^ 0xff) * 0x100000001b3ull;
}

static int same(const char *x, const char *y) {
  if (!x || !y) return x == y;
  return x == y || !strcmp(x, y);
}

uint32_t tp_intern(tp_intern_t *t, const char *a, const char *b, int *isnew) {
  if (2 * (t->n + 1) > t->cap) {
    size_t ncap = t->cap ? 2 * t->cap : 64;
    tp_intern_ent_t *ne = tp_ex_alloc(ncap * sizeof *ne);
    for (size_t i = 0; i < t->cap; i++) {
      if (!t->ent[i].used) continue;
      size_t j = hash_str(hash_str(0xcbf29ce484222325ull, t->ent[i].a), t->ent[i].b) & (ncap - 1);
      while (ne[j].used) j = (j + 1) & (ncap - 1);
      ne[j] = t->ent[i];
    }
    free(t->ent);
    t->ent = ne;
    t->cap = ncap;
  }
  size_t j = hash_str(hash_str(0xcbf29ce484222325ull, a), b) & (t->cap - 1);
  for (; t->ent[j].used; j = (j + 1) & (t->cap - 1)) {
    if (same(t->ent[j].a, a) && same(t->ent[j].b, b)) {
      if (isnew) *isnew = 0;
      return t->ent[j].idx;
    }
  }
  t->ent[j] = (tp_intern_ent_t){a, b, (uint32_t)t->n, 1};
  if (isnew) *isnew = 1;
  return (uint32_t)t->n++;
}

void tp_intern_free(tp_intern_t *t) {
  free(t->ent);
  t->ent = NULL;
  t->cap = t->n = 0;
}
