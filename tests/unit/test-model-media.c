/* hddsim: unit tests of the media-write observer (hdd_set_media_observer)
 * and hdd_media_written, on a tiny drive whose times are worked out by
 * hand: one surface, 21 tracks of 100 sectors (2100 sectors, LBA =
 * image sector with placement=start), 6000 rpm: a 10 ms revolution,
 * 0.1 ms a sector.  Its write cache is bounded by bytes alone
 * (write-cache-entries=0), so that it writes back in C-LOOK order, the
 * order the hand-worked examples below follow: with st340014a's 8
 * entries (issue 25) it would write back by Write Cache Reordering
 * (test-model-cache.c, test_destage_reordered).
 */

#include <inttypes.h>

#include "run-suite.h"
#include "test-model-util.h"

#define SECT_NS (100 * US)      /* one sector passes under the head */

#define MAX_EVENTS 64

static struct hdd_media_write events[MAX_EVENTS];
static unsigned nevents;

static void
record (void *opaque, const struct hdd_media_write *ev)
{
  (void) opaque;
  ck_assert_uint_lt (nevents, MAX_EVENTS);
  events[nevents++] = *ev;
}

static struct hdd *
tiny (const char *cache, const char *cache_size)
{
  const char *const kv[] = {
    "surfaces", "1", "zone-table", "0-20:100", "capacity", "1075200",
    "rpm", "6000", "cache", cache, "cache-size", cache_size,
    "readahead", "0", "write-cache-entries", "0", NULL
  };
  struct hdd *d = drive ("st340014a", kv, 0, 1);

  nevents = 0;
  hdd_set_media_observer (d, record, NULL);
  return d;
}

static uint64_t
serve_io (struct hdd *d, enum io_op op, uint64_t sector, uint64_t n,
          bool fua, uint64_t t)
{
  struct io io = { .op = op, .fua = fua, .offset = sector * SECTOR,
                   .length = n * SECTOR };
  struct hdd_cost c;

  hdd_idle (d, t);
  return hdd_serve (d, &io, t, &c);
}

/* After a read that leaves the head at LBA 1208, writes at 1000, 200
 * and 1500 come back to back.  The arm is idle from the first one's
 * completion on, so when the third arrives it has begun destaging:
 * C-LOOK from 1208 finds nothing above it among {200, 1000} and wraps
 * to 200.  The flush then goes on from 208: 1000, then 1500, and
 * completes when the last one is written.
 */
START_TEST (test_destage_order_clook)
{
  struct hdd *d = tiny ("wb", "64K");
  uint64_t t = 0, s;

  t += serve_io (d, IO_READ, 1200, 8, false, 0) + 100 * MS;
  ck_assert_uint_eq (nevents, 0);
  t += serve_io (d, IO_WRITE, 1000, 8, false, t);
  t += serve_io (d, IO_WRITE, 200, 8, false, t);
  ck_assert_uint_eq (nevents, 0);
  t += serve_io (d, IO_WRITE, 1500, 8, false, t);
  ck_assert_uint_eq (nevents, 1);
  ck_assert_uint_eq (events[0].offset, 200 * SECTOR);
  s = serve_io (d, IO_FLUSH, 0, 0, false, t);
  ck_assert_uint_eq (nevents, 3);
  ck_assert_uint_eq (events[1].offset, 1000 * SECTOR);
  ck_assert_uint_eq (events[2].offset, 1500 * SECTOR);
  for (unsigned i = 0; i < 3; i++) {
    ck_assert_uint_eq (events[i].length, 8 * SECTOR);
    ck_assert (!events[i].own);
    /* Eight sectors on one track: at least their 0.8 ms. */
    ck_assert_uint_ge (events[i].end_ns, events[i].start_ns + 8 * SECT_NS);
    if (i > 0)                  /* one arm: one after the other */
      ck_assert_uint_ge (events[i].start_ns, events[i - 1].end_ns);
  }
  ck_assert_uint_eq (t + s, events[2].end_ns);
  hdd_free (d);
}
END_TEST

/* Sector granularity: the last of an event's sectors on one track is
 * written at end_ns, the k-th before it one sector time earlier each.
 */
START_TEST (test_written_by_sector)
{
  struct hdd *d = tiny ("wb", "64K");
  uint64_t t, k;
  const struct hdd_media_write *ev;

  t = serve_io (d, IO_WRITE, 1010, 40, false, 0);
  serve_io (d, IO_FLUSH, 0, 0, false, t);
  ck_assert_uint_eq (nevents, 1);
  ev = &events[0];
  ck_assert_uint_eq (ev->offset, 1010 * SECTOR);
  ck_assert_uint_eq (ev->length, 40 * SECTOR);
  for (k = 0; k <= 40; k++) {
    uint64_t at = ev->end_ns - k * SECT_NS;
    ck_assert_uint_eq (hdd_media_written (d, ev, at), 40 - k);
    if (k < 40)
      ck_assert_uint_eq (hdd_media_written (d, ev, at - 1), 39 - k);
  }
  ck_assert_uint_eq (hdd_media_written (d, ev, ev->start_ns), 0);
  ck_assert_uint_eq (hdd_media_written (d, ev, UINT64_MAX), 40);
  hdd_free (d);
}
END_TEST

/* A FUA write, and every write with cache=wt or off, is its own media
 * write: one event, own, over its sectors, ending before it completes.
 */
START_TEST (test_media_writes_own)
{
  const char *modes[] = { "wb", "wt", "off" };

  for (unsigned m = 0; m < 3; m++) {
    struct hdd *d = tiny (modes[m], "64K");
    uint64_t s = serve_io (d, IO_WRITE, 300, 16, m == 0, 5 * MS);

    ck_assert_msg (nevents == 1, "cache=%s: %u events", modes[m], nevents);
    ck_assert (events[0].own);
    ck_assert_uint_eq (events[0].offset, 300 * SECTOR);
    ck_assert_uint_eq (events[0].length, 16 * SECTOR);
    ck_assert_uint_le (events[0].end_ns, 5 * MS + s);
    ck_assert_uint_ge (events[0].end_ns, events[0].start_ns + 16 * SECT_NS);
    /* Nothing left to destage. */
    serve_io (d, IO_FLUSH, 0, 0, false, 5 * MS + s);
    ck_assert_uint_eq (nevents, 1);
    hdd_free (d);
  }
}
END_TEST

/* The estimate runs the model on a copy: it never reports. */
START_TEST (test_estimate_silent)
{
  struct hdd *d = tiny ("wb", "64K");
  struct io flush = { .op = IO_FLUSH };
  struct io fua = { .op = IO_WRITE, .fua = true, .offset = 0,
                    .length = 4096 };
  uint64_t t = serve_io (d, IO_WRITE, 700, 8, false, 0);

  hdd_estimate (d, &flush, t, NULL);
  hdd_estimate (d, &fua, t, NULL);
  ck_assert_uint_eq (nevents, 0);
  serve_io (d, IO_FLUSH, 0, 0, false, t);
  ck_assert_uint_eq (nevents, 1);
  hdd_free (d);
}
END_TEST

/* hdd_idle up to a cut brings the background destage up to it: the
 * piece under way at the cut is reported, and only the sectors written
 * by then count.  64 sectors: 6.4 ms of transfer.
 */
START_TEST (test_idle_to_cut_tears)
{
  struct hdd *d = tiny ("wb", "64K");
  uint64_t t = serve_io (d, IO_WRITE, 1000, 64, false, 0), cut;
  const struct hdd_media_write *ev;

  /* The destage begins when the write has completed. */
  hdd_idle (d, t + 1);
  ck_assert_uint_eq (nevents, 1);
  ev = &events[0];
  ck_assert_uint_le (ev->start_ns, t);
  ck_assert_uint_gt (ev->end_ns, t + 64 * SECT_NS);
  cut = ev->end_ns - 24 * SECT_NS - 1;
  ck_assert_uint_eq (hdd_media_written (d, ev, cut), 39);
  hdd_free (d);
}
END_TEST

static Suite *
media_suite (void)
{
  Suite *s = suite_create ("model-media");
  TCase *tc = tcase_create ("observer");

  tcase_add_test (tc, test_destage_order_clook);
  tcase_add_test (tc, test_written_by_sector);
  tcase_add_test (tc, test_media_writes_own);
  tcase_add_test (tc, test_estimate_silent);
  tcase_add_test (tc, test_idle_to_cut_tears);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (media_suite ());
}
