/* hddsim-replay: requests issued to the engine, open loop at the
 * trace's times, or as a client with at most N in flight (--closed,
 * --max-inflight); their completions checked and reported.
 */

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>

#include "../lib/replay_summary.h"
#include "replay.h"

static int
check_one (const struct slot *s)
{
  const struct req *r = &s->req;

  if (s->live_start == r->start && s->live_done == r->done)
    return 0;
  fprintf (stderr, "hddsim-replay: request %" PRIu64 " differs: live "
           "[%" PRIu64 ", %" PRIu64 "], replayed [%" PRIu64 ", %" PRIu64
           "]\n", r->id, s->live_start, s->live_done, r->start, r->done);
  return -1;
}

void
request_completed (struct req *r, void *opaque)
{
  struct replay *rp = opaque;
  struct slot *s = (struct slot *) ((char *) r - offsetof (struct slot, req));

  rp->inflight--;
  if (!rp->draining) {
    if (rp->out)
      write_row (rp, r);
    if (rp->check && !rp->failed && check_one (s) == -1)
      rp->failed = true;
    if (rp->sum && replay_summary_add (rp->sum, r, s->wanted) == -1) {
      fprintf (stderr, "hddsim-replay: out of memory\n");
      rp->failed = true;
    }
    rp->requests++;
  }
  slot_put (rp, s);
}

/* A client with at most rp->limit requests in flight: run the drive
 * until the request the trace issues at t may go.  Completions before
 * t free room first; if none is left, the request waits for the next
 * completion (the engine then submits it just after that).
 */
static int
wait_for_room (struct replay *rp, const struct slot *s, uint64_t t)
{
  if (t > 0)
    engine_advance (rp->engine, t - 1);
  while (rp->inflight >= rp->limit) {
    uint64_t e = engine_next_event (rp->engine);

    if (e == ENGINE_NEVER) {
      fprintf (stderr, "hddsim-replay: %s:%lu: no request in flight ever "
               "completes (the policy holds them with nothing else to "
               "wait for)\n", rp->trace, s->line);
      return -1;
    }
    engine_advance (rp->engine, e);
  }
  return 0;
}

/* Issue s: open loop at its time, closed loop as soon as there is
 * room.  Arrivals never go back in time: a request held back behind
 * another is issued after it (engine_submit keeps arrivals in order).
 */
static int
issue (struct replay *rp, struct slot *s)
{
  uint64_t t = rp->closed ? 0 : s->wanted;

  if (rp->limit && wait_for_room (rp, s, t) == -1)
    return -1;
  if (engine_arrive (rp->engine, &s->req, t) == -1) {
    fprintf (stderr, "hddsim-replay: %s:%lu: request %" PRIu64 ": no "
             "memory for its commands (max-transfer=)\n", rp->trace,
             s->line, s->req.id);
    return -1;
  }
  rp->inflight++;
  return 0;
}

int
replay_trace (struct replay *rp)
{
  struct slot *s;
  int r = -1;

  while ((r = next_request (rp, &s)) == 1)
    if (issue (rp, s) == -1) {
      slot_put (rp, s);
      r = -1;
      break;
    }
  /* After an error, let the requests already submitted complete, to
   * free them.
   */
  rp->draining = r == -1;
  engine_advance (rp->engine, ENGINE_NEVER - 1);
  if (r == -1)
    return -1;
  if (rp->check && !rp->failed)
    fprintf (stderr, "hddsim-replay: %ld requests, identical timeline\n",
             rp->requests);
  if (rp->summary && replay_summary_print (rp->sum, stdout) == -1)
    return -1;
  return rp->failed ? -1 : 0;
}
