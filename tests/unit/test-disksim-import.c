/* hddsim: unit tests of the DiskSim importer (model/disksim_*.c): the
 * LBN-to-physical mapping with spares, slips and defects against
 * positions worked out by hand, the seek functions, the mapping of a
 * hand-made drive (tests/data/disksim/tiny.*) into hddsim parameters,
 * and the refusals, each naming the file, line and key.
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <check.h>

#include "../../disksim/drive.h"
#include "../../model/hdd.h"
#include "../../model/geometry.h"
#include "../../model/inspect.h"
#include "../../model/params.h"
#include "../../profile/profile.h"
#include "test-units.h"
#include "run-suite.h"

#include "test-disksim-files.h"

static const char *const tiny_files[] = {
  "tiny.parv", "tiny.diskspecs", "models/tiny.model", "models/tiny.seek",
};

/* Copy the tiny drive into tmpdir, replacing 'from' by 'to' in 'file';
 * *line gets the line of the replaced text.  Returns the .parv path.
 */
static const char *
variant (const char *file, const char *from, const char *to, unsigned *line)
{
  static char parv[600];
  size_t i;

  for (i = 0; i < sizeof tiny_files / sizeof tiny_files[0]; i++) {
    char src[600], dst[600], *text = NULL, *hit;
    snprintf (src, sizeof src, DATA "%s", tiny_files[i]);
    snprintf (dst, sizeof dst, "%s/%s", tmpdir, tiny_files[i]);
    text = slurp (src);
    if (file && strcmp (file, tiny_files[i]) == 0) {
      char *out = malloc (strlen (text) + strlen (to) + 1);
      const char *c;
      hit = strstr (text, from);
      ck_assert_msg (hit != NULL, "'%s' not in %s", from, file);
      *line = 1;
      for (c = text; c < hit; c++)
        *line += *c == '\n';
      memcpy (out, text, (size_t) (hit - text));
      strcpy (out + (hit - text), to);
      strcat (out, hit + strlen (from));
      free (text);
      text = out;
    }
    spit (dst, text);
    free (text);
  }
  snprintf (parv, sizeof parv, "%s/tiny.parv", tmpdir);
  return parv;
}

/* ---- the LBN mapping ---- */

/* A one-zone layout: 2 surfaces, 10 sectors per track, cylinders
 * 0..3 (80 physical sectors), 'blocks' exported.
 */
static struct ds_layout
small_layout (int sparing, uint64_t spares, uint64_t blocks)
{
  static struct ds_zone z;
  struct ds_layout l = {
    .mapping = DS_MAP_NORMAL, .sparing = sparing, .rangesize = 1,
    .surfaces = 2, .cylinders = 4, .blocks = blocks, .nzones = 1,
    .zones = &z,
  };

  z = (struct ds_zone) {
    .first_cyl = 0, .last_cyl = 3, .spt = 10, .spares = spares,
  };
  return l;
}

static void
init_ok (struct ds_layout *l)
{
  char err[HDD_ERRLEN];

  ck_assert_msg (ds_layout_init (l, err, sizeof err) == 0, "%s", err);
}

static void
at (const struct ds_layout *l, uint64_t lbn, uint64_t cyl, uint64_t head,
    uint64_t sector)
{
  struct ds_pbn p;

  ck_assert_int_eq (ds_layout_ltop (l, lbn, &p), 0);
  ck_assert_msg (p.cyl == cyl && p.head == head && p.sector == sector,
                 "LBN %" PRIu64 " at (%" PRIu64 ",%" PRIu64 ",%" PRIu64
                 "), expected (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")", lbn,
                 p.cyl, p.head, p.sector, cyl, head, sector);
}

START_TEST (test_ltop_per_track_and_cylinder)
{
  uint64_t slip = 3, slip5 = 5, d = 5, r = 9;
  struct ds_layout l;

  /* Scheme 3, 1 spare per track: 9 LBNs a track, 16 x 9 = 144 ... of
     8 tracks = 72.  LBN 9 starts track 1 (head 1), 18 cylinder 1. */
  l = small_layout (DS_SPARE_PER_TRACK, 1, 72);
  init_ok (&l);
  ck_assert_uint_eq (l.zones[0].nlbn, 72);
  at (&l, 0, 0, 0, 0);
  at (&l, 8, 0, 0, 8);
  at (&l, 9, 0, 1, 0);
  at (&l, 18, 1, 0, 0);
  at (&l, 71, 3, 1, 8);
  /* A slip at sector 3 of track 0 moves LBNs 3..8 up by one, into the
     track's spare; track 1 does not move. */
  l.zones[0].slips = &slip;
  l.zones[0].nslips = 1;
  init_ok (&l);
  at (&l, 2, 0, 0, 2);
  at (&l, 3, 0, 0, 4);
  at (&l, 8, 0, 0, 9);
  at (&l, 9, 0, 1, 0);
  /* A remapped defect: sector 5 of track 0 replaced by sector 9. */
  l.zones[0].nslips = 0;
  l.zones[0].defect = &d;
  l.zones[0].remap = &r;
  l.zones[0].ndefects = 1;
  init_ok (&l);
  at (&l, 4, 0, 0, 4);
  at (&l, 5, 0, 0, 9);
  at (&l, 6, 0, 0, 6);

  /* Scheme 2, 2 spares per cylinder: 18 LBNs a cylinder. */
  l = small_layout (DS_SPARE_PER_CYL, 2, 72);
  init_ok (&l);
  at (&l, 10, 0, 1, 0);
  at (&l, 17, 0, 1, 7);
  at (&l, 18, 1, 0, 0);
  l.zones[0].slips = &slip5;
  l.zones[0].nslips = 1;
  init_ok (&l);
  at (&l, 4, 0, 0, 4);
  at (&l, 5, 0, 0, 6);
  at (&l, 17, 0, 1, 8);
  at (&l, 18, 1, 0, 0);

  /* Scheme 4 (slip to end): the same slip pushes every later LBN of
     the zone: LBN 17 lands on cylinder 1 (18 and 19 of cylinder 0 are
     spares), and the zone holds one LBN less. */
  l = small_layout (DS_SPARE_PER_CYL_SLIPTOEND, 2, 71);
  l.zones[0].slips = &slip5;
  l.zones[0].nslips = 1;
  init_ok (&l);
  ck_assert_uint_eq (l.zones[0].nlbn, 71);
  at (&l, 16, 0, 1, 7);
  at (&l, 17, 1, 0, 0);
  at (&l, 70, 3, 1, 7);
  ck_assert_int_eq (ds_layout_ltop (&l, 71, &(struct ds_pbn) { 0 }), -1);

  /* Scheme 5: the 2 spares at each cylinder's front. */
  l = small_layout (DS_SPARE_PER_CYL_FRONT, 2, 72);
  init_ok (&l);
  at (&l, 0, 0, 0, 2);
  at (&l, 17, 0, 1, 9);
  at (&l, 18, 1, 0, 2);
}
END_TEST

START_TEST (test_ltop_range_zone_disk_tracks)
{
  uint64_t slip50 = 50, slip10 = 10, slips_t[] = { 1 }, def_t = 3, rem_t = 7;
  struct ds_layout l;

  /* Scheme 8, ranges of 2 cylinders (40 sectors), 3 spares each. */
  l = small_layout (DS_SPARE_PER_RANGE, 3, 74);
  l.rangesize = 2;
  init_ok (&l);
  ck_assert_uint_eq (l.zones[0].nlbn, 74);
  at (&l, 36, 1, 1, 6);
  at (&l, 37, 2, 0, 0);
  /* Ranges of 3: 60 sectors (57 LBNs), then a short range of one
     cylinder that has no spares: 57 + 20 = 77. */
  l = small_layout (DS_SPARE_PER_RANGE, 3, 77);
  l.rangesize = 3;
  init_ok (&l);
  ck_assert_uint_eq (l.zones[0].nlbn, 77);
  at (&l, 56, 2, 1, 6);
  at (&l, 57, 3, 0, 0);
  at (&l, 76, 3, 1, 9);

  /* Scheme 9, 5 spares at the zone's end; a slip at 50 uses one. */
  l = small_layout (DS_SPARE_PER_ZONE, 5, 75);
  l.zones[0].slips = &slip50;
  l.zones[0].nslips = 1;
  init_ok (&l);
  ck_assert_uint_eq (l.zones[0].nlbn, 75);
  at (&l, 49, 2, 0, 9);
  at (&l, 50, 2, 1, 1);
  /* Scheme 10: the slip does not use the spares: one LBN fewer. */
  l = small_layout (DS_SPARE_PER_ZONE_SLIPTOEND, 5, 74);
  l.zones[0].slips = &slip50;
  l.zones[0].nslips = 1;
  init_ok (&l);
  ck_assert_uint_eq (l.zones[0].nlbn, 74);
  /* Scheme 7: spares at the disk's end, none in the zone. */
  l = small_layout (DS_SPARE_END_OF_DISK, 0, 79);
  l.zones[0].slips = &slip10;
  l.zones[0].nslips = 1;
  init_ok (&l);
  ck_assert_uint_eq (l.zones[0].nlbn, 79);
  at (&l, 9, 0, 0, 9);
  at (&l, 10, 0, 1, 1);

  /* Scheme 1: 1 spare track, track 1 slipped, track 3 remapped to the
     spare track 7: 7 tracks of data, 70 LBNs. */
  l = small_layout (DS_SPARE_TRACKS_PER_ZONE, 1, 70);
  l.zones[0].slips = slips_t;
  l.zones[0].nslips = 1;
  l.zones[0].defect = &def_t;
  l.zones[0].remap = &rem_t;
  l.zones[0].ndefects = 1;
  init_ok (&l);
  ck_assert_uint_eq (l.zones[0].nlbn, 70);
  at (&l, 9, 0, 0, 9);
  at (&l, 10, 1, 0, 0);        /* track 1 slipped: track 2 */
  at (&l, 20, 3, 1, 0);        /* track 3 remapped to track 7 */
  at (&l, 30, 2, 0, 0);        /* track 4 */
}
END_TEST

START_TEST (test_ltop_deadspace_serpentine_skew)
{
  struct ds_layout l;
  struct ds_pbn p;

  /* 15 positions of dead space at the zone's front. */
  l = small_layout (DS_SPARE_NONE, 0, 65);
  l.zones[0].deadspace = 15;
  init_ok (&l);
  ck_assert_uint_eq (l.zones[0].nlbn, 65);
  at (&l, 0, 0, 1, 5);
  /* Mapping scheme 1: odd cylinders of the zone run last surface first. */
  l = small_layout (DS_SPARE_NONE, 0, 80);
  l.mapping = DS_MAP_SERP_ZONE;
  init_ok (&l);
  at (&l, 10, 0, 1, 0);
  at (&l, 20, 1, 1, 0);
  at (&l, 30, 1, 0, 0);
  at (&l, 40, 2, 0, 0);
  /* Angles: offset 1, track skew 2, cylinder skew 3 (sectors). */
  l = small_layout (DS_SPARE_NONE, 0, 80);
  l.zones[0].offset = 1;
  l.zones[0].track_skew = 2;
  l.zones[0].cyl_skew = 3;
  init_ok (&l);
  ck_assert_int_eq (ds_layout_ltop (&l, 10, &p), 0);
  ck_assert_uint_eq (p.slot, 3);          /* 1 + 2 */
  ck_assert_int_eq (ds_layout_ltop (&l, 20, &p), 0);
  ck_assert_uint_eq (p.slot, 6);          /* 1 + 2 + 3 */
  ck_assert_int_eq (ds_layout_ltop (&l, 35, &p), 0);
  ck_assert_uint_eq (p.slot, 3);          /* (1 + 2*2 + 3 + 5) mod 10 */
}
END_TEST

START_TEST (test_layout_errors)
{
  uint64_t slips[] = { 2, 4 }, beyond = 80;
  struct ds_layout l;
  char err[HDD_ERRLEN];

  /* Two slips on a track with one spare. */
  l = small_layout (DS_SPARE_PER_TRACK, 1, 72);
  l.zones[0].slips = slips;
  l.zones[0].nslips = 2;
  l.zones[0].slips_at = (struct dsp_where) { "f.model", 7 };
  ck_assert_int_eq (ds_layout_init (&l, err, sizeof err), -1);
  ck_assert_ptr_nonnull (strstr (err, "f.model:7: slips: 2 slips"));
  /* A slip beyond the zone. */
  l = small_layout (DS_SPARE_PER_ZONE, 5, 75);
  l.zones[0].slips = &beyond;
  l.zones[0].nslips = 1;
  l.zones[0].slips_at = (struct dsp_where) { "f.model", 9 };
  ck_assert_int_eq (ds_layout_init (&l, err, sizeof err), -1);
  ck_assert_ptr_nonnull (strstr (err, "f.model:9: slips: 80 is beyond"));
  /* Fewer LBNs than Block count. */
  l = small_layout (DS_SPARE_PER_TRACK, 1, 73);
  l.at = (struct dsp_where) { "f.model", 1 };
  ck_assert_int_eq (ds_layout_init (&l, err, sizeof err), -1);
  ck_assert_ptr_nonnull (strstr (err, "f.model:1: Block count = 73, but "
                                 "the zones map only 72 LBNs"));
}
END_TEST

/* The real ST32171W: zone 0 is 1128 cylinders x 5 surfaces x 186
 * sectors = 1,049,040, less 88 spares in each of its 188 ranges of 6
 * cylinders = 1,032,496 LBNs.  Its first slip is physical sector
 * 112508: range 20 (from 111600), offset 908.  LBN 20 x 5492 + 907 =
 * 110747 lies just before it, at physical 112507 = cylinder 120,
 * offset 907 = head 4, sector 163; LBN 110748 skips the slip to
 * 112509 = head 4, sector 165.
 */
START_TEST (test_barracuda)
{
  char err[HDD_ERRLEN];
  struct ds_drive *d = ds_drive_load (DATA "barracuda.parv", err, sizeof err);
  struct hdd_params *p = hdd_params_new ();

  ck_assert_msg (d != NULL, "%s", err);
  ck_assert_str_eq (d->name, "SEAGATE_ST32171W");
  ck_assert_uint_eq (d->layout.nzones, 11);
  ck_assert_uint_eq (d->layout.zones[0].nlbn, 1032496);
  ck_assert_uint_eq (d->layout.zones[1].first_lbn, 1032496);
  /* zone 1: 1224 x 185 x 5 - 88 x 204 */
  ck_assert_uint_eq (d->layout.zones[1].nlbn, 1114248);
  at (&d->layout, 110747, 120, 4, 163);
  at (&d->layout, 110748, 120, 4, 165);
  ck_assert_uint_eq (d->seek.n, 87);
  ck_assert_double_eq_tol (ds_seek_ms (&d->seek, 11), (2.351 + 2.358) / 2,
                           1e-12);
  ck_assert_double_eq (d->rpm.v, 7200);
  ds_drive_free (d);
  /* Through the profile loader: it imports (fast writes:
     test-model-fastwrite.c). */
  ck_assert_msg (hdd_params_load_profile (p, DATA "barracuda.parv", err,
                                          sizeof err) == 0, "%s", err);
  hdd_params_free (p);
}
END_TEST

/* ---- seeks ---- */

START_TEST (test_seek_formulas)
{
  struct ds_seek s = { .type = DS_SEEK_CONSTANT, .constant = 3 };
  uint64_t dist[] = { 1, 10, 50 };
  double ms[] = { 1.0, 2.0, 4.0 };
  int i;

  ck_assert_double_eq (ds_seek_ms (&s, 0), 0);
  ck_assert_double_eq (ds_seek_ms (&s, 1), 3);
  ck_assert_double_eq (ds_seek_ms (&s, 5000), 3);
  /* HPL: V1 = 300, 3.75 + 0.33 sqrt(d) below, 7.69 + 0.0059 d from. */
  s = (struct ds_seek) { .type = DS_SEEK_HPL,
                         .hpl = { 300, 3.75, 0.33, 7.69, 0.0059, -1 } };
  ck_assert_double_eq_tol (ds_seek_ms (&s, 1), 4.08, 1e-12);
  ck_assert_double_eq_tol (ds_seek_ms (&s, 100), 7.05, 1e-12);
  ck_assert_double_eq_tol (ds_seek_ms (&s, 299), 3.75 + 0.33 * sqrt (299),
                           1e-12);
  ck_assert_double_eq_tol (ds_seek_ms (&s, 300), 9.46, 1e-12);
  s.hpl[5] = 2.0;               /* V6: the one-cylinder seek */
  ck_assert_double_eq (ds_seek_ms (&s, 1), 2.0);
  ck_assert_double_eq_tol (ds_seek_ms (&s, 4), 4.41, 1e-12);
  /* HPL plus the first ten. */
  s.type = DS_SEEK_HPLPLUS10;
  for (i = 0; i < 10; i++)
    s.first10[i] = 1 + i / 10.0;
  ck_assert_double_eq (ds_seek_ms (&s, 1), 1.0);
  ck_assert_double_eq_tol (ds_seek_ms (&s, 5), 1.4, 1e-12);
  ck_assert_double_eq_tol (ds_seek_ms (&s, 10), 1.9, 1e-12);
  ck_assert_double_eq_tol (ds_seek_ms (&s, 16), 3.75 + 0.33 * 4, 1e-12);
  /* Lee: min 1, avg 5, max 10 over 100 cylinders: a = 0.5, b = 0.04. */
  s = (struct ds_seek) { .type = DS_SEEK_CURVE, .one = 1, .avg = 5,
                         .full = 10, .cylinders = 100 };
  ck_assert_double_eq_tol (ds_seek_ms (&s, 1), 1, 1e-12);
  ck_assert_double_eq_tol (ds_seek_ms (&s, 50), 6.46, 1e-12);
  /* Extracted: at the points, linear between, extrapolated beyond. */
  s = (struct ds_seek) { .type = DS_SEEK_EXTRACTED, .n = 3, .dist = dist,
                         .ms = ms };
  ck_assert_double_eq (ds_seek_ms (&s, 1), 1.0);
  ck_assert_double_eq (ds_seek_ms (&s, 10), 2.0);
  ck_assert_double_eq_tol (ds_seek_ms (&s, 5), 1 + 4.0 / 9, 1e-12);
  ck_assert_double_eq_tol (ds_seek_ms (&s, 30), 3.0, 1e-12);
  ck_assert_double_eq_tol (ds_seek_ms (&s, 60), 4.5, 1e-12);
  /* A falling stretch is kept (DiskSim's atlas10k: 1.245 then 1.157). */
  ms[1] = 0.1;
  ck_assert_double_eq_tol (ds_seek_ms (&s, 4), 1 - 0.9 * 3 / 9, 1e-12);
}
END_TEST

static void
curve_fails (const char *text, unsigned line, const char *what)
{
  char path[600], err[HDD_ERRLEN], want[700];
  struct ds_seek s = { .type = DS_SEEK_EXTRACTED };

  snprintf (path, sizeof path, "%s/c.seek", tmpdir);
  spit (path, text);
  ck_assert_int_eq (ds_seek_read_curve (&s, path, err, sizeof err), -1);
  snprintf (want, sizeof want, "%s:%u: %s", path, line, what);
  ck_assert_msg (strncmp (err, want, strlen (want)) == 0, "'%s' is not '%s'",
                 err, want);
  free (s.dist);
  free (s.ms);
}

START_TEST (test_seek_curve_file)
{
  char path[600], err[HDD_ERRLEN];
  struct ds_seek s = { .type = DS_SEEK_EXTRACTED };

  snprintf (path, sizeof path, "%s/ok.seek", tmpdir);
  spit (path, "Seek distances measured: 3\n1,\t1.5\n\n2, 1.75, 0.01\n"
        "9, 3.0\n");
  ck_assert_int_eq (ds_seek_read_curve (&s, path, err, sizeof err), 0);
  ck_assert_uint_eq (s.n, 3);
  ck_assert_uint_eq (s.dist[2], 9);
  ck_assert_double_eq (s.ms[1], 1.75);
  free (s.dist);
  free (s.ms);
  /* Below a first point beyond 1 cylinder, from (0, 0), as DiskSim's
     reader has it: 1 of 4 cylinders to 2 ms is 0.5 ms. */
  spit (path, "Seek distances measured: 2\n4, 2.0\n8, 3.0\n");
  ck_assert_int_eq (ds_seek_read_curve (&s, path, err, sizeof err), 0);
  ck_assert_double_eq (ds_seek_ms (&s, 1), 0.5);
  ck_assert_double_eq (ds_seek_ms (&s, 6), 2.5);
  free (s.dist);
  free (s.ms);
  curve_fails ("Seek distances: 3\n", 1, "expected 'Seek distances "
               "measured: N'");
  curve_fails ("Seek distances measured: 2\n1, 1.0\n2 1.5\n", 3,
               "expected 'DISTANCE, MILLISECONDS'");
  curve_fails ("Seek distances measured: 2\n1, -1.0\n", 2,
               "expected 'DISTANCE, MILLISECONDS'");
  curve_fails ("Seek distances measured: 3\n1, 1.0\n5, 2\n5, 3\n", 4,
               "distances must increase");
  curve_fails ("Seek distances measured: 3\n1, 1.0\n3, 2\n", 3,
               "2 points, but 'Seek distances measured: 3'");
  curve_fails ("Seek distances measured: 1\n1, 1.0\n3, 2\n", 3,
               "more points than");
}
END_TEST

/* ---- the tiny drive ---- */

START_TEST (test_tiny_params)
{
  char err[HDD_ERRLEN];
  struct hdd_params *p = hdd_params_new ();
  const struct geom *g;
  struct hdd *d;
  struct hdd_cost c;
  struct io r = { IO_READ, false, 0, SECTOR };

  ck_assert_msg (hdd_params_load_profile (p, DATA "tiny.parv", err,
                                          sizeof err) == 0, "%s", err);
  ck_assert_str_eq (p->profile, "HDDSIM_TINY");
  ck_assert_uint_eq (p->capacity, 18000 * SECTOR);
  ck_assert_uint_eq (p->rpm, 6000);
  ck_assert_uint_eq (p->surfaces, 2);
  ck_assert_uint_eq (p->zones, 2);
  ck_assert_uint_eq (p->spt_outer, 100);
  ck_assert_uint_eq (p->spt_inner, 80);
  ck_assert_int_eq (p->layout, LAYOUT_CYLINDER);
  ck_assert_uint_eq (p->phase_zero, 1);  /* DiskSim starts at angle 0 */
  /* The zones as the file gives them, skews in sectors. */
  ck_assert_uint_eq (p->nzt, 2);
  ck_assert_uint_eq (p->zt[0].last_cyl, 49);
  ck_assert_uint_eq (p->zt[0].track_skew, 10);
  ck_assert_uint_eq (p->zt[0].cyl_skew, 20);
  ck_assert_uint_eq (p->zt[1].first_cyl, 50);
  ck_assert_uint_eq (p->zt[1].spt, 80);
  ck_assert_uint_eq (p->zt[1].track_skew, 8);
  ck_assert_uint_eq (p->zt[1].cyl_skew, 16);
  ck_assert_int_eq (p->sparing, SPARE_NONE);
  ck_assert_uint_eq (p->seek_npoints, 4);
  ck_assert_uint_eq (p->seek_dist[0], 1);
  ck_assert_uint_eq (p->seek_time[0], 1 * MS);
  ck_assert_uint_eq (p->seek_dist[3], 99);
  ck_assert_uint_eq (p->seek_time[3], 6 * MS);
  ck_assert_uint_eq (p->head_switch, MS / 2);
  ck_assert_uint_eq (p->write_settle, 0);
  ck_assert_uint_eq (p->iface_rate, 10240000);       /* 512 B / 0.05 ms */
  ck_assert_uint_eq (p->overhead, 50000);            /* per request */
  ck_assert_uint_eq (p->cmd_overhead[0][0][0], 200000);  /* read miss */
  ck_assert_int_eq (p->cache, CACHE_OFF);
  ck_assert_uint_eq (p->readahead, 0);
  /* The model builds DiskSim's zones. */
  d = hdd_new (p, 4 << 20, 1, err, sizeof err);
  ck_assert_msg (d != NULL, "%s", err);
  g = hdd_geom (d);
  ck_assert_uint_eq (g->nzones, 2);
  ck_assert_uint_eq (g->zones[1].first_cyl, 50);
  ck_assert_uint_eq (g->zones[1].first_lba, 10000);
  ck_assert_uint_eq (g->zones[1].track_skew, 8);
  ck_assert_uint_eq (g->zones[1].cyl_skew, 16);
  /* One sector read: overhead 0.25 ms; a sector passes in 10 ms / 100
     and crosses the interface in 512 B / 10,240,000 B/s = 50 us. */
  hdd_serve (d, &r, 0, &c);
  ck_assert_uint_eq (c.overhead_ns, 250000);
  /* (within 10 ns: DiskSim's fixed-point angles, dctl_mech.c) */
  ck_assert_msg (c.xfer_ns + 10 >= 150000 && c.xfer_ns <= 150000 + 10,
                 "transfer %" PRIu64 " ns", c.xfer_ns);
  ck_assert (!c.cache_hit);
  hdd_free (d);
  hdd_params_free (p);
}
END_TEST

START_TEST (test_diskspecs_alone)
{
  char err[HDD_ERRLEN];
  struct hdd_params *p = hdd_params_new ();

  /* A .diskspecs holds one disksim_disk block and no instantiation. */
  ck_assert_msg (hdd_params_load_profile (p, DATA "tiny.diskspecs", err,
                                          sizeof err) == 0, "%s", err);
  ck_assert_uint_eq (p->overhead + p->cmd_overhead[0][0][0], 250000);
  hdd_params_free (p);
}
END_TEST

/* ---- refusals ---- */

struct collect {
  char msgs[64][512];
  unsigned n;
};

static void
collect (const char *why, void *opaque)
{
  struct collect *c = opaque;

  if (c->n < 64)
    snprintf (c->msgs[c->n++], sizeof c->msgs[0], "%s", why);
}

/* Loading the variant fails (file:line: what) or maps with a reason
 * starting "file:line: what" among the others.
 */
static void
refused_at (const char *file, const char *from, const char *to,
            const char *line_of, const char *what)
{
  static struct collect c;
  char err[HDD_ERRLEN], want[1200];
  unsigned line = 0, i;
  const char *parv = variant (file, from, to, &line);

  if (line_of) {                /* the reason is given at another line */
    char src[600], *text, *hit, *q;
    snprintf (src, sizeof src, "%s/%s", tmpdir, file);
    text = slurp (src);
    hit = strstr (text, line_of);
    ck_assert_ptr_nonnull (hit);
    for (line = 1, q = text; q < hit; q++)
      line += *q == '\n';
    free (text);
  }
  struct ds_drive *d = ds_drive_load (parv, err, sizeof err);
  struct hdd_params p;

  snprintf (want, sizeof want, "%s/%s:%u: %s", tmpdir, file, line, what);
  if (!d) {
    ck_assert_msg (strncmp (err, want, strlen (want)) == 0,
                   "load error '%s' is not '%s'", err, want);
    return;
  }
  c.n = 0;
  ck_assert_int_eq (ds_drive_to_params (d, &p, collect, &c, err,
                                        sizeof err), -1);
  ds_drive_free (d);
  for (i = 0; i < c.n; i++)
    if (strncmp (c.msgs[i], want, strlen (want)) == 0)
      return;
  ck_abort_msg ("no reason '%s'; the first: %s", want, err);
}

static void
refused (const char *file, const char *from, const char *to,
         const char *what)
{
  refused_at (file, from, to, NULL, what);
}

START_TEST (test_refusals)
{
  /* Keys the model cannot express. */
  /* (The per-command and completion overheads and a bus slower than
     the media import: test-model-overheads.c.) */
  /* (Data preparation overhead imports: test_scsi_overheads.) */
  /* A negative settle beyond the shortest positioning (the 0.5 ms
     head switch; the shortest seek is 1 ms). */
  refused ("models/tiny.model", "Add. write settling delay = 0.0",
           "Add. write settling delay = -0.6",
           "Add. write settling delay = -0.6 ms: more negative than the "
           "shortest positioning (0.500000 ms)");
  refused ("models/tiny.model", "Percent error in rpms = 0.0",
           "Percent error in rpms = 1", "Percent error in rpms = 1: a "
           "randomly drawn speed is not modelled");
  /* Mapping schemes, per-zone skews, any zone table and offsets
     import (test-model-layout.c); fractional angles do not. */
  refused ("models/tiny.model", "Offset of first block = 0.0",
           "Offset of first block = 3.5", "Offset of first block = 3.5 "
           "(zone 1): hddsim's zone-table= takes whole sectors");
  refused ("models/tiny.model", "Skew for track switch = 8.0",
           "Skew for track switch = 5.5", "Skew for track switch = 5.5 "
           "sectors (zone 1): hddsim skews by whole sectors");
  refused ("tiny.parv", "Scale for delays = 0.0", "Scale for delays = 1.0",
           "Scale for delays = 1: controller overheads are not modelled");
  refused ("tiny.diskspecs", "Fast write level = 0", "Fast write level = 1",
           "Fast write level = 1: write-back without caching");
  /* (Immediate buffer read/write import: test-model-zerolat.c.) */
  refused ("models/tiny.model", "Access time type = trackSwitchPlusRotation",
           "Access time type = averageRotation",
           "Access time type = averageRotation: hddsim models seeks");
  /* Values DiskSim itself refuses, or that break the drive. */
  refused ("tiny.diskspecs", "Max queue length = 1", "Max queue length = one",
           "Max queue length: expected an integer, found a string");
  refused ("tiny.diskspecs", "Time scale for overheads = 1.0",
           "Time scale for overheads = -1.0",
           "Time scale for overheads = -1: out of range");
  refused ("tiny.diskspecs", "Maximum read-ahead (blks) = 0",
           "Maximum read-ahead (blks) = 65", "Maximum read-ahead (blks) = "
           "65: more than the segment (64 blocks)");
  refused ("tiny.diskspecs", "  Print stats = 1,\n", "  Frobnicate = 1,\n",
           "'Frobnicate': not a parameter of disksim_disk");
  refused_at ("tiny.diskspecs", "  Print stats = 1,",
              "  Max queue length = 2,", "  Max queue length = 1",
              "'Max queue length' set twice in this block (first at line");
  refused ("models/tiny.model", "Seek type = extracted",
           "Seek type = linear", "Seek type = linear: the manual does not "
           "say");
  refused ("models/tiny.model", "Seek type = extracted", "Seek type = hpl",
           "this seek type needs 'HPL seek equation values'");
  refused_at ("models/tiny.model", "Empty space at zone front = 0",
              "Empty space at zone front = 10", "dm_disk HDDSIM_TINY_model",
              "Block count = 18000, but the zones map only 17990 LBNs");
  refused ("models/tiny.model", "slips = [],", "slips = [ 4 ],",
           "slips and defects need spares");
  refused ("models/tiny.model", "defects = []\n      },\n      dm",
           "defects = [ 1 ]\n      },\n      dm",
           "defects: 1 numbers; expected pairs");
  refused ("models/tiny.model", "Full seek curve = tiny.seek",
           "Full seek curve = none.seek", "Full seek curve = none.seek: ");
}
END_TEST

START_TEST (test_missing_and_choice)
{
  char err[HDD_ERRLEN], path[600];
  unsigned line;
  const char *parv;
  struct ds_drive *d;

  /* A required key missing: the error names the block. */
  parv = variant ("tiny.diskspecs", "  Print stats = 1,\n", "", &line);
  d = ds_drive_load (parv, err, sizeof err);
  ck_assert_ptr_null (d);
  snprintf (path, sizeof path, "%s/tiny.diskspecs:1: disksim_disk "
            "HDDSIM_TINY: the required parameter 'Print stats' is missing",
            tmpdir);
  ck_assert_str_eq (err, path);
  /* Two disk types instantiated. */
  parv = variant ("tiny.parv", "instantiate [ driver0 ]",
                  "disksim_disk OTHER { }\n"
                  "instantiate [ disk1 ] as OTHER\n"
                  "instantiate [ driver0 ]", &line);
  ck_assert_ptr_null (ds_drive_load (parv, err, sizeof err));
  ck_assert_msg (strstr (err, "instantiates two disk types (HDDSIM_TINY "
                         "and OTHER); hddsim models one drive") != NULL,
                 "%s", err);
  /* No disk at all. */
  snprintf (path, sizeof path, "%s/none.parv", tmpdir);
  spit (path, "disksim_bus B { type = 1 }\n");
  ck_assert_ptr_null (ds_drive_load (path, err, sizeof err));
  ck_assert_msg (strstr (err, "no disksim_disk block") != NULL, "%s", err);
  /* The listing of every reason. */
  {
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream (&buf, &len);
    ck_assert_int_eq (disksim_check_file (DATA "tiny.parv", fp), 0);
    /* Nothing is left of barracuda (its fast write level last). */
    ck_assert_int_eq (disksim_check_file (DATA "barracuda.parv", fp), 0);
    fclose (fp);
    ck_assert_ptr_null (strstr (buf, DATA "barracuda."));
    free (buf);
  }
}
END_TEST

/* A table from a formula is the formula at its points and within
 * 0.5 us of it at every distance between (and never a point more than
 * the model holds).  HPL with V1 = 0 is one straight line from 2 on:
 * points 1 (V6), 2 and 99 exactly.
 */
START_TEST (test_formula_tables)
{
  char err[HDD_ERRLEN];
  unsigned line;
  const char *parv;
  struct ds_drive *d;
  struct hdd_params p;
  uint64_t x;
  unsigned i;

  parv = variant ("models/tiny.model", "Seek type = extracted",
                  "Seek type = hpl,\n    HPL seek equation values = "
                  "[ 0, 3.75, 0.33, 7.69, 0.0059, 2.0 ]", &line);
  d = ds_drive_load (parv, err, sizeof err);
  ck_assert_msg (d != NULL, "%s", err);
  ck_assert_msg (ds_drive_to_params (d, &p, NULL, NULL, err, sizeof err)
                 == 0, "%s", err);
  ck_assert_uint_eq (p.seek_npoints, 3);
  ck_assert_uint_eq (p.seek_dist[0], 1);
  ck_assert_uint_eq (p.seek_time[0], 2000000);
  ck_assert_uint_eq (p.seek_dist[1], 2);
  ck_assert_uint_eq (p.seek_time[1], 7701800);
  ck_assert_uint_eq (p.seek_dist[2], 99);
  ck_assert_uint_eq (p.seek_time[2], 8274100);
  ds_drive_free (d);
  /* Lee's curve: whatever points it takes, the property holds. */
  parv = variant ("models/tiny.model", "Seek type = extracted",
                  "Seek type = curve,\n    Average seek time = 3.0",
                  &line);
  d = ds_drive_load (parv, err, sizeof err);
  ck_assert_msg (d != NULL, "%s", err);
  ck_assert_msg (ds_drive_to_params (d, &p, NULL, NULL, err, sizeof err)
                 == 0, "%s", err);
  ck_assert_uint_le (p.seek_npoints, SEEK_TABLE_MAX);
  for (i = 0; i + 1 < p.seek_npoints; i++) {
    uint64_t a = p.seek_dist[i], b = p.seek_dist[i + 1];
    for (x = a; x <= b; x++) {
      double line_ns = (double) p.seek_time[i]
        + ((double) p.seek_time[i + 1] - (double) p.seek_time[i])
          * (double) (x - a) / (double) (b - a);
      ck_assert_double_le (fabs (line_ns - ds_seek_ms (&d->seek, x) * 1e6),
                           500.5);
    }
  }
  ck_assert_uint_eq (p.seek_dist[p.seek_npoints - 1], 99);
  ds_drive_free (d);
}
END_TEST

/* ---- seek curves and settles (test-model-seek.c has the model) ---- */

/* The tiny drive with one change maps without a reason. */
static void
maps (const char *file, const char *from, const char *to,
      struct hdd_params *p)
{
  char err[HDD_ERRLEN];
  unsigned line;
  struct ds_drive *d = ds_drive_load (variant (file, from, to, &line), err,
                                      sizeof err);

  ck_assert_msg (d != NULL, "%s", err);
  ck_assert_msg (ds_drive_to_params (d, p, NULL, NULL, err, sizeof err) == 0,
                 "%s: %s", to, err);
  ds_drive_free (d);
}

START_TEST (test_seek_and_settle_map)
{
  static struct collect c;
  static struct hdd_params p;
  char err[HDD_ERRLEN];
  struct ds_drive *d = ds_drive_load (DATA "barracuda.parv", err,
                                      sizeof err);
  unsigned i;

  /* barracuda: 87 points, falling from 1.956 ms (2 cyl) to 1.933 ms
     (3 cyl), last 4986 cyl 16.679 ms; it imports. */
  ck_assert_msg (d != NULL, "%s", err);
  c.n = 0;
  ck_assert_msg (ds_drive_to_params (d, &p, collect, &c, err,
                                     sizeof err) == 0, "%s", err);
  ds_drive_free (d);
  for (i = 0; i < c.n; i++)
    ck_assert_msg (!strstr (c.msgs[i], "Seek") && !strstr (c.msgs[i], "seek")
                   && !strstr (c.msgs[i], "settling")
                   && !strstr (c.msgs[i], "Head switch"), "%s", c.msgs[i]);
  ck_assert_uint_eq (p.seek_npoints, 87);
  ck_assert_uint_eq (p.seek_time[1], 1956000);
  ck_assert_uint_eq (p.seek_time[2], 1933000);
  ck_assert_uint_eq (p.seek_dist[86], 4986);
  ck_assert_uint_eq (p.seek_time[86], 16679000);
  ck_assert_int_eq (p.position_rule, POSITION_DISKSIM);
  ck_assert_uint_eq (p.head_switch, 100000);

  /* A negative settle is write-settle-neg. */
  maps ("models/tiny.model", "Add. write settling delay = 0.0",
        "Add. write settling delay = -0.3", &p);
  ck_assert_uint_eq (p.write_settle_neg, 300000);
  ck_assert_uint_eq (p.write_settle, 0);
  ck_assert_int_eq (p.position_rule, POSITION_DISKSIM);
  /* A positive one, with two surfaces (settling after a head switch). */
  maps ("models/tiny.model", "Add. write settling delay = 0.0",
        "Add. write settling delay = 0.3", &p);
  ck_assert_uint_eq (p.write_settle, 300000);
  ck_assert_uint_eq (p.write_settle_neg, 0);
  /* A head switch longer than the 1 ms one-cylinder seek. */
  maps ("models/tiny.model", "Head switch time = 0.5",
        "Head switch time = 1.5", &p);
  ck_assert_uint_eq (p.head_switch, 1500000);
  /* A falling curve: 1 ms at 1 cyl, 0.9 ms at 10. */
  maps ("models/tiny.seek", "10, 2.0", "10, 0.9", &p);
  ck_assert_uint_eq (p.seek_time[1], 900000);
}
END_TEST

/* DiskSim's controller keys import as they are (ns, millionths),
 * each one changed alone on the tiny drive.
 */
START_TEST (test_scsi_overheads)
{
  static struct hdd_params p;

  maps ("tiny.diskspecs", "Data preparation overhead = 0.0",
        "Data preparation overhead = 0.1", &p);
  ck_assert_uint_eq (p.ds.data_prep, 100000);
  ck_assert_int_eq (p.controller, CTLR_DISKSIM);
  maps ("tiny.diskspecs", "First reselect overhead = 0.0",
        "First reselect overhead = 0.02", &p);
  ck_assert_uint_eq (p.ds.resel_first, 20000);
  maps ("tiny.diskspecs", "Read disconnect afterwrite = 0.0",
        "Read disconnect afterwrite = 0.3", &p);
  ck_assert_uint_eq (p.ds.disc_read_aw, 300000);
  maps ("tiny.diskspecs", "Low (write) water mark = 0.0",
        "Low (write) water mark = 0.25", &p);
  ck_assert_uint_eq (p.ds.water_write, 250000);
  maps ("tiny.diskspecs", "Extradisc 2nd disconnect overhead = 0.0",
        "Extradisc 2nd disconnect overhead = 0.04", &p);
  ck_assert_uint_eq (p.ds.xd_disc2, 40000);
  maps ("tiny.diskspecs", "Minimum seek delay = 0.0",
        "Minimum seek delay = 0.5", &p);
  ck_assert_uint_eq (p.ds.min_seek, 500000);
}
END_TEST

static Suite *
import_suite (void)
{
  Suite *s = suite_create ("disksim-import");
  TCase *tc = tcase_create ("import");

  /* Valgrind on a shared 2-core machine: seconds per test. */
  tcase_set_timeout (tc, 60);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_ltop_per_track_and_cylinder);
  tcase_add_test (tc, test_ltop_range_zone_disk_tracks);
  tcase_add_test (tc, test_ltop_deadspace_serpentine_skew);
  tcase_add_test (tc, test_layout_errors);
  tcase_add_test (tc, test_barracuda);
  tcase_add_test (tc, test_seek_formulas);
  tcase_add_test (tc, test_seek_curve_file);
  tcase_add_test (tc, test_tiny_params);
  tcase_add_test (tc, test_diskspecs_alone);
  tcase_add_test (tc, test_refusals);
  tcase_add_test (tc, test_missing_and_choice);
  tcase_add_test (tc, test_formula_tables);
  tcase_add_test (tc, test_seek_and_settle_map);
  tcase_add_test (tc, test_scsi_overheads);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (import_suite ());
}
