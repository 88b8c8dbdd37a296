/* hddsim-replay: run a recorded trace through the engine on a virtual
 * clock, DiskSim-style, in a fraction of the time it took live.
 *
 *   hddsim-replay [--check] [--output=FILE] TRACE.csv size=BYTES \
 *                 [sched=...] [profile=...] [seed=N] [tunables...]
 *
 * The arrivals, operations, offsets and lengths of TRACE.csv (as
 * written by the plugin's trace=) are submitted at their arrival
 * times; the modeled timeline is written as a trace of the same form.
 * With the parameters the live run used, the replayed timeline is
 * identical to the live one: --check compares start_ns and done_ns of
 * every request and fails on the first difference.  Requests that the
 * live run abandoned before they reached the drive are not in the
 * trace, so a run with such aborts cannot be checked.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/param.h"
#include "../sched/engine.h"
#include "../sched/setup.h"
#include "lib/trace_csv.h"

struct replay {
  struct trace_row *rows;
  long nrows;
  struct req *reqs;
  uint64_t size;
  bool check;
  const char *output;
  struct setup setup;
};

static void
usage (FILE *fp)
{
  fprintf (fp,
           "usage: hddsim-replay [--check] [--output=FILE] TRACE.csv "
           "size=BYTES [PARAM=VALUE...]\n"
           "PARAMs are the plugin's: sched=, profile=, seed=, drive "
           "parameters and scheduler tunables.\n");
}

static int
parse_args (struct replay *rp, int argc, char **argv)
{
  static const struct option opts[] = {
    { "check", no_argument, NULL, 'c' },
    { "output", required_argument, NULL, 'o' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  char err[SETUP_ERRLEN], terr[TRACE_ERRLEN];
  const char *trace;
  int c, i;

  while ((c = getopt_long (argc, argv, "co:h", opts, NULL)) != -1) {
    switch (c) {
    case 'c': rp->check = true; break;
    case 'o': rp->output = optarg; break;
    case 'h': usage (stdout); exit (EXIT_SUCCESS);
    default: usage (stderr); return -1;
    }
  }
  if (optind >= argc) {
    usage (stderr);
    return -1;
  }
  trace = argv[optind];
  for (i = optind + 1; i < argc; i++) {
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
    c = setup_set (&rp->setup, argv[i], eq + 1, err, sizeof err);
    if (c != 0) {
      fprintf (stderr, "hddsim-replay: %s\n",
               c == 1 ? "unknown parameter" : err);
      return -1;
    }
  }
  if (rp->size == 0) {
    fprintf (stderr, "hddsim-replay: size=BYTES (the image size) is required\n");
    return -1;
  }
  if (setup_finish (&rp->setup, err, sizeof err) == -1) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  rp->nrows = trace_read (trace, &rp->rows, terr, sizeof terr);
  if (rp->nrows < 0
      || trace_check_extents (trace, rp->rows, rp->nrows, rp->size,
                              terr, sizeof terr) == -1) {
    fprintf (stderr, "hddsim-replay: %s\n", terr);
    return -1;
  }
  return 0;
}

static int
by_arrival (const void *a, const void *b)
{
  const struct trace_row *x = a, *y = b;

  if (x->arrival != y->arrival)
    return x->arrival < y->arrival ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* A replayed request has no delivery: its lateness is left empty. */
static void
write_row (FILE *fp, const struct req *r)
{
  char line[TRACE_LINE_MAX];
  struct trace_record t;

  trace_record_of (&t, r, TRACE_LATE_NONE, OUTCOME_OK);
  fwrite (line, 1, trace_format_line (line, &t), fp);
}

static const struct engine_hooks no_hooks = { NULL, NULL };

static int
replay (struct replay *rp)
{
  char err[HDD_ERRLEN];
  struct hdd *hdd = hdd_new (rp->setup.hdd, rp->size, rp->setup.seed,
                             err, sizeof err);
  struct engine *e;
  long i;

  if (!hdd) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  e = engine_new (hdd, rp->setup.policy, &rp->setup.sched, &no_hooks, NULL);
  rp->reqs = calloc ((size_t) rp->nrows + 1, sizeof *rp->reqs);
  if (!e || !rp->reqs) {
    fprintf (stderr, "hddsim-replay: out of memory\n");
    return -1;
  }
  qsort (rp->rows, (size_t) rp->nrows, sizeof *rp->rows, by_arrival);
  for (i = 0; i < rp->nrows; i++) {
    struct req *r = &rp->reqs[i];
    const struct trace_row *t = &rp->rows[i];

    r->id = t->id;
    r->conn = t->conn;
    r->io = (struct io) { .op = t->io_op, .fua = t->fua,
                          .offset = t->offset, .length = t->length };
    if (t->arrival > 0)
      engine_advance (e, t->arrival - 1);
    engine_submit (e, r, t->arrival);
  }
  engine_advance (e, ENGINE_NEVER - 1);
  engine_free (e);
  hdd_free (hdd);
  return 0;
}

static int
check (const struct replay *rp)
{
  long i;

  for (i = 0; i < rp->nrows; i++) {
    const struct trace_row *t = &rp->rows[i];
    const struct req *r = &rp->reqs[i];

    if (t->start != r->start || t->done != r->done) {
      fprintf (stderr, "hddsim-replay: request %" PRIu64 " differs: live "
               "[%" PRIu64 ", %" PRIu64 "], replayed [%" PRIu64 ", %" PRIu64
               "]\n", t->id, t->start, t->done, r->start, r->done);
      return -1;
    }
  }
  fprintf (stderr, "hddsim-replay: %ld requests, identical timeline\n",
           rp->nrows);
  return 0;
}

static int
write_output (const struct replay *rp)
{
  FILE *fp = rp->output ? fopen (rp->output, "w") : stdout;
  char header[TRACE_LINE_MAX];
  long i;

  if (!fp) {
    fprintf (stderr, "hddsim-replay: %s: %s\n", rp->output, strerror (errno));
    return -1;
  }
  fwrite (header, 1, trace_format_header (header), fp);
  for (i = 0; i < rp->nrows; i++)
    write_row (fp, &rp->reqs[i]);
  if (fp != stdout)
    return fclose (fp) == 0 ? 0 : -1;
  return fflush (fp) == 0 ? 0 : -1;
}

int
main (int argc, char **argv)
{
  struct replay rp = { 0 };
  int status = EXIT_SUCCESS;

  setup_init (&rp.setup);
  if (parse_args (&rp, argc, argv) == -1 || replay (&rp) == -1)
    status = EXIT_FAILURE;
  else if (rp.check)
    status = check (&rp) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
  else if (write_output (&rp) == -1)
    status = EXIT_FAILURE;
  setup_free (&rp.setup);
  free (rp.rows);
  free (rp.reqs);
  return status;
}
