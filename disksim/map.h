/* hddsim: a DiskSim drive (drive.h) as the model's parameters: one
 * mapper per part of the drive, each setting what the model can take
 * and refusing, with the file, line and key, what it cannot
 * (map_block).  map.c runs them in a fixed order, so that the reasons
 * are listed in that order.
 */
#ifndef HDDSIM_DISKSIM_MAP_H
#define HDDSIM_DISKSIM_MAP_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "../model/hdd.h"
#include "../model/params.h"
#include "drive.h"

/* The reasons so far: how many, the first, and who hears of each. */
struct map_out {
  unsigned n;
  char first[HDD_ERRLEN];
  void (*each) (const char *, void *);
  void *opaque;
};

/* Refuse a value: the reason is "FILE:LINE: " and the rest. */
extern void map_block (struct map_out *o, struct dsp_where at,
                       const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
/* Set key= through the model's parameter table, so its bounds apply:
 * v, in ns when 'ns'; refused under DiskSim's name dskey if out of
 * them.
 */
extern void map_set (struct map_out *o, struct hdd_params *p,
                     struct dsp_where at, const char *dskey,
                     const char *key, uint64_t v, bool ns);
/* The same with a word (cache-write-segment=shared). */
extern void map_set_word (struct map_out *o, struct hdd_params *p,
                          struct dsp_where at, const char *dskey,
                          const char *key, const char *v);
/* Refuse k unless it is unset or 'want'. */
extern void map_need (struct map_out *o, const struct ds_key *k,
                      const char *key, double want, const char *why);

static inline uint64_t
ms_to_ns (double ms)
{
  return ms <= 0 ? 0 : (uint64_t) llround (ms * 1e6);
}

/* The parts, in the order map.c runs them after map_system. */
/* rpm, the seek table, head switch and write settle (map_mech.c). */
extern void map_mech (struct map_out *o, const struct ds_drive *d,
                      struct hdd_params *p);
/* Zones, sparing, slips and defects, held against the model's own
 * geometry (map_layout.c).
 */
extern void map_layout (struct map_out *o, const struct ds_drive *d,
                        struct hdd_params *p);
/* The interface rate: the slowest of disk, bus and controller
 * (map_controller.c).
 */
extern void map_interface (struct map_out *o, const struct ds_drive *d,
                           struct hdd_params *p);
/* Segments, read-ahead, write segments, fast writes (map_cache.c). */
extern void map_cache (struct map_out *o, const struct ds_drive *d,
                       struct hdd_params *p);
/* The per-command overheads (map_controller.c). */
extern void map_overheads (struct map_out *o, const struct ds_drive *d,
                           struct hdd_params *p);
/* What the disk's controller does besides (map_controller.c). */
extern void map_controller (struct map_out *o, const struct ds_drive *d,
                            struct hdd_params *p);

#endif /* HDDSIM_DISKSIM_MAP_H */
