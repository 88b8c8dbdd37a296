/* hddsim: power states (standby=, idle-*=) and faults while running
 * (fault=), on the model's virtual clock.  Every expected time comes
 * from the parameters: the profile's recovery times, the factor, the
 * stall's length and period, service= of profile=fixed.
 */

#include <inttypes.h>

#include "test-model-util.h"
#include "run-suite.h"
#include "../../common/trigger.h"
#include "../../model/faults.h"
#include "../../model/power_states.h"

static const struct io read4k_at0 = { IO_READ, false, 0, 4096 };

static struct io
read4k (uint64_t offset)
{
  return (struct io) { IO_READ, false, offset, 4096 };
}

static struct io
write4k (uint64_t offset)
{
  return (struct io) { IO_WRITE, false, offset, 4096 };
}

/* ---- power states ---- */

/* After standby= of idle, a read waits the profile's spin-up, then is
 * served as the same drive, never stopped, would serve it spinup= later
 * with its heads at cylinder 0 (where both drives left them: the read
 * of LBA 0 on the one, the heads loaded at the outer edge on the
 * other).
 */
START_TEST (test_standby_then_read_costs_spinup)
{
  /* Not a whole number of revolutions (15 s, the profile's, is 1800
     of them): the read after the spin-up finds the platter at another
     phase than at the instant it arrived. */
  const char *const kv[] = { "standby", "5s", "spinup", "15004ms", NULL };
  struct hdd *a = drive ("st4000nm0033", kv, 64 * GIB, 1);
  struct hdd *b = drive ("st4000nm0033", NULL, 64 * GIB, 1);
  uint64_t spinup = hdd_params_of (a)->power_recovery[HDD_PS_STANDBY];
  struct io far = read4k (40 * GIB);
  struct hdd_cost ca, cb;
  uint64_t ta, tb, t1 = 10 * SEC;

  ck_assert_uint_eq (hdd_params_of (b)->power_recovery[HDD_PS_STANDBY],
                     15 * SEC);                 /* the profile's */
  ck_assert_uint_eq (spinup, 15004 * MS);
  hdd_serve (a, &read4k_at0, 0, NULL);
  hdd_serve (b, &read4k_at0, 0, NULL);
  ta = hdd_serve (a, &far, t1, &ca);
  tb = hdd_serve (b, &far, t1 + spinup, &cb);
  ck_assert_uint_eq (ca.wake_ns, spinup);
  ck_assert_uint_eq (ta, spinup + tb);
  ck_assert_uint_eq (ca.seek_ns, cb.seek_ns);
  ck_assert_uint_eq (ca.rot_ns, cb.rot_ns);
  ck_assert_uint_eq (hdd_cost_total (&ca), ta);
  hdd_free (a);
  hdd_free (b);
}
END_TEST

/* Before the timer runs out the drive is only idle: no wake. */
START_TEST (test_no_wake_before_the_timer)
{
  const char *const kv[] = { "standby", "5s", NULL };
  struct hdd *a = drive ("st4000nm0033", kv, 64 * GIB, 1);
  struct hdd_cost c;
  uint64_t done = hdd_serve (a, &read4k_at0, 0, NULL);

  /* Idle from the read's completion (and the read-ahead's, under
     10 ms): 4.9 s later is within the 5 s. */
  hdd_serve (a, &read4k_at0, done + 4900 * MS, &c);
  ck_assert_uint_eq (c.wake_ns, 0);
  hdd_free (a);
}
END_TEST

/* The idle states: the deepest whose timer has run out, and its
 * recovery (the profile's idle-b-recovery, idle-c-recovery).
 */
START_TEST (test_idle_states_recovery)
{
  const char *const kv[] = { "idle-a", "1s", "idle-b", "2s", "idle-c", "4s",
                             "standby", "8s", NULL };
  struct hdd *a = drive ("st4000nm0033", kv, 64 * GIB, 1);
  const struct hdd_params *p = hdd_params_of (a);
  struct hdd_cost c;
  uint64_t t = hdd_serve (a, &read4k_at0, 0, NULL) + 100 * MS;

  t += hdd_serve (a, &read4k_at0, t, NULL);     /* ends the read-ahead */
  hdd_serve (a, &read4k_at0, t + 3 * SEC, &c);  /* 3 s: idle_b */
  ck_assert_uint_eq (c.wake_ns, p->power_recovery[HDD_PS_IDLE_B]);
  ck_assert_uint_eq (c.wake_ns, 500 * MS);
  /* ~97 s: standby; then 5 s after that read: idle_c. */
  t = hdd_serve (a, &read4k_at0, 100 * SEC, &c);
  ck_assert_uint_eq (c.wake_ns, 15 * SEC);
  hdd_serve (a, &read4k_at0, 100 * SEC + t + 5 * SEC, &c);
  ck_assert_uint_eq (c.wake_ns, 1 * SEC);               /* idle_c */
  hdd_free (a);
}
END_TEST

/* The time in each state, as the stats show it: the gap before the
 * second read (5 s idle, then standby) and the transitions.
 */
START_TEST (test_power_stats)
{
  const char *const kv[] = { "standby", "5s", NULL };
  struct hdd *a = drive ("st4000nm0033", kv, 64 * GIB, 1);
  struct hdd_power_stats ps;
  struct hdd_cost c;
  uint64_t done;

  hdd_serve (a, &read4k_at0, 0, NULL);
  hdd_idle (a, 1 * SEC);                /* the read-ahead is over */
  hdd_power_stats (a, 1 * SEC, &ps);
  done = (uint64_t) ps.ns[HDD_PS_ACTIVE];
  ck_assert (ps.managed);
  ck_assert_int_eq (ps.state, HDD_PS_IDLE);
  hdd_power_stats (a, 20 * SEC, &ps);
  ck_assert_int_eq (ps.state, HDD_PS_STANDBY);
  ck_assert_uint_eq (ps.ns[HDD_PS_IDLE], 5 * SEC);
  ck_assert_uint_eq (ps.ns[HDD_PS_STANDBY], 15 * SEC - done);
  ck_assert_uint_eq (ps.entered[HDD_PS_STANDBY], 1);
  hdd_serve (a, &read4k_at0, 20 * SEC, &c);
  hdd_power_stats (a, 20 * SEC, &ps);
  ck_assert_uint_eq (ps.wakes, 1);
  ck_assert_uint_eq (ps.wake_ns, 15 * SEC);
  hdd_free (a);
}
END_TEST

/* hdparm -S N as hdparm(8) gives it. */
START_TEST (test_standby_hdparm)
{
  static const struct { const char *v; uint64_t ns; } cases[] = {
    { "hdparm:0", 0 }, { "hdparm:1", 5 * SEC }, { "hdparm:240", 1200 * SEC },
    { "hdparm:241", 1800 * SEC }, { "hdparm:242", 3600 * SEC },
    { "hdparm:251", 11 * 1800 * SEC }, { "hdparm:252", 21 * 60 * SEC },
    { "hdparm:255", (21 * 60 + 15) * SEC },
  };
  struct hdd_params *p = params ("st4000nm0033", NULL);
  char err[HDD_ERRLEN];
  size_t i;

  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ck_assert_msg (hdd_params_set (p, "standby", cases[i].v, err,
                                   sizeof err) == 0, "%s", err);
    ck_assert_uint_eq (p->power_timer[HDD_PS_STANDBY], cases[i].ns);
  }
  ck_assert_int_eq (hdd_params_set (p, "standby", "hdparm:253", err,
                                    sizeof err), -1);
  ck_assert_msg (strstr (err, "standby=hdparm:253") && strstr (err,
                 "vendor-defined"), "%s", err);
  ck_assert_int_eq (hdd_params_set (p, "standby", "hdparm:x", err,
                                    sizeof err), -1);
  hdd_params_free (p);
}
END_TEST

/* A timer without the recovery the profile lacks is refused. */
START_TEST (test_timer_needs_recovery)
{
  struct hdd_params *p = params ("st340014a", NULL);
  char err[HDD_ERRLEN];

  ck_assert_int_eq (hdd_params_set (p, "idle-b", "10s", err, sizeof err), 0);
  ck_assert_int_eq (hdd_params_validate (p, err, sizeof err), -1);
  ck_assert_msg (strstr (err, "idle-b=10s") && strstr (err,
                 "idle-b-recovery="), "%s", err);
  hdd_params_free (p);
}
END_TEST

/* ---- faults ---- */

static const char *const fixed10[] = { "service", "10ms", NULL };

static int
add (struct hdd *d, const char *kind)
{
  struct hdd_fault f;
  char err[256];
  int i;

  ck_assert_msg (hdd_fault_parse (kind, &f, err, sizeof err) == 0, "%s",
                 err);
  i = hdd_fault_add (d, &f, err, sizeof err);
  ck_assert_msg (i >= 0, "%s", err);
  return i;
}

/* slow:2.5 on service=10ms: 25 ms; on a rotating drive, three times
 * what the same drive takes for the same read.
 */
START_TEST (test_slow_multiplies_service)
{
  struct hdd *f = drive ("fixed", fixed10, 0, 0);
  struct hdd *a = drive ("st4000nm0033", NULL, 64 * GIB, 1);
  struct hdd *b = drive ("st4000nm0033", NULL, 64 * GIB, 1);
  struct io far = read4k (40 * GIB);
  struct hdd_cost c;

  hdd_fault_at (f, add (f, "slow:2.5"), 0);
  ck_assert_uint_eq (hdd_serve (f, &read4k_at0, 0, &c), 25 * MS);
  ck_assert_uint_eq (c.fault_ns, 15 * MS);
  ck_assert_uint_eq (hdd_estimate (f, &read4k_at0, 0, NULL), 25 * MS);

  hdd_fault_at (a, add (a, "slow:3"), 0);
  ck_assert_uint_eq (hdd_serve (a, &far, 1 * MS, NULL),
                     3 * hdd_serve (b, &far, 1 * MS, NULL));
  hdd_free (f);
  hdd_free (a);
  hdd_free (b);
}
END_TEST

/* stall:4ms/20ms from 0: the drive stands still in [0, 4), [20, 24),
 * [40, 44) ms...  service=10ms: a read at 15 ms runs 15-20, stalls to
 * 24, ends at 29; the read queued behind it starts at 29 and ends at
 * 39, before the next stall; without the stall they would end at 25
 * and 35.  One arriving at 1 ms waits to 4.
 */
START_TEST (test_stall_delays_what_is_queued)
{
  struct hdd *f = drive ("fixed", fixed10, 0, 0);
  struct hdd_cost c;
  uint64_t a_done, b_done;

  hdd_fault_at (f, add (f, "stall:4ms/20ms"), 0);
  ck_assert_uint_eq (hdd_serve (f, &read4k_at0, 1 * MS, &c), 13 * MS);
  ck_assert_uint_eq (c.fault_ns, 3 * MS);
  a_done = 15 * MS + hdd_serve (f, &read4k_at0, 15 * MS, NULL);
  ck_assert_uint_eq (a_done, 29 * MS);
  b_done = a_done + hdd_serve (f, &read4k_at0, a_done, NULL);
  ck_assert_uint_eq (b_done, 39 * MS);
  /* A request spanning two stalls: 38 ms, 10 ms of work: 38-40,
     44-52. */
  ck_assert_uint_eq (hdd_serve (f, &read4k_at0, 38 * MS, NULL), 14 * MS);
  hdd_free (f);
}
END_TEST

/* A fault at T applies from T on, and is reported at T exactly;
 * recover undoes it.
 */
START_TEST (test_fault_fires_at_its_instant)
{
  struct hdd *f = drive ("fixed", fixed10, 0, 0);
  int slow = add (f, "slow:2"), rec = add (f, "recover"), i;
  uint64_t t;

  hdd_fault_at (f, slow, 100 * MS);
  hdd_fault_at (f, rec, 300 * MS);
  ck_assert_uint_eq (hdd_serve (f, &read4k_at0, 100 * MS - 1, NULL), 10 * MS);
  ck_assert (!hdd_fault_fired (f, &i, &t));
  ck_assert_uint_eq (hdd_serve (f, &read4k_at0, 100 * MS, NULL), 20 * MS);
  ck_assert (hdd_fault_fired (f, &i, &t));
  ck_assert_int_eq (i, slow);
  ck_assert_uint_eq (t, 100 * MS);
  ck_assert (!hdd_fault_fired (f, &i, &t));
  /* hdd_idle fires it too, at its instant, not the idle call's. */
  hdd_idle (f, 500 * MS);
  ck_assert (hdd_fault_fired (f, &i, &t));
  ck_assert_int_eq (i, rec);
  ck_assert_uint_eq (t, 300 * MS);
  ck_assert_uint_eq (hdd_serve (f, &read4k_at0, 500 * MS, NULL), 10 * MS);
  hdd_free (f);
}
END_TEST

/* after-writes:2: at the completion of the second write (the writes
 * at 0 and 20 ms complete at 10 and 30 ms); a read is no write.
 */
START_TEST (test_fault_after_writes)
{
  struct hdd *f = drive ("fixed", fixed10, 0, 0);
  struct io w = write4k (0);
  int slow = add (f, "slow:2"), i;
  uint64_t t;

  hdd_fault_after_writes (f, slow, 2);
  hdd_serve (f, &w, 0, NULL);
  hdd_serve (f, &read4k_at0, 10 * MS, NULL);
  hdd_serve (f, &w, 20 * MS, NULL);
  ck_assert (!hdd_fault_fired (f, &i, &t));
  ck_assert_uint_eq (hdd_serve (f, &read4k_at0, 30 * MS, NULL), 20 * MS);
  ck_assert (hdd_fault_fired (f, &i, &t));
  ck_assert_uint_eq (t, 30 * MS);
  hdd_free (f);
}
END_TEST

START_TEST (test_fault_kinds_parsed)
{
  struct hdd_fault f;
  char err[256], buf[64];

  ck_assert_int_eq (hdd_fault_parse ("slow:1.125", &f, err, sizeof err), 0);
  ck_assert_uint_eq (f.slow_milli, 1125);
  ck_assert_str_eq (hdd_fault_format (&f, buf, sizeof buf), "slow:1.125");
  ck_assert_int_eq (hdd_fault_parse ("slow:0.5", &f, err, sizeof err), -1);
  ck_assert_int_eq (hdd_fault_parse ("slow:1.0001", &f, err, sizeof err), -1);
  ck_assert_int_eq (hdd_fault_parse ("stall:10s/5s", &f, err, sizeof err), -1);
  ck_assert_msg (strstr (err, "stall:10s/5s"), "%s", err);
  ck_assert_int_eq (hdd_fault_parse ("bad:100+8", &f, err, sizeof err), 0);
  ck_assert_uint_eq (f.lba, 100);
  ck_assert_uint_eq (f.count, 8);
  ck_assert_int_eq (hdd_fault_parse ("melt", &f, err, sizeof err), -1);
  ck_assert_msg (strstr (err, "slow:FACTOR"), "%s", err);
}
END_TEST

/* bad:100+8 at 100 ms: a read of sector 100 before it succeeds; one
 * after it fails, the drive holding it for erc=7s beyond its access
 * (the tail's bad-sector map, docs/model.md "Failing sectors").
 */
START_TEST (test_sector_goes_bad)
{
  static const char *const kv[] = { "erc", "7s", "cache", "off", NULL };
  struct hdd *f = drive ("st4000nm0033", kv, 64 * GIB, 1);
  struct io r = { IO_READ, false, 100 * 512, 4096 };
  struct hdd_cost c;
  int bad = add (f, "bad:100+8");
  uint64_t before, after;

  hdd_fault_at (f, bad, 100 * MS);
  before = hdd_serve (f, &r, 0, &c);
  ck_assert (!c.medium_error);
  ck_assert_uint_lt (before, 100 * MS);
  after = hdd_serve (f, &r, 100 * MS, &c);
  ck_assert (c.medium_error);
  ck_assert_uint_ge (after, 7 * SEC);
  ck_assert_uint_lt (after, 7 * SEC + 100 * MS);
  hdd_free (f);
}
END_TEST

/* The drive's read-ahead does not bring in a sector it cannot read: a
 * sequential read of sectors 0-7 (the stream then reads ahead), and
 * 100 ms later (the read-ahead long past sector 100 at st4000nm0033's
 * media rate) a read of the bad 100+8 goes to the media and fails at
 * erc=7s; the good sectors 200+8 after it read.
 */
START_TEST (test_read_ahead_skips_bad_sectors)
{
  static const char *const kv[] = { "erc", "7s", NULL };
  struct hdd *f = drive ("st4000nm0033", kv, 64 * GIB, 1);
  struct io r = { IO_READ, false, 100 * 512, 4096 };
  struct io ok = { IO_READ, false, 200 * 512, 4096 };
  struct hdd_cost c;

  hdd_fault_at (f, add (f, "bad:100+8"), 0);
  hdd_serve (f, &read4k_at0, 0, &c);
  ck_assert (!c.medium_error);
  ck_assert_uint_ge (hdd_serve (f, &r, 100 * MS, &c), 7 * SEC);
  ck_assert (c.medium_error);
  ck_assert (!c.cache_hit);
  hdd_serve (f, &ok, 8 * SEC, &c);
  ck_assert (!c.medium_error);
  hdd_free (f);
}
END_TEST

/* "bad" alone (fault=bad@file:PATH): the sectors come later, from
 * the file's line LBA+COUNT, checked against the drive's capacity (the
 * profile's, in 512-byte sectors); until then it is "bad", and one that fires
 * without them marks nothing.  Given bad:100+8 before 100 ms, it
 * fails a read after 100 ms as bad:100+8 does (erc=7s).
 */
START_TEST (test_bad_sectors_given_later)
{
  static const char *const kv[] = { "erc", "7s", "cache", "off", NULL };
  struct hdd *f = drive ("st4000nm0033", kv, 64 * GIB, 1);
  struct hdd *g = drive ("st4000nm0033", kv, 64 * GIB, 1);
  struct io r = { IO_READ, false, 100 * 512, 4096 };
  struct hdd_fault rf;
  struct hdd_cost c;
  char err[256], buf[64];
  int bad = add (f, "bad"), none = add (g, "bad"), slow = add (f, "slow:2");
  uint64_t sectors = hdd_params_of (f)->capacity / 512;
  static const char *const refused[] = {
    "", "100", "100+0", "x+8", "100+8 ", "100+8\n", "+8", "100+", NULL
  };
  size_t k;

  ck_assert_int_eq (hdd_fault_parse ("bad", &rf, err, sizeof err), 0);
  ck_assert_uint_eq (rf.count, 0);
  ck_assert_str_eq (hdd_fault_format (&rf, buf, sizeof buf), "bad");
  for (k = 0; refused[k]; k++) {
    ck_assert_msg (hdd_fault_parse_range (refused[k], &rf, err, sizeof err)
                   == -1, "'%s' taken", refused[k]);
    ck_assert_msg (strstr (err, "expected LBA+COUNT"), "%s", err);
  }
  ck_assert_int_eq (hdd_fault_parse_range ("100+8", &rf, err, sizeof err), 0);
  ck_assert_uint_eq (rf.lba, 100);
  ck_assert_uint_eq (rf.count, 8);

  snprintf (buf, sizeof buf, "outside the drive's %" PRIu64 " sectors",
            sectors);
  ck_assert_int_eq (hdd_fault_bad_range (f, bad, sectors - 7, 8, err,
                                         sizeof err), -1);
  ck_assert_msg (strstr (err, buf), "%s", err);
  ck_assert_int_eq (hdd_fault_bad_range (f, slow, 100, 8, err, sizeof err),
                    -1);
  ck_assert_int_eq (hdd_fault_bad_range (f, bad, sectors - 8, 8, err,
                                         sizeof err), 0);
  ck_assert_int_eq (hdd_fault_bad_range (f, bad, 100, 8, err, sizeof err), 0);

  hdd_fault_at (f, bad, 100 * MS);
  hdd_serve (f, &r, 0, &c);
  ck_assert (!c.medium_error);
  ck_assert_uint_ge (hdd_serve (f, &r, 100 * MS, &c), 7 * SEC);
  ck_assert (c.medium_error);
  /* fired: its sectors can no longer change */
  ck_assert_int_eq (hdd_fault_bad_range (f, bad, 200, 8, err, sizeof err),
                    -1);

  hdd_fault_at (g, none, 100 * MS);
  hdd_serve (g, &r, 100 * MS, &c);
  ck_assert (!c.medium_error);
  hdd_free (f);
  hdd_free (g);
}
END_TEST

/* ---- the trigger forms (common/trigger.h) ---- */

START_TEST (test_trigger_forms)
{
  struct trigger tr, tr2;
  char err[256];

  ck_assert_int_eq (trigger_parse (&tr, "fault", "x@at:30s", "at:30s", 0, 0,
                                   err, sizeof err), 0);
  ck_assert_int_eq (tr.kind, TRIGGER_AT);
  ck_assert_uint_eq (tr.at, 30 * SEC);
  ck_assert_int_eq (trigger_parse (&tr, "fault", "x", "after-writes:7", 0, 0,
                                   err, sizeof err), 0);
  ck_assert_uint_eq (tr.writes, 7);
  ck_assert_int_eq (trigger_parse (&tr, "fault", "x", "random:10s-60s", 42,
                                   1, err, sizeof err), 0);
  ck_assert (tr.at >= 10 * SEC && tr.at <= 60 * SEC);
  ck_assert_int_eq (trigger_parse (&tr2, "fault", "x", "random:10s-60s", 42,
                                   2, err, sizeof err), 0);
  ck_assert_uint_ne (tr.at, tr2.at);            /* another stream */
  ck_assert_int_eq (trigger_parse (&tr, "fault", "x", "file:/tmp/a", 0, 0,
                                   err, sizeof err), 0);
  ck_assert_str_eq (tr.path, "/tmp/a");
  trigger_free (&tr);
  ck_assert_int_eq (trigger_parse (&tr, "powercut", "soon", "soon", 0, 0,
                                   err, sizeof err), -1);
  ck_assert_str_eq (err, "powercut=soon: " TRIGGER_USAGE);
}
END_TEST

static Suite *
power_faults_suite (void)
{
  Suite *s = suite_create ("power states and faults");
  TCase *ps = tcase_create ("power states");
  TCase *ft = tcase_create ("faults");

  tcase_add_test (ps, test_standby_then_read_costs_spinup);
  tcase_add_test (ps, test_no_wake_before_the_timer);
  tcase_add_test (ps, test_idle_states_recovery);
  tcase_add_test (ps, test_power_stats);
  tcase_add_test (ps, test_standby_hdparm);
  tcase_add_test (ps, test_timer_needs_recovery);
  tcase_add_test (ft, test_slow_multiplies_service);
  tcase_add_test (ft, test_stall_delays_what_is_queued);
  tcase_add_test (ft, test_fault_fires_at_its_instant);
  tcase_add_test (ft, test_fault_after_writes);
  tcase_add_test (ft, test_fault_kinds_parsed);
  tcase_add_test (ft, test_sector_goes_bad);
  tcase_add_test (ft, test_bad_sectors_given_later);
  tcase_add_test (ft, test_read_ahead_skips_bad_sectors);
  tcase_add_test (ft, test_trigger_forms);
  suite_add_tcase (s, ps);
  suite_add_tcase (s, ft);
  return s;
}

int
main (void)
{
  return run_suite (power_faults_suite ());
}
