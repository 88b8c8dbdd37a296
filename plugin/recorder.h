/* hddsim: the record of every request (trace= and stats=), kept off
 * the driver's lock.
 */
#ifndef HDDSIM_RECORDER_H
#define HDDSIM_RECORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "../model/hdd.h"
#include "../sched/req.h"
#include "../trace/clean_row.h"
#include "../trace/cut.h"
#include "../trace/fault_row.h"
#include "../model/power_states.h"
#include "../trace/outcome.h"

/* In .get_ready: open and check the output files (either path may be
 * NULL); -1 after an nbdkit_error naming the parameter.
 */
extern int recorder_start (const char *trace_path, const char *stats_path);
/* In .after_fork: start the writer thread; 'epoch' is the
 * CLOCK_MONOTONIC reading at modeled time 0.
 */
extern int recorder_after_fork (uint64_t epoch);
/* Hand over one retired request.  Cheap: a copy into a ring; a full
 * ring makes the caller wait for the writer, so push with no other
 * lock held.  A request that was not served (withdrawn from the queue)
 * counts in the stats (aborted) but has no trace line.
 */
extern void recorder_push (const struct req *, bool served, int64_t late_ns,
                           enum req_outcome);
/* Write out everything pushed so far, the final stats and the
 * lateness summary; stop the writer; close the files.
 */
extern void recorder_stop (void);

/* The power was cut: the stats say so from the next snapshot on, and
 * the first call's *cut is the cut's row in the trace, written once
 * with the next output.  Call again as later requests fail (its
 * 'failed', for the stats).
 */
extern void recorder_powercut (const struct trace_cut *cut);

/* A fault fired (fault=): its row in the trace, written with the next
 * output, and one more in the stats.
 */
extern void recorder_fault (const struct trace_fault *);

/* The drive's power states (a timer is set): the latest snapshot,
 * taken under the driver's lock; the stats account it up to each
 * snapshot's instant.
 */
extern void recorder_power_states (const struct hdd_power_snapshot *);

/* The model's observer of clean steps (hdd_set_clean_observer, with a
 * trace=): each one's row in the trace, written with the next output
 * (at most CLEAN_ROWS between two; more are left out, and counted in
 * a debug message).
 */
extern void recorder_clean (void *opaque, const struct hdd_clean *);

#endif /* HDDSIM_RECORDER_H */
