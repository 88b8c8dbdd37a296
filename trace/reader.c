/* hddsim: the trace CSV's reader (see reader.h). */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/param.h"
#include "clean_row.h"
#include "cut.h"
#include "fault_row.h"
#include "format.h"
#include "outcome.h"
#include "reader.h"

#define MAX_COLS 64

/* The power cut's columns come last: a full trace written before they
 * existed lacks them, and reads as a trace without a cut.
 */
enum col {
  C_ID, C_CONN, C_OP, C_OFFSET, C_LENGTH, C_ARRIVAL, C_START, C_DONE,
  C_SEEK, C_ROT, C_XFER, C_LATE, C_FUA, C_QLEN, C_OUTCOME,
  C_LOST_EXTENTS, C_LOST_BYTES, C_FLUSHES_DONE, C_FUA_DONE, C_COUNT,
  C_FIRST_OPTIONAL = C_LOST_EXTENTS
};

/* The columns the reader needs, looked up by name in the header. */
static const enum trace_col col_of[C_COUNT] = {
  TRACE_COL_ID, TRACE_COL_CONN, TRACE_COL_OP, TRACE_COL_OFFSET,
  TRACE_COL_LENGTH, TRACE_COL_ARRIVAL, TRACE_COL_START, TRACE_COL_DONE,
  TRACE_COL_SEEK, TRACE_COL_ROT, TRACE_COL_XFER, TRACE_COL_LATE,
  TRACE_COL_FUA, TRACE_COL_QUEUE_LEN, TRACE_COL_OUTCOME,
  TRACE_COL_LOST_EXTENTS, TRACE_COL_LOST_BYTES, TRACE_COL_FLUSHES_DONE,
  TRACE_COL_FUA_WRITES_DONE,
};

/* Where a message comes from: "PATH:LINE: ..." */
struct reader {
  const char *path;
  unsigned long line;
  char *err;
  size_t errlen;
};

static int __attribute__ ((format (printf, 2, 3)))
bad (struct reader *rd, const char *fmt, ...)
{
  va_list ap;
  int used = snprintf (rd->err, rd->errlen, "%s:%lu: ", rd->path, rd->line);

  if (used >= 0 && (size_t) used < rd->errlen) {
    va_start (ap, fmt);
    vsnprintf (rd->err + used, rd->errlen - (size_t) used, fmt, ap);
    va_end (ap);
  }
  return -1;
}

static char empty_field[] = "";

/* A field of a line, NUL-terminated in place.  num: it is 1 to 19
 * digits and nothing else, with value v (19 digits cannot exceed
 * 2^64 - 1); anything else is left to parse_uint, which decides
 * exactly (20 digits, leading zeros, a sign, junk).
 */
struct field {
  char *s;
  uint64_t v;
  bool num;
};

/* Where a field that is not all digits ends: a comma, or the line's
 * end (the NUL that replaced its newline, or a CR, which ends the
 * line as in a CRLF file).
 */
static const bool field_end[256] = {
  ['\0'] = true, ['\r'] = true, [','] = true,
};

/* Split at commas, reading each field's digits on the way, so that a
 * row is walked once; -1 if there are more than MAX_COLS fields.
 */
static int
split (char *line, struct field *fields)
{
  char *p = line;
  int n = 0;

  for (;;) {
    struct field *f;
    char *start = p;
    uint64_t v = 0;
    unsigned d;

    if (n == MAX_COLS)
      return -1;
    f = &fields[n++];
    while ((d = (unsigned) (unsigned char) *p - '0') <= 9) {
      v = v * 10 + d;           /* wraps past 19 digits: num is false */
      p++;
    }
    f->s = start;
    f->v = v;
    /* 1 to 19 digits (none wraps to SIZE_MAX), then the field's end */
    f->num = (size_t) (p - start) - 1 < 19 && field_end[(unsigned char) *p];
    while (!field_end[(unsigned char) *p])
      p++;
    if (*p != ',') {
      *p = '\0';
      return n;
    }
    *p++ = '\0';
  }
}

static int
map_header (struct reader *rd, char *line, int *where)
{
  struct field fields[MAX_COLS];
  int n = split (line, fields), c, i;

  if (n < 0)
    return bad (rd, "more than %d columns: not a hddsim trace", MAX_COLS);
  for (c = 0; c < C_COUNT; c++) {
    where[c] = -1;
    for (i = 0; i < n; i++)
      if (strcmp (fields[i].s, trace_col_names[col_of[c]]) == 0)
        where[c] = i;
    if (where[c] == -1 && c < C_FIRST_OPTIONAL)
      return bad (rd, "no column '%s' in the header: not a hddsim trace",
                  trace_col_names[col_of[c]]);
  }
  return n;
}

/* A minimal trace's header: op, offset and length are required, every
 * other column the reader knows is optional, and a name it does not
 * know (a typo would otherwise default a column silently) or a repeated
 * one is an error.  Columns the writer has but the reader ignores
 * (busy_ns, ...) are known names.
 */
static int
known_column (const char *name)
{
  int c;

  for (c = 0; c < TRACE_NCOLS; c++)
    if (strcmp (name, trace_col_names[c]) == 0)
      return 1;
  return 0;
}

static int
map_minimal_header (struct reader *rd, char *line, int *where)
{
  static const int required[] = { C_OP, C_OFFSET, C_LENGTH };
  struct field fields[MAX_COLS];
  int n = split (line, fields), c, i, j;
  size_t k;

  if (n < 0)
    return bad (rd, "more than %d columns: not a hddsim trace", MAX_COLS);
  for (i = 0; i < n; i++) {
    if (!known_column (fields[i].s))
      return bad (rd, "unknown column '%s' in the header (a hddsim trace "
                  "has op, offset, length and optionally id, conn, "
                  "arrival_ns, ...)", fields[i].s);
    for (j = 0; j < i; j++)
      if (strcmp (fields[i].s, fields[j].s) == 0)
        return bad (rd, "column '%s' twice in the header", fields[i].s);
  }
  for (c = 0; c < C_COUNT; c++) {
    where[c] = -1;
    for (i = 0; i < n; i++)
      if (strcmp (fields[i].s, trace_col_names[col_of[c]]) == 0)
        where[c] = i;
  }
  for (k = 0; k < sizeof required / sizeof required[0]; k++)
    if (where[required[k]] == -1)
      return bad (rd, "no column '%s' in the header: not a hddsim trace "
                  "(op, offset and length are required)",
                  trace_col_names[col_of[required[k]]]);
  return n;
}

/* A decimal number of at most 'max', digits only (parse_uint: strtoull
 * alone would take "-1" as 2^64-1 and " 7x" as 7).
 */
static int
parse_u64 (const struct field *f, uint64_t max, uint64_t *v)
{
  if (f->num)
    *v = f->v;                  /* split read it: the same number */
  else if (parse_uint (f->s, v) == -1)
    return -1;
  return *v > max ? -1 : 0;
}

static int
parse_i64 (const char *s, int64_t *v)
{
  char *end;

  if (!isdigit ((unsigned char) (*s == '-' ? s[1] : *s)))
    return -1;
  errno = 0;
  *v = strtoll (s, &end, 10);
  return errno != 0 || *end != '\0' ? -1 : 0;
}

/* Each numeric column and the largest value it may hold. */
static int
parse_numbers (struct reader *rd, struct trace_row *r,
               const struct field *const *f, const int *w)
{
  const struct { int col; uint64_t *dst; uint64_t max; } u[] = {
    { C_ID, &r->id, UINT64_MAX },
    { C_OFFSET, &r->offset, UINT64_MAX },
    { C_LENGTH, &r->length, UINT64_MAX },
    { C_ARRIVAL, &r->arrival, TRACE_TIME_MAX },
    { C_START, &r->start, TRACE_TIME_MAX },
    { C_DONE, &r->done, TRACE_TIME_MAX },
    { C_SEEK, &r->seek_ns, TRACE_TIME_MAX },
    { C_ROT, &r->rot_ns, TRACE_TIME_MAX },
    { C_XFER, &r->xfer_ns, TRACE_TIME_MAX },
  };
  uint64_t conn, qlen, fua;
  size_t i;

  for (i = 0; i < sizeof u / sizeof u[0]; i++)
    if (parse_u64 (f[w[u[i].col]], u[i].max, u[i].dst) == -1)
      return bad (rd, "%s=%s: expected a whole number from 0 to %" PRIu64,
                  trace_col_names[col_of[u[i].col]], f[w[u[i].col]]->s,
                  u[i].max);
  if (parse_u64 (f[w[C_CONN]], UINT32_MAX, &conn) == -1)
    return bad (rd, "conn=%s: expected a connection number from 0 to %"
                PRIu32, f[w[C_CONN]]->s, UINT32_MAX);
  if (parse_u64 (f[w[C_QLEN]], UINT32_MAX, &qlen) == -1)
    return bad (rd, "queue_len=%s: expected a whole number from 0 to %"
                PRIu32, f[w[C_QLEN]]->s, UINT32_MAX);
  if (parse_u64 (f[w[C_FUA]], 1, &fua) == -1)
    return bad (rd, "fua=%s: expected 0 or 1", f[w[C_FUA]]->s);
  r->late_ns = -1;
  if (*f[w[C_LATE]]->s && parse_i64 (f[w[C_LATE]]->s, &r->late_ns) == -1)
    return bad (rd, "late_ns=%s: expected empty or a signed whole number",
                f[w[C_LATE]]->s);
  r->conn = (uint32_t) conn;
  r->queue_len = (uint32_t) qlen;
  r->fua = fua == 1;
  return 0;
}

static int
parse_op (struct reader *rd, struct trace_row *r, const char *name)
{
  int op;

  /* The first letter tells them apart: one strcmp a row. */
  _Static_assert (IO_OP_COUNT == 5, "parse_op: one case per op");
  switch (name[0]) {
  case 'r': op = IO_READ; break;
  case 'w': op = IO_WRITE; break;
  case 'f': op = IO_FLUSH; break;
  case 't': op = IO_TRIM; break;
  case 'z': op = IO_ZERO; break;
  default: op = -1; break;
  }
  if (op >= 0 && strcmp (io_op_name ((enum io_op) op), name) == 0) {
    r->io_op = (enum io_op) op;
    r->op = io_op_name ((enum io_op) op);
    return 0;
  }
  return bad (rd, "op=%s: unknown operation (expected read, write, flush, "
              "trim or zero)", name);
}

static int
parse_outcome (struct reader *rd, struct trace_row *r, const char *name)
{
  int i;

  for (i = 0; i < OUTCOME_COUNT; i++)
    if (strcmp (trace_outcome_names[i], name) == 0) {
      r->outcome = trace_outcome_names[i];
      return 0;
    }
  return bad (rd, "outcome=%s: expected ok, error, aborted or powercut", name);
}

/* What the plugin can have written: every row in a trace reached the
 * drive, so it has a service interval after its arrival, and the
 * parts of its service time fit in that interval.
 */
static int
check_row (struct reader *rd, const struct trace_row *r)
{
  if (r->length > UINT64_MAX - r->offset)
    return bad (rd, "offset=%" PRIu64 " length=%" PRIu64 ": the extent "
                "wraps around 2^64", r->offset, r->length);
  if (r->io_op == IO_FLUSH && (r->offset != 0 || r->length != 0))
    return bad (rd, "a flush with offset=%" PRIu64 " length=%" PRIu64
                " (a flush has neither)", r->offset, r->length);
  if (r->fua && (r->io_op == IO_READ || r->io_op == IO_FLUSH))
    return bad (rd, "fua=1 on a %s (only writes, trims and zeroes have it)",
                r->op);
  if (!(r->arrival <= r->start && r->start <= r->done))
    return bad (rd, "arrival_ns=%" PRIu64 " start_ns=%" PRIu64 " done_ns=%"
                PRIu64 ": expected arrival <= start <= done",
                r->arrival, r->start, r->done);
  /* Each part is at most 2^62, so the sum cannot wrap. */
  if (r->seek_ns + r->rot_ns + r->xfer_ns > r->done - r->start)
    return bad (rd, "seek_ns + rot_ns + xfer_ns = %" PRIu64 ": more than "
                "the service time done_ns - start_ns = %" PRIu64,
                r->seek_ns + r->rot_ns + r->xfer_ns, r->done - r->start);
  return 0;
}

static int
parse_row (struct reader *rd, struct trace_row *r,
           const struct field *const *f, const int *w)
{
  memset (r, 0, sizeof *r);
  r->line = rd->line;
  if (parse_op (rd, r, f[w[C_OP]]->s) == -1
      || parse_outcome (rd, r, f[w[C_OUTCOME]]->s) == -1
      || parse_numbers (rd, r, f, w) == -1)
    return -1;
  return check_row (rd, r);
}

static int
by_id (const void *a, const void *b)
{
  const struct trace_row *x = *(const struct trace_row *const *) a;
  const struct trace_row *y = *(const struct trace_row *const *) b;

  if (x->id != y->id)
    return x->id < y->id ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

/* The plugin numbers requests once each: a repeated id is a mangled
 * or concatenated trace.
 */
static int
check_ids (struct reader *rd, const struct trace_row *rows, long n)
{
  const struct trace_row **sorted;
  long i;
  int r = 0;

  if (n < 2)
    return 0;
  sorted = malloc ((size_t) n * sizeof *sorted);
  if (!sorted)
    return bad (rd, "out of memory");
  for (i = 0; i < n; i++)
    sorted[i] = &rows[i];
  qsort (sorted, (size_t) n, sizeof *sorted, by_id);
  for (i = 1; i < n && r == 0; i++)
    if (sorted[i]->id == sorted[i - 1]->id) {
      rd->line = sorted[i]->line;
      r = bad (rd, "id=%" PRIu64 " repeats the id of line %lu",
               sorted[i]->id, sorted[i - 1]->line);
    }
  free (sorted);
  return r;
}

/* ---- Streaming: one row at a time, so a replay never holds the
 * whole trace.  trace_read below is the same reader into an array.
 */

/* The longest line the reader takes, without its newline. */
#define LINE_MAX_LEN 1022

/* Lines are cut from a buffer of the file in place, found with memchr:
 * fgets copies every line and walks it again for its length.
 */
#define READ_BUF (1 << 16)

struct trace_reader {
  FILE *fp;
  char buf[READ_BUF + 1];       /* + 1: the NUL after a last line that
                                   has no newline */
  size_t pos, len;              /* the unread bytes: buf[pos, len) */
  bool eof;
  char *path;
  struct reader rd;
  int where[C_COUNT], ncols;
  int map[C_COUNT];             /* where, a missing column at ncols: the
                                   empty field put after the last */
  bool minimal;                 /* optional columns may be missing */
  uint64_t rows;                /* data rows read, for the default id */
  bool has_cut;                 /* the power cut's row was read */
  unsigned long cut_line;
  struct trace_cut cut;
};

/* The unread bytes moved to the front, and the buffer filled up. */
static void
refill (struct trace_reader *t)
{
  size_t n = t->len - t->pos;

  memmove (t->buf, t->buf + t->pos, n);
  t->pos = 0;
  t->len = n;
  while (!t->eof && t->len < READ_BUF) {
    size_t got = fread (t->buf + t->len, 1, READ_BUF - t->len, t->fp);
    t->len += got;
    if (got == 0)
      t->eof = true;            /* the end, or an error: ferror tells */
  }
}

/* The next line, NUL-terminated in place of its newline: 1 and *line,
 * 0 at the end, -1 if it is longer than LINE_MAX_LEN.  A NUL byte in
 * the line ends it, as it ended fgets's string before.
 */
static int
read_line (struct trace_reader *t, char **line)
{
  char *start = t->buf + t->pos;
  char *nl = memchr (start, '\n', t->len - t->pos);

  if (!nl && !t->eof) {
    refill (t);
    start = t->buf;
    nl = memchr (start, '\n', t->len);
  }
  if (nl)
    t->pos = (size_t) (nl + 1 - t->buf);
  else if (t->pos == t->len)
    return 0;
  else {
    /* The last line has no newline, or a full buffer has none: then
       the line is too long. */
    nl = t->buf + t->len;
    t->pos = t->len;
  }
  if (nl - start > LINE_MAX_LEN)
    return -1;
  *nl = '\0';
  *line = start;
  return 1;
}

static int
read_header (struct trace_reader *t)
{
  char *line;
  int got, c;

  t->rd.line = 1;
  got = read_line (t, &line);
  if (got == 0 && ferror (t->fp))
    return bad (&t->rd, "%s", strerror (errno));
  if (got == 0)
    return bad (&t->rd, "empty file, expected a header");
  if (got < 0)
    return bad (&t->rd, "header longer than %d bytes", LINE_MAX_LEN);
  t->ncols = t->minimal ? map_minimal_header (&t->rd, line, t->where)
    : map_header (&t->rd, line, t->where);
  for (c = 0; c < C_COUNT; c++)
    t->map[c] = t->where[c] >= 0 ? t->where[c] : t->ncols;
  return t->ncols < 0 ? -1 : 0;
}

static struct trace_reader *
reader_open (const char *path, bool minimal, char *err, size_t errlen)
{
  struct trace_reader *t = calloc (1, sizeof *t);

  if (!t || !(t->path = strdup (path))) {
    free (t);
    snprintf (err, errlen, "%s: out of memory", path);
    return NULL;
  }
  t->rd = (struct reader) { .path = t->path, .err = err, .errlen = errlen };
  t->minimal = minimal;
  t->fp = fopen (path, "r");
  if (!t->fp) {
    snprintf (err, errlen, "%s: %s", path, strerror (errno));
    trace_reader_close (t);
    return NULL;
  }
  if (read_header (t) == -1) {
    trace_reader_close (t);
    return NULL;
  }
  return t;
}

struct trace_reader *
trace_reader_open (const char *path, char *err, size_t errlen)
{
  return reader_open (path, false, err, errlen);
}

struct trace_reader *
trace_reader_open_minimal (const char *path, char *err, size_t errlen)
{
  return reader_open (path, true, err, errlen);
}

/* A minimal trace's missing columns, as the fields a full trace would
 * have: ids count the rows from 1, conn 0, no FUA, arrival 0, start at
 * the arrival and done at the start (no service recorded), no seek,
 * rotation or transfer time, late_ns empty, queue_len 0, outcome ok,
 * the power cut's columns empty.  The row then passes the full trace's
 * checks unchanged.
 */
static void
default_fields (struct trace_reader *t, const struct field *in,
                const struct field **out, struct field *id, char *idbuf,
                size_t idlen)
{
  static char zero_s[] = "0", ok_s[] = "ok";
  static const struct field zero = { .s = zero_s, .v = 0, .num = true };
  static const struct field empty = { .s = empty_field };
  static const struct field ok = { .s = ok_s };
  int c;

  snprintf (idbuf, idlen, "%" PRIu64, t->rows);
  *id = (struct field) { .s = idbuf, .v = t->rows, .num = true };
  for (c = 0; c < C_COUNT; c++)
    out[c] = t->where[c] >= 0 ? &in[t->where[c]]
      : c >= C_FIRST_OPTIONAL ? &empty : &zero;
  if (t->where[C_ID] < 0)
    out[C_ID] = id;
  if (t->where[C_LATE] < 0)
    out[C_LATE] = &empty;
  if (t->where[C_OUTCOME] < 0)
    out[C_OUTCOME] = &ok;
  if (t->where[C_START] < 0)
    out[C_START] = out[C_ARRIVAL];
  if (t->where[C_DONE] < 0)
    out[C_DONE] = out[C_START];
}

static const int identity[C_COUNT] = {
  C_ID, C_CONN, C_OP, C_OFFSET, C_LENGTH, C_ARRIVAL, C_START, C_DONE,
  C_SEEK, C_ROT, C_XFER, C_LATE, C_FUA, C_QLEN, C_OUTCOME,
  C_LOST_EXTENTS, C_LOST_BYTES, C_FLUSHES_DONE, C_FUA_DONE,
};

/* Every column's field, in f[C_*]: a full trace's own (the power cut's
 * columns empty where an older trace lacks them), or a minimal one's
 * with the defaults.
 */
static void
gather_fields (struct trace_reader *t, struct field *fields,
               const struct field **f, struct field *id, char *idbuf,
               size_t idlen)
{
  int c;

  if (t->minimal) {
    default_fields (t, fields, f, id, idbuf, idlen);
    return;
  }
  fields[t->ncols] = (struct field) { .s = empty_field };
  for (c = 0; c < C_COUNT; c++)
    f[c] = &fields[t->map[c]];
}

/* A request's row leaves the power cut's columns empty. */
static int
check_no_cut_fields (struct reader *rd, const struct field *const *f)
{
  int c;

  for (c = C_FIRST_OPTIONAL; c < C_COUNT; c++)
    if (*f[c]->s)
      return bad (rd, "%s=%s on a %s row: only the power cut's row "
                  "(op=" TRACE_OP_POWERCUT ") has it",
                  trace_col_names[col_of[c]], f[c]->s, f[C_OP]->s);
  return 0;
}

/* The cut's figures: whole numbers, in columns the header has. */
static int
parse_cut_counts (struct trace_reader *t, const struct field *const *f,
                  uint64_t *v)
{
  int c;

  for (c = C_FIRST_OPTIONAL; c < C_COUNT; c++) {
    const char *name = trace_col_names[col_of[c]];

    if (t->where[c] < 0)
      return bad (&t->rd, "op=" TRACE_OP_POWERCUT ": no column '%s' in "
                  "the header", name);
    if (parse_u64 (f[c], UINT64_MAX, &v[c - C_FIRST_OPTIONAL]) == -1)
      return bad (&t->rd, "op=" TRACE_OP_POWERCUT " with %s=%s: expected "
                  "a whole number", name, f[c]->s);
  }
  return 0;
}

/* What the plugin writes for the cut (trace_format_cut): one instant,
 * no extent, outcome powercut, whole sectors lost in at least one
 * sector per extent; one cut per trace.
 */
static int
check_cut (struct trace_reader *t, const struct trace_row *r,
           const uint64_t *v)
{
  struct reader *rd = &t->rd;
  uint64_t extents = v[0], bytes = v[1];

  if (t->has_cut)
    return bad (rd, "a second power cut (the first is on line %lu)",
                t->cut_line);
  if (strcmp (r->outcome, TRACE_OP_POWERCUT) != 0)
    return bad (rd, "op=" TRACE_OP_POWERCUT " with outcome=%s (the power "
                "cut's row has outcome=" TRACE_OP_POWERCUT ")", r->outcome);
  if (r->offset != 0 || r->length != 0 || r->fua)
    return bad (rd, "op=" TRACE_OP_POWERCUT " with offset=%" PRIu64
                " length=%" PRIu64 " fua=%d: the cut has no extent",
                r->offset, r->length, r->fua);
  if (r->start != r->arrival || r->done != r->arrival
      || r->seek_ns + r->rot_ns + r->xfer_ns != 0)
    return bad (rd, "op=" TRACE_OP_POWERCUT " with arrival_ns=%" PRIu64
                " start_ns=%" PRIu64 " done_ns=%" PRIu64 " and service "
                "times: expected the cut's one instant, no service",
                r->arrival, r->start, r->done);
  if (bytes % 512 != 0)
    return bad (rd, "lost_bytes=%" PRIu64 ": not whole 512-byte sectors",
                bytes);
  if ((extents == 0) != (bytes == 0) || extents > bytes / 512)
    return bad (rd, "lost_extents=%" PRIu64 " with lost_bytes=%" PRIu64
                ": an extent is at least one sector", extents, bytes);
  return 0;
}

static int
parse_cut (struct trace_reader *t, const struct field *const *f)
{
  struct trace_row r;
  uint64_t v[C_COUNT - C_FIRST_OPTIONAL];

  memset (&r, 0, sizeof r);
  if (parse_outcome (&t->rd, &r, f[C_OUTCOME]->s) == -1
      || parse_numbers (&t->rd, &r, f, identity) == -1
      || parse_cut_counts (t, f, v) == -1
      || check_cut (t, &r, v) == -1)
    return -1;
  t->cut = (struct trace_cut) {
    .id = r.id, .t_ns = r.done, .lost_extents = v[0], .lost_bytes = v[1],
    .flushes_done = v[2], .fua_writes_done = v[3],
  };
  t->has_cut = true;
  t->cut_line = t->rd.line;
  return 0;
}

/* 1 and *row for a request's row, 0 for the power cut's, -1 and err. */
static int
parse_line (struct trace_reader *t, struct trace_row *row,
            struct field *fields)
{
  const struct field *f[C_COUNT];
  struct field id;
  char idbuf[24];

  t->rows++;
  gather_fields (t, fields, f, &id, idbuf, sizeof idbuf);
  if (f[C_OP]->s[0] == TRACE_OP_POWERCUT[0]
      && strcmp (f[C_OP]->s, TRACE_OP_POWERCUT) == 0)
    return parse_cut (t, f);
  if (f[C_OP]->s[0] == TRACE_OP_FAULT[0]
      && strcmp (f[C_OP]->s, TRACE_OP_FAULT) == 0)
    return 0;                   /* a fault fired: no request */
  if (f[C_OP]->s[0] == TRACE_OP_CLEAN[0]
      && strcmp (f[C_OP]->s, TRACE_OP_CLEAN) == 0)
    return 0;                   /* a clean step: no request */
  if (parse_row (&t->rd, row, f, identity) == -1
      || check_no_cut_fields (&t->rd, f) == -1)
    return -1;
  row->has_arrival = !t->minimal || t->where[C_ARRIVAL] >= 0;
  row->has_done = !t->minimal || t->where[C_DONE] >= 0;
  return 1;
}

int
trace_reader_next (struct trace_reader *t, struct trace_row *row,
                   char *err, size_t errlen)
{
  struct field fields[MAX_COLS + 1];      /* + 1: gather_fields' empty one */
  char *line;
  int got, nf;

  t->rd.err = err;
  t->rd.errlen = errlen;
  while (t->rd.line++, (got = read_line (t, &line)) != 0) {
    if (got < 0)
      return bad (&t->rd, "line longer than %d bytes", LINE_MAX_LEN);
    if ((line[0] == '\0' || line[0] == '\r')
        && line[strspn (line, "\r\n")] == '\0')
      continue;                 /* a blank line, e.g. at the end */
    nf = split (line, fields);
    if (nf != t->ncols)
      return bad (&t->rd, "%d fields, expected %d as in the header",
                  nf < 0 ? MAX_COLS + 1 : nf, t->ncols);
    got = parse_line (t, row, fields);
    if (got != 0)
      return got;               /* a request, or an error */
  }
  t->rd.line--;                 /* no row on the line counted last */
  if (ferror (t->fp))
    return bad (&t->rd, "%s", strerror (errno));
  return 0;
}

bool
trace_reader_cut (const struct trace_reader *t, struct trace_cut *cut)
{
  if (t->has_cut)
    *cut = t->cut;
  return t->has_cut;
}

int
trace_read_cut (const char *path, struct trace_cut *cut, char *err,
                size_t errlen)
{
  struct trace_reader *t = trace_reader_open (path, err, errlen);
  struct trace_row row;
  int got;

  if (!t)
    return -1;
  while ((got = trace_reader_next (t, &row, err, errlen)) == 1)
    ;
  if (got == 0)
    got = trace_reader_cut (t, cut) ? 1 : 0;
  trace_reader_close (t);
  return got;
}

long
trace_reader_line (const struct trace_reader *t)
{
  return (long) t->rd.line;
}

const char *
trace_reader_path (const struct trace_reader *t)
{
  return t->path;
}

void
trace_reader_close (struct trace_reader *t)
{
  if (!t)
    return;
  if (t->fp)
    fclose (t->fp);
  free (t->path);
  free (t);
}

static int
grow (struct reader *rd, struct trace_row **rows, long *cap)
{
  struct trace_row *bigger;

  if (*cap > (long) (SIZE_MAX / 2 / sizeof **rows))
    return bad (rd, "too many rows");
  bigger = realloc (*rows, (size_t) *cap * 2 * sizeof **rows);
  if (!bigger)
    return bad (rd, "out of memory");
  *rows = bigger;
  *cap *= 2;
  return 0;
}

/* The power cut's row takes the next request id: no request has it. */
static int
check_cut_id (struct trace_reader *t, const struct trace_row *rows, long n)
{
  long i;

  for (i = 0; t->has_cut && i < n; i++)
    if (rows[i].id == t->cut.id) {
      t->rd.line = t->cut_line;
      return bad (&t->rd, "id=%" PRIu64 " of the power cut repeats the id "
                  "of line %lu", t->cut.id, rows[i].line);
    }
  return 0;
}

static long
read_rows (struct trace_reader *t, struct trace_row **rows, char *err,
           size_t errlen)
{
  long n = 0, cap = 256;
  int got;

  if (!(*rows = malloc ((size_t) cap * sizeof **rows)))
    return bad (&t->rd, "out of memory");
  for (;;) {
    if (n == cap && grow (&t->rd, rows, &cap) == -1)
      return -1;
    got = trace_reader_next (t, &(*rows)[n], err, errlen);
    if (got <= 0)
      break;
    n++;
  }
  if (got < 0)
    return -1;
  /* A streaming reader cannot see a repeated id without holding every
   * id; the whole-trace reader can.
   */
  if (check_ids (&t->rd, *rows, n) == -1 || check_cut_id (t, *rows, n) == -1)
    return -1;
  return n;
}

long
trace_read (const char *path, struct trace_row **rows, char *err,
            size_t errlen)
{
  struct trace_reader *t = trace_reader_open (path, err, errlen);
  long n;

  *rows = NULL;
  if (!t)
    return -1;
  n = read_rows (t, rows, err, errlen);
  trace_reader_close (t);
  if (n < 0) {
    free (*rows);
    *rows = NULL;
  }
  return n;
}

int
trace_row_check_extent (const char *path, const struct trace_row *r,
                        uint64_t size, char *err, size_t errlen)
{
  /* The reader ensured offset + length does not wrap. */
  if (r->offset + r->length > size) {
    snprintf (err, errlen, "%s:%lu: %s at offset=%" PRIu64 " length=%"
              PRIu64 " ends beyond the image (size=%" PRIu64 ")",
              path, r->line, r->op, r->offset, r->length, size);
    return -1;
  }
  return 0;
}

int
trace_check_extents (const char *path, const struct trace_row *rows, long n,
                     uint64_t size, char *err, size_t errlen)
{
  long i;

  for (i = 0; i < n; i++)
    if (trace_row_check_extent (path, &rows[i], size, err, errlen) == -1)
      return -1;
  return 0;
}
