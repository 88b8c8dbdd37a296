/* hddsim: handing replies back to nbdkit one at a time once a
 * connection closes.
 *
 * Why.  nbdkit 1.32 (server/protocol.c, protocol_recv_request_send_reply)
 * sends a worker's reply after the plugin's callback returns: it checks
 * that the connection is not dead, then takes the connection's write
 * lock and sends.  A send that fails (EPIPE or ECONNRESET: the client
 * is gone) marks the connection dead, which closes its output side and
 * sets the socket to -1 (connection_set_status -> raw_close); a worker
 * whose read fails does the same.  A second worker that made its check
 * before that and then sends -- it was waiting on the write lock, or
 * was simply slower -- calls raw_send_socket with socket -1, and
 * "Assertion 'sock >= 0'" aborts the whole server with every other
 * client's connection.  A client that hangs up with N requests inside
 * this plugin makes it likely: all N workers see the hang-up in
 * nbdkit_nanosleep together and return together, so N-1 of them pass
 * the check while the first send is failing.  Spacing the returns out
 * in time (the old fix) only works while nbdkit gets the CPU to finish
 * each send within the spacing.
 *
 * The rule.  Once a worker has seen the connection close (client hang-
 * up, NBD_CMD_DISC from another worker, server shut-down), every reply
 * of that connection goes back to nbdkit alone, and the next only once
 * the previous worker has left nbdkit's send path.  The plugin knows
 * that without a clock: after sending, nbdkit's worker either leaves
 * its loop and exits -- it does once the connection is dead, the
 * client is done or the server quits; a thread-specific destructor
 * runs -- or reads another request and calls the plugin again.  The
 * next worker then makes nbdkit's liveness check after the previous
 * send's failure marked the connection dead, and nbdkit drops its
 * reply instead of sending it.  The first such reply also waits until
 * every worker that returned an ordinary reply on this connection
 * before the close has left nbdkit the same way, since one of them may
 * be the reader that meets the hang-up (ECONNRESET) and closes the
 * socket; on a hang-up they all exit at once.  When the server is
 * shutting down, the client may instead be alive and silent, its
 * reader blocked in nbdkit until it speaks: then that wait is bounded
 * (QUIT_OUTSIDE_WAIT_NS), after which the replies go back anyway -- a
 * live client's sends succeed, so nothing closes the socket under
 * them.  Only a client dying during the server's shut-down, with
 * nbdkit too starved to see it within the bound, is left to timing.
 *
 * What is left: nbdkit's own race between ordinary replies sent in
 * parallel (by design) and a reader that meets ECONNRESET and closes
 * the socket without the write lock; and workers that never called
 * the plugin, which it cannot see.  See docs/reliability.md.
 *
 * When it can go.  Upstream fixed the race in the 1.33 development
 * series: nbdkit commit 9d82aa4f6aaf ("server: Don't assert on send if
 * client hangs up early", first in v1.33.10) closes the socket under
 * the write lock and fails a send on a closed socket with EBADF.  The
 * first stable series with it is 1.34 (its release notes: "Fix rare
 * assertion failure (denial of service) which can be triggered by
 * clients hanging up early").  The race came with 1.32.4 (daef505e,
 * "server: Give client EOF when we are done writing"), and Debian 12
 * ships 1.32.5, which lacks the fix.  Once the oldest nbdkit hddsim
 * supports is 1.34 or later, this file and its calls in driver.c and
 * hddsim.c can go.
 */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "clock.h"
#include "handback.h"

#define QUIT_OUTSIDE_WAIT_NS (5 * UINT64_C(1000000000))

struct handback {
  unsigned refs;                /* .open's, and one per worker state */
  unsigned outside;             /* workers whose ordinary reply is in nbdkit */
  bool closing;                 /* a worker saw the connection close */
  bool probed;                  /* 'quitting' is known */
  bool quitting;                /* ... because the server shuts down */
  uint64_t outside_deadline;    /* if quitting: stop waiting for 'outside' */
  bool turn_taken;              /* a closing reply is in nbdkit */
  pthread_cond_t changed;
  struct handback *next, **prev;        /* all connections, for _fini */
};

/* Where one of nbdkit's worker threads is. */
enum worker_where {
  IN_PLUGIN,
  REPLY_OUT,                    /* returned an ordinary reply */
  CLOSING_REPLY_OUT,            /* returned a closing connection's reply */
};

struct worker {
  struct handback *conn;
  enum worker_where where;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct handback *all;
static pthread_key_t worker_key;
static bool key_made;

/* Drop a reference; lock held. */
static void
unref (struct handback *c)
{
  if (--c->refs > 0)
    return;
  *c->prev = c->next;
  if (c->next)
    c->next->prev = c->prev;
  pthread_cond_destroy (&c->changed);
  free (c);
}

/* The worker's last reply has been through nbdkit's send path; lock
 * held.
 */
static void
reply_sent (struct worker *w)
{
  struct handback *c = w->conn;

  if (w->where == REPLY_OUT)
    c->outside--;
  else if (w->where == CLOSING_REPLY_OUT)
    c->turn_taken = false;
  if (w->where != IN_PLUGIN)
    pthread_cond_broadcast (&c->changed);
  w->where = IN_PLUGIN;
}

/* nbdkit's worker thread exits: it has sent its last reply. */
static void
worker_exit (void *arg)
{
  struct worker *w = arg;

  pthread_mutex_lock (&lock);
  reply_sent (w);
  unref (w->conn);
  pthread_mutex_unlock (&lock);
  free (w);
}

int
handback_init (void)
{
  int err = pthread_key_create (&worker_key, worker_exit);

  if (err) {
    errno = err;
    nbdkit_error ("pthread_key_create: %m");
    return -1;
  }
  key_made = true;
  return 0;
}

/* In .cleanup every worker has exited.  What is left: connections
 * whose .close nbdkit skips on shut-down, and the state of a thread
 * that outlives the plugin (nbdkit's main thread with -s -t 1).
 */
void
handback_fini (void)
{
  struct worker *w;

  if (!key_made)
    return;
  w = pthread_getspecific (worker_key);
  if (w) {
    pthread_setspecific (worker_key, NULL);
    free (w);
  }
  pthread_key_delete (worker_key);
  key_made = false;
  pthread_mutex_lock (&lock);
  while (all) {
    struct handback *c = all;
    all = c->next;
    pthread_cond_destroy (&c->changed);
    free (c);
  }
  pthread_mutex_unlock (&lock);
}

struct handback *
handback_open (void)
{
  struct handback *c = calloc (1, sizeof *c);
  pthread_condattr_t attr;

  if (!c) {
    nbdkit_error ("calloc: %m");
    return NULL;
  }
  c->refs = 1;
  pthread_condattr_init (&attr);
  pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
  pthread_cond_init (&c->changed, &attr);
  pthread_condattr_destroy (&attr);
  pthread_mutex_lock (&lock);
  c->next = all;
  if (all)
    all->prev = &c->next;
  c->prev = &all;
  all = c;
  pthread_mutex_unlock (&lock);
  return c;
}

void
handback_close (struct handback *c)
{
  if (!c)
    return;
  pthread_mutex_lock (&lock);
  unref (c);
  pthread_mutex_unlock (&lock);
}

int
handback_enter (struct handback *c)
{
  struct worker *w = pthread_getspecific (worker_key);

  if (!w) {
    w = calloc (1, sizeof *w);
    if (!w || pthread_setspecific (worker_key, w) != 0) {
      free (w);
      nbdkit_error ("cannot keep the worker's state: out of memory");
      return -1;
    }
    pthread_mutex_lock (&lock);
    w->conn = c;
    c->refs++;
    pthread_mutex_unlock (&lock);
    return 0;
  }
  pthread_mutex_lock (&lock);
  reply_sent (w);
  if (w->conn != c) {           /* nbdkit's threads serve one connection */
    unref (w->conn);
    w->conn = c;
    c->refs++;
  }
  pthread_mutex_unlock (&lock);
  return 0;
}

static void *
probe_quit (void *arg)
{
  bool *quitting = arg;

  /* This thread belongs to no connection: nbdkit_nanosleep polls only
   * the server's quit pipe.
   */
  *quitting = nbdkit_nanosleep (0, 0) == -1;
  return NULL;
}

/* Whether the server is shutting down (as opposed to this connection
 * closing), asked of nbdkit from a thread of no connection.
 */
static bool
server_quitting (void)
{
  sigset_t all_signals, old;
  pthread_t t;
  bool quitting = true;         /* if we cannot tell: do not wait */
  int err;

  sigfillset (&all_signals);
  pthread_sigmask (SIG_SETMASK, &all_signals, &old);
  err = pthread_create (&t, NULL, probe_quit, &quitting);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (err) {
    errno = err;
    nbdkit_debug ("handback: cannot start the quit probe: %m");
    return true;
  }
  pthread_join (t, NULL);
  return quitting;
}

/* The first closing reply of a connection learns why it closes. */
static void
probe_once (struct handback *c)
{
  bool first, quitting;

  pthread_mutex_lock (&lock);
  first = !c->closing;
  c->closing = true;
  pthread_mutex_unlock (&lock);
  if (!first)
    return;
  quitting = server_quitting ();
  pthread_mutex_lock (&lock);
  c->quitting = quitting;
  c->outside_deadline = monotonic_ns () + QUIT_OUTSIDE_WAIT_NS;
  c->probed = true;
  pthread_cond_broadcast (&c->changed);
  pthread_mutex_unlock (&lock);
}

bool
handback_closing (struct handback *c)
{
  bool closing;

  pthread_mutex_lock (&lock);
  closing = c->closing;
  pthread_mutex_unlock (&lock);
  return closing;
}

/* Whether the first closing reply must still wait for the workers
 * whose ordinary replies are in nbdkit; lock held.
 */
static bool
must_wait_outside (const struct handback *c)
{
  if (c->outside == 0)
    return false;
  return !c->quitting || monotonic_ns () < c->outside_deadline;
}

void
handback_leave (struct handback *c, bool closing)
{
  struct worker *w = pthread_getspecific (worker_key);

  pthread_mutex_lock (&lock);
  if (!closing && !c->closing) {
    c->outside++;
    w->where = REPLY_OUT;
    pthread_mutex_unlock (&lock);
    return;
  }
  pthread_mutex_unlock (&lock);

  probe_once (c);
  pthread_mutex_lock (&lock);
  while (!c->probed || c->turn_taken || must_wait_outside (c)) {
    if (c->probed && c->quitting) {
      struct timespec ts = ns_to_timespec (c->outside_deadline);
      pthread_cond_timedwait (&c->changed, &lock, &ts);
    }
    else
      pthread_cond_wait (&c->changed, &lock);
  }
  c->turn_taken = true;
  w->where = CLOSING_REPLY_OUT;
  pthread_mutex_unlock (&lock);
}
