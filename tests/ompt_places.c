/* The OMPT place entry points answer what the omp_* place routines answer, in a team and
 * outside, with a place list (OMP_PLACES=threads, bound) : ompt_get_num_places,
 * ompt_get_place_proc_ids (count, ids, a short buffer, bad place numbers),
 * ompt_get_place_num, ompt_get_partition_place_nums.  (They returned 0 for every place list
 * until the LLVM OMPT suite's api_calls_places caught it.)
 * test-cflags: -rdynamic
 * test-env: OMP_PLACES=threads OMP_PROC_BIND=close
 * test-no-libgomp: libgomp has no OMPT: ompt_start_tool is never called (LLVM's libomp passes)
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>

#include "check.h"

static ompt_get_num_places_t num_places;
static ompt_get_place_proc_ids_t place_proc_ids;
static ompt_get_place_num_t place_num;
static ompt_get_partition_place_nums_t partition_place_nums;

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *td) {
  (void)dev, (void)td;
  num_places = (ompt_get_num_places_t)lookup("ompt_get_num_places");
  place_proc_ids = (ompt_get_place_proc_ids_t)lookup("ompt_get_place_proc_ids");
  place_num = (ompt_get_place_num_t)lookup("ompt_get_place_num");
  partition_place_nums = (ompt_get_partition_place_nums_t)lookup("ompt_get_partition_place_nums");
  return 1;
}

static void fini(ompt_data_t *td) {
  (void)td;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned v, const char *rv) {
  (void)v, (void)rv;
  static ompt_start_tool_result_t r = {init, fini, {0}};
  return &r;
}

static int bad;

static void compare(const char *where) {
  int n = omp_get_num_places();
  if (num_places() != n)
    bad = 1, fprintf(stderr, "%s: %d places, ompt says %d\n", where, n, num_places());
  for (int p = 0; p < n; p++) {
    int k = omp_get_place_num_procs(p), ids[256], oids[256] = {0};
    CHECK(k > 0 && k <= 256);
    omp_get_place_proc_ids(p, ids);
    if (place_proc_ids(p, 256, oids) != k)
      bad = 1, fprintf(stderr, "%s: place %d count\n", where, p);
    for (int i = 0; i < k; i++)
      if (oids[i] != ids[i]) bad = 1, fprintf(stderr, "%s: place %d id %d\n", where, p, i);
    int one[1] = {-7};
    if (place_proc_ids(p, 0, one) != k || one[0] != -7) bad = 1; /* nothing written */
  }
  if (place_proc_ids(-1, 0, NULL) != 0 || place_proc_ids(n, 0, NULL) != 0) bad = 1;
  if (place_num() != omp_get_place_num())
    bad = 1,
    fprintf(stderr, "%s: place %d, ompt says %d\n", where, omp_get_place_num(), place_num());
  int pn = omp_get_partition_num_places(), nums[256], onums[256];
  CHECK(pn >= 0 && pn <= 256);
  omp_get_partition_place_nums(nums);
  if (partition_place_nums(256, onums) != pn)
    bad = 1, fprintf(stderr, "%s: partition size\n", where);
  for (int i = 0; i < pn; i++)
    if (onums[i] != nums[i]) bad = 1, fprintf(stderr, "%s: partition entry %d\n", where, i);
}

int main(void) {
  CHECK(omp_get_num_places() >= 1); /* a routine first: libomp starts its tool lazily */
  CHECK(num_places != NULL && place_proc_ids && place_num && partition_place_nums);
  compare("initial thread");
#pragma omp parallel num_threads(2)
#pragma omp critical
  compare("team of two");
  printf("%d places, OMPT and omp_* agree: %s\n", omp_get_num_places(), bad ? "no" : "yes");
  return bad;
}
