/* hddsim: what the parameters fix once for a drive: its geometry, its
 * seek curve, and where the image lies on it (layout.c).
 */
#ifndef HDDSIM_LAYOUT_H
#define HDDSIM_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "geometry.h"
#include "params.h"
#include "seek.h"

/* placement=: image sectors to drive LBAs.  chunk == 0: the image is
 * at the start of the drive; else image chunk k (of 'chunk' sectors)
 * begins at drive LBA k * group.
 */
struct image_map {
  uint64_t image_sectors;
  uint64_t chunk, group;
};

struct drive_layout {
  struct geom g;
  struct seek_curve seek;
  struct image_map pl;
};

/* The one place the geometry is built and the seek curve fitted.
 * image_bytes 0: no image (parameter validation): no placement and
 * no size check.
 */
extern struct drive_layout *layout_new (const struct hdd_params *,
                                        uint64_t image_bytes,
                                        char *err, size_t errlen);
extern void layout_free (struct drive_layout *);
extern uint64_t place_image_to_lba (const struct image_map *, uint64_t s);
/* Image sectors from s that are contiguous on the drive. */
extern uint64_t place_contiguous_from (const struct image_map *, uint64_t s);
extern uint64_t place_lba_to_image (const struct image_map *, uint64_t lba);

#endif /* HDDSIM_LAYOUT_H */
