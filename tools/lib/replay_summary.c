/* hddsim: hddsim-replay's --summary (see replay_summary.h). */

#include <inttypes.h>
#include <stdlib.h>

#include "replay_summary.h"

/* Log-linear buckets: SUB per power of two above 2^SUB_BITS ns. */
#define SUB_BITS 10
#define SUB (1u << SUB_BITS)
#define NBUCKETS ((64 - SUB_BITS + 1) * SUB)

struct hist {
  uint64_t n;
  uint64_t *count, *max;        /* NBUCKETS each; calloc'd on first use, so
                                   untouched buckets cost no memory */
};

/* One row of the table: an operation, or all of them. */
struct op_stats {
  uint64_t n, bytes;
  struct hist drive, held;
};

struct replay_summary {
  bool held;
  struct op_stats op[IO_OP_COUNT + 1];
  uint64_t first_arrival, last_done, busy;
  bool any;
  /* The drive's failing sectors (model/tail.h), as SMART counts them. */
  uint64_t uncorrectable, reallocated, retries;
  int64_t pending;
};

static size_t
bucket_of (uint64_t v)
{
  unsigned e;

  if (v < SUB)
    return (size_t) v;
  e = 63 - (unsigned) __builtin_clzll (v);      /* e >= SUB_BITS */
  return (size_t) (e - SUB_BITS + 1) * SUB
    + (size_t) ((v >> (e - SUB_BITS)) & (SUB - 1));
}

static int
hist_add (struct hist *h, uint64_t v)
{
  size_t b = bucket_of (v);

  if (!h->count) {
    h->count = calloc (NBUCKETS, sizeof *h->count);
    h->max = calloc (NBUCKETS, sizeof *h->max);
    if (!h->count || !h->max)
      return -1;
  }
  h->n++;
  h->count[b]++;
  if (v > h->max[b])
    h->max[b] = v;
  return 0;
}

static uint64_t
hist_percentile (const struct hist *h, unsigned p)
{
  uint64_t rank, seen = 0;
  size_t b;

  if (h->n == 0)
    return 0;
  /* Nearest rank: the ceil (p n / 100)-th smallest sample. */
  rank = (h->n * p + 99) / 100;
  if (rank == 0)
    rank = 1;
  for (b = 0; b < NBUCKETS; b++) {
    seen += h->count[b];
    if (seen >= rank)
      return h->max[b];
  }
  return 0;                     /* not reached: the counts add up to n */
}

static void
hist_free (struct hist *h)
{
  free (h->count);
  free (h->max);
}

struct replay_summary *
replay_summary_new (bool held)
{
  struct replay_summary *s = calloc (1, sizeof *s);

  if (s)
    s->held = held;
  return s;
}

void
replay_summary_free (struct replay_summary *s)
{
  int i;

  if (!s)
    return;
  for (i = 0; i <= IO_OP_COUNT; i++) {
    hist_free (&s->op[i].drive);
    hist_free (&s->op[i].held);
  }
  free (s);
}

static int
op_add (struct replay_summary *s, struct op_stats *o, const struct req *r,
        uint64_t wanted)
{
  o->n++;
  o->bytes += r->io.length;
  if (hist_add (&o->drive, r->done - r->arrival) == -1)
    return -1;
  if (s->held && hist_add (&o->held, r->done - wanted) == -1)
    return -1;
  return 0;
}

int
replay_summary_add (struct replay_summary *s, const struct req *r,
                    uint64_t wanted)
{
  /* Requests complete in order of their (modeled) completion, one at
   * a time on one actuator, so the span runs from the earliest arrival
   * to the latest completion.
   */
  if (!s->any || wanted < s->first_arrival)
    s->first_arrival = wanted;
  if (r->done > s->last_done)
    s->last_done = r->done;
  s->any = true;
  s->busy += r->done - r->start;
  s->uncorrectable += r->cost.medium_error;
  s->reallocated += r->cost.reallocated;
  s->pending += r->cost.pending;
  s->retries += r->cost.retries;
  if (op_add (s, &s->op[r->io.op], r, wanted) == -1)
    return -1;
  return op_add (s, &s->op[IO_OP_COUNT], r, wanted);
}

uint64_t
replay_summary_percentile (const struct replay_summary *s, int op, bool held,
                           unsigned p)
{
  const struct op_stats *o = &s->op[op];

  return hist_percentile (held ? &o->held : &o->drive, p);
}

static void
print_row (FILE *fp, const char *name, const struct op_stats *o,
           const struct hist *h, double span_s)
{
  fprintf (fp, "%-6s %9" PRIu64 " %10.2f %9.3f %12.6f %12.6f %12.6f %12.6f\n",
           name, o->n, span_s > 0 ? (double) o->n / span_s : 0.0,
           span_s > 0 ? (double) o->bytes / 1048576.0 / span_s : 0.0,
           (double) hist_percentile (h, 50) / 1e6,
           (double) hist_percentile (h, 90) / 1e6,
           (double) hist_percentile (h, 99) / 1e6,
           (double) hist_percentile (h, 100) / 1e6);
}

static void
print_table (const struct replay_summary *s, FILE *fp, bool held,
             double span_s)
{
  int i;

  fprintf (fp, "%-6s %9s %10s %9s %12s %12s %12s %12s\n", "op", "requests",
           "IOPS", "MiB/s", "p50_ms", "p90_ms", "p99_ms", "max_ms");
  for (i = 0; i <= IO_OP_COUNT; i++) {
    const struct op_stats *o = &s->op[i];

    if (o->n == 0 && i < IO_OP_COUNT)
      continue;
    print_row (fp, i < IO_OP_COUNT ? io_op_name ((enum io_op) i) : "all", o,
               held ? &o->held : &o->drive, span_s);
  }
}

int
replay_summary_print (const struct replay_summary *s, FILE *fp)
{
  uint64_t span = s->any ? s->last_done - s->first_arrival : 0;
  double span_s = (double) span / 1e9;

  fprintf (fp, "# response time at the drive (arrival to completion)\n");
  print_table (s, fp, false, span_s);
  if (s->held) {
    fprintf (fp, "# response time from the trace's arrival (the time "
             "held back by --max-inflight included)\n");
    print_table (s, fp, true, span_s);
  }
  fprintf (fp, "span_s=%.6f busy_s=%.6f utilisation=%.4f\n", span_s,
           (double) s->busy / 1e9,
           span > 0 ? (double) s->busy / (double) span : 0.0);
  /* Only when the tail did something: outputs stay as they were. */
  if (s->uncorrectable || s->reallocated || s->pending || s->retries)
    fprintf (fp, "uncorrectable=%" PRIu64 " reallocated=%" PRIu64
             " pending=%" PRId64 " retry_revolutions=%" PRIu64 "\n",
             s->uncorrectable, s->reallocated, s->pending, s->retries);
  return ferror (fp) ? -1 : 0;
}
