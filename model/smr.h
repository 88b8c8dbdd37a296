/* hddsim: drive-managed shingled recording (DM-SMR): shingled bands,
 * the persistent cache that stages writes in log order, and cleaning
 * (smr.c; docs/smr.md gives every rule its source).
 *
 * The drive's LBAs lie in shingled bands (sizes from smr-band-outer=
 * at LBA 0 to smr-band-inner= at the last LBA).  A band can only be
 * written from its start to its end; a write that does not begin or
 * continue such a run (a "whole-band sequential" write, commands of at
 * least smr-seq-min= bytes) is staged instead: appended at the write
 * frontier of the persistent cache, a reserved region of
 * smr-pc-size= bytes at smr-pc-at= percent of the LBA space, whose
 * map holds at most smr-map-extents= extents.  Cleaning takes the band
 * staged first (FIFO), reads it, reads its staged fragments from the
 * cache, and rewrites it whole; it starts after smr-idle= of idleness,
 * and is forced, the host waiting, when the cache or its map is full.
 *
 * Where the rules run: hdd.c calls smr_classify when a host write
 * arrives (its destination is decided by the command, not by how the
 * write cache later merges it), smr_write for every media write (a
 * write-through command's, a destage piece's), smr_read for a read
 * that overlaps staged data, and smr_idle for the background work.
 * Every function takes the arm and a time and returns the end time, as
 * mech.c's do.
 */
#ifndef HDDSIM_SMR_H
#define HDDSIM_SMR_H

#include <stdbool.h>
#include <stdint.h>

#include "extents.h"
#include "mech.h"

struct hdd_params;

/* A band's part of the cache: its entries in the log (one per staged
 * write piece) and the sectors they fill, and whether it waits in the
 * FIFO of bands to clean.
 */
struct smr_band {
  uint32_t entries;
  uint32_t logged;
  uint8_t queued;
};

struct smr_undo {
  uint32_t b;
  struct smr_band old;
};

struct smr {
  bool on;
  uint64_t nbands;
  uint64_t *band_start;         /* nbands + 1 LBAs; the last the end */
  uint64_t seq_min;             /* sectors */
  uint64_t pc_lba, pc_sectors;  /* the persistent cache region */
  uint64_t map_max;             /* entries its map holds */
  uint64_t idle_ns;
  /* What the cache holds: the LBAs staged (ranges, merged), each
     band's entries, the totals, and the bands that have entries in
     the order they were first staged (a ring, twice nbands long). */
  struct extents *staged;
  struct smr_band *band;
  uint64_t entries, logged;
  uint32_t *fifo;
  uint64_t fifo_head, fifo_len;
  /* Host writes classified in place whose data is still in the write
     cache: their destage goes to the band, not to the cache. */
  struct extents *inplace;
  uint64_t log_head;            /* the write frontier, sectors into the
                                   region */
  uint64_t stream_next;         /* the LBA a whole-band sequential run
                                   continues at (UINT64_MAX: none) */
  uint64_t last_host;           /* end of the last host request */
  /* Counters (the cost of cleaning, for the trace and the tools). */
  uint64_t bands_cleaned;
  uint64_t clean_ns;
  /* An estimate's copy (smr_lend) keeps each band's state as it was
     the first time it changes it (touched[b] == gen; touched[nbands]
     counts the estimates). */
  bool txn;
  uint32_t gen;
  uint32_t *touched;
  struct smr_undo *undo;
  uint64_t nundo;
  bool owns;
};

/* Build from the parameters for a drive of 'sectors' LBAs; off (and
 * nothing allocated) unless smr=1.  -1 and err on a bad value or out
 * of memory.
 */
extern int smr_init (struct smr *, const struct hdd_params *,
                     uint64_t sectors, char *err, size_t errlen);
extern void smr_free (struct smr *);

/* The estimate's copy borrows the state and gives it back as it was
 * (as cache_lend, cache_return).
 */
extern void smr_lend (struct smr *scratch, const struct smr *s);
extern void smr_return (struct smr *scratch);

/* The band holding lba. */
extern uint64_t smr_band_of (const struct smr *, uint64_t lba);

/* A host write of LBAs [lba, lba+n) arrives: which of its sectors go
 * to their bands (a whole-band sequential run of large commands) is
 * decided now, by the command, and kept until they reach the media
 * (through the write cache, merged with others or not).  Returns the
 * sectors in place.
 */
extern uint64_t smr_classify (struct smr *, uint64_t lba, uint64_t n);

/* The media write of [lba, lba+n) from t with the arm at *a: what the
 * host's commands made in place to the bands, the rest staged
 * (cleaning first while the cache or its map is full; the host's wait
 * for it goes to c->busy_ns).  Returns the end; *head_lba is where the
 * head is then.
 */
extern uint64_t smr_write (struct smr *, const struct mech *, struct arm *a,
                           uint64_t t, uint64_t lba, uint64_t n,
                           struct hdd_cost *c, uint64_t *head_lba);

/* Some of [lba, lba+n) is staged. */
extern bool smr_read_staged (const struct smr *, uint64_t lba, uint64_t n);

/* A read of [lba, lba+n) from t: its staged fragments from the cache
 * region, the rest from the bands, in LBA order.
 */
extern uint64_t smr_read (const struct smr *, const struct mech *,
                          struct arm *a, uint64_t t, uint64_t lba,
                          uint64_t n, struct hdd_cost *c,
                          uint64_t *head_lba);

/* Idle cleaning from 'from' (the arm free, the idle delay over) while
 * before t, band by band; a band begun is finished.  Returns when the
 * arm is free again.
 */
extern uint64_t smr_idle (struct smr *, const struct mech *, struct arm *a,
                          uint64_t from, uint64_t t, uint64_t *head_lba);

/* When idle cleaning may start: the idle delay after the last host
 * request (UINT64_MAX if nothing is staged).
 */
extern uint64_t smr_idle_from (const struct smr *);

/* The cache's log in use, and its map's entries. */
static inline uint64_t
smr_logged_sectors (const struct smr *s)
{
  return s->on ? s->logged : 0;
}

static inline uint64_t
smr_map_used (const struct smr *s)
{
  return s->on ? s->entries : 0;
}

#endif /* HDDSIM_SMR_H */
