/* hddsim: running statistics (stats=FILE), written as JSON. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "latency_hist.h"
#include "stats.h"

struct counter {
  uint64_t requests;
  uint64_t bytes;
  uint64_t response_ns;         /* modeled done - arrival, summed */
};

struct stats {
  struct counter op[IO_OP_COUNT];
  struct counter *conn;         /* indexed by connection id */
  uint32_t nconn;
  uint64_t errors, aborted;
  uint64_t early;               /* delivered before the modeled completion:
                                   must stay 0 */
  uint64_t seeks, cache_hits;
  uint64_t busy_ns;             /* modeled service time, summed */
  uint64_t queue_len_sum;
  uint32_t queue_len_max;
  struct latency_hist lateness;
  struct latency_hist response;
};

struct stats *
stats_new (void)
{
  return calloc (1, sizeof (struct stats));
}

void
stats_free (struct stats *s)
{
  if (s) {
    free (s->conn);
    free (s);
  }
}

static struct counter *
conn_counter (struct stats *s, uint32_t conn)
{
  if (conn >= s->nconn) {
    uint32_t n = conn + 16;
    struct counter *c = realloc (s->conn, n * sizeof *c);
    if (!c)
      return NULL;
    memset (c + s->nconn, 0, (n - s->nconn) * sizeof *c);
    s->conn = c;
    s->nconn = n;
  }
  return &s->conn[conn];
}

static void
count (struct counter *c, const struct req *r)
{
  c->requests++;
  c->bytes += r->io.length;
  c->response_ns += r->done - r->arrival;
}

void
stats_record (struct stats *s, const struct req *r, int64_t late_ns,
              enum req_outcome outcome)
{
  struct counter *c;

  if (outcome == OUTCOME_ABORTED) {
    s->aborted++;
    return;
  }
  if (outcome == OUTCOME_IO_ERROR)
    s->errors++;
  count (&s->op[r->io.op], r);
  c = conn_counter (s, r->conn);
  if (c)
    count (c, r);
  s->seeks += r->cost.seek_cylinders > 0;
  s->cache_hits += r->cost.cache_hit;
  s->busy_ns += r->done - r->start;
  s->queue_len_sum += r->queue_len;
  if (r->queue_len > s->queue_len_max)
    s->queue_len_max = r->queue_len;
  latency_hist_add (&s->response, r->done - r->arrival);
  if (outcome == OUTCOME_OK && late_ns < 0)
    s->early++;
  else if (outcome == OUTCOME_OK)
    latency_hist_add (&s->lateness, (uint64_t) late_ns);
}

struct stats *
stats_snapshot (const struct stats *s)
{
  struct stats *copy = malloc (sizeof *copy);

  if (!copy)
    return NULL;
  *copy = *s;
  copy->conn = NULL;
  if (s->nconn) {
    copy->conn = malloc (s->nconn * sizeof *copy->conn);
    if (!copy->conn) {
      free (copy);
      return NULL;
    }
    memcpy (copy->conn, s->conn, s->nconn * sizeof *copy->conn);
  }
  return copy;
}

uint64_t
stats_lateness (const struct stats *s, double q)
{
  return latency_hist_quantile (&s->lateness, q);
}

uint64_t
stats_count (const struct stats *s)
{
  return s->lateness.count;
}

static void
write_counter (FILE *fp, const struct counter *c, double secs)
{
  fprintf (fp, "{\"requests\": %" PRIu64 ", \"bytes\": %" PRIu64
           ", \"iops\": %.3f, \"mb_per_s\": %.3f, \"mean_response_ms\": %.3f}",
           c->requests, c->bytes, c->requests / secs, c->bytes / secs / 1e6,
           c->requests ? c->response_ns / 1e6 / c->requests : 0.0);
}

static void
write_hist (FILE *fp, const char *name, const struct latency_hist *h)
{
  fprintf (fp, "  \"%s_us\": {\"count\": %" PRIu64 ", \"mean\": %.1f"
           ", \"p50\": %.1f, \"p99\": %.1f, \"p99.9\": %.1f, \"max\": %.1f},\n",
           name, h->count, h->count ? h->sum_ns / 1e3 / h->count : 0.0,
           latency_hist_quantile (h, 0.5) / 1e3,
           latency_hist_quantile (h, 0.99) / 1e3,
           latency_hist_quantile (h, 0.999) / 1e3, h->max_ns / 1e3);
}

static void
write_json (FILE *fp, const struct stats *s, uint64_t elapsed_ns)
{
  double secs = elapsed_ns > 0 ? elapsed_ns / 1e9 : 1e-9;
  uint64_t total = 0;
  uint32_t i;
  const char *sep = "";

  for (i = 0; i < IO_OP_COUNT; i++)
    total += s->op[i].requests;
  fprintf (fp, "{\n  \"elapsed_s\": %.3f,\n  \"requests\": %" PRIu64 ",\n"
           "  \"errors\": %" PRIu64 ",\n  \"aborted\": %" PRIu64 ",\n"
           "  \"early\": %" PRIu64 ",\n"
           "  \"busy_fraction\": %.4f,\n  \"seeks\": %" PRIu64 ",\n"
           "  \"cache_hits\": %" PRIu64 ",\n"
           "  \"queue_len_mean\": %.2f,\n  \"queue_len_max\": %" PRIu32 ",\n",
           secs, total, s->errors, s->aborted, s->early,
           s->busy_ns / 1e9 / secs,
           s->seeks, s->cache_hits,
           total ? (double) s->queue_len_sum / total : 0.0, s->queue_len_max);
  write_hist (fp, "lateness", &s->lateness);
  write_hist (fp, "response", &s->response);
  fputs ("  \"ops\": {", fp);
  for (i = 0; i < IO_OP_COUNT; i++) {
    fprintf (fp, "%s\n    \"%s\": ", sep, io_op_name ((enum io_op) i));
    write_counter (fp, &s->op[i], secs);
    sep = ",";
  }
  fputs ("\n  },\n  \"connections\": {", fp);
  sep = "";
  for (i = 0; i < s->nconn; i++) {
    if (s->conn[i].requests == 0)
      continue;
    fprintf (fp, "%s\n    \"%" PRIu32 "\": ", sep, i);
    write_counter (fp, &s->conn[i], secs);
    sep = ",";
  }
  fputs ("\n  }\n}\n", fp);
}

int
stats_write (const struct stats *s, const char *path, uint64_t elapsed_ns)
{
  size_t len = strlen (path) + 8;
  char *tmp = malloc (len);
  FILE *fp;
  int err;

  if (!tmp)
    return -1;
  snprintf (tmp, len, "%s.tmp", path);
  fp = fopen (tmp, "w");
  if (!fp)
    goto fail;
  write_json (fp, s, elapsed_ns);
  if (fclose (fp) == EOF || rename (tmp, path) == -1)
    goto fail;
  free (tmp);
  return 0;

 fail:
  err = errno;
  unlink (tmp);
  free (tmp);
  errno = err;
  return -1;
}
