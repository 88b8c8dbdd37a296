/* hddsim: the power-cut trigger (see powercut.h). */

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "../common/value.h"
#include "../common/u64.h"
#include "powercut.h"

enum trigger { PC_OFF, PC_AT, PC_AFTER_WRITES, PC_RANDOM, PC_SIGNAL, PC_FILE };

static struct {
  enum trigger kind;
  uint64_t deadline;            /* modeled ns, or POWERCUT_NEVER */
  uint64_t writes_left;         /* after-writes: served before the cut */
  char *path;                   /* file: */
  void (*wake) (void);
} pc = { .deadline = POWERCUT_NEVER };

static atomic_bool signalled;

static const char usage[] =
  "expected at:DURATION, after-writes:N, random:DURATION-DURATION, "
  "signal or file:PATH";

/* random:A-B: a modeled time drawn uniformly from [A, B] by seed=
 * (another stream than the platter's phase, which uses the seed
 * itself).
 */
static int
parse_random (const char *v, uint64_t seed, char *err, size_t errlen)
{
  const char *dash = strchr (v, '-');
  char lo_s[64];
  uint64_t lo, hi;

  if (!dash || (size_t) (dash - v) >= sizeof lo_s) {
    snprintf (err, errlen, "powercut=random:%s: expected random:A-B, "
              "two durations (e.g. random:10s-60s)", v);
    return -1;
  }
  memcpy (lo_s, v, (size_t) (dash - v));
  lo_s[dash - v] = '\0';
  if (parse_duration (lo_s, &lo) == -1 || parse_duration (dash + 1, &hi) == -1
      || hi < lo) {
    snprintf (err, errlen, "powercut=random:%s: expected random:A-B with "
              "durations A <= B (e.g. random:10s-60s)", v);
    return -1;
  }
  pc.deadline = lo + splitmix64 (seed ^ UINT64_C(0x706f776572637574))
    % (hi - lo + 1);
  return 0;
}

int
powercut_parse (const char *value, uint64_t seed, char *err, size_t errlen)
{
  powercut_free ();
  if (!value)
    return 0;
  if (strncmp (value, "at:", 3) == 0) {
    pc.kind = PC_AT;
    if (parse_duration (value + 3, &pc.deadline) == -1) {
      snprintf (err, errlen, "powercut=%s: '%s' is not a duration "
                "(e.g. 30s, 250ms)", value, value + 3);
      return -1;
    }
  }
  else if (strncmp (value, "after-writes:", 13) == 0) {
    pc.kind = PC_AFTER_WRITES;
    if (parse_uint (value + 13, &pc.writes_left) == -1
        || pc.writes_left == 0) {
      snprintf (err, errlen, "powercut=%s: expected after-writes:N, "
                "N >= 1", value);
      return -1;
    }
  }
  else if (strncmp (value, "random:", 7) == 0) {
    pc.kind = PC_RANDOM;
    if (parse_random (value + 7, seed, err, errlen) == -1)
      return -1;
  }
  else if (strcmp (value, "signal") == 0)
    pc.kind = PC_SIGNAL;
  else if (strncmp (value, "file:", 5) == 0 && value[5]) {
    pc.kind = PC_FILE;
    pc.path = strdup (value + 5);
    if (!pc.path) {
      snprintf (err, errlen, "powercut=%s: out of memory", value);
      return -1;
    }
  }
  else {
    snprintf (err, errlen, "powercut=%s: %s", value, usage);
    return -1;
  }
  return 0;
}

void
powercut_free (void)
{
  free (pc.path);
  pc = (typeof (pc)) { .deadline = POWERCUT_NEVER };
  atomic_store (&signalled, false);
}

bool
powercut_armed (void)
{
  return pc.kind != PC_OFF;
}

uint64_t
powercut_deadline (void)
{
  return pc.deadline;
}

void
powercut_write_served (uint64_t done)
{
  if (pc.kind == PC_AFTER_WRITES && pc.writes_left > 0
      && --pc.writes_left == 0)
    pc.deadline = done;
}

bool
powercut_polls (void)
{
  return pc.kind == PC_FILE;
}

bool
powercut_check (void)
{
  if (pc.deadline != POWERCUT_NEVER)
    return false;
  if (pc.kind == PC_SIGNAL)
    return atomic_load (&signalled);
  if (pc.kind == PC_FILE)
    return access (pc.path, F_OK) == 0;
  return false;
}

void
powercut_fire (uint64_t t)
{
  if (pc.deadline == POWERCUT_NEVER)
    pc.deadline = t;
}

static void
on_sigusr1 (int sig)
{
  (void) sig;
  atomic_store (&signalled, true);
  if (pc.wake)
    pc.wake ();
}

int
powercut_install (void (*wake) (void))
{
  struct sigaction sa = { .sa_handler = on_sigusr1 };

  pc.wake = wake;
  if (pc.kind != PC_SIGNAL)
    return 0;
  sigemptyset (&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  if (sigaction (SIGUSR1, &sa, NULL) == -1) {
    nbdkit_error ("powercut=signal: sigaction (SIGUSR1): %m");
    return -1;
  }
  return 0;
}
