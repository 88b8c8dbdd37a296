/* hddsim tests: scratch copies of DiskSim files (tests/data/disksim/)
 * that a test edits, one key at a time, in a fresh directory per test
 * (setup/teardown as a Check fixture), with a models/ folder as the
 * test drive's includes expect.
 */
#ifndef HDDSIM_TEST_DISKSIM_FILES_H
#define HDDSIM_TEST_DISKSIM_FILES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <check.h>

#define DATA "tests/data/disksim/"
#define TDF_FN static __attribute__ ((unused))
#define TMPDIR_TEMPLATE "/tmp/hddsim-test-disksim-XXXXXX"

static char tmpdir[] = TMPDIR_TEMPLATE;

TDF_FN void
setup (void)
{
  char sub[600];

  ck_assert_ptr_nonnull (mkdtemp (tmpdir));
  snprintf (sub, sizeof sub, "%s/models", tmpdir);
  ck_assert_int_eq (mkdir (sub, 0700), 0);
}

TDF_FN void
teardown (void)
{
  char cmd[600];

  snprintf (cmd, sizeof cmd, "rm -rf %s", tmpdir);
  ck_assert_int_eq (system (cmd), 0);
  strcpy (tmpdir, TMPDIR_TEMPLATE);
}

/* A file's text (at most 64 KiB), to be freed. */
TDF_FN char *
slurp (const char *path)
{
  FILE *fp = fopen (path, "r");
  char *buf = malloc (1 << 16);
  size_t n;

  ck_assert_ptr_nonnull (fp);
  ck_assert_ptr_nonnull (buf);
  n = fread (buf, 1, (1 << 16) - 1, fp);
  buf[n] = '\0';
  fclose (fp);
  return buf;
}

TDF_FN void
spit (const char *path, const char *text)
{
  FILE *fp = fopen (path, "w");

  ck_assert_ptr_nonnull (fp);
  fputs (text, fp);
  fclose (fp);
}

#endif /* HDDSIM_TEST_DISKSIM_FILES_H */
