/* hddsim tests: start and stop nbdkit with the built plugin. */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <check.h>
#include <libnbd.h>

#include "server.h"

#define MAX_ARGS 64

double
now_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *
plugin_path (void)
{
  const char *p = getenv ("HDDSIM_PLUGIN");
  ck_assert_msg (p != NULL, "HDDSIM_PLUGIN is not set (run via make check)");
  return p;
}

uint8_t
pattern_byte (uint64_t offset)
{
  uint64_t block = offset / 4096;
  return (uint8_t) (block * 31 + (offset % 4096) * 7 + 1);
}

void
server_prepare (struct server *s, uint64_t image_bytes)
{
  static uint8_t buf[1 << 16];
  uint64_t off;
  int fd;

  memset (s, 0, sizeof *s);
  snprintf (s->dir, sizeof s->dir, "/tmp/hddsim-test-XXXXXX");
  ck_assert_ptr_nonnull (mkdtemp (s->dir));
  snprintf (s->sock, sizeof s->sock, "%s/sock", s->dir);
  snprintf (s->pidfile, sizeof s->pidfile, "%s/pid", s->dir);
  snprintf (s->image, sizeof s->image, "%s/disk.img", s->dir);
  snprintf (s->trace, sizeof s->trace, "%s/trace.csv", s->dir);
  snprintf (s->stats, sizeof s->stats, "%s/stats.json", s->dir);
  fd = open (s->image, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ck_assert_int_ge (fd, 0);
  for (off = 0; off < image_bytes; off += sizeof buf) {
    size_t i, n = image_bytes - off < sizeof buf ? image_bytes - off : sizeof buf;
    for (i = 0; i < n; i++)
      buf[i] = pattern_byte (off + i);
    ck_assert_int_eq (pwrite (fd, buf, n, (off_t) off), (ssize_t) n);
  }
  close (fd);
}

/* nbdkit is not built with sanitizers: give it their runtime when the
 * plugin is.
 */
static void
child_env (void)
{
  const char *preload = getenv ("HDDSIM_NBDKIT_PRELOAD");
  if (preload && *preload)
    setenv ("LD_PRELOAD", preload, 1);
}

static void
exec_nbdkit (const char *const *args)
{
  child_env ();
  execvp ("nbdkit", (char *const *) args);
  perror ("exec nbdkit");
  _exit (127);
}

void
server_start (struct server *s, const char *const *params)
{
  const char *args[MAX_ARGS];
  char image_arg[160], trace_arg[160], stats_arg[160];
  int n = 0, i;
  double deadline;

  snprintf (image_arg, sizeof image_arg, "image=%s", s->image);
  snprintf (trace_arg, sizeof trace_arg, "trace=%s", s->trace);
  snprintf (stats_arg, sizeof stats_arg, "stats=%s", s->stats);
  args[n++] = "nbdkit";
  args[n++] = "-f";
  args[n++] = "--exit-with-parent";
  args[n++] = "-U";
  args[n++] = s->sock;
  args[n++] = "-P";
  args[n++] = s->pidfile;
  args[n++] = plugin_path ();
  args[n++] = image_arg;
  args[n++] = trace_arg;
  args[n++] = stats_arg;
  for (i = 0; params && params[i] && n < MAX_ARGS - 1; i++)
    args[n++] = params[i];
  args[n] = NULL;

  s->pid = fork ();
  ck_assert_int_ge (s->pid, 0);
  if (s->pid == 0)
    exec_nbdkit (args);

  /* nbdkit writes the pid file once it listens. */
  deadline = now_seconds () + 30;
  while (access (s->pidfile, F_OK) != 0) {
    int status;
    ck_assert_msg (waitpid (s->pid, &status, WNOHANG) == 0,
                   "nbdkit exited during start-up");
    ck_assert_msg (now_seconds () < deadline, "nbdkit did not start");
    usleep (10000);
  }
}

struct nbd_handle *
server_connect (const struct server *s)
{
  struct nbd_handle *nbd = nbd_create ();

  ck_assert_ptr_nonnull (nbd);
  ck_assert_msg (nbd_connect_unix (nbd, s->sock) == 0, "connect: %s",
                 nbd_get_error ());
  return nbd;
}

/* Under a sanitizer preload, nbdkit (uninstrumented, linked with
 * p11-kit) can hang in its exit handlers after an error -- nbdkit's
 * own file plugin does too -- so the wait is bounded, and a server
 * that does not exit in 20 s is killed and reported.
 */
double
server_stop (struct server *s, int *status)
{
  double t0 = now_seconds ();
  int st = 0;

  if (s->pid > 0) {
    kill (s->pid, SIGTERM);
    while (waitpid (s->pid, &st, WNOHANG) == 0) {
      if (now_seconds () - t0 > 20) {
        fprintf (stderr, "nbdkit did not exit 20 s after SIGTERM: killed\n");
        kill (s->pid, SIGKILL);
        waitpid (s->pid, &st, 0);
        break;
      }
      usleep (1000);
    }
    s->pid = 0;
  }
  if (status)
    *status = st;
  return now_seconds () - t0;
}

void
server_cleanup (struct server *s)
{
  char cmd[128];

  if (s->pid > 0)
    server_stop (s, NULL);
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", s->dir);
  if (system (cmd) != 0)
    fprintf (stderr, "warning: could not remove %s\n", s->dir);
}

int
run_nbdkit (const char *const *params, char **err)
{
  const char *args[MAX_ARGS];
  int pipefd[2], n = 0, i, status;
  size_t len = 0, cap = 4096;
  pid_t pid;
  ssize_t r;

  args[n++] = "nbdkit";
  args[n++] = "-f";
  args[n++] = "-U";
  args[n++] = "/tmp/hddsim-test-never.sock";
  args[n++] = plugin_path ();
  for (i = 0; params[i] && n < MAX_ARGS - 1; i++)
    args[n++] = params[i];
  args[n] = NULL;

  ck_assert_int_eq (pipe (pipefd), 0);
  pid = fork ();
  ck_assert_int_ge (pid, 0);
  if (pid == 0) {
    dup2 (pipefd[1], 2);
    dup2 (pipefd[1], 1);
    close (pipefd[0]);
    exec_nbdkit (args);
  }
  close (pipefd[1]);
  *err = malloc (cap);
  while ((r = read (pipefd[0], *err + len, cap - len - 1)) > 0) {
    len += (size_t) r;
    if (cap - len < 1024)
      *err = realloc (*err, cap *= 2);
  }
  (*err)[len] = '\0';
  close (pipefd[0]);
  waitpid (pid, &status, 0);
  return status;
}
