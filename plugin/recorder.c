/* hddsim: the record of every request (trace= and stats=).
 *
 * The thread that delivers a completion must not write files: it
 * holds, or is about to take, the driver's lock that the next
 * delivering worker needs, and a write(2) or fflush can take
 * milliseconds on a busy disk.  So a retired request is only copied
 * (a struct trace_record, ~140 bytes) into a ring, under a lock of
 * its own that is held for that copy alone; one writer thread drains
 * the ring, keeps the statistics, formats the trace lines and writes
 * the files.
 *
 * Why a ring and a writer rather than double-buffered stats: the
 * trace needs a hand-off per request anyway, and once the writer sees
 * every record it can keep the statistics itself, so they need no
 * lock, no snapshot (the old one copied ~512 KiB of histograms under
 * the driver's lock every second) and no second copy.
 *
 * Producers do not wake the writer per record (a futex wake per
 * request is what this is meant to avoid): it sleeps until the next
 * once-a-second stats write, or until a producer finds the ring half
 * full.  A full ring makes the producer wait for room rather than lose
 * records: the trace must be complete to be replayed, and waiting only
 * delays that worker's reply, after its lateness was measured.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "clock.h"
#include "recorder.h"
#include "stats.h"
#include "trace.h"

/* 8192 records (~1.2 MiB) hold 80 ms of requests at 100k IOPS, while
 * the writer wakes at half that.
 */
#define RING_SIZE 8192
#define STATS_PERIOD_NS UINT64_C(1000000000)
/* Fault rows waiting for the writer: as many as there can be faults. */
#define FAULT_ROWS 32
/* Clean rows waiting for the writer (it writes once a second): a
 * DM-SMR band takes about half a second, a CMR media cache's region a
 * few milliseconds.
 */
#define CLEAN_ROWS 1024

static struct {
  pthread_mutex_t lock;         /* guards head, tail, the flags, and the
                                   ring slots from head on */
  pthread_cond_t work;          /* the writer: ring half full, or stop */
  pthread_cond_t room;          /* producers: the writer freed slots */
  struct trace_record *ring;
  uint64_t head, tail;          /* pushed, consumed (never wrap) */
  unsigned producers_waiting;
  bool stopping;
  bool running;                 /* the writer thread exists */
  pthread_t thread;

  /* Owned by the writer thread (by the caller before it starts and
   * after it stops).
   */
  uint64_t epoch;
  struct stats *stats;
  struct trace_file *trace;
  struct stats_file *stats_file;

  /* Under 'lock': the power cut, for the writer to put in the stats
   * and the trace.
   */
  bool cut;
  struct trace_cut powercut;
  bool cut_row_due;             /* the cut's trace row is to be written */
  /* Under 'lock': faults fired, their rows not yet written. */
  struct trace_fault faults[FAULT_ROWS];
  unsigned nfaults;
  uint64_t faults_fired;
  /* Under 'lock': clean steps, their rows not yet written. */
  struct trace_clean cleans[CLEAN_ROWS];
  unsigned ncleans;
  uint64_t cleans_lost;
  /* Under 'lock': the drive's power states, when a timer is set. */
  bool power;
  struct hdd_power_snapshot power_snap;
} rec = {
  .lock = PTHREAD_MUTEX_INITIALIZER,
  .room = PTHREAD_COND_INITIALIZER,
};

static void
consume (const struct trace_record *r)
{
  stats_record (rec.stats, r);
  if (rec.trace && !r->unserved)
    trace_file_add (rec.trace, r);
}

/* Write out the trace and replace the stats file: the writer's job
 * once a second, and the last thing done on stop.
 */
static void
write_outputs (void)
{
  struct trace_cut cut;
  bool was_cut, row_due;

  struct trace_fault faults[FAULT_ROWS];
  unsigned nfaults, ncleans, i;
  uint64_t fired, cleans_lost;
  static struct trace_clean cleans[CLEAN_ROWS];   /* the writer's */
  struct hdd_power_snapshot snap;
  bool have_power;

  pthread_mutex_lock (&rec.lock);
  was_cut = rec.cut;
  cut = rec.powercut;
  row_due = rec.cut_row_due;
  rec.cut_row_due = false;
  nfaults = rec.nfaults;
  memcpy (faults, rec.faults, nfaults * sizeof faults[0]);
  rec.nfaults = 0;
  fired = rec.faults_fired;
  ncleans = rec.ncleans;
  memcpy (cleans, rec.cleans, ncleans * sizeof cleans[0]);
  rec.ncleans = 0;
  cleans_lost = rec.cleans_lost;
  rec.cleans_lost = 0;
  have_power = rec.power;
  snap = rec.power_snap;
  pthread_mutex_unlock (&rec.lock);
  if (was_cut)
    stats_set_powercut (rec.stats, &cut);
  if (row_due && rec.trace)
    trace_file_add_cut (rec.trace, &cut);
  for (i = 0; i < nfaults && rec.trace; i++)
    trace_file_add_fault (rec.trace, &faults[i]);
  for (i = 0; i < ncleans && rec.trace; i++)
    trace_file_add_clean (rec.trace, &cleans[i]);
  if (cleans_lost > 0)
    nbdkit_debug ("trace: %lu clean steps left out (more than %d between "
                  "two writes)", (unsigned long) cleans_lost, CLEAN_ROWS);
  stats_set_faults_fired (rec.stats, fired);
  if (have_power) {
    struct hdd_power_stats ps;
    /* Modeled time now: the driver's clock (same epoch). */
    hdd_power_snapshot_stats (&snap, monotonic_ns () - rec.epoch, &ps);
    stats_set_power_states (rec.stats, &ps);
  }
  if (rec.trace)
    trace_file_flush (rec.trace);
  if (rec.stats_file) {
    stats_set_output_errors (rec.stats,
                             rec.trace ? trace_file_lost (rec.trace) : 0,
                             stats_file_errors (rec.stats_file));
    stats_file_write (rec.stats_file, rec.stats,
                      monotonic_ns () - rec.epoch);
  }
}

/* Process ring slots [from, to) with the lock released: producers
 * write only from 'head' on, and the writer alone moves 'tail'.
 */
static void
drain (uint64_t from, uint64_t to)
{
  pthread_mutex_unlock (&rec.lock);
  for (; from < to; from++)
    consume (&rec.ring[from % RING_SIZE]);
  pthread_mutex_lock (&rec.lock);
  rec.tail = to;
  if (rec.producers_waiting)
    pthread_cond_broadcast (&rec.room);
}

static void *
writer (void *arg)
{
  uint64_t next_write = monotonic_ns () + STATS_PERIOD_NS;

  (void) arg;
  pthread_mutex_lock (&rec.lock);
  for (;;) {
    struct timespec ts = ns_to_timespec (next_write);

    while (!rec.stopping && rec.head - rec.tail < RING_SIZE / 2
           && pthread_cond_timedwait (&rec.work, &rec.lock, &ts) == 0)
      ;
    if (rec.head != rec.tail)
      drain (rec.tail, rec.head);
    if (rec.stopping && rec.head == rec.tail)
      break;
    if (monotonic_ns () >= next_write) {
      pthread_mutex_unlock (&rec.lock);
      write_outputs ();
      pthread_mutex_lock (&rec.lock);
      next_write = monotonic_ns () + STATS_PERIOD_NS;
    }
  }
  pthread_mutex_unlock (&rec.lock);
  return NULL;
}

void
recorder_push (const struct req *r, bool served, int64_t late_ns,
               enum req_outcome outcome)
{
  struct trace_record record, *t = &record;

  /* The lateness is written only for a delivered request. */
  trace_record_of (t, r, outcome == OUTCOME_OK
                   || outcome == OUTCOME_MEDIUM_ERROR
                   ? late_ns : TRACE_LATE_NONE, outcome);
  t->unserved = !served;

  pthread_mutex_lock (&rec.lock);
  if (!rec.running) {
    /* Before the writer starts or after it stopped: nobody else
     * touches the stats and the trace.
     */
    if (rec.stats)
      consume (t);
    pthread_mutex_unlock (&rec.lock);
    return;
  }
  while (rec.head - rec.tail == RING_SIZE) {
    rec.producers_waiting++;
    pthread_cond_wait (&rec.room, &rec.lock);
    rec.producers_waiting--;
  }
  rec.ring[rec.head % RING_SIZE] = *t;
  if (++rec.head - rec.tail == RING_SIZE / 2)
    pthread_cond_signal (&rec.work);
  pthread_mutex_unlock (&rec.lock);
}

void
recorder_powercut (const struct trace_cut *cut)
{
  pthread_mutex_lock (&rec.lock);
  if (!rec.cut)
    rec.cut_row_due = true;
  rec.cut = true;
  rec.powercut = *cut;
  pthread_mutex_unlock (&rec.lock);
}

void
recorder_fault (const struct trace_fault *f)
{
  pthread_mutex_lock (&rec.lock);
  if (rec.nfaults < FAULT_ROWS)
    rec.faults[rec.nfaults++] = *f;
  rec.faults_fired++;
  pthread_mutex_unlock (&rec.lock);
}

void
recorder_clean (void *opaque, const struct hdd_clean *ev)
{
  (void) opaque;
  pthread_mutex_lock (&rec.lock);
  if (rec.ncleans < CLEAN_ROWS)
    rec.cleans[rec.ncleans++] = (struct trace_clean) {
      .start_ns = ev->start_ns, .end_ns = ev->end_ns,
      .offset = ev->offset, .length = ev->length, .extents = ev->extents,
      .staged_bytes = ev->staged_bytes, .forced = ev->forced,
    };
  else
    rec.cleans_lost++;
  pthread_mutex_unlock (&rec.lock);
}

void
recorder_power_states (const struct hdd_power_snapshot *s)
{
  pthread_mutex_lock (&rec.lock);
  rec.power = true;
  rec.power_snap = *s;
  pthread_mutex_unlock (&rec.lock);
}

int
recorder_start (const char *trace_path, const char *stats_path)
{
  rec.stats = stats_new ();
  rec.ring = calloc (RING_SIZE, sizeof *rec.ring);
  if (!rec.stats || !rec.ring) {
    nbdkit_error ("out of memory");
    return -1;
  }
  if (trace_path && !(rec.trace = trace_file_open (trace_path)))
    return -1;
  if (stats_path && !(rec.stats_file = stats_file_open (stats_path,
                                                        rec.stats)))
    return -1;
  return 0;
}

int
recorder_after_fork (uint64_t epoch)
{
  pthread_condattr_t attr;
  sigset_t all, old;
  int err;

  rec.epoch = epoch;
  pthread_condattr_init (&attr);
  pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
  pthread_cond_init (&rec.work, &attr);
  pthread_condattr_destroy (&attr);

  /* Signals belong to nbdkit's own threads. */
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  err = pthread_create (&rec.thread, NULL, writer, NULL);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (err) {
    errno = err;
    nbdkit_error ("cannot start the trace and stats writer thread: %m");
    return -1;
  }
  pthread_mutex_lock (&rec.lock);
  rec.running = true;
  pthread_mutex_unlock (&rec.lock);
  return 0;
}

static void
log_summary (void)
{
  if (stats_lateness_samples (rec.stats) > 0)
    nbdkit_debug ("lateness over %" PRIu64 " requests: p50 %" PRIu64
                  " ns, p99 %" PRIu64 " ns, p99.9 %" PRIu64 " ns",
                  stats_lateness_samples (rec.stats), stats_lateness (rec.stats, 0.5),
                  stats_lateness (rec.stats, 0.99),
                  stats_lateness (rec.stats, 0.999));
}

void
recorder_stop (void)
{
  bool joined = false;

  pthread_mutex_lock (&rec.lock);
  if (rec.running) {
    rec.stopping = true;
    pthread_cond_signal (&rec.work);
    joined = true;
  }
  pthread_mutex_unlock (&rec.lock);
  if (joined) {
    pthread_join (rec.thread, NULL);
    pthread_mutex_lock (&rec.lock);
    rec.running = false;
    rec.stopping = false;
    pthread_mutex_unlock (&rec.lock);
    pthread_cond_destroy (&rec.work);
  }
  if (rec.stats) {
    if (rec.epoch)
      write_outputs ();
    log_summary ();
  }
  trace_file_close (rec.trace);
  stats_file_close (rec.stats_file);
  stats_free (rec.stats);
  free (rec.ring);
  rec.trace = NULL;
  rec.stats_file = NULL;
  rec.stats = NULL;
  rec.ring = NULL;
  rec.head = rec.tail = 0;
  rec.epoch = 0;
  rec.cut = false;
  rec.cut_row_due = false;
  rec.nfaults = 0;
  rec.faults_fired = 0;
  rec.ncleans = 0;
  rec.cleans_lost = 0;
  rec.power = false;
}
