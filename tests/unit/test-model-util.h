/* hddsim: helpers shared by the model's unit tests (test-model*.c). */
#ifndef HDDSIM_TEST_MODEL_UTIL_H
#define HDDSIM_TEST_MODEL_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "../../model/hdd.h"
#include "../../model/inspect.h"
#include "../../model/params.h"
#include "../../profile/profile.h"
#include "test-units.h"

#define TM_FN static __attribute__ ((unused))

#define GIB (UINT64_C(1) << 30)

static uint64_t rng_state;

TM_FN uint64_t
rnd (void)
{
  /* xorshift64*: the test's own random numbers, not the model's. */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * UINT64_C(2685821657736338717);
}

TM_FN struct hdd_params *
params (const char *profile, const char *const *kv)
{
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];

  ck_assert_ptr_nonnull (p);
  ck_assert_msg (hdd_params_load_profile (p, profile, err, sizeof err) == 0,
                 "%s", err);
  for (; kv && kv[0]; kv += 2)
    ck_assert_msg (hdd_params_set (p, kv[0], kv[1], err, sizeof err) == 0,
                   "%s=%s: %s", kv[0], kv[1], err);
  ck_assert_msg (hdd_params_validate (p, err, sizeof err) == 0, "%s", err);
  return p;
}

TM_FN struct hdd *
drive (const char *profile, const char *const *kv, uint64_t image,
       uint64_t seed)
{
  struct hdd_params *p = params (profile, kv);
  char err[HDD_ERRLEN];
  struct hdd *d;

  if (image == 0)               /* the whole drive */
    image = p->kind == KIND_FIXED ? GIB : p->capacity;
  d = hdd_new (p, image, seed, err, sizeof err);

  ck_assert_msg (d != NULL, "%s", err);
  hdd_params_free (p);
  return d;
}

TM_FN double
param_ns (const struct hdd *d, const char *key)
{
  const struct hdd_params *p = hdd_params_of (d);
  if (strcmp (key, "seek-avg") == 0) return (double) p->seek_avg;
  if (strcmp (key, "seek-track") == 0) return (double) p->seek_track;
  if (strcmp (key, "seek-full") == 0) return (double) p->seek_full;
  if (strcmp (key, "overhead") == 0) return (double) p->overhead;
  abort ();
}

TM_FN double
rev_ns (const struct hdd *d)
{
  return 60e9 / (double) hdd_params_of (d)->rpm;
}

/* Serve one request at time t after the host was quiet since the last
 * completion: what the engine does at QD1.
 */
TM_FN uint64_t
serve_at (struct hdd *d, enum io_op op, uint64_t off, uint64_t len,
          uint64_t t, struct hdd_cost *c)
{
  struct io io = { .op = op, .offset = off, .length = len };

  hdd_idle (d, t);
  return hdd_serve (d, &io, t, c);
}

/* Sustained rate of zone z from the parameters: a cylinder holds
 * surfaces * spt sectors and takes surfaces revolutions plus the
 * head switches and the one-cylinder seek that the skews hide.
 */
TM_FN double
zone_rate (const struct hdd *d, unsigned z)
{
  const struct hdd_params *p = hdd_params_of (d);
  /* Zoned bit recording: sectors per track fall linearly from the
   * outermost zone to the innermost.
   */
  double nz = (double) p->zones;
  double spt = nz == 1 ? (double) p->spt_outer
    : (double) p->spt_outer
      - (double) (p->spt_outer - p->spt_inner) * z / (nz - 1);
  double h = (double) p->surfaces;
  double ts = (double) (p->track_skew ? p->track_skew : p->head_switch);
  double cs = (double) (p->cyl_skew ? p->cyl_skew
                        : p->seek_track + p->write_settle);

  if (p->layout == LAYOUT_SERPENTINE) {
    /* A surface crosses the zone's cylinders one by one: every track
     * ends in a one-cylinder seek (the head switch at the turn is
     * rare enough to ignore).
     */
    return spt * SECTOR / ((rev_ns (d) + cs) / 1e9);
  }
  return h * spt * SECTOR / ((h * rev_ns (d) + (h - 1) * ts + cs) / 1e9);
}

/* Read 'bytes' sequentially in 64K requests from image offset 'off',
 * with 'gap' of host time between a completion and the next request.
 */
TM_FN double
seq_rate (struct hdd *d, uint64_t off, uint64_t bytes, uint64_t gap)
{
  uint64_t t = 0, start = 0, done;

  for (done = 0; done < bytes; done += 65536) {
    struct hdd_cost c;
    uint64_t s = serve_at (d, IO_READ, off + done, 65536, t, &c);
    if (done == 0)
      start = t + s;            /* skip the first seek */
    t += s + gap;
  }
  return (double) (bytes - 65536) / ((double) (t - gap - start) / 1e9);
}

#endif /* HDDSIM_TEST_MODEL_UTIL_H */
