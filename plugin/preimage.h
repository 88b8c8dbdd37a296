/* hddsim: the pre-image store, for power-loss emulation (powercut=).
 *
 * The image file always holds the newest data.  For every sector whose
 * newest data may not be on the modeled media yet, the store keeps what
 * the media holds (the "base", saved from the file just before the file
 * was overwritten) and the versions that media writes still under way
 * carry; at a cut it writes back, sector by sector, whatever the media
 * held at that modeled instant.  See docs/power-loss.md.
 *
 * Every call is made under the driver's lock, in the order the model
 * serves requests: write, zero and trim data reach the file in that
 * order (preimage_before_write, then the caller's pwrite), so that a media
 * write the model reports carries exactly what the file holds when it
 * is reported, or, for the request being served, what it is about to
 * write.
 */
#ifndef HDDSIM_PREIMAGE_H
#define HDDSIM_PREIMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "../model/hdd.h"

/* Largest write the store is sized for (NBD's largest payload). */
#define PREIMAGE_MAX_REQUEST (UINT64_C(32) << 20)

/* What a cut found. */
struct preimage_loss {
  uint64_t sectors;             /* sectors written back (newest data lost) */
  uint64_t extents;             /* runs of adjacent such sectors */
};

/* At start-up: allocate everything for a drive whose write cache holds
 * cache_bytes (0 unless cache=wb; write_back: cache=wb) and an image
 * of image_bytes (image.c's).  -1 after an nbdkit_error.
 */
extern int preimage_init (uint64_t image_bytes, uint64_t cache_bytes,
                          bool write_back);
extern void preimage_free (void);

/* The model's observer (hdd_set_media_observer). */
extern void preimage_observe (void *opaque, const struct hdd_media_write *);

/* Modeled time has reached t: media writes that ended by then are
 * final.
 */
extern void preimage_advance (uint64_t t);

/* A write (IO_WRITE or IO_ZERO) or trim of [offset, offset+length)
 * served from 'start', completing at 'done' (fua: durable then), is
 * about to reach the file: keep what the file holds now where it is
 * still needed.  -1 with errno ENOSPC if the store has no room (only a
 * zero or trim larger than a write can be); nothing is changed then.
 */
extern int preimage_before_write (enum io_op op, uint64_t offset,
                                  uint64_t length, bool fua, uint64_t start,
                                  uint64_t done);

/* A flush served from 'start' completes at 'done': trims before it
 * are durable then (with cache=wb).
 */
extern void preimage_flush (uint64_t start, uint64_t done);

/* The power fails at t: write back into the file every sector not on
 * the media at t, then fsync it.  -1 after an nbdkit_error if the file
 * could not be written.
 */
extern int preimage_cut (const struct hdd *, uint64_t t,
                         struct preimage_loss *);

/* Writes that have reached the file: the ticket of the newest. */
extern uint64_t preimage_tickets (void);

/* Sector buffers in use, and the capacity (for the stats). */
extern uint64_t preimage_used (void);
extern uint64_t preimage_capacity (void);

#endif /* HDDSIM_PREIMAGE_H */
