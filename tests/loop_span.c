/* loop_direct's checks on signed loops whose span (end - start) does not fit in a long.
 * test-libgomp-fails: libgomp computes the trip count in long and overflows
 * test-gcc-only: it calls GOMP_* entry points directly
 */
#define SPAN
#include "loop_direct.c"
