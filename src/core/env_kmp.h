/* libomp's own environment variables (KMP_*; env_kmp.c), read by tomp_env_init (env.c)
 * beside the OMP_* ones, for every program: clang, icx and ifx users set them in job
 * scripts, and one runtime serves both ABIs.  docs/kmp-abi.md, "libomp's environment
 * variables", says what each one does on tomp.  Included by env.c, env_kmp.c and display.c
 * only. */
#ifndef TOMP_ENV_KMP_H
#define TOMP_ENV_KMP_H

#include <stdbool.h>

#include "internal.h"

/* First of all: KMP_WARNINGS (so it silences what follows), KMP_SETTINGS, KMP_HW_SUBSET and
 * KMP_AFFINITY (which outranks the OMP_* place and binding variables). */
void tomp_env_kmp_early(void) TOMP_HIDDEN;
/* Whether OMP_* (or GOMP_*) variable name yields to a libomp variable that is set, as in
 * libomp (OMP_WAIT_POLICY to KMP_LIBRARY, OMP_STACKSIZE and GOMP_STACKSIZE to KMP_STACKSIZE,
 * OMP_PLACES, OMP_PROC_BIND and GOMP_CPU_AFFINITY to a KMP_AFFINITY naming a type).  When
 * name is set too, says so once ("NAME: ignored because KMP_X has been defined"). */
bool tomp_env_kmp_outranks(const char *name) TOMP_HIDDEN;
/* The waits (KMP_LIBRARY, KMP_BLOCKTIME), after OMP_WAIT_POLICY and GOMP_SPINCOUNT. */
void tomp_env_kmp_wait(void) TOMP_HIDDEN;
/* The rest (KMP_STACKSIZE, KMP_DISP_NUM_BUFFERS, KMP_TEAMS_THREAD_LIMIT, the ignored ones). */
void tomp_env_kmp_init(void) TOMP_HIDDEN;
/* KMP_AFFINITY with a type: builds the place list and bind-var; true if it did (then OMP_PLACES
 * and OMP_PROC_BIND were not used). */
bool tomp_env_kmp_affinity(void) TOMP_HIDDEN;
/* KMP_AFFINITY's granularity as an OMP_PLACES name ("threads", "cores", "sockets"), for the
 * default place list when OMP_PROC_BIND asks for binding without OMP_PLACES; NULL if none. */
const char *tomp_env_kmp_granularity(void) TOMP_HIDDEN;
/* At the end of tomp_env_init: KMP_AFFINITY=verbose's summary, the KMP_SETTINGS listing. */
void tomp_env_kmp_report(void) TOMP_HIDDEN;

/* kmp_set_blocktime(ms) (src/kmp/api.c): from now on waits poll ms milliseconds, then sleep,
 * however busy the machine; for the whole process (libomp's is per team). */
void tomp_kmp_blocktime_apply(int ms) TOMP_HIDDEN;

/* KMP_AFFINITY=verbose: each binding of a thread is reported (affinity.c) */
extern bool tomp_affinity_verbose TOMP_HIDDEN;
/* What OMP_PLACES shows in the KMP_SETTINGS listing: the abstract name the place list came
 * from, or NULL (then the list itself). */
extern const char *tomp_env_places_name TOMP_HIDDEN;
/* The KMP_AFFINITY value the listing shows, in libomp's full form. */
const char *tomp_env_kmp_affinity_shown(void) TOMP_HIDDEN;

/* display.c: the KMP_SETTINGS listing (libomp's "User settings" and "Effective settings"),
 * on stderr */
void tomp_kmp_settings_print(void) TOMP_HIDDEN;
/* A bind-var value (TOMP_BIND_*) as libomp's listings write it: "false", "true", "primary",
 * "close", "spread" (display.c; KMP_SETTINGS, KMP_AFFINITY=verbose). */
const char *tomp_bind_word(unsigned bind) TOMP_HIDDEN;

/* env.c's parsers and wait settings, for env_kmp.c */
bool tomp_env_scan_ulong(const char **sp, unsigned long max, unsigned long *out) TOMP_HIDDEN;
/* A number and an optional unit after blanks, one letter of units (any case) whose multiplier
 * is muls' entry at its place (dflt without one): *x and *mul, *sp past the unit.  The caller
 * checks what follows and whether x * mul fits. */
bool tomp_env_scan_unit(const char **sp, const char *units, const unsigned long *muls,
                        unsigned long dflt, unsigned long *x, unsigned long *mul) TOMP_HIDDEN;
bool tomp_env_scan_word(const char **sp, const char *w) TOMP_HIDDEN;
bool tomp_env_at_end(const char *s) TOMP_HIDDEN;
/* Waits poll x times before they sleep, however busy the machine (GOMP_SPINCOUNT's rule). */
void tomp_env_spin_set(unsigned long x) TOMP_HIDDEN;
/* Waits poll as OMP_WAIT_POLICY=active makes them. */
void tomp_env_spin_active(void) TOMP_HIDDEN;

#endif
