/* hddsim: the sources every built-in profile shares (the rules of a
 * drive family, of SATA, of the tail), as the strings a profile value
 * carries: one definition for profiles.c and profiles_smr.c.
 */
#ifndef HDDSIM_PROFILE_SOURCES_H
#define HDDSIM_PROFILE_SOURCES_H

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
/* The write cache's bound (docs/model.md "Write-back"): each scattered
 * write keeps a buffer segment until it is on the media, so the drive
 * holds at most one dirty range per segment.
 */
#define WRITE_ENTRIES "one dirty range per buffer segment: Seagate's SAS " \
  "manuals (Constellation ES, Cheetah 15K.5, 'Caching write data'): the " \
  "buffer 'is divided into logical segments from which data is read and " \
  "to which data is written', and 'the drive does not overwrite data " \
  "that has not yet been written to the medium'; DiskSim 4.0's 'Maximum " \
  "number of write segments' bounds the same (at most the segments)"

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

/* The tail (model/tail.h; docs/model.md "The tail"). */
#define TAIL_RETRY_RATE "upper bound from a published rate: Seagate " \
  "Barracuda 9 product manual rev. C, section 5.0, recovered data less " \
  "than 10 errors in 10^11 bits read (with retries and ECC), at most 3.3 " \
  "per million 4 KiB reads; no manual of this drive found giving its own"
#define TAIL_RETRY_SUCCESS "estimate: no manufacturer publishes how many " \
  "revolutions a recovered read takes; one retry in two succeeds (mean " \
  "2 revolutions)"
#define TAIL_RECAL "Fujitsu MPG3153AH manual (C141-E112-01EN) 4.5.2-4.5.3: " \
  "self-calibration about every 30 minutes, a command waiting at most " \
  "about 100 ms for it; Seagate publishes none: another maker's desktop " \
  "drive of the era, an estimate for this one"
#define TAIL_IDLE "the same Fujitsu manual: self-calibration when no host " \
  "command has come for 15 seconds, the first command waiting at most " \
  "about 100 ms; an estimate for this drive"
#define TAIL_LIMIT_DESKTOP "estimate: desktop drives publish no recovery " \
  "limit and have no SCT ERC set; the Linux RAID wiki (Timeout Mismatch): " \
  "'over two minutes'"
#define TAIL_LIMIT_ENTERPRISE "estimate: an enterprise drive with SCT ERC, " \
  "whose default the maker does not publish; 7 s, the value such drives " \
  "commonly ship with (Linux RAID wiki, Timeout Mismatch)"
#define TAIL_VALUES(limit, limit_src)                                    \
  { "retry-rate", "3", TAIL_RETRY_RATE },                               \
  { "retry-success", "500000", TAIL_RETRY_SUCCESS },                    \
  { "recal-interval", "1800s", TAIL_RECAL },                            \
  { "recal-time", "100ms", TAIL_RECAL },                                \
  { "idle-work-after", "15s", TAIL_IDLE },                              \
  { "idle-work-step", "100ms", TAIL_IDLE },                             \
  { "recovery-limit", limit, limit_src }

/* What every SATA profile's drive queue shares: 32 tags, rotational
 * position ordering, the aging bound.  Spelled once, as TAIL_VALUES. */
#define SATA_NCQ_VALUES                                                 \
  { "ncq-depth", "32", NCQ_DEPTH_SATA },                                \
  { "ncq-order", "rpo", NCQ_ORDER },                                    \
  { "ncq-max-wait", "2.4s", NCQ_MAX_WAIT }
/* A SATA drive's command size, opted into with max-transfer=1280K. */
#define MAX_TRANSFER_SATA                                               \
  { "max-transfer", "0", "unlimited until the split is measured in a "  \
    "guest (issue 16); the drive's command, max-transfer=1280K: "       \
    MT_SATA }

#endif /* HDDSIM_PROFILE_SOURCES_H */
