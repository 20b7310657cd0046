/* ompt_archer.sh: an unprotected shared increment; Archer must report the data race. */
#include <stdio.h>

int main(void) {
  int counter = 0;
#pragma omp parallel num_threads(4)
  {
    for (int i = 0; i < 1000; i++) counter++;
  }
  printf("racy counter=%d\n", counter);
  return 0;
}
