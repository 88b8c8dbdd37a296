/* hddsim: satf, shortest access time first (NCQ-style rotational
 * position ordering).
 *
 * The one-level policy: satf is the drive's firmware doing all the
 * ordering, with no host elevator above it and no drive queue below it
 * (the engine runs it with ncq-depth taken as 1), kept to compare the
 * two-level policies with.
 *
 * Among the requests the engine lets it see (at most qdepth, the
 * oldest ones: the rest wait in arrival order), the drive serves the
 * one with the shortest modeled positioning time if started now: seek
 * plus the wait for its first sector, as the model estimates them.
 * Ties go to the older request.
 *
 * The age limit: a request that has waited satf-max-wait is served
 * before anything else (the oldest first), so nothing waits longer than
 * max-wait plus the service in progress when it came of age, as long
 * as the requests that come of age do not pile up faster than the drive
 * serves them.
 */

#include <stddef.h>
#include <stdlib.h>

#include "drive_queue.h"
#include "policy.h"

#define MS UINT64_C(1000000)
#define HOUR (UINT64_C(3600) * 1000 * MS)

struct satf_tunables {
  uint64_t max_wait;            /* ns */
};

static const struct param_desc satf_params[] = {
  { .key = "satf-max-wait", .type = PARAM_DURATION,
    .offset = offsetof (struct satf_tunables, max_wait),
    .min = 1, .max = HOUR, .def = 500 * MS,
    .help = "age after which a request is served first" },
  { .key = NULL },
};

struct satf_data {
  struct req_list arrivals;     /* oldest first */
  struct satf_tunables tun;
};

static void *
satf_create (const struct sched_params *params)
{
  struct satf_data *sd = calloc (1, sizeof *sd);

  if (!sd)
    return NULL;
  TAILQ_INIT (&sd->arrivals);
  sched_params_apply (params, satf_params, &sd->tun);
  return sd;
}

static void
satf_destroy (void *data)
{
  free (data);
}

static void
satf_add (void *data, struct req *r, uint64_t now)
{
  struct satf_data *sd = data;
  (void) now;
  r->deadline = r->arrival + sd->tun.max_wait;
  TAILQ_INSERT_TAIL (&sd->arrivals, r, fifo_link);
}

static void
satf_remove (void *data, struct req *r)
{
  struct satf_data *sd = data;
  TAILQ_REMOVE (&sd->arrivals, r, fifo_link);
}

static struct req *
shortest (struct satf_data *sd, const struct hdd *hdd, uint64_t now)
{
  struct req *r, *best = NULL;
  uint64_t best_t = UINT64_MAX;

  /* One request is the shortest whatever its estimate (a finite sum
     of nanoseconds, below best_t's start): in an open-loop replay most
     picks see one.  An estimate has no effect on the drive. */
  r = TAILQ_FIRST (&sd->arrivals);
  if (r && !TAILQ_NEXT (r, fifo_link))
    return r;
  hdd_estimate_begin (hdd, now);        /* the drive is the same for each */
  TAILQ_FOREACH (r, &sd->arrivals, fifo_link) {
    uint64_t t = drive_positioning (hdd, &r->io, now);
    if (t < best_t) {           /* strict: ties keep the older */
      best = r;
      best_t = t;
      /* Nothing later can beat no positioning at all (a hit, a write
         into the write cache): the rest need no estimate. */
      if (t == 0)
        break;
    }
  }
  hdd_estimate_end (hdd);
  return best;
}

static struct req *
satf_pick (void *data, const struct hdd *hdd, uint64_t now,
           uint64_t *wake)
{
  struct satf_data *sd = data;
  struct req *r;

  (void) wake;
  r = TAILQ_FIRST (&sd->arrivals);
  if (r && r->deadline > now)
    r = shortest (sd, hdd, now);
  if (r)
    satf_remove (sd, r);
  return r;
}

const struct policy_ops satf_policy = {
  .name = "satf",
  .description = "shortest modeled positioning time first, with an age limit",
  .params = satf_params,
  .firmware = true,
  .create = satf_create,
  .destroy = satf_destroy,
  .add = satf_add,
  .pick = satf_pick,
  .remove = satf_remove,
};
