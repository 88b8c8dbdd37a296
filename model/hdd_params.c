/* hddsim: the drive's parameters (one table, see param.h). */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "params.h"
#include "../common/param.h"

#define FIELD(f) offsetof (struct hdd_params, f)
#define HOUR (UINT64_C(3600) * 1000000000)
#define SEC UINT64_C(1000000000)

static const char *const cache_names[] = { "wb", "wt", "off", NULL };
static const char *const placement_names[] = { "start", "spread", NULL };
static const char *const layout_names[] = {
  "cylinder", "serpentine", "alternate", "alternate-disk", NULL
};
/* ---- explicit layout: names (DiskSim's sparing scheme numbers) ---- */
static const char *const sparing_names[] = {
  "none", "tracks", "cylinder", "track", "cylinder-slip", "cylinder-front",
  "cylinder-front-slip", "disk-end", "range", "zone", "zone-slip", NULL
};
static const char *const position_names[] = { "hddsim", "disksim", NULL };
static const char *const write_seg_names[] = {
  "none", "shared", "separate", NULL
};
static const char *const ra_hits_names[] = {
  "ahead", "almost", "read", NULL
};
static const char *const ra_stop_names[] = { "now", "sector", NULL };
static const char *const queue_order_names[] = { "rpo", "fifo", NULL };
static const char *const ra_until_names[] = {
  "size", "track", "cylinder", "next-track", NULL
};
static const char *const controller_names[] = { "hddsim", "disksim", NULL };
static const char *const ra_over_names[] = { "no", "yes", "drop", NULL };
static const char *const seek_weight_names[] = { "lba", "tracks", NULL };

/* A drive key: its value comes from the profile, so it has no default
 * of its own, and it keeps the drive's words (PARAM_STYLE_PROFILE).
 */
#define KEY(k, t, off, lo, hi, names, text)                              \
  { .key = (k), .type = (t), .offset = (off), .min = (lo), .max = (hi),  \
    .choices = (names), .help = (text), .style = PARAM_STYLE_PROFILE }

static const struct param_desc hdd_param_table[] = {
  KEY ("service", PARAM_DURATION, FIELD(service), 0, HOUR, NULL,
       "fixed service time of every request (implies profile=fixed)"),
  KEY ("capacity", PARAM_SIZE, FIELD(capacity), 1 << 20, UINT64_C(1) << 56,
       NULL, "drive capacity in bytes (LBAs x 512)"),
  KEY ("rpm", PARAM_UINT, FIELD(rpm), 1000, 30000, NULL,
       "spindle speed, revolutions per minute"),
  KEY ("surfaces", PARAM_UINT, FIELD(surfaces), 1, 64, NULL,
       "recording surfaces (heads)"),
  KEY ("zones", PARAM_UINT, FIELD(zones), 1, ZONES_MAX, NULL,
       "recording zones (zoned bit recording)"),
  KEY ("sectors-outer", PARAM_UINT, FIELD(spt_outer), 1, 1000000, NULL,
       "512-byte sectors per track in the outermost zone"),
  KEY ("sectors-inner", PARAM_UINT, FIELD(spt_inner), 1, 1000000, NULL,
       "512-byte sectors per track in the innermost zone"),
  KEY ("track-skew", PARAM_DURATION, FIELD(track_skew), 0, SEC, NULL,
       "track skew as time (0 = head-switch)"),
  KEY ("cyl-skew", PARAM_DURATION, FIELD(cyl_skew), 0, SEC, NULL,
       "cylinder skew as time (0 = seek-track + write-settle)"),
  KEY ("layout", PARAM_ENUM, FIELD(layout), 0, 0, layout_names,
       "LBA layout: cylinder (surfaces of a cylinder in turn), serpentine, "
       "alternate(-disk) (odd cylinders of a zone (disk) last surface first; "
       "zone-table= only)"),
  /* ---- explicit layout (with zone-table=, slips=, defects=) ---- */
  KEY ("sparing", PARAM_ENUM, FIELD(sparing), 0, 0, sparing_names,
       "zone-table= spare sectors per: none, tracks (whole tracks at a zone's "
       "end), cylinder, track, cylinder-slip, cylinder-front, "
       "cylinder-front-slip, disk-end, range, zone, zone-slip (-slip: a slip "
       "moves the rest of the zone)"),
  KEY ("sparing-range", PARAM_UINT, FIELD(sparing_range), 1, 1000000, NULL,
       "cylinders per sparing unit with sparing=range"),
  KEY ("placement", PARAM_ENUM, FIELD(placement), 0, 0, placement_names,
       "smaller image: start of the drive, or spread over the full stroke"),
  KEY ("seek-track", PARAM_DURATION, FIELD(seek_track), 1, SEEK_MAX_NS, NULL,
       "one-cylinder seek"),
  KEY ("seek-avg", PARAM_DURATION, FIELD(seek_avg), 1, SEEK_MAX_NS, NULL,
       "mean seek between uniformly random LBAs (spec-sheet average)"),
  KEY ("seek-full", PARAM_DURATION, FIELD(seek_full), 1, SEEK_MAX_NS, NULL,
       "full-stroke seek"),
  KEY ("write-settle", PARAM_DURATION, FIELD(write_settle), 0, SEC, NULL,
       "extra settling before writing after a seek"),
  KEY ("head-switch", PARAM_DURATION, FIELD(head_switch), 0, SEC, NULL,
       "switching to another surface of the same cylinder"),
  /* ---- seek/settle rules (DiskSim import; seek.c) ---- */
  KEY ("position-rule", PARAM_ENUM, FIELD(position_rule), 0, 0, position_names,
       "hddsim: seek, else head switch; write-settle after a seek | "
       "disksim: longer of seek and head switch, write settle after either"),
  KEY ("write-settle-neg", PARAM_DURATION, FIELD(write_settle_neg), 0, SEC,
       NULL, "a negative write settle: writes position this much faster "
       "(needs position-rule=disksim)"),
  KEY ("iface-rate", PARAM_RATE, FIELD(iface_rate), 1000, UINT64_C(1) << 40,
       NULL, "interface transfer rate (e.g. 100M for ATA-100)"),
  KEY ("overhead", PARAM_DURATION, FIELD(overhead), 0, SEC, NULL,
       "command processing time of every request"),
  /* Per-command overheads (DiskSim's controller), each added to
     overhead= for its class; see struct hdd_params. */
#define CMD_OV(key, w, h, aw, what)                                     \
  KEY (key, PARAM_DURATION, FIELD(cmd_overhead[w][h][aw]), 0, SEC, NULL,  \
       "added to overhead for " what)
  CMD_OV ("overhead-read-hit", 0, 1, 0,
          "a read the cache answers, after a read"),
  CMD_OV ("overhead-read-hit-after-write", 0, 1, 1,
          "a read the cache answers, after a write"),
  CMD_OV ("overhead-read-miss", 0, 0, 0,
          "a read from the media, after a read"),
  CMD_OV ("overhead-read-miss-after-write", 0, 0, 1,
          "a read from the media, after a write"),
  CMD_OV ("overhead-write-hit", 1, 1, 0,
          "a write under cache=wb, after a read"),
  CMD_OV ("overhead-write-hit-after-write", 1, 1, 1,
          "a write under cache=wb, after a write"),
  CMD_OV ("overhead-write-miss", 1, 0, 0,
          "a write under cache=wt or off, after a read"),
  CMD_OV ("overhead-write-miss-after-write", 1, 0, 1,
          "a write under cache=wt or off, after a write"),
#undef CMD_OV
  KEY ("read-complete", PARAM_DURATION, FIELD(read_complete), 0, SEC, NULL,
       "completion overhead of a read, after its last byte has crossed"),
  KEY ("write-complete", PARAM_DURATION, FIELD(write_complete), 0, SEC, NULL,
       "completion overhead of a write, after it is done"),
  KEY ("cache", PARAM_ENUM, FIELD(cache), 0, 0, cache_names,
       "on-drive cache: wb (write-back), wt (write-through), off"),
  KEY ("cache-size", PARAM_SIZE, FIELD(cache_size), 0, UINT64_C(1) << 40, NULL,
       "on-drive cache size"),
  KEY ("cache-segments", PARAM_UINT, FIELD(cache_segments), 1, 1024, NULL,
       "read cache segments"),
  KEY ("readahead", PARAM_SIZE, FIELD(readahead), 0, UINT64_C(1) << 40, NULL,
       "read-ahead after a read, capped at a segment (0 or off = none)"),
  /* The write cache as drives keep it (docs/model.md "Write-back"). */
  KEY ("write-cache-entries", PARAM_UINT, FIELD(write_entries), 0, 1 << 20,
       NULL, "scattered runs of dirty data the write cache holds at most, "
       "each in a segment of its own; a write that would start one more "
       "waits for a destage write (0 = bounded by cache-size alone)"),
  /* Cache: segment rules (DiskSim's; docs/model.md "Cache segments"). */
  KEY ("cache-write-segment", PARAM_ENUM, FIELD(write_seg), 0, 0,
       write_seg_names, "where a write's data stays: none (not in the read "
       "segments), shared (in a read segment), separate (a segment of its "
       "own)"),
  KEY ("cache-write-hits", PARAM_UINT, FIELD(write_hits), 0, 1, NULL,
       "1: reads hit data a write left in a segment"),
  KEY ("cache-partial-hits", PARAM_UINT, FIELD(partial_hits), 0, 1, NULL,
       "1: a read whose first sectors a segment holds reads only the rest "
       "from the media"),
  KEY ("readahead-hits", PARAM_ENUM, FIELD(ra_hits), 0, 0, ra_hits_names,
       "reads the read-ahead serves: ahead (any it is to read), almost (its "
       "first sector read or being read), read (its first sector read)"),
  KEY ("readahead-stop", PARAM_ENUM, FIELD(ra_stop), 0, 0, ra_stop_names,
       "when a request needs the arm, read-ahead stops: now, or at the end "
       "of the sector it is reading (sector)"),
  KEY ("readahead-on-hit", PARAM_UINT, FIELD(ra_on_hit), 0, 1, NULL,
       "1: a read served wholly from a segment, the read-ahead idle, reads "
       "ahead from the segment's end"),
  KEY ("readahead-until", PARAM_ENUM, FIELD(ra_until), 0, 0, ra_until_names,
       "read-ahead ends readahead= past the request (size), also at the end "
       "of the request's track (track) or cylinder (cylinder), or, whatever "
       "readahead= (non-zero), at the end of the next sector's track, one "
       "track further when its segment began on an earlier track, the "
       "segment keeping the last segment's worth (next-track)"),
  KEY ("read-any-free", PARAM_UINT, FIELD(read_free), 0, 1, NULL,
       "1: a read keeps the sectors before it on its track that pass under "
       "the head during its rotational wait"),
  KEY ("phase-zero", PARAM_UINT, FIELD(phase_zero), 0, 1, NULL,
       "1: the platter is at angle 0 at time 0 (DiskSim's convention); "
       "0: at a phase drawn from seed="),
  KEY ("fast-write", PARAM_UINT, FIELD(fast_write), 0, 2, NULL,
       "DiskSim's fast write level with cache=wt: 0 off; 1 or 2 (alike for "
       "a drive serving one request at a time): a write completes once its "
       "data has crossed the interface; the media write goes on, a write "
       "appending to it joins it, any other request waits for it"),
  /* Zero-latency access; read-ahead keeping the request (docs/model.md
     "Zero-latency access"). */
  KEY ("zero-latency-read", PARAM_UINT, FIELD(zl_read), 0, 1, NULL,
       "1: a read starts on each track at the first of its sectors to pass "
       "under the head, and takes those before it when they come round"),
  KEY ("zero-latency-write", PARAM_UINT, FIELD(zl_write), 0, 1, NULL,
       "1: a write (and a destage write) does the same"),
  KEY ("readahead-keep-request", PARAM_UINT, FIELD(ra_keep), 0, 1, NULL,
       "1: read-ahead ends a segment past the request's first sector, so the "
       "segment still holds the request (none when the request fills it)"),
  /* A media write waiting for its data (docs/model.md "Writes waiting
     for the interface"). */
  KEY ("write-waits-for-bus", PARAM_UINT, FIELD(write_bus), 0, 1, NULL,
       "1: a media write writes a sector only if its data has crossed the "
       "interface (from the end of the command overhead, one sector at a "
       "time) when the head reaches it, else on its next pass (DiskSim's); "
       "0: the data need only be in by the write's end"),
  /* DiskSim's disk controller (dctl.h; docs/model.md "DiskSim's
     controller"), and the keys of DiskSim's disk module only it takes. */
  KEY ("controller", PARAM_ENUM, FIELD(controller), 0, 0, controller_names,
       "the engine: hddsim's, or disksim (DiskSim 4.0's disk controller, "
       "event by event: the DiskSim import; needs zone-table=)"),
#define DS_DUR(key, f, what)                                            \
  KEY (key, PARAM_DURATION, FIELD(ds.f), 0, SEC, NULL,                  \
       "controller=disksim: " what)
#define DS_FLAG(key, f, what)                                           \
  KEY (key, PARAM_UINT, FIELD(ds.f), 0, 1, NULL, "controller=disksim: " what)
  DS_DUR ("data-prep", data_prep, "before the bus carries data (Data "
          "preparation overhead)"),
  DS_DUR ("reselect-first", resel_first, "a reconnection (First reselect "
          "overhead)"),
  DS_DUR ("reselect-other", resel_other, "a write's reconnection after an "
          "extra write disconnect (Other reselect overhead)"),
  DS_DUR ("disconnect-read", disc_read, "a read disconnecting, after a read "
          "(Read disconnect afterread)"),
  DS_DUR ("disconnect-read-after-write", disc_read_aw, "a read disconnecting, "
          "after a write (Read disconnect afterwrite)"),
  DS_DUR ("disconnect-write", disc_write, "a write disconnecting (Write "
          "disconnect overhead)"),
  DS_FLAG ("extra-write-disconnect", extra_disc, "1: a write after a write "
           "elsewhere disconnects at once (Extra write disconnect)"),
  DS_DUR ("extradisc-command", xd_command, "its command overhead"),
  DS_DUR ("extradisc-disconnect", xd_disc1, "its first disconnection"),
  DS_DUR ("extradisc-inter", xd_inter, "between its disconnection and "
          "reconnection"),
  DS_DUR ("extradisc-disconnect2", xd_disc2, "its second disconnection"),
  DS_DUR ("extradisc-seek-delta", xd_seekdelta, "added before its seek"),
  DS_DUR ("min-seek-delay", min_seek, "a write's positioning takes at least "
          "this, unless it streams on from the last (Minimum seek delay)"),
  KEY ("water-read", PARAM_UINT, FIELD(ds.water_read), 0, 1000000, NULL,
       "controller=disksim: a read reconnects with this share (millionths) "
       "of its segment, or request, in (High (read) water mark)"),
  KEY ("water-write", PARAM_UINT, FIELD(ds.water_write), 0, 1000000, NULL,
       "controller=disksim: a write reconnects with this share (millionths) "
       "left to write (Low (write) water mark)"),
  DS_FLAG ("water-by-request", water_by_req, "1: the water marks are shares "
           "of the request, 0: of the segment (Set watermark by reqsize)"),
  DS_FLAG ("hold-bus-read", hold_read, "1: a read keeps the bus while it "
           "waits for data (Hold bus entire read xfer)"),
  DS_FLAG ("hold-bus-write", hold_write, "1: a write keeps it while it waits "
           "for room (Hold bus entire write xfer)"),
  DS_FLAG ("never-disconnect", never_disc, "1: the disk never lets the bus "
           "go (Never disconnect)"),
  KEY ("write-segments", PARAM_UINT, FIELD(ds.write_segs), 0, 1024, NULL,
       "controller=disksim: segments that may hold data not yet written "
       "(Maximum number of write segments; 0: 1)"),
  KEY ("readahead-min", PARAM_SIZE, FIELD(ds.ra_min), 0, UINT64_C(1) << 40,
       NULL, "controller=disksim: read-ahead a request may not stop "
       "(Minimum read-ahead)"),
  KEY ("readahead-max", PARAM_SIZE, FIELD(ds.ra_max), 0, UINT64_C(1) << 40,
       NULL, "controller=disksim: read-ahead past a request, 0: by the "
       "segment (Maximum read-ahead)"),
  KEY ("readahead-over", PARAM_ENUM, FIELD(ds.keep), 0, 0, ra_over_names,
       "controller=disksim: Read-ahead over requested: no (0), yes (1), drop "
       "(-1: a read's data leaves its segment once sent)"),
  DS_FLAG ("immed-partial-hit", immed_partial, "1: a partial hit sends its "
           "cached blocks at once, 0: once its read water mark is in "
           "(Immed transfer partial hit)"),
  DS_FLAG ("read-direct", read_direct, "1: the media reads a block only into "
           "room in the segment (Read directly to buffer)"),
  DS_FLAG ("write-hit-stop-readahead", write_hit_stop, "1: a write over the "
           "read-ahead's data ends it (Write hit stop prefetch)"),
  DS_FLAG ("disconnect-in-seek", disc_in_seek, "1: a read-ahead stopped in "
           "a seek or sector stops at once (Disconnect write if seek)"),
  DS_FLAG ("combine-writes", combine, "1: a write appends to, or prepends "
           "to, the data of one not yet written (Combine seq writes)"),
  DS_FLAG ("write-prebuffer", prebuffer, "1: a write's data may cross while "
           "the arm is busy (Allow write prebuffering)"),
  DS_FLAG ("sneaky-full", sneaky_full, "1: a full read hit is served while "
           "the arm is busy (Allow sneaky full read hits)"),
  DS_FLAG ("sneaky-partial", sneaky_partial, "1: a partial one too (Allow "
           "sneaky partial read hits)"),
  DS_FLAG ("sneaky-intermediate", sneaky_inter, "1: a hit that waited "
           "(Allow sneaky intermediate read hits)"),
  KEY ("preseek", PARAM_UINT, FIELD(ds.preseek), 0, 2, NULL,
       "controller=disksim: the arm moves on before a read's completion: 0 "
       "no, 1 while it is sent, 2 before (Preseeking level)"),
  DS_DUR ("bus-block-read", blk_read, "a block read crossing the bus; 0: "
          "from iface-rate"),
  DS_DUR ("bus-block-write", blk_write, "a block written crossing it; 0: "
          "from iface-rate"),
#undef DS_DUR
#undef DS_FLAG
  /* The command size (sched/engine.c splits longer requests). */
  KEY ("max-transfer", PARAM_SIZE, FIELD(max_transfer), 0, UINT64_C(1) << 40,
       NULL, "largest transfer of one command, a multiple of 512 (0 = "
       "unlimited): a longer read, write or zero is served as consecutive "
       "commands"),
  /* The drive's command queue (sched/drive_queue.c runs it). */
  KEY ("ncq-depth", PARAM_UINT, FIELD(queue.depth), 1, 256, NULL,
       "commands the drive holds and orders itself (SATA NCQ: up to 32; "
       "1 = no queueing)"),
  KEY ("ncq-order", PARAM_ENUM, FIELD(queue.order), 0, 0, queue_order_names,
       "the firmware's order of the commands it holds: rpo (shortest "
       "positioning time, seek and rotation) or fifo (as received)"),
  KEY ("ncq-max-wait", PARAM_DURATION, FIELD(queue.max_wait), 0, HOUR, NULL,
       "a command held this long is served first, the oldest first "
       "(0 = no aging bound)"),
  KEY ("ncq-overhead", PARAM_DURATION, FIELD(queue.overhead), 0, SEC, NULL,
       "added to the command overhead of every command when the drive "
       "queues (ncq-depth > 1)"),
  KEY ("ncq-lookahead", PARAM_UINT, FIELD(queue.lookahead), 0, 256, NULL,
       "commands the firmware's rule looks at, the oldest first (0 = all "
       "it holds)"),
  /* One setting turns off all issue 25 added (docs/model.md "The
     legacy setting"); read as the field 'legacy'. */
  KEY ("legacy", PARAM_BOOL, FIELD(legacy), 0, 1, NULL,
       "true: the drive of the builds before issue 25 (no bound on the "
       "write cache's scattered writes, no media cache, no tail: read "
       "retries, recalibration, idle housekeeping off; bad-sectors= and "
       "lse-rate= still apply)"),
  /* The tail and failing sectors (tail.h; docs/model.md "The tail"). */
#define PPM(key, f, what)                                               \
  KEY (key, PARAM_UINT, FIELD(tail.f), 0, 1000000, NULL, what)
  PPM ("retry-rate", retry_rate, "media reads (per million) that need "
       "read retries, each a whole revolution"),
  PPM ("retry-success", retry_success, "per million: one retry revolution "
       "reads the sector (the number of retries is geometric)"),
  KEY ("recal-interval", PARAM_DURATION, FIELD(tail.recal_interval), 0,
       HOUR * 24, NULL, "time between recalibrations (0 = none)"),
  KEY ("recal-time", PARAM_DURATION, FIELD(tail.recal_time), 0, SEC, NULL,
       "what one recalibration takes: a request that needs the arm waits "
       "for its end"),
  KEY ("idle-work-after", PARAM_DURATION, FIELD(tail.idle_after), 0,
       HOUR * 24, NULL, "quiet time after which the drive starts its idle "
       "work (0 = none)"),
  KEY ("idle-work-step", PARAM_DURATION, FIELD(tail.idle_step), 0, SEC, NULL,
       "one step of the idle work: the first request after the quiet time "
       "waits for the step under way to end"),
  KEY ("erc", PARAM_DURATION, FIELD(tail.erc), 0, HOUR, NULL,
       "error recovery control (SCT ERC, TLER): the longest a read retries "
       "a bad sector before it fails (off = the drive's recovery-limit)"),
  KEY ("recovery-limit", PARAM_DURATION, FIELD(tail.recovery_limit), 0, HOUR,
       NULL, "the drive's own limit on retrying a sector, with erc=off"),
  PPM ("weak-success", weak_success, "per million: one retry revolution "
       "reads a weak sector"),
  KEY ("lse-rate", PARAM_UINT, FIELD(tail.lse_rate), 0, 1000000, NULL,
       "bursts of latent sector errors per TB (10^12 bytes) of image, placed "
       "from seed="),
  KEY ("lse-burst", PARAM_UINT, FIELD(tail.lse_burst), 0, 1000000, NULL,
       "mean sectors of a burst (geometric; 0 = 1)"),
  PPM ("lse-weak", lse_weak, "per million of the generated sectors weak "
       "(read after retries) rather than bad"),
#undef PPM
  /* The media cache (docs/model.md "The media cache"). */
  KEY ("media-cache-size", PARAM_SIZE, FIELD(mc_size), 0, UINT64_C(1) << 44,
       NULL, "bytes of the media cache, a log on the platter where small "
       "media writes are staged (0 = none)"),
  KEY ("media-cache-at", PARAM_SIZE, FIELD(mc_at), 0, UINT64_C(1) << 56,
       NULL, "where the media cache is: a byte offset on the drive (LBA x "
       "512)"),
  KEY ("media-cache-entries", PARAM_UINT, FIELD(mc_entries), 1, 1 << 24,
       NULL, "staged extents the media cache's map holds at most; a write "
       "that needs one more waits while the drive cleans"),
  KEY ("media-cache-max-write", PARAM_SIZE, FIELD(mc_max_write), SECTOR,
       UINT64_C(1) << 40, NULL, "the longest media write staged in the "
       "media cache; longer ones are written home"),
  KEY ("media-cache-region", PARAM_SIZE, FIELD(mc_region), SECTOR,
       UINT64_C(1) << 44, NULL, "home addresses cleaned in one step: the "
       "staged data of one region goes home at once"),
  KEY ("media-cache-idle", PARAM_DURATION, FIELD(mc_idle), 0, HOUR, NULL,
       "how long the host is quiet before the drive cleans the media "
       "cache"),
  KEY ("media-cache-overhead", PARAM_DURATION, FIELD(mc_overhead), 0, SEC,
       NULL, "what a staged write costs the firmware after its media "
       "write (its map entry), before it completes"),
  KEY ("seek-avg-weight", PARAM_ENUM, FIELD(seek_weight), 0, 0,
       seek_weight_names, "what seek-avg is the mean of: lba (seeks "
       "between uniformly random LBAs) or tracks (the manufacturers' "
       "definition: each seek length weighted by the track pairs that far "
       "apart)"),
  KEY ("actuators", PARAM_UINT, FIELD(actuators), 1, 2, NULL,
       "independent arms: 2 = each serves one half of the LBAs, one "
       "command queue for both (Seagate's SATA dual-actuator drives)"),
  /* ---- drive-managed SMR (smr.c, docs/smr.md) ---- */
  KEY ("smr", PARAM_UINT, FIELD(smr), 0, 1, NULL,
       "1: drive-managed shingled recording (SMR): bands, the media "
       "cache as their persistent cache, cleaning a band at a time"),
  KEY ("smr-band-outer", PARAM_SIZE, FIELD(smr_band_outer), 0,
       UINT64_C(1) << 40, NULL, "size of a shingled band at the outer edge "
       "(LBA 0); sizes go linearly to smr-band-inner="),
  KEY ("smr-band-inner", PARAM_SIZE, FIELD(smr_band_inner), 0,
       UINT64_C(1) << 40, NULL, "size of a shingled band at the inner edge"),
  KEY ("smr-seq-min", PARAM_SIZE, FIELD(smr_seq_min), 0, UINT64_C(1) << 40,
       NULL, "write commands at least this long that begin a band start "
       "a run written in place; a write continuing the run exactly goes "
       "in place whatever its size; other writes are staged"),
  KEY ("smr-aged", PARAM_UINT, FIELD(smr_aged), 0, 100, NULL,
       "percent of the media cache (its log and its map) full at start "
       "(smr=1); also a fraction 0.0-1.0"),
  /* Power states (power_states.c; docs/power-states.md): the timers
     are settings (0 or off = never), the recoveries the profile's. */
#define PS_TIMER(k, s, what)                                            \
  KEY (k, PARAM_DURATION, FIELD(power_timer[s]), 0, 24 * HOUR, NULL,    \
       "idle time before " what " (0 or off = never)")
#define PS_RECOVERY(k, s, what)                                         \
  KEY (k, PARAM_DURATION, FIELD(power_recovery[s]), 0, 60 * SEC, NULL,  \
       "the next command waits this long to leave " what)
  PS_TIMER ("idle-a", HDD_PS_IDLE_A, "idle_a (reduced electronics)"),
  PS_TIMER ("idle-b", HDD_PS_IDLE_B, "idle_b (heads unloaded)"),
  PS_TIMER ("idle-c", HDD_PS_IDLE_C, "idle_c (heads unloaded, lower rpm)"),
  PS_TIMER ("standby", HDD_PS_STANDBY, "standby (spindle stopped; also "
            "hdparm:N, hdparm -S's N)"),
  PS_RECOVERY ("idle-a-recovery", HDD_PS_IDLE_A, "idle_a"),
  PS_RECOVERY ("idle-b-recovery", HDD_PS_IDLE_B, "idle_b (heads load)"),
  PS_RECOVERY ("idle-c-recovery", HDD_PS_IDLE_C, "idle_c (heads load, "
               "spindle back to speed)"),
  PS_RECOVERY ("spinup", HDD_PS_STANDBY, "standby: spin-up to ready"),
#undef PS_TIMER
#undef PS_RECOVERY
  { .key = NULL },
};
#undef KEY

/* seek-table=DIST:TIME,DIST:TIME,... (cylinders, durations). */
static int
set_seek_table (struct hdd_params *p, const char *value, char *err,
                size_t errlen)
{
  char *buf, *save = NULL, *tok;
  unsigned n = 0;

  if (strcmp (value, "") == 0 || strcmp (value, "none") == 0) {
    p->seek_npoints = 0;
    return 0;
  }
  buf = strdup (value);         /* up to SEEK_TABLE_MAX points: long */
  if (!buf) {
    snprintf (err, errlen, "seek-table: out of memory");
    return -1;
  }
  for (tok = strtok_r (buf, ",", &save); tok;
       tok = strtok_r (NULL, ",", &save)) {
    char *colon = strchr (tok, ':');
    uint64_t d, t;
    while (*tok == ' ')
      tok++;
    if (!colon || n == SEEK_TABLE_MAX)
      goto bad;
    *colon = '\0';
    if (parse_uint (tok, &d) == -1 || parse_duration (colon + 1, &t) == -1)
      goto bad;
    if (t > SEEK_MAX_NS) {
      char b[32];
      snprintf (err, errlen, "seek-table=%.64s%s: %s:%s: a seek of more "
                "than %s (the bound of seek-full)", value,
                strlen (value) > 64 ? "..." : "", tok, colon + 1,
                format_duration (SEEK_MAX_NS, b, sizeof b));
      free (buf);
      return -1;
    }
    /* Times may fall: measured curves do (see seek.c). */
    if (d == 0 || (n > 0 && d <= p->seek_dist[n - 1]))
      goto bad;
    p->seek_dist[n] = d;
    p->seek_time[n] = t;
    n++;
  }
  if (n < 2)
    goto bad;
  free (buf);
  p->seek_npoints = n;
  return 0;

 bad:
  free (buf);
  snprintf (err, errlen,
            "seek-table=%.64s%s: expected 2 to %d CYLINDERS:DURATION "
            "points, distances increasing (e.g. 1:0.8ms,1000:3ms,"
            "50000:14ms)", value, strlen (value) > 64 ? "..." : "",
            SEEK_TABLE_MAX);
  return -1;
}

/* ---- explicit layout: zone-table=, slips=, defects= ---- */

/* Bounds that keep a zone's sector counts (cylinders x 64 surfaces x
 * 1,000,000 sectors, and the angles) far inside 64 bits.
 */
#define ZONE_CYL_MAX UINT64_C(100000000)
#define ZONE_VALUE_MAX UINT64_C(1000000000000)

#define ZONE_TABLE_SYNTAX "FIRST-LAST:SECTORS[:ts=N][:cs=N][:offset=N]" \
  "[:empty=N][:spares=N],..."

static int
zone_field (struct zone_spec *z, char *f)
{
  static const struct { const char *name; size_t off; } names[] = {
    { "ts", offsetof (struct zone_spec, track_skew) },
    { "cs", offsetof (struct zone_spec, cyl_skew) },
    { "offset", offsetof (struct zone_spec, offset) },
    { "empty", offsetof (struct zone_spec, empty) },
    { "spares", offsetof (struct zone_spec, spares) },
  };
  char *eq = strchr (f, '=');
  size_t i;

  if (!eq)
    return -1;
  *eq = '\0';
  for (i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp (f, names[i].name) == 0) {
      uint64_t *v = (uint64_t *) ((char *) z + names[i].off);
      return parse_uint (eq + 1, v) == -1 || *v > ZONE_VALUE_MAX ? -1 : 0;
    }
  return -1;
}

/* One zone: FIRST-LAST:SECTORS then name=value fields. */
static int
parse_zone (struct zone_spec *z, char *tok)
{
  char *save = NULL, *f = strtok_r (tok, ":", &save), *dash;

  *z = (struct zone_spec) { 0 };
  if (!f || !(dash = strchr (f, '-')))
    return -1;
  *dash = '\0';
  if (parse_uint (f, &z->first_cyl) == -1
      || parse_uint (dash + 1, &z->last_cyl) == -1
      || z->first_cyl > z->last_cyl || z->last_cyl > ZONE_CYL_MAX)
    return -1;
  f = strtok_r (NULL, ":", &save);
  if (!f || parse_uint (f, &z->spt) == -1 || z->spt == 0
      || z->spt > 1000000)
    return -1;
  while ((f = strtok_r (NULL, ":", &save)))
    if (zone_field (z, f) == -1)
      return -1;
  return 0;
}

/* A slips= (ZONE:AT) or defects= (ZONE:AT>TO) entry. */
static int
parse_zone_ref (char *tok, unsigned *zone, uint64_t *at, uint64_t *to)
{
  char *colon = strchr (tok, ':'), *gt;
  uint64_t z;

  if (!colon)
    return -1;
  *colon = '\0';
  if (parse_uint (tok, &z) == -1 || z >= ZONES_MAX)
    return -1;
  *zone = (unsigned) z;
  gt = strchr (colon + 1, '>');
  if ((gt != NULL) != (to != NULL))
    return -1;
  if (gt) {
    *gt = '\0';
    if (parse_uint (gt + 1, to) == -1)
      return -1;
  }
  return parse_uint (colon + 1, at);
}

enum table_key { TK_ZONES, TK_SLIPS, TK_DEFECTS };

static int
table_error (char *err, size_t errlen, const char *key, unsigned n,
             const char *entry, const char *syntax)
{
  snprintf (err, errlen, "%s=: entry %u (\"%s\"): expected %s", key, n + 1,
            entry, syntax);
  return -1;
}

/* zone-table=, slips=, defects=: comma-separated entries; "" or none
 * clears.  p is changed only when the whole list parses.
 */
static int
set_table (struct hdd_params *p, enum table_key which, const char *key,
           const char *value, char *err, size_t errlen)
{
  static const char *const syntax[] = {
    ZONE_TABLE_SYNTAX " (cylinders up to 100000000, 1 to 1000000 sectors "
    "per track, fields up to 10^12)",
    "ZONE:SECTOR,... (zone-relative physical sectors)",
    "ZONE:SECTOR>REPLACEMENT,...",
  };
  static const unsigned max[] = { ZONES_MAX, SLIPS_MAX, DEFECTS_MAX };
  struct hdd_params *t = malloc (sizeof *t);
  char *buf = strdup (value), *save = NULL, *tok;
  unsigned n = 0;
  int r = -1;

  if (!t || !buf) {
    snprintf (err, errlen, "%s=: out of memory", key);
    goto out;
  }
  for (tok = strtok_r (buf, ",", &save); tok && strcmp (value, "none");
       tok = strtok_r (NULL, ",", &save), n++) {
    char entry[64];
    int bad;
    while (*tok == ' ')
      tok++;
    snprintf (entry, sizeof entry, "%s", tok);
    if (n == max[which]) {
      snprintf (err, errlen, "%s=: more than %u entries", key, max[which]);
      goto out;
    }
    if (which == TK_ZONES)
      bad = parse_zone (&t->zt[n], tok);
    else if (which == TK_SLIPS)
      bad = parse_zone_ref (tok, &t->slips[n].zone, &t->slips[n].at, NULL);
    else
      bad = parse_zone_ref (tok, &t->defects[n].zone, &t->defects[n].at,
                            &t->defects[n].to);
    if (bad) {
      table_error (err, errlen, key, n, entry, syntax[which]);
      goto out;
    }
  }
  if (which == TK_ZONES) {
    memcpy (p->zt, t->zt, n * sizeof *p->zt);
    p->nzt = n;
  }
  else if (which == TK_SLIPS) {
    memcpy (p->slips, t->slips, n * sizeof *p->slips);
    p->nslips = n;
  }
  else {
    memcpy (p->defects, t->defects, n * sizeof *p->defects);
    p->ndefects = n;
  }
  r = 0;
 out:
  free (t);
  free (buf);
  return r;
}

static const char *const table_keys[] = { "zone-table", "slips", "defects" };

static void
print_tables (const struct hdd_params *p, FILE *fp)
{
  unsigned i;

  if (p->nzt) {
    fprintf (fp, "zone-table=");
    for (i = 0; i < p->nzt; i++) {
      const struct zone_spec *z = &p->zt[i];
      fprintf (fp, "%s%" PRIu64 "-%" PRIu64 ":%" PRIu64 ":ts=%" PRIu64
               ":cs=%" PRIu64 ":offset=%" PRIu64 ":empty=%" PRIu64
               ":spares=%" PRIu64, i ? "," : "", z->first_cyl, z->last_cyl,
               z->spt, z->track_skew, z->cyl_skew, z->offset, z->empty,
               z->spares);
    }
    fprintf (fp, "\n");
  }
  if (p->nslips) {
    fprintf (fp, "slips=");
    for (i = 0; i < p->nslips; i++)
      fprintf (fp, "%s%u:%" PRIu64, i ? "," : "", p->slips[i].zone,
               p->slips[i].at);
    fprintf (fp, "\n");
  }
  if (p->ndefects) {
    fprintf (fp, "defects=");
    for (i = 0; i < p->ndefects; i++)
      fprintf (fp, "%s%u:%" PRIu64 ">%" PRIu64, i ? "," : "",
               p->defects[i].zone, p->defects[i].at, p->defects[i].to);
    fprintf (fp, "\n");
  }
}
/* ---- end of explicit layout ---- */

void
params_defaults (struct hdd_params *p)
{
  memset (p, 0, sizeof *p);
  p->kind = KIND_MECH;
  p->layout = LAYOUT_CYLINDER;
  p->placement = PLACE_START;
  p->cache = CACHE_WB;
  p->sparing_range = 1;
  p->queue.depth = 1;
  p->queue.order = HDD_QUEUE_RPO;
  /* The media cache is off (mc_size 0); these are what media-cache-
     size= alone gets (docs/model.md "The media cache"). */
  p->mc_entries = 8192;
  p->mc_max_write = 64 * 1024;
  p->mc_region = 64 * 1024 * 1024;
  p->mc_idle = 100 * 1000 * 1000;
  /* What a 4K staged write takes in all on Seagate's Exos X18 (550
     IOPS, 4K QD16, write cache disabled: 1.8 ms), less the command
     and the media write (docs/model.md "The media cache"). */
  p->mc_overhead = 1500 * 1000;
  p->actuators = 1;
}

struct hdd_params *
hdd_params_copy (const struct hdd_params *p)
{
  struct hdd_params *c = malloc (sizeof *c);

  if (c)
    *c = *p;
  return c;
}

void
hdd_params_free (struct hdd_params *p)
{
  free (p);
}

static const char seek_table_key[] = "seek-table";
static const char bad_sectors_key[] = "bad-sectors";

/* bad-sectors=FILE: the file is read when the drive is built (tail.c),
 * so that a replay of the same parameters reads it too.
 */
static int
set_bad_file (struct hdd_params *p, const char *value, char *err,
              size_t errlen)
{
  if (strlen (value) >= sizeof p->tail.bad_file) {
    snprintf (err, errlen, "bad-sectors=%.64s...: a path of more than %d "
              "bytes", value, BAD_FILE_MAX - 1);
    return -1;
  }
  snprintf (p->tail.bad_file, sizeof p->tail.bad_file, "%s",
            strcmp (value, "none") == 0 ? "" : value);
  return 0;
}

/* The table's own copy of key (static), or NULL if unknown. */
static const char *
static_key (const char *key)
{
  const struct param_desc *d = param_find (hdd_param_table, key);

  unsigned i;

  if (d)
    return d->key;
  for (i = 0; i < sizeof table_keys / sizeof table_keys[0]; i++)
    if (strcmp (key, table_keys[i]) == 0)
      return table_keys[i];
  if (strcmp (key, bad_sectors_key) == 0)
    return bad_sectors_key;
  return strcmp (key, seek_table_key) == 0 ? seek_table_key : NULL;
}

static void
forget_line (struct hdd_params *p, const char *key)
{
  unsigned i;

  for (i = 0; i < p->nlines; i++)
    if (strcmp (p->lines[i].key, key) == 0) {
      p->lines[i] = p->lines[--p->nlines];
      return;
    }
}

void
params_note_line (struct hdd_params *p, const char *key, unsigned line)
{
  const char *k = static_key (key);

  if (!k)
    return;
  forget_line (p, k);
  if (p->nlines < PARAM_LINES_MAX)
    p->lines[p->nlines++] = (typeof (p->lines[0])) { k, line };
}

/* smr-aged=0.25: a fraction, kept as the percent it is. */
static int
set_fraction_pct (struct hdd_params *p, const char *key, const char *value,
                  char *err, size_t errlen)
{
  char *end, pct[8];
  double f = strtod (value, &end);

  if (end == value || *end != '\0' || !(f >= 0.0 && f <= 1.0)) {
    snprintf (err, errlen, "%s=%.64s: expected a fraction from 0.0 to 1.0 "
              "or a percent from 0 to 100", key, value);
    return -1;
  }
  snprintf (pct, sizeof pct, "%d", (int) (f * 100.0 + 0.5));
  return param_set (hdd_param_table, p, key, pct, err, errlen);
}

static bool
power_timer_key (const char *key)
{
  return strcmp (key, "idle-a") == 0 || strcmp (key, "idle-b") == 0
    || strcmp (key, "idle-c") == 0 || strcmp (key, "standby") == 0;
}

/* standby=hdparm:N: the standby timer as hdparm -S N sets it. */
static int
set_standby_hdparm (struct hdd_params *p, const char *value,
                    char *err, size_t errlen)
{
  uint64_t n, ns;

  if (parse_uint (value + 7, &n) == -1 || power_states_hdparm (n, &ns) == -1) {
    snprintf (err, errlen, "standby=%s: expected hdparm:N with N 0 to 252 "
              "or 255, as hdparm -S takes it (0 off, 1-240 N x 5 s, "
              "241-251 (N-240) x 30 min, 252 21 min, 255 21 min 15 s; "
              "253 is vendor-defined and 254 reserved: give a duration)",
              value);
    return -1;
  }
  p->power_timer[HDD_PS_STANDBY] = ns;
  return 0;
}

int
hdd_params_set (struct hdd_params *p, const char *key, const char *value,
                char *err, size_t errlen)
{
  int r;

  forget_line (p, key);

  if (strcmp (key, seek_table_key) == 0)
    return set_seek_table (p, value, err, errlen);
  if (strcmp (key, "zone-table") == 0)
    return set_table (p, TK_ZONES, key, value, err, errlen);
  if (strcmp (key, "slips") == 0)
    return set_table (p, TK_SLIPS, key, value, err, errlen);
  if (strcmp (key, "defects") == 0)
    return set_table (p, TK_DEFECTS, key, value, err, errlen);
  if (strcmp (key, "readahead") == 0 && strcmp (value, "off") == 0)
    value = "0";
  if (strcmp (key, "erc") == 0 && strcmp (value, "off") == 0)
    value = "0";
  if (strcmp (key, bad_sectors_key) == 0)
    return set_bad_file (p, value, err, errlen);
  if (strcmp (key, "smr-aged") == 0 && strchr (value, '.'))
    return set_fraction_pct (p, key, value, err, errlen);
  if (power_timer_key (key) && strcmp (value, "off") == 0)
    value = "0";
  if (strcmp (key, "standby") == 0 && strncmp (value, "hdparm:", 7) == 0)
    return set_standby_hdparm (p, value, err, errlen);
  r = param_set (hdd_param_table, p, key, value, err, errlen);
  if (r == 0 && strcmp (key, "service") == 0)
    p->kind = KIND_FIXED;
  return r;
}

const char *
hdd_params_profile_name (const struct hdd_params *p)
{
  return p->profile;
}

void
hdd_params_print_help (FILE *fp)
{
  const enum param_style drive = PARAM_STYLE_PROFILE;

  param_print_help (hdd_param_table, fp);
  param_print_help_line (drive, "seek-table=D:T,D:T,...",
                         "measured seek times (cylinders:duration), "
                         "replacing the curve", fp);
  param_print_help_line (drive, "zone-table=" ZONE_TABLE_SYNTAX,
                         "explicit zones (skews, offset, empty and spares "
                         "in sectors), replacing zones=, sectors-*=, "
                         "*-skew=", fp);
  param_print_help_line (drive, "slips=ZONE:SECTOR,...",
                         "slipped physical sectors (tracks with "
                         "sparing=tracks), zone-relative", fp);
  param_print_help_line (drive, "defects=ZONE:SECTOR>SPARE,...",
                         "defective sectors and their replacements, "
                         "zone-relative", fp);
  param_print_help_line (drive, "bad-sectors=FILE",
                         "bad (and weak) sectors of the image: a GNU "
                         "ddrescue mapfile (its '-' blocks) or lines "
                         "FIRST[-LAST|+COUNT] [bad|weak] of 512-byte "
                         "sectors", fp);
}

uint64_t
hdd_params_capacity (const struct hdd_params *p)
{
  return p->capacity;
}

uint64_t
hdd_params_max_transfer (const struct hdd_params *p)
{
  return p->max_transfer;
}

bool
hdd_params_rotates (const struct hdd_params *p)
{
  return p->kind == KIND_MECH;
}

void
hdd_params_print_values (const struct hdd_params *p, FILE *fp)
{
  unsigned i;

  fprintf (fp, "profile=%s\n", p->profile);
  param_print_values (hdd_param_table, p, fp);
  if (p->seek_npoints > 0) {
    char buf[64];
    fprintf (fp, "seek-table=");
    for (i = 0; i < p->seek_npoints; i++)
      fprintf (fp, "%s%" PRIu64 ":%s", i ? "," : "", p->seek_dist[i],
               format_duration (p->seek_time[i], buf, sizeof buf));
    fprintf (fp, "\n");
  }
  print_tables (p, fp);
  if (p->tail.bad_file[0])
    fprintf (fp, "bad-sectors=%s\n", p->tail.bad_file);
}

/* What DiskSim's controller (dctl.h) needs of the rest: DiskSim's
 * own layout and positioning, a segmented buffer, the image at the
 * drive's start (a request is one run of blocks), and no defect moving
 * a block elsewhere (DiskSim's remapped-sector path is not modelled).
 */
static int
check_disksim (const struct hdd_params *p, char *err, size_t errlen)
{
  unsigned i;

  if (p->nzt == 0 || p->position_rule != POSITION_DISKSIM
      || p->placement != PLACE_START) {
    snprintf (err, errlen, "controller=disksim: needs zone-table=, "
              "position-rule=disksim and placement=start (DiskSim's own "
              "layout and positioning)");
    return -1;
  }
  if (p->cache == CACHE_WB || p->cache_segments + 1 > 64) {
    snprintf (err, errlen, "controller=disksim: needs cache=wt or off and "
              "at most 63 cache-segments= (DiskSim's buffer)");
    return -1;
  }
  if (p->tail.bad_file[0] || p->tail.lse_rate > 0) {
    snprintf (err, errlen, "controller=disksim: bad-sectors= and lse-rate= "
              "are not modelled by DiskSim's controller");
    return -1;
  }
  for (i = 0; i < p->ndefects; i++)
    if (p->defects[i].at != p->defects[i].to) {
      snprintf (err, errlen, "controller=disksim: defects=%u:%" PRIu64 ">%"
                PRIu64 ": a block moved to a spare is not modelled",
                p->defects[i].zone, p->defects[i].at, p->defects[i].to);
      return -1;
    }
  return 0;
}

/* The media cache's log lies on the drive, in whole sectors. */
static int
check_media_cache (const struct hdd_params *p, char *err, size_t errlen)
{
  if (p->mc_size == 0)
    return 0;
  if (p->mc_size % SECTOR || p->mc_at % SECTOR) {
    snprintf (err, errlen, "media-cache-size=%" PRIu64 ", media-cache-at=%"
              PRIu64 ": not multiples of the %d-byte sector", p->mc_size,
              p->mc_at, SECTOR);
    return -1;
  }
  if (p->mc_at > p->capacity || p->mc_size > p->capacity - p->mc_at) {
    snprintf (err, errlen, "media-cache-at=%" PRIu64 ", media-cache-size=%"
              PRIu64 ": the media cache ends past the drive's capacity=%"
              PRIu64, p->mc_at, p->mc_size, p->capacity);
    return -1;
  }
  if (p->mc_max_write > p->mc_size) {
    snprintf (err, errlen, "media-cache-max-write=%" PRIu64 ": more than "
              "media-cache-size=%" PRIu64, p->mc_max_write, p->mc_size);
    return -1;
  }
  return 0;
}

int
params_check (const struct hdd_params *p, char *err, size_t errlen)
{
  /* A command carries whole sectors, whatever the drive. */
  if (p->max_transfer % SECTOR != 0) {
    snprintf (err, errlen, "max-transfer=%" PRIu64 ": not a multiple of "
              "the %d-byte sector (0 = unlimited)", p->max_transfer, SECTOR);
    return -1;
  }
  if (power_states_check (p, err, errlen) == -1)
    return -1;
  if (p->kind == KIND_FIXED)
    return 0;
  if (p->smr && p->controller == CTLR_DISKSIM) {
    snprintf (err, errlen, "smr=1: not with controller=disksim (DiskSim's "
              "controller has no shingled bands)");
    return -1;
  }
  if (p->smr && (p->mc_size == 0 || p->legacy)) {
    snprintf (err, errlen, "smr=1: needs the media cache as its persistent "
              "cache (media-cache-size=, and not legacy=true)");
    return -1;
  }
  if (p->write_settle_neg && p->position_rule != POSITION_DISKSIM) {
    char a[32];
    snprintf (err, errlen, "write-settle-neg=%s: needs position-rule="
              "disksim (DiskSim's rule for a negative write settle)",
              format_duration (p->write_settle_neg, a, sizeof a));
    return -1;
  }
  if (p->write_bus && p->zl_write && p->fast_write == 0) {
    snprintf (err, errlen, "write-waits-for-bus=1 with zero-latency-write=1 "
              "(and fast-write=0): the two together are not modelled");
    return -1;
  }
  if (p->spt_inner > p->spt_outer) {
    snprintf (err, errlen, "sectors-inner=%" PRIu64 ": more than "
              "sectors-outer=%" PRIu64 " (outer tracks are longer)",
              p->spt_inner, p->spt_outer);
    return -1;
  }
  if (p->seek_npoints == 0
      && !(p->seek_track <= p->seek_avg && p->seek_avg < p->seek_full)) {
    char a[32], b[32], c[32];
    snprintf (err, errlen, "seek-track=%s, seek-avg=%s, seek-full=%s: "
              "must satisfy seek-track <= seek-avg < seek-full",
              format_duration (p->seek_track, a, sizeof a),
              format_duration (p->seek_avg, b, sizeof b),
              format_duration (p->seek_full, c, sizeof c));
    return -1;
  }
  if (p->write_hits && p->write_seg == WSEG_NONE) {
    snprintf (err, errlen, "cache-write-hits=1 with cache-write-segment="
              "none: no segment keeps written data (shared or separate)");
    return -1;
  }
  if (p->fast_write != 0 && p->cache != CACHE_WT) {
    snprintf (err, errlen, "fast-write=%" PRIu64 " needs cache=wt (cache="
              "wb caches every write; off has no buffer to complete from)",
              p->fast_write);
    return -1;
  }
  if (p->cache != CACHE_OFF && p->cache_size / p->cache_segments < SECTOR) {
    snprintf (err, errlen, "cache-size=%" PRIu64 ", cache-segments=%"
              PRIu64 ": a segment must hold at least one sector",
              p->cache_size, p->cache_segments);
    return -1;
  }
  if (check_media_cache (p, err, errlen) == -1)
    return -1;
  return p->controller == CTLR_DISKSIM ? check_disksim (p, err, errlen) : 0;
}

/* Name the profile file the values came from, and the lines that set
 * the keys the message names ("key="): the inconsistency may be in the
 * file (or in a parameter given over it).
 */
static int
validate_fail (const struct hdd_params *p, const char *msg, char *err,
               size_t errlen)
{
  char where[HDD_ERRLEN] = "";
  size_t used = 0;
  unsigned i;

  if (!p->file[0]) {
    snprintf (err, errlen, "%s", msg);
    return -1;
  }
  for (i = 0; i < p->nlines && used < sizeof where; i++) {
    char pat[64];
    snprintf (pat, sizeof pat, "%s=", p->lines[i].key);
    if (strstr (msg, pat))
      used += (size_t) snprintf (where + used, sizeof where - used,
                                 ", line %u (%s)", p->lines[i].line,
                                 p->lines[i].key);
  }
  snprintf (err, errlen, "profile %s%s, or a parameter given over it: %s",
            p->file, where, msg);
  return -1;
}

int
hdd_params_validate (const struct hdd_params *p, char *err, size_t errlen)
{
  char msg[HDD_ERRLEN];
  struct drive_layout *l;

  if (params_check (p, msg, sizeof msg) == -1)
    return validate_fail (p, msg, err, errlen);
  if (p->kind == KIND_FIXED)
    return 0;
  /* The rest needs the geometry and the seek fit. */
  l = layout_new (p, 0, msg, sizeof msg);
  if (!l)
    return validate_fail (p, msg, err, errlen);
  layout_free (l);
  return 0;
}
