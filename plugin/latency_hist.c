/* hddsim: a log-linear histogram of non-negative durations. */

#include <math.h>

#include "latency_hist.h"

#define SUB 512                 /* sub-buckets per power of two */

static unsigned
bucket_of (uint64_t us)
{
  unsigned msb, shift;

  if (us < 2 * SUB)
    return (unsigned) us;
  msb = 63 - (unsigned) __builtin_clzll (us);
  shift = msb - 9;
  return (shift + 1) * SUB + (unsigned) ((us >> shift) & (SUB - 1));
}

static uint64_t
bucket_low_us (unsigned b)
{
  if (b < 2 * SUB)
    return b;
  return (uint64_t) (SUB + b % SUB) << (b / SUB - 1);
}

void
latency_hist_add (struct latency_hist *h, uint64_t ns)
{
  unsigned b = bucket_of (ns / 1000);

  if (b >= LATENCY_HIST_BUCKETS)
    b = LATENCY_HIST_BUCKETS - 1;
  h->buckets[b]++;
  h->count++;
  h->sum_ns += ns;
  if (ns > h->max_ns)
    h->max_ns = ns;
}

uint64_t
latency_hist_quantile (const struct latency_hist *h, double q)
{
  uint64_t rank, seen = 0;
  unsigned b;

  if (h->count == 0)
    return 0;
  /* Nearest rank: the ceil(q*n)-th smallest sample, counted from 1. */
  rank = (uint64_t) ceil (q * (double) h->count);
  if (rank > 0)
    rank--;
  if (rank >= h->count)
    return h->max_ns;
  for (b = 0; b < LATENCY_HIST_BUCKETS; b++) {
    seen += h->buckets[b];
    if (seen > rank) {
      uint64_t ns = bucket_low_us (b) * 1000;
      return ns < h->max_ns ? ns : h->max_ns;
    }
  }
  return h->max_ns;
}
