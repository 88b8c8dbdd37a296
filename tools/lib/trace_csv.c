/* hddsim: read a trace CSV (trace=FILE) by column names. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_csv.h"

#define MAX_COLS 64

enum col {
  C_ID, C_CONN, C_OP, C_OFFSET, C_LENGTH, C_ARRIVAL, C_START, C_DONE,
  C_SEEK, C_ROT, C_XFER, C_LATE, C_FUA, C_QLEN, C_OUTCOME, C_COUNT
};

static const char *const col_names[C_COUNT] = {
  "id", "conn", "op", "offset", "length", "arrival_ns", "start_ns",
  "done_ns", "seek_ns", "rot_ns", "xfer_ns", "late_ns", "fua", "queue_len",
  "outcome",
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
      if (strcmp (fields[i], col_names[c]) == 0)
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

/* ---- streaming: one row at a time, for replays of any length ---- */

struct trace_reader {
  FILE *fp;
  char *path;
  long line;
  int where[C_COUNT], ncols;
};

struct trace_reader *
trace_reader_open (const char *path, char *err, size_t errlen)
{
  struct trace_reader *t = calloc (1, sizeof *t);
  char line[1024];

  if (!t || !(t->path = strdup (path))) {
    free (t);
    snprintf (err, errlen, "%s: out of memory", path);
    return NULL;
  }
  t->fp = fopen (path, "r");
  if (!t->fp) {
    snprintf (err, errlen, "%s: %s", path, strerror (errno));
    goto fail;
  }
  t->line = 1;
  if (!fgets (line, sizeof line, t->fp)
      || (t->ncols = map_header (line, t->where)) < 0) {
    snprintf (err, errlen, "%s:1: not a hddsim trace (the header lacks "
              "a column of: id,conn,op,offset,length,arrival_ns,start_ns,"
              "done_ns,seek_ns,rot_ns,xfer_ns,late_ns,fua,queue_len,"
              "outcome)", path);
    goto fail;
  }
  return t;

 fail:
  if (t->fp)
    fclose (t->fp);
  free (t->path);
  free (t);
  return NULL;
}

int
trace_reader_next (struct trace_reader *t, struct trace_row *row,
                   char *err, size_t errlen)
{
  char line[1024], *fields[MAX_COLS];
  size_t len;
  int n;

  if (!fgets (line, sizeof line, t->fp)) {
    if (ferror (t->fp)) {
      snprintf (err, errlen, "%s: %s", t->path, strerror (errno));
      return -1;
    }
    return 0;
  }
  t->line++;
  len = strlen (line);
  if (len == sizeof line - 1 && line[len - 1] != '\n') {
    snprintf (err, errlen, "%s:%ld: line longer than %zu characters",
              t->path, t->line, sizeof line - 2);
    return -1;
  }
  n = split (line, fields);
  if (n != t->ncols) {
    snprintf (err, errlen, "%s:%ld: %d columns, the header has %d",
              t->path, t->line, n, t->ncols);
    return -1;
  }
  fill (row, fields, t->where);
  return 1;
}

long
trace_reader_line (const struct trace_reader *t)
{
  return t->line;
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
  fclose (t->fp);
  free (t->path);
  free (t);
}
