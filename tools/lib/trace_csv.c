/* hddsim: the trace CSV (trace=FILE): format, writer and reader. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_csv.h"

/* ---- The format ---- */

const char *const trace_col_names[TRACE_NCOLS] = {
  [TRACE_COL_ID] = "id",
  [TRACE_COL_CONN] = "conn",
  [TRACE_COL_OP] = "op",
  [TRACE_COL_OFFSET] = "offset",
  [TRACE_COL_LENGTH] = "length",
  [TRACE_COL_ARRIVAL] = "arrival_ns",
  [TRACE_COL_START] = "start_ns",
  [TRACE_COL_DONE] = "done_ns",
  [TRACE_COL_SEEK] = "seek_ns",
  [TRACE_COL_ROT] = "rot_ns",
  [TRACE_COL_XFER] = "xfer_ns",
  [TRACE_COL_LATE] = "late_ns",
  [TRACE_COL_FUA] = "fua",
  [TRACE_COL_BUSY] = "busy_ns",
  [TRACE_COL_OVERHEAD] = "overhead_ns",
  [TRACE_COL_SEEK_CYL] = "seek_cyl",
  [TRACE_COL_CACHE_HIT] = "cache_hit",
  [TRACE_COL_QUEUE_LEN] = "queue_len",
  [TRACE_COL_OUTCOME] = "outcome",
};

const char *const trace_outcome_names[OUTCOME_COUNT] = {
  [OUTCOME_OK] = "ok",
  [OUTCOME_IO_ERROR] = "error",
  [OUTCOME_ABORTED] = "aborted",
};

void
trace_record_of (struct trace_record *t, const struct req *r,
                 int64_t late_ns, enum req_outcome outcome)
{
  *t = (struct trace_record) {
    .id = r->id, .conn = r->conn, .queue_len = r->queue_len, .io = r->io,
    .arrival = r->arrival, .start = r->start, .done = r->done,
    .cost = r->cost, .late_ns = late_ns, .outcome = outcome,
  };
}

size_t
trace_format_header (char *buf)
{
  size_t n = 0;
  int c;

  for (c = 0; c < TRACE_NCOLS; c++) {
    size_t len = strlen (trace_col_names[c]);
    memcpy (buf + n, trace_col_names[c], len);
    n += len;
    buf[n++] = c + 1 < TRACE_NCOLS ? ',' : '\n';
  }
  return n;
}

/* The plugin formats a line per request, at up to ~100k a second:
 * digits by hand are several times cheaper than snprintf's format
 * parsing, and give the same bytes as "%" PRIu64.
 */
static char *
put_u64 (char *p, uint64_t v)
{
  char digits[20];
  int n = 0;

  do {
    digits[n++] = (char) ('0' + v % 10);
    v /= 10;
  } while (v);
  while (n)
    *p++ = digits[--n];
  return p;
}

static char *
put_str (char *p, const char *s)
{
  size_t len = strlen (s);

  memcpy (p, s, len);
  return p + len;
}

/* One field and the separator after it. */
static char *
field_u64 (char *p, uint64_t v)
{
  p = put_u64 (p, v);
  *p++ = ',';
  return p;
}

static char *
field_str (char *p, const char *s)
{
  p = put_str (p, s);
  *p++ = ',';
  return p;
}

static char *
put_late (char *p, int64_t late_ns)
{
  if (late_ns == TRACE_LATE_NONE)
    return p;
  if (late_ns < 0) {
    *p++ = '-';
    return put_u64 (p, -(uint64_t) late_ns);
  }
  return put_u64 (p, (uint64_t) late_ns);
}

size_t
trace_format_line (char *buf, const struct trace_record *t)
{
  char *p = buf;

  p = field_u64 (p, t->id);
  p = field_u64 (p, t->conn);
  p = field_str (p, io_op_name (t->io.op));
  p = field_u64 (p, t->io.offset);
  p = field_u64 (p, t->io.length);
  p = field_u64 (p, t->arrival);
  p = field_u64 (p, t->start);
  p = field_u64 (p, t->done);
  p = field_u64 (p, t->cost.seek_ns);
  p = field_u64 (p, t->cost.rot_ns);
  p = field_u64 (p, t->cost.xfer_ns);
  p = put_late (p, t->late_ns);
  *p++ = ',';
  p = field_u64 (p, t->io.fua);
  p = field_u64 (p, t->cost.busy_ns);
  p = field_u64 (p, t->cost.overhead_ns);
  p = field_u64 (p, t->cost.seek_cylinders);
  p = field_u64 (p, t->cost.cache_hit);
  p = field_u64 (p, t->queue_len);
  p = put_str (p, trace_outcome_names[t->outcome]);
  *p++ = '\n';
  return (size_t) (p - buf);
}

/* ---- The reader ---- */

#define MAX_COLS 64

enum col {
  C_ID, C_CONN, C_OP, C_OFFSET, C_LENGTH, C_ARRIVAL, C_START, C_DONE,
  C_SEEK, C_ROT, C_XFER, C_LATE, C_FUA, C_QLEN, C_OUTCOME, C_COUNT
};

/* The columns the reader needs, looked up by name in the header. */
static const enum trace_col col_of[C_COUNT] = {
  TRACE_COL_ID, TRACE_COL_CONN, TRACE_COL_OP, TRACE_COL_OFFSET,
  TRACE_COL_LENGTH, TRACE_COL_ARRIVAL, TRACE_COL_START, TRACE_COL_DONE,
  TRACE_COL_SEEK, TRACE_COL_ROT, TRACE_COL_XFER, TRACE_COL_LATE,
  TRACE_COL_FUA, TRACE_COL_QUEUE_LEN, TRACE_COL_OUTCOME,
};

static int
split (char *line, char **fields)
{
  int n = 0;
  char *p = line;

  line[strcspn (line, "\r\n")] = '\0';
  fields[n++] = p;
  while ((p = strchr (p, ',')) != NULL && n < MAX_COLS) {
    *p++ = '\0';
    fields[n++] = p;
  }
  return n;
}

static int
map_header (char *line, int *where)
{
  char *fields[MAX_COLS];
  int n = split (line, fields), c, i;

  for (c = 0; c < C_COUNT; c++) {
    where[c] = -1;
    for (i = 0; i < n; i++)
      if (strcmp (fields[i], trace_col_names[col_of[c]]) == 0)
        where[c] = i;
    if (where[c] == -1)
      return -1;
  }
  return n;
}

static void
fill (struct trace_row *r, char **f, const int *w)
{
  r->id = strtoull (f[w[C_ID]], NULL, 10);
  r->conn = (uint32_t) strtoul (f[w[C_CONN]], NULL, 10);
  snprintf (r->op, sizeof r->op, "%s", f[w[C_OP]]);
  r->offset = strtoull (f[w[C_OFFSET]], NULL, 10);
  r->length = strtoull (f[w[C_LENGTH]], NULL, 10);
  r->arrival = strtoull (f[w[C_ARRIVAL]], NULL, 10);
  r->start = strtoull (f[w[C_START]], NULL, 10);
  r->done = strtoull (f[w[C_DONE]], NULL, 10);
  r->seek_ns = strtoull (f[w[C_SEEK]], NULL, 10);
  r->rot_ns = strtoull (f[w[C_ROT]], NULL, 10);
  r->xfer_ns = strtoull (f[w[C_XFER]], NULL, 10);
  r->late_ns = *f[w[C_LATE]] ? strtoll (f[w[C_LATE]], NULL, 10) : -1;
  r->fua = atoi (f[w[C_FUA]]) != 0;
  r->queue_len = (uint32_t) strtoul (f[w[C_QLEN]], NULL, 10);
  snprintf (r->outcome, sizeof r->outcome, "%s", f[w[C_OUTCOME]]);
}

long
trace_read (const char *path, struct trace_row **rows)
{
  FILE *fp = fopen (path, "r");
  char line[1024];
  int where[C_COUNT], ncols;
  long n = 0, cap = 256;

  *rows = NULL;
  if (!fp)
    return -1;
  if (!fgets (line, sizeof line, fp) || (ncols = map_header (line, where)) < 0) {
    fclose (fp);
    return -1;
  }
  *rows = malloc ((size_t) cap * sizeof **rows);
  while (fgets (line, sizeof line, fp)) {
    char *fields[MAX_COLS];
    if (split (line, fields) != ncols) {
      fclose (fp);
      return -1;
    }
    if (n == cap)
      *rows = realloc (*rows, (size_t) (cap *= 2) * sizeof **rows);
    fill (&(*rows)[n++], fields, where);
  }
  fclose (fp);
  return n;
}
