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

/* Vigna's splitmix64: one well-mixed value from a seed, for the
 * platter's phase and powercut=random:, so that both follow seed=
 * and nothing else.
 */
static inline uint64_t
splitmix64 (uint64_t x)
{
  x += UINT64_C(0x9E3779B97F4A7C15);
  x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
  return x ^ (x >> 31);
}

#endif /* HDDSIM_U64_H */
