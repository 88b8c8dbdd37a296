/* hddsim: running statistics (stats=FILE), written as JSON.  Kept by
 * one thread at a time (the recorder's writer).
 */
#ifndef HDDSIM_STATS_H
#define HDDSIM_STATS_H

#include <stdint.h>

#include "../trace/cut.h"
#include "../trace/record.h"
#include "../model/power_states.h"

struct stats;

extern struct stats *stats_new (void);
extern void stats_free (struct stats *);
extern void stats_record (struct stats *, const struct trace_record *);
/* Writes that failed, counted in the stats themselves. */
extern void stats_set_output_errors (struct stats *, uint64_t trace_lost,
                                     uint64_t stats_write_errors);
/* Lateness quantile and the number of requests with a lateness
 * sample, for the final log line.
 */
extern uint64_t stats_lateness (const struct stats *, double q);
extern uint64_t stats_lateness_samples (const struct stats *);

/* The power cut (powercut=), once it has happened. */
extern void stats_set_powercut (struct stats *, const struct trace_cut *);

/* The faults fired so far (fault=); the drive's power states, as of
 * the snapshot (written only when a power-state timer is set).
 */
extern void stats_set_faults_fired (struct stats *, uint64_t fired);
extern void stats_set_power_states (struct stats *,
                                    const struct hdd_power_stats *);

struct stats_file;

/* At start-up: check that PATH can be replaced (see stats.c) and write
 * a first, empty snapshot there.  NULL after an nbdkit_error naming
 * stats=.
 */
extern struct stats_file *stats_file_open (const char *path,
                                           const struct stats *empty);
/* Replace the file with a snapshot covering 'elapsed_ns'.  The first
 * failure is reported through nbdkit_error, every one counted;
 * returns -1 on failure.
 */
extern int stats_file_write (struct stats_file *, const struct stats *,
                             uint64_t elapsed_ns);
extern uint64_t stats_file_errors (const struct stats_file *);
extern void stats_file_close (struct stats_file *);

#endif /* HDDSIM_STATS_H */
