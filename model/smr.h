/* hddsim: drive-managed shingled recording (DM-SMR) on the media cache
 * (smr.c; docs/smr.md gives every rule its source).
 *
 * A DM-SMR drive's persistent cache is the media cache
 * (media_cache.h): a log on the platter where writes are staged, a map
 * of bounded size, cleaning when idle and when full.  What SMR adds:
 *
 *   - shingled bands, the media cache's regions: sizes go linearly
 *     from smr-band-outer= at LBA 0 to smr-band-inner= at the last LBA
 *     (bands are a number of tracks, and tracks shrink inwards);
 *   - which writes go home: only a band written from its start, by
 *     commands of at least smr-seq-min= bytes each, each beginning a
 *     band or continuing the run in place ("whole-band sequential");
 *     every other write is staged, however long (up to
 *     media-cache-max-write=);
 *   - cleaning a band: read it, read its staged extents from the log,
 *     write it back whole (a read-modify-write), oldest band first;
 *   - smr-aged=: the cache partly full at the start.
 *
 * Where a write goes is decided by the host's command when it arrives
 * (smr_classify), not by how the write cache later merges it; the
 * sectors a command sent home are kept (a bounded set) until they
 * reach the media.
 */
#ifndef HDDSIM_SMR_H
#define HDDSIM_SMR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extents.h"
#include "media_cache.h"

struct hdd_params;

struct smr {
  bool on;
  uint64_t nbands;
  uint64_t *band_start;         /* nbands + 1 LBAs; the last the end */
  uint64_t seq_min;             /* sectors */
  /* Sectors host commands sent home, not yet on the media. */
  struct extents *inplace;
  uint64_t stream_next;         /* the LBA a whole-band sequential run
                                   continues at (UINT64_MAX: none) */
  bool owns;
};

/* Build from the parameters for a drive of 'sectors' LBAs, on the
 * drive's media cache (its regions become the bands, its cleaner the
 * band's read-modify-write, and smr-aged= fills it); off, nothing
 * allocated, unless smr=1.  -1 and err on a bad value or out of memory.
 */
extern int smr_init (struct smr *, const struct hdd_params *,
                     uint64_t sectors, struct media_cache *mc,
                     char *err, size_t errlen);
extern void smr_free (struct smr *);

/* The estimate's copy borrows the state and gives it back as it was
 * (as cache_lend, cache_return).
 */
extern void smr_lend (struct smr *scratch, const struct smr *s);
extern void smr_return (struct smr *scratch);

/* The band holding lba. */
extern uint64_t smr_band_of (const struct smr *, uint64_t lba);

/* A host write command of LBAs [lba, lba+n) arrives: which of its
 * sectors go home (band by band).  Returns those sectors.
 */
extern uint64_t smr_classify (struct smr *, uint64_t lba, uint64_t n);

/* The first run of a media write of [lba, lba+n) that goes one way:
 * its length, and *home whether it goes home (else to the log).
 */
extern uint64_t smr_run (const struct smr *, uint64_t lba, uint64_t n,
                         bool *home);

/* [lba, lba+n) reached home. */
extern void smr_written_home (struct smr *, uint64_t lba, uint64_t n);

/* The media cache's cleaner for a band (mc_clean_fn). */
extern uint64_t smr_clean_band (const struct media_cache *,
                                const struct mc_job *,
                                const struct mc_mover *, uint64_t t,
                                struct hdd_cost *c);

#endif /* HDDSIM_SMR_H */
