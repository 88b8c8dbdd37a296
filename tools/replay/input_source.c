/* hddsim-replay: every other format, from trace_source, in arrival
 * order.
 */

#include <stdio.h>

#include "../../trace/format.h"
#include "../../trace/trace_source.h"
#include "replay.h"

static int
take_src (struct replay *rp, const struct src_req *r, struct slot **sp)
{
  struct slot *s;

  if (!r->has_arrival && !rp->closed) {
    fprintf (stderr, "hddsim-replay: %s:%lu: this %s trace has no arrival "
             "times (fio's iolog v2): replay it with --closed[=N]\n",
             rp->trace, r->line, trace_source_format (rp->src));
    return -1;
  }
  if (!(s = slot_get (rp)))
    return -1;
  s->req.id = rp->next_id++;
  s->req.conn = r->stream;
  s->req.io = (struct io) { .op = r->op, .fua = r->fua,
                            .offset = r->offset, .length = r->length };
  s->line = r->line;
  *sp = s;
  return scale_arrival (rp, s, r->has_arrival ? r->arrival : 0) == -1
    ? -1 : 1;
}

int
next_src (struct replay *rp, struct slot **sp)
{
  char err[TRACE_ERRLEN];
  struct src_req r;
  int got;

  got = trace_source_next (rp->src, &r, err, sizeof err);
  if (got == -1)
    fprintf (stderr, "hddsim-replay: %s\n", err);
  return got == 1 ? take_src (rp, &r, sp) : got;
}
