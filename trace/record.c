/* hddsim: a request's trace record (see record.h). */

#include "../sched/req.h"
#include "record.h"

void
trace_record_of (struct trace_record *t, const struct req *r,
                 int64_t late_ns, enum req_outcome outcome)
{
  *t = (struct trace_record) {
    .id = r->id, .conn = r->conn, .queue_len = r->queue_len,
    .commands = r->ncmds ? r->ncmds : 1, .drive_queue = r->drive_len,
    .io = r->io, .arrival = r->arrival, .dispatch = r->dispatch,
    .start = r->start, .done = r->done,
    .cost = r->cost, .late_ns = late_ns, .outcome = outcome,
  };
}
