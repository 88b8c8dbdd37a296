/* hddsim: a DiskSim drive (struct ds_drive) as hddsim parameters.
 *
 * Each DiskSim value either has an exact counterpart in struct
 * hdd_params, or is a value at which DiskSim behaves as hddsim's model
 * does, or it is refused ("blocked") with the file, the line, the key
 * and what the model lacks.  All reasons are collected, so one run
 * lists everything a drive needs.  Values are checked against the
 * model's own parameter table (hdd_params_set) and the geometry the
 * model would build (hdd_probe_layout), so the import cannot drift
 * from what the model does.
 *
 * Read but without effect on one disk's timing here, and why:
 *   Scheduler, Max queue length <= 1   the order is sched='s business
 *   Print stats, Avg sectors per cylinder, Calc sector by sector
 *                                      statistics, a scheduler hint, and
 *                                      (the manual) no effect
 *   Hold bus entire read/write xfer, Never disconnect, Disconnect write
 *   if seek, Set watermark by reqsize  bus ownership only: cost nothing
 *                                      while disconnect and reselect
 *                                      overheads and water marks are 0
 *                                      (refused otherwise)
 *   Read directly to buffer            the media reads into the buffer
 *                                      and the interface follows (hddsim's
 *                                      reads: see map_interface)
 *   Maximum number of write segments   one segment is dirty at a time
 *                                      without write prebuffering (see
 *                                      map_fast_write)
 *   Write hit stop prefetch            a write stops the read-ahead
 *                                      anyway
 *   the five Extradisc values          only with Extra write disconnect
 *                                      = 1 (refused)
 *   Single cylinder / Full strobe seek time, Average seek time
 *                                      only for the seek types that use
 *                                      them
 *   every other component's keys       statistics, buses and controllers
 *                                      (but their block transfer times and
 *                                      'Scale for delays', which count),
 *                                      synthetic workloads
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "map.h"

void
map_block (struct map_out *o, struct dsp_where at, const char *fmt, ...)
{
  char msg[512];
  size_t used;
  va_list ap;

  used = (size_t) snprintf (msg, sizeof msg, "%s:%u: ", at.file, at.line);
  va_start (ap, fmt);
  vsnprintf (msg + used, sizeof msg - used, fmt, ap);
  va_end (ap);
  if (o->n++ == 0) {
    size_t n = strlen (msg) < sizeof o->first ? strlen (msg)
                                              : sizeof o->first - 1;
    memcpy (o->first, msg, n);
    o->first[n] = '\0';
  }
  if (o->each)
    o->each (msg, o->opaque);
}

void
map_set (struct map_out *o, struct hdd_params *p, struct dsp_where at,
         const char *dskey, const char *key, uint64_t v, bool ns)
{
  char buf[32], err[HDD_ERRLEN];

  snprintf (buf, sizeof buf, "%" PRIu64 "%s", v, ns ? "ns" : "");
  if (hdd_params_set (p, key, buf, err, sizeof err) != 0)
    map_block (o, at, "%s: as hddsim's %s", dskey, err);
}

void
map_set_word (struct map_out *o, struct hdd_params *p, struct dsp_where at,
              const char *dskey, const char *key, const char *v)
{
  char err[HDD_ERRLEN];

  if (hdd_params_set (p, key, v, err, sizeof err) != 0)
    map_block (o, at, "%s: as hddsim's %s", dskey, err);
}

void
map_need (struct map_out *o, const struct ds_key *k, const char *key,
          double want, const char *why)
{
  if (k->set && k->v != want)
    map_block (o, k->at, "%s = %g: %s", key, k->v, why);
}

/* ---- components around the disk ---- */

static void
map_system (struct map_out *o, const struct ds_drive *d)
{
  if (d->driver_const.set && d->driver_const.v != 0)
    map_block (o, d->driver_const.at, "Constant access time = %g: the driver "
               "fixes or replaces the disk's access times; not modelled",
               d->driver_const.v);
  if (d->ctlr_scale.set && d->ctlr_scale.v != 0)
    map_block (o, d->ctlr_scale.at, "Scale for delays = %g: controller "
               "overheads are not modelled (0 turns them off)",
               d->ctlr_scale.v);
}

/* Each part in turn: the order in which a drive's reasons are listed. */
static void
map_all (struct map_out *o, const struct ds_drive *d, struct hdd_params *p)
{
  map_system (o, d);
  map_mech (o, d, p);
  map_layout (o, d, p);
  map_interface (o, d, p);
  map_cache (o, d, p);
  map_overheads (o, d, p);
  map_controller (o, d, p);
}

int
ds_drive_to_params (const struct ds_drive *d, struct hdd_params *p,
                    void (*each) (const char *, void *), void *opaque,
                    char *err, size_t errlen)
{
  struct map_out o = { .each = each, .opaque = opaque };

  params_defaults (p);
  snprintf (p->profile, sizeof p->profile, "%s", d->name);
  snprintf (p->description, sizeof p->description, "DiskSim %.100s, %"
            PRIu64 " blocks (%.100s)", d->name, d->layout.blocks,
            d->tree->path);
  map_all (&o, d, p);
  if (o.n) {
    if (o.n == 1)
      snprintf (err, errlen, "%s", o.first);
    else
      snprintf (err, errlen, "%s (and %u more)", o.first, o.n - 1);
    return -1;
  }
  return hdd_params_validate (p, err, errlen);
}

static void
print_reason (const char *why, void *fp)
{
  fprintf (fp, "%s\n", why);
}

int
disksim_check_file (const char *path, FILE *fp)
{
  char err[HDD_ERRLEN];
  struct ds_drive *d = ds_drive_load (path, err, sizeof err);
  struct hdd_params p;
  struct map_out o = { .each = print_reason, .opaque = fp };

  if (!d) {
    fprintf (fp, "%s\n", err);
    return -1;
  }
  params_defaults (&p);
  map_all (&o, d, &p);
  ds_drive_free (d);
  return (int) o.n;
}
