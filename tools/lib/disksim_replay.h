/* hddsim: DiskSim's validate trace (trace/disksim_validate.h)
 * replayed closed loop, as DiskSim's validate mode runs it.
 */
#ifndef HDDSIM_DISKSIM_REPLAY_H
#define HDDSIM_DISKSIM_REPLAY_H

#include "../../sched/engine.h"
#include "../../trace/disksim_validate.h"

/* Called once a request has completed; r->arrival, r->start, r->done
 * and r->cost are the modeled ones.
 */
typedef int (*ds_done_fn) (const struct req *r, const struct ds_request *d,
                           void *opaque);

/* Replay the trace closed-loop, as DiskSim's validate mode does: one
 * request outstanding; the first arrives at 0, request i+1 at request
 * i's modeled completion plus nextinter of line i.  Request ids are
 * 0, 1, 2, ... in trace order.  Returns the number of requests, or -1
 * and err on a trace error, a time overflow or a callback's -1.
 */
extern long ds_replay (struct ds_trace *, struct engine *, ds_done_fn done,
                       void *opaque, char *err, size_t errlen);

#endif /* HDDSIM_DISKSIM_REPLAY_H */
