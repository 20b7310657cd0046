/* omp.h for tomp.  Type layouts match GCC's omp.h so programs compiled with either header
 * run on either library.  (Being completed by the routines module.) */
#ifndef _OMP_H
#define _OMP_H 1

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  unsigned char _x[4] __attribute__((__aligned__(4)));
} omp_lock_t;

typedef struct {
  unsigned char _x[8 + sizeof(void *)] __attribute__((__aligned__(8)));
} omp_nest_lock_t;

extern int omp_get_thread_num(void);
extern int omp_get_num_threads(void);
extern int omp_get_max_threads(void);
extern void omp_set_num_threads(int);
extern int omp_get_level(void);
extern int omp_in_parallel(void);

#ifdef __cplusplus
}
#endif
#endif
