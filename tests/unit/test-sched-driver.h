/* hddsim: a virtual-clock driver for the policy tests.
 *
 * Included by every tests/unit/test-sched-*.c (each is its own Check
 * program).  It feeds scripted arrivals and closed- or open-loop
 * request streams into the engine, advances modeled time event by
 * event, and keeps every request so that a test can check start and
 * completion times against what the policy's rules say.
 */
#ifndef HDDSIM_TEST_SCHED_DRIVER_H
#define HDDSIM_TEST_SCHED_DRIVER_H

#include <check.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-units.h"

#include "../../model/hdd.h"
#include "../../profile/profile.h"
#include "../../sched/engine.h"
#include "../../sched/policy.h"
#include "../../sched/sched_params.h"

#define TNEVER UINT64_MAX

/* Not every test uses every helper. */
#define TDRV_FN static __attribute__ ((unused))

/* A stream of requests: closed loop (the next one arrives 'think'
 * after one completes, 'depth' outstanding) or open loop (one every
 * 'interval').  Offsets run sequentially from 'offset' by 'length', or
 * uniformly at random, aligned to 'length', in [lo, hi).
 */
struct tstream {
  uint32_t conn;
  enum io_op op;
  bool fua;
  uint64_t length;
  uint64_t offset;
  bool random;
  uint64_t lo, hi;
  uint64_t seed;
  uint64_t start;               /* first arrival */
  uint64_t stop;                /* nothing arrives at or after (0: never) */
  uint64_t think;
  uint64_t interval;            /* open loop when non-zero */
  unsigned depth;               /* closed loop; 0 means 1 */
  unsigned max;                 /* at most this many (0: no limit) */
  unsigned issued;
};

struct tarrival {
  uint64_t t;
  uint64_t seq;
  struct req *r;
};

#define TDRV_MAX_STREAMS 16

struct tdrv {
  const struct policy_ops *ops;
  struct sched_params sp;
  struct hdd_params *hp;
  struct hdd *hdd;
  struct engine *e;
  uint64_t image;               /* bytes given to hdd_new */
  uint64_t seed;

  struct req **reqs;            /* every request, in creation order */
  size_t nreqs, reqcap;
  struct req **order;           /* completed requests, in order */
  size_t ndone;

  struct tarrival *pending;     /* not yet submitted, sorted */
  size_t npending, pendcap;
  uint64_t seq;

  struct tstream streams[TDRV_MAX_STREAMS];
  size_t nstreams;
  uint64_t now;
};

TDRV_FN void *
tdrv_xrealloc (void *p, size_t n)
{
  p = realloc (p, n);
  ck_assert_ptr_nonnull (p);
  return p;
}

/* profile: NULL for the model's default, else a profile name;
 * service: for profile "fixed", the service time of every request.
 */
TDRV_FN struct tdrv *
tdrv_new (const char *sched, const char *profile, const char *service)
{
  struct tdrv *d = calloc (1, sizeof *d);
  char err[256];

  ck_assert_ptr_nonnull (d);
  d->ops = policy_find (sched);
  ck_assert_msg (d->ops != NULL, "no policy %s", sched);
  sched_params_init (&d->sp);
  d->hp = hdd_params_new ();
  ck_assert_ptr_nonnull (d->hp);
  if (profile)
    ck_assert_msg (hdd_params_load_profile (d->hp, profile, err, sizeof err)
                   == 0, "%s", err);
  if (service)
    ck_assert_msg (hdd_params_set (d->hp, "service", service, err, sizeof err)
                   == 0, "%s", err);
  d->image = 1 * GiB;
  d->seed = 1;
  return d;
}

/* A scheduler tunable or a model parameter; before the first request. */
TDRV_FN void
tdrv_set (struct tdrv *d, const char *key, const char *value)
{
  char err[256] = "";
  int r;

  ck_assert_ptr_null (d->e);
  r = sched_params_set (&d->sp, key, value, err, sizeof err);
  if (r == 1)
    r = hdd_params_set (d->hp, key, value, err, sizeof err);
  ck_assert_msg (r == 0, "%s=%s: %s", key, value, err);
}

static void tdrv_completed (struct req *r, void *opaque);

TDRV_FN struct engine *
tdrv_engine (struct tdrv *d)
{
  static const struct engine_hooks hooks = { .completed = tdrv_completed };
  char err[256] = "";

  if (!d->e) {
    d->hdd = hdd_new (d->hp, d->image, d->seed, err, sizeof err);
    ck_assert_msg (d->hdd != NULL, "hdd_new: %s", err);
    d->e = engine_new (d->hdd, d->ops, &d->sp, &hooks, d);
    ck_assert_ptr_nonnull (d->e);
  }
  return d->e;
}

TDRV_FN void
tdrv_free (struct tdrv *d)
{
  size_t i;

  engine_free (d->e);
  if (d->hdd)
    hdd_free (d->hdd);
  hdd_params_free (d->hp);
  for (i = 0; i < d->nreqs; i++)
    free (d->reqs[i]);
  free (d->reqs);
  free (d->order);
  free (d->pending);
  free (d);
}

TDRV_FN void
tdrv_push (struct tdrv *d, uint64_t t, struct req *r)
{
  size_t i;

  if (d->npending == d->pendcap) {
    d->pendcap = d->pendcap ? 2 * d->pendcap : 64;
    d->pending = tdrv_xrealloc (d->pending, d->pendcap * sizeof *d->pending);
  }
  /* Keep (t, seq) order; the list is short. */
  i = d->npending++;
  while (i > 0 && d->pending[i - 1].t > t) {
    d->pending[i] = d->pending[i - 1];
    i--;
  }
  d->pending[i] = (struct tarrival) { .t = t, .seq = d->seq++, .r = r };
}

TDRV_FN struct req *
tdrv_newreq (struct tdrv *d, uint32_t conn, enum io_op op,
             uint64_t offset, uint64_t length)
{
  struct req *r = calloc (1, sizeof *r);

  ck_assert_ptr_nonnull (r);
  if (d->nreqs == d->reqcap) {
    d->reqcap = d->reqcap ? 2 * d->reqcap : 256;
    d->reqs = tdrv_xrealloc (d->reqs, d->reqcap * sizeof *d->reqs);
    d->order = tdrv_xrealloc (d->order, d->reqcap * sizeof *d->order);
  }
  d->reqs[d->nreqs++] = r;
  r->id = d->nreqs;
  r->conn = conn;
  r->io.op = op;
  r->io.offset = op == IO_FLUSH ? 0 : offset;
  r->io.length = op == IO_FLUSH ? 0 : length;
  return r;
}

/* One scripted request arriving at t. */
TDRV_FN struct req *
tdrv_at (struct tdrv *d, uint64_t t, uint32_t conn, enum io_op op,
         uint64_t offset, uint64_t length)
{
  struct req *r = tdrv_newreq (d, conn, op, offset, length);

  tdrv_push (d, t, r);
  return r;
}

TDRV_FN uint64_t
tdrv_rand (uint64_t *s)
{
  /* splitmix64: deterministic, good enough for offsets */
  uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* The stream's next request arriving at t, if it may still issue. */
TDRV_FN void
tstream_issue (struct tdrv *d, struct tstream *s, uint64_t t)
{
  struct req *r;
  uint64_t off;

  if ((s->stop && t >= s->stop) || (s->max && s->issued >= s->max))
    return;
  if (s->random) {
    uint64_t slots = (s->hi - s->lo) / s->length;
    off = s->lo + tdrv_rand (&s->seed) % slots * s->length;
  }
  else {
    off = s->offset;
    s->offset += s->length;
  }
  r = tdrv_newreq (d, s->conn, s->op, off, s->length);
  r->io.fua = s->fua;
  r->user = s;
  s->issued++;
  tdrv_push (d, t, r);
}

TDRV_FN struct tstream *
tdrv_stream (struct tdrv *d, const struct tstream *tmpl)
{
  struct tstream *s;
  unsigned i, n;

  ck_assert_uint_lt (d->nstreams, TDRV_MAX_STREAMS);
  s = &d->streams[d->nstreams++];
  *s = *tmpl;
  s->issued = 0;
  n = s->interval ? 1 : (s->depth ? s->depth : 1);
  for (i = 0; i < n; i++)
    tstream_issue (d, s, s->start);
  return s;
}

TDRV_FN void
tdrv_completed (struct req *r, void *opaque)
{
  struct tdrv *d = opaque;
  struct tstream *s = r->user;

  d->order[d->ndone++] = r;
  if (s && !s->interval)
    tstream_issue (d, s, r->done + s->think);
}

/* Run until nothing is left or the next event is after 'until'. */
TDRV_FN void
tdrv_run (struct tdrv *d, uint64_t until)
{
  struct engine *e = tdrv_engine (d);

  for (;;) {
    uint64_t ta = d->npending ? d->pending[0].t : TNEVER;
    uint64_t te = engine_next_event (e);

    if (ta == TNEVER && te == TNEVER)
      break;
    if (ta <= te) {
      struct tarrival a = d->pending[0];
      struct tstream *s = a.r->user;

      if (ta > until)
        break;
      memmove (d->pending, d->pending + 1,
               --d->npending * sizeof *d->pending);
      d->now = ta;
      ck_assert_int_eq (engine_submit (e, a.r, ta), 0);
      if (s && s->interval)
        tstream_issue (d, s, ta + s->interval);
    }
    else {
      if (te > until)
        break;
      d->now = te;
      engine_advance (e, te);
    }
  }
}

TDRV_FN void
tdrv_run_all (struct tdrv *d)
{
  tdrv_run (d, TNEVER);
  ck_assert_uint_eq (engine_pending (d->e), 0);
}

TDRV_FN uint64_t
treq_wait (const struct req *r)
{
  return r->start - r->arrival;
}

/* The longest wait to start among completed requests matching conn
 * (UINT32_MAX: any) and op (-1: any).
 */
TDRV_FN uint64_t
tdrv_max_wait (const struct tdrv *d, uint32_t conn, int op)
{
  uint64_t m = 0;
  size_t i;

  for (i = 0; i < d->ndone; i++) {
    const struct req *r = d->order[i];
    if ((conn == UINT32_MAX || r->conn == conn)
        && (op < 0 || (int) r->io.op == op) && treq_wait (r) > m)
      m = treq_wait (r);
  }
  return m;
}

/* Disk time (sum of service times) given to a connection. */
TDRV_FN uint64_t
tdrv_disk_time (const struct tdrv *d, uint32_t conn)
{
  uint64_t sum = 0;
  size_t i;

  for (i = 0; i < d->ndone; i++)
    if (d->order[i]->conn == conn)
      sum += d->order[i]->done - d->order[i]->start;
  return sum;
}

/* Requests of a connection completed. */
TDRV_FN size_t
tdrv_count (const struct tdrv *d, uint32_t conn)
{
  size_t i, n = 0;

  for (i = 0; i < d->ndone; i++)
    n += d->order[i]->conn == conn;
  return n;
}

/* The starvation scenario shared by every policy's tests: a sequential
 * reader on 'conn_stream' keeps two reads outstanding, each starting
 * where the last one ended, from 100 MiB for 'length' of modeled time;
 * one read far below it (at 1 MiB, or far_offset) arrives on
 * 'conn_far' at 10 ms.  (tdrv_starvation_at: any depth.)  Returns the far read.  Under cscan the stream
 * is always just above the head.
 */
TDRV_FN struct req *
tdrv_starvation_at (struct tdrv *d, uint32_t conn_stream, uint32_t conn_far,
                    uint64_t length, uint64_t far_offset, unsigned depth)
{
  struct tstream s = {
    .conn = conn_stream, .op = IO_READ, .length = 4 * KiB,
    .offset = 100 * MiB, .start = 0, .stop = length, .depth = depth,
  };

  tdrv_stream (d, &s);
  return tdrv_at (d, 10 * MS, conn_far, IO_READ, far_offset, 4 * KiB);
}

TDRV_FN struct req *
tdrv_starvation (struct tdrv *d, uint32_t conn_stream, uint32_t conn_far,
                 uint64_t length)
{
  return tdrv_starvation_at (d, conn_stream, conn_far, length, 1 * MiB, 2);
}

/* Where request r finished in completion order (0-based), or -1. */
TDRV_FN long
tdrv_rank (const struct tdrv *d, const struct req *r)
{
  size_t i;

  for (i = 0; i < d->ndone; i++)
    if (d->order[i] == r)
      return (long) i;
  return -1;
}

#endif /* HDDSIM_TEST_SCHED_DRIVER_H */
