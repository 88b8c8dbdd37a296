/* hddsim tests: reading a tiny hand-made trace through a trace source
 * (trace/trace_source.h), for the tests of each format.
 */
#ifndef HDDSIM_TEST_SRC_H
#define HDDSIM_TEST_SRC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "../../trace/format.h"
#include "../../trace/trace_source.h"

#define SRC_MAX_REQS 64

static char src_dir[] = "/tmp/hddsim-test-src-XXXXXX";
static char src_path[64];
static char src_err[TRACE_ERRLEN];
static struct src_req reqs[SRC_MAX_REQS];
static char src_format_got[32];

static void
src_setup (void)
{
  ck_assert_ptr_nonnull (mkdtemp (src_dir));
  snprintf (src_path, sizeof src_path, "%s/t", src_dir);
  src_err[0] = '\0';
  src_format_got[0] = '\0';
}

static void
src_teardown (void)
{
  unlink (src_path);
  rmdir (src_dir);
  strcpy (src_dir + strlen (src_dir) - 6, "XXXXXX");
}

static size_t src_text_len;     /* bytes to write; 0: strlen */

static void
src_write (const char *text)
{
  FILE *fp = fopen (src_path, "w");
  size_t len = src_text_len ? src_text_len : strlen (text);

  ck_assert_ptr_nonnull (fp);
  ck_assert_uint_eq (fwrite (text, 1, len, fp), len);
  ck_assert_int_eq (fclose (fp), 0);
  src_text_len = 0;
}

/* Every request of 'text' read as 'format' (NULL: detected) into
 * reqs: their number, or -1 with src_err.
 */
static int
src_read_opts (const char *text, const char *format,
               const struct trace_source_opts *opts)
{
  struct trace_source *s;
  int n = 0, got;

  src_write (text);
  memset (reqs, 0, sizeof reqs);
  s = trace_source_open (src_path, format, opts, src_err, sizeof src_err);
  if (!s)
    return -1;
  snprintf (src_format_got, sizeof src_format_got, "%s",
            trace_source_format (s));
  while (n < SRC_MAX_REQS
         && (got = trace_source_next (s, &reqs[n], src_err,
                                      sizeof src_err)) == 1)
    n++;
  ck_assert_int_lt (n, SRC_MAX_REQS);
  trace_source_close (s);
  return got < 0 ? -1 : n;
}

static int
src_read (const char *text, const char *format)
{
  return src_read_opts (text, format, NULL);
}

/* The read failed and the message says where ("PATH:LINE: ", or
 * "PATH: " with line 0) and what.
 */
static void
src_assert_error (int n, unsigned line, const char *what)
{
  char where[96];

  ck_assert_int_eq (n, -1);
  if (line)
    snprintf (where, sizeof where, "%s:%u: ", src_path, line);
  else
    snprintf (where, sizeof where, "%s: ", src_path);
  ck_assert_msg (strncmp (src_err, where, strlen (where)) == 0,
                 "'%s' does not start with '%s'", src_err, where);
  ck_assert_msg (strstr (src_err, what) != NULL, "'%s' does not say '%s'",
                 src_err, what);
}

/* One request as expected. */
static void
src_assert_req (const struct src_req *r, enum io_op op, bool fua,
                uint64_t offset, uint64_t length, uint64_t arrival,
                unsigned long line)
{
  ck_assert_msg (r->op == op, "line %lu: op %s, expected %s", r->line,
                 io_op_name (r->op), io_op_name (op));
  ck_assert_int_eq (r->fua, fua);
  ck_assert_uint_eq (r->offset, offset);
  ck_assert_uint_eq (r->length, length);
  ck_assert_uint_eq (r->arrival, arrival);
  ck_assert_uint_eq (r->line, line);
}

#endif /* HDDSIM_TEST_SRC_H */
