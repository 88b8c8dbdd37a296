/* hddsim: the platter's rotation, in exact integer time (rotation.c). */
#ifndef HDDSIM_ROTATION_H
#define HDDSIM_ROTATION_H

#include <stdint.h>

/* One minute in ns: 'rpm' revolutions take exactly this long, so the
 * platter's phase is exact in integer arithmetic (see rotation.c).
 */
#define NS_PER_MIN UINT64_C(60000000000)

/* ns until angular slot 'slot' of a track with 'spt' sectors passes
 * under the head, at time t, for a platter whose phase at time 0 is
 * phase0 ns into a revolution.
 */
extern uint64_t rot_wait (uint64_t rpm, uint64_t phase0, uint64_t t,
                          uint64_t slot, uint64_t spt);
/* ns to pass n sectors of a track with spt sectors (rounded down). */
extern uint64_t rot_sectors_ns (uint64_t rpm, uint64_t spt, uint64_t n);
/* Whole sectors passed in 'ns' (the inverse, rounded down). */
extern uint64_t rot_sectors_in (uint64_t rpm, uint64_t spt, uint64_t ns);
extern uint64_t rot_rev_ns (uint64_t rpm);  /* rounded */

#endif /* HDDSIM_ROTATION_H */
