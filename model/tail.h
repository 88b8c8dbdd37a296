/* hddsim: the drive's tail: read retries, recalibration, idle work,
 * and the sectors that fail (tail.c).  One retry model: a soft read
 * error, a weak sector and a bad sector all cost whole revolutions of
 * retries, within the recovery limit (erc=, or the drive's own
 * recovery-limit=); past it the read fails.
 *
 * Everything here follows seed= and the requests served: the same
 * requests at the same times draw the same retries.  The estimate's
 * copy of the drive (hdd_estimate) never calls it: a drive cannot
 * foresee a retry, so its own scheduling does not either.
 */
#ifndef HDDSIM_TAIL_H
#define HDDSIM_TAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "badmap.h"
#include "params.h"

struct tail {
  struct tail_params p;
  bool work;                    /* recalibration or idle work */
  uint64_t seed;
  uint64_t rev_ns;              /* one revolution */
  uint64_t limit_ns;            /* the recovery limit */
  uint64_t recal_phase;         /* the first recalibration begins */
  uint64_t reads;               /* media reads so far (their draws) */
  uint64_t last_end;            /* the last request served ended */
  struct badmap bad;            /* bad and weak sectors, in place */
  struct badmap realloc;        /* sectors moved to spares */
  struct badmap pending;        /* bad sectors a read has failed on */
};

/* What the tail did to one media read or write. */
struct tail_result {
  uint64_t ns;                  /* recovery: retry revolutions, or the
                                   limit when the read failed */
  uint32_t retries;             /* revolutions retried */
  bool failed;                  /* the read could not be recovered */
  uint32_t reallocated;         /* sectors moved to a spare (a write) */
  int32_t pending;              /* change in sectors pending */
};

/* Build it for a drive of rpm whose image has image_sectors; reads
 * bad-sectors= and draws lse-rate='s bursts.  -1 and err on a bad file
 * or inconsistent values.
 */
extern int tail_init (struct tail *, const struct hdd_params *,
                      uint64_t image_sectors, uint64_t seed,
                      char *err, size_t errlen);
extern void tail_free (struct tail *);

/* Whether any of it is on. */
extern bool tail_active (const struct tail *);

/* The arm is wanted at t, the drive having last been busy until
 * last_busy: when its own work (a recalibration, a step of idle work)
 * lets it go, t or later.
 */
extern uint64_t tail_arm_free (const struct tail *, uint64_t t,
                               uint64_t last_busy);

/* A media read of image sectors [first, first+n): its retries. */
extern void tail_read (struct tail *, uint64_t first, uint64_t n,
                       struct tail_result *);
/* [first, first+n) goes bad in place (fault=bad:): a later read of
 * it fails at the recovery limit, as a bad-sectors= sector does; one
 * reallocated before has gone bad anew where it is read.  -1 on no
 * memory.
 */
extern int tail_mark_bad (struct tail *, uint64_t first, uint64_t n);
/* A write of [first, first+n): bad sectors go to spares, weak ones are
 * rewritten. */
extern void tail_write (struct tail *, uint64_t first, uint64_t n,
                        struct tail_result *);
/* Whether [first, first+n) has a sector moved to a spare. */
extern bool tail_remapped (const struct tail *, uint64_t first, uint64_t n);
/* Whether [first, first+n) has a sector of the bad-sector map (bad or
 * weak, in place): one the drive's read-ahead, which does not retry,
 * never brought into its cache, so that a read of it is a media read.
 */
extern bool tail_unreadable (const struct tail *, uint64_t first,
                             uint64_t n);

#endif /* HDDSIM_TAIL_H */
