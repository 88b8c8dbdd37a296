/* hddsim: DiskSim 4.0 drive specifications -> struct ds_drive (what
 * DiskSim models of one disk), read from the tree of parv.c.
 *
 * Every key of the disk's own blocks (disksim_disk, dm_disk,
 * dm_layout_g1 and its zones, dm_mech_g1) is looked up in a table that
 * gives its type and bounds (read.h); an unknown key, a missing
 * required one, a value of the wrong type or out of bounds is an error
 * naming the file, the line and the key.  Of the other components only
 * what changes one disk's timing is kept (bus and controller transfer
 * times, controller delays, the driver's constant access time).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read.h"

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
choose_disk (struct read_ctx *c, const struct dsp_tree *t)
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
        read_fail (c, top->at, "disksim_simpledisk %s: a fixed-access-time "
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
      read_fail (c, top->at, "instantiates two disk types (%s and %s); hddsim "
                 "models one drive", chosen->name, b->name);
      return NULL;
    }
    chosen = b;
  }
  if (chosen)
    return chosen;
  if (ndisks == 1)
    return only;
  read_fail (c, (struct dsp_where) { t->path, 0 }, ndisks
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
    free (d->layout.zones[i].slips_file);
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
  struct read_ctx c = { err, errlen, false };
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
    read_disk (&c, d, disk);
  max_over (t, "disksim_bus", "Read block transfer time", &d->bus_xfer);
  max_over (t, "disksim_bus", "Write block transfer time", &d->bus_xfer);
  max_over (t, "disksim_bus", "Read block transfer time", &d->bus_read);
  max_over (t, "disksim_bus", "Write block transfer time", &d->bus_write);
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
