/* threadprivate without TLS (clang -fno-openmp-use-tls, and compilers that never use TLS):
 * every access asks __kmpc_threadprivate_cached for the calling thread's copy of `data`.
 *
 * The thread that loaded the library (gtid 0, the initial thread of the program) uses the
 * original variable itself; every other thread gets its own block on first access, made by
 * the registered C++ constructor if there is one (__kmpc_threadprivate_register) or else
 * copied from the variable's image as the runtime first saw it (OpenMP 5.2 5.2: a copy is
 * initialised as the original variable would be, not with its current value; copyin is the
 * compiler's explicit copy).  Each thread keeps its copies in a table of its own, so a lookup
 * takes no lock; the compiler's `cache` argument is not needed.
 *
 * A C++ variable registered with a destructor gets it run on every copy, as libomp does: when
 * the copy's thread ends (a pthread key's destructor), or at process exit for threads still
 * alive then (an atexit handler, registered by the first such registration: it runs before
 * the destructors of statics constructed before that, the original variable's among them).
 * The original itself is the C++ runtime's to destroy. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kmp.h"

/* What the runtime knows of one threadprivate variable (registry: a list, rarely written). */
typedef struct tp_var {
  struct tp_var *next;
  void *data;
  size_t size;
  void *image;                       /* the variable's bytes when first seen (no constructor) */
  void *(*ctor)(void *);             /* C++ constructor of a copy, or NULL */
  void *(*vec_ctor)(void *, size_t); /* the array form (register_vec) */
  size_t vec_len;
  void (*dtor)(void *); /* C++ destructor of a copy, or NULL */
  void (*vec_dtor)(void *, size_t);
} tp_var_t;

static tp_var_t *tp_vars;
static pthread_mutex_t tp_lock = PTHREAD_MUTEX_INITIALIZER;

/* The variable's record, made on first sight; a registration made before fills in ctor. */
static tp_var_t *tp_var(void *data, size_t size) {
  pthread_mutex_lock(&tp_lock);
  tp_var_t *v = tp_vars;
  while (v && v->data != data)
    v = v->next;
  if (!v) {
    v = tomp_calloc(1, sizeof *v);
    v->data = data;
    v->next = tp_vars;
    tp_vars = v;
  }
  if (size && !v->size) {
    v->size = size;
    if (!v->ctor && !v->vec_ctor) {
      v->image = tomp_malloc(size);
      memcpy(v->image, data, size);
    }
  }
  pthread_mutex_unlock(&tp_lock);
  return v;
}

/* Per thread: its copies, keyed by the original's address.  Tables with copies that need a
 * destructor are on a list (under tp_lock) until their destructors have run. */
typedef struct tp_entry {
  void *data, *copy;
  tp_var_t *var;
} tp_entry_t;
typedef struct tp_table {
  size_t n, cap;
  tp_entry_t *e;
  bool listed;
  struct tp_table *next, **pprev;
} tp_table_t;
static __thread tp_table_t tp_table;
static tp_table_t *tp_tables;
static pthread_key_t tp_key;
static bool tp_key_made;

/* Run the destructors of table t's copies, once: the caller took t off the list. */
static void tp_destroy(tp_table_t *t) {
  for (size_t i = t->n; i-- > 0;) {
    tp_var_t *v = t->e[i].var;
    if (v->dtor)
      v->dtor(t->e[i].copy);
    else if (v->vec_dtor)
      v->vec_dtor(t->e[i].copy, v->vec_len);
  }
}

/* Take t off the list (tp_lock held). */
static void tp_unlink(tp_table_t *t) {
  *t->pprev = t->next;
  if (t->next) t->next->pprev = t->pprev;
  t->listed = false;
}

/* The thread ends: its copies' destructors, unless the exit handler ran them already. */
static void tp_thread_end(void *arg) {
  tp_table_t *t = arg;
  pthread_mutex_lock(&tp_lock);
  bool mine = t->listed;
  if (mine) tp_unlink(t);
  pthread_mutex_unlock(&tp_lock);
  if (!mine) return;
  tp_destroy(t);
  for (size_t i = 0; i < t->n; i++)
    free(t->e[i].copy);
  free(t->e);
  *t = (tp_table_t){0};
}

/* Process exit: the copies of every thread still alive (idle workers among them). */
static void tp_exit(void) {
  for (;;) {
    pthread_mutex_lock(&tp_lock);
    tp_table_t *t = tp_tables;
    if (t) tp_unlink(t);
    pthread_mutex_unlock(&tp_lock);
    if (!t) return;
    tp_destroy(t);
  }
}

/* The calling thread's table goes on the list (its first copy needing a destructor). */
static void tp_list(tp_table_t *t) {
  pthread_mutex_lock(&tp_lock);
  if (!t->listed && tp_key_made) {
    t->next = tp_tables;
    if (t->next) t->next->pprev = &t->next;
    t->pprev = &tp_tables;
    tp_tables = t;
    t->listed = true;
  }
  pthread_mutex_unlock(&tp_lock);
  if (t->listed) pthread_setspecific(tp_key, t);
}

static void *tp_make(void *data, size_t size) {
  tp_var_t *v = tp_var(data, size);
  void *copy = tomp_calloc(1, size ? size : 1);
  if (v->ctor)
    v->ctor(copy);
  else if (v->vec_ctor)
    v->vec_ctor(copy, v->vec_len);
  else if (v->image)
    memcpy(copy, v->image, size);
  tp_table_t *t = &tp_table;
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 8;
    tp_entry_t *e = realloc(t->e, cap * sizeof *e);
    if (!e) tomp_fatal("out of memory for threadprivate copies");
    t->e = e;
    t->cap = cap;
  }
  t->e[t->n++] = (tp_entry_t){data, copy, v};
  if ((v->dtor || v->vec_dtor) && !t->listed) tp_list(t);
  return copy;
}

static void *tp_lookup(void *data, size_t size) {
  tomp_thread_t *thr = tomp_thread();
  if (thr->gtid == 0) {
    tp_var(data, size); /* the image must be taken before the variable changes */
    return data;
  }
  tp_table_t *t = &tp_table;
  for (size_t i = 0; i < t->n; i++)
    if (t->e[i].data == data) return t->e[i].copy;
  return tp_make(data, size);
}

TOMP_EXPORT void *__kmpc_threadprivate_cached(ident_t *loc, kmp_int32 gtid, void *data, size_t size,
                                              void ***cache) {
  (void)loc, (void)gtid, (void)cache;
  return tp_lookup(data, size);
}

TOMP_EXPORT void *__kmpc_threadprivate(ident_t *loc, kmp_int32 gtid, void *data, size_t size) {
  (void)loc, (void)gtid;
  return tp_lookup(data, size);
}

/* A registration with a destructor: the first one sets up the thread-end and exit hooks. */
static void tp_want_dtors(tp_var_t *v, void (*dtor)(void *), void (*vec_dtor)(void *, size_t)) {
  pthread_mutex_lock(&tp_lock);
  v->dtor = dtor;
  v->vec_dtor = vec_dtor;
  bool first = !tp_key_made;
  if (first) tp_key_made = pthread_key_create(&tp_key, tp_thread_end) == 0;
  pthread_mutex_unlock(&tp_lock);
  if (first && tp_key_made) atexit(tp_exit);
}

TOMP_EXPORT void __kmpc_threadprivate_register(ident_t *loc, void *data, void *(*ctor)(void *),
                                               void *(*cctor)(void *, void *),
                                               void (*dtor)(void *)) {
  (void)loc, (void)cctor;
  tp_var_t *v = tp_var(data, 0);
  v->ctor = ctor;
  if (dtor) tp_want_dtors(v, dtor, NULL);
}

TOMP_EXPORT void __kmpc_threadprivate_register_vec(ident_t *loc, void *data,
                                                   void *(*ctor)(void *, size_t),
                                                   void *(*cctor)(void *, void *, size_t),
                                                   void (*dtor)(void *, size_t), size_t vec_len) {
  (void)loc, (void)cctor;
  tp_var_t *v = tp_var(data, 0);
  v->vec_ctor = ctor;
  v->vec_len = vec_len;
  if (dtor) tp_want_dtors(v, NULL, dtor);
}
