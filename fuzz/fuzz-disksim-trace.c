/* hddsim fuzzing: a DiskSim validation trace (hddsim-replay
 * --format=disksim-validate) as the reader takes it, replayed closed
 * loop on profile=fixed (the drive has harnesses of its own), with the
 * invariants of the closed loop checked on every request.
 */

#include <string.h>

#include "../sched/engine.h"
#include "../tools/lib/disksim_replay.h"
#include "fuzz.h"

/* Enough requests to cover the loop; a longer input only repeats it. */
#define REPLAY_MAX 256

struct loop {
  long n;
  uint64_t last_done;
};

/* One outstanding request: each starts after the previous completed,
 * no earlier than it arrived, and takes service=1ms exactly.
 */
static int
completed (const struct req *r, const struct ds_request *d, void *opaque)
{
  struct loop *l = opaque;

  fuzz_assert (r->arrival <= r->start && r->start <= r->done,
               "line %ld: arrival, start, done out of order", d->line);
  fuzz_assert (r->start >= l->last_done, "line %ld: started before the "
               "previous request completed", d->line);
  fuzz_assert (r->done - r->start == 1000000, "line %ld: service %llu ns",
               d->line, (unsigned long long) (r->done - r->start));
  l->last_done = r->done;
  return ++l->n >= REPLAY_MAX ? -1 : 0;
}

void
fuzz_one (const char *path)
{
  char err[SETUP_ERRLEN];
  struct fuzz_fixed f;
  struct ds_trace *t;
  struct loop l = { 0, 0 };
  long n;

  fuzz_fixed_open (&f);
  t = ds_trace_open (path, FUZZ_IMAGE_BYTES, err, sizeof err);
  if (!t)
    fuzz_assert (strncmp (err, path, strlen (path)) == 0,
                 "the message does not name the file: %s", err);
  else {
    n = ds_replay (t, f.engine, completed, &l, err, sizeof err);
    /* -1 also when completed() stopped the loop at REPLAY_MAX. */
    if (n < 0 && l.n < REPLAY_MAX)
      fuzz_assert (strncmp (err, path, strlen (path)) == 0,
                   "the message does not name the file: %s", err);
    ds_trace_close (t);
  }
  fuzz_fixed_close (&f);
}
