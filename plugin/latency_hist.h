/* hddsim: a log-linear histogram of non-negative durations.
 *
 * Lateness is recorded for every request for as long as the server
 * runs, and its percentiles are written once a second: a histogram
 * with 512 sub-buckets per power of two (about 0.2% resolution above
 * 1 ms, 1 us below) keeps that constant in memory and time.
 */
#ifndef HDDSIM_LATENCY_HIST_H
#define HDDSIM_LATENCY_HIST_H

#include <stdint.h>

#define LATENCY_HIST_BUCKETS (64 * 512)

struct latency_hist {
  uint64_t count;
  uint64_t sum_ns;
  uint64_t max_ns;
  uint64_t buckets[LATENCY_HIST_BUCKETS];
};

extern void latency_hist_add (struct latency_hist *, uint64_t ns);
/* The value below which a fraction q (0..1) of samples lie, in ns
 * (resolution as above); 0 when empty.
 */
extern uint64_t latency_hist_quantile (const struct latency_hist *, double q);

#endif /* HDDSIM_LATENCY_HIST_H */
