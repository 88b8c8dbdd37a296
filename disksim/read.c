/* hddsim: DiskSim 4.0 drive specifications -> struct ds_drive (what
 * DiskSim models of one disk), read from the tree of disksim_parv.c.
 *
 * Every key of the disk's own blocks (disksim_disk, dm_disk,
 * dm_layout_g1 and its zones, dm_mech_g1) is looked up in a table that
 * gives its type and bounds; an unknown key, a missing required one, a
 * value of the wrong type or out of bounds is an error naming the
 * file, the line and the key.  Of the other components only what
 * changes one disk's timing is kept (bus and controller transfer
 * times, controller delays, the driver's constant access time).
 */

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drive.h"

struct ctx {
  char *err;
  size_t errlen;
  bool failed;
};

static int
fail (struct ctx *c, struct dsp_where at, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

static int
fail (struct ctx *c, struct dsp_where at, const char *fmt, ...)
{
  va_list ap;
  size_t used;

  if (c->failed)
    return -1;
  c->failed = true;
  used = (size_t) snprintf (c->err, c->errlen, "%s:%u: ", at.file, at.line);
  if (used < c->errlen) {
    va_start (ap, fmt);
    vsnprintf (c->err + used, c->errlen - used, fmt, ap);
    va_end (ap);
  }
  return -1;
}

/* ---- key tables ---- */

enum kind { K_INT, K_NUM, K_STR, K_LIST, K_BLOCK, K_IGNORE };

struct spec {
  const char *name;
  enum kind kind;
  bool required;
  double min, max;
  ptrdiff_t off;                /* offsetof a struct ds_key, or -1 */
};

#define KEY(f) offsetof (struct ds_drive, f)
#define HDD_ERRLEN_DS 512
#define MS 10000.0              /* no overhead or delay above 10 s */
#define FLAG 0, 1
#define NONE (-1)

static const struct spec disk_specs[] = {
  { "Model", K_BLOCK, true, 0, 0, NONE },
  { "Scheduler", K_IGNORE, true, 0, 0, NONE },  /* ordering is sched= */
  { "Max queue length", K_INT, true, 0, 1e6, KEY (max_queue) },
  { "Bulk sector transfer time", K_NUM, true, 0, MS, KEY (bulk) },
  { "Segment size (in blks)", K_INT, true, 1, 1 << 24, KEY (seg_size) },
  { "Number of buffer segments", K_INT, true, 0, 1e4, KEY (segments) },
  { "Print stats", K_IGNORE, true, 0, 0, NONE },
  { "Per-request overhead time", K_NUM, true, 0, MS, KEY (per_request) },
  { "Time scale for overheads", K_NUM, true, 0, 1e3, KEY (overhead_scale) },
  { "Hold bus entire read xfer", K_INT, true, FLAG, KEY (hold_read) },
  { "Hold bus entire write xfer", K_INT, true, FLAG, KEY (hold_write) },
  { "Allow almost read hits", K_INT, true, FLAG, KEY (almost_hits) },
  { "Allow sneaky full read hits", K_INT, true, FLAG, KEY (sneaky_full) },
  { "Allow sneaky partial read hits", K_INT, true, FLAG,
    KEY (sneaky_partial) },
  { "Allow sneaky intermediate read hits", K_INT, true, FLAG,
    KEY (sneaky_inter) },
  { "Allow read hits on write data", K_INT, true, FLAG, KEY (hits_on_write) },
  { "Allow write prebuffering", K_INT, true, FLAG, KEY (prebuffer) },
  { "Preseeking level", K_INT, true, 0, 2, KEY (preseek) },
  { "Never disconnect", K_INT, true, FLAG, KEY (never_disc) },
  { "Avg sectors per cylinder", K_IGNORE, true, 0, 0, NONE },
  { "Maximum number of write segments", K_INT, true, 1, 1e4,
    KEY (write_segs) },
  { "Use separate write segment", K_INT, true, FLAG, KEY (sep_write_seg) },
  { "Low (write) water mark", K_NUM, true, 0, 1, KEY (low_wm) },
  { "High (read) water mark", K_NUM, true, 0, 1, KEY (high_wm) },
  { "Set watermark by reqsize", K_INT, true, FLAG, KEY (wm_by_req) },
  { "Calc sector by sector", K_IGNORE, true, 0, 0, NONE },
  { "Enable caching in buffer", K_INT, true, 0, 2, KEY (caching) },
  { "Buffer continuous read", K_INT, true, 0, 4, KEY (cont_read) },
  { "Minimum read-ahead (blks)", K_INT, true, 0, 1 << 24, KEY (ra_min) },
  { "Maximum read-ahead (blks)", K_INT, true, 0, 1 << 24, KEY (ra_max) },
  /* DiskSim also takes -1 (undocumented; refused by the mapping). */
  { "Read-ahead over requested", K_INT, true, -1, 1, KEY (ra_over) },
  { "Read-ahead on idle hit", K_INT, true, FLAG, KEY (ra_idle_hit) },
  { "Read any free blocks", K_INT, true, FLAG, KEY (read_any_free) },
  { "Fast write level", K_INT, true, 0, 2, KEY (fast_write) },
  { "Combine seq writes", K_INT, true, FLAG, KEY (combine) },
  { "Stop prefetch in sector", K_INT, true, FLAG, KEY (stop_pf_sector) },
  { "Disconnect write if seek", K_INT, true, FLAG, KEY (disc_write_seek) },
  { "Write hit stop prefetch", K_INT, true, FLAG, KEY (write_hit_stop_pf) },
  { "Read directly to buffer", K_INT, true, FLAG, KEY (read_direct) },
  { "Immed transfer partial hit", K_INT, true, FLAG, KEY (imm_partial) },
  { "Read hit over. after read", K_NUM, true, 0, MS, KEY (rhit_r) },
  { "Read hit over. after write", K_NUM, true, 0, MS, KEY (rhit_w) },
  { "Read miss over. after read", K_NUM, true, 0, MS, KEY (rmiss_r) },
  { "Read miss over. after write", K_NUM, true, 0, MS, KEY (rmiss_w) },
  { "Write hit over. after read", K_NUM, true, 0, MS, KEY (whit_r) },
  { "Write hit over. after write", K_NUM, true, 0, MS, KEY (whit_w) },
  { "Write miss over. after read", K_NUM, true, 0, MS, KEY (wmiss_r) },
  { "Write miss over. after write", K_NUM, true, 0, MS, KEY (wmiss_w) },
  { "Read completion overhead", K_NUM, true, 0, MS, KEY (rcompl) },
  { "Write completion overhead", K_NUM, true, 0, MS, KEY (wcompl) },
  { "Data preparation overhead", K_NUM, true, 0, MS, KEY (prep) },
  { "First reselect overhead", K_NUM, true, 0, MS, KEY (resel1) },
  { "Other reselect overhead", K_NUM, true, 0, MS, KEY (resel) },
  { "Read disconnect afterread", K_NUM, true, 0, MS, KEY (rdisc_r) },
  { "Read disconnect afterwrite", K_NUM, true, 0, MS, KEY (rdisc_w) },
  { "Write disconnect overhead", K_NUM, true, 0, MS, KEY (wdisc) },
  { "Extra write disconnect", K_INT, true, FLAG, KEY (extra_disc) },
  /* Used only with 'Extra write disconnect = 1', which is refused. */
  { "Extradisc command overhead", K_NUM, true, 0, MS, NONE },
  { "Extradisc disconnect overhead", K_NUM, true, 0, MS, NONE },
  { "Extradisc inter-disconnect delay", K_NUM, true, 0, MS, NONE },
  { "Extradisc 2nd disconnect overhead", K_NUM, true, 0, MS, NONE },
  { "Extradisc seek delta", K_NUM, true, 0, MS, NONE },
  { "Minimum seek delay", K_NUM, true, 0, MS, KEY (min_seek_delay) },
  { "Immediate buffer read", K_INT, true, 0, 2, KEY (imm_read) },
  { "Immediate buffer write", K_INT, true, 0, 2, KEY (imm_write) },
  { NULL },
};

static const struct spec dm_disk_specs[] = {
  { "Block count", K_INT, true, 1, 1e15, NONE },
  { "Number of data surfaces", K_INT, true, 1, 1024, NONE },
  { "Number of cylinders", K_INT, true, 1, 1e8, NONE },
  { "Mechanical Model", K_BLOCK, true, 0, 0, NONE },
  { "Layout Model", K_BLOCK, true, 0, 0, NONE },
  { NULL },
};

static const struct spec layout_specs[] = {
  { "LBN-to-PBN mapping scheme", K_INT, true, 0, 2, NONE },
  { "Sparing scheme used", K_INT, true, 0, 10, NONE },
  { "Rangesize for sparing", K_INT, true, 1, 1e8, NONE },
  { "Skew units", K_STR, false, 0, 0, NONE },
  { "Zones", K_LIST, true, 0, 0, NONE },
  { NULL },
};

static const struct spec zone_specs[] = {
  { "First cylinder number", K_INT, true, 0, 1e8, NONE },
  { "Last cylinder number", K_INT, true, 0, 1e8, NONE },
  { "Blocks per track", K_INT, true, 1, 1e6, NONE },
  { "Offset of first block", K_NUM, true, 0, 1e6, NONE },
  { "Skew units", K_STR, false, 0, 0, NONE },
  { "Empty space at zone front", K_INT, true, 0, 1e15, NONE },
  { "Skew for track switch", K_NUM, false, 0, 1e6, NONE },
  { "Skew for cylinder switch", K_NUM, false, 0, 1e6, NONE },
  { "Number of spares", K_INT, true, 0, 1e15, NONE },
  { "slips", K_LIST, true, 0, 0, NONE },
  { "defects", K_LIST, true, 0, 0, NONE },
  { NULL },
};

static const struct spec mech_specs[] = {
  { "Access time type", K_STR, true, 0, 0, NONE },
  { "Constant access time", K_NUM, false, 0, MS, NONE },
  { "Seek type", K_STR, true, 0, 0, NONE },
  { "Average seek time", K_NUM, false, 0, MS, NONE },
  { "Constant seek time", K_NUM, false, 0, MS, NONE },
  { "Single cylinder seek time", K_NUM, false, 0, MS, NONE },
  { "Full strobe seek time", K_NUM, false, 0, MS, NONE },
  { "Full seek curve", K_STR, false, 0, 0, NONE },
  { "Add. write settling delay", K_NUM, true, -MS, MS, KEY (write_settle) },
  { "Head switch time", K_NUM, true, 0, MS, KEY (head_switch) },
  { "Rotation speed (in rpms)", K_INT, true, 1, 1e6, KEY (rpm) },
  { "Percent error in rpms", K_NUM, true, 0, 100, KEY (rpm_error) },
  { "First ten seek times", K_LIST, false, 0, 0, NONE },
  { "HPL seek equation values", K_LIST, false, 0, 0, NONE },
  { NULL },
};

static const struct spec *
spec_find (const struct spec *t, const char *name)
{
  for (; t->name; t++)
    if (strcmp (t->name, name) == 0)
      return t;
  return NULL;
}

static const char *
kind_name (enum kind k)
{
  switch (k) {
  case K_INT: return "an integer";
  case K_NUM: return "a number";
  case K_STR: return "a word";
  case K_LIST: return "a list [ ... ]";
  case K_BLOCK: return "a block";
  case K_IGNORE: return "anything";
  }
  return "?";
}

static bool
kind_ok (enum kind k, const struct dsp_value *v)
{
  switch (k) {
  case K_INT: return v->kind == DSP_INT;
  case K_NUM: return v->kind == DSP_INT || v->kind == DSP_FLOAT;
  case K_STR: return v->kind == DSP_STRING;
  case K_LIST: return v->kind == DSP_LIST;
  case K_BLOCK: return v->kind == DSP_BLOCK;
  case K_IGNORE: return true;
  }
  return false;
}

/* Check every parameter of b against the table, and that the required
 * ones are there; store those with a ds_key field.
 */
static int
check_block (struct ctx *c, const struct dsp_block *b, const struct spec *t,
             struct ds_drive *d)
{
  const struct spec *s;
  size_t i;

  for (i = 0; i < b->n; i++) {
    const struct dsp_param *pa = &b->params[i];
    s = spec_find (t, pa->name);
    if (!s)
      return fail (c, pa->at, "'%s': not a parameter of %s", pa->name,
                   b->type);
    if (!kind_ok (s->kind, pa->v))
      return fail (c, pa->at, "%s: expected %s, found a %s", pa->name,
                   kind_name (s->kind), dsp_kind_name (pa->v->kind));
    if ((s->kind == K_INT || s->kind == K_NUM)
        && !(pa->v->d >= s->min && pa->v->d <= s->max))
      return fail (c, pa->at, "%s = %g: out of range [%g, %g]", pa->name,
                   pa->v->d, s->min, s->max);
    if (s->off != NONE && d) {
      struct ds_key *k = (struct ds_key *) ((char *) d + s->off);
      *k = (struct ds_key) { pa->v->d, pa->at, true };
    }
  }
  for (s = t; s->name; s++)
    if (s->required && !dsp_find (b, s->name))
      return fail (c, b->at, "%s %s: the required parameter '%s' is "
                   "missing", b->type, b->name ? b->name : "block",
                   s->name);
  return 0;
}

static const struct dsp_value *
val (const struct dsp_block *b, const char *name)
{
  const struct dsp_param *p = dsp_find (b, name);

  return p ? p->v : NULL;
}

static struct dsp_where
where (const struct dsp_block *b, const char *name)
{
  const struct dsp_param *p = dsp_find (b, name);

  return p ? p->at : b->at;
}

static const struct dsp_block *
sub_block (struct ctx *c, const struct dsp_block *b, const char *name,
           const char *type)
{
  const struct dsp_value *v = val (b, name);

  if (strcmp (v->b->type, type) != 0) {
    fail (c, v->at, "%s = %s: hddsim reads only %s blocks here", name,
          v->b->type, type);
    return NULL;
  }
  return v->b;
}

/* ---- layout ---- */

/* A list of non-negative integers into a fresh array. */
static int
int_list (struct ctx *c, const struct dsp_value *l, const char *name,
          uint64_t **out, size_t *n)
{
  size_t i;

  *n = l->n;
  *out = calloc (l->n ? l->n : 1, sizeof **out);
  if (!*out)
    return fail (c, l->at, "out of memory");
  for (i = 0; i < l->n; i++) {
    const struct dsp_value *v = l->items[i];
    if (v->kind != DSP_INT || v->i < 0)
      return fail (c, v->at, "%s: expected non-negative integers, found "
                   "a %s", name, dsp_kind_name (v->kind));
    (*out)[i] = (uint64_t) v->i;
  }
  return 0;
}

/* 'Skew units': sectors (the default) or revolutions; a block that
 * does not say keeps *revs.
 */
static int
skew_units (struct ctx *c, const struct dsp_block *b, bool *revs)
{
  const struct dsp_value *u = val (b, "Skew units");

  if (!u)
    return 0;
  if (strcmp (u->s, "sectors") == 0)
    *revs = false;
  else if (strcmp (u->s, "revolutions") == 0)
    *revs = true;
  else
    return fail (c, u->at, "Skew units = %s: expected sectors or "
                 "revolutions", u->s);
  return 0;
}

static int
load_zone (struct ctx *c, struct ds_layout *l, const struct dsp_value *v,
           bool revs, uint64_t prev_last, bool first)
{
  struct ds_zone *z = &l->zones[l->nzones];
  const struct dsp_block *b;
  double scale;
  uint64_t *pairs;
  size_t np, i;

  if (v->kind != DSP_BLOCK || strcmp (v->b->type, "dm_layout_g1_zone") != 0)
    return fail (c, v->at, "Zones: expected dm_layout_g1_zone blocks");
  b = v->b;
  if (check_block (c, b, zone_specs, NULL) == -1)
    return -1;
  z->at = b->at;
  z->first_cyl = (uint64_t) val (b, "First cylinder number")->i;
  z->last_cyl = (uint64_t) val (b, "Last cylinder number")->i;
  z->spt = (uint64_t) val (b, "Blocks per track")->i;
  if (skew_units (c, b, &revs) == -1)
    return -1;
  scale = revs ? (double) z->spt : 1;
  z->offset = val (b, "Offset of first block")->d * scale;
  z->track_skew = val (b, "Skew for track switch")
    ? val (b, "Skew for track switch")->d * scale : 0;
  z->cyl_skew = val (b, "Skew for cylinder switch")
    ? val (b, "Skew for cylinder switch")->d * scale : 0;
  z->deadspace = (uint64_t) val (b, "Empty space at zone front")->i;
  z->spares = (uint64_t) val (b, "Number of spares")->i;
  z->spt_at = where (b, "Blocks per track");
  z->offset_at = where (b, "Offset of first block");
  z->tskew_at = where (b, "Skew for track switch");
  z->cskew_at = where (b, "Skew for cylinder switch");
  z->dead_at = where (b, "Empty space at zone front");
  z->spares_at = where (b, "Number of spares");
  z->slips_at = where (b, "slips");
  z->defects_at = where (b, "defects");
  if (z->last_cyl < z->first_cyl)
    return fail (c, where (b, "Last cylinder number"), "zone cylinders %"
                 PRIu64 "..%" PRIu64 ": the last is before the first",
                 z->first_cyl, z->last_cyl);
  /* 'Number of cylinders' should cover every mapped cylinder; DiskSim
     does not check (the HP C2490A's last zone ends one beyond). */
  if (z->last_cyl >= l->cylinders)
    l->cylinders = z->last_cyl + 1;
  if (!first && z->first_cyl <= prev_last)
    return fail (c, where (b, "First cylinder number"), "First cylinder "
                 "number = %" PRIu64 ": zones must follow each other "
                 "outwards in (the previous zone ends at %" PRIu64 ")",
                 z->first_cyl, prev_last);
  l->nzones++;                  /* from here on, freed with the drive */
  pairs = NULL;
  if (int_list (c, val (b, "slips"), "slips", &z->slips, &z->nslips) == -1
      || int_list (c, val (b, "defects"), "defects", &pairs, &np) == -1) {
    free (pairs);
    return -1;
  }
  if (np % 2) {
    free (pairs);
    return fail (c, z->defects_at, "defects: %zu numbers; expected pairs "
                 "(defect, replacement)", np);
  }
  z->ndefects = np / 2;
  z->defect = calloc (z->ndefects + 1, sizeof *z->defect);
  z->remap = calloc (z->ndefects + 1, sizeof *z->remap);
  if (!z->defect || !z->remap) {
    free (pairs);
    return fail (c, b->at, "out of memory");
  }
  for (i = 0; i < z->ndefects; i++) {
    z->defect[i] = pairs[2 * i];
    z->remap[i] = pairs[2 * i + 1];
  }
  free (pairs);
  return 0;
}

static int
load_layout (struct ctx *c, struct ds_drive *d, const struct dsp_block *dm,
             const struct dsp_block *b)
{
  struct ds_layout *l = &d->layout;
  const struct dsp_value *zones;
  bool revs = false;
  size_t i;

  if (check_block (c, b, layout_specs, NULL) == -1)
    return -1;
  l->at = dm->at;
  l->blocks = (uint64_t) val (dm, "Block count")->i;
  l->surfaces = (uint64_t) val (dm, "Number of data surfaces")->i;
  l->cylinders = (uint64_t) val (dm, "Number of cylinders")->i;
  l->mapping = (int) val (b, "LBN-to-PBN mapping scheme")->i;
  l->sparing = (int) val (b, "Sparing scheme used")->i;
  l->rangesize = (uint64_t) val (b, "Rangesize for sparing")->i;
  if (skew_units (c, b, &revs) == -1)
    return -1;
  zones = val (b, "Zones");
  if (zones->n == 0 || zones->n > 4096)
    return fail (c, zones->at, "Zones: %zu zones (expected 1 to 4096)",
                 zones->n);
  l->zones = calloc (zones->n, sizeof *l->zones);
  if (!l->zones)
    return fail (c, zones->at, "out of memory");
  for (i = 0; i < zones->n; i++)
    if (load_zone (c, l, zones->items[i], revs,
                   i ? l->zones[i - 1].last_cyl : 0, i == 0) == -1)
      return -1;
  if (ds_layout_init (l, c->err, c->errlen) == -1) {
    c->failed = true;
    return -1;
  }
  return 0;
}

/* ---- mechanics ---- */

static const char *const seek_names[] = {
  "constant", "linear", "curve", "hpl", "hplplus10", "extracted", NULL,
};

/* A path named in a file: relative to that file's directory. */
static char *
relative_path (const char *from, const char *name)
{
  const char *slash = strrchr (from, '/');
  size_t dlen = slash && name[0] != '/' ? (size_t) (slash - from) + 1 : 0;
  char *p = malloc (dlen + strlen (name) + 1);

  if (p) {
    memcpy (p, from, dlen);
    strcpy (p + dlen, name);
  }
  return p;
}

static int
num_list (struct ctx *c, const struct dsp_block *b, const char *name,
          double *out, size_t n)
{
  const struct dsp_value *l = val (b, name);
  size_t i;

  if (!l)
    return fail (c, where (b, "Seek type"), "this seek type needs '%s'",
                 name);
  if (l->n != n)
    return fail (c, l->at, "%s: %zu values, expected %zu", name, l->n, n);
  for (i = 0; i < n; i++) {
    const struct dsp_value *v = l->items[i];
    if (v->kind != DSP_INT && v->kind != DSP_FLOAT)
      return fail (c, v->at, "%s: expected numbers", name);
    out[i] = v->d;
  }
  return 0;
}

static int
need_num (struct ctx *c, const struct dsp_block *b, const char *name,
          double *out)
{
  const struct dsp_value *v = val (b, name);

  if (!v)
    return fail (c, where (b, "Seek type"), "this seek type needs '%s'",
                 name);
  *out = v->d;
  return 0;
}

/* HPL: V1 a non-negative integer (cylinders), V2..V5 non-negative,
 * V6 non-negative or -1 (the manual, section 1.5.2).
 */
static int
check_hpl (struct ctx *c, const struct dsp_block *b, const double v[6])
{
  const struct dsp_value *l = val (b, "HPL seek equation values");
  int i;

  if (l->items[0]->kind != DSP_INT || v[0] < 0)
    return fail (c, l->at, "HPL seek equation values: V1 must be a "
                 "non-negative integer (cylinders)");
  for (i = 1; i < 5; i++)
    if (v[i] < 0 || v[i] > MS)
      return fail (c, l->at, "HPL seek equation values: V%d = %g must be "
                   "0 to %g ms", i + 1, v[i], MS);
  if (v[5] != -1 && (v[5] < 0 || v[5] > MS))
    return fail (c, l->at, "HPL seek equation values: V6 = %g must be "
                 "0 to %g ms, or -1", v[5], MS);
  return 0;
}

static int
load_seek (struct ctx *c, struct ds_drive *d, const struct dsp_block *b)
{
  struct ds_seek *s = &d->seek;
  const struct dsp_value *t = val (b, "Seek type");
  int i;

  s->at = t->at;
  s->cylinders = d->layout.cylinders;
  for (i = 0; seek_names[i]; i++)
    if (strcmp (t->s, seek_names[i]) == 0)
      break;
  if (!seek_names[i])
    return fail (c, t->at, "Seek type = %s: expected constant, linear, "
                 "curve, hpl, hplplus10 or extracted", t->s);
  s->type = i;
  switch (s->type) {
  case DS_SEEK_CONSTANT:
    return need_num (c, b, "Constant seek time", &s->constant);
  case DS_SEEK_LINEAR:
    return fail (c, t->at, "Seek type = linear: the manual does not say "
                 "at which distances its three points lie; use curve, "
                 "hpl or extracted");
  case DS_SEEK_CURVE:
    if (need_num (c, b, "Single cylinder seek time", &s->one) == -1
        || need_num (c, b, "Average seek time", &s->avg) == -1
        || need_num (c, b, "Full strobe seek time", &s->full) == -1)
      return -1;
    return 0;
  case DS_SEEK_HPLPLUS10:
    if (num_list (c, b, "First ten seek times", s->first10, 10) == -1)
      return -1;
    for (i = 0; i < 10; i++)
      if (s->first10[i] < 0 || s->first10[i] > MS)
        return fail (c, where (b, "First ten seek times"), "First ten "
                     "seek times: %g is not 0 to %g ms", s->first10[i], MS);
    /* fall through */
  case DS_SEEK_HPL:
    if (num_list (c, b, "HPL seek equation values", s->hpl, 6) == -1)
      return -1;
    return check_hpl (c, b, s->hpl);
  default: {                    /* DS_SEEK_EXTRACTED */
    const struct dsp_value *f = val (b, "Full seek curve");
    char *path;
    int r;
    if (!f)
      return fail (c, t->at, "Seek type = extracted needs 'Full seek "
                   "curve'");
    path = relative_path (f->at.file, f->s);
    if (!path)
      return fail (c, f->at, "out of memory");
    r = ds_seek_read_curve (s, path, c->err, c->errlen);
    free (path);
    if (r == -1) {
      char why[HDD_ERRLEN_DS];
      snprintf (why, sizeof why, "%s", c->err);
      return fail (c, f->at, "Full seek curve = %s: %s", f->s, why);
    }
    return r;
  }
  }
}

static int
load_mech (struct ctx *c, struct ds_drive *d, const struct dsp_block *b)
{
  const struct dsp_value *a = val (b, "Access time type");

  if (check_block (c, b, mech_specs, d) == -1)
    return -1;
  d->access_type.at = a->at;
  d->access_type.set = true;
  if (strcmp (a->s, "trackSwitchPlusRotation") == 0)
    d->access_type.v = 0;
  else if (strcmp (a->s, "averageRotation") == 0)
    d->access_type.v = 1;
  else if (strcmp (a->s, "constant") == 0)
    d->access_type.v = 2;
  else
    return fail (c, a->at, "Access time type = %s: expected constant, "
                 "averageRotation or trackSwitchPlusRotation", a->s);
  return load_seek (c, d, b);
}

/* ---- the disk and the other components ---- */

/* The bounds between keys that DiskSim checks. */
static int
check_cache (struct ctx *c, const struct ds_drive *d)
{
  if (d->ra_max.v > d->seg_size.v)
    return fail (c, d->ra_max.at, "Maximum read-ahead (blks) = %g: more "
                 "than the segment (%g blocks)", d->ra_max.v, d->seg_size.v);
  if (d->ra_min.v > d->seg_size.v)
    return fail (c, d->ra_min.at, "Minimum read-ahead (blks) = %g: more "
                 "than the segment (%g blocks)", d->ra_min.v, d->seg_size.v);
  if (d->write_segs.v > d->segments.v)
    return fail (c, d->write_segs.at, "Maximum number of write segments = "
                 "%g: more than the %g segments", d->write_segs.v,
                 d->segments.v);
  return 0;
}

static int
load_disk (struct ctx *c, struct ds_drive *d, const struct dsp_block *b)
{
  const struct dsp_block *dm, *mech, *layout;

  snprintf (d->name, sizeof d->name, "%s", b->name);
  if (check_block (c, b, disk_specs, d) == -1 || check_cache (c, d) == -1)
    return -1;
  dm = sub_block (c, b, "Model", "dm_disk");
  if (!dm || check_block (c, dm, dm_disk_specs, NULL) == -1)
    return -1;
  layout = sub_block (c, dm, "Layout Model", "dm_layout_g1");
  mech = sub_block (c, dm, "Mechanical Model", "dm_mech_g1");
  if (!layout || !mech)
    return -1;
  if (load_layout (c, d, dm, layout) == -1)
    return -1;
  return load_mech (c, d, mech);
}

/* The largest value of key over every top-level block of 'type'. */
static void
max_over (const struct dsp_tree *t, const char *type, const char *key,
          struct ds_key *k)
{
  size_t i;

  for (i = 0; i < t->n; i++) {
    const struct dsp_block *b = t->tops[i].b;
    const struct dsp_param *p;
    if (t->tops[i].kind != DSP_TOP_BLOCK || strcmp (b->type, type) != 0)
      continue;
    p = dsp_find (b, key);
    if (p && (p->v->kind == DSP_INT || p->v->kind == DSP_FLOAT)
        && (!k->set || p->v->d > k->v))
      *k = (struct ds_key) { p->v->d, p->at, true };
  }
}

static const struct dsp_block *
find_block (const struct dsp_tree *t, const char *name)
{
  size_t i;

  for (i = 0; i < t->n; i++)
    if (t->tops[i].kind == DSP_TOP_BLOCK && t->tops[i].b->name
        && strcmp (t->tops[i].b->name, name) == 0)
      return t->tops[i].b;
  return NULL;
}

/* The disk to model: the one instantiated disksim_disk type, or the
 * file's only disksim_disk block (a .diskspecs file).
 */
static const struct dsp_block *
choose_disk (struct ctx *c, const struct dsp_tree *t)
{
  const struct dsp_block *chosen = NULL, *only = NULL;
  size_t i, ndisks = 0;

  for (i = 0; i < t->n; i++) {
    const struct dsp_top *top = &t->tops[i];
    const struct dsp_block *b;
    if (top->kind == DSP_TOP_BLOCK) {
      if (strcmp (top->b->type, "disksim_disk") == 0) {
        only = top->b;
        ndisks++;
      }
      else if (strcmp (top->b->type, "disksim_simpledisk") == 0) {
        fail (c, top->at, "disksim_simpledisk %s: a fixed-access-time "
              "device, not a disk drive; use profile=fixed service=...",
              top->b->name);
        return NULL;
      }
      continue;
    }
    if (top->kind != DSP_TOP_INSTANTIATE)
      continue;
    b = find_block (t, top->as);
    if (!b || strcmp (b->type, "disksim_disk") != 0)
      continue;
    if (chosen && chosen != b) {
      fail (c, top->at, "instantiates two disk types (%s and %s); hddsim "
            "models one drive", chosen->name, b->name);
      return NULL;
    }
    chosen = b;
  }
  if (chosen)
    return chosen;
  if (ndisks == 1)
    return only;
  fail (c, (struct dsp_where) { t->path, 0 }, ndisks
        ? "several disksim_disk blocks and none instantiated: which one?"
        : "no disksim_disk block: not a DiskSim disk specification");
  return NULL;
}

void
ds_drive_free (struct ds_drive *d)
{
  unsigned i;

  if (!d)
    return;
  for (i = 0; i < d->layout.nzones; i++) {
    free (d->layout.zones[i].slips);
    free (d->layout.zones[i].defect);
    free (d->layout.zones[i].remap);
  }
  free (d->layout.zones);
  free (d->seek.dist);
  free (d->seek.ms);
  dsp_free (d->tree);
  free (d);
}

struct ds_drive *
ds_drive_load (const char *path, char *err, size_t errlen)
{
  struct ctx c = { err, errlen, false };
  struct dsp_tree *t = dsp_parse_file (path, err, errlen);
  struct ds_drive *d;
  const struct dsp_block *disk;

  if (!t)
    return NULL;
  d = calloc (1, sizeof *d);
  if (!d) {
    dsp_free (t);
    snprintf (err, errlen, "%s: out of memory", path);
    return NULL;
  }
  disk = choose_disk (&c, t);
  if (disk)
    load_disk (&c, d, disk);
  max_over (t, "disksim_bus", "Read block transfer time", &d->bus_xfer);
  max_over (t, "disksim_bus", "Write block transfer time", &d->bus_xfer);
  max_over (t, "disksim_ctlr", "Bulk sector transfer time", &d->ctlr_xfer);
  max_over (t, "disksim_ctlr", "Scale for delays", &d->ctlr_scale);
  max_over (t, "disksim_iodriver", "Constant access time",
            &d->driver_const);
  d->tree = t;                  /* error locations point into it */
  if (c.failed) {
    ds_drive_free (d);
    return NULL;
  }
  return d;
}
