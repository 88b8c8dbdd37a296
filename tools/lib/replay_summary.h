/* hddsim: hddsim-replay's --summary: per-operation counts, IOPS, MiB/s,
 * response-time percentiles and the drive's modeled utilisation, kept
 * in memory that does not grow with the trace.
 *
 * Response times go into log-linear histograms: values below 1024 ns
 * exactly, larger ones in 1024 buckets per power of two, each bucket
 * remembering the largest value it holds.  A percentile is the
 * largest value in the bucket of the nearest-rank sample (the
 * smallest v with at least p% of the samples <= v), so it is exact
 * when that bucket holds one distinct value and otherwise at most
 * 1/1024 (0.1%) above the exact one.  The maximum is always exact.
 */
#ifndef HDDSIM_REPLAY_SUMMARY_H
#define HDDSIM_REPLAY_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../sched/req.h"

struct replay_summary;

/* held: also keep the response time from the time the trace meant the
 * request to be issued (with the time a bounded client held it back).
 */
extern struct replay_summary *replay_summary_new (bool held);
extern void replay_summary_free (struct replay_summary *);

/* r has completed; 'wanted' is when the trace issued it (<= r->arrival).
 * -1 when out of memory.
 */
extern int replay_summary_add (struct replay_summary *, const struct req *r,
                               uint64_t wanted);

/* The table and the utilisation line; -1 on a write error. */
extern int replay_summary_print (const struct replay_summary *, FILE *fp);

/* The p-th percentile (0 < p <= 100) of the response times of op
 * (IO_OP_COUNT: all operations), in ns; 0 without samples.  For the
 * unit tests.
 */
extern uint64_t replay_summary_percentile (const struct replay_summary *,
                                           int op, bool held, unsigned p);

#endif /* HDDSIM_REPLAY_SUMMARY_H */
