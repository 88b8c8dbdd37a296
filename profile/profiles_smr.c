/* hddsim: the built-in drive-managed SMR profiles (issue 29): data
 * only, as profiles.c.  Every value has its source; "estimate" marks
 * one no document gives, and docs/smr.md says which published figures
 * set a value and which are kept to check the model against.
 */

#include "profile.h"
#include "profiles_smr.h"
#include "sources.h"

#define SKYLIGHT "Aghayev & Desnoyers, Skylight - A Window on Shingled " \
  "Disk Operation, FAST '15, and ACM ToS 11(4) 2015, the 8 TB Seagate " \
  "drive's properties (docs/smr.md, sources)"
/* Skylight's numbers were quoted from memory; the stored copies of the
 * paper give only its abstract, so each is an estimate until re-read.
 */
#define NOT_VERIFIED "estimate, as recalled from "
#define UNREAD " (not verified: the stored copies give only the abstract)"

/* Seagate Archive HDD v2, 8 TB: the drive Skylight (ToS 2015) and
 * Shafaei et al. (ToS 2017) characterised.
 */
static const struct hdd_profile_value st8000as0002_values[] = {
  { "capacity", "8001563222016", "8,001,563,222,016 bytes: the device "
    "size the ST8000AS0002 reports (smartctl 'User Capacity'; aicodix/smr "
    "README 'device size in bytes'), 15,628,053,168 sectors; the product "
    "manual 100757960 rev. A's table not re-read" },
  { "rpm", "5900", "5900 RPM (Seagate's 2014 announcement as reported: "
    "lensvid.com; the product manual's table not re-read)" },
  { "surfaces", "12", "estimate: six platters of 1.33 TB, two heads each "
    "(pcinside.info's review: 1.33 TB a platter, the 8 TB 'houses no "
    "less than 6 platters'; the manual gives no head count)" },
  { "zones", "24", "estimate" },
  { "sectors-outer", "3860", "190 MB/s maximum sustained rate (Seagate's "
    "figure as reported: lensvid.com, '150MB/sec (190MB/sec max)'; the "
    "product manual's table not re-read); 190e6 / (5900/60) / 512 "
    "= 3774 sectors a revolution, plus ~2% for the skews" },
  { "sectors-inner", "1930", "estimate: half the outer track (a 3.5\" "
    "platter's inner/outer radius); gives the 150 MB/s average (as "
    "reported) within 10%" },
  { "layout", "serpentine", "modern drives" },
  { "seek-track", "1ms", "estimate" },
  { "seek-avg", "8.5ms", "estimate (Seagate's 3.5\" drives of 2014 quote "
    "8.5 ms average read seek, as recalled: not verified)" },
  { "seek-full", "17ms", "estimate: twice the average" },
  { "write-settle", "0.5ms", "estimate" },
  { "head-switch", "0.5ms", "estimate" },
  { "iface-rate", "600M", "SATA 6 Gb/s (product manual)" },
  { "overhead", "0.1ms", "estimate" },
  { "cache", "wb", "ATA drives ship with the write cache on" },
  { "cache-size", "128M", "128 MB cache (hardwareslave.com's review: "
    "'the usual cache (128MB for this model)'; the manual not re-read)" },
  { "cache-segments", "16", "estimate" },
  { "write-cache-entries", "16", WRITE_ENTRIES },
  { "readahead", "512K", "estimate" },
  MAX_TRANSFER_SATA,
  SATA_NCQ_VALUES,
  { "ncq-overhead", "0", "as the other SATA profiles" },
  { "ncq-lookahead", "5", "as the desktop profiles" },
  { "smr", "1", "drive-managed SMR: pcinside.info's review (Seagate's "
    "'Shingled Magnetic Recording'); smartctl's drive database, 'Seagate "
    "Archive HDD (SMR)'; " SKYLIGHT },
  { "smr-band-outer", "40M", NOT_VERIFIED SKYLIGHT ": bands of 15 to 40 "
    "MiB, the larger at the OD" UNREAD },
  { "smr-band-inner", "15M", NOT_VERIFIED SKYLIGHT UNREAD },
  { "media-cache-size", "25G", NOT_VERIFIED SKYLIGHT ": the persistent "
    "cache holds about 25 GiB" UNREAD "; checked against aicodix/smr's "
    "'around 32GiB' (bench/smr-check)" },
  { "media-cache-at", "0", NOT_VERIFIED SKYLIGHT ": the persistent cache "
    "at the outer diameter" UNREAD },
  { "media-cache-entries", "250000", NOT_VERIFIED SKYLIGHT ": about "
    "250,000 random writes staged before cleaning is forced" UNREAD },
  { "media-cache-max-write", "256M", "every write not sent home is staged "
    "(Skylight, as recalled: not verified): any command length" },
  { "media-cache-idle", "1500ms", NOT_VERIFIED SKYLIGHT ": cleaning "
    "starts after the drive has been idle a second or two" UNREAD },
  { "media-cache-overhead", "0", "estimate: the map's update hidden in "
    "the media write" },
  { "smr-seq-min", "512K", "estimate: commands of 512 KiB (mdraid's "
    "chunk) and 1 MiB run at the media rate on DM-SMR drives (ext4-lazy, "
    "FAST '17, and Ars Technica 2020); no document gives the firmware's "
    "threshold" },
  { "smr-aged", "0", "a fresh drive: its cache empty" },
  TAIL_VALUES ("120s", TAIL_LIMIT_DESKTOP),
  { "spinup", "15s", "estimate: no product manual of this drive found "
    "with its start/stop times; 6 discs at 5900 rpm, as the 3.5-inch "
    "class's (Constellation ES.2: Standby to Ready 15 s max)" },
  { NULL },
};

/* WD Red 4 TB, WD40EFAX: the DM-SMR NAS drive of the 2020 affair. */
static const struct hdd_profile_value wd40efax_values[] = {
  { "capacity", "4000787030016", "4,000,787,030,016 bytes (7,814,037,168 "
    "sectors): smartctl's 'User Capacity' of WD Red 4 TB drives (WD40EFRX, "
    "the same capacity point; pastebin.com reports); the WD40EFAX's own "
    "and the datasheet not found" },
  { "rpm", "5400", "5400 RPM class (the WD Red line's class; a WD40EFAX "
    "owner's report, uap14475.hatenadiary.jp: 5400rpm; the datasheet "
    "not re-read)" },
  { "surfaces", "6", "estimate: three platters (WD publishes no head "
    "count)" },
  { "zones", "24", "estimate" },
  { "sectors-outer", "3990", "estimate, as recalled from the WD Red "
    "datasheet (not verified: no stored copy found): up to 180 MB/s; 180e6 / 90 / 512 = "
    "3906 sectors a revolution, plus ~2% for the skews" },
  { "sectors-inner", "1995", "estimate: half the outer track" },
  { "layout", "serpentine", "modern drives" },
  { "seek-track", "1ms", "estimate" },
  { "seek-avg", "11ms", "estimate: WD publishes no seek time; 5400 rpm "
    "class 3.5\" drives quote 10-12 ms" },
  { "seek-full", "21ms", "estimate: about twice the average" },
  { "write-settle", "0.5ms", "estimate" },
  { "head-switch", "0.5ms", "estimate" },
  { "iface-rate", "600M", "SATA 6 Gb/s (datasheet)" },
  { "overhead", "0.1ms", "estimate" },
  { "cache", "wb", "ATA drives ship with the write cache on" },
  { "cache-size", "256M", "estimate, as recalled from the WD Red "
    "datasheet (not verified: no stored copy found): 256 MB" },
  { "cache-segments", "16", "estimate" },
  { "write-cache-entries", "16", WRITE_ENTRIES },
  { "readahead", "512K", "estimate" },
  MAX_TRANSFER_SATA,
  SATA_NCQ_VALUES,
  { "ncq-overhead", "0", "as the other SATA profiles" },
  { "ncq-lookahead", "5", "as the desktop profiles" },
  { "smr", "1", "WD's statement of April 2020 (blog.westerndigital.com, "
    "'WD Red NAS drives': the 2-6 TB EFAX models are DM-SMR) and the WD "
    "Red datasheet's recording technology 'SMR'; Ars Technica, June 2020: "
    "'The existing SMR models - WD 20/30/40/60 EFAX')" },
  { "smr-band-outer", "40M", "estimate: Skylight's Seagate bands (15-40 "
    "MiB, as recalled: not verified); WD publishes none" },
  { "smr-band-inner", "15M", "estimate, as smr-band-outer" },
  { "media-cache-size", "20G", "estimate: a persistent cache of the "
    "Seagate class (Skylight's 20-25 GiB on 5-8 TB drives, as recalled: "
    "not verified); WD publishes no size" },
  { "media-cache-at", "0", "estimate: at the OD, as Skylight saw "
    "Seagate's" },
  { "media-cache-entries", "200000", "estimate: of the Seagate class "
    "(Skylight's, as recalled: not verified), smaller for the smaller "
    "cache" },
  { "media-cache-max-write", "256M", "every write not sent home is "
    "staged" },
  { "media-cache-idle", "1s", "estimate: WD's statement (2020) as the "
    "press reported it, drives for 'a great deal of idle time to perform "
    "background processing'; no delay published" },
  { "media-cache-overhead", "0", "estimate" },
  { "smr-seq-min", "512K", "estimate: mdraid's 512 KiB chunks run at "
    "the media rate, 32 KiB sequential writes do not (Ars Technica, "
    "June 2020: this sets the threshold between the two, so that pair "
    "is no check of it: docs/smr.md)" },
  { "smr-aged", "0", "a fresh drive: its cache empty" },
  TAIL_VALUES ("120s", TAIL_LIMIT_DESKTOP),
  { "spinup", "10s", "estimate: no product manual of this drive found "
    "with its start/stop times; 3 discs at 5400 rpm, as Seagate's "
    "3.5-inch desktop manuals (Barracuda 7200.8: 10 s max)" },
  { NULL },
};

const struct hdd_profile hdd_profile_st8000as0002 = {
  "st8000as0002", "Seagate Archive HDD v2 ST8000AS0002, 8 TB, 5900 rpm, "
  "drive-managed SMR (shingled): 25 GiB persistent cache, 15-40 MiB "
  "bands (estimates), 128 MB cache, SATA 6 Gb/s (2014)", st8000as0002_values, "1280K",
  "2014", "archive 3.5\" 5900 rpm SATA, drive-managed SMR", "Skylight "
  "(Aghayev & Desnoyers, FAST '15; not verified past the abstract); "
  "reports of Seagate's figures; estimates marked (docs/smr.md)",
};

const struct hdd_profile hdd_profile_wd40efax = {
  "wd40efax", "WD Red WD40EFAX, 4 TB, 5400 rpm class NAS drive, "
  "drive-managed SMR (shingled), 256 MB cache, SATA 6 Gb/s (2019-2020)",
  wd40efax_values, "1280K",
  "2019", "NAS 3.5\" 5400 rpm class SATA, drive-managed SMR", "WD's "
  "statement on its SMR Red drives (2020) and Ars Technica's tests; "
  "estimates marked (docs/smr.md)",
};
