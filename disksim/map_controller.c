/* hddsim: DiskSim's disk controller as the model's: the per-command
 * overheads, the interface rate (the disk's bulk transfer, the bus's
 * and the controller's block times), and what the controller does
 * that the model does not (bus disconnects and reselects, water
 * marks, preseeking, hits served beside another request), refused
 * unless it is off.
 */

#include <math.h>
#include <stdint.h>

#include "map.h"

/* The per-command overheads: DiskSim's per-request overhead (at every
 * request's arrival) is hddsim's overhead=; each hit/miss x after
 * read/write class and each completion overhead its own key, added to
 * it.  'Time scale for overheads' multiplies them all.
 */
void
map_overheads (struct map_out *o, const struct ds_drive *d,
               struct hdd_params *p)
{
  const struct { const struct ds_key *k; const char *name, *key; } cls[] = {
    { &d->rhit_r, "Read hit over. after read", "overhead-read-hit" },
    { &d->rhit_w, "Read hit over. after write",
      "overhead-read-hit-after-write" },
    { &d->rmiss_r, "Read miss over. after read", "overhead-read-miss" },
    { &d->rmiss_w, "Read miss over. after write",
      "overhead-read-miss-after-write" },
    { &d->whit_r, "Write hit over. after read", "overhead-write-hit" },
    { &d->whit_w, "Write hit over. after write",
      "overhead-write-hit-after-write" },
    { &d->wmiss_r, "Write miss over. after read", "overhead-write-miss" },
    { &d->wmiss_w, "Write miss over. after write",
      "overhead-write-miss-after-write" },
    { &d->rcompl, "Read completion overhead", "read-complete" },
    { &d->wcompl, "Write completion overhead", "write-complete" },
  };
  double scale = d->overhead_scale.v;
  size_t i;

  map_set (o, p, d->per_request.at, "Per-request overhead time",
           "overhead", ms_to_ns (scale * d->per_request.v), true);
  for (i = 0; i < sizeof cls / sizeof cls[0]; i++)
    map_set (o, p, cls[i].k->at, cls[i].name, cls[i].key,
             ms_to_ns (scale * cls[i].k->v), true);
}

/* DiskSim's disk controller runs the import (controller=disksim): the
 * bus's disconnections, reconnections and water marks, and the rest of
 * disksim_disk's keys, as its code takes them.  'Time scale for
 * overheads' multiplies each overhead but the two DiskSim uses
 * unscaled (Minimum seek delay, Extradisc inter-disconnect delay).
 */
static void
map_scsi (struct map_out *o, const struct ds_drive *d, struct hdd_params *p)
{
  const struct { const struct ds_key *k; const char *name, *key;
                 bool scaled; } dur[] = {
    { &d->prep, "Data preparation overhead", "data-prep", true },
    { &d->resel1, "First reselect overhead", "reselect-first", true },
    { &d->resel, "Other reselect overhead", "reselect-other", true },
    { &d->rdisc_r, "Read disconnect afterread", "disconnect-read", true },
    { &d->rdisc_w, "Read disconnect afterwrite",
      "disconnect-read-after-write", true },
    { &d->wdisc, "Write disconnect overhead", "disconnect-write", true },
    { &d->xd_command, "Extradisc command overhead", "extradisc-command",
      true },
    { &d->xd_disc1, "Extradisc disconnect overhead", "extradisc-disconnect",
      true },
    { &d->xd_inter, "Extradisc inter-disconnect delay", "extradisc-inter",
      false },
    { &d->xd_disc2, "Extradisc 2nd disconnect overhead",
      "extradisc-disconnect2", true },
    { &d->xd_seekdelta, "Extradisc seek delta", "extradisc-seek-delta",
      true },
    { &d->min_seek_delay, "Minimum seek delay", "min-seek-delay", false },
  };
  double scale = d->overhead_scale.v;
  size_t i;

  for (i = 0; i < sizeof dur / sizeof dur[0]; i++)
    map_set (o, p, dur[i].k->at, dur[i].name, dur[i].key,
             ms_to_ns ((dur[i].scaled ? scale : 1) * dur[i].k->v), true);
  map_set (o, p, d->extra_disc.at, "Extra write disconnect",
           "extra-write-disconnect", (uint64_t) d->extra_disc.v, false);
}

/* Bulk transfer: the slowest of disk, bus and controller per block.
 * Slower than the media, it bounds a read: hddsim's sectors cross the
 * interface one by one as they are read (mech_walk_bus), as DiskSim's
 * buffer hands them to the bus.
 */
void
map_interface (struct map_out *o, const struct ds_drive *d,
               struct hdd_params *p)
{
  const struct ds_key *k = &d->bulk;
  double ms = d->bulk.v;
  uint64_t rate;

  if (d->bus_xfer.set && d->bus_xfer.v > ms)
    k = &d->bus_xfer, ms = d->bus_xfer.v;
  if (d->ctlr_xfer.set && d->ctlr_xfer.v > ms)
    k = &d->ctlr_xfer, ms = d->ctlr_xfer.v;
  rate = ms > 0 ? (uint64_t) llround (SECTOR * 1000.0 / ms)
                : UINT64_C(1) << 40;
  map_set (o, p, k->at, "Bulk sector transfer time", "iface-rate", rate,
           false);
  /* DiskSim's block time: its disk's bus's, for reads and writes each,
     or the disk's bulk time if that is longer. */
  map_set (o, p, d->bus_read.at, "Read block transfer time",
           "bus-block-read", ms_to_ns (fmax (d->bus_read.v, d->bulk.v)),
           true);
  map_set (o, p, d->bus_write.at, "Write block transfer time",
           "bus-block-write", ms_to_ns (fmax (d->bus_write.v, d->bulk.v)),
           true);
}

static void
map_flag (struct map_out *o, struct hdd_params *p, const struct ds_key *k,
          const char *dskey, const char *key)
{
  map_set (o, p, k->at, dskey, key, k->v != 0, false);
}

/* A share in [0, 1] in millionths. */
static void
map_share (struct map_out *o, struct hdd_params *p, const struct ds_key *k,
           const char *dskey, const char *key)
{
  map_set (o, p, k->at, dskey, key, (uint64_t) llround (k->v * 1e6), false);
}

void
map_controller (struct map_out *o, const struct ds_drive *d,
                struct hdd_params *p)
{
  p->controller = CTLR_DISKSIM;
  /* DiskSim's platter is at angle 0 at time 0, whatever its seeds. */
  p->phase_zero = 1;
  /* Immediate buffer read/write are DiskSim's zero-latency flags, which
     its controller keeps (its mechanics never act on them with
     dm_layout_g1: docs/model.md "Zero-latency access"). */
  map_set (o, p, d->imm_read.at, "Immediate buffer read",
           "zero-latency-read", d->imm_read.v != 0, false);
  map_set (o, p, d->imm_write.at, "Immediate buffer write",
           "zero-latency-write", d->imm_write.v != 0, false);
  map_scsi (o, d, p);
  map_share (o, p, &d->low_wm, "Low (write) water mark", "water-write");
  map_share (o, p, &d->high_wm, "High (read) water mark", "water-read");
  map_flag (o, p, &d->wm_by_req, "Set watermark by reqsize",
            "water-by-request");
  map_flag (o, p, &d->hold_read, "Hold bus entire read xfer",
            "hold-bus-read");
  map_flag (o, p, &d->hold_write, "Hold bus entire write xfer",
            "hold-bus-write");
  map_flag (o, p, &d->never_disc, "Never disconnect", "never-disconnect");
  map_flag (o, p, &d->read_direct, "Read directly to buffer", "read-direct");
  map_flag (o, p, &d->write_hit_stop_pf, "Write hit stop prefetch",
            "write-hit-stop-readahead");
  map_flag (o, p, &d->disc_write_seek, "Disconnect write if seek",
            "disconnect-in-seek");
  map_flag (o, p, &d->prebuffer, "Allow write prebuffering",
            "write-prebuffer");
  map_flag (o, p, &d->sneaky_full, "Allow sneaky full read hits",
            "sneaky-full");
  map_flag (o, p, &d->sneaky_partial, "Allow sneaky partial read hits",
            "sneaky-partial");
  map_flag (o, p, &d->sneaky_inter, "Allow sneaky intermediate read hits",
            "sneaky-intermediate");
  map_set (o, p, d->preseek.at, "Preseeking level", "preseek",
           (uint64_t) d->preseek.v, false);
}
