/* hddsim: what the model makes of a set of parameters, for a loader
 * that holds its translation of another simulator's drive against it
 * (disksim/): where the model's geometry puts an LBA, and the time the
 * model reads off a seek-table between two of its points.
 *
 * Public beyond the model, with hdd.h and params.h.  The geometry and
 * the seek curve themselves (geometry.h, seek.h) stay the model's.
 */
#ifndef HDDSIM_PROBE_H
#define HDDSIM_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "params.h"

/* The geometry a set of parameters gives. */
struct hdd_probe;

/* Where the model puts one LBA. */
struct hdd_probe_loc {
  uint64_t cyl, head;
  uint64_t sector;              /* index on its track: logical, or with
                                   zone-table= the physical slot before
                                   skew (spares and slips count) */
  uint64_t slot;                /* angular slot: (sector + skew) mod the
                                   sectors per track */
};

/* NULL when out of memory. */
extern struct hdd_probe *hdd_probe_new (void);
extern void hdd_probe_free (struct hdd_probe *);

/* Lay out p's drive as the model would (zones, skews, spares, slips,
 * defects; no seek curve, no image); -1 and err if it cannot.
 */
extern int hdd_probe_layout (struct hdd_probe *, const struct hdd_params *p,
                             char *err, size_t errlen);
/* The first LBA of one of the drive's zones. */
extern uint64_t hdd_probe_zone_lba (const struct hdd_probe *, unsigned zone);
extern void hdd_probe_locate (const struct hdd_probe *, uint64_t lba,
                              struct hdd_probe_loc *);

/* A seek-table's time at dist, from its points (d1, t1) and (d2, t2)
 * with d1 < d2: DiskSim's integer interpolation (and extrapolation
 * beyond d2) in picoseconds, rounded to ns; never below 0 (seek.c).
 */
extern uint64_t seek_table_interp (uint64_t d1, uint64_t t1, uint64_t d2,
                                   uint64_t t2, uint64_t dist);

#endif /* HDDSIM_PROBE_H */
