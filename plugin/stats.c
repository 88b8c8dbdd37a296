/* hddsim: running statistics (stats=FILE), written as JSON.
 *
 * The file is a snapshot replaced about once a second: written whole
 * to a temporary file beside it, then renamed over it, so that a
 * reader never sees half a snapshot.  A rename replaces a directory
 * entry, whatever it is, so stats= accepts only a regular file (or a
 * name that does not exist yet) and refuses anything else at start-up:
 * renaming over /dev/full would replace the device node.  Writing a
 * device or a pipe in place instead would turn a snapshot into a
 * stream of JSON documents, which is what trace= is for.  A symbolic
 * link is written through: the file it names is replaced, the link
 * stays.  The temporary file is created afresh (mkstemp), so nothing
 * but a file this process created is ever renamed.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "latency_hist.h"
#include "stats.h"
#include "trace.h"

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
  /* The drive's failing sectors (tail.h), as SMART counts them. */
  uint64_t medium_errors;       /* reads failed: SMART 187, Reported
                                   Uncorrectable */
  uint64_t reallocated;         /* SMART 5, Reallocated Sectors */
  int64_t pending;              /* SMART 197, Current Pending Sectors */
  uint64_t retries;             /* revolutions of read retries */
  uint64_t early;               /* delivered before the modeled completion:
                                   must stay 0 */
  uint64_t seeks, cache_hits;
  uint64_t busy_ns;             /* modeled service time, summed */
  uint64_t queue_len_sum;
  uint32_t queue_len_max;
  uint64_t trace_lost;          /* records the trace could not take */
  uint64_t stats_write_errors;  /* snapshots that could not be written */
  struct latency_hist lateness;
  struct latency_hist response;
  bool powercut;                /* the power was cut: */
  struct trace_cut cut;
  uint64_t faults_fired;        /* fault= */
  struct hdd_power_stats power; /* power.managed: a timer is set */
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
count (struct counter *c, const struct trace_record *r)
{
  c->requests++;
  c->bytes += r->io.length;
  c->response_ns += r->done - r->arrival;
}

void
stats_record (struct stats *s, const struct trace_record *r)
{
  struct counter *c;

  if (r->outcome == OUTCOME_ABORTED) {
    s->aborted++;
    return;
  }
  if (r->outcome == OUTCOME_POWERCUT)   /* counted in "powercut" */
    return;
  if (r->outcome == OUTCOME_IO_ERROR)
    s->errors++;
  s->medium_errors += r->outcome == OUTCOME_MEDIUM_ERROR;
  s->reallocated += r->cost.reallocated;
  s->pending += r->cost.pending;
  s->retries += r->cost.retries;
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
  if (r->late_ns == TRACE_LATE_NONE)
    return;
  if (r->late_ns < 0)
    s->early++;
  else
    latency_hist_add (&s->lateness, (uint64_t) r->late_ns);
}

void
stats_set_output_errors (struct stats *s, uint64_t trace_lost,
                         uint64_t stats_write_errors)
{
  s->trace_lost = trace_lost;
  s->stats_write_errors = stats_write_errors;
}

uint64_t
stats_lateness (const struct stats *s, double q)
{
  return latency_hist_quantile (&s->lateness, q);
}

uint64_t
stats_lateness_samples (const struct stats *s)
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

static void write_power_states (FILE *fp, const struct hdd_power_stats *);

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
           "  \"trace_lost\": %" PRIu64 ",\n"
           "  \"stats_write_errors\": %" PRIu64 ",\n"
           "  \"busy_fraction\": %.4f,\n  \"seeks\": %" PRIu64 ",\n"
           "  \"cache_hits\": %" PRIu64 ",\n"
           "  \"queue_len_mean\": %.2f,\n  \"queue_len_max\": %" PRIu32 ",\n",
           secs, total, s->errors, s->aborted, s->early,
           s->trace_lost, s->stats_write_errors,
           s->busy_ns / 1e9 / secs,
           s->seeks, s->cache_hits,
           total ? (double) s->queue_len_sum / total : 0.0, s->queue_len_max);
  fprintf (fp, "  \"drive\": {\"uncorrectable\": %" PRIu64
           ", \"reallocated\": %" PRIu64 ", \"pending\": %" PRId64
           ", \"retry_revolutions\": %" PRIu64 "},\n",
           s->medium_errors, s->reallocated, s->pending, s->retries);
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
  fputs ("\n  }", fp);
  if (s->powercut)
    fprintf (fp, ",\n  \"powercut\": {\"t_ns\": %" PRIu64
             ", \"lost_extents\": %" PRIu64 ", \"lost_bytes\": %" PRIu64
             ", \"flushes_done\": %" PRIu64 ", \"fua_writes_done\": %" PRIu64
             ", \"failed\": %" PRIu64 "}",
             s->cut.t_ns, s->cut.lost_extents, s->cut.lost_bytes,
             s->cut.flushes_done, s->cut.fua_writes_done, s->cut.failed);
  if (s->faults_fired)
    fprintf (fp, ",\n  \"faults_fired\": %" PRIu64, s->faults_fired);
  if (s->power.managed)
    write_power_states (fp, &s->power);
  fputs ("\n}\n", fp);
}

void
stats_set_faults_fired (struct stats *s, uint64_t fired)
{
  s->faults_fired = fired;
}

void
stats_set_power_states (struct stats *s, const struct hdd_power_stats *ps)
{
  s->power = *ps;
}

/* "power_states": the state now, the seconds spent in each, the
 * times each was entered, and the wakes (commands that waited for a
 * recovery) with the time they waited.
 */
static void
write_power_states (FILE *fp, const struct hdd_power_stats *ps)
{
  int i;

  fprintf (fp, ",\n  \"power_states\": {\"state\": \"%s\", \"seconds\": {",
           hdd_power_state_name (ps->state));
  for (i = 0; i < HDD_PS_COUNT; i++)
    fprintf (fp, "%s\"%s\": %.3f", i ? ", " : "",
             hdd_power_state_name ((enum hdd_power_state) i), ps->ns[i] / 1e9);
  fputs ("}, \"entered\": {", fp);
  for (i = HDD_PS_IDLE_A; i < HDD_PS_COUNT; i++)
    fprintf (fp, "%s\"%s\": %" PRIu64, i > HDD_PS_IDLE_A ? ", " : "",
             hdd_power_state_name ((enum hdd_power_state) i), ps->entered[i]);
  fprintf (fp, "}, \"wakes\": %" PRIu64 ", \"wake_s\": %.3f}", ps->wakes,
           ps->wake_ns / 1e9);
}

void
stats_set_powercut (struct stats *s, const struct trace_cut *cut)
{
  s->powercut = true;
  s->cut = *cut;
}

struct stats_file {
  char *path;                   /* as given, for messages */
  char *target;                 /* the file replaced: symlinks resolved */
  mode_t mode;
  bool reported;                /* the first failure has been reported */
  uint64_t errors;
};

/* The file a rename must replace: 'path', or what its symbolic links
 * lead to; NULL (after nbdkit_error) if that is not a regular file or
 * a name in an existing directory.
 */
static char *
resolve_target (const char *path, mode_t *mode)
{
  struct stat st;
  char *target;

  if (stat (path, &st) == 0) {
    if (!S_ISREG (st.st_mode)) {
      nbdkit_error ("stats=%s: %s; stats= must name a regular file "
                    "(replaced by a new snapshot every second)",
                    path, file_type_name (st.st_mode));
      return NULL;
    }
    *mode = st.st_mode & 07777;
    target = realpath (path, NULL);
  }
  else if (errno == ENOENT && lstat (path, &st) == 0) {
    nbdkit_error ("stats=%s: a symbolic link to a file that does not exist",
                  path);
    return NULL;
  }
  else if (errno == ENOENT) {
    *mode = 0644;
    target = strdup (path);
  }
  else {
    nbdkit_error ("stats=%s: %m", path);
    return NULL;
  }
  if (!target)
    nbdkit_error ("stats=%s: %m", path);
  return target;
}

/* The target must still be a regular file (or absent) when it is
 * replaced: someone may have put something else there since start-up.
 */
static int
still_replaceable (const struct stats_file *f)
{
  struct stat st;

  if (lstat (f->target, &st) == -1)
    return errno == ENOENT ? 0 : -1;
  if (S_ISREG (st.st_mode))
    return 0;
  errno = EEXIST;
  return -1;
}

/* Write the JSON to the new file behind fd (closed here); -1 and
 * errno on failure.
 */
static int
write_file (int fd, mode_t mode, const struct stats *s, uint64_t elapsed_ns)
{
  FILE *fp;
  int err;

  if (fchmod (fd, mode) == -1 || !(fp = fdopen (fd, "w"))) {
    err = errno;
    close (fd);
    errno = err;
    return -1;
  }
  write_json (fp, s, elapsed_ns);
  err = ferror (fp) ? (errno ? errno : EIO) : 0;
  if (fclose (fp) == EOF)
    return -1;
  if (err) {
    errno = err;
    return -1;
  }
  return 0;
}

static int
write_snapshot (const struct stats_file *f, const struct stats *s,
                uint64_t elapsed_ns)
{
  size_t len = strlen (f->target) + 8;
  char *tmp = malloc (len);
  int fd, err;

  if (!tmp)
    return -1;
  snprintf (tmp, len, "%s.XXXXXX", f->target);
  fd = mkstemp (tmp);
  if (fd == -1) {
    err = errno;
    free (tmp);
    errno = err;
    return -1;
  }
  if (write_file (fd, f->mode, s, elapsed_ns) == -1
      || still_replaceable (f) == -1 || rename (tmp, f->target) == -1) {
    err = errno;
    unlink (tmp);
    free (tmp);
    errno = err;
    return -1;
  }
  free (tmp);
  return 0;
}

struct stats_file *
stats_file_open (const char *path, const struct stats *empty)
{
  struct stats_file *f = calloc (1, sizeof *f);

  if (!f || !(f->path = strdup (path))) {
    nbdkit_error ("stats=%s: out of memory", path);
    free (f);
    return NULL;
  }
  f->target = resolve_target (path, &f->mode);
  /* A first snapshot now: a missing directory, a read-only or full
   * filesystem, a path we may not write show at start-up.
   */
  if (!f->target || write_snapshot (f, empty, 0) == -1) {
    if (f->target)
      nbdkit_error ("stats=%s: %m", path);
    stats_file_close (f);
    return NULL;
  }
  return f;
}

int
stats_file_write (struct stats_file *f, const struct stats *s,
                  uint64_t elapsed_ns)
{
  if (write_snapshot (f, s, elapsed_ns) == 0)
    return 0;
  f->errors++;
  if (!f->reported) {
    if (errno == EEXIST)
      nbdkit_error ("stats=%s: %s is no longer a regular file: not "
                    "replaced; failures are counted as "
                    "stats_write_errors", f->path, f->target);
    else
      nbdkit_error ("stats=%s: cannot write the statistics: %m; the file "
                    "keeps the last snapshot written, and failures are "
                    "counted as stats_write_errors", f->path);
    f->reported = true;
  }
  return -1;
}

uint64_t
stats_file_errors (const struct stats_file *f)
{
  return f->errors;
}

void
stats_file_close (struct stats_file *f)
{
  if (f) {
    free (f->path);
    free (f->target);
    free (f);
  }
}
