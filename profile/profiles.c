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
#include "profiles_smr.h"
#include "sources.h"

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
  { "sectors-outer", "1375",
    "spec: average sustained transfer rate 58 MB/s, read track after "
    "track with the 1.0 ms cylinder skew of a one-head drive (seek-track "
    "+ write-settle): 58 MB/s x (8.333 + 1.0 ms) / 512 = 1057 sectors "
    "a track on average, 1375 at the outer edge with the inner/outer "
    "ratio below; 84.5 MB/s under the head, within the spec's 683 "
    "Mbit/s (85.4 MB/s) maximum internal rate" },
  { "sectors-inner", "740", "estimate: inner/outer radius ratio ~0.54 of "
    "a 3.5\" platter (0.538 x 1375); with the outer edge, 58 MB/s "
    "average sustained including the cylinder skew (spec: 58 MB/s)" },
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
  { "write-cache-entries", "8", WRITE_ENTRIES },
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
  TAIL_VALUES ("120s", TAIL_LIMIT_DESKTOP),
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
  { "write-cache-entries", "32", WRITE_ENTRIES },
  { "readahead", "1M", "estimate" },
  MAX_TRANSFER_SATA,
  SATA_NCQ_VALUES,
  { "ncq-overhead", "0", "as a desktop drive's: " NCQ_OVERHEAD },
  { "ncq-lookahead", "14", NCQ_LOOKAHEAD "14 gives ~2.0x, 'nearly 100%' "
    "for enterprise SATA drives (Seagate Barracuda NL) 'with deep queues' "
    "(Wikipedia, IOPS); Seagate's Exos X18 datasheet (as quoted by golem.de) "
    "gives 170 IOPS at 4K QD16, ~2x the ~86 at QD1 that its class's seek "
    "and latency give (WD Ultrastar DC HC310 spec: 7.4 + 4.16 ms)" },
  TAIL_VALUES ("7s", "estimate: an enterprise drive with SCT ERC, whose default Seagate does not publish; 7 s, the value such drives commonly ship with (Linux RAID wiki, Timeout Mismatch)"),
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
  { "write-cache-entries", "16", WRITE_ENTRIES },
  { "readahead", "512K", "estimate" },
  MAX_TRANSFER_SATA,
  SATA_NCQ_VALUES,
  { "ncq-overhead", "0", NCQ_OVERHEAD },
  { "ncq-lookahead", "5", "as a desktop drive's (no laptop drive's gain "
    "found): " NCQ_LOOKAHEAD_DESKTOP },
  TAIL_VALUES ("120s", TAIL_LIMIT_DESKTOP),
  { "spinup", "4s", SPINUP_ESTIMATE "2.5-inch 5400 rpm drives spin up "
    "faster than 3.5-inch ones (lighter platters, one disc): about "
    "4 s, under the 10-15 s maxima of Seagate's 3.5-inch manuals" },
  { "idle-a-recovery", "0", IDLE_A_RECOVERY },
  { "idle-b-recovery", "300ms", "estimate: a laptop drive unloads its "
    "heads when idle and loads them faster than a 3.5-inch drive's "
    "longer arm" },
  { NULL },
};

/* ---- Drives of today (issue 26): values from the manufacturers'
 * documents, each naming its own; what no document gives is marked
 * "estimated" with its reasoning.  Never fitted to third-party
 * measurements of these drives (those are kept to check them blind).
 * Seek curves: seek-avg-weight=tracks, the OEM definition of the
 * average seek (seek.c).  Write settle: the model adds one settle to
 * every write seek, so it is the manual's average write seek less its
 * average read seek (the averages are what random writes see).
 * Sectors per track: from the sustained rate, a track taking a
 * revolution plus the cylinder skew of a serpentine layout (seek-track
 * + write-settle): spt = rate x (rev + skew) / 512.
 */
#define HGST_AVG_DEF "the OEM definition (HGST/WD OEM specifications, " \
  "'Average seek time': the weighted average of all possible seek " \
  "combinations, each length n weighted by max + 1 - n)"
#define EST_FULL_RATIO "estimated: the manual gives no full stroke; " \
  "1.67 x the average read seek, the ratio of the class's OEM " \
  "specifications that state both (Hitachi Travelstar 5K320 OEM " \
  "specification, section 4.4.2, Tables 5-6: 12 ms average, 20 ms full " \
  "stroke)"
#define EST_ID_35 "estimated: the manual gives the outer rate only; " \
  "inner/outer 83/175, the ratio a 3.5\" platter's manual states " \
  "(Seagate Constellation ES.3 product manual: 83 to 175 MB/s)"
#define EST_ZONES "estimated: the model's zones are linear steps; drives " \
  "of the class have 20-30 recording zones"
#define EST_OVERHEAD "estimated: command overhead of SATA drives of the " \
  "class (DiskSim-validated drives: 0.1 to 0.5 ms; today's controllers " \
  "faster)"
#define EST_HEAD_SWITCH "estimated: no manual of the class states it; on " \
  "a serpentine layout it is paid once per surface of a zone"
#define EST_SEGMENTS "estimated: the manual says 'multi-segmented cache' " \
  "without a count"
#define EST_READAHEAD "estimated: one segment"
#define SATA6 "SATA 6 Gb/s: 600 MB/s after 8b/10b (manual: interface)"
#define WB_ATA "ATA drives ship with the write cache on (manual: " \
  "SET FEATURES, write cache enabled by default)"

#define BARRACUDA_MANUAL "Seagate BarraCuda 3.5\" SATA product manual " \
  "(ST2000DM006 family, 2016), specification summary table"
#define BARRACUDA_1414 "estimated from the class: Seagate's consumer " \
  "manual of this family gives no seek times; its predecessor's, " \
  "Barracuda 7200.14 product manual (ST2000DM001), 'Seek performance': "

static const struct hdd_profile_value st2000dm006_values[] = {
  { "capacity", "2000398934016", BARRACUDA_MANUAL ": 2 TB, 3,907,029,168 "
    "LBAs (the IDEMA count for 2,000 GB)" },
  { "rpm", "7200", BARRACUDA_MANUAL ": 7200 rpm (average latency 4.16 ms)" },
  { "surfaces", "4", "estimated: 2 discs of 1 TB, the family's platter" },
  { "zones", "24", EST_ZONES },
  { "sectors-outer", "4440", "estimated (no manufacturer text found): "
    "220 MB/s at the outer edge, written from memory of the manual's "
    "specification summary table (max. sustained data rate OD); no copy "
    "of the manual was found to confirm it; 220 MB/s x (8.333 + 1.0 + "
    "1.0 ms skew) / 512" },
  { "sectors-inner", "2106", EST_ID_35 },
  { "layout", "serpentine", "modern drives" },
  { "seek-track", "1ms", BARRACUDA_1414 "track-to-track read < 1.0 ms" },
  { "seek-avg", "8.5ms", BARRACUDA_1414 "average seek read < 8.5 ms" },
  { "seek-avg-weight", "tracks", HGST_AVG_DEF },
  { "seek-full", "14.2ms", EST_FULL_RATIO },
  { "write-settle", "1ms", BARRACUDA_1414 "average seek write < 9.5 ms, "
    "1.0 ms above read" },
  { "head-switch", "1ms", EST_HEAD_SWITCH },
  { "iface-rate", "600M", SATA6 },
  { "overhead", "0.1ms", EST_OVERHEAD },
  { "cache", "wb", WB_ATA },
  { "cache-size", "64M", BARRACUDA_MANUAL ": cache 64 MB" },
  { "cache-segments", "16", EST_SEGMENTS },
  { "write-cache-entries", "16", WRITE_ENTRIES },
  { "readahead", "1M", EST_READAHEAD },
  MAX_TRANSFER_SATA,
  SATA_NCQ_VALUES,
  { "ncq-overhead", "0", NCQ_OVERHEAD },
  { "ncq-lookahead", "5", NCQ_LOOKAHEAD_DESKTOP },
  TAIL_VALUES ("120s", TAIL_LIMIT_DESKTOP),
  { "spinup", "10s", SPINUP_ESTIMATE "as its predecessors' manuals "
    "(Barracuda 7200.8: Standby to Ready 10 s max); 1-2 discs" },
  { NULL },
};

#define HC310_SPEC "WD Ultrastar DC HC310 SATA OEM specification " \
  "(Hard Disk Drive Specifications, rev. 1.4, 18 Sep 2018)"

static const struct hdd_profile_value hus726t4tala6l4_values[] = {
  { "capacity", "4000787030016", HC310_SPEC ": 4 TB model, 7,814,037,168 "
    "LBAs (the IDEMA count for 4,000 GB)" },
  { "rpm", "7200", HC310_SPEC ", section 4.5.1.3, Table 7: 7200 rpm, "
    "8.33 ms a revolution, average latency 4.16 ms" },
  { "surfaces", "8", "estimated: 4 discs of 1 TB" },
  { "zones", "24", EST_ZONES },
  { "sectors-outer", "4206", "estimated: the data-rate table of the "
    "specification was not retrieved; 230 MB/s at the outer edge, the "
    "class of a 1 TB-per-disc 7200 rpm drive; 230 MB/s x (8.333 + 0.23 "
    "+ 0.8 ms skew) / 512" },
  { "sectors-inner", "1995", EST_ID_35 },
  { "layout", "serpentine", "modern drives" },
  { "seek-track", "0.23ms", HC310_SPEC ", section 4.5.1.2, Table 6: single "
    "track seek, read, typical 0.23 ms (without command overhead, "
    "including settling)" },
  { "seek-avg", "7.4ms", HC310_SPEC ", section 4.5.1.1, Table 5: average "
    "seek, read, typical 7.4 ms" },
  { "seek-avg-weight", "tracks", HGST_AVG_DEF },
  { "seek-full", "12.4ms", EST_FULL_RATIO },
  { "write-settle", "0.8ms", HC310_SPEC ", Table 5: average seek write "
    "8.2 ms, 0.8 ms above read (single track: 0.32 against 0.23 ms)" },
  { "head-switch", "0.5ms", EST_HEAD_SWITCH },
  { "iface-rate", "600M", SATA6 },
  { "overhead", "0.05ms", EST_OVERHEAD },
  { "cache", "wb", WB_ATA },
  { "cache-size", "256M", "estimated (no manufacturer text found): 256 MB, "
    "written from memory of the HC310 data sheet; the copy found of "
    HC310_SPEC " gives its seek and latency tables (section 4.5.1) but "
    "not its buffer" },
  { "cache-segments", "32", EST_SEGMENTS },
  { "write-cache-entries", "32", WRITE_ENTRIES },
  { "readahead", "1M", EST_READAHEAD },
  MAX_TRANSFER_SATA,
  SATA_NCQ_VALUES,
  { "ncq-overhead", "0", "as a desktop drive's: " NCQ_OVERHEAD },
  { "ncq-lookahead", "14", "as st4000nm0033's (enterprise SATA): "
    NCQ_LOOKAHEAD },
  TAIL_VALUES ("7s", TAIL_LIMIT_ENTERPRISE),
  { "spinup", "15s", SPINUP_ESTIMATE "as the 3.5-inch enterprise "
    "class's (Constellation ES.2: Standby to Ready 15 s max); the HC310 "
    "specification's start time not found in the stored documents" },
  { NULL },
};

#define BC25_MANUAL "Seagate BarraCuda 2.5\" SATA product manual " \
  "(ST2000LM015 family, 2016), specification summary table"
#define TS5K320 "estimated from the class: the manual gives no seek " \
  "times; a 2.5\" 5400 rpm drive's OEM specification that does " \
  "(Hitachi Travelstar 5K320 SATA OEM specification, section 4.4.2): "

static const struct hdd_profile_value st2000lm015_values[] = {
  { "capacity", "2000398934016", BC25_MANUAL ": 2 TB, 3,907,029,168 LBAs "
    "(the IDEMA count for 2,000 GB)" },
  { "rpm", "5400", BC25_MANUAL ": 5400 rpm (average latency 5.6 ms)" },
  { "surfaces", "4", "estimated: 2 discs of 1 TB in the 7 mm case" },
  { "zones", "24", EST_ZONES },
  { "sectors-outer", "3585", "estimated (no manufacturer text found): "
    "140 MB/s at the outer edge, written from memory of the manual's "
    "specification summary table (max. sustained data rate OD); no copy "
    "of the manual was found to confirm it; 140 MB/s x (11.11 + 1.0 + "
    "1.0 ms skew) / 512.  The drive records with SMR behind a media "
    "cache (issue 29): the surface is modeled as CMR" },
  { "sectors-inner", "1900", "estimated: inner/outer ~0.53 of a 2.5\" "
    "platter (as st500lt012)" },
  { "layout", "serpentine", "modern drives" },
  { "seek-track", "1ms", TS5K320 "Table 7, single track read 1.0 ms" },
  { "seek-avg", "12ms", TS5K320 "Table 5, average read 12 ms" },
  { "seek-avg-weight", "tracks", HGST_AVG_DEF },
  { "seek-full", "20ms", TS5K320 "Table 6, full stroke read 20 ms" },
  { "write-settle", "1ms", TS5K320 "Table 5, average write 13 ms, 1 ms "
    "above read" },
  { "head-switch", "1ms", EST_HEAD_SWITCH },
  { "iface-rate", "600M", SATA6 },
  { "overhead", "0.1ms", EST_OVERHEAD },
  { "cache", "wb", WB_ATA },
  { "cache-size", "128M", BC25_MANUAL ": cache 128 MB" },
  { "cache-segments", "16", EST_SEGMENTS },
  { "write-cache-entries", "16", WRITE_ENTRIES },
  { "readahead", "512K", EST_READAHEAD },
  MAX_TRANSFER_SATA,
  SATA_NCQ_VALUES,
  { "ncq-overhead", "0", NCQ_OVERHEAD },
  { "ncq-lookahead", "5", "as a desktop drive's (no laptop drive's gain "
    "found): " NCQ_LOOKAHEAD_DESKTOP },
  TAIL_VALUES ("120s", TAIL_LIMIT_DESKTOP),
  { "spinup", "4s", SPINUP_ESTIMATE "as the Momentus Thin's (st500lt012): "
    "a 2.5-inch 5400 rpm drive spins up faster than 3.5-inch ones" },
  { "idle-a-recovery", "0", IDLE_A_RECOVERY },
  { "idle-b-recovery", "300ms", "estimate: as st500lt012's (a laptop "
    "drive's short arm loads faster)" },
  { NULL },
};

#define EXOS2X18_DS "Seagate Exos 2X18 data sheet (SATA model " \
  "ST18000NM0272, 2022)"
#define EXOS_CLASS "estimated from the class: the data sheet gives no " \
  "seek times; a 3.5\" 7200 rpm enterprise drive's OEM specification " \
  "that does (" HC310_SPEC "): "

static const struct hdd_profile_value exos2x18_values[] = {
  { "capacity", "18000207937536", EXOS2X18_DS ": 18 TB; the LBA count "
    "estimated (no manufacturer text found): 35,156,656,128, the count "
    "the single-actuator Exos X18 18 TB (ST18000NM000J) reports in its "
    "IDENTIFY DEVICE data (smartctl outputs of that drive: 18,000,207,937,"
    "536 bytes); neither data sheet's count was found" },
  { "rpm", "7200", EXOS2X18_DS ": 7200 rpm, average latency 4.16 ms" },
  { "surfaces", "18", "estimated: 9 discs, 18 heads, as the single-actuator "
    "Exos X18 of the same capacity; 9 heads on each arm" },
  { "actuators", "2", EXOS2X18_DS ": dual actuator (Mach.2); Seagate's "
    "Exos 2X FAQ: over SATA the first 50% of the LBAs correspond to one "
    "actuator and the second 50% to the other" },
  { "zones", "24", EST_ZONES },
  { "sectors-outer", "5066", EXOS2X18_DS ": max. sustained transfer rate "
    "OD 554 MB/s, both actuators: 277 MB/s each; 277 MB/s x (8.333 + "
    "0.23 + 0.8 ms skew) / 512" },
  { "sectors-inner", "2403", EST_ID_35 },
  { "layout", "serpentine", "modern drives" },
  { "seek-track", "0.23ms", EXOS_CLASS "Table 6, single track read "
    "0.23 ms" },
  { "seek-avg", "6.4ms", "estimated: the data sheet's one positioning "
    "figure is its random reads, 304 IOPS at 4K QD16 (write cache "
    "disabled); 6.4 ms (with ncq-lookahead=9, seek-full=10.7ms) gives 302 "
    "on the model (tests/unit/test-model-actuators.c) and, on the same "
    "drive with one arm, 163 at QD16, against the 170 of Seagate's Exos "
    "X18 data sheet (the single-actuator sibling: 170 IOPS 4K QD16); "
    "the class's OEM figure is 7.4 ms (" HC310_SPEC ", Table 5)" },
  { "seek-avg-weight", "tracks", HGST_AVG_DEF },
  { "seek-full", "10.7ms", EST_FULL_RATIO },
  { "write-settle", "0.8ms", EXOS_CLASS "Table 5, average write 8.2 ms, "
    "0.8 ms above read" },
  { "head-switch", "0.5ms", EST_HEAD_SWITCH },
  { "iface-rate", "600M", SATA6 " (each arm's transfer is modeled on its "
    "own; the one link they share is not)" },
  { "overhead", "0.05ms", EST_OVERHEAD },
  { "cache", "wb", WB_ATA },
  { "cache-size", "256M", EXOS2X18_DS ": 256 MB multisegmented cache (each "
    "arm a half)" },
  { "cache-segments", "32", EST_SEGMENTS },
  { "write-cache-entries", "32", WRITE_ENTRIES },
  { "readahead", "1M", EST_READAHEAD },
  MAX_TRANSFER_SATA,
  SATA_NCQ_VALUES,
  { "ncq-overhead", "0", "as a desktop drive's: " NCQ_OVERHEAD },
  { "ncq-lookahead", "9", "fitted to Seagate's data sheets: QD16 split "
    "over two arms (8 commands each) gives 304 IOPS on the Exos 2X18, 16 "
    "on one arm 170 on the Exos X18: 152 against 170 per arm, a gain of "
    "12% from 8 to 16 commands; rpo over 9 gives 13% on the model (over "
    "all: 22%).  " NCQ_LOOKAHEAD },
  TAIL_VALUES ("7s", TAIL_LIMIT_ENTERPRISE),
  /* Seagate's multi-tier caching (MTC): WCD random writes above the
     reads (data sheet: 560 against 304 IOPS) are staged in a media
     cache; Seagate publishes neither its size nor its place (no
     document on MTC found): estimates.  With actuators=2 each arm has
     half of it, at the same place in its own half (model/actuators.c). */
  { "media-cache-size", "16G", "estimate: Seagate publishes no size; "
    "smaller than the 20-25 GB persistent cache of its SMR drives "
    "(Skylight's figure, not verified against its full text), a CMR "
    "drive staging only "
    "small random writes; 8 GB on each arm" },
  { "media-cache-at", "0", "estimate: at the OD (each arm's own, its "
    "first LBAs), as Skylight saw Seagate's persistent cache" },
  { "media-cache-entries", "65536", "estimate: 64K staged extents (32K "
    "each arm), about two minutes of 4K random writes at 560 IOPS before "
    "the drive must clean; the data sheet's figure is a sustained rate, "
    "whose test (bench/profile-check: 20,000 writes) the map must not "
    "fill" },
  { "media-cache-idle", "100ms", "estimate: the model's default; the "
    "drive cleans when the host is quiet" },
  { "media-cache-overhead", "3ms", "estimate, fitted to the data sheet's "
    "560 IOPS (4K QD16 WCD) on the model (bench/media-cache.sh, "
    "PROFILE=exos2x18): about the single-actuator Exos X18's 550 (the "
    "default's source), so the one controller both arms share, not the "
    "arms, bounds the staging: each arm's staged write costs about twice "
    "the X18's" },
  { "spinup", "20s", SPINUP_ESTIMATE "9 helium-filled discs take longer "
    "than the Constellation ES.2's 4-5 (Standby to Ready 15 s max)" },
  { "idle-a-recovery", "0", IDLE_A_RECOVERY },
  { "idle-b-recovery", "500ms", IDLE_B_RECOVERY },
  { "idle-c-recovery", "1s", IDLE_C_RECOVERY },
  { NULL },
};

static const struct hdd_profile_value fixed_values[] = {
  { "service", "1ms", "no drive: every request takes service=" },
  { NULL },
};

static const struct hdd_profile st340014a = {
  "st340014a", "Seagate Barracuda 7200.7 ST340014A, 40 GB, 7200 rpm, "
  "2 MB cache, ATA-100 (2003)", st340014a_values, "128K",
  "2003", "desktop 3.5\" 7200 rpm PATA", "Seagate Barracuda 7200.7 spec "
  "sheet; Linux libata boot log (capacity); estimates marked",
};
static const struct hdd_profile st4000nm0033 = {
  "st4000nm0033", "Seagate Constellation ES.3 ST4000NM0033, 4 TB, "
  "7200 rpm enterprise SATA, 128 MB cache, 6 Gb/s (2013)",
  st4000nm0033_values, "1280K",
  "2013", "enterprise 3.5\" 7200 rpm SATA", "Seagate Constellation ES.3 "
  "product manual and spec sheet; estimates marked",
};
static const struct hdd_profile st500lt012 = {
  "st500lt012", "Seagate Momentus Thin ST500LT012, 500 GB, 5400 rpm "
  "2.5\" laptop, 16 MB cache, SATA 3 Gb/s (2012)", st500lt012_values,
  "1280K",
  "2012", "laptop 2.5\" 5400 rpm SATA", "Seagate Momentus Thin spec sheet; "
  "Hitachi Travelstar 5K320 OEM specification (full stroke); estimates "
  "marked",
};
static const struct hdd_profile st2000dm006 = {
  "st2000dm006", "Seagate BarraCuda ST2000DM006, 2 TB, 7200 rpm, 64 MB "
  "cache, SATA 6 Gb/s (2016)", st2000dm006_values, "1280K",
  "2016", "desktop 3.5\" 7200 rpm SATA", BARRACUDA_MANUAL "; Barracuda "
  "7200.14 product manual (seeks, estimated); estimates marked",
};
static const struct hdd_profile hus726t4tala6l4 = {
  "hus726t4tala6l4", "WD Ultrastar DC HC310 HUS726T4TALA6L4, 4 TB, 7200 "
  "rpm enterprise CMR, 256 MB cache, SATA 6 Gb/s (2018)",
  hus726t4tala6l4_values, "1280K",
  "2018", "enterprise 3.5\" 7200 rpm CMR SATA", HC310_SPEC
  " (sections 4.5.1.1-4.5.1.3, Tables 5-7); estimates marked",
};
static const struct hdd_profile st2000lm015 = {
  "st2000lm015", "Seagate BarraCuda 2.5\" ST2000LM015, 2 TB, 5400 rpm "
  "laptop, 128 MB cache, SATA 6 Gb/s (2016; SMR modeled as CMR)",
  st2000lm015_values, "1280K",
  "2016", "laptop 2.5\" 5400 rpm SATA (SMR)", BC25_MANUAL "; Hitachi "
  "Travelstar 5K320 SATA OEM specification section 4.4.2 (seeks, "
  "estimated); estimates marked",
};
static const struct hdd_profile exos2x18 = {
  "exos2x18", "Seagate Exos 2X18 ST18000NM0272, 18 TB, 7200 rpm, two "
  "actuators, 256 MB cache, SATA 6 Gb/s (2022)", exos2x18_values, "1280K",
  "2022", "enterprise 3.5\" 7200 rpm dual-actuator SATA", EXOS2X18_DS
  "; Seagate Exos 2X Mach.2 FAQ (LBA halves); " HC310_SPEC " (seeks, "
  "estimated); estimates marked",
};
static const struct hdd_profile fixed = {
  "fixed", "no mechanics: every request takes service= (default 1ms)",
  fixed_values, "0",
  "-", "no drive", "-",
};

const struct hdd_profile *const hdd_profile_list[] = {
  &st340014a, &st4000nm0033, &st500lt012, &fixed,
  &st2000dm006, &hus726t4tala6l4, &st2000lm015, &exos2x18,
  &hdd_profile_st8000as0002, &hdd_profile_wd40efax, NULL,
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
