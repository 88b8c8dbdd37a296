/* hddsim: the power-cut trigger (see powercut.h). */

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "../common/trigger.h"
#include "powercut.h"

static struct {
  struct trigger tr;            /* common/trigger.h */
  uint64_t deadline;            /* modeled ns, or POWERCUT_NEVER */
  uint64_t writes_left;         /* after-writes: served before the cut */
  void (*wake) (void);
} pc = { .deadline = POWERCUT_NEVER };

static atomic_bool signalled;

/* random:'s stream: another than the platter's phase, which uses the
 * seed itself ("powercut" in ASCII).
 */
#define POWERCUT_SALT UINT64_C(0x706f776572637574)

int
powercut_parse (const char *value, uint64_t seed, char *err, size_t errlen)
{
  powercut_free ();
  if (!value)
    return 0;
  if (trigger_parse (&pc.tr, "powercut", value, value, seed, POWERCUT_SALT,
                     err, errlen) == -1)
    return -1;
  pc.deadline = pc.tr.at;
  pc.writes_left = pc.tr.writes;
  return 0;
}

void
powercut_free (void)
{
  trigger_free (&pc.tr);
  pc = (typeof (pc)) { .deadline = POWERCUT_NEVER };
  atomic_store (&signalled, false);
}

bool
powercut_armed (void)
{
  return pc.tr.kind != TRIGGER_OFF;
}

uint64_t
powercut_deadline (void)
{
  return pc.deadline;
}

void
powercut_write_served (uint64_t done)
{
  if (pc.tr.kind == TRIGGER_AFTER_WRITES && pc.writes_left > 0
      && --pc.writes_left == 0)
    pc.deadline = done;
}

bool
powercut_polls (void)
{
  return pc.tr.kind == TRIGGER_FILE;
}

bool
powercut_check (void)
{
  if (pc.deadline != POWERCUT_NEVER)
    return false;
  if (pc.tr.kind == TRIGGER_SIGNAL)
    return atomic_load (&signalled);
  if (pc.tr.kind == TRIGGER_FILE)
    return access (pc.tr.path, F_OK) == 0;
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
  if (pc.tr.kind != TRIGGER_SIGNAL)
    return 0;
  sigemptyset (&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  if (sigaction (SIGUSR1, &sa, NULL) == -1) {
    nbdkit_error ("powercut=signal: sigaction (SIGUSR1): %m");
    return -1;
  }
  return 0;
}
