/* hddsim: DiskSim's mechanics in its own fixed point (dctl.h): the
 * platter's angle a uint32 fraction of a revolution, time in
 * picoseconds, and the truncations of diskmodel's mech_g1 and g1
 * layout, so that a sector's time and a rotational wait come out as
 * DiskSim's do, to the picosecond.
 *
 *   rotate(t)        the angle the platter turns in t: (t << 24) /
 *                    period, then << 8 (24 bits of division only)
 *   rottime(a, b)    the time from angle a to angle b: the angle cut
 *                    to 2^-20 of a revolution, times the period, >> 20
 *   xfertime(n)      rottime of n sectors' width, a sector being
 *                    floor(2^32 / spt) wide
 *   angle(sector)    the zone's offset, skews, slips and the sector,
 *                    each a whole number of sector widths, added with
 *                    the track's leftover (2^32 mod spt) once for each
 *                    time a sum passes a whole revolution
 */

#include "dctl.h"
#include "../common/u64.h"

#define ANGLE_ONE (UINT64_C(1) << 32)

uint32_t
dmech_rotate (const struct dctl *d, uint64_t ps)
{
  if (ps == 0)
    return 0;
  return (uint32_t) (((ps << 24) / d->c.period) << 8);
}

uint64_t
dmech_rottime (const struct dctl *d, uint32_t from, uint32_t to)
{
  uint32_t diff = to - from;

  if (diff == 0)
    return 0;
  return ((uint64_t) (diff >> 12) * d->c.period) >> 20;
}

static uint32_t
sector_width (uint64_t spt)
{
  return (uint32_t) (ANGLE_ONE / spt);
}

uint64_t
dmech_xfertime (const struct dctl *d, uint64_t spt, uint64_t n)
{
  uint32_t width = n > spt ? 0 : (uint32_t) (sector_width (spt) * n);

  return dmech_rottime (d, 0, width);
}

/* start + mult * q, plus x for every whole revolution the sum passes
 * (layout_g1's addmult), modulo a revolution.
 */
static uint32_t
addmult (uint32_t start, uint64_t mult, uint32_t q, uint32_t x)
{
  uint64_t sum = start + mult * q;

  return (uint32_t) (start + (uint32_t) (mult * q) + (sum >> 32) * x);
}

uint32_t
dmech_angle (const struct dctl *d, uint64_t cyl, uint64_t head,
             uint64_t sector)
{
  struct angle_parts a;
  uint32_t sw, left, angle;

  geom_angle_parts (d->g, cyl, head, &a);
  sw = sector_width (a.spt);
  left = (uint32_t) (ANGLE_ONE % a.spt);
  angle = (uint32_t) (a.offset * sw);
  angle = addmult (angle, a.switches, (uint32_t) (a.track_skew * sw), left);
  angle = addmult (angle, a.cyls, (uint32_t) (a.cyl_skew * sw), left);
  angle = addmult (angle, a.turns, sw, left);
  return addmult (angle, sector, sw, left);
}

/* The wait from angle theta, on a track, for a sector's start.  With
 * DiskSim's immediate (zero-latency) access too: its mech_g1 takes the
 * layout's angle-to-sector answer, DM_OK, as a failure and keeps the
 * requested sector (docs/model.md "Zero-latency access").
 */
uint64_t
dmech_latency (const struct dctl *d, uint32_t theta, uint64_t cyl,
               uint64_t head, uint64_t sector)
{
  return dmech_rottime (d, theta, dmech_angle (d, cyl, head, sector));
}

/* dm_seek_time: the longer of the seek and the head switch, and a
 * write's settling delay on any positioning that is not zero.
 */
uint64_t
dmech_seek (const struct dctl *d, uint64_t cyl, uint64_t head, bool read)
{
  uint64_t dist = cyl > d->cyl ? cyl - d->cyl : d->cyl - cyl;
  uint64_t s = dist ? seek_ps (d->seek, dist) : 0;
  uint64_t h = head != d->head ? d->c.head_switch : 0;
  uint64_t t = max64 (s, h);

  if (t == 0 || read)
    return t;
  if (d->c.write_delta < 0 && (uint64_t) -d->c.write_delta >= t)
    return 0;                   /* refused by the importer */
  return t + (uint64_t) d->c.write_delta;
}
