/* hddsim-replay: its options and the plugin's parameters, and --help. */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/param.h"
#include "../../sched/setup.h"
#include "../../trace/trace_source.h"
#include "replay.h"

#define MAX_INFLIGHT (UINT32_C(1) << 20)

static void
usage (FILE *fp)
{
  const struct trace_format_info *f;

  fprintf (fp,
           "usage: hddsim-replay [--format=NAME] [--closed[=N] | "
           "--max-inflight=N] [--speed=F]\n"
           "                     [--device=NAME] [--blk-event=Q|D] "
           "[--wrap] [--summary] [--check]\n"
           "                     [--output=FILE] [--window=ROWS] "
           "TRACE [size=BYTES] [PARAM=VALUE...]\n"
           "       hddsim-replay --format=disksim-validate [--output=FILE] "
           "[--demerit] [--cdf=FILE] TRACE [size=BYTES] [PARAM=VALUE...]\n"
           "PARAMs are the plugin's: sched=, profile=, seed=, drive "
           "parameters and scheduler tunables.\n"
           "size= defaults to the profile's capacity.\n"
           "Formats (detected when --format is not given):\n");
  for (f = trace_source_formats; f->name; f++)
    fprintf (fp, "  %-17s %s\n", f->name, f->help);
  fprintf (fp, "  %-17s %s\n", "disksim-validate",
           "DiskSim's validation traces, closed loop with their think "
           "times (never detected)");
}

static bool
known_format (const char *name)
{
  const struct trace_format_info *f;

  if (strcmp (name, "disksim-validate") == 0)
    return true;
  for (f = trace_source_formats; f->name; f++)
    if (strcmp (name, f->name) == 0)
      return true;
  return false;
}

static int
parse_format (struct replay *rp, const char *name)
{
  const struct trace_format_info *f;

  if (!known_format (name)) {
    fprintf (stderr, "hddsim-replay: --format=%s: expected one of", name);
    for (f = trace_source_formats; f->name; f++)
      fprintf (stderr, " %s", f->name);
    fprintf (stderr, " disksim-validate\n");
    return -1;
  }
  rp->format_name = name;
  return 0;
}

static int
parse_count (const char *opt, const char *value, uint64_t max, uint64_t *n)
{
  if (parse_uint (value, n) == -1 || *n == 0 || *n > max) {
    fprintf (stderr, "hddsim-replay: --%s=%s: expected 1 to %" PRIu64 "\n",
             opt, value, max);
    return -1;
  }
  return 0;
}

static int
parse_limit (struct replay *rp, const char *opt, const char *value)
{
  uint64_t n = 1;

  if (value && parse_count (opt, value, MAX_INFLIGHT, &n) == -1)
    return -1;
  if (rp->limit) {
    fprintf (stderr, "hddsim-replay: --closed and --max-inflight exclude "
             "each other (given twice?)\n");
    return -1;
  }
  rp->limit = (uint32_t) n;
  return 0;
}

static int
parse_speed (struct replay *rp, const char *value)
{
  char *end;
  double f;

  errno = 0;
  f = strtod (value, &end);
  if (errno || end == value || *end || !isfinite (f) || f < 1e-6 || f > 1e6) {
    fprintf (stderr, "hddsim-replay: --speed=%s: expected a factor from "
             "1e-6 to 1e6\n", value);
    return -1;
  }
  rp->speed = f;
  return 0;
}

static int
parse_blk_event (struct replay *rp, const char *value)
{
  if ((value[0] != 'Q' && value[0] != 'D') || value[1]) {
    fprintf (stderr, "hddsim-replay: --blk-event=%s: expected Q (queued) "
             "or D (issued to the driver)\n", value);
    return -1;
  }
  rp->blk_event = value[0];
  return 0;
}

static int
parse_device (struct replay *rp, const char *value)
{
  if (!*value || strlen (value) >= SRC_DEVICE_MAX) {
    fprintf (stderr, "hddsim-replay: --device=%s: expected a name of 1 to "
             "%d characters\n", value, SRC_DEVICE_MAX - 1);
    return -1;
  }
  rp->device = value;
  return 0;
}

static int
parse_option (struct replay *rp, int c)
{
  uint64_t w;

  switch (c) {
  case 'c': rp->check = true; return 0;
  case 'o': rp->output = optarg; return 0;
  case 'd': rp->demerit = true; return 0;
  case 's': rp->summary = true; return 0;
  case 'W': rp->wrap = true; return 0;
  case 'C': rp->cdf = optarg; return 0;
  case 'f': return parse_format (rp, optarg);
  case 'L': rp->closed = true; return parse_limit (rp, "closed", optarg);
  case 'M': return parse_limit (rp, "max-inflight", optarg);
  case 'S': return parse_speed (rp, optarg);
  case 'B': return parse_blk_event (rp, optarg);
  case 'D': return parse_device (rp, optarg);
  case 'w':
    if (parse_count ("window", optarg, UINT64_C(1) << 30, &w) == -1)
      return -1;
    rp->window = (size_t) w;
    return 0;
  case 'h': usage (stdout); exit (EXIT_SUCCESS);
  default: usage (stderr); return -1;
  }
}

/* Options that make no sense together, said rather than ignored. */
static int
check_options (struct replay *rp)
{
  bool ds = rp->format_name
    && strcmp (rp->format_name, "disksim-validate") == 0;

  if (!ds && (rp->demerit || rp->cdf)) {
    fprintf (stderr, "hddsim-replay: --demerit and --cdf need measured "
             "service times: --format=disksim-validate\n");
    return -1;
  }
  if (ds && (rp->check || rp->limit || rp->speed || rp->device
             || rp->blk_event || rp->wrap || rp->summary)) {
    fprintf (stderr, "hddsim-replay: --format=disksim-validate replays "
             "closed loop with the trace's think times: it takes only "
             "--output, --demerit and --cdf\n");
    return -1;
  }
  if (rp->closed && rp->speed) {
    fprintf (stderr, "hddsim-replay: --speed scales arrival times, which "
             "--closed does not use\n");
    return -1;
  }
  if (rp->check && (rp->closed || rp->speed)) {
    fprintf (stderr, "hddsim-replay: --check compares with the live "
             "timeline: not with --closed or --speed\n");
    return -1;
  }
  rp->format = ds ? FORMAT_DISKSIM : FORMAT_SOURCE;
  return 0;
}

int
parse_options (struct replay *rp, int argc, char **argv)
{
  static const struct option opts[] = {
    { "check", no_argument, NULL, 'c' },
    { "output", required_argument, NULL, 'o' },
    { "format", required_argument, NULL, 'f' },
    { "demerit", no_argument, NULL, 'd' },
    { "cdf", required_argument, NULL, 'C' },
    { "window", required_argument, NULL, 'w' },
    { "closed", optional_argument, NULL, 'L' },
    { "max-inflight", required_argument, NULL, 'M' },
    { "speed", required_argument, NULL, 'S' },
    { "device", required_argument, NULL, 'D' },
    { "blk-event", required_argument, NULL, 'B' },
    { "summary", no_argument, NULL, 's' },
    { "wrap", no_argument, NULL, 'W' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  int c;

  while ((c = getopt_long (argc, argv, "co:h", opts, NULL)) != -1)
    if (parse_option (rp, c) == -1)
      return -1;
  if (optind >= argc) {
    usage (stderr);
    return -1;
  }
  if (check_options (rp) == -1)
    return -1;
  rp->trace = argv[optind];
  return optind + 1;
}

int
parse_params (struct replay *rp, int argc, char **argv, int first)
{
  char err[SETUP_ERRLEN];
  int i, r;

  for (i = first; i < argc; i++) {
    char *eq = strchr (argv[i], '=');
    if (!eq) {
      fprintf (stderr, "hddsim-replay: %s: expected KEY=VALUE\n", argv[i]);
      return -1;
    }
    *eq = '\0';
    if (strcmp (argv[i], "size") == 0) {
      if (parse_size (eq + 1, &rp->size) == -1 || rp->size == 0) {
        fprintf (stderr, "hddsim-replay: size=%s: expected a size\n", eq + 1);
        return -1;
      }
      continue;
    }
    r = setup_set (&rp->setup, argv[i], eq + 1, err, sizeof err);
    if (r != 0) {
      if (r == 1)
        fprintf (stderr, "hddsim-replay: %s: unknown parameter\n", argv[i]);
      else
        fprintf (stderr, "hddsim-replay: %s\n", err);
      return -1;
    }
  }
  if (setup_finish (&rp->setup, err, sizeof err) == -1) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  rp->size_given = rp->size != 0;
  if (rp->size == 0)
    rp->size = hdd_params_capacity (rp->setup.hdd);
  if (rp->size == 0) {
    fprintf (stderr, "hddsim-replay: size=BYTES (the image size) is "
             "required: the profile has no capacity\n");
    return -1;
  }
  return 0;
}
