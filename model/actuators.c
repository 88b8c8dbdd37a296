/* hddsim: a dual-actuator drive (actuators=2; see actuators.h).
 *
 * Seagate's Exos 2X drives carry two arms on one spindle, each with
 * its own heads, half the surfaces each; over SATA, which has no
 * logical units, "the first 50% of the logical block addresses
 * correspond to one actuator and the second 50% to the other" (Seagate,
 * Exos 2X Mach.2 FAQ; the ranges a host reads from ATA's Concurrent
 * Positioning Ranges log, page 47h).  One command queue serves both
 * (NCQ): the engine keeps a command on each arm at once and the
 * firmware's rule picks, for the arm that is free, among the commands
 * for it (sched/drive_queue.c).
 *
 * Each arm is a drive of its own here (struct hdd): half the capacity
 * and half the surfaces, so the same cylinders and the same seek
 * curve; its own arm position, its own share of the cache (half of
 * cache-size=) and its own destage; the one spindle's phase (the same
 * seed).  The whole drive's placement (placement=) maps the image to
 * LBAs; an arm's LBAs are its drive's image, from 0.
 *
 * What it leaves out: a request is served by the arm of its first
 * sector, its length taken as contiguous there (one that crosses the
 * middle LBA, or a placement=spread chunk, is served as if its sectors
 * followed on that arm); a flush runs on both arms at once and ends
 * with the later.
 */

#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "actuators.h"

#define NARMS 2

struct arm_ctx {
  struct actuators *a;
  unsigned k;
};

struct actuators {
  const struct image_map *pl;   /* the whole drive's placement */
  uint64_t half;                /* LBAs of arm 0; arm 1 has the rest */
  struct hdd *arm[NARMS];
  uint64_t busy_until[NARMS];   /* the end of each arm's last command */
  unsigned last;                /* the arm that served last */
  hdd_media_fn fn;
  void *opaque;
  struct arm_ctx ctx[NARMS];
  hdd_clean_fn clean_fn;
  void *clean_opaque;
};

static int
check (const struct hdd_params *p, char *err, size_t errlen)
{
  const char *why = NULL;

  if (p->kind != KIND_MECH)
    why = "needs a drive with platters (not service= or profile=fixed)";
  else if (p->surfaces < 2 || p->surfaces % 2)
    why = "needs an even number of surfaces (each arm has half)";
  else if (p->nzt > 0)
    why = "does not take a zone-table=";
  else if (p->controller != CTLR_HDDSIM)
    why = "needs controller=hddsim";
  if (why)
    snprintf (err, errlen, "actuators=2: %s", why);
  return why ? -1 : 0;
}

/* Arm k's own drive: its half of the LBAs, surfaces and cache. */
static struct hdd *
arm_new (const struct hdd_params *p, uint64_t sectors, uint64_t seed,
         char *err, size_t errlen)
{
  struct hdd_params q = *p;

  q.actuators = 1;
  q.capacity = sectors * SECTOR;
  q.surfaces = p->surfaces / 2;
  q.cache_size = p->cache_size / 2;
  /* Each arm stages its own writes (its own heads write its log): half
     the media cache, its map half the entries, at the same place in
     its half of the LBAs as media-cache-at= is in the whole drive, so
     it is within the arm's own surfaces. */
  q.mc_size = p->mc_size / 2 / SECTOR * SECTOR;
  q.mc_at = p->mc_at / 2 / SECTOR * SECTOR;
  if (p->mc_size)
    q.mc_entries = p->mc_entries / 2 ? p->mc_entries / 2 : 1;
  q.placement = PLACE_START;
  return hdd_new (&q, q.capacity, seed, err, errlen);
}

struct actuators *
actuators_new (const struct hdd_params *p, const struct image_map *pl,
               uint64_t seed, char *err, size_t errlen)
{
  uint64_t sectors = p->capacity / SECTOR;
  struct actuators *a;
  unsigned k;

  if (check (p, err, errlen) == -1)
    return NULL;
  a = calloc (1, sizeof *a);
  if (!a) {
    snprintf (err, errlen, "out of memory");
    return NULL;
  }
  a->pl = pl;
  a->half = sectors / 2;
  for (k = 0; k < NARMS; k++) {
    a->ctx[k] = (struct arm_ctx) { a, k };
    a->arm[k] = arm_new (p, k ? sectors - a->half : a->half, seed,
                         err, errlen);
    if (!a->arm[k]) {
      actuators_free (a);
      return NULL;
    }
  }
  return a;
}

void
actuators_free (struct actuators *a)
{
  unsigned k;

  if (!a)
    return;
  for (k = 0; k < NARMS; k++)
    hdd_free (a->arm[k]);
  free (a);
}

/* The drive LBA of the image byte offset. */
static uint64_t
lba_of (const struct actuators *a, uint64_t offset)
{
  return place_image_to_lba (a->pl, offset / SECTOR);
}

unsigned
actuators_of (const struct actuators *a, const struct io *r)
{
  if (r->op == IO_FLUSH)
    return 0;
  return lba_of (a, r->offset) >= a->half;
}

/* r as arm k sees it: the same request at its own LBAs. */
static struct io
arm_io (const struct actuators *a, const struct io *r, unsigned k)
{
  struct io s = *r;

  if (r->op != IO_FLUSH)
    s.offset = (lba_of (a, r->offset) - (k ? a->half : 0)) * SECTOR
               + r->offset % SECTOR;
  return s;
}

typedef uint64_t serve_fn (struct hdd *, const struct io *, uint64_t,
                           struct hdd_cost *);

/* A flush empties both arms' caches, each on its own arm at once: it
 * ends with the later, whose cost it reports.
 */
static uint64_t
both (struct actuators *a, serve_fn *fn, const struct io *r, uint64_t t,
      struct hdd_cost *out)
{
  struct hdd_cost c[NARMS];
  uint64_t n[NARMS];
  unsigned k, w = 0;

  for (k = 0; k < NARMS; k++) {
    n[k] = fn (a->arm[k], r, t, &c[k]);
    if (n[k] > n[w])
      w = k;
  }
  if (out)
    *out = c[w];
  return n[w];
}

static uint64_t
serve_scratch (struct hdd *d, const struct io *r, uint64_t t,
               struct hdd_cost *out)
{
  return hdd_estimate (d, r, t, out);
}

uint64_t
actuators_serve (struct actuators *a, const struct io *r, uint64_t t,
                 struct hdd_cost *out)
{
  unsigned k = actuators_of (a, r);
  struct io s = arm_io (a, r, k);
  uint64_t n;

  if (r->op == IO_FLUSH) {
    n = both (a, hdd_serve, r, t, out);
    a->busy_until[0] = a->busy_until[1] = t + n;
    return n;
  }
  n = hdd_serve (a->arm[k], &s, t, out);
  a->busy_until[k] = t + n;
  a->last = k;
  return n;
}

uint64_t
actuators_estimate (const struct actuators *a, const struct io *r,
                    uint64_t t, struct hdd_cost *out)
{
  unsigned k = actuators_of (a, r);
  struct io s = arm_io (a, r, k);

  if (r->op == IO_FLUSH)
    return both ((struct actuators *) a, serve_scratch, r, t, out);
  return hdd_estimate (a->arm[k], &s, t, out);
}

bool
actuators_no_positioning (const struct actuators *a, const struct io *r)
{
  unsigned k = actuators_of (a, r);
  struct io s = arm_io (a, r, k);

  return hdd_no_positioning (a->arm[k], &s);
}

/* Background work on each arm that has no command on it: an arm still
 * serving has already been run to the end of its command.
 */
void
actuators_idle (struct actuators *a, uint64_t t)
{
  unsigned k;

  for (k = 0; k < NARMS; k++)
    if (a->busy_until[k] <= t)
      hdd_idle (a->arm[k], t);
}

uint64_t
actuators_head_offset (const struct actuators *a)
{
  unsigned k = a->last;
  uint64_t lba = hdd_head_offset (a->arm[k]) / SECTOR + (k ? a->half : 0);

  return place_lba_to_image (a->pl, lba) * SECTOR;
}

uint64_t
actuators_dirty_bytes (const struct actuators *a)
{
  return hdd_dirty_bytes (a->arm[0]) + hdd_dirty_bytes (a->arm[1]);
}

uint64_t
actuators_write_cache_bytes (const struct actuators *a)
{
  return hdd_write_cache_bytes (a->arm[0])
         + hdd_write_cache_bytes (a->arm[1]);
}

/* An arm's media write, at the image offsets the caller knows. */
static void
media_from_arm (void *opaque, const struct hdd_media_write *ev)
{
  const struct arm_ctx *x = opaque;
  const struct actuators *a = x->a;
  struct hdd_media_write w = *ev;
  uint64_t lba = ev->offset / SECTOR + (x->k ? a->half : 0);

  w.offset = place_lba_to_image (a->pl, lba) * SECTOR;
  a->fn (a->opaque, &w);
}

void
actuators_set_media_observer (struct actuators *a, hdd_media_fn fn,
                              void *opaque)
{
  unsigned k;

  a->fn = fn;
  a->opaque = opaque;
  for (k = 0; k < NARMS; k++)
    hdd_set_media_observer (a->arm[k], fn ? media_from_arm : NULL,
                            fn ? &a->ctx[k] : NULL);
}

/* An arm's clean step, its region at the image's offsets. */
static void
clean_from_arm (void *opaque, const struct hdd_clean *ev)
{
  const struct arm_ctx *x = opaque;
  struct actuators *a = x->a;
  struct hdd_clean c = *ev;
  uint64_t lba = ev->offset / SECTOR + (x->k ? a->half : 0);
  uint64_t end = lba + ev->length / SECTOR;

  c.offset = place_lba_to_image (a->pl, lba) * SECTOR;
  c.length = place_lba_to_image (a->pl, end) * SECTOR - c.offset;
  a->clean_fn (a->clean_opaque, &c);
}

void
actuators_set_clean_observer (struct actuators *a, hdd_clean_fn fn,
                              void *opaque)
{
  unsigned k;

  a->clean_fn = fn;
  a->clean_opaque = opaque;
  for (k = 0; k < NARMS; k++)
    hdd_set_clean_observer (a->arm[k], fn ? clean_from_arm : NULL,
                            fn ? &a->ctx[k] : NULL);
}

uint64_t
actuators_media_written (const struct actuators *a,
                         const struct hdd_media_write *ev, uint64_t t)
{
  uint64_t lba = lba_of (a, ev->offset);
  unsigned k = lba >= a->half;
  struct hdd_media_write w = *ev;

  w.offset = (lba - (k ? a->half : 0)) * SECTOR;
  return hdd_media_written (a->arm[k], &w, t);
}
