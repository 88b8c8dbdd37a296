/* hddsim: DiskSim's dm_layout_g1 block and its zones into struct
 * ds_layout (layout_g1.h), which ds_layout_init then completes.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "read.h"

static const struct read_spec layout_specs[] = {
  { "LBN-to-PBN mapping scheme", K_INT, true, 0, 2, NONE },
  { "Sparing scheme used", K_INT, true, 0, 10, NONE },
  { "Rangesize for sparing", K_INT, true, 1, 1e8, NONE },
  { "Skew units", K_STR, false, 0, 0, NONE },
  { "Zones", K_LIST, true, 0, 0, NONE },
  { NULL },
};

static const struct read_spec zone_specs[] = {
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

/* A list of non-negative integers into a fresh array. */
static int
int_list (struct read_ctx *c, const struct dsp_value *l, const char *name,
          uint64_t **out, size_t *n)
{
  size_t i;

  *n = l->n;
  *out = calloc (l->n ? l->n : 1, sizeof **out);
  if (!*out)
    return read_fail (c, l->at, "out of memory");
  for (i = 0; i < l->n; i++) {
    const struct dsp_value *v = l->items[i];
    if (v->kind != DSP_INT || v->i < 0)
      return read_fail (c, v->at, "%s: expected non-negative integers, found "
                        "a %s", name, dsp_kind_name (v->kind));
    (*out)[i] = (uint64_t) v->i;
  }
  return 0;
}

/* 'Skew units': sectors (the default) or revolutions; a block that
 * does not say keeps *revs.
 */
static int
skew_units (struct read_ctx *c, const struct dsp_block *b, bool *revs)
{
  const struct dsp_value *u = read_val (b, "Skew units");

  if (!u)
    return 0;
  if (strcmp (u->s, "sectors") == 0)
    *revs = false;
  else if (strcmp (u->s, "revolutions") == 0)
    *revs = true;
  else
    return read_fail (c, u->at, "Skew units = %s: expected sectors or "
                      "revolutions", u->s);
  return 0;
}

static int
load_zone (struct read_ctx *c, struct ds_layout *l, const struct dsp_value *v,
           bool revs, uint64_t prev_last, bool first)
{
  struct ds_zone *z = &l->zones[l->nzones];
  const struct dsp_block *b;
  double scale;
  uint64_t *pairs;
  size_t np, i;

  if (v->kind != DSP_BLOCK || strcmp (v->b->type, "dm_layout_g1_zone") != 0)
    return read_fail (c, v->at, "Zones: expected dm_layout_g1_zone blocks");
  b = v->b;
  if (read_check_block (c, b, zone_specs, NULL) == -1)
    return -1;
  z->at = b->at;
  z->first_cyl = (uint64_t) read_val (b, "First cylinder number")->i;
  z->last_cyl = (uint64_t) read_val (b, "Last cylinder number")->i;
  z->spt = (uint64_t) read_val (b, "Blocks per track")->i;
  if (skew_units (c, b, &revs) == -1)
    return -1;
  scale = revs ? (double) z->spt : 1;
  z->offset = read_val (b, "Offset of first block")->d * scale;
  z->track_skew = read_val (b, "Skew for track switch")
    ? read_val (b, "Skew for track switch")->d * scale : 0;
  z->cyl_skew = read_val (b, "Skew for cylinder switch")
    ? read_val (b, "Skew for cylinder switch")->d * scale : 0;
  z->deadspace = (uint64_t) read_val (b, "Empty space at zone front")->i;
  z->spares = (uint64_t) read_val (b, "Number of spares")->i;
  z->spt_at = read_where (b, "Blocks per track");
  z->offset_at = read_where (b, "Offset of first block");
  z->tskew_at = read_where (b, "Skew for track switch");
  z->cskew_at = read_where (b, "Skew for cylinder switch");
  z->dead_at = read_where (b, "Empty space at zone front");
  z->spares_at = read_where (b, "Number of spares");
  z->slips_at = read_where (b, "slips");
  z->defects_at = read_where (b, "defects");
  if (z->last_cyl < z->first_cyl)
    return read_fail (c, read_where (b, "Last cylinder number"),
                      "zone cylinders %" PRIu64 "..%" PRIu64 ": the last is "
                      "before the first", z->first_cyl, z->last_cyl);
  /* 'Number of cylinders' should cover every mapped cylinder; DiskSim
     does not check (the HP C2490A's last zone ends one beyond). */
  if (z->last_cyl >= l->cylinders)
    l->cylinders = z->last_cyl + 1;
  if (!first && z->first_cyl <= prev_last)
    return read_fail (c, read_where (b, "First cylinder number"),
                      "First cylinder number = %" PRIu64 ": zones must "
                      "follow each other outwards in (the previous zone "
                      "ends at %" PRIu64 ")",
                      z->first_cyl, prev_last);
  l->nzones++;                  /* from here on, freed with the drive */
  pairs = NULL;
  /* The slips twice: ds_layout_init sorts one copy; DiskSim's own
     mapping reads them in the file's order (slips_file). */
  if (int_list (c, read_val (b, "slips"), "slips", &z->slips, &z->nslips) == -1
      || int_list (c, read_val (b, "slips"), "slips", &z->slips_file,
                   &z->nslips) == -1
      || int_list (c, read_val (b, "defects"), "defects", &pairs, &np) == -1) {
    free (pairs);
    return -1;
  }
  if (np % 2) {
    free (pairs);
    return read_fail (c, z->defects_at, "defects: %zu numbers; expected pairs "
                      "(defect, replacement)", np);
  }
  z->ndefects = np / 2;
  z->defect = calloc (z->ndefects + 1, sizeof *z->defect);
  z->remap = calloc (z->ndefects + 1, sizeof *z->remap);
  if (!z->defect || !z->remap) {
    free (pairs);
    return read_fail (c, b->at, "out of memory");
  }
  for (i = 0; i < z->ndefects; i++) {
    z->defect[i] = pairs[2 * i];
    z->remap[i] = pairs[2 * i + 1];
  }
  free (pairs);
  return 0;
}

int
read_layout (struct read_ctx *c, struct ds_drive *d,
             const struct dsp_block *dm, const struct dsp_block *b)
{
  struct ds_layout *l = &d->layout;
  const struct dsp_value *zones;
  bool revs = false;
  size_t i;

  if (read_check_block (c, b, layout_specs, NULL) == -1)
    return -1;
  l->at = dm->at;
  l->blocks = (uint64_t) read_val (dm, "Block count")->i;
  l->surfaces = (uint64_t) read_val (dm, "Number of data surfaces")->i;
  l->cylinders = (uint64_t) read_val (dm, "Number of cylinders")->i;
  l->mapping = (int) read_val (b, "LBN-to-PBN mapping scheme")->i;
  l->sparing = (int) read_val (b, "Sparing scheme used")->i;
  l->rangesize = (uint64_t) read_val (b, "Rangesize for sparing")->i;
  if (skew_units (c, b, &revs) == -1)
    return -1;
  zones = read_val (b, "Zones");
  if (zones->n == 0 || zones->n > 4096)
    return read_fail (c, zones->at, "Zones: %zu zones (expected 1 to 4096)",
                      zones->n);
  l->zones = calloc (zones->n, sizeof *l->zones);
  if (!l->zones)
    return read_fail (c, zones->at, "out of memory");
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
