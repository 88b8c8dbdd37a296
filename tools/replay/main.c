/* hddsim-replay: run a recorded trace through the engine on a virtual
 * clock, DiskSim-style, in a fraction of the time it took live.
 *
 *   hddsim-replay [OPTIONS] TRACE [size=BYTES] [sched=...] [profile=...]
 *                 [seed=N] [tunables...]
 *
 * Formats (--format=, detected when not given): hddsim (the plugin's
 * trace=, or a minimal CSV), blkparse, fio-iolog, msr, disksim-ascii
 * (trace/trace_source.h), and disksim-validate (DiskSim's validation
 * traces, always closed loop with their think times: see
 * tools/lib/disksim_replay.h).
 *
 * How requests are issued:
 *   open loop (the default)  at the trace's arrival times, divided by
 *                            --speed=F;
 *   --max-inflight=N         the same, but a client that keeps at most
 *                            N in flight (QEMU's NBD client keeps 16):
 *                            an arrival beyond them waits, in order,
 *                            until a request completes;
 *   --closed[=N]             N outstanding (default 1), the next issued
 *                            as one completes; the trace's times are
 *                            not used.
 * A request is submitted to the engine at the time it is issued, so the
 * output's arrival_ns is when it reached the drive, as in a live trace.
 *
 * A full hddsim trace is written in order of completion: up to --window
 * rows are held and released in arrival order, and a row that arrives
 * before one already released is an error naming its line.  With the
 * parameters of the live run, the open-loop replay of a full hddsim
 * trace is the live timeline: --check compares start_ns and done_ns of
 * every request and fails on the first difference.  Requests that the
 * live run abandoned before they reached the drive are not in the
 * trace, so a run with such aborts cannot be checked.
 *
 * The trace is streamed: a request is read when it is issued, so
 * memory depends on the requests in flight, not on the trace's length.
 *
 * A request beyond the image (size=, or the profile's capacity) is an
 * error naming its line; with --wrap its offset is taken modulo the
 * image instead (see wrap_offset in input.c).
 *
 * The parts: options.c reads the command line; input.c opens the
 * trace as one of its input paths, input_hddsim.c (through the window
 * of reorder.c) or input_source.c; slots.c holds the requests from
 * their row to their completion; issue.c runs the open and closed
 * loops; disksim.c replays DiskSim's validation traces; output.c
 * writes --output.  replay.h holds what they share.
 */

#include <stdio.h>
#include <stdlib.h>

#include "../lib/replay_summary.h"
#include "replay.h"

static int
run (struct replay *rp)
{
  static const struct engine_hooks no_hooks = { .started = NULL };
  static const struct engine_hooks hooks = {
    .completed = request_completed,
  };
  char err[HDD_ERRLEN];
  struct hdd *hdd = hdd_new (rp->setup.hdd, rp->size, rp->setup.seed,
                             err, sizeof err);
  int r = -1;

  if (!hdd) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  if (rp->summary && !(rp->sum = replay_summary_new (rp->limit
                                                     && !rp->closed))) {
    fprintf (stderr, "hddsim-replay: out of memory\n");
    hdd_free (hdd);
    return -1;
  }
  rp->engine = engine_new (hdd, rp->setup.policy, &rp->setup.sched,
                           rp->format == FORMAT_DISKSIM ? &no_hooks : &hooks,
                           rp);
  if (!rp->engine)
    fprintf (stderr, "hddsim-replay: out of memory\n");
  /* The trace first: an unreadable one leaves no output behind. */
  else if ((rp->format == FORMAT_DISKSIM || open_trace (rp) == 0)
           && open_output (rp) == 0) {
    hdd_set_clean_observer (hdd, write_clean_row, rp);
    r = rp->format == FORMAT_DISKSIM ? replay_disksim (rp)
      : replay_trace (rp);
    if (close_output (rp) == -1)
      r = -1;
  }
  close_trace (rp);
  engine_free (rp->engine);
  replay_summary_free (rp->sum);
  hdd_free (hdd);
  return r;
}

int
main (int argc, char **argv)
{
  struct replay rp = { .window = DEFAULT_WINDOW };
  int first, status = EXIT_FAILURE;

  setup_init (&rp.setup);
  first = parse_options (&rp, argc, argv);
  if (first > 0 && parse_params (&rp, argc, argv, first) == 0
      && run (&rp) == 0)
    status = EXIT_SUCCESS;
  reorder_free (&rp);
  slots_free (&rp);
  setup_free (&rp.setup);
  return status;
}
