/* hddsim-replay: run a recorded trace through the engine on a virtual
 * clock, DiskSim-style, in a fraction of the time it took live.
 *
 *   hddsim-replay [--check] [--output=FILE] [--window=ROWS] TRACE.csv \
 *                 size=BYTES [sched=...] [profile=...] [seed=N] [tunables...]
 *   hddsim-replay --format=disksim-validate [--output=FILE] [--demerit]
 *                 [--cdf=FILE] TRACE [size=BYTES] [PARAM=VALUE...]
 *
 * hddsim format (the default): the arrivals, operations, offsets and
 * lengths of TRACE.csv (as written by the plugin's trace=) are
 * submitted at their arrival times, open loop; the modeled timeline is
 * written as a trace of the same form, one row per request in order of
 * modeled completion (as the plugin writes it).  With the parameters
 * the live run used, the replayed timeline is identical to the live
 * one: --check compares start_ns and done_ns of every request and
 * fails on the first difference.  Requests that the live run abandoned
 * before they reached the drive are not in the trace, so a run with
 * such aborts cannot be checked.
 *
 * The trace is streamed: rows are read as the replay needs them.  The
 * plugin writes a row when its request completes, so rows are not in
 * arrival order; up to --window rows are held and released in arrival
 * order, and a row that arrives before one already released is an
 * error naming its line.
 *
 * disksim-validate format: DiskSim's validation traces, replayed closed
 * loop (see tools/lib/disksim_trace.h); size= defaults to the drive's
 * capacity.  --demerit prints DiskSim's RMS demerit of the modeled
 * against the measured service times and both means, as key=value
 * lines on stdout (the trace CSV then only goes to --output); --cdf
 * writes both binned CDFs for plotting.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/param.h"
#include "../sched/engine.h"
#include "../sched/setup.h"
#include "lib/demerit.h"
#include "lib/disksim_trace.h"
#include "lib/trace_csv.h"

#define DEFAULT_WINDOW 16384

enum format { FORMAT_HDDSIM, FORMAT_DISKSIM };

/* One request of an hddsim trace, from the row that holds it until its
 * modeled completion.
 */
struct slot {
  struct req req;
  uint64_t live_start, live_done;
  struct slot *next_free;
};

struct replay {
  /* Options. */
  const char *trace, *output, *cdf;
  enum format format;
  bool check, demerit;
  uint64_t size;
  size_t window;
  struct setup setup;

  /* The run. */
  FILE *out;
  struct engine *engine;
  long requests;
  bool failed;                  /* --check found a difference, or I/O */
  bool draining;                /* after an error: only free the slots */

  /* hddsim format: rows read, not yet submitted, by arrival. */
  struct slot **heap;
  size_t nheap;
  struct slot *free_slots;
  bool released_any;
  uint64_t last_arrival, last_id;

  /* disksim-validate format. */
  struct demerit_dist *modeled, *measured;
};

static void
usage (FILE *fp)
{
  fprintf (fp,
           "usage: hddsim-replay [--check] [--output=FILE] [--window=ROWS] "
           "TRACE.csv size=BYTES [PARAM=VALUE...]\n"
           "       hddsim-replay --format=disksim-validate [--output=FILE] "
           "[--demerit] [--cdf=FILE] TRACE [size=BYTES] [PARAM=VALUE...]\n"
           "PARAMs are the plugin's: sched=, profile=, seed=, drive "
           "parameters and scheduler tunables.\n");
}

static int
parse_format (struct replay *rp, const char *name)
{
  if (strcmp (name, "hddsim") == 0)
    rp->format = FORMAT_HDDSIM;
  else if (strcmp (name, "disksim-validate") == 0)
    rp->format = FORMAT_DISKSIM;
  else {
    fprintf (stderr, "hddsim-replay: --format=%s: expected hddsim or "
             "disksim-validate\n", name);
    return -1;
  }
  return 0;
}

static int
parse_window (struct replay *rp, const char *value)
{
  uint64_t w;

  if (parse_uint (value, &w) == -1 || w == 0 || w > (UINT64_C(1) << 30)) {
    fprintf (stderr, "hddsim-replay: --window=%s: expected 1 to 2^30 rows\n",
             value);
    return -1;
  }
  rp->window = (size_t) w;
  return 0;
}

static int
parse_options (struct replay *rp, int argc, char **argv)
{
  static const struct option opts[] = {
    { "check", no_argument, NULL, 'c' },
    { "output", required_argument, NULL, 'o' },
    { "format", required_argument, NULL, 'f' },
    { "demerit", no_argument, NULL, 'd' },
    { "cdf", required_argument, NULL, 'C' },
    { "window", required_argument, NULL, 'w' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  int c;

  while ((c = getopt_long (argc, argv, "co:h", opts, NULL)) != -1) {
    switch (c) {
    case 'c': rp->check = true; break;
    case 'o': rp->output = optarg; break;
    case 'd': rp->demerit = true; break;
    case 'C': rp->cdf = optarg; break;
    case 'f': if (parse_format (rp, optarg) == -1) return -1; break;
    case 'w': if (parse_window (rp, optarg) == -1) return -1; break;
    case 'h': usage (stdout); exit (EXIT_SUCCESS);
    default: usage (stderr); return -1;
    }
  }
  if (optind >= argc) {
    usage (stderr);
    return -1;
  }
  if (rp->format == FORMAT_HDDSIM && (rp->demerit || rp->cdf)) {
    fprintf (stderr, "hddsim-replay: --demerit and --cdf need measured "
             "service times: --format=disksim-validate\n");
    return -1;
  }
  if (rp->format == FORMAT_DISKSIM && rp->check) {
    fprintf (stderr, "hddsim-replay: --check compares with a live hddsim "
             "trace; use --demerit for a DiskSim trace\n");
    return -1;
  }
  rp->trace = argv[optind];
  return optind + 1;
}

static int
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
  if (rp->size == 0 && rp->format == FORMAT_DISKSIM)
    rp->size = hdd_params_capacity (rp->setup.hdd);
  if (rp->size == 0) {
    fprintf (stderr, "hddsim-replay: size=BYTES (the image size) is "
             "required\n");
    return -1;
  }
  return 0;
}

/* ---- output ---- */

/* One row of the trace format the plugin writes (tools/lib/trace_csv.c);
 * a replayed request has no delivery, so late_ns is left empty.
 */
static void
write_row (FILE *fp, const struct req *r)
{
  char line[TRACE_LINE_MAX];
  struct trace_record t;

  trace_record_of (&t, r, TRACE_LATE_NONE, OUTCOME_OK);
  fwrite_unlocked (line, 1, trace_format_line (line, &t), fp);
}

static void
write_header (FILE *fp)
{
  char line[TRACE_LINE_MAX];

  fwrite (line, 1, trace_format_header (line), fp);
}

static int
open_output (struct replay *rp)
{
  /* --check and --demerit report on their own; the CSV then goes only
   * where --output says.
   */
  if (!rp->output && (rp->check || rp->demerit))
    return 0;
  rp->out = rp->output ? fopen (rp->output, "w") : stdout;
  if (!rp->out) {
    fprintf (stderr, "hddsim-replay: %s: %s\n", rp->output, strerror (errno));
    return -1;
  }
  setvbuf (rp->out, NULL, _IOFBF, 1 << 20);
  write_header (rp->out);
  return 0;
}

static int
close_output (struct replay *rp)
{
  int r;

  if (!rp->out)
    return 0;
  r = rp->out == stdout ? fflush (rp->out) : fclose (rp->out);
  if (r != 0 || rp->failed) {
    if (r != 0)
      fprintf (stderr, "hddsim-replay: %s: %s\n",
               rp->output ? rp->output : "stdout", strerror (errno));
    return -1;
  }
  return 0;
}

/* ---- hddsim traces: open loop, streamed ---- */

static struct slot *
slot_get (struct replay *rp)
{
  struct slot *s = rp->free_slots;

  if (s) {
    rp->free_slots = s->next_free;
    return s;
  }
  return malloc (sizeof *s);
}

static void
slot_put (struct replay *rp, struct slot *s)
{
  s->next_free = rp->free_slots;
  rp->free_slots = s;
}

static void
slots_free (struct replay *rp)
{
  struct slot *s;

  while ((s = rp->free_slots) != NULL) {
    rp->free_slots = s->next_free;
    free (s);
  }
  while (rp->nheap > 0)
    free (rp->heap[--rp->nheap]);
  free (rp->heap);
}

/* Arrival order; the plugin numbers requests as they arrive. */
static bool
before (const struct slot *a, const struct slot *b)
{
  if (a->req.arrival != b->req.arrival)
    return a->req.arrival < b->req.arrival;
  return a->req.id < b->req.id;
}

static void
heap_push (struct replay *rp, struct slot *s)
{
  size_t i = rp->nheap++;

  while (i > 0 && before (s, rp->heap[(i - 1) / 2])) {
    rp->heap[i] = rp->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  rp->heap[i] = s;
}

static struct slot *
heap_pop (struct replay *rp)
{
  struct slot *top = rp->heap[0], *last = rp->heap[--rp->nheap];
  size_t i = 0, n = rp->nheap;

  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n)
      break;
    if (c + 1 < n && before (rp->heap[c + 1], rp->heap[c]))
      c++;
    if (!before (rp->heap[c], last))
      break;
    rp->heap[i] = rp->heap[c];
    i = c;
  }
  if (n > 0)
    rp->heap[i] = last;
  return top;
}

/* Submit the earliest row held.  Its arrival time is the live one: the
 * engine keeps it unless it would go back in time, which arrival order
 * rules out.
 */
static int
release (struct replay *rp)
{
  struct slot *s = heap_pop (rp);
  uint64_t arrival = s->req.arrival;

  rp->last_arrival = arrival;
  rp->last_id = s->req.id;
  rp->released_any = true;
  if (engine_arrive (rp->engine, &s->req, arrival) == -1) {
    fprintf (stderr, "hddsim-replay: request %" PRIu64 ": no memory for "
             "its commands (max-transfer=)\n", s->req.id);
    slot_put (rp, s);
    return -1;
  }
  return 0;
}

static int
check_one (const struct slot *s)
{
  const struct req *r = &s->req;

  if (s->live_start == r->start && s->live_done == r->done)
    return 0;
  fprintf (stderr, "hddsim-replay: request %" PRIu64 " differs: live "
           "[%" PRIu64 ", %" PRIu64 "], replayed [%" PRIu64 ", %" PRIu64
           "]\n", r->id, s->live_start, s->live_done, r->start, r->done);
  return -1;
}

static void
csv_completed (struct req *r, void *opaque)
{
  struct replay *rp = opaque;
  struct slot *s = (struct slot *) ((char *) r - offsetof (struct slot, req));

  if (!rp->draining) {
    if (rp->out)
      write_row (rp->out, r);
    if (rp->check && !rp->failed && check_one (s) == -1)
      rp->failed = true;
    rp->requests++;
  }
  slot_put (rp, s);
}

/* A row to a request held in a slot; -1 on a bad row or an arrival
 * before one already submitted.
 */
static int
take_row (struct replay *rp, const struct trace_reader *tr,
          const struct trace_row *t)
{
  char err[TRACE_ERRLEN];
  struct slot *s;

  if (trace_row_check_extent (trace_reader_path (tr), t, rp->size,
                              err, sizeof err) == -1) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  if (rp->released_any
      && (t->arrival < rp->last_arrival
          || (t->arrival == rp->last_arrival && t->id < rp->last_id))) {
    fprintf (stderr, "hddsim-replay: %s:%ld: request %" PRIu64 " arrived at "
             "%" PRIu64 " ns, before request %" PRIu64 " (already "
             "replayed): the trace is more than %zu rows out of arrival "
             "order (--window=ROWS)\n", trace_reader_path (tr),
             trace_reader_line (tr), t->id, t->arrival, rp->last_id,
             rp->window);
    return -1;
  }
  s = slot_get (rp);
  if (!s) {
    fprintf (stderr, "hddsim-replay: out of memory\n");
    return -1;
  }
  memset (&s->req, 0, sizeof s->req);
  s->req.id = t->id;
  s->req.conn = t->conn;
  s->req.arrival = t->arrival;
  s->req.io = (struct io) { .op = t->io_op, .fua = t->fua,
                            .offset = t->offset, .length = t->length };
  s->live_start = t->start;
  s->live_done = t->done;
  heap_push (rp, s);
  return 0;
}

static int
replay_hddsim (struct replay *rp)
{
  char err[512] = "";
  struct trace_reader *tr = trace_reader_open (rp->trace, err, sizeof err);
  struct trace_row row;
  int r;

  if (!tr) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  rp->heap = malloc ((rp->window + 1) * sizeof *rp->heap);
  if (!rp->heap) {
    fprintf (stderr, "hddsim-replay: out of memory\n");
    trace_reader_close (tr);
    return -1;
  }
  while ((r = trace_reader_next (tr, &row, err, sizeof err)) == 1) {
    if (take_row (rp, tr, &row) == -1) {
      r = -1;                   /* take_row has said why */
      *err = '\0';
      break;
    }
    if (rp->nheap > rp->window && release (rp) == -1) {
      r = -1;                   /* release has said why */
      *err = '\0';
      break;
    }
  }
  if (r == -1 && *err)
    fprintf (stderr, "hddsim-replay: %s\n", err);
  trace_reader_close (tr);
  if (r == -1) {
    /* Let the requests already submitted complete, to free them. */
    rp->draining = true;
    engine_advance (rp->engine, ENGINE_NEVER - 1);
    return -1;
  }
  while (rp->nheap > 0)
    if (release (rp) == -1) {
      rp->draining = true;
      engine_advance (rp->engine, ENGINE_NEVER - 1);
      return -1;
    }
  engine_advance (rp->engine, ENGINE_NEVER - 1);
  if (rp->check && !rp->failed)
    fprintf (stderr, "hddsim-replay: %ld requests, identical timeline\n",
             rp->requests);
  return rp->failed ? -1 : 0;
}

/* ---- DiskSim validation traces: closed loop ---- */

static int
ds_completed (const struct req *r, const struct ds_request *d, void *opaque)
{
  struct replay *rp = opaque;

  if (rp->out)
    write_row (rp->out, r);
  if (rp->modeled) {
    /* DiskSim's unit is the millisecond.  Its model side counts the
     * time from issue to completion (one request outstanding).
     */
    demerit_dist_add (rp->modeled, (double) (r->done - r->arrival) / 1e6);
    demerit_dist_add (rp->measured, d->servtime_us / 1000.0);
  }
  rp->requests++;
  return 0;
}

static int
write_cdf (const struct replay *rp)
{
  static double xm[DEMERIT_BUCKETS], ym[DEMERIT_BUCKETS];
  static double xt[DEMERIT_BUCKETS], yt[DEMERIT_BUCKETS];
  size_t nm = demerit_cdf (rp->modeled, xm, ym);
  size_t nt = demerit_cdf (rp->measured, xt, yt);
  size_t i, n = nm > nt ? nm : nt;
  FILE *fp = fopen (rp->cdf, "w");

  if (!fp) {
    fprintf (stderr, "hddsim-replay: %s: %s\n", rp->cdf, strerror (errno));
    return -1;
  }
  fprintf (fp, "# DiskSim's statdefs buckets: edge_ms measured modeled "
           "(fraction below the edge)\n");
  for (i = 0; i < n; i++)
    fprintf (fp, "%.3f %f %f\n", (double) demerit_edge_us ((unsigned) i)
             / 1000.0, i < nt ? yt[i] : 1.0, i < nm ? ym[i] : 1.0);
  if (fclose (fp) != 0) {
    fprintf (stderr, "hddsim-replay: %s: %s\n", rp->cdf, strerror (errno));
    return -1;
  }
  return 0;
}

static int
print_demerit (const struct replay *rp)
{
  double d = demerit_rms (rp->modeled, rp->measured);

  if (d < 0) {
    fprintf (stderr, "hddsim-replay: %s: no requests, no demerit\n",
             rp->trace);
    return -1;
  }
  printf ("requests=%ld\ndemerit_ms=%.6f\nmodeled_mean_ms=%.6f\n"
          "measured_mean_ms=%.6f\n", rp->requests, d,
          demerit_dist_mean (rp->modeled), demerit_dist_mean (rp->measured));
  return fflush (stdout) == 0 ? 0 : -1;
}

static int
replay_disksim (struct replay *rp)
{
  static struct demerit_dist modeled, measured;
  char err[DS_ERRLEN];
  struct ds_trace *t = ds_trace_open (rp->trace, rp->size, err, sizeof err);
  long n;

  if (!t) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  if (rp->demerit || rp->cdf) {
    demerit_dist_init (&modeled);
    demerit_dist_init (&measured);
    rp->modeled = &modeled;
    rp->measured = &measured;
  }
  n = ds_replay (t, rp->engine, ds_completed, rp, err, sizeof err);
  ds_trace_close (t);
  if (n < 0) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  if (rp->cdf && write_cdf (rp) == -1)
    return -1;
  if (rp->demerit && print_demerit (rp) == -1)
    return -1;
  return 0;
}

/* ---- main ---- */

static int
run (struct replay *rp)
{
  static const struct engine_hooks no_hooks = { NULL, NULL };
  const struct engine_hooks csv_hooks = { NULL, csv_completed };
  char err[HDD_ERRLEN];
  struct hdd *hdd = hdd_new (rp->setup.hdd, rp->size, rp->setup.seed,
                             err, sizeof err);
  int r = -1;

  if (!hdd) {
    fprintf (stderr, "hddsim-replay: %s\n", err);
    return -1;
  }
  rp->engine = engine_new (hdd, rp->setup.policy, &rp->setup.sched,
                           rp->format == FORMAT_HDDSIM ? &csv_hooks
                           : &no_hooks, rp);
  if (!rp->engine)
    fprintf (stderr, "hddsim-replay: out of memory\n");
  else if (open_output (rp) == 0) {
    r = rp->format == FORMAT_HDDSIM ? replay_hddsim (rp)
      : replay_disksim (rp);
    if (close_output (rp) == -1)
      r = -1;
  }
  engine_free (rp->engine);
  hdd_free (hdd);
  return r;
}

int
main (int argc, char **argv)
{
  struct replay rp = { .window = DEFAULT_WINDOW };
  int first, status = EXIT_FAILURE;

  setup_init (&rp.setup);
  first = parse_options (&rp, argc, argv);
  if (first > 0 && parse_params (&rp, argc, argv, first) == 0
      && run (&rp) == 0)
    status = EXIT_SUCCESS;
  slots_free (&rp);
  setup_free (&rp.setup);
  return status;
}
