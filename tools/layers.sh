#!/usr/bin/env bash
# The link-level check of tomp's layering (docs/architecture.md), run by the build:
#
#   tools/layers.sh OBJ_DIR        (OBJ_DIR: build/obj, holding src/<layer>/*.o)
#
# The Makefile compiles each layer with only the include directories it may use; this script
# catches what headers cannot: a reference, by an object of one layer, to a symbol that only
# a layer it must not depend on defines (an extern declared by hand, a weak symbol).
#   core       may use: core
#   api        may use: core, api
#   gomp (and later kmp) may use: core, api, itself
#   ompt, collector (observers) may use: core, themselves
# Headers too: core's objects were compiled from core's headers and include/omp-tools.h only
# (their .d files, written by -MMD, must name no other public header: omp.h's types are a
# front-end's, core has its own with the specification's values).
# Exit status 1 and one line per offending reference otherwise.
set -u
OBJ=${1:?usage: tools/layers.sh OBJ_DIR}
declare -A may=(
  [core]="core"
  [api]="core api"
  [gomp]="core api gomp"
  [kmp]="core api kmp"
  [ompt]="core ompt"
  [collector]="core collector"
  [ompd]="core ompd"
)
layers=()
for d in "$OBJ"/src/*/; do layers+=("$(basename "$d")"); done
declare -A owner
for l in "${layers[@]}"; do
  for o in "$OBJ/src/$l"/*.o; do
    [ -e "$o" ] || continue
    while read -r sym; do owner[$sym]=$l; done < <(nm --defined-only "$o" | awk '$2 ~ /[TDBRVWtdbr]/ {print $3}')
  done
done
bad=0
for d in "$OBJ"/src/core/*.d; do
  [ -e "$d" ] || continue
  for h in $(tr -d '\\:' < "$d" | tr ' ' '\n' | grep -E '(^|/)include/[^/]+\.h$' | grep -v 'omp-tools\.h$' | sort -u); do
    echo "layers.sh: ${d#"$OBJ"/} (layer core) includes $h; core uses its own headers and omp-tools.h"; bad=1
  done
done
for l in "${layers[@]}"; do
  allowed=${may[$l]:-}
  if [ -z "$allowed" ]; then echo "layers.sh: unknown layer src/$l (add it to tools/layers.sh)"; bad=1; continue; fi
  for o in "$OBJ/src/$l"/*.o; do
    [ -e "$o" ] || continue
    while read -r sym; do
      def=${owner[$sym]:-}
      [ -z "$def" ] && continue            # libc, libdl, ...
      case " $allowed " in *" $def "*) ;; *)
        echo "layers.sh: ${o#"$OBJ"/} (layer $l) uses $sym, defined by layer $def"; bad=1 ;;
      esac
    done < <(nm --undefined-only "$o" | awk '{print $2}')
  done
done
exit $bad
