/* hddsim: the host's clock, in the engine's unit. */
#ifndef HDDSIM_CLOCK_H
#define HDDSIM_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t
monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000 + (uint64_t) ts.tv_nsec;
}

static inline struct timespec
ns_to_timespec (uint64_t ns)
{
  struct timespec ts = {
    .tv_sec = (time_t) (ns / 1000000000),
    .tv_nsec = (long) (ns % 1000000000),
  };
  return ts;
}

#endif /* HDDSIM_CLOCK_H */
