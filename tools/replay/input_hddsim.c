/* hddsim-replay: a full hddsim trace, in order of completion: its rows
 * through the window (reorder.c), released by arrival.
 */

#include <inttypes.h>
#include <stdio.h>

#include "../../trace/reader.h"
#include "replay.h"

/* A row to a request held in the window; -1 on an arrival before one
 * already released.
 */
static int
take_row (struct replay *rp, const struct trace_row *t)
{
  struct slot *s;

  if (rp->released_any
      && (t->arrival < rp->last_arrival
          || (t->arrival == rp->last_arrival && t->id < rp->last_id))) {
    fprintf (stderr, "hddsim-replay: %s:%ld: request %" PRIu64 " arrived at "
             "%" PRIu64 " ns, before request %" PRIu64 " (already "
             "replayed): the trace is more than %zu rows out of arrival "
             "order (--window=ROWS)\n", rp->trace,
             trace_reader_line (rp->reader), t->id, t->arrival, rp->last_id,
             rp->window);
    return -1;
  }
  if (!(s = slot_get (rp)))
    return -1;
  s->req.id = t->id;
  s->req.conn = t->conn;
  s->req.arrival = t->arrival;
  s->req.io = (struct io) { .op = t->io_op, .fua = t->fua,
                            .offset = t->offset, .length = t->length };
  s->live_start = t->start;
  s->live_done = t->done;
  s->line = (unsigned long) trace_reader_line (rp->reader);
  reorder_hold (rp, s);
  return 0;
}

static int
fill_window (struct replay *rp)
{
  char err[TRACE_ERRLEN];
  struct trace_row row;
  int r;

  while (!rp->reader_done && reorder_held (rp) <= rp->window) {
    r = trace_reader_next (rp->reader, &row, err, sizeof err);
    if (r == -1) {
      fprintf (stderr, "hddsim-replay: %s\n", err);
      return -1;
    }
    if (r == 0)
      rp->reader_done = true;
    else if (take_row (rp, &row) == -1)
      return -1;
  }
  return 0;
}

int
next_row (struct replay *rp, struct slot **sp)
{
  struct slot *s;

  if (fill_window (rp) == -1)
    return -1;
  if (reorder_held (rp) == 0)
    return 0;
  s = reorder_release (rp);
  rp->last_arrival = s->req.arrival;
  rp->last_id = s->req.id;
  rp->released_any = true;
  *sp = s;
  return scale_arrival (rp, s, s->req.arrival) == -1 ? -1 : 1;
}
