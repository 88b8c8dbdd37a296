/* hddsim: the mechanism: moving the arm and passing sectors under the
 * head, track by track (Ruemmler & Wilkes 1994).  Used by the drive
 * (hdd.c) for requests and destage writes, and by the cache (cache.c)
 * for how far the read-ahead stream has got.
 */

#include "mech.h"
#include "rotation.h"
#include "../common/u64.h"

/* Positioning from the arm to a track: seek, or head switch. */
static uint64_t
position_ns (const struct mech *m, const struct arm *a, const struct loc *l,
             bool write, uint64_t *dist)
{
  *dist = l->cyl > a->cyl ? l->cyl - a->cyl : a->cyl - l->cyl;
  if (m->seek->rule == POSITION_DISKSIM)        /* seek.c has the rule */
    return seek_position_disksim (m->seek, *dist, l->head != a->head, write);
  if (*dist)
    return seek_ns (m->seek, *dist) + (write ? m->write_settle : 0);
  if (l->head != a->head)
    return m->head_switch;
  return 0;
}

/* The interface after the media has read cnt sectors of a track from
 * ts to end: sector j (1..cnt) is read at ts + rot(j) and crosses once
 * it is read and the one before it has crossed.  The last crossing
 * ends at the latest of: the sectors queued before this track, then
 * these; the first sector's read, then all of them (an interface
 * slower than the media); the last sector's read, then that one (a
 * faster one).  The read times rise evenly along the track, so one of
 * the two ends decides.
 */
static void
bus_track (struct bus_follow *bus, const struct geom *g, uint64_t spt,
           uint64_t ts, uint64_t end, uint64_t cnt)
{
  uint64_t first = ts + rot_sectors_ns (g->rpm, spt, 1);
  uint64_t all = cnt * bus->sector_ns;

  bus->done = max64 (max64 (bus->done + all, first + all),
                     end + bus->sector_ns);
}

/* Zero-latency access (DiskSim's Immediate buffer read/write): the
 * head, landing inside the track's run of requested sectors, starts at
 * the next sector boundary rather than waiting for the first one,
 * reads to the run's end, and takes the sectors before the landing
 * point when they come round: the track's part of the request then
 * ends one revolution after that boundary.  Returns j, the requested
 * sectors before the landing point (1 <= j < cnt), and *wj the wait
 * for its boundary; 0 when landing there gains nothing (the head is
 * before the first sector, or on or past the last one's start, as
 * DiskSim's mech_g1 tests it), so the ordinary wait stands.
 */
static uint64_t
zl_landing (const struct mech *m, uint64_t at, const struct loc *l,
            uint64_t cnt, uint64_t wait, uint64_t *wj)
{
  uint64_t passed, j;

  if (wait == 0 || cnt < 2)
    return 0;
  /* wait covers spt - j sectors and part of one more. */
  passed = rot_sectors_in (m->g->rpm, l->spt, wait);
  if (passed >= l->spt)
    return 0;
  j = l->spt - passed;
  if (j >= cnt)
    return 0;
  *wj = rot_wait (m->g->rpm, m->phase0, at, l->slot + j, l->spt);
  return *wj < wait ? j : 0;
}

/* The interface after a zero-latency track: it takes sectors in LBA
 * order, so the j read last (from the track's first requested sector,
 * spt - j sectors after ts) go first, as they are read, and the other
 * cnt - j, read before them, follow at once.
 */
static void
bus_track_zl (struct bus_follow *bus, const struct geom *g, uint64_t spt,
              uint64_t ts, uint64_t end, uint64_t cnt, uint64_t j)
{
  bus_track (bus, g, spt, ts + rot_sectors_ns (g->rpm, spt, spt - j), end,
             j);
  bus->done = max64 (bus->done, end) + (cnt - j) * bus->sector_ns;
}

/* A media write's track under write-waits-for-bus=1: its data crosses
 * the interface back to back, sector k of the request (counting over
 * all its tracks and extents) in by bus->done + (k + 1) x sector_ns,
 * bus->done being when the sectors before this track are in.  As in
 * DiskSim, the head writes a sector only if its data is in when it
 * reaches it; else it waits for that sector's next pass after the data
 * is in, and goes on from there.  The head reaches the track's first
 * sector at *ts; returns when its cnt sectors are written, *ts moved
 * to when its first was begun (a miss there is rotational wait).
 */
static uint64_t
bus_write_track (const struct mech *m, const struct loc *l, uint64_t *ts,
                 uint64_t cnt, struct bus_follow *bus)
{
  uint64_t rpm = m->g->rpm, spt = l->spt, from = *ts, i0 = 0, i;

  for (i = 0; i < cnt; i++) {
    uint64_t at = from + rot_sectors_ns (rpm, spt, i - i0);
    uint64_t in = bus->done + (i + 1) * bus->sector_ns;

    if (at < in) {
      from = in + rot_wait (rpm, m->phase0, in, l->slot + i, spt);
      i0 = i;
      if (i == 0)
        *ts = from;
    }
  }
  bus->done += cnt * bus->sector_ns;
  return from + rot_sectors_ns (rpm, spt, cnt - i0);
}

/* The first track's positioning is the request's seek and rotational
 * wait; later ones (switches hidden, or not, by skew) count as
 * transfer.  zl: zero-latency access on every track (never with a
 * stop: the read-ahead stream reads in LBA order).
 */
static uint64_t
walk (const struct mech *m, struct arm *a, bool write, uint64_t t,
      uint64_t lba, uint64_t n, struct hdd_cost *c, struct walk_stop *stop,
      struct bus_follow *bus, bool zl)
{
  uint64_t did = 0;
  bool first = true;

  while (did < n) {
    struct loc l;
    uint64_t cnt, dist, pos, wait, x, ts, j = 0, wj = 0;

    geom_locate (m->g, lba + did, &l);
    cnt = min64 (n - did, l.run);
    pos = position_ns (m, a, &l, write, &dist);
    wait = rot_wait (m->g->rpm, m->phase0, t + pos, l.slot, l.spt);
    if (zl)
      j = zl_landing (m, t + pos, &l, cnt, wait, &wj);
    if (j) {
      wait = wj;
      x = rot_sectors_ns (m->g->rpm, l.spt, l.spt);
    }
    else
      x = rot_sectors_ns (m->g->rpm, l.spt, cnt);
    ts = t + pos + wait;
    if (bus && write) {         /* j = 0: refused with zl writes */
      uint64_t ts0 = ts, end = bus_write_track (m, &l, &ts, cnt, bus);
      wait += ts - ts0;
      x = end - ts;
    }
    if (stop && ts + x > stop->at) {
      uint64_t k = 0;
      if (stop->at > ts) {
        k = rot_sectors_in (m->g->rpm, l.spt, stop->at - ts);
        while (k > 0 && rot_sectors_ns (m->g->rpm, l.spt, k) > stop->at - ts)
          k--;
        k = min64 (k, cnt);
      }
      stop->done = did + k;
      a->cyl = l.cyl;
      a->head = l.head;
      return stop->at;
    }
    if (c) {
      if (first) {
        c->seek_ns += pos;
        c->rot_ns += wait;
        if (c->seek_cylinders == 0)
          c->seek_cylinders = dist;
      }
      else
        c->xfer_ns += pos + wait;
      c->xfer_ns += x;
    }
    if (bus && write)
      ;                         /* bus_write_track followed it */
    else if (bus && j)
      bus_track_zl (bus, m->g, l.spt, ts, ts + x, cnt, j);
    else if (bus && cnt > 0)
      bus_track (bus, m->g, l.spt, ts, ts + x, cnt);
    first = false;
    t = ts + x;
    a->cyl = l.cyl;
    a->head = l.head;
    did += cnt;
    if (stop && did < n) {
      stop->mark = true;
      stop->mark_t = t;
      stop->mark_lba = lba + did;
      stop->mark_arm = *a;
    }
  }
  if (stop)
    stop->done = n;
  return t;
}

uint64_t
mech_walk (const struct mech *m, struct arm *a, bool write, uint64_t t,
           uint64_t lba, uint64_t n, struct hdd_cost *c,
           struct walk_stop *stop)
{
  return walk (m, a, write, t, lba, n, c, stop, NULL, false);
}

uint64_t
mech_access (const struct mech *m, struct arm *a, bool write, uint64_t t,
             uint64_t lba, uint64_t n, struct hdd_cost *c)
{
  return walk (m, a, write, t, lba, n, c, NULL, NULL,
               write ? m->zl_write : m->zl_read);
}

uint64_t
mech_reach_ns (const struct mech *m, const struct arm *a, bool write,
               uint64_t t, const struct loc *l, uint64_t below)
{
  uint64_t dist, pos = position_ns (m, a, l, write, &dist);

  if (pos >= below)             /* the wait cannot bring it below */
    return pos;
  return pos + rot_wait (m->g->rpm, m->phase0, t + pos, l->slot, l->spt);
}

uint64_t
mech_walk_bus (const struct mech *m, struct arm *a, bool write, uint64_t t,
               uint64_t lba, uint64_t n, struct hdd_cost *c,
               struct bus_follow *bus)
{
  return walk (m, a, write, t, lba, n, c, NULL, bus,
               write ? false : m->zl_read);
}
