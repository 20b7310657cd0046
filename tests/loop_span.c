/* loop_direct's checks on signed loops whose span (end - start) does not fit in a long.
 * test-libgomp-fails: libgomp computes the trip count in long and overflows
 */
#define SPAN
#include "loop_direct.c"
