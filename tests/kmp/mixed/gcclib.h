/* What the gcc-built library of the mixed-ABI scenario offers its clang-built caller. */
typedef struct {
  int outer_level, outer_team; /* seen by the caller's thread before the library's region */
  int level, active_level, team, parent_team, threads;
} gcc_seen_t;
long gcc_sum(int n);
void gcc_region(gcc_seen_t *out);
void gcc_critical_add(long *x, int times);
