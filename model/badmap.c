/* hddsim: failing sectors of the image (see badmap.h).
 *
 * A bad-sectors file is one of two formats, told apart by its first
 * line that is not a comment:
 *
 * - A GNU ddrescue mapfile, as the ddrescue manual ("Mapfile
 *   structure", ddrescue 1.25) defines it: '#' at the start of a line
 *   or after whitespace starts a comment; the first non-comment line
 *   is the status line (a non-negative integer, a status character of
 *   "?*\/-FG+", and the current pass, a positive decimal integer, which
 *   mapfiles before ddrescue 1.20 lack); then the data blocks, each a
 *   position and a size in bytes (non-negative integers written as C
 *   constants: decimal, 0x hexadecimal or 0 octal) and a status
 *   character of "?*\/-+", contiguous and non-overlapping.  Its '-'
 *   blocks ("failed block, bad-sector(s)") are the bad sectors: every
 *   512-byte sector of the image they touch.  The other failed blocks
 *   ('*' non-trimmed, '/' non-scraped) hold bad sectors somewhere, but
 *   ddrescue has not found where yet, so they are not taken.
 * - Plain lines: FIRST, FIRST-LAST or FIRST+COUNT (512-byte sectors of
 *   the image, C constants), then optionally "bad" (the default) or
 *   "weak"; '#' comments as above; in any order, overlaps allowed (the
 *   later line wins).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "badmap.h"

#define SECTOR_BYTES 512
#define MAX_TOKENS 4

/* ---- the set ---- */

static int
reserve (struct badmap *m, size_t more)
{
  size_t cap;
  struct bad_range *r;

  if (m->n + more <= m->cap)
    return 0;
  cap = m->cap ? m->cap * 2 : 16;
  while (cap < m->n + more)
    cap *= 2;
  r = realloc (m->r, cap * sizeof *r);
  if (!r)
    return -1;
  m->r = r;
  m->cap = cap;
  return 0;
}

/* Index of the first range ending after s. */
static size_t
first_ending_after (const struct badmap *m, uint64_t s)
{
  size_t lo = 0, hi = m->n;

  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->r[mid].first + m->r[mid].n <= s)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

const struct bad_range *
badmap_find (const struct badmap *m, uint64_t first, uint64_t n)
{
  size_t i = first_ending_after (m, first);

  if (n == 0 || i == m->n || m->r[i].first >= first + n)
    return NULL;
  return &m->r[i];
}

uint64_t
badmap_count (const struct badmap *m, uint64_t first, uint64_t n)
{
  uint64_t end = first + n, k = 0;
  size_t i;

  for (i = first_ending_after (m, first); i < m->n && m->r[i].first < end;
       i++) {
    uint64_t a = m->r[i].first > first ? m->r[i].first : first;
    uint64_t b = m->r[i].first + m->r[i].n;
    k += (b < end ? b : end) - a;
  }
  return k;
}

uint64_t
badmap_sectors (const struct badmap *m)
{
  uint64_t k = 0;
  size_t i;

  for (i = 0; i < m->n; i++)
    k += m->r[i].n;
  return k;
}

int
badmap_remove (struct badmap *m, uint64_t first, uint64_t n)
{
  uint64_t end = first + n;
  size_t i = first_ending_after (m, first);

  if (n == 0)
    return 0;
  while (i < m->n && m->r[i].first < end) {
    struct bad_range *r = &m->r[i];
    uint64_t r_end = r->first + r->n;

    if (r->first < first && r_end > end) {      /* split in two */
      if (reserve (m, 1) == -1)
        return -1;
      r = &m->r[i];
      memmove (r + 2, r + 1, (m->n - i - 1) * sizeof *r);
      r[1] = (struct bad_range) { end, r_end - end, r->weak };
      r->n = first - r->first;
      m->n++;
      return 0;
    }
    if (r->first < first) {                     /* keep its head */
      r->n = first - r->first;
      i++;
    }
    else if (r_end > end) {                     /* keep its tail */
      r->n = r_end - end;
      r->first = end;
      i++;
    }
    else {                                      /* all of it goes */
      memmove (r, r + 1, (m->n - i - 1) * sizeof *r);
      m->n--;
    }
  }
  return 0;
}

int
badmap_add (struct badmap *m, uint64_t first, uint64_t n, bool weak)
{
  size_t i;

  if (n == 0)
    return 0;
  /* After the last range (a mapfile's blocks come in order): append. */
  if (m->n == 0 || m->r[m->n - 1].first + m->r[m->n - 1].n <= first) {
    if (reserve (m, 1) == -1)
      return -1;
    m->r[m->n++] = (struct bad_range) { first, n, weak };
    return 0;
  }
  if (badmap_remove (m, first, n) == -1 || reserve (m, 1) == -1)
    return -1;
  i = first_ending_after (m, first);
  memmove (&m->r[i + 1], &m->r[i], (m->n - i) * sizeof *m->r);
  m->r[i] = (struct bad_range) { first, n, weak };
  m->n++;
  return 0;
}

void
badmap_free (struct badmap *m)
{
  free (m->r);
  *m = (struct badmap) { 0 };
}

/* ---- reading a file ---- */

struct parser {
  struct badmap *m;
  const char *name;
  unsigned line;
  char *err;
  size_t errlen;
  enum { FMT_UNKNOWN, FMT_MAPFILE, FMT_PLAIN } fmt;
  bool have_block;
  uint64_t next_pos;            /* mapfile: where the next block begins */
};

static int
fail (struct parser *ps, const char *fmt, const char *what)
{
  snprintf (ps->err, ps->errlen, "bad-sectors %s, line %u: %s%.40s",
            ps->name, ps->line, fmt, what);
  badmap_free (ps->m);
  return -1;
}

/* A non-negative C integer constant (decimal, 0x hex, 0 octal). */
static int
parse_cint (const char *s, uint64_t *v)
{
  char *end;

  if (*s < '0' || *s > '9')
    return -1;
  errno = 0;
  *v = strtoull (s, &end, 0);
  return errno || *end ? -1 : 0;
}

/* Whitespace-separated tokens of line (modified), comments cut: '#' at
 * the start or after whitespace.  Returns how many (MAX_TOKENS + 1: too
 * many).
 */
static int
tokens (char *line, char *tok[MAX_TOKENS])
{
  int n = 0;
  char *p = line;

  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v'
           || *p == '\f')
      p++;
    if (*p == '\0' || *p == '#')
      return n;
    if (n == MAX_TOKENS)
      return n + 1;
    tok[n++] = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\v'
           && *p != '\f')
      p++;
    if (*p)
      *p++ = '\0';
  }
}

static bool
one_of (const char *tok, const char *chars)
{
  return tok[0] != '\0' && tok[1] == '\0' && strchr (chars, tok[0]);
}

/* The first line that is not a comment: a mapfile's status line? */
static bool
is_status_line (int n, char *tok[])
{
  uint64_t v;

  return (n == 2 || n == 3) && parse_cint (tok[0], &v) == 0
    && one_of (tok[1], "?*/-FG+");
}

/* A positive decimal integer (the mapfile's current pass). */
static bool
is_pass (const char *s)
{
  const char *p;

  for (p = s; *p; p++)
    if (*p < '0' || *p > '9')
      return false;
  return p != s && strspn (s, "0") < strlen (s);
}

/* Image sectors touched by bytes [pos, pos+size). */
static int
add_bytes (struct parser *ps, uint64_t pos, uint64_t size)
{
  uint64_t first = pos / SECTOR_BYTES;
  uint64_t end = pos / SECTOR_BYTES + (pos % SECTOR_BYTES + size
                                       + SECTOR_BYTES - 1) / SECTOR_BYTES;

  if (badmap_add (ps->m, first, end - first, false) == -1)
    return fail (ps, "out of memory", "");
  return 0;
}

static int
mapfile_block (struct parser *ps, int n, char *tok[])
{
  uint64_t pos, size;

  if (n != 3)
    return fail (ps, "expected a data block: POSITION SIZE STATUS, "
                 "got: ", tok[0]);
  if (parse_cint (tok[0], &pos) == -1)
    return fail (ps, "not a non-negative integer (position): ", tok[0]);
  if (parse_cint (tok[1], &size) == -1)
    return fail (ps, "not a non-negative integer (size): ", tok[1]);
  if (!one_of (tok[2], "?*/-+"))
    return fail (ps, "not a block status (one of ? * / - +): ", tok[2]);
  if (pos > UINT64_MAX - SECTOR_BYTES
      || size > UINT64_MAX - SECTOR_BYTES - pos)
    return fail (ps, "block ends beyond 2^64 bytes: ", tok[1]);
  if (ps->have_block && pos != ps->next_pos)
    return fail (ps, "blocks must be contiguous and non-overlapping "
                 "(this one does not begin where the last ended): ", tok[0]);
  ps->have_block = true;
  ps->next_pos = pos + size;
  return tok[2][0] == '-' && size > 0 ? add_bytes (ps, pos, size) : 0;
}

/* FIRST, FIRST-LAST or FIRST+COUNT. */
static int
plain_range (struct parser *ps, char *tok, uint64_t *first, uint64_t *n)
{
  char *sep = strpbrk (tok, "-+");
  char c = sep ? *sep : '\0';
  uint64_t b;

  if (sep)
    *sep = '\0';
  if (parse_cint (tok, first) == -1)
    return fail (ps, "expected FIRST[-LAST|+COUNT] (sectors), got: ", tok);
  if (!sep) {
    *n = 1;
    return 0;
  }
  if (parse_cint (sep + 1, &b) == -1)
    return fail (ps, "expected FIRST[-LAST|+COUNT] (sectors), got: ",
                 sep + 1);
  if (c == '-' && b < *first)
    return fail (ps, "LAST before FIRST: ", sep + 1);
  *n = c == '-' ? b - *first + 1 : b;
  if (*n == 0 || *n > UINT64_MAX / SECTOR_BYTES
      || *first > UINT64_MAX / SECTOR_BYTES - *n)
    return fail (ps, "an empty range, or one beyond 2^64 bytes: ", sep + 1);
  return 0;
}

static int
plain_line (struct parser *ps, int n, char *tok[])
{
  uint64_t first, count;
  bool weak = false;

  if (n > 2)
    return fail (ps, "expected FIRST[-LAST|+COUNT] [bad|weak], got more: ",
                 tok[2]);
  if (plain_range (ps, tok[0], &first, &count) == -1)
    return -1;
  if (n == 2) {
    if (strcmp (tok[1], "weak") == 0)
      weak = true;
    else if (strcmp (tok[1], "bad") != 0)
      return fail (ps, "expected bad or weak, got: ", tok[1]);
  }
  if (badmap_add (ps->m, first, count, weak) == -1)
    return fail (ps, "out of memory", "");
  return 0;
}

static int
one_line (struct parser *ps, char *line)
{
  char *tok[MAX_TOKENS];
  int n = tokens (line, tok);

  if (n == 0)
    return 0;
  if (n > MAX_TOKENS)
    return fail (ps, "too many fields", "");
  if (ps->fmt == FMT_UNKNOWN) {
    if (is_status_line (n, tok)) {
      ps->fmt = FMT_MAPFILE;
      if (n == 3 && !is_pass (tok[2]))
        return fail (ps, "the status line's pass is not a positive "
                     "decimal integer: ", tok[2]);
      return 0;
    }
    ps->fmt = FMT_PLAIN;
  }
  return ps->fmt == FMT_MAPFILE ? mapfile_block (ps, n, tok)
    : plain_line (ps, n, tok);
}

int
badmap_parse (struct badmap *m, const char *text, size_t len,
              const char *name, char *err, size_t errlen)
{
  struct parser ps = { .m = m, .name = name, .err = err, .errlen = errlen };
  size_t at = 0;
  char *buf;

  *m = (struct badmap) { 0 };
  while (at < len) {
    const char *nl = memchr (text + at, '\n', len - at);
    size_t l = nl ? (size_t) (nl - (text + at)) : len - at;

    ps.line++;
    if (memchr (text + at, '\0', l))
      return fail (&ps, "a NUL byte: not a text file", "");
    buf = strndup (text + at, l);
    if (!buf)
      return fail (&ps, "out of memory", "");
    if (one_line (&ps, buf) == -1) {
      free (buf);
      return -1;
    }
    free (buf);
    at += l + 1;
  }
  return 0;
}

int
badmap_load (struct badmap *m, const char *path, char *err, size_t errlen)
{
  FILE *fp = fopen (path, "r");
  char *text = NULL;
  size_t len = 0, cap = 0, got;
  int r;

  *m = (struct badmap) { 0 };
  if (!fp) {
    snprintf (err, errlen, "bad-sectors %s: %s", path, strerror (errno));
    return -1;
  }
  do {
    if (len + 65536 > cap) {
      char *t = realloc (text, cap = (cap ? cap * 2 : 65536));
      if (!t) {
        free (text);
        fclose (fp);
        snprintf (err, errlen, "bad-sectors %s: out of memory", path);
        return -1;
      }
      text = t;
    }
    got = fread (text + len, 1, cap - len, fp);
    len += got;
  } while (got > 0);
  if (ferror (fp)) {
    snprintf (err, errlen, "bad-sectors %s: read error", path);
    free (text);
    fclose (fp);
    return -1;
  }
  fclose (fp);
  r = badmap_parse (m, text ? text : "", len, path, err, errlen);
  free (text);
  return r;
}
