/* hddsim: unit tests of DiskSim's disk controller (model/dctl*.c,
 * controller=disksim): each rule of a controller key, one key changed
 * at a time on the hand-made drive, worked out by hand from DiskSim
 * 4.0's disksim_diskctlr.c.
 *
 * The tiny drive (tests/data/disksim/tiny.*): 6000 rpm (10 ms a
 * revolution), 100 sectors a track in its outer zone (0.1 ms a
 * sector), block 0 at angle 0, a bus of 0.05 ms a block, 0.05 ms per
 * request, read (and write) miss overhead 0.2 ms, hit overhead 0.1
 * ms, every other overhead 0.  The head rests on cylinder 0.  A one-block read
 * of block 0 at time 0 thus starts positioning at 0.25 ms, waits for
 * block 0 to come round at 10 ms, reads it by 10.1 ms and sends it by
 * 10.15 ms.
 *
 * DiskSim's angles are fixed-point: its times fall some ns (about 8 a
 * sector) under the exact ones (10.149987 ms there), so each time is
 * checked within TOL_NS of the exact value (TOL_REV_NS where the media
 * steps round a whole revolution); every rule's effect is far larger.
 * Each expected value was also run through DiskSim 4.0 itself (its disk
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
 * against the hand-worked 'want' (ns) within 'tol'.
 */
static uint64_t
serve_near (struct hdd *d, enum io_op op, uint64_t lba, uint64_t n,
            uint64_t t, uint64_t want, uint64_t tol, const char *what)
{
  struct io r = { .op = op, .offset = lba * 512, .length = n * 512 };
  struct hdd_cost c = { 0 };
  uint64_t s = hdd_serve (d, &r, t, &c);

  ck_assert_msg (s + tol >= want && s <= want + tol,
                 "%s: %" PRIu64 " ns, want %" PRIu64, what, s, want);
  return s;
}

static uint64_t
serve_want (struct hdd *d, enum io_op op, uint64_t lba, uint64_t n,
            uint64_t t, uint64_t want, const char *what)
{
  return serve_near (d, op, lba, n, t, want, TOL_NS, what);
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

/* Write disconnect overhead: a write without fast writes takes its
 * data at once (0.05 + 0.2 + 0.05 = 0.3 ms) and then disconnects
 * (disk_reconnection_or_transfer_complete: the transfer size is -1
 * once all data is in, delay overhead_disconnect_write).  The media
 * writes block 0 from 10.0 to 10.1 ms; the completion needs the bus,
 * which is the disconnection's until 0.3 + 12 = 12.3 ms.  Without the
 * overhead: 10.1 ms.  DiskSim: 12.300000, 10.099987.
 */
START_TEST (test_write_disconnect)
{
  struct hdd *d = tiny_with ("s/Write disconnect overhead = 0.0/"
                             "Write disconnect overhead = 12.0/");

  serve_want (d, IO_WRITE, 0, 1, 0, 12300 * US, "write disconnect");
  hdd_free (d);
  d = tiny_with ("");
  serve_want (d, IO_WRITE, 0, 1, 0, 10100 * US, "no write disconnect");
  hdd_free (d);
}
END_TEST

#define FASTWRITE CACHING "s/Fast write level = 0/Fast write level = 1/;"

/* Write disconnect overhead on arrival (disk_write_arrive, fast
 * writes: no segment, so disconnect after the write hit overhead plus
 * overhead_disconnect_write).  A fast write of block 0 is done at
 * 0.05 + 0.1 + 0.05 = 0.2 ms, its media write pending (10.0-10.1 ms)
 * in the one write segment.  A write of block 500 arriving then finds
 * no segment: it disconnects, answered at 0.25 + 0.1 + 12 = 12.35 ms;
 * the segment is free from 10.1 ms, so it reconnects at 12.35 and its
 * block crosses by 12.4 ms: 12.2 ms.  With 5 ms the answer (5.35 ms)
 * comes before the segment is free: reconnect at 10.1, done 10.15:
 * 9.95 ms.  DiskSim: 12.200000, 9.949989.
 */
START_TEST (test_write_disconnect_on_arrival)
{
  struct hdd *d = tiny_with (FASTWRITE "s/Write disconnect overhead = 0.0/"
                             "Write disconnect overhead = 12.0/");
  uint64_t t = serve_want (d, IO_WRITE, 0, 1, 0, 200 * US, "fast write");

  serve_want (d, IO_WRITE, 500, 1, t, 12200 * US, "no segment, 12 ms");
  hdd_free (d);
  d = tiny_with (FASTWRITE "s/Write disconnect overhead = 0.0/"
                 "Write disconnect overhead = 5.0/");
  t = serve_want (d, IO_WRITE, 0, 1, 0, 200 * US, "fast write");
  serve_want (d, IO_WRITE, 500, 1, t, 9950 * US, "no segment, 5 ms");
  hdd_free (d);
}
END_TEST

/* Extra write disconnect (disk_buffer_select_segment): a write that
 * lands in the most recently used segment, whose last media access was
 * a write, at another block than the segment's end.  With caching, a
 * write of blocks 0-1 (0.05 + 0.2 + 0.1, on the media 10.0-10.2 ms,
 * done at 10.2) leaves its clean segment holding them; a write of
 * block 1 arriving then overlaps it, takes that segment and is marked.
 * It reaches the disk at 10.25 ms, disconnects after Extradisc command
 * overhead + Extradisc disconnect overhead (disk_write_arrive), and its
 * media access may start Extradisc command overhead + Extradisc seek
 * delta after arrival.  The disconnection answered, the disk waits
 * Extradisc inter-disconnect delay (disk_disconnect: a
 * DEVICE_PREPARE_FOR_DATA_TRANSFER event), reconnects paying First
 * reselect overhead (it is still extradisc_diskreq), takes the block
 * (0.05 ms), and disconnects after Extradisc 2nd disconnect overhead.
 * The completion, after the media write, reconnects paying Other
 * reselect overhead (disk_check_bus: the write is marked and no longer
 * extradisc_diskreq).  Block 1 passes the head at 20.1 ms, then 30.1.
 * All five at 0: the block is in by 10.3, written 20.1-20.2: 10.0 ms.
 * DiskSim: 10.000008.
 */
#define EXTRADISC CACHING \
  "s/Extra write disconnect = 0/Extra write disconnect = 1/;"

/* The two writes above; the second's service time, within tol. */
static void
extradisc_case (const char *edit, uint64_t want, uint64_t tol,
                const char *what)
{
  char all[512];
  struct hdd *d;
  uint64_t t;

  snprintf (all, sizeof all, "%s%s", EXTRADISC, edit);
  d = tiny_with (all);
  t = serve_want (d, IO_WRITE, 0, 2, 0, 10200 * US, "write of 0-1");
  serve_near (d, IO_WRITE, 1, 1, t, want, tol, what);
  hdd_free (d);
}

/* A block that misses the head waits a revolution sector by sector,
 * each step some ns under the exact time in DiskSim's fixed point
 * (0.7 us over a revolution here): the tolerance for those cases.
 */
#define TOL_REV_NS (2 * US)

START_TEST (test_extradisc_none)
{
  extradisc_case ("", 10000 * US, TOL_NS, "extra disconnect, no overheads");
}
END_TEST

/* Extradisc command overhead C delays both the data and the media.
 * The data: disconnection answered at 10.25 + C, block in by
 * 10.3 + C; the media: ready at 10.25 + C.  Block 1 passes at 20.1 ms.
 * C = 9.82: the media would be ready (20.07) but the block is in only
 * by 20.12: written 30.1-30.2, 20.0 ms; C = 9.78: in by 20.08, 10.0
 * ms.  With Extradisc seek delta 9.8 the media waits for C + 9.8:
 * C = 0.06, ready at 20.11, after the block passed: 20.0 ms (the data
 * in by 10.36); C = 0.04, ready at 20.09: 10.0 ms.  DiskSim:
 * 19.999290, 10.000012, 20.000008, 10.000006.
 */
START_TEST (test_extradisc_command)
{
  extradisc_case ("s/Extradisc command overhead = 0.0/"
                  "Extradisc command overhead = 9.82/",
                  20000 * US, TOL_REV_NS, "command overhead, the data");
  extradisc_case ("s/Extradisc command overhead = 0.0/"
                  "Extradisc command overhead = 9.78/",
                  10000 * US, TOL_NS, "command overhead, data in time");
  extradisc_case ("s/Extradisc command overhead = 0.0/"
                  "Extradisc command overhead = 0.06/;"
                  "s/Extradisc seek delta = 0.0/Extradisc seek delta = 9.8/",
                  20000 * US, TOL_NS, "command overhead, the media");
  extradisc_case ("s/Extradisc command overhead = 0.0/"
                  "Extradisc command overhead = 0.04/;"
                  "s/Extradisc seek delta = 0.0/Extradisc seek delta = 9.8/",
                  10000 * US, TOL_NS, "command overhead, media in time");
}
END_TEST

/* Extradisc disconnect overhead = 12: the disconnection is answered at
 * 22.25 ms, the block is in by 22.3, after it passed the head (ready
 * since 10.25) at 20.1: written 30.1-30.2, 20.0 ms.  DiskSim:
 * 19.999284.
 */
START_TEST (test_extradisc_disconnect)
{
  extradisc_case ("s/Extradisc disconnect overhead = 0.0/"
                  "Extradisc disconnect overhead = 12.0/",
                  20000 * US, TOL_REV_NS, "extradisc disconnect overhead");
}
END_TEST

/* Extradisc inter-disconnect delay = 12: the reconnection comes 12 ms
 * after the disconnection's answer at 10.25: the block is in by 22.3,
 * as above: 20.0 ms.  DiskSim: 19.999284.
 */
START_TEST (test_extradisc_inter)
{
  extradisc_case ("s/Extradisc inter-disconnect delay = 0.0/"
                  "Extradisc inter-disconnect delay = 12.0/",
                  20000 * US, TOL_REV_NS, "extradisc inter-disconnect");
}
END_TEST

/* Extradisc 2nd disconnect overhead = 12: the block is in by 10.3 and
 * written 20.1-20.2, but the bus is the second disconnection's until
 * 10.3 + 12 = 22.3 ms; the completion goes then: 12.1 ms.  DiskSim:
 * 12.100000.
 */
START_TEST (test_extradisc_2nd_disconnect)
{
  extradisc_case ("s/Extradisc 2nd disconnect overhead = 0.0/"
                  "Extradisc 2nd disconnect overhead = 12.0/",
                  12100 * US, TOL_NS, "extradisc 2nd disconnect");
}
END_TEST

/* Extradisc seek delta = 12: the media may start at 10.25 + 12 = 22.25
 * ms, after block 1 passed: 20.0 ms, the data long in.  DiskSim:
 * 20.000010.
 */
START_TEST (test_extradisc_seek_delta)
{
  extradisc_case ("s/Extradisc seek delta = 0.0/Extradisc seek delta = "
                  "12.0/", 20000 * US, TOL_NS, "extradisc seek delta");
}
END_TEST

/* Other reselect overhead = 12: the completion's reconnection after
 * the media write (20.2 ms) pays it: 32.2 ms, 22.0 ms.  DiskSim:
 * 22.000008.  Without the extra disconnect the completion pays First
 * reselect overhead (0 here): 10.0 ms.  DiskSim: 10.000013.
 */
START_TEST (test_other_reselect)
{
  struct hdd *d;
  uint64_t t;

  extradisc_case ("s/Other reselect overhead = 0.0/"
                  "Other reselect overhead = 12.0/",
                  22000 * US, TOL_NS, "other reselect");
  d = tiny_with (CACHING "s/Other reselect overhead = 0.0/"
                 "Other reselect overhead = 12.0/");
  t = serve_want (d, IO_WRITE, 0, 2, 0, 10200 * US, "write of 0-1");
  serve_want (d, IO_WRITE, 1, 1, t, 10000 * US, "no extra disconnect");
  hdd_free (d);
}
END_TEST

/* A write of 100 blocks into a 64-block segment, First reselect
 * overhead R.  The data goes from 0.25 ms (0.05 + 0.2): 64 blocks by
 * 0.25 + 64 x 0.05 = 3.45 ms, and the segment is full.  The media
 * writes block b from 10.0 + 0.1 b ms.  Without holding the bus the
 * disk disconnects (the transfer size is -1: no room) and reconnects
 * once the blocks still to write are at most the write water mark
 * (disk_request_needs_bus), paying R; holding it (Hold bus entire
 * write xfer) it waits, and each media step sends what has room
 * (disk_buffer_request_complete requeues the waiting transfer).  Block
 * 64 is needed at 16.4 ms, else at 26.4.  The completion, after the
 * last block (20.0 or 30.0 ms), reconnects paying R.
 *
 * R = 5, mark 0 by request size (max (1, (int) (64 x 0)) = 1 block):
 * reconnect when block 62 is written, 16.3 ms, data from 21.3: block
 * 64 misses 16.4, written at 26.4; the last at 29.9-30.0; completion
 * 35.0 ms.  Holding the bus: the data keeps ahead of the media (0.05
 * ms a block against 0.1), done at 20.0, completion 25.0 ms.  DiskSim:
 * 34.998545, 24.999269.
 */
START_TEST (test_hold_bus_write)
{
  struct hdd *d = tiny_with ("s/First reselect overhead = 0.0/"
                             "First reselect overhead = 5.0/");

  serve_near (d, IO_WRITE, 0, 100, 0, 35000 * US, TOL_REV_NS, "bus let go");
  hdd_free (d);
  d = tiny_with ("s/First reselect overhead = 0.0/First reselect overhead "
                 "= 5.0/;s/Hold bus entire write xfer = 0/"
                 "Hold bus entire write xfer = 1/");
  serve_near (d, IO_WRITE, 0, 100, 0, 25000 * US, TOL_REV_NS, "bus held");
  hdd_free (d);
}
END_TEST

/* The write (low) water mark, the same write.  R = 5, mark 0.9 by
 * request size: (int) (64 x 0.9) = 57 blocks, reached when block 6 is
 * written (64 - 7 <= 57), 10.7 ms; data from 15.7, block 64 in by
 * 15.75 < 16.4: no miss, done 20.0, completion 25.0 ms (mark 0: 35.0,
 * test_hold_bus_write).  By segment the mark is rounded up
 * ((int) (64 x w + 0.9999999999)), by request size down: R = 4.9,
 * w = 0.78: 50 blocks by segment, reached at 11.4 ms (block 13
 * written), block 64 in by 11.4 + 4.9 + 0.05 = 16.35 < 16.4, done 20.0,
 * completion 24.9 ms; 49 by request size, reached at 11.5, block 64 in
 * by 16.45, too late: written from 26.4, done 30.0, completion 34.9 ms.
 * DiskSim: 24.999269, 24.899269, 34.898545.
 */
START_TEST (test_write_water_mark)
{
  struct hdd *d = tiny_with ("s/First reselect overhead = 0.0/"
                             "First reselect overhead = 5.0/;"
                             "s/Low (write) water mark = 0.0/"
                             "Low (write) water mark = 0.9/");

  serve_near (d, IO_WRITE, 0, 100, 0, 25000 * US, TOL_REV_NS, "mark 0.9");
  hdd_free (d);
  d = tiny_with ("s/First reselect overhead = 0.0/First reselect overhead "
                 "= 4.9/;s/Low (write) water mark = 0.0/"
                 "Low (write) water mark = 0.78/;"
                 "s/Set watermark by reqsize = 1/"
                 "Set watermark by reqsize = 0/");
  serve_near (d, IO_WRITE, 0, 100, 0, 24900 * US, TOL_REV_NS,
              "mark 0.78 by segment");
  hdd_free (d);
  d = tiny_with ("s/First reselect overhead = 0.0/First reselect overhead "
                 "= 4.9/;s/Low (write) water mark = 0.0/"
                 "Low (write) water mark = 0.78/");
  serve_near (d, IO_WRITE, 0, 100, 0, 34900 * US, TOL_REV_NS,
              "mark 0.78 by request");
  hdd_free (d);
}
END_TEST

/* DiskSim's clock (the demerit's service time, hdd_cost.disksim_ms):
 * DiskSim adds each event's delay to simtime, a double in ms
 * (addtointq), and bins simtime less the request's start.  A read hit
 * (caching on) 600 ms after the miss of test_read_miss arrives at
 * T = 10.149987... + 600 ms, in [512, 1024), where a double's last bit
 * is 2^-43 ms; its events: per-request overhead 0.05, read hit
 * overhead 0.1 (then the disk's answer), block transfer 0.05, the
 * completion at once.  (((T + 0.05) + 0.1) + 0.05) - T rounds each
 * delay to that grid: 0.19999999999993179, under 0.2 and counted as
 * 199 us, where the exact 0.2 ms is 200.  DiskSim: 0.19999999999993179.
 */
START_TEST (test_disksim_clock)
{
  struct hdd *d = tiny_with (CACHING);
  struct io r = { .op = IO_READ, .offset = 0, .length = 512 };
  struct hdd_cost c = { 0 };
  volatile double t_ms = 610.0;   /* any double in [512, 1024) */
  double want = ((t_ms + 0.05) + 0.1) + 0.05 - t_ms;
  uint64_t t = serve_want (d, IO_READ, 0, 1, 0, 10150 * US, "miss");
  uint64_t s = hdd_serve (d, &r, t + 600 * MS, &c);

  ck_assert_msg (s == 200 * US, "hit: %" PRIu64 " ns", s);
  ck_assert_msg (want == 0.19999999999993179, "hand-worked %.17g", want);
  ck_assert_msg (c.disksim_ms == want, "DiskSim's clock: %.17g, want %.17g",
                 c.disksim_ms, want);
  ck_assert_int_eq ((int) (c.disksim_ms * 1000), 199);
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
  tcase_add_test (tc, test_write_disconnect);
  tcase_add_test (tc, test_write_disconnect_on_arrival);
  tcase_add_test (tc, test_extradisc_none);
  tcase_add_test (tc, test_extradisc_command);
  tcase_add_test (tc, test_extradisc_disconnect);
  tcase_add_test (tc, test_extradisc_inter);
  tcase_add_test (tc, test_extradisc_2nd_disconnect);
  tcase_add_test (tc, test_extradisc_seek_delta);
  tcase_add_test (tc, test_other_reselect);
  tcase_add_test (tc, test_hold_bus_write);
  tcase_add_test (tc, test_write_water_mark);
  tcase_add_test (tc, test_disksim_clock);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (dctl_suite ());
}
