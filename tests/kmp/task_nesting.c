/* Tasks run at once inside tasks run at once, 3000 levels deep (a team of one and outside any
 * region; with if(0) and with dependences on the way), each checking its firstprivate copy and
 * its shared variable after its children: the runtime's staging of clang's task areas
 * (src/kmp/taskstage.c) must hold any depth, falling back to core's blocks when it is full.
 * Then the same chain deferred in a team of three. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "../check.h"

#define DEPTH 3000

static int bad;

static long chain(int level, int mode) {
  long here = 0;
  char pad[24];
  memset(pad, level & 0x7f, sizeof pad);
  if (level == DEPTH) return 1;
  switch (mode % 3) {
  case 0:
#pragma omp task shared(here) firstprivate(level, pad, mode)
  {
    here = chain(level + 1, mode + 1);
    if (pad[0] != (char)(level & 0x7f) || pad[23] != (char)(level & 0x7f)) bad = 1;
  } break;
  case 1:
#pragma omp task if (0) shared(here) firstprivate(level, pad, mode)
  {
    here = chain(level + 1, mode + 1);
    if (pad[5] != (char)(level & 0x7f)) bad = 1;
  } break;
  default:
#pragma omp task depend(out : here) shared(here) firstprivate(level, pad, mode)
  {
    here = chain(level + 1, mode + 1);
    if (pad[9] != (char)(level & 0x7f)) bad = 1;
  } break;
  }
#pragma omp taskwait
  return here + 1;
}

int main(void) {
  CHECK(chain(0, 0) == DEPTH + 1 && !bad);
  long r = 0;
#pragma omp parallel num_threads(1)
  r = chain(0, 1);
  CHECK(r == DEPTH + 1 && !bad);
#pragma omp parallel num_threads(3)
  if (omp_get_thread_num() == 0) r = chain(DEPTH - 300, 2);
  CHECK(r == 301 && !bad);
  printf("ok\n");
  return 0;
}
