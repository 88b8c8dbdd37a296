/* hddsim: a drive with two arms (actuators=2), each serving one half
 * of the LBAs (actuators.c).  Internal to the model: hdd.c routes to
 * it when the drive has two.
 */
#ifndef HDDSIM_ACTUATORS_H
#define HDDSIM_ACTUATORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hdd.h"
#include "layout.h"
#include "params.h"

struct actuators;

/* The two arms of the drive p describes; pl is the whole drive's
 * placement of the image (the caller's, kept by reference).  NULL and
 * err on a drive that cannot be split.
 */
extern struct actuators *actuators_new (const struct hdd_params *p,
                                        const struct image_map *pl,
                                        uint64_t seed, char *err,
                                        size_t errlen);
extern void actuators_free (struct actuators *);

extern unsigned actuators_of (const struct actuators *, const struct io *r);
extern uint64_t actuators_serve (struct actuators *, const struct io *r,
                                 uint64_t t, struct hdd_cost *out);
extern uint64_t actuators_estimate (const struct actuators *,
                                    const struct io *r, uint64_t t,
                                    struct hdd_cost *out);
extern bool actuators_no_positioning (const struct actuators *,
                                      const struct io *r);
extern void actuators_idle (struct actuators *, uint64_t t);
extern uint64_t actuators_head_offset (const struct actuators *);
extern uint64_t actuators_dirty_bytes (const struct actuators *);
extern uint64_t actuators_write_cache_bytes (const struct actuators *);
extern void actuators_set_media_observer (struct actuators *,
                                          hdd_media_fn fn, void *opaque);
/* hdd_set_clean_observer on each arm: their regions at the image's
 * offsets.
 */
extern void actuators_set_clean_observer (struct actuators *,
                                          hdd_clean_fn fn, void *opaque);
extern uint64_t actuators_media_written (const struct actuators *,
                                         const struct hdd_media_write *ev,
                                         uint64_t t);

#endif /* HDDSIM_ACTUATORS_H */
