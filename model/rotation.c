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

#include "rotation.h"

typedef unsigned __int128 u128;

/* Phase at time t, in units of NS_PER_MIN per revolution. */
static uint64_t
phase (uint64_t rpm, uint64_t phase0, uint64_t t)
{
  uint64_t ns = (t % NS_PER_MIN + phase0 % NS_PER_MIN) % NS_PER_MIN;

  return (uint64_t) (((u128) ns * rpm) % NS_PER_MIN);
}

uint64_t
rot_wait (uint64_t rpm, uint64_t phase0, uint64_t t, uint64_t slot,
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

uint64_t
rot_sectors_ns (uint64_t rpm, uint64_t spt, uint64_t n)
{
  return (uint64_t) ((u128) n * NS_PER_MIN / ((u128) rpm * spt));
}

uint64_t
rot_sectors_in (uint64_t rpm, uint64_t spt, uint64_t ns)
{
  return (uint64_t) ((u128) ns * rpm * spt / NS_PER_MIN);
}

uint64_t
rot_rev_ns (uint64_t rpm)
{
  return (NS_PER_MIN + rpm / 2) / rpm;
}
