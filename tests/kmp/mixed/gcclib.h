/* What the gcc-built library of the mixed-ABI scenario offers its clang-built caller. */
typedef struct {
  int outer_level, outer_team; /* seen by the caller's thread before the library's region */
  int level, active_level, team, parent_team, threads;
} gcc_seen_t;
long gcc_sum(int n);
void gcc_region(gcc_seen_t *out);
void gcc_critical_add(long *x, int times);
/* critical.c: `times` critical sections (unnamed, or named mixed_named) updating *count, each
 * counting in *overlaps how often another thread was inside a section of the same name */
typedef struct {
  int inside, overlaps;
  long count;
} gcc_crit_t;
void crit_body(gcc_crit_t *c); /* the section's body, called by both sides */
void gcc_unnamed_critical(gcc_crit_t *c, int times);
void gcc_named_critical(gcc_crit_t *c, int times);
