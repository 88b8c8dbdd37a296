/* hddsim: DiskSim's disk module: the disksim_disk block (its cache,
 * controller and bus keys, the per-command overheads) and its dm_disk
 * (the disk's size and its layout and mechanical models).
 *
 * disk_specs lists the keys in the order of DiskSim's manual (section
 * 3.4.5, "Disks"), which is the order the required ones are looked for:
 * a new key goes where the manual has it.
 */

#include <stdio.h>

#include "read.h"

static const struct read_spec disk_specs[] = {
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
  { "Extradisc command overhead", K_NUM, true, 0, MS, KEY (xd_command) },
  { "Extradisc disconnect overhead", K_NUM, true, 0, MS, KEY (xd_disc1) },
  { "Extradisc inter-disconnect delay", K_NUM, true, 0, MS,
    KEY (xd_inter) },
  { "Extradisc 2nd disconnect overhead", K_NUM, true, 0, MS,
    KEY (xd_disc2) },
  { "Extradisc seek delta", K_NUM, true, 0, MS, KEY (xd_seekdelta) },
  { "Minimum seek delay", K_NUM, true, 0, MS, KEY (min_seek_delay) },
  { "Immediate buffer read", K_INT, true, 0, 2, KEY (imm_read) },
  { "Immediate buffer write", K_INT, true, 0, 2, KEY (imm_write) },
  { NULL },
};

static const struct read_spec dm_disk_specs[] = {
  { "Block count", K_INT, true, 1, 1e15, NONE },
  { "Number of data surfaces", K_INT, true, 1, 1024, NONE },
  { "Number of cylinders", K_INT, true, 1, 1e8, NONE },
  { "Mechanical Model", K_BLOCK, true, 0, 0, NONE },
  { "Layout Model", K_BLOCK, true, 0, 0, NONE },
  { NULL },
};

/* The bounds between keys that DiskSim checks. */
static int
check_cache (struct read_ctx *c, const struct ds_drive *d)
{
  if (d->ra_max.v > d->seg_size.v)
    return read_fail (c, d->ra_max.at, "Maximum read-ahead (blks) = %g: "
                      "more than the segment (%g blocks)", d->ra_max.v,
                      d->seg_size.v);
  if (d->ra_min.v > d->seg_size.v)
    return read_fail (c, d->ra_min.at, "Minimum read-ahead (blks) = %g: "
                      "more than the segment (%g blocks)", d->ra_min.v,
                      d->seg_size.v);
  if (d->write_segs.v > d->segments.v)
    return read_fail (c, d->write_segs.at, "Maximum number of write "
                      "segments = %g: more than the %g segments",
                      d->write_segs.v, d->segments.v);
  return 0;
}

int
read_disk (struct read_ctx *c, struct ds_drive *d, const struct dsp_block *b)
{
  const struct dsp_block *dm, *mech, *layout;

  snprintf (d->name, sizeof d->name, "%s", b->name);
  if (read_check_block (c, b, disk_specs, d) == -1 || check_cache (c, d) == -1)
    return -1;
  dm = read_sub_block (c, b, "Model", "dm_disk");
  if (!dm || read_check_block (c, dm, dm_disk_specs, NULL) == -1)
    return -1;
  layout = read_sub_block (c, dm, "Layout Model", "dm_layout_g1");
  mech = read_sub_block (c, dm, "Mechanical Model", "dm_mech_g1");
  if (!layout || !mech)
    return -1;
  if (read_layout (c, d, dm, layout) == -1)
    return -1;
  return read_mech (c, d, mech);
}
