/* hddsim: DiskSim's validate trace replayed closed-loop (see
 * disksim_replay.h).
 */

#include <stdint.h>
#include <string.h>

#include "disksim_replay.h"

/* Run the engine until r has completed; -1 if it can never complete. */
static int
run_until_done (struct engine *e, const struct req *r)
{
  while (r->state != REQ_DONE) {
    uint64_t t = engine_next_event (e);

    if (t == ENGINE_NEVER)
      return -1;
    engine_advance (e, t);
  }
  return 0;
}

long
ds_replay (struct ds_trace *t, struct engine *e, ds_done_fn done,
           void *opaque, char *err, size_t errlen)
{
  struct ds_request d;
  struct req r;
  uint64_t arrival = 0;
  long n = 0;
  int rc;

  while ((rc = ds_trace_next (t, &d, err, errlen)) == 1) {
    memset (&r, 0, sizeof r);
    r.id = (uint64_t) n;
    r.io = (struct io) { .op = d.write ? IO_WRITE : IO_READ,
                         .offset = d.blkno * DS_BLOCK,
                         .length = (uint64_t) d.bcount * DS_BLOCK };
    /* The drive works in the background until the request arrives. */
    if (engine_arrive (e, &r, arrival) == -1) {
      ds_trace_error (t, err, errlen, "no memory for the request's commands "
                      "(max-transfer=)");
      return -1;
    }
    if (run_until_done (e, &r) == -1) {
      ds_trace_error (t, err, errlen, "the request never completes (the "
                      "policy holds it with nothing else to wait for)");
      return -1;
    }
    if (done && done (&r, &d, opaque) == -1) {
      ds_trace_error (t, err, errlen, "cannot record the request");
      return -1;
    }
    if (d.nextinter_ns > UINT64_MAX - 1 - r.done) {
      ds_trace_error (t, err, errlen, "the next arrival overflows 64-bit "
                      "nanoseconds");
      return -1;
    }
    arrival = r.done + d.nextinter_ns;
    n++;
  }
  return rc == 0 ? n : -1;
}
