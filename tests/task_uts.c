/* An unbalanced tree search in the manner of BOTS uts: every node is a tiny untied task that
 * creates its children as tasks and waits for them, on a tree whose shape only the node
 * hashes decide (a near-critical binomial tree: most nodes have no child, some have four), so
 * the threads steal from one another all the time and a task is usually freed by a thread
 * other than the one that created it.  The node count must equal a sequential walk of the
 * same tree; the depth and the count per depth too.
 *
 * bench/task-memory.sh runs it with a larger root to count the allocator calls behind the
 * task memory (docs/benchmarks.md, "Task memory").
 *
 * Usage: task_uts [ROOT_CHILDREN [REPEATS]]  (default 3000, 2)
 * test-env: OMP_NUM_THREADS=4
 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define MAX_DEPTH 160
#define BRANCH 4
#define Q_PER_MILLE 243 /* a node has BRANCH children with this probability: 0.972 expected */

static uint64_t mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static int nchildren(uint64_t h, int depth, int root_children) {
  if (depth == 0) return root_children;
  if (depth >= MAX_DEPTH) return 0;
  return h % 1000 < Q_PER_MILLE ? BRANCH : 0;
}

static uint64_t child_of(uint64_t h, int i) {
  return mix(h * 31 + (uint64_t)i + 1);
}

/* per depth, how many nodes the tasks found (atomic: any thread adds) */
static long found[MAX_DEPTH + 1];
static long expect[MAX_DEPTH + 1];

static long walk_seq(uint64_t h, int depth, int root_children) {
  expect[depth]++;
  long n = 1;
  int m = nchildren(h, depth, root_children);
  for (int i = 0; i < m; i++)
    n += walk_seq(child_of(h, i), depth + 1, root_children);
  return n;
}

static long walk_tasks(uint64_t h, int depth, int root_children) {
  __atomic_add_fetch(&found[depth], 1, __ATOMIC_RELAXED);
  int m = nchildren(h, depth, root_children);
  if (m == 0) return 1;
  /* the program's own memory stays out of the count: the heap only for the root */
  long local[BRANCH], *sub = m <= BRANCH ? local : malloc((size_t)m * sizeof *sub);
  CHECK(sub != NULL);
  for (int i = 0; i < m; i++) {
    uint64_t c = child_of(h, i);
#pragma omp task untied firstprivate(c, i) shared(sub)
    sub[i] = walk_tasks(c, depth + 1, root_children);
  }
#pragma omp taskwait
  long n = 1;
  for (int i = 0; i < m; i++)
    n += sub[i];
  if (sub != local) free(sub);
  return n;
}

int main(int argc, char **argv) {
  int root = argc > 1 ? atoi(argv[1]) : 3000;
  int reps = argc > 2 ? atoi(argv[2]) : 2;
  CHECK(root > 0 && reps > 0);
  uint64_t seed = mix(19);
  long want = walk_seq(seed, 0, root);
  CHECKF(want > 10 * root, "a tree of %ld nodes is too small to test anything", want);
  for (int r = 0; r < reps; r++) {
    for (int d = 0; d <= MAX_DEPTH; d++)
      found[d] = 0;
    long got = -1;
    int team = 0;
#pragma omp parallel
#pragma omp single
    {
      team = omp_get_num_threads();
      got = walk_tasks(seed, 0, root);
    }
    CHECKF(got == want, "round %d: %ld nodes counted, the tree has %ld", r, got, want);
    for (int d = 0; d <= MAX_DEPTH; d++)
      CHECKF(found[d] == expect[d], "round %d depth %d: %ld nodes, want %ld", r, d, found[d],
             expect[d]);
    CHECK(team >= 1);
  }
  printf("task_uts: %ld nodes, %d rounds\n", want, reps);
  return 0;
}
