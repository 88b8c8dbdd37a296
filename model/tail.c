/* hddsim: the drive's tail (see tail.h and docs/model.md "The tail").
 *
 * Read retries.  A sector the read channel cannot decode on the fly is
 * read again on the next revolution, as often as the firmware's
 * recovery allows: each retry is one whole revolution (the sector
 * passes under the head once per turn).  Each retry succeeds with a
 * fixed probability, so the retries of one error are geometric.  Three
 * kinds of error share this:
 *   - a soft error, in any media read with probability retry-rate=;
 *   - a weak sector (bad-sectors= "weak", lse-weak=), every read of it,
 *     each retry succeeding with probability weak-success=;
 *   - a bad sector, every read of it, no retry succeeding.
 * The recovery of one command stops at the limit: erc= (SCT Error
 * Recovery Control's read timer, ATA8-ACS), or with erc=off the
 * drive's own recovery-limit= (a profile value, rarely published for
 * desktop drives, so marked an estimate there); the read then fails,
 * having cost exactly the limit.
 *
 * The drive's own work.  Every recal-interval= the drive recalibrates
 * for recal-time=, and after idle-work-after= of quiet it works in
 * steps of idle-work-step= (self-calibration, an offline scan); a
 * request that needs the arm waits for the recalibration, or the step,
 * under way.  (Fujitsu's MPG3153AH manual, C141-E112-01EN, section 4.5:
 * self-calibration about every 30 minutes and after 15 s without a
 * command, a command waiting at most about 100 ms for it.)
 *
 * A write over a bad sector moves it to a spare (SMART's reallocated
 * sectors): later accesses to it pay the trip there (hdd.c).  A weak
 * sector rewritten reads well again.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rotation.h"
#include "tail.h"
#include "../common/u64.h"

#define MILLION UINT64_C(1000000)
#define TB UINT64_C(1000000000000)
#define SECTOR_BYTES 512
/* The most bursts lse-rate= may draw: each is a few ranges to keep. */
#define BURSTS_MAX UINT64_C(1000000)

/* Salts keep the draws of one purpose apart from another's. */
enum { SALT_RECAL = 1, SALT_SOFT, SALT_SOFT_RETRY, SALT_WEAK, SALT_LSE };

/* A draw in [0, MILLION) from seed= and (salt, a, b). */
static uint64_t
draw (uint64_t seed, uint64_t salt, uint64_t a, uint64_t b)
{
  return splitmix64 (seed ^ splitmix64 (salt ^ splitmix64 (a
                                         ^ splitmix64 (b)))) % MILLION;
}

bool
tail_active (const struct tail *tl)
{
  return tl->work || tl->p.retry_rate > 0 || tl->bad.n > 0
    || tl->realloc.n > 0;
}

static int
check (const struct tail_params *p, char *err, size_t errlen)
{
  if (p->retry_rate > 0 && p->retry_success == 0) {
    snprintf (err, errlen, "retry-rate=%" PRIu64 " with retry-success=0: "
              "a retry must be able to succeed", p->retry_rate);
    return -1;
  }
  if ((p->recal_interval > 0) != (p->recal_time > 0)
      || (p->recal_interval > 0 && p->recal_time >= p->recal_interval)) {
    snprintf (err, errlen, "recal-interval=, recal-time=: both 0, or "
              "recal-time shorter than recal-interval");
    return -1;
  }
  if ((p->idle_after > 0) != (p->idle_step > 0)) {
    snprintf (err, errlen, "idle-work-after=, idle-work-step=: both 0 or "
              "both set");
    return -1;
  }
  if ((p->bad_file[0] || p->lse_rate > 0) && p->erc == 0
      && p->recovery_limit == 0) {
    snprintf (err, errlen, "bad-sectors= or lse-rate= need a recovery "
              "limit: erc= or the profile's recovery-limit=");
    return -1;
  }
  return 0;
}

/* lse-rate=: bursts of consecutive bad sectors at places drawn from
 * seed=.  Latent sector errors cluster in space: most come with
 * neighbours a few sectors away (Bairavasundaram et al., "An Analysis
 * of Latent Sector Errors in Disk Drives", SIGMETRICS 2007, section 5;
 * Schroeder, Damouras and Gill, "Understanding Latent Sector Errors and
 * How to Protect Against Them", FAST 2010, section 4): a burst's
 * length here is geometric with mean lse-burst=.
 */
static int
draw_bursts (struct tail *tl, uint64_t image_sectors, char *err,
             size_t errlen)
{
  const struct tail_params *p = &tl->p;
  unsigned __int128 x = (unsigned __int128) p->lse_rate * image_sectors
    * SECTOR_BYTES;
  uint64_t bursts = (uint64_t) (x / TB), i;
  uint64_t stop = p->lse_burst > 1 ? MILLION / p->lse_burst : MILLION;

  /* The fraction of a burst left over is one with that probability. */
  if (draw (tl->seed, SALT_LSE, UINT64_MAX, 0)
      < (uint64_t) (x % TB / (TB / MILLION)))
    bursts++;
  if (bursts > BURSTS_MAX) {
    snprintf (err, errlen, "lse-rate=%" PRIu64 ": %" PRIu64 " bursts on "
              "this image, more than %" PRIu64, p->lse_rate, bursts,
              BURSTS_MAX);
    return -1;
  }
  for (i = 0; i < bursts && image_sectors > 0; i++) {
    uint64_t at = splitmix64 (tl->seed ^ splitmix64 (SALT_LSE + i))
      % image_sectors, n = 1, s;

    while (n < image_sectors - at && draw (tl->seed, SALT_LSE, i, n) >= stop)
      n++;
    for (s = at; s < at + n; s++)
      if (badmap_add (&tl->bad, s, 1,
                      draw (tl->seed, SALT_WEAK, s, 0) < p->lse_weak) == -1) {
        snprintf (err, errlen, "lse-rate=: out of memory");
        return -1;
      }
  }
  return 0;
}

int
tail_init (struct tail *tl, const struct hdd_params *hp,
           uint64_t image_sectors, uint64_t seed, char *err, size_t errlen)
{
  memset (tl, 0, sizeof *tl);
  if (hp->controller == CTLR_DISKSIM || hp->kind != KIND_MECH)
    return 0;
  tl->p = hp->tail;
  /* legacy=true: the drive before issue 25, without the tail's rates;
     the failing sectors asked for (issue 27) stay. */
  if (hp->legacy) {
    tl->p.retry_rate = 0;
    tl->p.recal_interval = tl->p.recal_time = 0;
    tl->p.idle_after = tl->p.idle_step = 0;
  }
  if (check (&tl->p, err, errlen) == -1)
    return -1;
  tl->seed = seed;
  tl->rev_ns = rot_rev_ns (hp->rpm);
  tl->limit_ns = tl->p.erc ? tl->p.erc : tl->p.recovery_limit;
  tl->work = tl->p.recal_interval > 0 || tl->p.idle_after > 0;
  if (tl->p.recal_interval)
    tl->recal_phase = splitmix64 (seed ^ SALT_RECAL) % tl->p.recal_interval;
  if (tl->p.bad_file[0]
      && badmap_load (&tl->bad, tl->p.bad_file, err, errlen) == -1)
    return -1;
  if (tl->p.lse_rate > 0
      && draw_bursts (tl, image_sectors, err, errlen) == -1)
    return -1;
  return 0;
}

void
tail_free (struct tail *tl)
{
  badmap_free (&tl->bad);
  badmap_free (&tl->realloc);
  badmap_free (&tl->pending);
}

/* ---- the drive's own work ---- */

/* The end of the recalibration under way at t, or t. */
static uint64_t
recal_end (const struct tail *tl, uint64_t t)
{
  uint64_t into;

  if (tl->p.recal_interval == 0 || t < tl->recal_phase)
    return t;
  into = (t - tl->recal_phase) % tl->p.recal_interval;
  return into < tl->p.recal_time ? t - into + tl->p.recal_time : t;
}

/* The end of the step of idle work under way at t, or t: the work
 * begins idle-work-after= after the drive was last busy, in steps.
 */
static uint64_t
idle_step_end (const struct tail *tl, uint64_t t, uint64_t last_busy)
{
  uint64_t s0, into;

  if (tl->p.idle_after == 0 || last_busy > UINT64_MAX - tl->p.idle_after)
    return t;
  s0 = last_busy + tl->p.idle_after;
  if (t <= s0)
    return t;
  into = (t - s0) % tl->p.idle_step;
  return into ? t - into + tl->p.idle_step : t;
}

uint64_t
tail_arm_free (const struct tail *tl, uint64_t t, uint64_t last_busy)
{
  if (!tl->work)
    return t;
  return recal_end (tl, idle_step_end (tl, t, last_busy));
}

/* ---- retries ---- */

/* Retry revolutions until one succeeds (each with probability
 * success, per million), within what is left of the limit: true and
 * *k, or false (the limit reached).  key tells this error's draws from
 * the others'.
 */
static bool
retry (const struct tail *tl, uint64_t success, uint64_t salt, uint64_t key,
       uint64_t left, uint64_t *k)
{
  uint64_t max = tl->limit_ns ? left / tl->rev_ns : UINT64_MAX;

  for (*k = 1; *k <= max && success > 0; ++*k)
    if (draw (tl->seed, salt, key, *k) < success)
      return true;
  return false;
}

/* The read fails at image sector s: the limit is spent, and s is now
 * pending (SMART's current pending sectors).
 */
static void
fail_at (struct tail *tl, uint64_t s, struct tail_result *r)
{
  r->ns = tl->limit_ns;
  r->failed = true;
  if (badmap_count (&tl->pending, s, 1) == 0
      && badmap_add (&tl->pending, s, 1, false) == 0)
    r->pending++;
}

/* One error's retries, charged to r; false if the read fails. */
static bool
recover (struct tail *tl, uint64_t s, uint64_t success, uint64_t salt,
         uint64_t key, struct tail_result *r)
{
  uint64_t left = tl->limit_ns > r->ns ? tl->limit_ns - r->ns : 0, k;

  if (!retry (tl, success, salt, key, left, &k)) {
    fail_at (tl, s, r);
    return false;
  }
  r->ns += k * tl->rev_ns;
  r->retries += (uint32_t) k;
  return true;
}

void
tail_read (struct tail *tl, uint64_t first, uint64_t n,
           struct tail_result *r)
{
  uint64_t end = first + n, read = tl->reads++;
  const struct bad_range *b;

  *r = (struct tail_result) { 0 };
  /* The failing sectors the read passes, in order. */
  for (b = badmap_find (&tl->bad, first, n);
       b && b < tl->bad.r + tl->bad.n && b->first < end; b++) {
    uint64_t s = b->first > first ? b->first : first;
    uint64_t e = b->first + b->n < end ? b->first + b->n : end;

    if (!b->weak) {
      fail_at (tl, s, r);
      return;
    }
    for (; s < e; s++)
      if (!recover (tl, s, tl->p.weak_success, SALT_WEAK, s ^ (read << 20),
                    r))
        return;
  }
  if (tl->p.retry_rate > 0
      && draw (tl->seed, SALT_SOFT, read, 0) < tl->p.retry_rate)
    recover (tl, first, tl->p.retry_success, SALT_SOFT_RETRY, read, r);
}

int
tail_mark_bad (struct tail *tl, uint64_t first, uint64_t n)
{
  if (badmap_remove (&tl->realloc, first, n) == -1
      || badmap_add (&tl->bad, first, n, false) == -1)
    return -1;
  return 0;
}

void
tail_write (struct tail *tl, uint64_t first, uint64_t n,
            struct tail_result *r)
{
  const struct bad_range *b;
  uint64_t end = first + n;

  *r = (struct tail_result) { 0 };
  r->pending = -(int32_t) badmap_count (&tl->pending, first, n);
  badmap_remove (&tl->pending, first, n);
  while ((b = badmap_find (&tl->bad, first, n))) {
    uint64_t s = b->first > first ? b->first : first;
    uint64_t e = b->first + b->n < end ? b->first + b->n : end;
    bool weak = b->weak;

    /* Out of memory (a range split): leave the rest as it is. */
    if (badmap_remove (&tl->bad, s, e - s) == -1)
      break;
    if (!weak && badmap_add (&tl->realloc, s, e - s, false) == 0)
      r->reallocated += (uint32_t) (e - s);
  }
}

bool
tail_remapped (const struct tail *tl, uint64_t first, uint64_t n)
{
  return badmap_find (&tl->realloc, first, n) != NULL;
}

bool
tail_unreadable (const struct tail *tl, uint64_t first, uint64_t n)
{
  return tl->bad.n > 0 && badmap_find (&tl->bad, first, n) != NULL;
}
