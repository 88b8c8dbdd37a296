/* hddsim: randomized tests of the drive model under the engine.
 *
 * Random profiles (every parameter drawn from a range) and random
 * workloads (every op, aligned or not, sequential runs and scattered
 * requests, bursts and idle gaps, FUA, flushes) through the engine on
 * a virtual clock.  After every call: time never goes backwards, one
 * request is on the drive at a time, every request completes exactly
 * once and not before it arrived, its cost adds up, dirty data never
 * exceeds the cache, and a FLUSH leaves nothing dirty.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "run-suite.h"
#include "test-model-util.h"
#include "../../sched/engine.h"
#include "../../sched/policy.h"
#include "../../sched/sched_params.h"

struct run {
  struct hdd *d;
  uint64_t cache_bytes;         /* 0 unless write-back */
  uint64_t last_start, last_done;
  unsigned started, completed;
  unsigned *done_count;
  struct req *reqs;
};

static void
on_started (struct req *r, void *opaque)
{
  struct run *u = opaque;

  ck_assert_uint_ge (r->start, r->arrival);
  ck_assert_uint_ge (r->done, r->start);
  if (r->ncmds == 1) {
    ck_assert_uint_ge (r->start, u->last_done);     /* one actuator */
    ck_assert_uint_eq (hdd_cost_total (&r->cost), r->done - r->start);
  }
  else {
    /* Split at max-transfer: the hook comes with its last command, and
     * other requests' commands may have been served between its own.
     */
    ck_assert_uint_ge (r->done, u->last_done);
    ck_assert_uint_le (hdd_cost_total (&r->cost), r->done - r->start);
  }
  ck_assert_uint_le (hdd_dirty_bytes (u->d), u->cache_bytes);
  if (r->io.op == IO_FLUSH)
    ck_assert_uint_eq (hdd_dirty_bytes (u->d), 0);
  u->last_start = r->start;
  u->last_done = r->done;
  u->started++;
}

static void
on_completed (struct req *r, void *opaque)
{
  struct run *u = opaque;

  ck_assert_uint_eq (u->done_count[r->id], 0);
  u->done_count[r->id]++;
  ck_assert_uint_ge (r->done, r->arrival);
  ck_assert_uint_eq (r->done, u->last_done);         /* in modeled order */
  u->completed++;
}

static const char *
pick (const char *const *v, size_t n)
{
  return v[rnd () % n];
}

#define PICK(v) pick (v, sizeof v / sizeof v[0])

/* A random but valid drive. */
static struct hdd_params *
random_params (void)
{
  static const char *const profiles[] = {
    "st340014a", "st4000nm0033", "st500lt012", "st340014a", "fixed"
  };
  static const char *const caches[] = { "wb", "wt", "off", "wb" };
  static const char *const sizes[] = { "256K", "1M", "2M", "8M" };
  static const char *const segs[] = { "1", "4", "16" };
  static const char *const ras[] = { "0", "64K", "128K", "1M" };
  static const char *const places[] = { "start", "spread" };
  static const char *const layouts[] = { "cylinder", "serpentine" };
  static const char *const rpms[] = { "5400", "7200", "10000", "15000" };
  static const char *const zones[] = { "1", "8", "30" };
  static const char *const heads[] = { "1", "2", "5" };
  static const char *const ovs[] = { "0", "50us", "0.3ms" };
  static const char *const mts[] = { "0", "4K", "128K", "1280K" };
  static const char *const entries[] = { "0", "1", "3", "64" };
  static const char *const legacies[] = { "false", "true" };
  static const char *const mcs[] = { "0", "64M" };
  static const char *const mc_entries[] = { "4", "8192" };
  struct hdd_params *p = hdd_params_new ();
  char err[HDD_ERRLEN];
  const char *kv[] = {
    "cache", PICK (caches), "cache-size", PICK (sizes),
    "cache-segments", PICK (segs), "readahead", PICK (ras),
    "placement", PICK (places), "layout", PICK (layouts),
    "rpm", PICK (rpms), "zones", PICK (zones), "surfaces", PICK (heads),
    "overhead", PICK (ovs), "max-transfer", PICK (mts),
    "write-cache-entries", PICK (entries), "legacy", PICK (legacies),
    "media-cache-size", PICK (mcs), "media-cache-entries", PICK (mc_entries),
    NULL,
  };
  const char **k;

  ck_assert_int_eq (hdd_params_load_profile (p, PICK (profiles), err,
                                             sizeof err), 0);
  for (k = kv; *k; k += 2)
    if (rnd () % 2)
      ck_assert_msg (hdd_params_set (p, k[0], k[1], err, sizeof err) == 0,
                     "%s", err);
  ck_assert_msg (hdd_params_validate (p, err, sizeof err) == 0, "%s", err);
  return p;
}

static struct io
random_io (uint64_t image, uint64_t *seq)
{
  static const enum io_op ops[] = {
    IO_READ, IO_READ, IO_READ, IO_READ, IO_WRITE, IO_WRITE, IO_WRITE,
    IO_FLUSH, IO_TRIM, IO_ZERO,
  };
  struct io io = { .op = ops[rnd () % 10] };
  uint64_t r = rnd () % 100;

  io.length = r < 60 ? 4096 * (1 + rnd () % 16)
    : r < 90 ? 1 + rnd () % (1 << 20)
    : r < 99 ? 65536 : 32 << 20;
  if (io.length > image)
    io.length = image;
  if (rnd () % 3 == 0) {                /* continue a sequential run */
    io.offset = *seq;
    if (io.offset + io.length > image)
      io.offset = 0;
  }
  else
    io.offset = rnd () % (image - io.length + 1) / (rnd () % 4 ? 4096 : 1)
                * (rnd () % 4 ? 4096 : 1);
  if (io.offset + io.length > image)
    io.offset = image - io.length;
  *seq = io.offset + io.length;
  io.fua = (io.op == IO_WRITE || io.op == IO_ZERO) && rnd () % 8 == 0;
  if (io.op == IO_FLUSH)
    io.offset = io.length = 0;
  return io;
}

static void
one_run (uint64_t seed)
{
  static const char *const policies[] = { "fifo", "satf", "cscan" };
  static const struct engine_hooks hooks = {
    .started = on_started, .completed = on_completed,
  };
  const unsigned n = 1500;
  struct hdd_params *p;
  struct sched_params sp;
  struct engine *e;
  struct run u = { 0 };
  char err[HDD_ERRLEN];
  uint64_t image, arrival = 0, seq = 0, i;
  const struct policy_ops *ops;

  rng_state = seed * 2654435761u + 1;
  p = random_params ();
  image = p->kind == KIND_FIXED ? GIB
    : (64 << 20) + rnd () % (p->capacity - (64 << 20));
  u.d = hdd_new (p, image, seed, err, sizeof err);
  ck_assert_msg (u.d != NULL, "%s", err);
  u.cache_bytes = p->kind != KIND_FIXED && p->cache == CACHE_WB
                  ? p->cache_size : 0;
  sched_params_init (&sp);
  sp.qdepth = 1 + rnd () % 32;
  ops = policy_find (PICK (policies));
  if (!ops)
    ops = policy_find ("fifo");
  e = engine_new (u.d, ops, &sp, &hooks, &u);
  ck_assert_ptr_nonnull (e);
  u.reqs = calloc (n, sizeof *u.reqs);
  u.done_count = calloc (n, sizeof *u.done_count);

  for (i = 0; i < n; i++) {
    uint64_t g = rnd () % 10;
    /* Bursts, short gaps and idle periods that let the drive destage. */
    arrival += g < 5 ? 0 : g < 8 ? rnd () % (2 * MS) : rnd () % (200 * MS);
    u.reqs[i].io = random_io (image, &seq);
    u.reqs[i].id = i;
    u.reqs[i].conn = (uint32_t) (rnd () % 3);
    if (arrival > 0)
      engine_advance (e, arrival - 1);
    ck_assert_uint_le (hdd_dirty_bytes (u.d), u.cache_bytes);
    engine_submit (e, &u.reqs[i], arrival);
    arrival = u.reqs[i].arrival;
  }
  while (engine_pending (e) > 0) {
    uint64_t t = engine_next_event (e);
    ck_assert_uint_ne (t, ENGINE_NEVER);
    engine_advance (e, t);
  }
  ck_assert_uint_eq (u.completed, n);
  ck_assert_uint_eq (u.started, n);
  for (i = 0; i < n; i++)
    ck_assert_uint_eq (u.done_count[i], 1);
  /* Left alone long enough, the drive writes everything back. */
  hdd_idle (u.d, u.last_done + 3600 * UINT64_C(1000000000));
  ck_assert_uint_eq (hdd_dirty_bytes (u.d), 0);

  engine_free (e);
  hdd_free (u.d);
  hdd_params_free (p);
  free (u.reqs);
  free (u.done_count);
}

START_TEST (test_random_runs)
{
  one_run ((uint64_t) _i);
}
END_TEST

/* How many random runs (seeds 0 to N-1): 40, or HDDSIM_RANDOM_RUNS.
 * The valgrind pass takes 10 (Makefile.in says why); the plain and
 * ASan passes take all 40.
 */
static int
random_runs (void)
{
  const char *v = getenv ("HDDSIM_RANDOM_RUNS");
  char *end;
  long n;

  if (v == NULL)
    return 40;
  n = strtol (v, &end, 10);
  if (*v == '\0' || *end != '\0' || n < 1 || n > 1000) {
    fprintf (stderr, "HDDSIM_RANDOM_RUNS=%s: a whole number from 1 to 1000\n",
             v);
    exit (EXIT_FAILURE);
  }
  return (int) n;
}

static Suite *
random_suite (void)
{
  Suite *s = suite_create ("model-random");
  TCase *tc = tcase_create ("random");

  tcase_set_timeout (tc, 300);
  tcase_add_loop_test (tc, test_random_runs, 0, random_runs ());
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (random_suite ());
}
