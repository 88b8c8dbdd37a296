/* hddsim: the order a power cut needs in the driver (see power.h). */

#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "debug.h"
#include "driver_core.h"
#include "fault.h"
#include "power.h"
#include "powercut.h"
#include "preimage.h"
#include "recorder.h"

static struct {
  bool on;                      /* powercut= */
  bool exit_at_cut;             /* powercut-exit=yes */
  struct trace_cut cut;         /* counters until the cut; then its
                                   record (id, t_ns once power_off) */
  bool power_states;            /* a power-state timer is set: the stats
                                   get the drive's snapshots */
} pw;

/* The power has been cut (read without the lock by workers). */
static atomic_bool power_off;

bool
power_is_off (void)
{
  return atomic_load (&power_off);
}

bool
power_cut_before (uint64_t done)
{
  return atomic_load (&power_off) && done > pw.cut.t_ns;
}

static bool
writes_data (enum io_op op)
{
  return op == IO_WRITE || op == IO_ZERO || op == IO_TRIM;
}

bool
power_defers (enum io_op op)
{
  return pw.on && writes_data (op);
}

void
power_count_failed (void)
{
  pw.cut.failed++;
  recorder_powercut (&pw.cut);
}

/* The data of 'part' of request r (all of it, or one of its
 * commands), served from 'start' to 'done', reaches the image, after
 * the store has kept what the media still needs.  After a part has
 * failed the rest are not written: the request fails.
 */
static void
apply_part (const struct req *r, struct power_data *d,
            const struct io *part, uint64_t start, uint64_t done)
{
  if (d->status == -1)
    return;
  if (preimage_before_write (part->op, part->offset, part->length,
                             part->fua, start, done) == -1) {
    d->err = errno;
    d->status = -1;
    if (d->err == ENOSPC && part->op == IO_TRIM) {
      /* A trim is advisory: not doing it loses nothing. */
      nbdkit_debug ("powercut: trim of %" PRIu64 " bytes at %" PRIu64
                    " not done: larger than the pre-image store's room",
                    part->length, part->offset);
      d->status = 0;
    }
    else if (d->err == ENOSPC)
      nbdkit_error ("powercut: a %s of %" PRIu64 " bytes at offset %"
                    PRIu64 " does not fit the pre-image store (%" PRIu64
                    " sectors); it fails with ENOSPC",
                    io_op_name (part->op), part->length, part->offset,
                    preimage_capacity ());
    return;
  }
  if (hddsim_debug_powercut)
    nbdkit_debug ("powercut: write ticket %" PRIu64 ": id=%" PRIu64
                  " %s off=%" PRIu64 " len=%" PRIu64 " start=%" PRIu64
                  " done=%" PRIu64, preimage_tickets (), r->id,
                  io_op_name (part->op), part->offset, part->length,
                  start, done);
  d->status = d->data (d->arg, part->offset - r->io.offset, part->length);
  d->err = errno;
}

/* powercut=: the data of a write, zero or trim reaches the image as
 * the model serves it, in its order, after the store has kept what
 * the media still needs (preimage.h).
 */
void
power_served (const struct req *r, struct power_data *d)
{
  if (!pw.on)
    return;
  if (atomic_load (&power_off)) {
    d->status = -1;
    d->err = EIO;
    return;
  }
  if (r->io.op == IO_FLUSH) {
    if (hddsim_debug_powercut)
      nbdkit_debug ("powercut: flush id=%" PRIu64 " after write ticket %"
                    PRIu64 " start=%" PRIu64 " done=%" PRIu64, r->id,
                    preimage_tickets (), r->start, r->done);
    preimage_flush (r->start, r->done);
    return;
  }
  if (!d->deferred) {
    preimage_advance (r->start);
    return;
  }
  if (r->io.op != IO_TRIM)
    powercut_write_served (r->done);
  /* A split request's parts went with its commands. */
  if (r->ncmds == 1)
    apply_part (r, d, &r->io, r->start, r->done);
}

/* powercut=: command c of a split write or zero has been served: its
 * part of the data reaches the image now, before the model serves the
 * next command, as an unsplit request's does after its own serve.
 */
void
power_command_served (const struct req *r, const struct req *c,
                      struct power_data *d)
{
  if (pw.on && d->deferred && !atomic_load (&power_off))
    apply_part (r, d, &c->io, c->start, c->done);
}

/* What had been made durable by the cut. */
void
power_completed (const struct req *r)
{
  if (!pw.on || atomic_load (&power_off))
    return;
  if (r->io.op == IO_FLUSH)
    pw.cut.flushes_done++;
  else if (r->io.fua && (r->io.op == IO_WRITE || r->io.op == IO_ZERO))
    pw.cut.fua_writes_done++;
}

/* The power fails at modeled time t: the drive's background work up
 * to t, the image back to what the media held then, and from now on
 * nothing completes.
 */
static void
cut_power (uint64_t t)
{
  struct preimage_loss loss;

  hdd_idle (drv.hdd, t);
  preimage_cut (drv.hdd, t, &loss);
  pw.cut.id = drv.next_id++;
  pw.cut.t_ns = t;
  pw.cut.lost_extents = loss.extents;
  pw.cut.lost_bytes = loss.sectors * 512;
  atomic_store (&power_off, true);
  recorder_powercut (&pw.cut);
  nbdkit_error ("power cut at modeled time %" PRIu64 " ns: %" PRIu64
                " bytes in %" PRIu64 " extents were not on the media; %"
                PRIu64 " flushes and %" PRIu64 " FUA writes had completed%s",
                t, pw.cut.lost_bytes, pw.cut.lost_extents,
                pw.cut.flushes_done, pw.cut.fua_writes_done,
                pw.exit_at_cut ? "; exiting" : "");
  if (pw.exit_at_cut) {
    recorder_stop ();
    _exit (POWERCUT_EXIT_STATUS);
  }
}

static void advance_to (uint64_t now);

/* Then the faults the drive fired on the way go to the trace
 * (fault.h).
 */
void
power_advance (uint64_t now)
{
  advance_to (now);
  fault_report_fired (drv.hdd, &drv.next_id);
  if (pw.power_states) {
    struct hdd_power_snapshot s;
    hdd_power_snapshot (drv.hdd, &s);
    recorder_power_states (&s);
  }
}

static void
advance_to (uint64_t now)
{
  if (!pw.on) {
    engine_advance (drv.engine, now);
    return;
  }
  while (!atomic_load (&power_off)) {
    uint64_t due = powercut_deadline ();
    uint64_t t = engine_next_event (drv.engine);

    if (due <= now && (t == ENGINE_NEVER || t > due)) {
      engine_advance (drv.engine, due);
      cut_power (due);
      return;
    }
    if (t == ENGINE_NEVER || t > now) {
      engine_advance (drv.engine, now);
      return;
    }
    engine_advance (drv.engine, t);
  }
}

bool
power_off_by (uint64_t now)
{
  if (pw.on)
    power_advance (now);
  return atomic_load (&power_off);
}

uint64_t
power_cut_due (void)
{
  return pw.on ? powercut_deadline () : ENGINE_NEVER;
}

bool
power_armed (void)
{
  return pw.on;
}

bool
power_polls (void)
{
  return pw.on && powercut_polls ();
}

int
power_install (void (*wake) (void))
{
  return pw.on ? powercut_install (wake) : 0;
}

void
power_poll_trigger (uint64_t now)
{
  if (pw.on && powercut_check ())
    powercut_fire (now);
}

int
power_start (const struct driver_config *cfg)
{
  uint64_t cache;

  pw.on = cfg->powercut;
  pw.exit_at_cut = cfg->powercut_exit;
  pw.power_states = hdd_power_managed (drv.hdd);
  if (pw.power_states) {
    struct hdd_power_snapshot s;
    hdd_power_snapshot (drv.hdd, &s);
    recorder_power_states (&s);
  }
  if (!pw.on)
    return 0;
  cache = hdd_write_cache_bytes (drv.hdd);
  if (!hdd_params_rotates (cfg->hdd_params)) {
    nbdkit_error ("powercut= needs a modeled drive: profile=fixed has "
                  "no media or cache to lose data from");
    return -1;
  }
  if (preimage_init (cfg->image_bytes, cache, cache > 0) == -1)
    return -1;
  hdd_set_media_observer (drv.hdd, preimage_observe, NULL);
  return 0;
}

void
power_stop (void)
{
  preimage_free ();
  pw = (typeof (pw)) { 0 };
  atomic_store (&power_off, false);
}
