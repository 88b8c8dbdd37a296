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
  map_need (o, &d->prep, "Data preparation overhead", 0, "not modelled");
  map_need (o, &d->resel1, "First reselect overhead", 0, "bus reselection is "
            "not modelled");
  map_need (o, &d->resel, "Other reselect overhead", 0, "bus reselection is "
            "not modelled");
  map_need (o, &d->rdisc_r, "Read disconnect afterread", 0, "bus "
            "disconnection is not modelled");
  map_need (o, &d->rdisc_w, "Read disconnect afterwrite", 0, "bus "
            "disconnection is not modelled");
  map_need (o, &d->wdisc, "Write disconnect overhead", 0, "bus disconnection "
            "is not modelled");
  map_need (o, &d->extra_disc, "Extra write disconnect", 0, "not modelled");
  map_need (o, &d->min_seek_delay, "Minimum seek delay", 0, "not modelled");
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
}

void
map_controller (struct map_out *o, const struct ds_drive *d,
                struct hdd_params *p)
{
  /* Immediate buffer read/write never change DiskSim 4.0's timing with
     dm_layout_g1: mech_g1's access_block takes the layout's
     angle-to-sector result as a failure (its success code, DM_OK, is
     negative) and keeps the requested first sector, so every access
     waits for it as without the key.  They import as hddsim's
     zero-latency access off (docs/model.md "Zero-latency access"). */
  map_set_word (o, p, d->imm_read.at, "Immediate buffer read",
                "zero-latency-read", "0");
  map_set_word (o, p, d->imm_write.at, "Immediate buffer write",
                "zero-latency-write", "0");
  /* DiskSim writes a sector only once its data is in the buffer
     (write-waits-for-bus=, docs/model.md). */
  p->write_bus = 1;
  /* DiskSim's platter is at angle 0 at time 0, whatever its seeds. */
  p->phase_zero = 1;
  map_need (o, &d->preseek, "Preseeking level", 0, "hddsim does not seek "
            "before the completion");
  map_need (o, &d->low_wm, "Low (write) water mark", 0, "bus disconnection "
            "is not modelled");
  map_need (o, &d->high_wm, "High (read) water mark", 0, "bus disconnection "
            "is not modelled");
  if (d->max_queue.v > 1) {
    map_need (o, &d->sneaky_full, "Allow sneaky full read hits", 0, "hits "
              "served during another request are not modelled");
    map_need (o, &d->sneaky_partial, "Allow sneaky partial read hits", 0,
              "hits served during another request are not modelled");
    map_need (o, &d->sneaky_inter, "Allow sneaky intermediate read hits", 0,
              "hits served during another request are not modelled");
    map_need (o, &d->prebuffer, "Allow write prebuffering", 0, "not modelled");
  }
}
