/* OpenMP allocators: predefined allocators, every trait, pool accounting and exhaustion with
 * each fallback (default_mem_fb, null_fb, allocator_fb, abort_fb in a child process),
 * alignment, calloc zeroing, realloc, def-allocator-var (inherited by implicit tasks, private
 * to each task), and invalid traits giving omp_null_allocator.
 * test-no-libomp: libomp 14 aborts (assertion at kmp_alloc.cpp:1665) */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define ALIGNED(p, a) (((uintptr_t)(p) & ((a)-1)) == 0)
#define KB 1024

static omp_allocator_handle_t make(omp_memspace_handle_t ms, int n, const omp_alloctrait_t *t) {
  return omp_init_allocator(ms, n, t);
}

/* Fill blocks of sz bytes from a until it returns NULL (at most max); returns the count. */
static int exhaust(omp_allocator_handle_t a, size_t sz, void **blocks, int max) {
  int n = 0;
  while (n < max && (blocks[n] = omp_alloc(sz, a)) != NULL) {
    memset(blocks[n], n, sz);
    n++;
  }
  return n;
}

int main(void) {
  /* abort_fb, first, in a child process (before any thread exists) */
  {
    omp_alloctrait_t t[] = {{omp_atk_pool_size, 4 * KB}, {omp_atk_fallback, omp_atv_abort_fb}};
    omp_allocator_handle_t a = make(omp_default_mem_space, 2, t);
    CHECK(a != omp_null_allocator);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
      void *p = omp_alloc(KB, a);
      if (!p) _exit(0);
      omp_alloc(8 * KB, a); /* over the pool: must not return */
      _exit(0);
    }
    int st;
    CHECK(waitpid(pid, &st, 0) == pid);
    CHECK(!(WIFEXITED(st) && WEXITSTATUS(st) == 0));
    omp_destroy_allocator(a);
  }

  /* predefined allocators all work */
  const omp_allocator_handle_t pre[] = {omp_default_mem_alloc, omp_large_cap_mem_alloc,
                                        omp_const_mem_alloc,   omp_high_bw_mem_alloc,
                                        omp_low_lat_mem_alloc, omp_cgroup_mem_alloc,
                                        omp_pteam_mem_alloc,   omp_thread_mem_alloc};
  for (unsigned i = 0; i < sizeof pre / sizeof pre[0]; i++) {
    char *p = omp_alloc(100, pre[i]);
    CHECK(p && ALIGNED(p, sizeof(void *)));
    memset(p, 1, 100);
    omp_free(p, pre[i]);
  }
  CHECK(omp_alloc(0, omp_default_mem_alloc) == NULL);
  omp_free(NULL, omp_default_mem_alloc);

  /* alignment trait and aligned allocation */
  {
    omp_alloctrait_t t[] = {{omp_atk_alignment, 256}};
    omp_allocator_handle_t a = make(omp_default_mem_space, 1, t);
    CHECK(a != omp_null_allocator);
    for (int i = 0; i < 20; i++) {
      void *p = omp_alloc(1 + i * 37, a);
      CHECK(p && ALIGNED(p, 256));
      void *q = omp_aligned_alloc(1024, 10, a);
      CHECK(q && ALIGNED(q, 1024));
      void *r = omp_aligned_alloc(16, 10, a); /* the trait still applies */
      CHECK(r && ALIGNED(r, 256));
      omp_free(p, a);
      omp_free(q, a);
      omp_free(r, omp_null_allocator);
    }
    int *z = omp_aligned_calloc(128, 1000, sizeof(int), a);
    CHECK(z && ALIGNED(z, 256));
    for (int i = 0; i < 1000; i++) CHECK(z[i] == 0);
    omp_free(z, a);
    omp_destroy_allocator(a);
    void *p = omp_aligned_alloc(4096, 5, omp_default_mem_alloc);
    CHECK(p && ALIGNED(p, 4096));
    omp_free(p, omp_default_mem_alloc);
  }

  /* pool + null_fb: exhaustion returns NULL; freeing makes room again */
  void *blocks[64];
  {
    omp_alloctrait_t t[] = {{omp_atk_pool_size, 64 * KB}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t a = make(omp_default_mem_space, 2, t);
    CHECK(a != omp_null_allocator);
    int n = exhaust(a, 16 * KB, blocks, 64);
    CHECK(n >= 3 && n <= 4);
    CHECK(omp_alloc(16 * KB, a) == NULL);
    CHECK(omp_alloc(128 * KB, a) == NULL);
    omp_free(blocks[--n], a);
    blocks[n] = omp_alloc(16 * KB, a);
    CHECK(blocks[n] != NULL);
    n++;
    for (int i = 0; i < n; i++) {
      unsigned char *b = blocks[i];
      CHECK(b[0] == (unsigned char)i || i == n - 1);
      omp_free(blocks[i], a);
    }
    /* everything was returned: the whole pool is usable again */
    CHECK(exhaust(a, 16 * KB, blocks, 64) == n);
    for (int i = 0; i < n; i++) omp_free(blocks[i], a);
    omp_destroy_allocator(a);
  }

  /* pool + default_mem_fb (also the default fallback): allocation goes on past the pool */
  for (int variant = 0; variant < 2; variant++) {
    omp_alloctrait_t t[] = {{omp_atk_pool_size, 32 * KB},
                            {omp_atk_fallback, omp_atv_default_mem_fb}};
    omp_allocator_handle_t a = make(omp_default_mem_space, variant ? 2 : 1, t);
    CHECK(a != omp_null_allocator);
    CHECK(exhaust(a, 16 * KB, blocks, 10) == 10);
    for (int i = 0; i < 10; i++) omp_free(blocks[i], a);
    omp_destroy_allocator(a);
  }

  /* pool + allocator_fb: falls back to fb_data, whose own pool then runs out */
  {
    omp_alloctrait_t tf[] = {{omp_atk_pool_size, 32 * KB}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t fb = make(omp_default_mem_space, 2, tf);
    omp_alloctrait_t t[] = {{omp_atk_pool_size, 32 * KB},
                            {omp_atk_fallback, omp_atv_allocator_fb},
                            {omp_atk_fb_data, fb}};
    omp_allocator_handle_t a = make(omp_default_mem_space, 3, t);
    CHECK(fb != omp_null_allocator && a != omp_null_allocator);
    int n = exhaust(a, 8 * KB, blocks, 64);
    CHECK(n >= 6 && n <= 8);
    for (int i = 0; i < n; i++) omp_free(blocks[i], omp_null_allocator); /* header knows */
    CHECK(exhaust(fb, 8 * KB, blocks, 64) >= 3);
    for (int i = 0; i < 64 && blocks[i]; i++) omp_free(blocks[i], fb);
    omp_destroy_allocator(a);
    omp_destroy_allocator(fb);
  }

  /* the remaining traits are accepted with every valid value */
  {
    omp_alloctrait_t t[] = {{omp_atk_sync_hint, omp_atv_uncontended},
                            {omp_atk_access, omp_atv_all},
                            {omp_atk_partition, omp_atv_environment},
                            {omp_atk_pinned, omp_atv_false},
                            {omp_atk_fallback, omp_atv_null_fb}};
    const omp_uintptr_t hints[] = {omp_atv_contended, omp_atv_uncontended, omp_atv_serialized,
                                   omp_atv_private, omp_atv_default};
    const omp_uintptr_t parts[] = {omp_atv_environment, omp_atv_nearest, omp_atv_blocked,
                                   omp_atv_interleaved};
    for (unsigned h = 0; h < sizeof hints / sizeof hints[0]; h++)
      for (unsigned pa = 0; pa < sizeof parts / sizeof parts[0]; pa++) {
        t[0].value = hints[h];
        t[2].value = parts[pa];
        omp_allocator_handle_t a = make(omp_default_mem_space, 5, t);
        CHECK(a != omp_null_allocator);
        char *p = omp_alloc(1000, a);
        CHECK(p);
        memset(p, 7, 1000);
        omp_free(p, a);
        omp_destroy_allocator(a);
      }
    const omp_memspace_handle_t spaces[] = {omp_default_mem_space, omp_large_cap_mem_space,
                                            omp_const_mem_space, omp_high_bw_mem_space,
                                            omp_low_lat_mem_space};
    for (unsigned s = 0; s < 5; s++) {
      omp_allocator_handle_t a = make(spaces[s], 0, NULL);
      if (spaces[s] == omp_default_mem_space) CHECK(a != omp_null_allocator);
      if (a == omp_null_allocator) continue; /* a space may be unavailable */
      char *p = omp_alloc(64, a);
      CHECK(p);
      omp_free(p, a);
      omp_destroy_allocator(a);
    }
  }

  /* pinned memory, where supported */
  {
    omp_alloctrait_t t[] = {{omp_atk_pinned, omp_atv_true}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t a = make(omp_default_mem_space, 2, t);
    if (a != omp_null_allocator) {
      char *p = omp_alloc(3000, a);
      if (p) {
        memset(p, 3, 3000);
        omp_free(p, a);
      }
      omp_destroy_allocator(a);
    }
  }

  /* invalid traits: omp_null_allocator */
  {
    omp_alloctrait_t bad1[] = {{omp_atk_alignment, 3}};
    omp_alloctrait_t bad2[] = {{omp_atk_fallback, omp_atv_blocked}};
    omp_alloctrait_t bad3[] = {{omp_atk_sync_hint, omp_atv_null_fb}};
    omp_alloctrait_t bad4[] = {{(omp_alloctrait_key_t)99, 1}};
    CHECK(make(omp_default_mem_space, 1, bad1) == omp_null_allocator);
    CHECK(make(omp_default_mem_space, 1, bad2) == omp_null_allocator);
    CHECK(make(omp_default_mem_space, 1, bad3) == omp_null_allocator);
    CHECK(make(omp_default_mem_space, 1, bad4) == omp_null_allocator);
  }

  /* calloc and realloc */
  {
    omp_alloctrait_t t[] = {{omp_atk_pool_size, 64 * KB}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t a = make(omp_default_mem_space, 2, t);
    long *v = omp_calloc(100, sizeof(long), a);
    CHECK(v);
    for (int i = 0; i < 100; i++) { CHECK(v[i] == 0); v[i] = i; }
    v = omp_realloc(v, 1000 * sizeof(long), a, a);
    CHECK(v);
    for (int i = 0; i < 100; i++) CHECK(v[i] == i);
    v = omp_realloc(v, 10 * sizeof(long), omp_null_allocator, omp_null_allocator);
    CHECK(v);
    for (int i = 0; i < 10; i++) CHECK(v[i] == i);
    /* growing past the pool fails and leaves the block alone */
    CHECK(omp_realloc(v, 128 * KB, a, a) == NULL);
    for (int i = 0; i < 10; i++) CHECK(v[i] == i);
    v = omp_realloc(v, 20 * sizeof(long), omp_default_mem_alloc, a); /* another allocator */
    CHECK(v);
    for (int i = 0; i < 10; i++) CHECK(v[i] == i);
    CHECK(omp_realloc(v, 0, omp_null_allocator, omp_default_mem_alloc) == NULL);
    v = omp_realloc(NULL, 16, a, omp_null_allocator);
    CHECK(v);
    omp_free(v, a);
    CHECK(exhaust(a, 16 * KB, blocks, 64) >= 3); /* realloc kept the pool's books */
    for (int i = 0; i < 64 && blocks[i]; i++) omp_free(blocks[i], a);
    omp_destroy_allocator(a);
  }

  /* def-allocator-var */
  {
    CHECK(omp_get_default_allocator() == omp_default_mem_alloc);
    omp_alloctrait_t t[] = {{omp_atk_pool_size, 8 * KB}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t a = make(omp_default_mem_space, 2, t);
    omp_set_default_allocator(a);
    CHECK(omp_get_default_allocator() == a);
    CHECK(omp_alloc(16 * KB, omp_null_allocator) == NULL); /* through a's pool */
    int bad = 0;
#pragma omp parallel num_threads(3) reduction(+ : bad)
    {
      if (omp_get_default_allocator() != a) bad++;
      if (omp_get_thread_num() == 1) {
        omp_set_default_allocator(omp_high_bw_mem_alloc);
        if (omp_get_default_allocator() != omp_high_bw_mem_alloc) bad++;
      }
#pragma omp barrier
      if (omp_get_thread_num() != 1 && omp_get_default_allocator() != a) bad++;
    }
    CHECK(bad == 0);
    CHECK(omp_get_default_allocator() == a);
    omp_set_default_allocator(omp_default_mem_alloc);
    void *p = omp_alloc(16 * KB, omp_null_allocator);
    CHECK(p);
    omp_free(p, omp_null_allocator);
    omp_destroy_allocator(a);
  }

  /* concurrent use of one pool from several threads keeps exact books */
  {
    omp_alloctrait_t t[] = {{omp_atk_pool_size, 256 * KB}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t a = make(omp_default_mem_space, 2, t);
    int fails = 0;
#pragma omp parallel num_threads(4) reduction(+ : fails)
    for (int i = 0; i < 2000; i++) {
      void *p = omp_alloc(8 * KB, a);
      if (!p) {
        fails++;
        continue;
      }
      memset(p, i, 8 * KB);
      omp_free(p, a);
    }
    CHECK(fails == 0); /* 4 x 8 KB never exceed the pool */
    CHECK(exhaust(a, 32 * KB, blocks, 64) >= 7);
    for (int i = 0; i < 64 && blocks[i]; i++) omp_free(blocks[i], a);
    omp_destroy_allocator(a);
  }
  puts("ok");
  return 0;
}
