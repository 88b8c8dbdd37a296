/* hddsim: a drive's insides, for the model's unit tests (which aim at
 * a cylinder, or check what the parameters became).  Defined in hdd.c;
 * not for the engine or the plugin (hdd.h is theirs).
 */
#ifndef HDDSIM_INSPECT_H
#define HDDSIM_INSPECT_H

#include <stdint.h>

#include "hdd.h"

struct geom;
struct hdd_params;
struct media_cache;
struct seek_curve;

extern const struct geom *hdd_geom (const struct hdd *);
extern const struct seek_curve *hdd_seek_curve (const struct hdd *);
extern const struct hdd_params *hdd_params_of (const struct hdd *);
/* Drive LBA of an image byte offset (placement applied). */
extern uint64_t hdd_image_to_lba (const struct hdd *, uint64_t offset);
/* The media cache (media_cache.h): its map, its log. */
extern const struct media_cache *hdd_media_cache (const struct hdd *);
/* The DM-SMR state (smr.h). */
struct smr;
extern const struct smr *hdd_smr (const struct hdd *);

#endif /* HDDSIM_INSPECT_H */
