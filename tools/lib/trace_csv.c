/* hddsim: read a trace CSV (trace=FILE) by column names. */

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
