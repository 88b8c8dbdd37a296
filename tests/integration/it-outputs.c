/* hddsim: integration tests of the output files, trace= and stats=.
 *
 * What they refuse at start-up (device nodes, missing directories,
 * read-only or full filesystems, a pipe nobody reads), that symbolic
 * links are written through and never replaced, and that a write
 * error later in the run (a full disk) is reported once and counted.
 * Read-only and full filesystems are small tmpfs mounts made here;
 * without the right to mount (not root) those tests say so and pass.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>
#include <libnbd.h>

#include "../lib/server.h"
#include "../../trace/reader.h"
#include "../unit/run-suite.h"

#define IMAGE_BYTES (UINT64_C(1) << 20)

/* One tmpfs mount point for the whole program, made and removed by
 * an unchecked fixture (in the parent process), so that a failed test
 * never leaves a mount behind.
 */
static char mnt[64];

static void
mnt_setup (void)
{
  snprintf (mnt, sizeof mnt, "/tmp/hddsim-outputs-mnt-%d", (int) getpid ());
  mkdir (mnt, 0755);
}

static void
mnt_teardown (void)
{
  umount2 (mnt, MNT_DETACH);
  rmdir (mnt);
}

static bool
mount_tmpfs (const char *size, unsigned long flags)
{
  char opts[32];

  snprintf (opts, sizeof opts, "size=%s", size);
  if (mount ("tmpfs", mnt, "tmpfs", flags, opts) == 0)
    return true;
  fprintf (stderr, "SKIP: cannot mount a tmpfs on %s (%s): test not run\n",
           mnt, strerror (errno));
  return false;
}

/* Fill the mounted tmpfs to the last byte. */
static void
fill_mnt (void)
{
  static char block[4096];
  char path[128];
  int fd;

  snprintf (path, sizeof path, "%s/filler", mnt);
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ck_assert_int_ge (fd, 0);
  while (write (fd, block, sizeof block) > 0)
    ;
  ck_assert_int_eq (errno, ENOSPC);
  close (fd);
}

static char *
slurp (const char *path)
{
  FILE *fp = fopen (path, "r");
  char *text = NULL;
  size_t cap = 0;
  ssize_t n;

  ck_assert_msg (fp != NULL, "%s: %s", path, strerror (errno));
  n = getdelim (&text, &cap, '\0', fp);
  fclose (fp);
  if (n == -1) {                /* empty */
    free (text);
    text = strdup ("");
  }
  return text;
}

static unsigned
occurrences (const char *text, const char *needle)
{
  unsigned n = 0;

  for (; (text = strstr (text, needle)) != NULL; text++)
    n++;
  return n;
}

/* The number after "key": in a stats file. */
static uint64_t
stats_value (const char *path, const char *key)
{
  char *text = slurp (path), pattern[64], *p;
  uint64_t v;

  snprintf (pattern, sizeof pattern, "\"%s\": ", key);
  p = strstr (text, pattern);
  ck_assert_msg (p != NULL, "%s: no %s in %s", path, key, text);
  v = strtoull (p + strlen (pattern), NULL, 10);
  free (text);
  return v;
}

/* No temporary file (stats.json.XXXXXX) left beside 'name' in dir. */
static void
check_no_leftovers (const char *dir, const char *name)
{
  DIR *d = opendir (dir);
  struct dirent *e;
  size_t len = strlen (name);

  ck_assert_ptr_nonnull (d);
  while ((e = readdir (d)) != NULL)
    ck_assert_msg (!(strncmp (e->d_name, name, len) == 0
                     && e->d_name[len] == '.'),
                   "temporary file %s/%s left behind", dir, e->d_name);
  closedir (d);
}

/* Run nbdkit with image= and one output parameter; it must exit with
 * an error within 20 s.  Returns its stderr (malloc'd).
 */
static char *
startup_error (const struct server *s, const char *param)
{
  char image_arg[160], errfile[160], sock[160];
  const char *preload = getenv ("HDDSIM_NBDKIT_PRELOAD");
  double deadline;
  int status = 0;
  pid_t pid;

  snprintf (image_arg, sizeof image_arg, "image=%s", s->image);
  snprintf (errfile, sizeof errfile, "%s/startup.err", s->dir);
  snprintf (sock, sizeof sock, "%s/never.sock", s->dir);
  pid = fork ();
  ck_assert_int_ge (pid, 0);
  if (pid == 0) {
    int fd = open (errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2 (fd, 1);
    dup2 (fd, 2);
    if (preload && *preload)
      setenv ("LD_PRELOAD", preload, 1);
    execlp ("nbdkit", "nbdkit", "-f", "--exit-with-parent", "-U", sock,
            getenv ("HDDSIM_PLUGIN"), image_arg, param, (char *) NULL);
    _exit (127);
  }
  deadline = now_seconds () + 20;
  while (waitpid (pid, &status, WNOHANG) == 0) {
    if (now_seconds () > deadline) {
      kill (pid, SIGKILL);
      waitpid (pid, &status, 0);
      ck_abort_msg ("%s: nbdkit started and served", param);
    }
    usleep (10000);
  }
  ck_assert_msg (WIFEXITED (status) && WEXITSTATUS (status) != 0
                 && WEXITSTATUS (status) != 127,
                 "%s: nbdkit did not fail (status 0x%x)", param, status);
  return slurp (errfile);
}

/* nbdkit must refuse param=path at start-up with a message naming
 * both and containing 'why'.
 */
static void
check_refused (const struct server *s, const char *key, const char *path,
               const char *why)
{
  char param[256], *err;

  snprintf (param, sizeof param, "%s=%s", key, path);
  err = startup_error (s, param);
  ck_assert_msg (strstr (err, param) != NULL, "%s: message does not name "
                 "it: %s", param, err);
  ck_assert_msg (strstr (err, why) != NULL, "%s: expected \"%s\" in: %s",
                 param, why, err);
  free (err);
}

/* A copy of /dev/full (char 1,7) in the test's directory: if the plugin
 * replaced it, it would not replace the real one.
 */
static bool
make_full_node (const struct server *s, char *path, size_t len)
{
  snprintf (path, len, "%s/full", s->dir);
  if (mknod (path, S_IFCHR | 0666, makedev (1, 7)) == 0)
    return true;
  fprintf (stderr, "SKIP: mknod %s: %s: test not run\n", path,
           strerror (errno));
  return false;
}

static void
check_still_device (const char *path)
{
  struct stat st;

  ck_assert_int_eq (lstat (path, &st), 0);
  ck_assert_msg (S_ISCHR (st.st_mode), "%s is no longer a device node", path);
}

/* The rows of a trace; a trace the reader refuses fails the test with
 * the reader's message.
 */
static long
read_trace (const char *path, struct trace_row **rows)
{
  char err[TRACE_ERRLEN];
  long n = trace_read (path, rows, err, sizeof err);

  ck_assert_msg (n >= 0, "%s", err);
  return n;
}

START_TEST (test_device_node_refused)
{
  struct server s;
  char node[160];

  server_prepare (&s, IMAGE_BYTES);
  if (make_full_node (&s, node, sizeof node)) {
    check_refused (&s, "stats", node, "a character device");
    check_still_device (node);
    check_no_leftovers (s.dir, "full");
    check_refused (&s, "trace", node, "a character device");
    check_still_device (node);
  }
  server_cleanup (&s);
}
END_TEST

START_TEST (test_missing_directory_refused)
{
  struct server s;
  char path[200];

  server_prepare (&s, IMAGE_BYTES);
  snprintf (path, sizeof path, "%s/no-such-dir/stats.json", s.dir);
  check_refused (&s, "stats", path, "No such file or directory");
  snprintf (path, sizeof path, "%s/no-such-dir/trace.csv", s.dir);
  check_refused (&s, "trace", path, "No such file or directory");
  server_cleanup (&s);
}
END_TEST

/* As root, permissions do not stop a write: a path under a regular
 * file, and a read-only filesystem, do.
 */
START_TEST (test_unwritable_path_refused)
{
  struct server s;
  char path[200];

  server_prepare (&s, IMAGE_BYTES);
  snprintf (path, sizeof path, "%s/stats.json", s.image);
  check_refused (&s, "stats", path, "Not a directory");
  snprintf (path, sizeof path, "%s/trace.csv", s.image);
  check_refused (&s, "trace", path, "Not a directory");
  if (mount_tmpfs ("64k", MS_RDONLY)) {
    snprintf (path, sizeof path, "%s/stats.json", mnt);
    check_refused (&s, "stats", path, "Read-only file system");
    snprintf (path, sizeof path, "%s/trace.csv", mnt);
    check_refused (&s, "trace", path, "Read-only file system");
    ck_assert_int_eq (umount (mnt), 0);
  }
  server_cleanup (&s);
}
END_TEST

START_TEST (test_full_filesystem_refused)
{
  struct server s;
  char path[200];

  server_prepare (&s, IMAGE_BYTES);
  if (mount_tmpfs ("64k", 0)) {
    fill_mnt ();
    snprintf (path, sizeof path, "%s/stats.json", mnt);
    check_refused (&s, "stats", path, "No space left on device");
    check_no_leftovers (mnt, "stats.json");
    snprintf (path, sizeof path, "%s/trace.csv", mnt);
    check_refused (&s, "trace", path, "No space left on device");
    ck_assert_int_eq (umount (mnt), 0);
  }
  server_cleanup (&s);
}
END_TEST

START_TEST (test_pipe_without_reader_refused)
{
  struct server s;
  char path[200];

  server_prepare (&s, IMAGE_BYTES);
  snprintf (path, sizeof path, "%s/fifo", s.dir);
  ck_assert_int_eq (mkfifo (path, 0644), 0);
  check_refused (&s, "trace", path, "a pipe with no reader");
  check_refused (&s, "stats", path, "a pipe");
  server_cleanup (&s);
}
END_TEST

START_TEST (test_dangling_stats_link_refused)
{
  struct server s;
  char link[200], target[200];

  server_prepare (&s, IMAGE_BYTES);
  snprintf (link, sizeof link, "%s/stats.json", s.dir);
  snprintf (target, sizeof target, "%s/gone/stats.json", s.dir);
  ck_assert_int_eq (symlink (target, link), 0);
  check_refused (&s, "stats", link, "symbolic link");
  server_cleanup (&s);
}
END_TEST

/* Serve n 4K reads, one at a time. */
static void
serve_reads (const struct server *s, unsigned n)
{
  struct nbd_handle *nbd = server_connect (s);
  static char buf[4096];
  unsigned i;

  for (i = 0; i < n; i++)
    ck_assert_msg (nbd_pread (nbd, buf, sizeof buf,
                              (uint64_t) (i * 7919 % 256) * 4096, 0) == 0,
                   "pread: %s", nbd_get_error ());
  nbd_close (nbd);
}

static const char *const zero_drive[] = {
  "profile=fixed", "service=0", NULL
};

START_TEST (test_symlinks_written_through)
{
  struct server s;
  char stats_real[160], trace_real[160];
  struct trace_row *rows;
  struct stat st;
  long n;

  server_prepare (&s, IMAGE_BYTES);
  snprintf (stats_real, sizeof stats_real, "%s/stats-real.json", s.dir);
  snprintf (trace_real, sizeof trace_real, "%s/trace-real.csv", s.dir);
  fclose (fopen (stats_real, "w"));
  ck_assert_int_eq (symlink (stats_real, s.stats), 0);
  ck_assert_int_eq (symlink (trace_real, s.trace), 0);
  server_start (&s, zero_drive);
  serve_reads (&s, 20);
  server_stop (&s, NULL);

  ck_assert_int_eq (lstat (s.stats, &st), 0);
  ck_assert_msg (S_ISLNK (st.st_mode), "stats= replaced its symlink");
  ck_assert_int_eq (lstat (s.trace, &st), 0);
  ck_assert_msg (S_ISLNK (st.st_mode), "trace= replaced its symlink");
  ck_assert_uint_eq (stats_value (stats_real, "requests"), 20);
  n = read_trace (trace_real, &rows);
  ck_assert_int_eq (n, 20);
  free (rows);
  check_no_leftovers (s.dir, "stats-real.json");
  check_no_leftovers (s.dir, "stats.json");
  server_cleanup (&s);
}
END_TEST

/* A pipe is a trace's stream: read while the server runs (here, the
 * pipe's buffer holds the 20 lines until the server has gone).
 */
START_TEST (test_trace_to_pipe)
{
  struct server s;
  char copy[160], buf[65536];
  struct trace_row *rows;
  ssize_t n;
  FILE *fp;
  int fd;

  server_prepare (&s, IMAGE_BYTES);
  ck_assert_int_eq (mkfifo (s.trace, 0644), 0);
  fd = open (s.trace, O_RDONLY | O_NONBLOCK);
  ck_assert_int_ge (fd, 0);
  server_start (&s, zero_drive);
  serve_reads (&s, 20);
  server_stop (&s, NULL);
  snprintf (copy, sizeof copy, "%s/copy.csv", s.dir);
  fp = fopen (copy, "w");
  while ((n = read (fd, buf, sizeof buf)) > 0)
    fwrite (buf, 1, (size_t) n, fp);
  fclose (fp);
  close (fd);
  ck_assert_int_eq (read_trace (copy, &rows), 20);
  free (rows);
  ck_assert_uint_eq (stats_value (s.stats, "trace_lost"), 0);
  server_cleanup (&s);
}
END_TEST

/* Cleaning in the plugin's trace (issue 29 item 4): a drive with a
 * media cache of 4 extents (exos2x18, write cache off, so each 4 KiB
 * write is staged) takes 12 scattered writes; from the fifth on a
 * write may find the map full and wait while the drive cleans (or the
 * drive cleans while the host is quiet).  Every clean step is a row of
 * its own ("0,0,clean,...", event "forced ..." or "idle ..."), which
 * the trace's reader skips: 12 requests read back.
 */
START_TEST (test_trace_has_clean_rows)
{
  static const char *const params[] = {
    "profile=exos2x18", "cache=off", "media-cache-entries=4", NULL
  };
  struct server s;
  struct nbd_handle *nbd;
  static char buf[4096];
  struct trace_row *rows;
  char *text;
  unsigned i;

  server_prepare (&s, IMAGE_BYTES);
  server_start (&s, params);
  nbd = server_connect (&s);
  for (i = 0; i < 12; i++)
    ck_assert_msg (nbd_pwrite (nbd, buf, sizeof buf,
                               (uint64_t) (i * 37 % 256) * 4096, 0) == 0,
                   "pwrite: %s", nbd_get_error ());
  nbd_close (nbd);
  server_stop (&s, NULL);
  text = slurp (s.trace);
  ck_assert_msg (occurrences (text, "\n0,0,clean,") >= 1,
                 "no clean row in the trace:\n%s", text);
  /* forced, or idle when the host is slow (the server runs in real
     time: under a sanitizer 100 ms may pass between two writes) */
  ck_assert_uint_eq (occurrences (text, "\n0,0,clean,"),
                     occurrences (text, ",forced extents=")
                     + occurrences (text, ",idle extents="));
  free (text);
  ck_assert_int_eq (read_trace (s.trace, &rows), 12);
  free (rows);
  server_cleanup (&s);
}
END_TEST

/* Start the server with its stderr in dir/nbdkit.err. */
static void
start_capturing (struct server *s, const char *const *params, char *errfile,
                 size_t len)
{
  int saved = dup (2), fd;

  snprintf (errfile, len, "%s/nbdkit.err", s->dir);
  fd = open (errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ck_assert_int_ge (fd, 0);
  dup2 (fd, 2);
  close (fd);
  server_start (s, params);
  dup2 (saved, 2);
  close (saved);
}

/* The trace fills its filesystem part-way: one message, the trace cut
 * back to whole lines, and every request either in it or counted as
 * lost.  A 512 KiB tmpfs takes two of the writer's 256 KiB pieces at
 * most; 8000 lines of ~80 bytes need more.
 */
START_TEST (test_trace_disk_full_later)
{
  struct server s;
  char errfile[160], *err;
  struct trace_row *rows;
  uint64_t lost, requests;
  long n;

  server_prepare (&s, IMAGE_BYTES);
  if (mount_tmpfs ("512k", 0)) {
    snprintf (s.trace, sizeof s.trace, "%s/trace.csv", mnt);
    start_capturing (&s, zero_drive, errfile, sizeof errfile);
    serve_reads (&s, 8000);
    server_stop (&s, NULL);

    err = slurp (errfile);
    ck_assert_msg (occurrences (err, "write failed") == 1,
                   "expected one write error message: %s", err);
    ck_assert_msg (strstr (err, s.trace) && strstr (err, "No space left"),
                   "message does not name trace= and the error: %s", err);
    free (err);
    requests = stats_value (s.stats, "requests");
    lost = stats_value (s.stats, "trace_lost");
    n = read_trace (s.trace, &rows);
    ck_assert_msg (n >= 0, "the trace is not cut back to whole lines");
    free (rows);
    ck_assert_uint_eq (requests, 8000);
    ck_assert_uint_gt (lost, 0);
    ck_assert_uint_gt (n, 0);
    ck_assert_uint_eq ((uint64_t) n + lost, requests);
    ck_assert_int_eq (umount (mnt), 0);
  }
  server_cleanup (&s);
}
END_TEST

/* The stats filesystem fills after start-up: one message, the
 * failures counted, and the file written again once there is room.
 */
START_TEST (test_stats_disk_full_later)
{
  struct server s;
  char errfile[160], filler[160], *err;

  server_prepare (&s, IMAGE_BYTES);
  if (mount_tmpfs ("64k", 0)) {
    snprintf (s.stats, sizeof s.stats, "%s/stats.json", mnt);
    start_capturing (&s, zero_drive, errfile, sizeof errfile);
    fill_mnt ();
    serve_reads (&s, 50);
    usleep (2500 * 1000);       /* two once-a-second writes fail */
    snprintf (filler, sizeof filler, "%s/filler", mnt);
    ck_assert_int_eq (unlink (filler), 0);
    usleep (1500 * 1000);       /* and one succeeds */
    ck_assert_uint_eq (stats_value (s.stats, "requests"), 50);
    ck_assert_uint_ge (stats_value (s.stats, "stats_write_errors"), 1);
    server_stop (&s, NULL);

    err = slurp (errfile);
    ck_assert_msg (occurrences (err, "cannot write the statistics") == 1,
                   "expected one write error message: %s", err);
    ck_assert_msg (strstr (err, "No space left"), "%s", err);
    free (err);
    ck_assert_uint_ge (stats_value (s.stats, "stats_write_errors"), 2);
    check_no_leftovers (mnt, "stats.json");
    ck_assert_int_eq (umount (mnt), 0);
  }
  server_cleanup (&s);
}
END_TEST

static Suite *
outputs_suite (void)
{
  Suite *s = suite_create ("outputs");
  TCase *startup = tcase_create ("refused at start-up");
  TCase *run = tcase_create ("while serving");

  tcase_add_unchecked_fixture (startup, mnt_setup, mnt_teardown);
  tcase_add_unchecked_fixture (run, mnt_setup, mnt_teardown);
  tcase_add_test (startup, test_device_node_refused);
  tcase_add_test (startup, test_missing_directory_refused);
  tcase_add_test (startup, test_unwritable_path_refused);
  tcase_add_test (startup, test_full_filesystem_refused);
  tcase_add_test (startup, test_pipe_without_reader_refused);
  tcase_add_test (startup, test_dangling_stats_link_refused);
  tcase_add_test (run, test_symlinks_written_through);
  tcase_add_test (run, test_trace_to_pipe);
  tcase_add_test (run, test_trace_has_clean_rows);
  tcase_add_test (run, test_trace_disk_full_later);
  tcase_add_test (run, test_stats_disk_full_later);
  /* nbdkit preloaded with ASan hangs on exit after a failed start-up
   * (see it-plugin.c): the sanitizer run skips these.
   */
  tcase_set_tags (startup, "startup-failure");
  tcase_set_timeout (startup, 120);
  tcase_set_timeout (run, 120);
  suite_add_tcase (s, startup);
  suite_add_tcase (s, run);
  return s;
}

int
main (void)
{
  signal (SIGPIPE, SIG_IGN);
  return run_suite (outputs_suite ());
}
