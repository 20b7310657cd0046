/* Places and thread binding (affinity.c), affinity display (display.c).
 *
 * The place list is an array of CPU sets built once at start-up from OMP_PLACES (or a default
 * when OMP_PROC_BIND asks for binding) against the CPUs the process may run on.  Place
 * partitions are ranges [first, first+count) of that list.  Everything here is set up before
 * the first thread other than the initial one exists and is read-only afterwards. */
#ifndef TOMP_AFFINITY_H
#define TOMP_AFFINITY_H

#include <stdbool.h>
#include <stddef.h>

#include "internal.h"

typedef struct tomp_place {
  int nprocs;
  int *procs; /* ascending OS processor ids */
} tomp_place_t;

extern tomp_place_t *tomp_places TOMP_HIDDEN;
extern int tomp_nplaces TOMP_HIDDEN;

/* Build the place list from an OMP_PLACES value.  On malformed input prints one warning
 * naming var and value and returns false (the list is left empty). */
bool tomp_places_parse(const char *var, const char *value) TOMP_HIDDEN;
/* The same from a GOMP_CPU_AFFINITY value: one place per CPU listed, in the order given. */
bool tomp_places_parse_cpus(const char *var, const char *value) TOMP_HIDDEN;
/* The default place list when binding is requested without OMP_PLACES: one per hardware thread. */
void tomp_places_default(void) TOMP_HIDDEN;
/* KMP_HW_SUBSET (env_kmp.c): of the CPUs we may use, keep those in the first count[l] units
 * (0: all) after the first offset[l] of each level l: 0 sockets, 1 cores of each socket, 2
 * hardware threads of each core, units in the order of their first CPU.  The process then runs
 * on them (the initial thread's mask, which the others inherit) and omp_get_num_procs counts
 * them.  Returns -1 when done; else nothing changed: the level (0-2) that asked for more units
 * than there are, or 3 when no CPU would remain. */
int tomp_affinity_subset(const int count[3], const int offset[3]) TOMP_HIDDEN;
/* Drop the place list (OMP_PROC_BIND=false). */
void tomp_places_clear(void) TOMP_HIDDEN;
/* Bind the calling (initial) thread to place tomp_places_start (modulo the places: 0, or
 * KMP_AFFINITY's offset); the place to record in its descriptor, or -1.  Called once from
 * env init when binding is on. */
extern int tomp_places_start TOMP_HIDDEN;
void tomp_affinity_bind_initial(void) TOMP_HIDDEN;
int tomp_affinity_initial_place(void) TOMP_HIDDEN;

/* The place partition of the calling thread's implicit task: returns the count, *first gets
 * the first index.  0 when there is no place list. */
int tomp_affinity_partition(tomp_thread_t *thr, int *first) TOMP_HIDDEN;

/* Host leagues (league.c): before team k of nteams runs on the encountering thread (outside
 * any region, with a place list), the thread takes the team's place and partition
 * (KMP_TEAMS_PROC_BIND's policy; save is filled at k = 0); after the last team, end puts the
 * thread back where it was. */
typedef struct tomp_league_aff {
  int place;
  void *mask; /* the thread's CPU mask when it had no place */
} tomp_league_aff_t;
void tomp_affinity_league_team(tomp_thread_t *thr, unsigned k, unsigned nteams,
                               tomp_league_aff_t *save) TOMP_HIDDEN;
void tomp_affinity_league_end(tomp_thread_t *thr, tomp_league_aff_t *save) TOMP_HIDDEN;

/* Text forms for OMP_DISPLAY_ENV and %A. */
size_t tomp_places_format(char *buf, size_t n) TOMP_HIDDEN;
size_t tomp_cpus_format_self(char *buf, size_t n) TOMP_HIDDEN; /* calling thread's CPU mask */

/* display.c */
void tomp_display_env_print(int verbose) TOMP_HIDDEN;
/* OMP_DISPLAY_AFFINITY: the region's display state, set up by the primary before the workers
 * start (fork) and freed with the team; each thread of the region then shows its line if it
 * or another thread's line changed (thread). */
void tomp_display_affinity_fork(tomp_team_t *team) TOMP_HIDDEN;
void tomp_display_affinity_free(tomp_team_t *team) TOMP_HIDDEN;
void tomp_display_affinity_thread(tomp_thread_t *thr) TOMP_HIDDEN;
/* The initial affinity-format-var: libgomp's, or libomp's for clang programs (abi.h). */
const char *tomp_affinity_format_default(void) TOMP_HIDDEN;
/* Whether omp_set_affinity_format and OMP_AFFINITY_FORMAT take fmt: every %-field of it is one
 * the format knows (clang programs: any format, as libomp). */
bool tomp_affinity_format_valid(const char *fmt) TOMP_HIDDEN;
/* affinity-format-var (OMP_AFFINITY_FORMAT, omp_set_affinity_format), else the default. */
const char *tomp_affinity_format_current(void) TOMP_HIDDEN;
/* Thread thr's line in format (NULL or empty: affinity-format-var): omp_capture_affinity's
 * result into buffer, and omp_display_affinity's line (on stderr, or stdout for clang programs). */
size_t tomp_affinity_capture(char *buffer, size_t size, const char *format,
                             tomp_thread_t *thr) TOMP_HIDDEN;
void tomp_affinity_display(const char *format, tomp_thread_t *thr) TOMP_HIDDEN;

/* env.c: helpers shared with display.c */
extern int tomp_env_display TOMP_HIDDEN; /* OMP_DISPLAY_ENV: 0 false, 1 true, 2 verbose */
extern unsigned long tomp_env_spin_count_shown TOMP_HIDDEN;
#define TOMP_SUPPORTED_ACTIVE_LEVELS 255u

#endif
