/* C++ threadprivate without TLS (clang -fno-openmp-use-tls), at the ABI level clang emits for
 * a variable of class type: __kmpc_threadprivate_register(loc, &var, ctor, NULL, dtor) at
 * start-up, then __kmpc_threadprivate_cached for each access.  Every thread's copy is built by
 * the constructor and destroyed by the destructor exactly once: a worker's copies when a hard
 * pause ends the workers, the copies of the workers alive at exit when the process exits (an
 * atexit handler registered before the registration checks them after the runtime's).  The
 * initial thread uses the variable itself, which the program (not the runtime) destroys.
 * (Before tomp ran the destructors, the check after the pause failed: 0 of 3 destroyed.)
 * An array variable (__kmpc_threadprivate_register_vec) likewise. */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "../check.h"

void __kmpc_threadprivate_register(void *loc, void *data, void *(*ctor)(void *),
                                   void *(*cctor)(void *, void *), void (*dtor)(void *));
void __kmpc_threadprivate_register_vec(void *loc, void *data, void *(*ctor)(void *, size_t),
                                       void *(*cctor)(void *, void *, size_t),
                                       void (*dtor)(void *, size_t), size_t n);
void *__kmpc_threadprivate_cached(void *loc, int32_t gtid, void *data, size_t size, void ***cache);
int32_t __kmpc_global_thread_num(void *loc);

#define MAGIC 0x5eed
typedef struct {
  int magic, owner;
} obj_t;
static obj_t var = {MAGIC, -1}, vec[3] = {{MAGIC, -1}, {MAGIC, -1}, {MAGIC, -1}};
static void **var_cache, **vec_cache;
static int built, destroyed, bad, vbuilt, vdestroyed;

static void *ctor(void *p) {
  *(obj_t *)p = (obj_t){MAGIC, -1};
  __atomic_add_fetch(&built, 1, __ATOMIC_RELAXED);
  return p;
}
static void dtor(void *p) {
  obj_t *o = p;
  if (o->magic != MAGIC) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
  o->magic = 0; /* a second destruction shows */
  __atomic_add_fetch(&destroyed, 1, __ATOMIC_RELAXED);
}
static void *vctor(void *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    ((obj_t *)p)[i] = (obj_t){MAGIC, -1};
  __atomic_add_fetch(&vbuilt, 1, __ATOMIC_RELAXED);
  return p;
}
static void vdtor(void *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (((obj_t *)p)[i].magic != MAGIC) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    ((obj_t *)p)[i].magic = 0;
  }
  __atomic_add_fetch(&vdestroyed, 1, __ATOMIC_RELAXED);
}

static void at_exit(void) {
  if (destroyed != built || vdestroyed != vbuilt || bad) {
    fprintf(stderr, "at exit: %d copies built, %d destroyed; arrays %d, %d; %d bad\n", built,
            destroyed, vbuilt, vdestroyed, bad);
    _exit(1);
  }
  if (var.magic != MAGIC) _exit(1); /* the original is not the runtime's to destroy */
}

/* Each thread of a team of t marks its copies; returns how many threads saw their own. */
static int use(int t) {
  int ok = 0;
#pragma omp parallel num_threads(t) reduction(+ : ok)
  {
    int32_t gtid = __kmpc_global_thread_num(NULL);
    int me = omp_get_thread_num();
    obj_t *o = __kmpc_threadprivate_cached(NULL, gtid, &var, sizeof var, &var_cache);
    obj_t *v = __kmpc_threadprivate_cached(NULL, gtid, vec, sizeof vec, &vec_cache);
    o->owner = me;
    v[2].owner = me;
#pragma omp barrier
    ok += o->magic == MAGIC && o->owner == me && v[2].magic == MAGIC && v[2].owner == me &&
          (me == 0) == (o == &var);
  }
  return ok;
}

int main(void) {
  atexit(at_exit); /* before the registrations: runs after the runtime's handler */
  omp_set_dynamic(0);
  __kmpc_threadprivate_register(NULL, &var, ctor, NULL, dtor);
  __kmpc_threadprivate_register_vec(NULL, vec, vctor, NULL, vdtor, 3);
  CHECK(use(4) == 4);
  CHECKF(built == 3 && vbuilt == 3 && destroyed == 0, "built %d, arrays %d, destroyed %d", built,
         vbuilt, destroyed);
  CHECK(omp_pause_resource_all(omp_pause_hard) == 0);
  /* the workers are gone; wait for their ends to be seen (threads end asynchronously) */
  for (int i = 0; i < 2000 && (destroyed != 3 || vdestroyed != 3); i++)
    usleep(1000);
  CHECKF(destroyed == 3 && vdestroyed == 3 && bad == 0,
         "after a hard pause: %d of 3 copies destroyed, arrays %d, %d bad", destroyed, vdestroyed,
         bad);
  /* New workers, new copies: destroyed at exit (at_exit checks).  tomp keeps the
   * registrations across the pause; libomp's hard pause forgets them (its new copies are
   * plain images, built and destroyed by nobody): both are allowed, a hard pause may lose
   * threadprivate data. */
  CHECK(use(3) == 3);
  puts("ok");
  return 0;
}
