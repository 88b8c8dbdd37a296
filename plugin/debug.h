/* hddsim: -D debug flags (nbdkit -D hddsim.sched=1). */
#ifndef HDDSIM_DEBUG_H
#define HDDSIM_DEBUG_H

extern int hddsim_debug_sched;    /* each dispatch and completion */
extern int hddsim_debug_timing;   /* each delivery and its lateness */
extern int hddsim_debug_powercut; /* each write's ticket; the cut's extents */

#endif /* HDDSIM_DEBUG_H */
