/* Worksharing descriptors.  Placeholder until the worksharing module lands. */
#include "internal.h"

void tomp_team_ws_init(tomp_team_t *team) { (void)team; }
void tomp_team_ws_fini(tomp_team_t *team) { (void)team; }
