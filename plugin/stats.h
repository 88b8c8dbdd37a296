/* hddsim: running statistics (stats=FILE), written as JSON. */
#ifndef HDDSIM_STATS_H
#define HDDSIM_STATS_H

#include <stdint.h>

#include "../sched/req.h"
#include "trace.h"

struct stats;

extern struct stats *stats_new (void);
extern void stats_free (struct stats *);
extern void stats_record (struct stats *, const struct req *r,
                          int64_t late_ns, enum req_outcome outcome);
/* A copy to write without holding the caller's lock. */
extern struct stats *stats_snapshot (const struct stats *);
/* Write atomically (temporary file, then rename); 'elapsed_ns' is the
 * time the figures cover.  -1 and errno on failure.
 */
extern int stats_write (const struct stats *, const char *path,
                        uint64_t elapsed_ns);
/* Lateness quantile, for the final log line. */
extern uint64_t stats_lateness (const struct stats *, double q);
extern uint64_t stats_count (const struct stats *);

#endif /* HDDSIM_STATS_H */
