/* hddsim: small helpers on uint64_t times and sizes. */
#ifndef HDDSIM_U64_H
#define HDDSIM_U64_H

#include <stdint.h>

static inline uint64_t
min64 (uint64_t a, uint64_t b)
{
  return a < b ? a : b;
}

static inline uint64_t
max64 (uint64_t a, uint64_t b)
{
  return a > b ? a : b;
}

#endif /* HDDSIM_U64_H */
