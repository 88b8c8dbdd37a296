/* hddsim: what every fuzzing harness shares (see fuzz.h). */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../sched/engine.h"
#include "fuzz.h"

#define HOUR (UINT64_C(3600) * 1000000000)

void
fuzz_fail (const char *file, int line, const char *fmt, ...)
{
  va_list ap;

  fprintf (stderr, "%s:%d: invariant failed: ", file, line);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  abort ();
}

/* Six requests, 20 KiB of data in all: reads and writes at both ends
 * of an image of 'size' bytes, a FUA write, a flush, a re-read that may
 * hit the cache.  An hour bounds any one of them on any drive the
 * parameter tables allow: with at most 40 sectors in play, each at
 * most one revolution (60 ms at 1000 rpm) plus a seek, a head switch,
 * a skew, a settle and the command overhead (each capped at 1 s),
 * service stays under 40 x 5.06 s = 202 s, destaging included.
 */
#define NREQUESTS 6

static void
requests (uint64_t size, struct io *r)
{
  r[0] = (struct io) { IO_READ, false, 0, 4096 };
  r[1] = (struct io) { IO_WRITE, false, size / 2, 4096 };
  r[2] = (struct io) { IO_READ, false, size - 4096, 4096 };
  r[3] = (struct io) { IO_WRITE, true, 8192, 4096 };
  r[4] = (struct io) { IO_FLUSH, false, 0, 0 };
  r[5] = (struct io) { IO_READ, false, size / 2, 4096 };
}

/* A large image, so that the requests seek across many cylinders (a
 * seek table's far points); the smallest if the drive cannot hold it.
 */
static struct hdd *
new_drive (const struct hdd_params *p, uint64_t seed, uint64_t *size)
{
  char err[HDD_ERRLEN];
  struct hdd *d;

  *size = UINT64_C(1) << 30;
  d = hdd_new (p, *size, seed, err, sizeof err);
  if (!d) {
    *size = FUZZ_IMAGE_BYTES;
    d = hdd_new (p, *size, seed, err, sizeof err);
  }
  return d;
}

static void
check_service (const struct io *r, uint64_t service,
               const struct hdd_cost *c)
{
  fuzz_assert (hdd_cost_total (c) == service, "%s at %" PRIu64 ": parts "
               "add up to %" PRIu64 " ns, service %" PRIu64 " ns",
               io_op_name (r->op), r->offset, hdd_cost_total (c), service);
  fuzz_assert (service <= HOUR, "%s at %" PRIu64 ": service %" PRIu64
               " ns, more than an hour", io_op_name (r->op), r->offset,
               service);
}

void
fuzz_drive (const struct hdd_params *p, uint64_t seed)
{
  struct io req[NREQUESTS];
  uint64_t size, t = 0;
  struct hdd *d = new_drive (p, seed, &size);
  size_t i;

  if (!d)
    return;
  requests (size, req);
  for (i = 0; i < NREQUESTS; i++) {
    struct hdd_cost est, got;
    uint64_t e = hdd_estimate (d, &req[i], t, &est);
    uint64_t s = hdd_serve (d, &req[i], t, &got);

    check_service (&req[i], s, &got);
    /* The tail (tail.h) is what the estimate cannot foresee (a wait for
       the drive's own work moves the access, hence tail_ns only bounds
       the difference). */
    fuzz_assert (got.tail_ns > 0 ? s >= got.tail_ns : e == s,
                 "%s at %" PRIu64 ": estimate %" PRIu64
                 " ns, served in %" PRIu64 " ns", io_op_name (req[i].op),
                 req[i].offset, e, s);
    /* the next one arrives 1 ms after this one ends: some idle time */
    t += s + 1000000;
  }
  hdd_idle (d, t + HOUR);
  hdd_free (d);
}

static const struct engine_hooks no_hooks = { .started = NULL };

void
fuzz_engine (const struct setup *s)
{
  struct io req[NREQUESTS];
  struct req reqs[NREQUESTS] = { 0 };
  uint64_t size;
  struct hdd *d = new_drive (s->hdd, s->seed, &size);
  struct engine *e;
  size_t i;

  if (!d)
    return;
  requests (size, req);
  e = engine_new (d, s->policy, &s->sched, &no_hooks, NULL);
  fuzz_assert (e != NULL, "engine_new failed");
  /* all at once, from two connections: the policy has to choose */
  for (i = 0; i < NREQUESTS; i++) {
    reqs[i].io = req[i];
    reqs[i].id = i;
    reqs[i].conn = (uint32_t) (i % 2);
    engine_submit (e, &reqs[i], 1000 * i);
  }
  engine_advance (e, ENGINE_NEVER - 1);
  fuzz_assert (engine_pending (e) == 0, "%" PRIu32 " requests never "
               "completed", engine_pending (e));
  for (i = 0; i < NREQUESTS; i++) {
    const struct req *r = &reqs[i];
    fuzz_assert (r->arrival <= r->start && r->start <= r->done,
                 "request %zu: arrival %" PRIu64 " start %" PRIu64
                 " done %" PRIu64, i, r->arrival, r->start, r->done);
    check_service (&r->io, r->done - r->start, &r->cost);
  }
  engine_free (e);
  hdd_free (d);
}

/* Under afl++ (persistent mode) the harness runs on the one input file
 * afl++ rewrites between runs; built with a plain compiler it runs
 * once on each file named (make check-fuzz-corpus).
 */
int
main (int argc, char **argv)
{
  int i;

  if (argc < 2) {
    fprintf (stderr, "usage: %s FILE...\n", argv[0]);
    return EXIT_FAILURE;
  }
#ifdef __AFL_HAVE_MANUAL_CONTROL
  if (argc == 2) {
    while (__AFL_LOOP (10000))
      fuzz_one (argv[1]);
    return EXIT_SUCCESS;
  }
#endif
  for (i = 1; i < argc; i++)
    fuzz_one (argv[i]);
  return EXIT_SUCCESS;
}

void
fuzz_fixed_open (struct fuzz_fixed *f)
{
  char err[SETUP_ERRLEN];

  setup_init (&f->setup);
  fuzz_assert (setup_set (&f->setup, "profile", "fixed", err, sizeof err) == 0
               && setup_set (&f->setup, "service", "1ms", err,
                             sizeof err) == 0
               && setup_finish (&f->setup, err, sizeof err) == 0, "%s", err);
  f->hdd = hdd_new (f->setup.hdd, FUZZ_IMAGE_BYTES, f->setup.seed, err,
                    sizeof err);
  fuzz_assert (f->hdd != NULL, "%s", err);
  f->engine = engine_new (f->hdd, f->setup.policy, &f->setup.sched,
                          &no_hooks, NULL);
  fuzz_assert (f->engine != NULL, "engine_new failed");
}

void
fuzz_fixed_close (struct fuzz_fixed *f)
{
  engine_free (f->engine);
  hdd_free (f->hdd);
  setup_free (&f->setup);
}
