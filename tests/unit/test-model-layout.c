/* hddsim: unit tests of the explicit layout (model/geometry.c's
 * zone-table=, sparing=, slips=, defects=) and of the transfer over it
 * (mech_walk), with DiskSim's own mapping (ds_layout_ltop) where the
 * two meet.
 *
 * Every expected position is worked out by hand in the comment above
 * it, from the zone table: a zone's physical sectors are numbered
 * track by track from its first cylinder (track = cylinder x surfaces
 * + surface), an LBA takes the next data position that is neither a
 * spare nor slipped, and its angular slot is
 *   offset + ts x (track switches) + cs x (cylinder switches)
 *   + (slips before the cylinder or track, per-cylinder/-track schemes)
 *   + sector,  mod sectors per track.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run-suite.h"
#include "test-model-util.h"
#include "../../model/geometry.h"
#include "../../model/seek.h"
#include "../../model/mech.h"
#include "../../disksim/drive.h"

static struct hdd_params *tparams;

/* Parameters from "key=value" strings; 'sectors' set directly, below
 * capacity='s 1 MiB minimum (the geometry does not care).
 */
static int
build (struct geom *g, uint64_t sectors, const char *const *kv, char *err,
       size_t errlen)
{
  char key[64];
  unsigned i;

  hdd_params_free (tparams);
  tparams = hdd_params_new ();
  ck_assert_ptr_nonnull (tparams);
  ck_assert_int_eq (hdd_params_set (tparams, "surfaces", "2", err, errlen), 0);
  for (i = 0; kv[i]; i++) {
    const char *eq = strchr (kv[i], '=');
    ck_assert_ptr_nonnull (eq);
    snprintf (key, sizeof key, "%.*s", (int) (eq - kv[i]), kv[i]);
    if (hdd_params_set (tparams, key, eq + 1, err, errlen) != 0)
      return -1;
  }
  tparams->capacity = sectors * SECTOR;
  return geom_init (g, tparams, err, errlen);
}

static struct geom *
geom_of (uint64_t sectors, const char *const *kv)
{
  static struct geom g;
  char err[HDD_ERRLEN];

  ck_assert_msg (build (&g, sectors, kv, err, sizeof err) == 0, "%s", err);
  return &g;
}

/* The error of a table that must be refused, containing 'want'. */
static void
refused (uint64_t sectors, const char *const *kv, const char *want)
{
  static struct geom g;
  char err[HDD_ERRLEN] = "";

  ck_assert_int_eq (build (&g, sectors, kv, err, sizeof err), -1);
  ck_assert_msg (strstr (err, want) != NULL, "error \"%s\", expected \"%s\"",
                 err, want);
}

static void
at (const struct geom *g, uint64_t lba, uint64_t cyl, uint64_t head,
    uint64_t sector, uint64_t slot, uint64_t run)
{
  struct loc l;

  geom_locate (g, lba, &l);
  ck_assert_msg (l.cyl == cyl && l.head == head && l.sector == sector
                 && l.slot == slot && l.run == run,
                 "LBA %" PRIu64 ": (cyl %" PRIu64 ", head %" PRIu64
                 ", sector %" PRIu64 ", slot %" PRIu64 ", run %" PRIu64
                 "), expected (%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %"
                 PRIu64 ", %" PRIu64 ")", lba, l.cyl, l.head, l.sector,
                 l.slot, l.run, cyl, head, sector, slot, run);
}

/* Two zones with a gap (cylinder 4), 2 surfaces, no spares.
 * Zone 0: cylinders 0-3, 10 sectors, offset 1, ts 2, cs 3: 80 LBAs.
 * Zone 1: cylinders 5-6, 8 sectors, ts 1, cs 2, 4 empty positions at
 * its front: 2 x 2 x 8 - 4 = 28 LBAs, from LBA 80.
 */
static const char *const two_zones[] = {
  "zone-table=0-3:10:ts=2:cs=3:offset=1,5-6:8:ts=1:cs=2:empty=4", NULL
};

START_TEST (test_zone_table)
{
  const struct geom *g = geom_of (108, two_zones);
  struct loc l;

  ck_assert_uint_eq (g->nzones, 2);
  ck_assert_uint_eq (g->ncyl, 7);
  ck_assert_uint_eq (g->zones[1].first_lba, 80);
  ck_assert_uint_eq (g->zones[1].nsect, 28);
  /* LBA 0: track 0, sector 0: slot = offset 1; the track's 10. */
  at (g, 0, 0, 0, 0, 1, 10);
  /* LBA 13: track 1 (cylinder 0, head 1), sector 3: 1 + 2 + 3 = 6. */
  at (g, 13, 0, 1, 3, 6, 7);
  /* LBA 25: track 2 (cylinder 1, head 0), sector 5: one track switch
     and one cylinder switch: 1 + 2 + 3 + 5 = 11 = slot 1. */
  at (g, 25, 1, 0, 5, 1, 5);
  /* LBA 79: track 7 (cylinder 3, head 1), sector 9: 4 track switches,
     3 cylinder switches: 1 + 8 + 9 + 9 = 27 = slot 7; the zone's last. */
  at (g, 79, 3, 1, 9, 7, 1);
  /* LBA 80: zone 1 position 4 (after the empty space): cylinder 5,
     head 0, sector 4, slot 4; 4 to the track's end. */
  at (g, 80, 5, 0, 4, 4, 4);
  /* LBA 84: position 8, track 1 (cylinder 5, head 1): slot ts = 1. */
  at (g, 84, 5, 1, 0, 1, 8);
  /* LBA 100: position 24, track 3 (cylinder 6, head 1): 2 track
     switches and one cylinder switch: 2 + 2 = 4. */
  at (g, 100, 6, 1, 0, 4, 8);
  /* The media rate follows each zone's sectors per track. */
  geom_locate (g, 90, &l);
  ck_assert_uint_eq (l.spt, 8);
  /* First LBAs of tracks: cylinder 6 head 0 is position 16 = LBA 92;
     cylinder 5 head 0 holds its first LBA (80) at position 4. */
  ck_assert_uint_eq (geom_track_lba (g, 6, 0), 92);
  ck_assert_uint_eq (geom_track_lba (g, 5, 0), 80);
  ck_assert_uint_eq (geom_track_lba (g, 1, 1), 30);
  /* A smaller capacity trims the last zone. */
  g = geom_of (100, two_zones);
  ck_assert_uint_eq (g->zones[1].nsect, 20);
}
END_TEST

/* layout=alternate (DiskSim's mapping 1): odd cylinders of a zone run
 * their surfaces last first; alternate-disk (2): odd cylinders of the
 * disk.  Zone 1 starts at cylinder 5: odd on the disk, even (0) in
 * the zone.
 */
START_TEST (test_alternate)
{
  const char *const zone[] = { two_zones[0], "layout=alternate", NULL };
  const char *const disk[] = { two_zones[0], "layout=alternate-disk", NULL };
  const struct geom *g = geom_of (108, zone);

  /* LBA 25: track 2 = cylinder 1 (odd), first in its order: head 1;
     the skews count switches in the order: slot 1 as before. */
  at (g, 25, 1, 1, 5, 1, 5);
  at (g, 35, 1, 0, 5, 3, 5);    /* 1 + 2 x 2 + 3 + 5 = 13 */
  at (g, 80, 5, 0, 4, 4, 4);
  ck_assert_uint_eq (geom_track_lba (g, 1, 1), 20);
  g = geom_of (108, disk);
  at (g, 25, 1, 1, 5, 1, 5);
  at (g, 80, 5, 1, 4, 4, 4);
}
END_TEST

/* sparing=range, 2 cylinders a range, 3 spares a range; 2 surfaces,
 * cylinders 0-4 of 10 sectors: ranges of 40 sectors (37 LBAs) at 0
 * and 40, and a short last one (cylinder 4, 20 sectors, no spares):
 * 37 + 37 + 20 = 94 LBAs.  Slips at 5 (range 0), 40 and 50 (range 1).
 */
START_TEST (test_range_slips)
{
  const char *const kv[] = {
    "zone-table=0-4:10:spares=3", "sparing=range", "sparing-range=2",
    "slips=0:50,0:5,0:40", NULL
  };
  const struct geom *g = geom_of (94, kv);

  at (g, 0, 0, 0, 0, 0, 5);     /* 5 LBAs before the slip */
  at (g, 4, 0, 0, 4, 4, 1);
  at (g, 5, 0, 0, 6, 6, 4);     /* skips sector 5 */
  /* LBA 36, the range's last: physical 36 + 1 = 37 = track 3
     (cylinder 1, head 1), sector 7; 38 and 39 are spares. */
  at (g, 36, 1, 1, 7, 7, 1);
  /* Range 1 from physical 40, slipped: LBA 37 at 41 (cylinder 2,
     head 0, sector 1), 9 of them up to the slip at 50. */
  at (g, 37, 2, 0, 1, 1, 9);
  /* LBA 46 (offset 9): past both slips, physical 51 = head 1, 1. */
  at (g, 46, 2, 1, 1, 1, 9);
  /* The last range: LBA 74 at physical 80 (cylinder 4). */
  at (g, 74, 4, 0, 0, 0, 10);
}
END_TEST

/* The ST32171W's zone 0 (barracuda.model): 1128 cylinders x 5
 * surfaces x 186 sectors, 88 spares in each range of 6 cylinders
 * (5580 sectors, 5492 LBAs), its first slip at physical 112508.
 * LBN 110747 = range 20 (from physical 111600), offset 907: physical
 * 112507 = track 604 (604 x 186 = 112344), sector 163 = cylinder 120,
 * head 4.  Slot: 37 x (4 + 4 x 120) + 52 x 120 + 163 = 24311 = 130 x
 * 186 + 131.  LBN 110748 skips the slip: sector 165, slot 133, and
 * runs to the track's end (21 sectors).
 */
START_TEST (test_barracuda_zone0)
{
  const char *const kv[] = {
    "zone-table=0-1127:186:ts=37:cs=52:spares=88", "surfaces=5",
    "sparing=range", "sparing-range=6",
    "slips=0:112508,0:113430,0:114351,0:303401,0:304322,0:305243,"
    "0:338539,0:339460,0:340452", NULL
  };
  const struct geom *g = geom_of (1032496, kv);

  at (g, 110747, 120, 4, 163, 131, 1);
  at (g, 110748, 120, 4, 165, 133, 21);
}
END_TEST

/* sparing=disk-end (slips push the rest of the zone on, no spares in
 * the zone): 1 surface, cylinders 0-9 of 10 sectors, 3 empty
 * positions, slips 7 and 8: 100 - 2 - 3 = 95 LBAs.
 */
START_TEST (test_slip_to_end)
{
  const char *const kv[] = {
    "zone-table=0-9:10:empty=3", "surfaces=1", "sparing=disk-end",
    "slips=0:7,0:8", NULL
  };
  const struct geom *g = geom_of (95, kv);

  ck_assert_uint_eq (g->zones[0].nsect, 95);
  at (g, 0, 0, 0, 3, 3, 4);     /* position 3, up to the slip at 7 */
  at (g, 3, 0, 0, 6, 6, 1);
  at (g, 4, 0, 0, 9, 9, 1);     /* position 7 -> physical 9 */
  at (g, 5, 1, 0, 0, 0, 10);
  at (g, 94, 9, 0, 9, 9, 1);
}
END_TEST

/* Slips turn later tracks in the per-cylinder and per-track schemes
 * (DiskSim's g1_map_pbn_skew), not in the others.
 */
START_TEST (test_slip_turns)
{
  /* sparing=cylinder, 2 spares a cylinder (18 LBAs), slip at 3.
     LBA 17, the cylinder's last: physical 18.  LBA 18: cylinder 1,
     sector 0, turned by the slip before the cylinder: slot 1. */
  const char *const cyl[] = {
    "zone-table=0-2:10:spares=2", "sparing=cylinder", "slips=0:3", NULL
  };
  /* sparing=track, 1 spare a track (9 LBAs), slip at 3: LBA 9 starts
     track 1 (head 1), turned by the slip on track 0. */
  const char *const trk[] = {
    "zone-table=0-1:10:spares=1", "sparing=track", "slips=0:3", NULL
  };
  /* sparing=zone: no turn. */
  const char *const zone[] = {
    "zone-table=0-2:10:spares=2", "sparing=zone", "slips=0:3", NULL
  };
  const struct geom *g = geom_of (54, cyl);

  at (g, 0, 0, 0, 0, 0, 3);
  at (g, 3, 0, 0, 4, 4, 6);
  at (g, 17, 0, 1, 8, 8, 1);
  at (g, 18, 1, 0, 0, 1, 10);
  g = geom_of (36, trk);
  at (g, 8, 0, 0, 9, 9, 1);
  at (g, 9, 0, 1, 0, 1, 9);
  g = geom_of (58, zone);
  /* LBA 19: physical 20 = cylinder 1, sector 0, not turned. */
  at (g, 19, 1, 0, 0, 0, 10);
  at (g, 20, 1, 0, 1, 1, 9);
}
END_TEST

/* The same turn in DiskSim's mapping as the importer computes it. */
START_TEST (test_ds_slip_turns)
{
  uint64_t slip = 3;
  struct ds_zone z = {
    .first_cyl = 0, .last_cyl = 2, .spt = 10, .spares = 2,
    .slips = &slip, .nslips = 1,
  };
  struct ds_layout l = {
    .mapping = DS_MAP_NORMAL, .sparing = DS_SPARE_PER_CYL, .rangesize = 1,
    .surfaces = 2, .cylinders = 3, .blocks = 54, .nzones = 1, .zones = &z,
  };
  struct ds_pbn p;
  char err[HDD_ERRLEN];

  ck_assert_msg (ds_layout_init (&l, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq (ds_layout_ltop (&l, 18, &p), 0);
  ck_assert_uint_eq (p.cyl, 1);
  ck_assert_uint_eq (p.slot, 1);
  ck_assert_int_eq (ds_layout_ltop (&l, 17, &p), 0);
  ck_assert_uint_eq (p.slot, 8);
}
END_TEST

/* ds_layout_init checks every slip, not only the first of its sparing
 * unit: 1 surface, 10 sectors, 5 spares a cylinder (cylinder 2 holds
 * data at 20-24, spares at 25-29); slip 28 is a spare.
 */
START_TEST (test_ds_second_slip_in_spares)
{
  uint64_t slips[] = { 22, 28 };
  struct ds_zone z = {
    .first_cyl = 0, .last_cyl = 2, .spt = 10, .spares = 5,
    .slips = slips, .nslips = 2, .slips_at = { "f.model", 3 },
  };
  struct ds_layout l = {
    .mapping = DS_MAP_NORMAL, .sparing = DS_SPARE_PER_CYL, .rangesize = 1,
    .surfaces = 1, .cylinders = 3, .blocks = 15, .nzones = 1, .zones = &z,
  };
  char err[HDD_ERRLEN];

  ck_assert_int_eq (ds_layout_init (&l, err, sizeof err), -1);
  ck_assert_msg (strstr (err, "f.model:3: slips: 28 is a spare sector"),
                 "%s", err);
}
END_TEST

/* Defects: the LBA that lands on a defect goes to its replacement,
 * alone; runs before it stop at it.
 */
START_TEST (test_defects)
{
  /* sparing=zone, 1 surface, cylinders 0-1 of 10 sectors, 2 spares
     (18, 19): 18 LBAs; defect 4 -> 18. */
  const char *const sect[] = {
    "zone-table=0-1:10:spares=2", "surfaces=1", "sparing=zone",
    "defects=0:4>18", NULL
  };
  /* sparing=tracks: 2 surfaces, cylinders 0-2, 2 spare tracks (4, 5):
     4 data tracks, 40 LBAs.  Track 1 slipped: LBA 10 on track 2; LBA
     30 on track 4, itself a defect replaced by track 5. */
  const char *const trk[] = {
    "zone-table=0-2:10:spares=2", "sparing=tracks", "slips=0:1",
    "defects=0:4>5", NULL
  };
  const struct geom *g = geom_of (18, sect);
  struct loc l;

  at (g, 3, 0, 0, 3, 3, 1);
  at (g, 4, 1, 0, 8, 8, 1);
  geom_locate (g, 4, &l);
  ck_assert (l.remapped);
  at (g, 5, 0, 0, 5, 5, 5);
  g = geom_of (40, trk);
  ck_assert_uint_eq (g->zones[0].nsect, 40);
  at (g, 9, 0, 0, 9, 9, 1);
  at (g, 10, 1, 0, 0, 0, 10);
  at (g, 39, 2, 1, 9, 9, 1);
  geom_locate (g, 39, &l);
  ck_assert (l.remapped);
}
END_TEST

/* A transfer passes a slipped sector: at 6000 rpm a 10-sector track
 * passes a sector a millisecond.  LBAs 4 and 5 of test_range_slips
 * lie on slots 4 and 6 of track 0: from t = 0 with the arm there, wait
 * 4 ms, read slot 4, pass slot 5, read slot 6: done at 7 ms, 3 ms of
 * transfer.
 */
START_TEST (test_walk_over_slip)
{
  const char *const kv[] = {
    "zone-table=0-4:10:spares=3", "sparing=range", "sparing-range=2",
    "slips=0:5", "rpm=6000", NULL
  };
  const struct geom *g = geom_of (94, kv);
  /* The walk stays on one track: no seek is ever timed, but the
     positioning rule is read from the curve. */
  static const struct seek_curve no_seek = { .rule = POSITION_HDDSIM };
  struct mech m = { .g = g, .seek = &no_seek };
  struct arm a = { 0, 0 };
  struct hdd_cost c = { 0 };

  ck_assert_uint_eq (mech_walk (&m, &a, false, 0, 4, 2, &c, NULL), 7 * MS);
  ck_assert_uint_eq (c.rot_ns, 4 * MS);
  ck_assert_uint_eq (c.xfer_ns, 3 * MS);
}
END_TEST

START_TEST (test_errors)
{
  const char *const no_spt[] = { "zone-table=0-3", NULL };
  const char *const bad_field[] = { "zone-table=0-3:10:tz=2", NULL };
  const char *const backwards[] = { "zone-table=5-3:10", NULL };
  const char *const huge[] = { "zone-table=0-100000001:10", NULL };
  const char *const huge_ts[] = { "zone-table=0-3:10:ts=1000000000001",
                                  NULL };
  const char *const overlap[] = { "zone-table=0-3:10,3-5:8", NULL };
  const char *const bad_slip[] = { "slips=0-5", NULL };
  const char *const no_zone[] = {
    "zone-table=0-3:10:spares=1", "sparing=zone", "slips=1:5", NULL
  };
  const char *const spare_slip[] = {
    "zone-table=0-3:10:spares=1", "sparing=track", "slips=0:9", NULL
  };
  const char *const two_slips[] = {
    "zone-table=0-3:10:spares=1", "sparing=track", "slips=0:2,0:4", NULL
  };
  const char *const no_spares[] = { "zone-table=0-3:10", "slips=0:2", NULL };
  const char *const serp[] = { "zone-table=0-3:10", "layout=serpentine",
                               NULL };
  const char *const alt[] = { "layout=alternate", NULL };
  const char *const defect[] = {
    "zone-table=0-3:10:spares=1", "sparing=zone", "defects=0:5>80", NULL
  };
  const char *const empty[] = { "zone-table=0-3:10:empty=80", NULL };

  refused (80, no_spt, "zone-table=: entry 1 (\"0-3\"): expected "
           "FIRST-LAST:SECTORS");
  refused (80, bad_field, "entry 1 (\"0-3:10:tz=2\")");
  refused (80, backwards, "entry 1 (\"5-3:10\")");
  refused (80, huge, "entry 1 (\"0-100000001:10\")");
  refused (80, huge_ts, "entry 1 (\"0-3:10:ts=1000000000001\")");
  refused (80, overlap, "zone-table=: zone 1 (cylinders 3-5, 8 sectors "
           "per track): starts at or before the end of zone 0 (cylinder 3)");
  refused (80, bad_slip, "slips=: entry 1 (\"0-5\"): expected ZONE:SECTOR");
  refused (79, no_zone, "slips=: entry 1 (1:5): zone-table= has 1 zones");
  refused (72, spare_slip, "slips=: zone 0 (cylinders 0-3, 10 sectors per "
           "track): slip 9 is a spare sector");
  refused (72, two_slips, "slip 4: more slips in its sparing unit than its "
           "1 spares");
  refused (80, no_spares, "slips=: needs spares, but sparing=none");
  refused (80, serp, "layout=serpentine: not with a zone-table=");
  refused (80, alt, "layout=alternate: needs a zone-table=");
  refused (79, defect, "defects=: zone 0 (cylinders 0-3, 10 sectors per "
           "track): defect 5>80 lies beyond the zone (the zone has 80 "
           "physical sectors)");
  refused (80, empty, "empty= is the whole zone or more");
}
END_TEST

/* More sectors than the zones hold. */
START_TEST (test_capacity)
{
  refused (109, two_zones, "zone-table=: the zones hold 108 sectors, "
           "fewer than capacity=55808 (109 sectors)");
}
END_TEST

/* The values print back as parameters that set them again. */
START_TEST (test_print_round_trip)
{
  const char *const kv[] = {
    "zone-table=0-3:10:spares=1:ts=2", "sparing=zone", "slips=0:5",
    "defects=0:7>79", NULL
  };
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream (&buf, &len);

  geom_of (79, kv);
  hdd_params_print_values (tparams, fp);
  fclose (fp);
  ck_assert_ptr_nonnull (strstr (buf, "zone-table=0-3:10:ts=2:cs=0:"
                                 "offset=0:empty=0:spares=1\n"));
  ck_assert_ptr_nonnull (strstr (buf, "slips=0:5\n"));
  ck_assert_ptr_nonnull (strstr (buf, "defects=0:7>79\n"));
  ck_assert_ptr_nonnull (strstr (buf, "sparing=zone\n"));
  free (buf);
}
END_TEST

/* An INI profile gives a long table over indented lines (libinih
 * reads lines of at most 200 characters): the pieces are joined with
 * ','.  Three zones, the third with its fields on the third line.
 */
START_TEST (test_ini_continuation)
{
  char dir[] = "/tmp/hddsim-test-layout-XXXXXX", path[64], cmd[96];
  char err[HDD_ERRLEN];
  struct hdd_params *p = hdd_params_new ();
  FILE *fp;

  ck_assert_ptr_nonnull (mkdtemp (dir));
  snprintf (path, sizeof path, "%s/z.ini", dir);
  fp = fopen (path, "w");
  ck_assert_ptr_nonnull (fp);
  fprintf (fp, "[drive]\nsurfaces = 2\ncapacity = 1M\n"
           "zone-table = 0-99:120:ts=20,\n"
           "  100-149:110\n"
           "\t150-199:100:ts=16:cs=25\n"
           "rpm = 6000\n");
  fclose (fp);
  ck_assert_msg (hdd_params_load_profile (p, path, err, sizeof err) == 0,
                 "%s", err);
  snprintf (cmd, sizeof cmd, "rm -rf %s", dir);
  ck_assert_int_eq (system (cmd), 0);
  ck_assert_uint_eq (p->nzt, 3);
  ck_assert_uint_eq (p->zt[0].track_skew, 20);
  ck_assert_uint_eq (p->zt[1].first_cyl, 100);
  ck_assert_uint_eq (p->zt[1].spt, 110);
  ck_assert_uint_eq (p->zt[2].last_cyl, 199);
  ck_assert_uint_eq (p->zt[2].cyl_skew, 25);
  ck_assert_uint_eq (p->rpm, 6000);
  hdd_params_free (p);
}
END_TEST

/* The real ST32171W (tests/data/disksim/barracuda.parv) through the
 * importer: no reason is left (none of the layout's), and the importer's
 * own check, the model's geometry against ds_layout_ltop at 65 LBNs a
 * zone and around every slip, finds nothing.
 */
START_TEST (test_barracuda_import)
{
  static const char *const layout_words[] = {
    "LBN ", "zone-table", "slips", "defects", "spares", "Empty space",
    "Offset of first", "Skew for", "mapping scheme", "the zones as", NULL
  };
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream (&buf, &len);
  unsigned i;

  ck_assert_int_eq (disksim_check_file ("tests/data/disksim/barracuda.parv",
                                        fp), 0);
  fclose (fp);
  for (i = 0; layout_words[i]; i++)
    ck_assert_msg (strstr (buf, layout_words[i]) == NULL, "\"%s\" in:\n%s",
                   layout_words[i], buf);
  free (buf);
}
END_TEST

/* The imported drive's geometry at the positions of
 * test_barracuda_zone0, and in zone 1 (cylinders 1129-2352, 185
 * sectors, from LBN 1032496): its first LBN is cylinder 1129, head 0,
 * sector 0, slot 0 (no offset).  The importer fills every field even
 * while other reasons (seek curve, cache) refuse the drive.
 */
START_TEST (test_barracuda_imported_geometry)
{
  char err[HDD_ERRLEN];
  struct ds_drive *d = ds_drive_load ("tests/data/disksim/barracuda.parv",
                                      err, sizeof err);
  struct hdd_params *p = hdd_params_new ();
  static struct geom g;

  ck_assert_msg (d != NULL, "%s", err);
  ds_drive_to_params (d, p, NULL, NULL, err, sizeof err);
  ds_drive_free (d);
  ck_assert_uint_eq (p->nzt, 11);
  ck_assert_int_eq (p->sparing, SPARE_RANGE);
  ck_assert_uint_eq (p->sparing_range, 6);
  ck_assert_uint_eq (p->nslips, 9 + 15 + 5 + 3);
  ck_assert_msg (geom_init (&g, p, err, sizeof err) == 0, "%s", err);
  at (&g, 110747, 120, 4, 163, 131, 1);
  at (&g, 110748, 120, 4, 165, 133, 21);
  at (&g, 1032496, 1129, 0, 0, 0, 185);
  hdd_params_free (p);
}
END_TEST

static Suite *
layout_suite (void)
{
  Suite *s = suite_create ("model-layout");
  TCase *tc = tcase_create ("layout");

  tcase_set_timeout (tc, 30);
  tcase_add_test (tc, test_zone_table);
  tcase_add_test (tc, test_alternate);
  tcase_add_test (tc, test_range_slips);
  tcase_add_test (tc, test_barracuda_zone0);
  tcase_add_test (tc, test_slip_to_end);
  tcase_add_test (tc, test_slip_turns);
  tcase_add_test (tc, test_ds_slip_turns);
  tcase_add_test (tc, test_ds_second_slip_in_spares);
  tcase_add_test (tc, test_defects);
  tcase_add_test (tc, test_walk_over_slip);
  tcase_add_test (tc, test_errors);
  tcase_add_test (tc, test_capacity);
  tcase_add_test (tc, test_print_round_trip);
  tcase_add_test (tc, test_ini_continuation);
  tcase_add_test (tc, test_barracuda_import);
  tcase_add_test (tc, test_barracuda_imported_geometry);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (layout_suite ());
}
