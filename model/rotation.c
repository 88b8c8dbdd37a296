/* hddsim: the platter's rotation.
 *
 * The platter turns at a constant rpm from time 0, starting 'phase0'
 * ns into a revolution (chosen from the seed).  Its angle at time t is
 * therefore exact: 60 s are exactly rpm revolutions, so working in
 * units where one revolution is NS_PER_MIN and one ns is rpm units
 * keeps every position an integer.  Within a track of spt sectors we
 * scale by spt once more so that sector boundaries are integers too.
 *
 * A request never waits an "average half revolution": it waits for
 * its sector to come round from wherever the platter is.
 */

#include <stdbool.h>

#include "rotation.h"

typedef unsigned __int128 u128;

/* With rpm and spt below this (and n below it, for rot_sectors_ns),
 * every product and sum here fits in 64 bits (NS_PER_MIN < 2^36, so a
 * revolution in rot_wait's units, NS_PER_MIN x spt, is below 2^63 and
 * twice it below 2^64): the same integers without 128-bit division,
 * a library call (__umodti3, __udivti3) and, with it, the most of a
 * Write Cache Reordering pick's time.
 */
#define NARROW (UINT64_C(1) << 27)

static bool
narrow (uint64_t rpm, uint64_t spt)
{
  return rpm < NARROW && spt < NARROW;
}

/* Phase at time t, in units of NS_PER_MIN per revolution. */
static uint64_t
phase (uint64_t rpm, uint64_t phase0, uint64_t t)
{
  uint64_t ns = (t % NS_PER_MIN + phase0 % NS_PER_MIN) % NS_PER_MIN;

  return (uint64_t) (((u128) ns * rpm) % NS_PER_MIN);
}

static uint64_t
rot_wait_wide (uint64_t rpm, uint64_t phase0, uint64_t t, uint64_t slot,
               uint64_t spt)
{
  const u128 m = (u128) NS_PER_MIN * spt;       /* one revolution */
  const u128 per_ns = (u128) rpm * spt;         /* one ns */
  u128 cur = (u128) phase (rpm, phase0, t) * spt;
  u128 target = (u128) (slot % spt) * NS_PER_MIN;
  u128 diff = (target + m - cur) % m;

  /* Transfers end on the ns at or before a sector boundary and waits
   * on the ns at or after one; less than a ns past the boundary is
   * "on it", not a whole revolution to go.
   */
  if (diff == 0 || m - diff < per_ns)
    return 0;
  return (uint64_t) ((diff + per_ns - 1) / per_ns);
}

/* rot_wait_wide's steps in 64 bits (narrow).  The divisions by
 * NS_PER_MIN, a constant, are multiplications; target and cur are both
 * below a revolution, m, so their difference plus m is below 2m and
 * its remainder by m one subtraction; a slot is mostly below spt
 * already.  One division is left.
 */
static uint64_t
rot_wait_narrow (uint64_t rpm, uint64_t phase0, uint64_t t, uint64_t slot,
                 uint64_t spt)
{
  const uint64_t m = NS_PER_MIN * spt;
  const uint64_t per_ns = rpm * spt;
  uint64_t ns = (t % NS_PER_MIN + phase0 % NS_PER_MIN) % NS_PER_MIN;
  uint64_t cur = ns * rpm % NS_PER_MIN * spt;
  uint64_t target = (slot < spt ? slot : slot % spt) * NS_PER_MIN;
  uint64_t diff = target + m - cur;

  if (diff >= m)
    diff -= m;
  if (diff == 0 || m - diff < per_ns)
    return 0;
  return (diff + per_ns - 1) / per_ns;
}

uint64_t
rot_wait (uint64_t rpm, uint64_t phase0, uint64_t t, uint64_t slot,
          uint64_t spt)
{
  if (narrow (rpm, spt))
    return rot_wait_narrow (rpm, phase0, t, slot, spt);
  return rot_wait_wide (rpm, phase0, t, slot, spt);
}

uint64_t
rot_sectors_ns (uint64_t rpm, uint64_t spt, uint64_t n)
{
  if (narrow (rpm, spt) && n < NARROW)
    return n * NS_PER_MIN / (rpm * spt);
  return (uint64_t) ((u128) n * NS_PER_MIN / ((u128) rpm * spt));
}

uint64_t
rot_sectors_in (uint64_t rpm, uint64_t spt, uint64_t ns)
{
  uint64_t units;

  if (narrow (rpm, spt) && !__builtin_mul_overflow (ns, rpm * spt, &units))
    return units / NS_PER_MIN;
  return (uint64_t) ((u128) ns * rpm * spt / NS_PER_MIN);
}

uint64_t
rot_rev_ns (uint64_t rpm)
{
  return (NS_PER_MIN + rpm / 2) / rpm;
}
