/* ICV routines: setters and getters, the per-task scope of data-environment ICVs (a setter
 * inside a region changes only the calling task's value), argument clamping, schedule
 * kinds and chunks, thread limit, teams ICVs, devices, timing and pause.
 * test-libomp-fails: libomp 14 changes run-sched-var when omp_set_schedule gets an unknown kind */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(void) {
  omp_sched_t k;
  int c;

  /* num_threads: per task, inherited by the region's implicit tasks */
  omp_set_num_threads(3);
  CHECK(omp_get_max_threads() == 3);
  int inner_max[3] = {0}, team = 0;
#pragma omp parallel
  {
    int t = omp_get_thread_num();
    if (t == 0) team = omp_get_num_threads();
    if (t == 1) omp_set_num_threads(5); /* only thread 1's task */
#pragma omp barrier
    inner_max[t] = omp_get_max_threads();
  }
  CHECK(team == 3);
  CHECK(inner_max[0] == 3 && inner_max[1] == 5 && inner_max[2] == 3);
  CHECK(omp_get_max_threads() == 3);

  /* dynamic */
  omp_set_dynamic(1);
  CHECK(omp_get_dynamic() == 1);
  omp_set_dynamic(0);
  CHECK(omp_get_dynamic() == 0);

  /* schedule: kinds with and without monotonic, default chunks */
  omp_set_schedule(omp_sched_dynamic, 4);
  omp_get_schedule(&k, &c);
  CHECK(k == omp_sched_dynamic && c == 4);
  omp_set_schedule(omp_sched_guided | omp_sched_monotonic, 2);
  omp_get_schedule(&k, &c);
  CHECK(k == (omp_sched_guided | omp_sched_monotonic) && c == 2);
  omp_set_schedule(omp_sched_static, 0);
  omp_get_schedule(&k, &c);
  CHECK(k == omp_sched_static && c == 0);
  omp_set_schedule(omp_sched_dynamic, -3);
  omp_get_schedule(&k, &c);
  CHECK(k == omp_sched_dynamic && c == 1);
  omp_set_schedule(omp_sched_auto, 9);
  omp_get_schedule(&k, &c);
  CHECK(k == omp_sched_auto);
  omp_set_schedule(omp_sched_guided, 6);
  omp_set_schedule((omp_sched_t)77, 3); /* unknown kind: ignored */
  omp_get_schedule(&k, &c);
  CHECK(k == omp_sched_guided && c == 6);
  /* run-sched-var is per task too */
  int ks[2] = {0};
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1) omp_set_schedule(omp_sched_static, 8);
#pragma omp barrier
    omp_sched_t kk;
    int cc;
    omp_get_schedule(&kk, &cc);
    ks[omp_get_thread_num()] = (int)kk * 100 + cc;
  }
  CHECK(ks[0] == 306 && ks[1] == 108);

  /* nested / max active levels */
  CHECK(omp_get_supported_active_levels() >= 2);
  omp_set_max_active_levels(3);
  CHECK(omp_get_max_active_levels() == 3 && omp_get_nested());
  omp_set_max_active_levels(omp_get_supported_active_levels() + 100);
  CHECK(omp_get_max_active_levels() == omp_get_supported_active_levels());
  omp_set_max_active_levels(-1); /* ignored */
  CHECK(omp_get_max_active_levels() == omp_get_supported_active_levels());
  omp_set_nested(0);
  CHECK(!omp_get_nested() && omp_get_max_active_levels() == 1);
  omp_set_nested(1);
  CHECK(omp_get_nested() && omp_get_max_active_levels() > 1);
  omp_set_max_active_levels(1);

  CHECK(omp_get_thread_limit() >= 1);
  CHECK(omp_get_num_procs() >= 1);
  CHECK(omp_get_cancellation() == 0);

  /* teams ICVs */
  omp_set_num_teams(4);
  CHECK(omp_get_max_teams() == 4);
  omp_set_teams_thread_limit(3);
  CHECK(omp_get_teams_thread_limit() == 3);

  /* devices: no offload devices, the host is the initial device */
  CHECK(omp_get_num_devices() == 0);
  CHECK(omp_is_initial_device());
  CHECK(omp_get_initial_device() == omp_get_device_num());
  omp_set_default_device(0);
  CHECK(omp_get_default_device() == 0);

  /* timing */
  double t0 = omp_get_wtime(), t1 = omp_get_wtime();
  CHECK(t1 >= t0 && t0 > 0);
  CHECK(omp_get_wtick() > 0 && omp_get_wtick() < 1);

  /* pause: soft and hard leave the runtime usable; a bad device fails */
  CHECK(omp_pause_resource(omp_pause_soft, omp_get_initial_device()) == 0);
  CHECK(omp_pause_resource_all(omp_pause_hard) == 0);
  CHECK(omp_pause_resource(omp_pause_soft, 12345) != 0);
  int ran[4] = {0};
  omp_set_num_threads(4);
  for (int rep = 0; rep < 3; rep++) {
#pragma omp parallel
    __atomic_add_fetch(&ran[omp_get_thread_num()], 1, __ATOMIC_RELAXED);
    CHECK(omp_pause_resource_all(omp_pause_hard) == 0);
  }
  for (int i = 0; i < 4; i++) CHECK(ran[i] == 3);
  printf("routines_icv ok\n");
  return 0;
}
