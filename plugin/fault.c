/* hddsim: faults while running (see fault.h). */

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "../common/trigger.h"
#include "../model/faults.h"
#include "fault.h"
#include "recorder.h"

#define FAULT_ERRLEN 512

/* Each fault's random: draws from its own stream ("fault" in ASCII,
 * plus its index).
 */
#define FAULT_SALT UINT64_C(0x6661756c74000000)

struct fault_spec {
  char *value;                  /* as given */
  struct hdd_fault f;
  struct trigger tr;
  int index;                    /* in the drive */
  bool fired;                   /* signal, file: seen */
  bool range_from_file;         /* bad@file:PATH: PATH gives LBA+COUNT */
};

static struct {
  struct fault_spec spec[HDD_FAULTS_MAX];
  unsigned n;
  unsigned signals_seen;        /* SIGUSR2s acted on */
  void (*wake) (void);
} ft;

static atomic_uint signals;

static const char help[] =
  "fault=KIND@TRIGGER          a fault while running (may be given up to "
  "32 times): KIND slow:FACTOR, stall:LENGTH/PERIOD, recover or "
  "bad:LBA+COUNT; TRIGGER as powercut='s, signal being SIGUSR2; "
  "bad@file:PATH: the sectors from PATH's one line, LBA+COUNT "
  "(docs/power-states.md)\n";

const char *
fault_help (void)
{
  return help;
}

int
fault_config (const char *value)
{
  char *v;

  if (ft.n == HDD_FAULTS_MAX) {
    nbdkit_error ("fault=%s: more than %d faults", value, HDD_FAULTS_MAX);
    return -1;
  }
  v = strdup (value);
  if (!v) {
    nbdkit_error ("fault=%s: out of memory", value);
    return -1;
  }
  ft.spec[ft.n++] = (struct fault_spec) { .value = v, .index = -1 };
  return 0;
}

/* KIND@TRIGGER: the first '@' ends the kind (a file: path may hold
 * another).
 */
static int
parse_one (struct fault_spec *s, uint64_t seed, unsigned i)
{
  char err[FAULT_ERRLEN], kind[128];
  const char *at = strchr (s->value, '@');

  if (!at || (size_t) (at - s->value) >= sizeof kind) {
    nbdkit_error ("fault=%s: expected KIND@TRIGGER (e.g. slow:3@at:30s, "
                  "stall:500ms/10s@signal, recover@file:/tmp/ok)", s->value);
    return -1;
  }
  memcpy (kind, s->value, (size_t) (at - s->value));
  kind[at - s->value] = '\0';
  if (hdd_fault_parse (kind, &s->f, err, sizeof err) == -1) {
    nbdkit_error ("fault=%s: %s", s->value, err);
    return -1;
  }
  if (trigger_parse (&s->tr, "fault", s->value, at + 1, seed,
                     FAULT_SALT + i, err, sizeof err) == -1) {
    nbdkit_error ("%s", err);
    return -1;
  }
  s->range_from_file = s->f.kind == HDD_FAULT_BAD && s->f.count == 0;
  if (s->range_from_file && s->tr.kind != TRIGGER_FILE) {
    nbdkit_error ("fault=%s: bad without LBA+COUNT takes its sectors from "
                  "its trigger's file: give bad:LBA+COUNT@..., or "
                  "bad@file:PATH with PATH's one line LBA+COUNT", s->value);
    return -1;
  }
  return 0;
}

/* bad@file:PATH, as PATH appears: its one line, LBA+COUNT, gives the
 * drive the sectors.  -1 after an nbdkit_error naming the parameter
 * and the file (the fault then never fires).  The file is read as it
 * is when first seen: a writer makes it whole elsewhere and renames
 * it into place.
 */
static int
range_from_file (struct fault_spec *s, struct hdd *d)
{
  char text[128], err[FAULT_ERRLEN];
  struct hdd_fault r = s->f;
  FILE *fp = fopen (s->tr.path, "r");
  size_t n = 0;
  char *nl;

  if (fp) {
    n = fread (text, 1, sizeof text - 1, fp);
    fclose (fp);
  }
  if (!fp || n == sizeof text - 1) {
    nbdkit_error ("fault=%s: %s: %s", s->value, s->tr.path,
                  fp ? "longer than one line LBA+COUNT" : strerror (errno));
    return -1;
  }
  text[n] = '\0';
  nl = strchr (text, '\n');
  if (nl && nl[1] == '\0')
    *nl = '\0';
  if (hdd_fault_parse_range (text, &r, err, sizeof err) == -1
      || hdd_fault_bad_range (d, s->index, r.lba, r.count, err,
                              sizeof err) == -1) {
    nbdkit_error ("fault=%s: %s line 1: %s", s->value, s->tr.path, err);
    return -1;
  }
  s->f = r;
  return 0;
}

int
fault_config_complete (uint64_t seed)
{
  unsigned i;

  for (i = 0; i < ft.n; i++)
    if (parse_one (&ft.spec[i], seed, i) == -1)
      return -1;
  return 0;
}

void
fault_free (void)
{
  unsigned i;

  for (i = 0; i < ft.n; i++) {
    free (ft.spec[i].value);
    trigger_free (&ft.spec[i].tr);
  }
  ft = (typeof (ft)) { 0 };
  atomic_store (&signals, 0);
}

int
fault_start (struct hdd *d)
{
  char err[FAULT_ERRLEN];
  unsigned i;

  for (i = 0; i < ft.n; i++) {
    struct fault_spec *s = &ft.spec[i];

    s->index = hdd_fault_add (d, &s->f, err, sizeof err);
    if (s->index == -1) {
      nbdkit_error ("fault=%s: %s", s->value, err);
      return -1;
    }
    if (s->tr.kind == TRIGGER_AT || s->tr.kind == TRIGGER_RANDOM)
      hdd_fault_at (d, s->index, s->tr.at);
    else if (s->tr.kind == TRIGGER_AFTER_WRITES)
      hdd_fault_after_writes (d, s->index, s->tr.writes);
  }
  return 0;
}

bool
fault_polls (void)
{
  unsigned i;

  for (i = 0; i < ft.n; i++)
    if (ft.spec[i].tr.kind == TRIGGER_FILE)
      return true;
  return false;
}

static void
on_sigusr2 (int sig)
{
  (void) sig;
  atomic_fetch_add (&signals, 1);
  if (ft.wake)
    ft.wake ();
}

int
fault_install (void (*wake) (void))
{
  struct sigaction sa = { .sa_handler = on_sigusr2 };
  unsigned i;

  ft.wake = wake;
  for (i = 0; i < ft.n; i++)
    if (ft.spec[i].tr.kind == TRIGGER_SIGNAL)
      break;
  if (i == ft.n)
    return 0;
  sigemptyset (&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  if (sigaction (SIGUSR2, &sa, NULL) == -1) {
    nbdkit_error ("fault=...@signal: sigaction (SIGUSR2): %m");
    return -1;
  }
  return 0;
}

/* The next fault=...@signal not yet fired. */
static struct fault_spec *
next_signalled (void)
{
  unsigned i;

  for (i = 0; i < ft.n; i++)
    if (ft.spec[i].tr.kind == TRIGGER_SIGNAL && !ft.spec[i].fired)
      return &ft.spec[i];
  return NULL;
}

void
fault_poll_trigger (struct hdd *d, uint64_t now)
{
  unsigned got = atomic_load (&signals), i;

  for (; ft.signals_seen < got; ft.signals_seen++) {
    struct fault_spec *s = next_signalled ();
    if (!s)
      break;
    s->fired = true;
    hdd_fault_at (d, s->index, now);
  }
  for (i = 0; i < ft.n; i++) {
    struct fault_spec *s = &ft.spec[i];
    if (s->tr.kind == TRIGGER_FILE && !s->fired
        && access (s->tr.path, F_OK) == 0) {
      s->fired = true;
      if (!s->range_from_file || range_from_file (s, d) == 0)
        hdd_fault_at (d, s->index, now);
    }
  }
}

/* A fired fault as the trace says it: the parameter's value, with
 * the sectors a bad@file: fault read from its file (bad:LBA+COUNT@file:
 * PATH).
 */
static void
describe (const struct fault_spec *s, char *buf, size_t len)
{
  char kind[64];

  if (s->range_from_file)
    snprintf (buf, len, "%s%s", hdd_fault_format (&s->f, kind, sizeof kind),
              strchr (s->value, '@'));
  else
    snprintf (buf, len, "%s", s->value);
}

void
fault_report_fired (struct hdd *d, uint64_t *next_id)
{
  struct trace_fault row;
  int i;
  uint64_t t;

  if (ft.n == 0)
    return;
  while (hdd_fault_fired (d, &i, &t)) {
    unsigned k;

    for (k = 0; k < ft.n && ft.spec[k].index != i; k++)
      ;
    row = (struct trace_fault) { .id = (*next_id)++, .t_ns = t };
    describe (&ft.spec[k], row.what, sizeof row.what);
    /* One field of a CSV line. */
    for (char *p = row.what; *p; p++)
      if (*p == ',' || *p == '\n' || *p == '\r')
        *p = '_';
    nbdkit_debug ("fault=%s fired at modeled time %lu ns", row.what,
                  (unsigned long) t);
    recorder_fault (&row);
  }
}
