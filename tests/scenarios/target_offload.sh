#!/usr/bin/env bash
# OMP_TARGET_OFFLOAD and device numbers (OpenMP 5.2; tomp has no device but the host, number 0):
#   unset/default  a device construct naming another device falls back to the host, a device
#                  memory routine naming one fails (NULL);
#   mandatory      the default device is omp_invalid_device, so every device construct without
#                  a device clause, and any construct or memory routine naming a device other
#                  than the host, is a runtime error termination naming what was refused;
#                  device(0) (the host) and if(0) still run;
#   disabled       like unset;
#   omp_invalid_device (-4) named anywhere terminates, whatever the setting.
# The rows that must run are run on the system libgomp too, as a check of the program (libgomp
# 12 differs on the rest: it falls back to the host silently under mandatory and for -4).
set -u
src=$TEST_OUT/target_offload_scn.c
cat >"$src" <<'C'
#include <omp.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  const char *m = argv[1];
  int x = 0, dev = 3, inval = -4;
  if (!strcmp(m, "default")) {
#pragma omp target map(tofrom : x)
    x = 1;
  } else if (!strcmp(m, "dev0")) {
#pragma omp target map(tofrom : x) device(0)
    x = 1;
  } else if (!strcmp(m, "dev3")) {
#pragma omp target map(tofrom : x) device(dev)
    x = 1;
  } else if (!strcmp(m, "invalid")) {
#pragma omp target map(tofrom : x) device(inval)
    x = 1;
  } else if (!strcmp(m, "iffalse")) {
#pragma omp target map(tofrom : x) if (0)
    x = 1;
  } else if (!strcmp(m, "data")) {
#pragma omp target data map(tofrom : x)
    x = 1;
  } else if (!strcmp(m, "update")) {
#pragma omp target update to(x)
    x = 1;
  } else if (!strcmp(m, "enter")) {
#pragma omp target enter data map(to : x)
    x = 1;
  } else if (!strcmp(m, "setinvalid")) { /* OpenMP 5.2: a valid default device */
    omp_set_default_device(inval);
    if (omp_get_default_device() != inval) return 2;
#pragma omp target map(tofrom : x)
    x = 1;
  } else if (!strcmp(m, "setbad")) { /* refused with a message, value kept */
    omp_set_default_device(-7);
    x = omp_get_default_device() != -7;
  } else if (!strcmp(m, "alloc3")) {
    x = omp_target_alloc(16, 3) == NULL;
  } else if (!strcmp(m, "allocdef")) {
    void *p = omp_target_alloc(16, omp_get_default_device());
    x = p != NULL;
    omp_target_free(p, omp_get_default_device());
  }
  printf("x=%d\n", x);
  return 0;
}
C
exe=$TEST_OUT/target_offload_scn
gcc -fopenmp -O2 "$src" -o "$exe" || exit 1
fails=0
# check SETTING MODE ok|ok-msg|die [MESSAGE-FRAGMENT]
check() {
  local setting=$1 mode=$2 want=$3 frag=${4:-} rc
  # (the group's stderr takes bash's own "Aborted" report)
  {
    env ${setting:+"OMP_TARGET_OFFLOAD=$setting"} LD_LIBRARY_PATH="$TOMP_BUILD/lib" \
      ${SANLIB:+LD_PRELOAD="$SANLIB"} "$exe" "$mode" >"$TEST_OUT/to.out" 2>"$TEST_OUT/to.err"
    rc=$?
  } 2>/dev/null
  if [ "$want" = ok-msg ]; then
    if [ $rc -ne 0 ] || ! grep -qx 'x=1' "$TEST_OUT/to.out" || [ "$(wc -l <"$TEST_OUT/to.err")" -ne 1 ] ||
      ! grep -q "^tomp: $frag" "$TEST_OUT/to.err"; then
      echo "FAIL OMP_TARGET_OFFLOAD='$setting' $mode: expected x=1 and one message '$frag' (rc=$rc)"
      cat "$TEST_OUT/to.out" "$TEST_OUT/to.err"; fails=$((fails + 1))
    fi
  elif [ "$want" = ok ]; then
    if [ $rc -ne 0 ] || ! grep -qx 'x=1' "$TEST_OUT/to.out" || [ -s "$TEST_OUT/to.err" ]; then
      echo "FAIL OMP_TARGET_OFFLOAD='$setting' $mode: expected x=1, silently (rc=$rc)"
      cat "$TEST_OUT/to.out" "$TEST_OUT/to.err"; fails=$((fails + 1))
    fi
  else
    if [ $rc -eq 0 ] || grep -q 'x=' "$TEST_OUT/to.out" || ! grep -q "^tomp: fatal: .*$frag" "$TEST_OUT/to.err"; then
      echo "FAIL OMP_TARGET_OFFLOAD='$setting' $mode: expected termination saying '$frag' (rc=$rc)"
      cat "$TEST_OUT/to.out" "$TEST_OUT/to.err"; fails=$((fails + 1))
    fi
  fi
}
for s in "" default disabled DISABLED; do
  for m in default dev0 dev3 iffalse data update enter alloc3 allocdef; do check "$s" "$m" ok; done
  check "$s" invalid die "target construct: the device is omp_invalid_device"
  check "$s" setinvalid die "target construct: the device is omp_invalid_device"
done
check "" setbad ok-msg "omp_set_default_device(-7): not a device number"
for s in mandatory " MANDATORY "; do
  check "$s" default die "target construct: OMP_TARGET_OFFLOAD=MANDATORY, but tomp has no device but the host"
  check "$s" dev3 die "target construct: device 3 is not available and OMP_TARGET_OFFLOAD=MANDATORY"
  check "$s" invalid die "target construct: the device is omp_invalid_device"
  check "$s" data die "target data construct: OMP_TARGET_OFFLOAD=MANDATORY"
  check "$s" update die "target update directive: OMP_TARGET_OFFLOAD=MANDATORY"
  check "$s" enter die "target enter data directive: OMP_TARGET_OFFLOAD=MANDATORY"
  check "$s" alloc3 die "omp_target_alloc: device 3 is not available"
  check "$s" allocdef die "omp_target_alloc: the device is omp_invalid_device"
  for m in dev0 iffalse; do check "$s" "$m" ok; done
done
# the program itself, on libgomp: every row that must run does
if [ -z "${SANLIB:-}" ]; then
  for m in default dev0 dev3 iffalse data update enter alloc3 allocdef; do
    "$exe" "$m" 2>/dev/null | grep -qx 'x=1' || { echo "FAIL libgomp: $m"; fails=$((fails + 1)); }
  done
fi
echo "$fails failures"
[ $fails -eq 0 ]
