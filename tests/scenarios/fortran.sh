#!/usr/bin/env bash
# Fortran entry points: a gfortran -fopenmp program exercising a spread of omp_lib routines
# (by-reference scalars, integer(8) variants, character arguments, allocator handles,
# nest-lock indirection), self-checking, run on tomp and on the system libgomp.  The lock part
# is compiled in only when the build defines the C lock routines the Fortran ones forward to.
set -eu
B=${TOMP_BUILD:-build}
OUT=${TEST_OUT:-/tmp}
command -v gfortran >/dev/null || { echo "gfortran not installed: skipped"; exit 0; }
src=$OUT/fortran_routines.F90
exe=$OUT/fortran_routines
locks=
if nm -D --defined-only "$B/libtomp.so" | grep -q ' omp_init_nest_lock$\| omp_init_nest_lock@@'; then locks=-DWITH_LOCKS; fi
cat >"$src" <<'F90'
program routines
  use omp_lib
  implicit none
  integer :: ids(64), nums(64), tids(0:63), sizes(0:63), n, i, lvl, chunk
  integer(8) :: ids8(64), nums8(64), chunk8, place8
  integer(omp_sched_kind) :: kind
  character(len=64) :: buf, fmt
  integer :: fails = 0
  double precision :: t0, t1
  integer(omp_allocator_handle_kind) :: al, al8
  type(omp_alloctrait) :: traits(1)
#ifdef WITH_LOCKS
  integer(omp_lock_kind) :: lck
  integer(omp_nest_lock_kind) :: nlck
  integer :: counter
#endif

  call check(omp_get_num_procs() >= 1, 'num_procs')
  call check(.not. omp_in_parallel(), 'in_parallel serial')
  call check(omp_get_level() == 0, 'level 0')
  call check(omp_get_thread_num() == 0 .and. omp_get_num_threads() == 1, 'serial ids')
  call check(omp_get_ancestor_thread_num(0) == 0 .and. omp_get_team_size(0) == 1, 'level 0 queries')
  call check(omp_get_ancestor_thread_num(1) == -1 .and. omp_get_team_size(1) == -1, 'bad level')

  call omp_set_num_threads(3)
  call check(omp_get_max_threads() == 3, 'set_num_threads')
  call omp_set_num_threads(int(2, 8))
  call check(omp_get_max_threads() == 2, 'set_num_threads_8')

  call omp_set_dynamic(.true.)
  call check(omp_get_dynamic(), 'dynamic true')
  call omp_set_dynamic(.false._8)
  call check(.not. omp_get_dynamic(), 'dynamic false (8)')

  call omp_set_schedule(omp_sched_guided, 5)
  call omp_get_schedule(kind, chunk)
  call check(kind == omp_sched_guided .and. chunk == 5, 'schedule')
  call omp_set_schedule(omp_sched_dynamic, int(7, 8))
  call omp_get_schedule(kind, chunk8)
  call check(kind == omp_sched_dynamic .and. chunk8 == 7, 'schedule_8')

  call check(omp_get_supported_active_levels() >= 2, 'supported levels')
  call omp_set_max_active_levels(2)
  call check(omp_get_max_active_levels() == 2, 'max_active_levels')
  call omp_set_max_active_levels(int(3, 8))
  call check(omp_get_max_active_levels() == 3, 'max_active_levels_8')
  call check(omp_get_thread_limit() >= 1, 'thread_limit')

  ! nested regions: team sizes and ancestors seen from the inner level
  tids = -1
  sizes = -1
  ! (i must be private to the inner team too: shared there, its two threads race on it)
  !$omp parallel num_threads(2)
  !$omp parallel num_threads(2) private(i)
  i = omp_get_ancestor_thread_num(1) * 2 + omp_get_thread_num()
  tids(i) = omp_get_ancestor_thread_num(2)
  sizes(i) = omp_get_team_size(1) * 10 + omp_get_team_size(int(2, 8))
  if (omp_get_level() /= 2) sizes(i) = -99
  !$omp end parallel
  !$omp end parallel
  do i = 0, 3
    call check(tids(i) == mod(i, 2), 'ancestor at level 2')
    call check(sizes(i) == 22, 'team sizes at levels 1 and 2')
  end do

  n = -1
  !$omp parallel num_threads(2)
  if (omp_get_thread_num() == 0) n = omp_get_num_threads()
  if (.not. omp_in_parallel() .and. omp_get_num_threads() > 1) n = -5
  !$omp end parallel
  call check(n == 2, 'parallel team')

  ! devices
  call check(omp_get_num_devices() == 0, 'num_devices')
  call check(omp_is_initial_device(), 'is_initial_device')
  call check(omp_get_initial_device() == omp_get_device_num(), 'initial device')
  call omp_set_default_device(0)
  call check(omp_get_default_device() == 0, 'default device')

  ! teams queries outside a teams region
  call check(omp_get_num_teams() == 1 .and. omp_get_team_num() == 0, 'teams queries')

  ! allocators: handles by reference, an integer(8) trait count
  traits(1) = omp_alloctrait(omp_atk_alignment, 64)
  al = omp_init_allocator(omp_default_mem_space, 1, traits)
  call check(al /= omp_null_allocator, 'init_allocator')
  al8 = omp_init_allocator(omp_default_mem_space, int(1, 8), traits)
  call check(al8 /= omp_null_allocator .and. al8 /= al, 'init_allocator_8')
  call omp_set_default_allocator(al8)
  call check(omp_get_default_allocator() == al8, 'default allocator')
  call omp_set_default_allocator(omp_default_mem_alloc)
  call check(omp_get_default_allocator() == omp_default_mem_alloc, 'default allocator reset')
  call omp_destroy_allocator(al)
  call omp_destroy_allocator(al8)

  ! teams ICVs
  call omp_set_num_teams(4)
  call check(omp_get_max_teams() == 4, 'num_teams')
  call omp_set_teams_thread_limit(int(3, 8))
  call check(omp_get_teams_thread_limit() == 3, 'teams_thread_limit_8')

  ! affinity (no binding requested: no places)
  call check(omp_get_proc_bind() == omp_proc_bind_false, 'proc_bind')
  n = omp_get_num_places()
  call check(n >= 0, 'num_places')
  if (n > 0) then
    call omp_get_place_proc_ids(0, ids)
    place8 = 0
    call omp_get_place_proc_ids(place8, ids8)
    call check(ids(1) == ids8(1), 'place_proc_ids_8')
    call check(omp_get_place_num_procs(0) == omp_get_place_num_procs(place8), 'place_num_procs_8')
    call omp_get_partition_place_nums(nums)
    call omp_get_partition_place_nums(nums8)
    call check(nums(1) == nums8(1), 'partition_place_nums_8')
  end if

  ! affinity format: character arguments
  call omp_set_affinity_format('T%n/%N')
  n = omp_get_affinity_format(buf)
  call check(n == 6 .and. buf == 'T%n/%N', 'get_affinity_format')
  fmt = 'lvl=%L'
  n = omp_capture_affinity(buf, trim(fmt))
  call check(n == 5 .and. buf == 'lvl=0', 'capture_affinity')
  !$omp parallel num_threads(2) private(buf)
  nums(omp_get_thread_num() + 1) = omp_capture_affinity(buf, '')
  !$omp end parallel
  call check(nums(1) == 4 .and. nums(2) == 4, 'capture with the default format')
  call check(omp_get_cancellation() .eqv. .false., 'cancellation')
  call check(omp_pause_resource(omp_pause_soft, omp_get_initial_device()) == 0, 'pause')
  call check(omp_pause_resource_all(omp_pause_hard) == 0, 'pause_all')

  t0 = omp_get_wtime()
  t1 = omp_get_wtime()
  call check(t1 >= t0 .and. omp_get_wtick() > 0d0, 'wtime')

#ifdef WITH_LOCKS
  call omp_init_lock(lck)
  call check(omp_test_lock(lck), 'test_lock free')
  call check(.not. omp_test_lock(lck), 'test_lock held')
  call omp_unset_lock(lck)
  call omp_init_nest_lock(nlck)
  call omp_set_nest_lock(nlck)
  call check(omp_test_nest_lock(nlck) == 2, 'nest lock count')
  call omp_unset_nest_lock(nlck)
  call omp_unset_nest_lock(nlck)
  counter = 0
  !$omp parallel num_threads(2)
  do i = 1, 1000
    call omp_set_lock(lck)
    counter = counter + 1
    call omp_unset_lock(lck)
  end do
  !$omp end parallel
  call check(counter == 2000, 'lock protects')
  call omp_destroy_lock(lck)
  call omp_destroy_nest_lock(nlck)
#endif

  if (fails /= 0) stop 1
  print *, 'fortran routines ok'
contains
  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      print *, 'FAILED: ', what
      fails = fails + 1
    end if
  end subroutine
end program
F90
gfortran -fopenmp -cpp $locks -O1 "$src" -o "$exe"
echo "== libgomp"
"$exe"
echo "== tomp"
env LD_LIBRARY_PATH="$B/lib" ${SANLIB:+LD_PRELOAD="$SANLIB"} "$exe" 2>"$OUT/fortran.err"
cat "$OUT/fortran.err"
# the Fortran program must not trigger any runtime message
if [ -s "$OUT/fortran.err" ]; then echo "unexpected messages"; exit 1; fi
# and it must really have run on tomp
LD_LIBRARY_PATH=$B/lib ldd "$exe" | grep -q "$B/lib/libgomp.so.1\|$(readlink -f "$B/libtomp.so")" || { ldd "$exe"; exit 1; }
echo ok
