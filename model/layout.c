/* hddsim: what the parameters fix once: the geometry, the seek curve
 * and where the image lies on the drive (placement=).
 *
 * Built in one place, layout_new, for both hdd_params_validate (which
 * throws it away) and hdd_new (which keeps it, immutable, for the
 * drive's lifetime).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "layout.h"
#include "../common/u64.h"

/* placement=spread cuts the image into n chunks placed at equal LBA
 * intervals over the drive, so that a small image still sees seeks of
 * the whole stroke.
 * SPREAD_CHUNKS: with chunk k at k/n of the stroke, two random image
 * sectors lie on average E|i-j|/n = (n^2-1)/(3n^2) of the stroke
 * apart, against 1/3 on the whole drive: n = 32 is within 0.1%, so the
 * profile's seek-avg holds, while a sequential pass over the image
 * crosses only n - 1 = 31 chunk boundaries (each a seek of 1/32 of the
 * stroke that a contiguous image would not have).
 * CHUNK_MIN_SECTORS (1 MiB): a request of L bytes at a random offset
 * crosses a boundary with probability about L / chunk, under 0.4% for
 * 4 KiB; images under 32 MiB get fewer chunks rather than smaller ones.
 */
#define SPREAD_CHUNKS 32
#define CHUNK_MIN_SECTORS 2048

uint64_t
place_image_to_lba (const struct image_map *pl, uint64_t s)
{
  if (pl->chunk == 0)
    return s;
  return s / pl->chunk * pl->group + s % pl->chunk;
}

uint64_t
place_contiguous_from (const struct image_map *pl, uint64_t s)
{
  if (pl->chunk == 0)
    return UINT64_MAX;
  return pl->chunk - s % pl->chunk;
}

uint64_t
place_lba_to_image (const struct image_map *pl, uint64_t lba)
{
  uint64_t s = lba;

  if (pl->chunk) {
    uint64_t o = lba % pl->group;
    s = lba / pl->group * pl->chunk + (o < pl->chunk ? o : pl->chunk);
  }
  return min64 (s, pl->image_sectors);
}

static void
placement_init (struct image_map *pl, int mode, const struct geom *g,
                uint64_t image_sectors)
{
  uint64_t n, chunk;

  *pl = (struct image_map) { .image_sectors = image_sectors };
  if (mode != PLACE_SPREAD || image_sectors == 0)
    return;
  chunk = max64 ((image_sectors + SPREAD_CHUNKS - 1) / SPREAD_CHUNKS,
                 CHUNK_MIN_SECTORS);
  n = (image_sectors + chunk - 1) / chunk;
  if (g->sectors / n < chunk)
    return;                     /* fills the drive: nothing to spread */
  pl->chunk = chunk;
  pl->group = g->sectors / n;
}

struct drive_layout *
layout_new (const struct hdd_params *p, uint64_t image_bytes, char *err,
            size_t errlen)
{
  struct drive_layout *l = malloc (sizeof *l);

  if (!l) {
    snprintf (err, errlen, "out of memory");
    return NULL;
  }
  if (geom_init (&l->g, p, err, errlen) == -1
      || seek_fit (&l->seek, p, &l->g, err, errlen) == -1)
    goto fail;
  if (image_bytes > l->g.sectors * SECTOR) {
    snprintf (err, errlen, "the image (%" PRIu64 " bytes) is larger than "
              "the drive of profile %s (capacity=%" PRIu64 " bytes); "
              "set a larger capacity= or choose another profile",
              image_bytes, p->profile, l->g.sectors * SECTOR);
    goto fail;
  }
  placement_init (&l->pl, p->placement, &l->g,
                  (image_bytes + SECTOR - 1) / SECTOR);
  return l;

 fail:
  free (l);
  return NULL;
}

void
layout_free (struct drive_layout *l)
{
  free (l);
}
