/* hddsim: hddsim's own trace CSV as a trace source: the full trace
 * the plugin writes or a minimal hand-written one (op, offset, length
 * and any of the other columns; trace_reader_open_minimal).
 */

#include <stdlib.h>

#include "reader.h"
#include "trace_source_int.h"

static void *
hddsim_open (const char *path, const struct trace_source_opts *opts,
             char *err, size_t errlen)
{
  (void) opts;
  return trace_reader_open_minimal (path, err, errlen);
}

/* The plugin writes a line per request when it completes: the rows
 * are in completion order, and trace_source.c's window puts them in
 * arrival order.  A power cut's row (powercut=) is no request: the
 * reader checks it and never gives it as a row, so it is not replayed
 * (the replay models no cut; the cut is the live run's).
 */
static int
hddsim_next (void *state, struct src_req *r, uint64_t *stamp, char *err,
             size_t errlen)
{
  struct trace_row row;
  int got = trace_reader_next (state, &row, err, errlen);

  if (got <= 0)
    return got;
  r->op = row.io_op;
  r->fua = row.fua;
  r->offset = row.offset;
  r->length = row.length;
  r->has_arrival = row.has_arrival;
  /* the response time the drive gave: arrival to done */
  r->measured_ns = row.has_done ? row.done - row.arrival : 0;
  r->stream = row.conn;
  r->line = row.line;
  *stamp = row.arrival;
  return 1;
}

static void
hddsim_close (void *state)
{
  trace_reader_close (state);
}

const struct src_format src_hddsim = {
  .name = "hddsim", .ns_per_stamp = 1, .has_devices = false,
  .open = hddsim_open, .next = hddsim_next, .close = hddsim_close,
};
