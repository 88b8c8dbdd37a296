/* hddsim: the built-in drive profiles: data and a lookup, nothing else.
 *
 * A profile is a list of key=value settings, each with its source, so
 * that the values are applied through the same parser as nbdkit
 * parameters (the loader, profile_load.c) and --dump-plugin can show
 * where every number came from.  "estimate" marks a value no public
 * document gives; the reasoning is in the source string (and
 * docs/model.md).
 */

#include <string.h>

#include "profile.h"

/* The command size of each drive (max-transfer_real of its profile,
 * not its default: see the max-transfer entries below).
 */
#define MT_ATA28 "ATA 28-bit LBA: READ/WRITE DMA carry at most 256 " \
  "sectors (a sector count of 0 means 256), Linux libata's " \
  "ATA_MAX_SECTORS; its 78,125,000 LBAs fit 28-bit addresses"
#define MT_SATA "Linux's default max_sectors_kb for a SATA disk " \
  "(BLK_DEF_MAX_SECTORS, 2560 sectors, since 4.4); the drive's 48-bit " \
  "commands would carry up to 65,536 sectors"

/* The drive's queue (docs/schedulers.md, "The drive's queue"; the
 * sources in full in docs/model.md).
 */
#define NCQ_DEPTH_SATA "SATA NCQ: at most 32 commands, tags 0-31 (Serial " \
  "ATA II: Extensions to SATA 1.0, Native Command Queuing; the Intel/" \
  "Seagate NCQ white paper, 2003); a drive reports it in IDENTIFY " \
  "DEVICE word 75 (e.g. WD TRM 2679-771422: 001Fh = depth 32)"
#define NCQ_ORDER "Intel/Seagate NCQ white paper (2003): Rotational " \
  "Position Ordering, the command with the shortest access time, seek " \
  "and rotational latency"
#define NCQ_MAX_WAIT "no SATA manual states an aging bound; the one " \
  "published default of a firmware's: HGST Ultrastar C15K600 spec " \
  "section 18.10.2, Mode Page 00h Command Aging Limit 0030h x 50 ms = 2.4 s"
#define NCQ_OVERHEAD "ilsistemista.net (G. Danti, NCQ, software queue " \
  "and I/O schedulers, 500 GB 7200 rpm Seagate, RHEL 6.3): one thread " \
  "of random reads shows basically no difference with NCQ on or off"
#define NCQ_LOOKAHEAD "fitted: no manufacturer states how many commands " \
  "its firmware weighs; rpo over all 32 gains 2.4-2.5x QD1 to QD32 " \
  "(4K random reads, full stroke) on the model, well above drives of " \
  "the class; "
#define NCQ_LOOKAHEAD_DESKTOP NCQ_LOOKAHEAD "5 gives ~1.5x, the gain " \
  "ilsistemista.net measured from NCQ alone on a desktop 7200 rpm " \
  "Seagate (32 threads of random reads, OS queue off: 'comparable' to " \
  "the host elevator's 'about 50%')"

/* Power states (docs/power-states.md).  The manuals give the time
 * from standby to ready as a maximum ("Standby to Ready (sec) N
 * (max)"): the model takes it, the one figure given.  No manual gives
 * the PowerChoice idle states' recovery times (the drive reports them
 * in its Power Condition log): estimates.
 */
#define SPINUP_ESTIMATE "estimate: no product manual of this drive found " \
  "with its start/stop times; "
#define IDLE_A_RECOVERY "estimate: idle_a powers down electronics only, " \
  "the heads stay on track (Seagate PowerChoice: 'Reduced electronics')"
#define IDLE_B_RECOVERY "estimate: idle_b unloads the heads onto the " \
  "ramp (PowerChoice: 'Heads unloaded. Disks spinning at full RPM'); " \
  "loading them and settling on a track, a few hundred ms"
#define IDLE_C_RECOVERY "estimate: idle_c also slows the spindle " \
  "(PowerChoice: 'Heads unloaded. Disks spinning at reduced RPM'): " \
  "the heads load once it is back to speed, about a second"

static const struct hdd_profile_value st340014a_values[] = {
  { "capacity", "40000000000",
    "78,125,000 LBAs: Linux libata boot log of an ST340014A (fw 3.16)" },
  { "rpm", "7200", "Seagate spec sheet (Barracuda 7200.7)" },
  { "surfaces", "1", "1 disc, 1 head: 80 GB/platter family, 40 GB model "
    "(redhill.net.au hard drive history, Barracuda 7200.7)" },
  { "zones", "16", "estimate: drives of 2003 had 15 to 30 zones" },
  { "sectors-outer", "1170",
    "estimate: 683 Mbit/s = 85.4 MB/s max internal rate (spec) less "
    "~16% format overhead (ECC, servo, gaps) = 71.9 MB/s at 7200 rpm" },
  { "sectors-inner", "630", "estimate: inner/outer radius ratio ~0.54 of "
    "a 3.5\" platter; gives ~58 MB/s average sustained (spec: 58 MB/s)" },
  { "layout", "cylinder", "drives of its era" },
  { "seek-track", "0.8ms", "Seagate Barracuda 7200.x spec sheets: "
    "track-to-track read 0.8 ms" },
  { "seek-avg", "8.5ms", "Seagate spec sheet: average seek 8.5 ms "
    "(also TechReport's spec table, Barracuda 7200.7)" },
  { "seek-full", "17ms", "estimate: full stroke about twice the average, "
    "as in Seagate manuals of the period" },
  { "write-settle", "0.2ms", "estimate: Seagate quotes write seeks "
    "slightly longer than read seeks" },
  { "head-switch", "1ms", "estimate (unused: one surface)" },
  { "iface-rate", "100M", "ATA-100 (UltraDMA mode 5): 100 MB/s" },
  { "overhead", "0.1ms", "estimate: ATA command overhead of drives "
    "of the period (DiskSim-validated drives: 0.1 to 0.5 ms)" },
  { "cache", "wb", "ATA drives ship with the write cache on" },
  { "cache-size", "2M", "spec sheet: 2 MB buffer" },
  { "cache-segments", "8", "estimate: ATA drives of the period split "
    "the buffer into a handful of adaptive segments" },
  { "readahead", "256K", "estimate: one segment" },
  { "max-transfer", "0", "unlimited until the split is measured in a "
    "guest (issue 16); the drive's command, max-transfer=128K: " MT_ATA28 },
  { "ncq-depth", "1", "parallel ATA: Linux's libata queues nothing on "
    "PATA (no legacy ATA TCQ), so the seeds' drive served one command at "
    "a time; its SATA siblings (7200.7 NCQ) took 32" },
  { "ncq-order", "rpo", "with ncq-depth=32, as its NCQ sibling: " NCQ_ORDER },
  { "ncq-max-wait", "2.4s", NCQ_MAX_WAIT },
  { "ncq-overhead", "0", NCQ_OVERHEAD },
  { "ncq-lookahead", "5", NCQ_LOOKAHEAD_DESKTOP },
  { "spinup", "10s", SPINUP_ESTIMATE "the Barracuda 7200.8 Serial ATA "
    "Product Manual (Rev. B, 2.7 Start/stop times), its successor's: "
    "Standby to Ready 10 s max (no PowerChoice idle states: the drive "
    "predates them)" },
  { NULL },
};

static const struct hdd_profile_value st4000nm0033_values[] = {
  { "capacity", "4000787030016", "Seagate Constellation ES.3 product "
    "manual: 7,814,037,168 LBAs" },
  { "rpm", "7200", "spec sheet" },
  { "surfaces", "10", "Constellation ES.3 product manual, internal drive "
    "characteristics: 10 read/write heads, 400 GB per surface (4 TB)" },
  { "zones", "24", "estimate" },
  { "sectors-outer", "3190", "product manual: sustained transfer rate 83 "
    "to 175 MB/s; 175 MB/s = 3190 sectors per 8.33 ms revolution plus "
    "the 1 ms cylinder skew of a serpentine layout" },
  { "sectors-inner", "1513", "product manual: 83 MB/s at the inner edge, "
    "likewise (the model then has ~332,000 cylinders; the manual: 320,800 "
    "tracks per surface)" },
  { "layout", "serpentine", "modern drives" },
  { "seek-track", "0.5ms", "estimate: typical of 3.5\" enterprise "
    "nearline drives" },
  { "seek-avg", "8.5ms", "product manual: average read seek 8.5 ms "
    "(write 9.5 ms)" },
  { "seek-full", "16ms", "estimate" },
  { "write-settle", "0.5ms", "estimate: spec average write seek "
    "9.5 ms, 1 ms above read, spread over seek and settle" },
  { "head-switch", "0.5ms", "estimate" },
  { "iface-rate", "600M", "SATA 6 Gb/s: 600 MB/s after 8b/10b" },
  { "overhead", "0.05ms", "estimate" },
  { "cache", "wb", "spec sheet: write cache enabled by default" },
  { "cache-size", "128M", "spec sheet: 128 MB cache" },
  { "cache-segments", "32", "estimate" },
  { "readahead", "1M", "estimate" },
  { "max-transfer", "0", "unlimited until the split is measured in a "
    "guest (issue 16); the drive's command, max-transfer=1280K: "
    MT_SATA },
  { "ncq-depth", "32", NCQ_DEPTH_SATA },
  { "ncq-order", "rpo", NCQ_ORDER },
  { "ncq-max-wait", "2.4s", NCQ_MAX_WAIT },
  { "ncq-overhead", "0", "as a desktop drive's: " NCQ_OVERHEAD },
  { "ncq-lookahead", "14", NCQ_LOOKAHEAD "14 gives ~2.0x, 'nearly 100%' "
    "for enterprise SATA drives (Seagate Barracuda NL) 'with deep queues' "
    "(Wikipedia, IOPS); Seagate's Exos X18 datasheet (as quoted by golem.de) "
    "gives 170 IOPS at 4K QD16, ~2x the ~86 at QD1 that its class's seek "
    "and latency give (WD Ultrastar DC HC310 spec: 7.4 + 4.16 ms)" },
  { "spinup", "15s", SPINUP_ESTIMATE "the Constellation ES.2 Serial ATA "
    "Product Manual (Rev. H, 2.7 Start/stop times), the previous "
    "generation's: Standby to Ready 15 s max (3 TB models)" },
  { "idle-a-recovery", "0", IDLE_A_RECOVERY },
  { "idle-b-recovery", "500ms", IDLE_B_RECOVERY },
  { "idle-c-recovery", "1s", IDLE_C_RECOVERY },
  { NULL },
};

static const struct hdd_profile_value st500lt012_values[] = {
  { "capacity", "500107862016", "976,773,168 LBAs (IDEMA 500 GB)" },
  { "rpm", "5400", "Seagate Momentus Thin ST500LT012 spec sheet" },
  { "surfaces", "2", "spec sheet: 1 disc, 2 recording surfaces" },
  { "zones", "24", "estimate" },
  { "sectors-outer", "2000", "estimate: 800 Mbit/s = 100 MB/s max "
    "internal rate (spec) less ~8% format overhead = 92 MB/s" },
  { "sectors-inner", "1060", "estimate: inner/outer ratio ~0.53 of a "
    "2.5\" platter" },
  { "layout", "serpentine", "modern drives" },
  { "seek-track", "1.5ms", "spec sheet: track-to-track 1.5 ms" },
  { "seek-avg", "12ms", "spec sheet: average seek 12 ms" },
  { "seek-full", "22ms", "estimate: Hitachi Travelstar 5K320 (same class, "
    "12 ms average) specifies a 20 ms full stroke; a little more for "
    "seek-track 1.5 ms" },
  { "write-settle", "0.5ms", "estimate" },
  { "head-switch", "1ms", "estimate" },
  { "iface-rate", "300M", "SATA 3 Gb/s: 300 MB/s (spec sheet)" },
  { "overhead", "0.1ms", "estimate" },
  { "cache", "wb", "ATA drives ship with the write cache on" },
  { "cache-size", "16M", "spec sheet: 16 MB cache" },
  { "cache-segments", "16", "estimate" },
  { "readahead", "512K", "estimate" },
  { "max-transfer", "0", "unlimited until the split is measured in a "
    "guest (issue 16); the drive's command, max-transfer=1280K: "
    MT_SATA },
  { "ncq-depth", "32", NCQ_DEPTH_SATA },
  { "ncq-order", "rpo", NCQ_ORDER },
  { "ncq-max-wait", "2.4s", NCQ_MAX_WAIT },
  { "ncq-overhead", "0", NCQ_OVERHEAD },
  { "ncq-lookahead", "5", "as a desktop drive's (no laptop drive's gain "
    "found): " NCQ_LOOKAHEAD_DESKTOP },
  { "spinup", "4s", SPINUP_ESTIMATE "2.5-inch 5400 rpm drives spin up "
    "faster than 3.5-inch ones (lighter platters, one disc): about "
    "4 s, under the 10-15 s maxima of Seagate's 3.5-inch manuals" },
  { "idle-a-recovery", "0", IDLE_A_RECOVERY },
  { "idle-b-recovery", "300ms", "estimate: a laptop drive unloads its "
    "heads when idle and loads them faster than a 3.5-inch drive's "
    "longer arm" },
  { NULL },
};

static const struct hdd_profile_value fixed_values[] = {
  { "service", "1ms", "no drive: every request takes service=" },
  { NULL },
};

static const struct hdd_profile st340014a = {
  "st340014a", "Seagate Barracuda 7200.7 ST340014A, 40 GB, 7200 rpm, "
  "2 MB cache, ATA-100 (2003)", st340014a_values, "128K",
};
static const struct hdd_profile st4000nm0033 = {
  "st4000nm0033", "Seagate Constellation ES.3 ST4000NM0033, 4 TB, "
  "7200 rpm enterprise SATA, 128 MB cache, 6 Gb/s (2013)",
  st4000nm0033_values, "1280K",
};
static const struct hdd_profile st500lt012 = {
  "st500lt012", "Seagate Momentus Thin ST500LT012, 500 GB, 5400 rpm "
  "2.5\" laptop, 16 MB cache, SATA 3 Gb/s (2012)", st500lt012_values,
  "1280K",
};
static const struct hdd_profile fixed = {
  "fixed", "no mechanics: every request takes service= (default 1ms)",
  fixed_values, "0",
};

const struct hdd_profile *const hdd_profile_list[] = {
  &st340014a, &st4000nm0033, &st500lt012, &fixed, NULL,
};

const struct hdd_profile *
hdd_profile_find (const char *name)
{
  size_t i;

  for (i = 0; hdd_profile_list[i]; i++)
    if (strcmp (hdd_profile_list[i]->name, name) == 0)
      return hdd_profile_list[i];
  return NULL;
}
