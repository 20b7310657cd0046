# OMPT events of host teams (league parallel region, one initial task per team) and of target
# constructs run on the host (target / target data / update / enter / exit data, device 0).
source "$(dirname "$0")/../ompt/common.sh"
build target_teams "$ROOT/tests/ompt/target_teams.c" -foffload=disable
OMP_TOOL_LIBRARIES=$TOOL on_tomp "$W/target_teams" > "$W/target_teams.out"
no_errors "$W/target_teams.out"
by_thread < "$W/target_teams.out" | $FILECHECK "$ROOT/tests/ompt/target_teams.check"
echo ok
