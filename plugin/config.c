/* hddsim: the plugin's parameters.
 *
 * The plugin's own keys (image, trace, stats, spin) are handled here;
 * everything that defines the drive and the policy goes to the shared
 * setup (sched/setup.c), which hddsim-replay uses too.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "../common/param.h"
#include "config.h"
#include "realtime.h"

/* The delivery spin: see driver.c.  250 us covers clock_nanosleep's
 * p99 oversleep measured here (100-175 us) with room to spare.
 */
#define DEFAULT_SPIN_NS (250 * UINT64_C(1000))
#define MAX_SPIN_NS (100 * UINT64_C(1000000))

struct config config;
static int initialised;

static void
init_once (void)
{
  if (initialised)
    return;
  config.spin_ns = DEFAULT_SPIN_NS;
  config.realtime = REALTIME_AUTO;
  config.host_sync = true;
  setup_init (&config.setup);
  initialised = 1;
}

static int
set_path (char **field, const char *key, const char *value)
{
  if (*value == '\0') {
    nbdkit_error ("%s: the value must not be empty", key);
    return -1;
  }
  free (*field);
  *field = strdup (value);
  if (!*field) {
    nbdkit_error ("strdup: %m");
    return -1;
  }
  return 0;
}

/* nbdkit_parse_bool's own message would not name the parameter. */
static int
set_bool (const char *key, const char *value, bool *field)
{
  static const char *const yes[] = { "1", "true", "on", "yes", NULL };
  static const char *const no[] = { "0", "false", "off", "no", NULL };
  int i;

  for (i = 0; yes[i]; i++)
    if (strcasecmp (value, yes[i]) == 0) {
      *field = true;
      return 0;
    }
  for (i = 0; no[i]; i++)
    if (strcasecmp (value, no[i]) == 0) {
      *field = false;
      return 0;
    }
  nbdkit_error ("%s=%s: expected true or false", key, value);
  return -1;
}

static int
set_realtime (const char *value)
{
  static const char *const names[] = { "off", "auto", "on" };
  int i;

  for (i = 0; i < 3; i++)
    if (strcmp (value, names[i]) == 0) {
      config.realtime = i;
      return 0;
    }
  nbdkit_error ("realtime=%s: expected off, auto or on", value);
  return -1;
}

int
config_set (const char *key, const char *value)
{
  char err[SETUP_ERRLEN] = "";
  int r;

  init_once ();
  if (strcmp (key, "image") == 0)
    return set_path (&config.image, key, value);
  if (strcmp (key, "trace") == 0)
    return set_path (&config.trace, key, value);
  if (strcmp (key, "stats") == 0)
    return set_path (&config.stats, key, value);
  if (strcmp (key, "spin") == 0) {
    /* Spinning is at real-time priority: keep it short. */
    if (parse_duration (value, &config.spin_ns) == -1
        || config.spin_ns > MAX_SPIN_NS) {
      nbdkit_error ("spin=%s: expected a duration from 0 to 100ms "
                    "(e.g. 250us)", value);
      return -1;
    }
    return 0;
  }
  if (strcmp (key, "realtime") == 0)
    return set_realtime (value);
  if (strcmp (key, "host-sync") == 0)
    return set_bool (key, value, &config.host_sync);
  r = setup_set (&config.setup, key, value, err, sizeof err);
  if (r == 1)
    nbdkit_error ("unknown parameter '%s' (see nbdkit hddsim --help)", key);
  else if (r == -1)
    nbdkit_error ("%s", err);
  return r == 0 ? 0 : -1;
}

int
config_finish (void)
{
  char err[SETUP_ERRLEN] = "";

  init_once ();
  if (!config.image) {
    nbdkit_error ("you must supply image=FILE (the disk image to serve)");
    return -1;
  }
  if (setup_finish (&config.setup, err, sizeof err) == -1) {
    nbdkit_error ("%s", err);
    return -1;
  }
  return 0;
}

void
config_free (void)
{
  free (config.image);
  free (config.trace);
  free (config.stats);
  if (initialised)
    setup_free (&config.setup);
  memset (&config, 0, sizeof config);
  initialised = 0;
}

static const char help_head[] =
  "image=FILE (required)       The raw disk image to serve.\n"
  "sched=fifo|cscan|cfq|deadline|satf\n"
  "                            Scheduling policy (default fifo).\n"
  "profile=NAME|FILE.ini       Drive profile (see --dump-plugin).\n"
  "seed=N                      Platter phase at time 0 (default 0).\n"
  "trace=FILE                  Write one CSV line per request.\n"
  "stats=FILE                  Write statistics (JSON) every second.\n"
  "spin=DURATION               Spin this close to a completion (250us).\n"
  "realtime=auto|on|off        Wait for completions at SCHED_FIFO priority\n"
  "                            where permitted (default auto).\n"
  "host-sync=true|false        fdatasync the image on flush and FUA\n"
  "                            (default true).\n"
  "Scheduler tunables:\n";

const char *
config_help_text (void)
{
  static char text[16384];
  FILE *fp;

  if (text[0])
    return text;
  fp = fmemopen (text, sizeof text - 1, "w");
  if (!fp)
    return help_head;
  fputs (help_head, fp);
  sched_params_print_help (fp);
  fputs ("Drive parameters (override the profile's):\n", fp);
  hdd_params_print_help (fp);
  fclose (fp);
  return text;
}
