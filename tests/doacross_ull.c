/* doacross.c with an unsigned long long outer loop (GOMP_loop_ull_doacross_*,
 * GOMP_doacross_ull_post/wait).
 * test-libgomp-fails: libgomp 12 never returns from GOMP_doacross_ull_wait on this loop
 * test-timeout: 20
 */
#define ULL
#include "doacross.c"
