/* hddsim: faults while the drive runs (fault=; docs/power-states.md,
 * "Faults while running"): it turns fail-slow (every service time
 * multiplied by a factor), stalls periodically (for a length, every
 * period: the drive does nothing, what it serves and what waits
 * behind it are delayed), recovers (healthy again), or sectors go bad
 * (issue 27's bad-sector map, fault_bad.h).
 *
 * The model fires a fault at a modeled instant: one given (at:,
 * random:, or the plugin's signal and file triggers, once they have
 * fired), or the completion of the N-th write or zero command it
 * serves (after-writes:N).  A fault fired at T applies to the commands
 * that start at T or later (a stall's periods are counted from T, and
 * a command under way when one begins is stretched by it).  Firing is
 * part of the drive's state: hdd_estimate sees it as hdd_serve does.
 */
#ifndef HDDSIM_FAULTS_H
#define HDDSIM_FAULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hdd;

enum hdd_fault_kind {
  HDD_FAULT_SLOW, HDD_FAULT_STALL, HDD_FAULT_RECOVER, HDD_FAULT_BAD,
};

struct hdd_fault {
  enum hdd_fault_kind kind;
  uint64_t slow_milli;          /* slow: service x slow_milli / 1000 */
  uint64_t stall_len, stall_period;     /* stall: ns */
  uint64_t lba, count;          /* bad: 512-byte sectors; count 0:
                                   given later (hdd_fault_bad_range) */
};

#define HDD_FAULTS_MAX 32
#define HDD_FAULT_NEVER UINT64_MAX

/* "slow:F" (F > 1, up to three decimals: slow:2.5), "stall:LEN/PERIOD"
 * (durations, LEN < PERIOD), "recover", "bad:LBA+COUNT", or "bad" alone
 * (count 0: the sectors are given before it fires, by
 * hdd_fault_bad_range).  0, or -1 and err (what is wrong with the
 * kind; the caller names the parameter).
 */
extern int hdd_fault_parse (const char *s, struct hdd_fault *,
                            char *err, size_t errlen);
/* "LBA+COUNT" alone (a bad fault's sectors, as a file gives them):
 * into f's lba and count.  0, or -1 and err.
 */
extern int hdd_fault_parse_range (const char *s, struct hdd_fault *f,
                                  char *err, size_t errlen);
/* The kind as written (slow:2.5, stall:200ms/5s, ...) into buf. */
extern const char *hdd_fault_format (const struct hdd_fault *, char *buf,
                                     size_t len);

/* Give the drive fault f, not armed: its index, or -1 and err (too
 * many faults, a bad range outside the drive, or a kind this build
 * cannot model).
 */
extern int hdd_fault_add (struct hdd *, const struct hdd_fault *f,
                          char *err, size_t errlen);
/* Give bad fault i, not yet fired, its sectors [lba, lba + count):
 * 0, or -1 and err (outside the drive, not a bad fault, fired).
 */
extern int hdd_fault_bad_range (struct hdd *, int i, uint64_t lba,
                                uint64_t count, char *err, size_t errlen);
/* Arm fault i to fire at modeled time t (if it has not fired). */
extern void hdd_fault_at (struct hdd *, int i, uint64_t t);
/* Arm fault i to fire when the n-th write or zero command served from
 * now completes.
 */
extern void hdd_fault_after_writes (struct hdd *, int i, uint64_t n);
/* The faults fired and not yet reported, in firing order, once each:
 * true with its index and modeled instant.
 */
extern bool hdd_fault_fired (struct hdd *, int *i, uint64_t *t);

/* ---- the model's own (hdd.c) ---- */

struct fault_slot {
  struct hdd_fault f;
  uint64_t at;                  /* fires at; HDD_FAULT_NEVER: unarmed */
  uint64_t writes_left;         /* after-writes: commands still to come */
  bool fired;
};

struct faults {
  struct fault_slot slot[HDD_FAULTS_MAX];
  unsigned n;
  unsigned order[HDD_FAULTS_MAX];       /* fired, in order */
  unsigned nfired, nreported;
  uint64_t slow_milli;          /* 0: healthy */
  uint64_t stall_len, stall_period, stall_origin;
};

/* Fire what is due by t; each fired 'bad' goes to mark_bad. */
extern void faults_fire_due (struct faults *, uint64_t t, struct hdd *d,
                             bool real);
/* A write or zero command completing at 'done' was served. */
extern void faults_write_served (struct faults *, uint64_t done);
/* Service 'work' starting at 'start': the time the faults in force
 * add to it.
 */
extern uint64_t faults_extra (const struct faults *, uint64_t start,
                              uint64_t work);

#endif /* HDDSIM_FAULTS_H */
