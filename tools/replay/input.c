/* hddsim-replay: requests, from the trace to the engine: the trace
 * opened as one of the input paths, each request placed on the image
 * and its arrival scaled.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../trace/format.h"
#include "../../trace/reader.h"
#include "../../trace/trace_source.h"
#include "replay.h"

/* --wrap: a trace from a larger disk, folded onto the image.  Modulo
 * keeps what the policies and the drive react to, the distances
 * between neighbouring requests and the sequential runs, everywhere
 * but at the fold; scaling offsets down would shrink every seek and
 * break runs apart, and needs the trace's disk size, which a stream
 * does not know before its end.  A request that the fold leaves
 * running past the end is moved back to end there.
 */
static void
wrap_offset (const struct replay *rp, struct io *io)
{
  io->offset %= rp->size;
  if (io->length > rp->size - io->offset)
    io->offset = rp->size - io->length;
}

static int
place (const struct replay *rp, struct slot *s)
{
  struct io *io = &s->req.io;

  if (io->length <= rp->size && io->offset <= rp->size - io->length)
    return 0;
  if (rp->wrap && io->length <= rp->size) {
    wrap_offset (rp, io);
    return 0;
  }
  fprintf (stderr, "hddsim-replay: %s:%lu: request [%" PRIu64 ", %" PRIu64
           ") lies beyond the image of %" PRIu64 " bytes (%s)%s\n",
           rp->trace, s->line, io->offset, io->offset + io->length,
           rp->size, rp->size_given ? "size=" : "the profile's capacity",
           io->length <= rp->size ? ": give a larger size= or --wrap" : "");
  return -1;
}

/* The time the trace issues a request, scaled by --speed. */
int
scale_arrival (const struct replay *rp, struct slot *s, uint64_t arrival)
{
  double t;

  if (!rp->speed || rp->speed == 1.0) {
    s->wanted = arrival;
    return 0;
  }
  t = (double) arrival / rp->speed;
  if (t > (double) TRACE_TIME_MAX) {
    fprintf (stderr, "hddsim-replay: %s:%lu: the arrival %" PRIu64 " ns at "
             "--speed=%g is beyond %" PRIu64 " ns\n", rp->trace, s->line,
             arrival, rp->speed, TRACE_TIME_MAX);
    return -1;
  }
  s->wanted = (uint64_t) t;
  return 0;
}

/* The next request in the order the trace issues them, placed on the
 * image: 1 and *sp, 0 at the end, -1 on an error (said).
 */
int
next_request (struct replay *rp, struct slot **sp)
{
  int r = rp->format == FORMAT_HDDSIM ? next_row (rp, sp)
    : next_src (rp, sp);

  if (r == 1 && place (rp, *sp) == -1) {
    slot_put (rp, *sp);
    return -1;
  }
  return r;
}

int
open_trace (struct replay *rp)
{
  /* The source selects the device, and fails on a second one when
   * none is chosen (replaying two disks onto one drive means nothing).
   */
  struct trace_source_opts opts = { .blk_event = rp->blk_event,
                                    .device = rp->device,
                                    .window = rp->window };
  char err[TRACE_ERRLEN] = "";

  /* A full hddsim trace is in order of completion, which the sources
   * do not sort: the window above does.  Anything else, including a
   * minimal hddsim CSV, is a source's.
   */
  if (!rp->format_name || strcmp (rp->format_name, "hddsim") == 0) {
    rp->reader = trace_reader_open (rp->trace, err, sizeof err);
    if (rp->reader) {
      rp->format = FORMAT_HDDSIM;
      if (reorder_init (rp) == -1) {
        fprintf (stderr, "hddsim-replay: out of memory\n");
        return -1;
      }
      if (rp->device || rp->blk_event) {
        fprintf (stderr, "hddsim-replay: %s: an hddsim trace is of one "
                 "device, from the drive's side: no --device or "
                 "--blk-event\n", rp->trace);
        return -1;
      }
      return 0;
    }
  }
  rp->src = trace_source_open (rp->trace, rp->format_name, &opts,
                               err, sizeof err);
  if (!rp->src) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  if (rp->blk_event && strcmp (trace_source_format (rp->src), "blkparse")) {
    fprintf (stderr, "hddsim-replay: --blk-event: %s is a %s trace, not "
             "blkparse output\n", rp->trace, trace_source_format (rp->src));
    return -1;
  }
  return 0;
}

void
close_trace (struct replay *rp)
{
  if (rp->reader)
    trace_reader_close (rp->reader);
  if (rp->src)
    trace_source_close (rp->src);
}
