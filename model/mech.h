/* hddsim: the mechanism: moving the arm and passing sectors under the
 * head, track by track (mech.c).
 */
#ifndef HDDSIM_MECH_H
#define HDDSIM_MECH_H

#include <stdbool.h>
#include <stdint.h>

#include "geometry.h"
#include "hdd.h"
#include "seek.h"

struct arm {
  uint64_t cyl, head;
};

/* What the mechanism needs, fixed when the drive is built. */
struct mech {
  const struct geom *g;
  const struct seek_curve *seek;
  uint64_t write_settle, head_switch;
  uint64_t phase0;              /* platter's phase at time 0 */
  bool zl_read, zl_write;       /* zero-latency access (mech_access) */
};

/* Where a walk stopped early, and the last track boundary before. */
struct walk_stop {
  uint64_t at;                  /* stop at this time (UINT64_MAX: don't) */
  uint64_t done;                /* out: sectors transferred by 'at' */
  bool mark;                    /* out: a track boundary was passed */
  uint64_t mark_t, mark_lba;
  struct arm mark_arm;
};

/* The interface following a media read: each sector crosses it after
 * the media has read it, one at a time, 'sector_ns' each.  done: when
 * the interface is free (in: when it may begin; out: when the last
 * sector read so far has crossed).  For a write waiting for its data:
 * done is when the sectors before the track in hand are in.
 */
struct bus_follow {
  uint64_t sector_ns;
  uint64_t done;
};

/* Transfer n sectors from lba, starting at time t with the arm at *a:
 * position (seek or head switch), wait for the first sector, transfer,
 * track by track.  Returns the end time (or stop->at if it stops).
 * Adds to *c when not NULL.
 */
extern uint64_t mech_walk (const struct mech *, struct arm *, bool write,
                           uint64_t t, uint64_t lba, uint64_t n,
                           struct hdd_cost *c, struct walk_stop *stop);
/* mech_walk for a request's or a destage write's media access: with
 * zero-latency reads (writes) each track starts at the first requested
 * sector boundary under the head (mech.c).
 */
extern uint64_t mech_access (const struct mech *, struct arm *, bool write,
                             uint64_t t, uint64_t lba, uint64_t n,
                             struct hdd_cost *c);
/* What the arm takes from *a at t to the start of the sector at *l:
 * positioning and rotational wait, as mech_access charges them for a
 * one-sector access (seek_ns + rot_ns), without the walk.  When the
 * positioning alone is not below 'below', it is returned as it is (a
 * pick of the least, below being the least so far, needs no more than
 * "not less": the rotational wait is not worked out).
 */
extern uint64_t mech_reach_ns (const struct mech *, const struct arm *,
                               bool write, uint64_t t, const struct loc *l,
                               uint64_t below);
/* mech_walk for a read whose sectors follow over the interface as they
 * are read (*bus updated, track by track); for a write
 * (write-waits-for-bus=1) whose sectors the head writes only once they
 * have crossed it, from bus->done on (mech.c bus_write_track).
 */
extern uint64_t mech_walk_bus (const struct mech *, struct arm *,
                               bool write,
                               uint64_t t, uint64_t lba, uint64_t n,
                               struct hdd_cost *c, struct bus_follow *bus);

#endif /* HDDSIM_MECH_H */
