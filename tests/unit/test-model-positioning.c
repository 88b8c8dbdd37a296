/* hddsim: hdd_no_positioning (model/hdd.c), the shortcut satf takes
 * instead of an estimate.
 *
 * What it must say follows from how the drive serves a request
 * (model/hdd.c, docs/model.md): a write into the write-back cache and a
 * fast write are over once their data is in the buffer, a trim only
 * costs the command overhead, and profile=fixed has no arm at all, so
 * none of them is charged a seek or a rotational wait; a FUA write, a
 * write larger than the cache and any write without a write-back cache
 * go to the media and are.  A read may or may not be a hit, so the
 * shortcut must not claim it.  Then, over random drive states: whenever
 * it says "no positioning", the estimate agrees (seek_ns and rot_ns 0).
 */

#include <inttypes.h>

#include "run-suite.h"
#include "test-model-util.h"
#include "../../model/geometry.h"

#define KIB UINT64_C(1024)
#define MIB (KIB * 1024)

static struct io
io_of (enum io_op op, uint64_t offset, uint64_t length, bool fua)
{
  return (struct io) { .op = op, .offset = offset, .length = length,
                       .fua = fua };
}

static bool
no_pos (struct hdd *d, enum io_op op, uint64_t length, bool fua)
{
  struct io io = io_of (op, 64 * MIB, length, fua);
  return hdd_no_positioning (d, &io);
}

/* The cases, by the rules above. */
START_TEST (test_which_requests)
{
  static const char *const wt[] = { "cache", "wt", NULL };
  static const char *const off[] = { "cache", "off", NULL };
  static const char *const fast[] = { "cache", "wt", "fast-write", "1",
                                      NULL };
  static const char *const fixed[] = { "service", "10us", NULL };
  struct hdd *d = drive ("st340014a", NULL, 0, 1);     /* 2 MB, wb */

  ck_assert (no_pos (d, IO_WRITE, 4 * KIB, false));
  ck_assert (no_pos (d, IO_ZERO, 64 * KIB, false));
  ck_assert (no_pos (d, IO_TRIM, 4 * KIB, false));
  ck_assert (!no_pos (d, IO_WRITE, 4 * KIB, true));    /* FUA */
  ck_assert (!no_pos (d, IO_WRITE, 4 * MIB, false));   /* > the cache */
  ck_assert (!no_pos (d, IO_READ, 4 * KIB, false));
  hdd_free (d);

  d = drive ("st340014a", wt, 0, 1);
  ck_assert (!no_pos (d, IO_WRITE, 4 * KIB, false));
  ck_assert (!no_pos (d, IO_READ, 4 * KIB, false));
  hdd_free (d);
  d = drive ("st340014a", off, 0, 1);
  ck_assert (!no_pos (d, IO_WRITE, 4 * KIB, false));
  hdd_free (d);
  d = drive ("st340014a", fast, 0, 1);
  ck_assert (no_pos (d, IO_WRITE, 4 * KIB, false));
  ck_assert (!no_pos (d, IO_WRITE, 4 * KIB, true));    /* FUA */
  hdd_free (d);
  d = drive ("fixed", fixed, 0, 1);
  ck_assert (no_pos (d, IO_READ, 4 * KIB, false));
  ck_assert (no_pos (d, IO_WRITE, 4 * KIB, true));
  hdd_free (d);
}
END_TEST

/* Random states (random reads and writes served, idle gaps for the
 * destage and read-ahead to run) and random requests: "no positioning"
 * is never contradicted by the estimate.
 */
static void
agrees_with_estimate (const char *const *kv)
{
  static const enum io_op ops[] = { IO_READ, IO_WRITE, IO_ZERO, IO_TRIM };
  struct hdd *d = drive ("st340014a", kv, 0, 3);
  uint64_t t = 0, blocks = hdd_geom (d)->sectors / 8, claimed = 0;
  unsigned i, j;

  rng_state = 12345;
  for (i = 0; i < 2000; i++) {
    struct io io = io_of (rnd () % 2 ? IO_READ : IO_WRITE,
                          rnd () % blocks * 4 * KIB, 4 * KIB, false);
    t += hdd_serve (d, &io, t, NULL) + rnd () % (5 * MS);
    hdd_idle (d, t);
    for (j = 0; j < 4; j++) {
      struct hdd_cost c;
      struct io q = io_of (ops[rnd () % 4], rnd () % blocks * 4 * KIB,
                           (1 + rnd () % 64) * 4 * KIB, rnd () % 8 == 0);
      if (!hdd_no_positioning (d, &q))
        continue;
      claimed++;
      hdd_estimate (d, &q, t, &c);
      ck_assert_msg (c.seek_ns == 0 && c.rot_ns == 0,
                     "%s of %" PRIu64 " at %" PRIu64 " (fua %d): "
                     "seek %" PRIu64 " rot %" PRIu64 " ns",
                     io_op_name (q.op), q.length, q.offset, q.fua,
                     c.seek_ns, c.rot_ns);
    }
  }
  ck_assert_uint_gt (claimed, 1000);    /* the setup, not the rule */
  hdd_free (d);
}

START_TEST (test_agrees_write_back)
{
  agrees_with_estimate (NULL);
}
END_TEST

START_TEST (test_agrees_fast_write)
{
  static const char *const fast[] = { "cache", "wt", "fast-write", "2",
                                      NULL };
  agrees_with_estimate (fast);
}
END_TEST

static Suite *
positioning_suite (void)
{
  Suite *s = suite_create ("model-positioning");
  TCase *tc = tcase_create ("no-positioning");

  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_which_requests);
  tcase_add_test (tc, test_agrees_write_back);
  tcase_add_test (tc, test_agrees_fast_write);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (positioning_suite ());
}
