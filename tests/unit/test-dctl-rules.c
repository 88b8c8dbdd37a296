/* hddsim: unit tests of DiskSim's disk controller (model/dctl*.c,
 * controller=disksim): each rule of a controller key, one key changed
 * at a time on the hand-made drive, worked out by hand from DiskSim
 * 4.0's disksim_diskctlr.c.
 *
 * The tiny drive (tests/data/disksim/tiny.*): 6000 rpm (10 ms a
 * revolution), 100 sectors a track in its outer zone (0.1 ms a
 * sector), block 0 at angle 0, a bus of 0.05 ms a block, 0.05 ms per
 * request, read miss overhead 0.2 ms, read hit overhead 0.1 ms, every
 * other overhead 0.  The head rests on cylinder 0.  A one-block read
 * of block 0 at time 0 thus starts positioning at 0.25 ms, waits for
 * block 0 to come round at 10 ms, reads it by 10.1 ms and sends it by
 * 10.15 ms.
 *
 * DiskSim's angles are fixed-point: its times fall some ns (about 8 a
 * sector) under the exact ones (10.149987 ms there), so each time is
 * checked within TOL_NS of the exact value; every rule's effect is far
 * larger.  Each
 * expected value was also run through DiskSim 4.0 itself (its disk
 * blocks in barracuda.parv's frame, as bench/disksim-agree does, with
 * Sparing scheme used = 3 and no spares: its loader has no case for
 * scheme 0): the number after "DiskSim:".
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "run-suite.h"
#include "test-units.h"
#include "../../model/hdd.h"
#include "../../model/params.h"
#include "../../profile/profile.h"

#define TOL_NS 100

/* The tiny drive with its diskspecs edited by the sed script 'edit'. */
static struct hdd *
tiny_with (const char *edit)
{
  char dir[] = "/tmp/hddsim-test-dctl-XXXXXX", cmd[1024], path[128];
  char err[HDD_ERRLEN];
  struct hdd_params *p = hdd_params_new ();
  struct hdd *d;

  ck_assert_ptr_nonnull (p);
  ck_assert_ptr_nonnull (mkdtemp (dir));
  snprintf (cmd, sizeof cmd, "cp -r tests/data/disksim/tiny.parv "
            "tests/data/disksim/tiny.diskspecs tests/data/disksim/models %s "
            "&& sed -i '%s' %s/tiny.diskspecs", dir, edit, dir);
  ck_assert_int_eq (system (cmd), 0);
  snprintf (path, sizeof path, "%s/tiny.parv", dir);
  ck_assert_msg (hdd_params_load_profile (p, path, err, sizeof err) == 0,
                 "%s", err);
  ck_assert_int_eq (p->controller, CTLR_DISKSIM);
  d = hdd_new (p, hdd_params_capacity (p), 1, err, sizeof err);
  ck_assert_msg (d != NULL, "%s", err);
  hdd_params_free (p);
  snprintf (cmd, sizeof cmd, "rm -rf %s", dir);
  ck_assert_int_eq (system (cmd), 0);
  return d;
}

/* Serve n blocks at lba arriving at t; its service time, checked
 * against the hand-worked 'want' (ns).
 */
static uint64_t
serve_want (struct hdd *d, enum io_op op, uint64_t lba, uint64_t n,
            uint64_t t, uint64_t want, const char *what)
{
  struct io r = { .op = op, .offset = lba * 512, .length = n * 512 };
  struct hdd_cost c = { 0 };
  uint64_t s = hdd_serve (d, &r, t, &c);

  ck_assert_msg (s + TOL_NS >= want && s <= want + TOL_NS,
                 "%s: %" PRIu64 " ns, want %" PRIu64, what, s, want);
  return s;
}

#define CACHING "s/Enable caching in buffer = 0/Enable caching in buffer = 1/;"

/* The plain read miss above: 10.15 ms.  DiskSim: 10.149987. */
START_TEST (test_read_miss)
{
  struct hdd *d = tiny_with ("");

  serve_want (d, IO_READ, 0, 1, 0, 10150 * US, "read miss");
  hdd_free (d);
}
END_TEST

/* Data preparation overhead: the reconnection after the media read
 * (disk_reconnection_or_transfer_complete's path through
 * disk_request_complete... disk_buffer_attempt_bus: resel + data
 * preparation before the data goes): 10.1 + 0.3 + 0.05 = 10.45 ms.
 * DiskSim: 10.449987.
 */
START_TEST (test_data_prep_miss)
{
  struct hdd *d = tiny_with ("s/Data preparation overhead = 0.0/"
                             "Data preparation overhead = 0.3/");

  serve_want (d, IO_READ, 0, 1, 0, 10450 * US, "read miss, data prep");
  hdd_free (d);
}
END_TEST

/* First reselect overhead: the same reconnection, the first of the
 * request: 10.1 + 0.3 + 0.05 = 10.45 ms.  DiskSim: 10.449987.
 */
START_TEST (test_first_reselect)
{
  struct hdd *d = tiny_with ("s/First reselect overhead = 0.0/"
                             "First reselect overhead = 0.3/");

  serve_want (d, IO_READ, 0, 1, 0, 10450 * US, "read miss, reselect");
  hdd_free (d);
}
END_TEST

/* Data preparation on a hit (disk_read_arrive: the hit class of
 * overhead, then data preparation, then the data): with caching the
 * block read stays in its segment; reading it again 5 ms later is
 * 0.05 + 0.1 + 0.3 + 0.05 = 0.5 ms.  DiskSim: 0.500000.
 */
START_TEST (test_data_prep_hit)
{
  struct hdd *d = tiny_with (CACHING "s/Data preparation overhead = 0.0/"
                             "Data preparation overhead = 0.3/");
  uint64_t t = serve_want (d, IO_READ, 0, 1, 0, 10450 * US, "miss");

  serve_want (d, IO_READ, 0, 1, t + 5 * MS, 500 * US, "hit, data prep");
  hdd_free (d);
}
END_TEST

/* Read disconnect afterread: the miss disconnects from the bus after
 * its overhead, which takes 12 ms here; the block is read by 10.1 ms
 * but the reconnection waits for the bus: 0.25 + 12 + 0.05 = 12.3 ms.
 * DiskSim: 12.300000.
 */
START_TEST (test_read_disconnect)
{
  struct hdd *d = tiny_with ("s/Read disconnect afterread = 0.0/"
                             "Read disconnect afterread = 12.0/");

  serve_want (d, IO_READ, 0, 1, 0, 12300 * US, "read disconnect");
  hdd_free (d);
}
END_TEST

/* Minimum seek delay: a write's positioning takes at least 15 ms
 * (disk_check_hda's mintime for writes), so it ends at 15.25 ms and
 * block 0 comes round at 20 ms: written by 20.1 ms (its data crossed
 * at 0.3 ms; no completion overhead).  A read is not held: 10.15 ms.
 * DiskSim: 20.099987 and 10.149987.
 */
START_TEST (test_min_seek_writes)
{
  struct hdd *d = tiny_with ("s/Minimum seek delay = 0.0/"
                             "Minimum seek delay = 15.0/");

  serve_want (d, IO_WRITE, 0, 1, 0, 20100 * US, "write, min seek");
  hdd_free (d);
  d = tiny_with ("s/Minimum seek delay = 0.0/Minimum seek delay = 15.0/");
  serve_want (d, IO_READ, 0, 1, 0, 10150 * US, "read, min seek");
  hdd_free (d);
}
END_TEST

/* The read water mark: ten blocks read from 10 ms to 11 ms; the bus
 * (0.05 ms a block) is faster than the media (0.1 ms).  With a mark of
 * 0 the bus reconnects after the first block and keeps pace with the
 * media: the last block goes at 11.0-11.05 ms.  High (read) water mark
 * = 0.5 of the request (Set watermark by reqsize = 1): reconnect after
 * five blocks, still caught up by the end: 11.05 ms.  By the segment
 * (= 0): half of 64 blocks, more than the request, so the whole
 * request is read first: 11.0 + 10 x 0.05 = 11.5 ms.  DiskSim:
 * 11.049922, 11.049922, 11.499922.
 */
START_TEST (test_read_water_mark)
{
  struct hdd *d = tiny_with ("s/High (read) water mark = 0.0/"
                             "High (read) water mark = 0.5/");

  serve_want (d, IO_READ, 0, 10, 0, 11050 * US, "water mark by request");
  hdd_free (d);
  d = tiny_with ("s/High (read) water mark = 0.0/High (read) water mark = "
                 "0.5/;s/Set watermark by reqsize = 1/"
                 "Set watermark by reqsize = 0/");
  serve_want (d, IO_READ, 0, 10, 0, 11500 * US, "water mark by segment");
  hdd_free (d);
}
END_TEST

/* Read disconnect afterwrite: the same disconnection for a read whose
 * command follows a write (DiskSim's lastread off): a write of block
 * 500, then 30 ms later the read of block 0 pays the 12 ms
 * disconnection: 0.25 + 12 + 0.05 = 12.3 ms (the after-read value, 0,
 * would leave it the media's time).  DiskSim: 12.300000.
 */
START_TEST (test_read_disconnect_after_write)
{
  struct hdd *d = tiny_with ("s/Read disconnect afterwrite = 0.0/"
                             "Read disconnect afterwrite = 12.0/");
  struct io w = { .op = IO_WRITE, .offset = 500 * 512, .length = 512 };
  struct hdd_cost c;
  uint64_t t = hdd_serve (d, &w, 0, &c);

  serve_want (d, IO_READ, 0, 1, t + 30 * MS, 12300 * US,
              "read after a write");
  hdd_free (d);
}
END_TEST

/* Hold bus entire read xfer: ten blocks, the bus faster than the
 * media.  Without it the disk lets the bus go each time the data runs
 * out and reselects when the next block is in, paying First reselect
 * overhead (0.02 ms) each time: the last block, read at 11.0 ms, goes
 * at 11.02-11.07 ms.  Holding the bus, no reselection: 11.05 ms.
 * DiskSim: 11.069922, 11.049922.
 */
START_TEST (test_hold_bus_read)
{
  struct hdd *d = tiny_with ("s/First reselect overhead = 0.0/"
                             "First reselect overhead = 0.02/");

  serve_want (d, IO_READ, 0, 10, 0, 11070 * US, "bus let go");
  hdd_free (d);
  d = tiny_with ("s/First reselect overhead = 0.0/First reselect overhead "
                 "= 0.02/;s/Hold bus entire read xfer = 0/"
                 "Hold bus entire read xfer = 1/");
  serve_want (d, IO_READ, 0, 10, 0, 11050 * US, "bus held");
  hdd_free (d);
}
END_TEST

/* Never disconnect: the read miss keeps the bus through the media
 * access, so it never reselects: First reselect overhead = 0.3 costs
 * nothing, 10.15 ms (10.45 when it disconnects, test_first_reselect).
 * DiskSim: 10.149987.
 */
START_TEST (test_never_disconnect)
{
  struct hdd *d = tiny_with ("s/First reselect overhead = 0.0/"
                             "First reselect overhead = 0.3/;"
                             "s/Never disconnect = 0/Never disconnect = 1/");

  serve_want (d, IO_READ, 0, 1, 0, 10150 * US, "never disconnect");
  hdd_free (d);
}
END_TEST

static Suite *
dctl_suite (void)
{
  Suite *s = suite_create ("dctl-rules");
  TCase *tc = tcase_create ("rules");

  tcase_set_timeout (tc, 30);
  tcase_add_test (tc, test_read_miss);
  tcase_add_test (tc, test_data_prep_miss);
  tcase_add_test (tc, test_first_reselect);
  tcase_add_test (tc, test_data_prep_hit);
  tcase_add_test (tc, test_read_disconnect);
  tcase_add_test (tc, test_min_seek_writes);
  tcase_add_test (tc, test_read_water_mark);
  tcase_add_test (tc, test_read_disconnect_after_write);
  tcase_add_test (tc, test_hold_bus_read);
  tcase_add_test (tc, test_never_disconnect);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (dctl_suite ());
}
