/* hddsim: the plugin's parameters.
 *
 * The plugin's own keys (image, trace, stats, spin, realtime,
 * host-sync) are in the table here; everything that defines the drive
 * and the policy goes to the shared setup (sched/setup.c), which
 * hddsim-replay uses too.
 */

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "../common/param.h"
#include "../profile/profile.h"
#include "config.h"
#include "fault.h"
#include "powercut.h"
#include "realtime.h"

#define MS UINT64_C(1000000)

static const char *const realtime_names[] = {
  [REALTIME_OFF] = "off", [REALTIME_AUTO] = "auto", [REALTIME_ON] = "on",
  NULL,
};

#define CFG(f) offsetof (struct config, f)

/* The plugin's own keys.  The delivery spin (see driver.c) is at
 * real-time priority, so it is kept short; 250 us covers
 * clock_nanosleep's p99 oversleep measured here (100-175 us) with room
 * to spare.
 */
static const struct param_desc plugin_params[] = {
  { .key = "image", .type = PARAM_STRING, .offset = CFG(image),
    .metavar = "FILE", .help = "the raw disk image to serve (required)" },
  { .key = "trace", .type = PARAM_STRING, .offset = CFG(trace),
    .metavar = "FILE", .help = "write one CSV line per request" },
  { .key = "stats", .type = PARAM_STRING, .offset = CFG(stats),
    .metavar = "FILE", .help = "write statistics (JSON) every second" },
  { .key = "spin", .type = PARAM_DURATION, .offset = CFG(spin_ns),
    .min = 0, .max = 100 * MS, .def = 250 * 1000,
    .help = "spin this close to a completion" },
  { .key = "realtime", .type = PARAM_ENUM, .offset = CFG(realtime),
    .def = REALTIME_AUTO, .choices = realtime_names,
    .help = "wait at SCHED_FIFO priority (auto: where permitted)" },
  { .key = "host-sync", .type = PARAM_BOOL, .offset = CFG(host_sync),
    .def = true, .help = "fdatasync the image on flush and FUA" },
  { .key = "nbd-max-block", .type = PARAM_STRING,
    .offset = CFG(nbd_max_block_arg), .metavar = "auto|off|SIZE",
    .help = "advertise an NBD maximum block size: the drive's "
    "max-transfer (auto) or SIZE (default off: see the manual)" },
  { .key = "powercut", .type = PARAM_STRING, .offset = CFG(powercut),
    .metavar = "TRIGGER",
    .help = "cut the power: at:DURATION (modeled), after-writes:N, "
    "random:DURATION-DURATION (from seed=), signal (SIGUSR1) or "
    "file:PATH (appears); the image keeps only what the modeled media "
    "held (docs/power-loss.md)" },
  { .key = "powercut-exit", .type = PARAM_BOOL, .offset = CFG(powercut_exit),
    .def = false, .help = "exit nbdkit (status 3) at the power cut, "
    "rather than fail every request and refuse connections" },
  { .key = NULL },
};

struct config config;
static int initialised;

static void
init_once (void)
{
  if (initialised)
    return;
  param_defaults (plugin_params, &config);
  setup_init (&config.setup);
  initialised = 1;
}

int
config_set (const char *key, const char *value)
{
  char err[SETUP_ERRLEN] = "";
  int r;

  init_once ();
  if (strcmp (key, "fault") == 0)
    return fault_config (value);
  r = param_set (plugin_params, &config, key, value, err, sizeof err);
  if (r == 1)
    r = setup_set (&config.setup, key, value, err, sizeof err);
  if (r == 1)
    nbdkit_error ("unknown parameter '%s' (see nbdkit hddsim --help)", key);
  else if (r == -1)
    nbdkit_error ("%s", err);
  return r == 0 ? 0 : -1;
}

/* The NBD protocol's preferred block size, which nbdkit's block_size
 * callback must not exceed with the maximum.
 */
#define NBD_PREFERRED 4096

/* nbd-max-block=: off (the default), auto (the drive's max-transfer,
 * none when that is unlimited) or a size.  Off by default because the
 * NBD maximum alone makes a client such as QEMU split a large request
 * itself and send the pieces one after another, which serves the drive
 * worse than one request the engine splits (docs/schedulers.md).
 */
static int
resolve_nbd_max_block (char *err, size_t errlen)
{
  const char *arg = config.nbd_max_block_arg;
  uint64_t v;

  if (!arg || strcmp (arg, "off") == 0)
    v = 0;
  else if (strcmp (arg, "auto") == 0)
    v = hdd_params_max_transfer (config.setup.hdd);
  else if (parse_size (arg, &v) == -1 || v == 0) {
    snprintf (err, errlen, "nbd-max-block=%s: expected auto, off or a "
              "size (e.g. 128K)", arg);
    return -1;
  }
  if (v != 0 && (v < NBD_PREFERRED || v > UINT32_MAX)) {
    snprintf (err, errlen, "nbd-max-block=%s: %" PRIu64 " bytes%s; the NBD "
              "maximum block size must be %d to %" PRIu32 " bytes", arg, v,
              strcmp (arg, "auto") == 0 ? " (the drive's max-transfer)" : "",
              NBD_PREFERRED, UINT32_MAX);
    return -1;
  }
  config.nbd_max_block = (uint32_t) v;
  return 0;
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
  if (setup_finish (&config.setup, err, sizeof err) == -1
      || resolve_nbd_max_block (err, sizeof err) == -1
      || powercut_parse (config.powercut, config.setup.seed,
                         err, sizeof err) == -1) {
    nbdkit_error ("%s", err);
    return -1;
  }
  if (fault_config_complete (config.setup.seed) == -1)
    return -1;
  if (config.powercut_exit && !config.powercut) {
    nbdkit_error ("powercut-exit=true without powercut=: nothing to exit on");
    return -1;
  }
  return 0;
}

void
config_free (void)
{
  if (initialised) {
    param_free (plugin_params, &config);
    setup_free (&config.setup);
    fault_free ();
  }
  memset (&config, 0, sizeof config);
  initialised = 0;
}

const char *
config_help_text (void)
{
  static char text[16384];
  FILE *fp;

  if (text[0])
    return text;
  fp = fmemopen (text, sizeof text - 1, "w");
  if (!fp)
    return "(no memory for the help text)";
  param_print_help (plugin_params, fp);
  fputs (fault_help (), fp);
  setup_print_help (fp);
  fputs ("Drive parameters (override the profile's):\n", fp);
  hdd_profile_print_help (fp);
  fclose (fp);
  return text;
}

void
config_dump_plugin (FILE *fp)
{
  size_t i;

  fprintf (fp, "hddsim_policies=");
  for (i = 0; policy_list[i]; i++)
    fprintf (fp, "%s%s", i ? "," : "", policy_list[i]->name);
  fprintf (fp, "\n");
  for (i = 0; policy_list[i]; i++)
    fprintf (fp, "hddsim_policy_%s=%s\n", policy_list[i]->name,
             policy_list[i]->description);
  param_print_defaults (plugin_params, "hddsim_default_", fp);
  fprintf (fp, "hddsim_fault_kinds=slow,stall,recover,bad\n");
  fprintf (fp, "hddsim_default_nbd_max_block=off\n");
  /* Scripts look up the default drive's real command size with this. */
  fprintf (fp, "hddsim_default_profile=%s\n", HDD_PROFILE_DEFAULT);
  setup_print_defaults ("hddsim_default_", fp);
}
