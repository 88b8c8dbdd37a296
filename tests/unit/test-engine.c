/* hddsim: unit tests of the engine on a virtual clock.
 *
 * Expected timelines are worked out by hand from the service time
 * (profile=fixed) and the policy's rule, never taken from a run.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "run-suite.h"
#include "test-units.h"

#include "../../model/hdd.h"
#include "../../profile/profile.h"
#include "../../sched/engine.h"


/* ---- a test policy: last in, first out ----
 * LIFO makes "which requests had arrived when the decision was taken"
 * visible in the order of service, which FIFO would hide.
 */
struct lifo_data {
  struct req_list stack;
  uint64_t hold_until_multiple; /* if set, only dispatch at multiples */
  unsigned done_calls;
};

static uint64_t test_hold_multiple;

static void *
lifo_create (const struct sched_params *sp)
{
  struct lifo_data *ld = calloc (1, sizeof *ld);

  (void) sp;
  ck_assert_ptr_nonnull (ld);
  TAILQ_INIT (&ld->stack);
  ld->hold_until_multiple = test_hold_multiple;
  return ld;
}

static void
lifo_destroy (void *data)
{
  free (data);
}

static void
lifo_add (void *data, struct req *r, uint64_t now)
{
  struct lifo_data *ld = data;

  (void) now;
  TAILQ_INSERT_HEAD (&ld->stack, r, fifo_link);
}

static struct req *
lifo_pick (void *data, const struct hdd *hdd, uint64_t now, uint64_t *wake)
{
  struct lifo_data *ld = data;
  struct req *r = TAILQ_FIRST (&ld->stack);
  uint64_t m = ld->hold_until_multiple;

  (void) hdd;
  if (r && m && now % m != 0) {
    *wake = (now / m + 1) * m;  /* an "idle window" up to the next multiple */
    return NULL;
  }
  if (r)
    TAILQ_REMOVE (&ld->stack, r, fifo_link);
  return r;
}

static void
lifo_done (void *data, struct req *r, uint64_t now)
{
  struct lifo_data *ld = data;

  (void) r; (void) now;
  ld->done_calls++;
}

static void
lifo_remove (void *data, struct req *r)
{
  struct lifo_data *ld = data;

  TAILQ_REMOVE (&ld->stack, r, fifo_link);
}

static const struct policy_ops lifo_ops = {
  .name = "lifo", .description = "test",
  .create = lifo_create, .destroy = lifo_destroy, .add = lifo_add,
  .pick = lifo_pick, .done = lifo_done, .remove = lifo_remove,
};

/* ---- harness ---- */

struct harness {
  struct hdd_params *params;
  struct hdd *hdd;
  struct engine *engine;
  struct sched_params sp;
  unsigned started, completed;
  struct req *order[256];       /* in order of start */
};

static void
on_started (struct req *r, void *opaque)
{
  struct harness *h = opaque;
  ck_assert_int_eq (r->state, REQ_SERVING);
  h->order[h->started++] = r;
}

static void
on_completed (struct req *r, void *opaque)
{
  struct harness *h = opaque;
  ck_assert_int_eq (r->state, REQ_DONE);
  h->completed++;
}

static const struct engine_hooks hooks = {
  .started = on_started, .completed = on_completed,
};

static void
harness_init (struct harness *h, const char *profile, const char *service,
              const struct policy_ops *ops, uint64_t qdepth)
{
  char err[HDD_ERRLEN];

  memset (h, 0, sizeof *h);
  h->params = hdd_params_new ();
  ck_assert_ptr_nonnull (h->params);
  if (profile)
    ck_assert_msg (hdd_params_load_profile (h->params, profile, err,
                                            sizeof err) == 0, "%s", err);
  if (service)
    ck_assert_msg (hdd_params_set (h->params, "service", service, err,
                                   sizeof err) == 0, "%s", err);
  h->hdd = hdd_new (h->params, UINT64_C(1) << 32, 1, err, sizeof err);
  ck_assert_msg (h->hdd != NULL, "%s", err);
  sched_params_init (&h->sp);
  if (qdepth)
    h->sp.qdepth = qdepth;
  h->engine = engine_new (h->hdd, ops, &h->sp, &hooks, h);
  ck_assert_ptr_nonnull (h->engine);
}

static void
harness_free (struct harness *h)
{
  engine_free (h->engine);
  hdd_free (h->hdd);
  hdd_params_free (h->params);
}

static void
init_read (struct req *r, uint64_t id, uint64_t offset)
{
  memset (r, 0, sizeof *r);
  r->id = id;
  r->io.op = IO_READ;
  r->io.offset = offset;
  r->io.length = 4096;
}

static const struct policy_ops *
fifo (void)
{
  const struct policy_ops *ops = policy_find ("fifo");
  ck_assert_ptr_nonnull (ops);
  return ops;
}

/* fifo, 5 ms per request: arrivals at 0, 1, 2 and 20 ms queue behind
 * each other, then the drive idles until 20 ms.
 */
START_TEST (test_fifo_fixed_timeline)
{
  struct harness h;
  struct req r[4];
  const uint64_t arrive[4] = { 0, 1 * MS, 2 * MS, 20 * MS };
  const uint64_t start[4] = { 0, 5 * MS, 10 * MS, 20 * MS };
  int i;

  harness_init (&h, "fixed", "5ms", fifo (), 0);
  for (i = 0; i < 4; i++) {
    init_read (&r[i], i, (uint64_t) (3 - i) * 1000000);
    if (i > 0)
      engine_advance (h.engine, arrive[i] - 1);
    engine_submit (h.engine, &r[i], arrive[i]);
  }
  engine_advance (h.engine, 1000 * MS);
  for (i = 0; i < 4; i++) {
    ck_assert_uint_eq (r[i].start, start[i]);
    ck_assert_uint_eq (r[i].done, start[i] + 5 * MS);
    ck_assert_ptr_eq (h.order[i], &r[i]);
  }
  ck_assert_uint_eq (h.completed, 4);
  ck_assert_uint_eq (engine_pending (h.engine), 0);
  ck_assert_uint_eq (engine_next_event (h.engine), ENGINE_NEVER);
  harness_free (&h);
}
END_TEST

/* The next event is the in-service completion; between events the
 * engine waits.
 */
START_TEST (test_next_event)
{
  struct harness h;
  struct req a, b;

  harness_init (&h, "fixed", "5ms", fifo (), 0);
  ck_assert_uint_eq (engine_next_event (h.engine), ENGINE_NEVER);
  init_read (&a, 1, 0);
  init_read (&b, 2, 0);
  engine_submit (h.engine, &a, 10 * MS);
  ck_assert_uint_eq (engine_next_event (h.engine), 10 * MS);
  engine_advance (h.engine, 10 * MS);
  ck_assert_uint_eq (engine_next_event (h.engine), 15 * MS);
  engine_submit (h.engine, &b, 11 * MS);
  engine_advance (h.engine, 14 * MS);
  /* the policy sees b at the next decision, when a completes */
  ck_assert_int_eq (b.state, REQ_WAITING);
  ck_assert_uint_eq (engine_next_event (h.engine), 15 * MS);
  engine_advance (h.engine, 15 * MS);
  ck_assert_int_eq (a.state, REQ_DONE);
  ck_assert_uint_eq (b.start, 15 * MS);
  ck_assert_uint_eq (engine_next_event (h.engine), 20 * MS);
  harness_free (&h);
}
END_TEST

/* LIFO, 5 ms each.  A at 0 is served 0-5.  At the decision at 5 ms the
 * policy has seen B (1 ms) and C (exactly 5 ms) but not D (6 ms), so
 * it serves C, then D (arrived by 10), then B.  The same whether the
 * driver advances at every event or once, late, at the end.
 */
static void
check_lifo_order (bool late)
{
  struct harness h;
  struct req r[4];
  const uint64_t arrive[4] = { 0, 1 * MS, 5 * MS, 6 * MS };
  int i;

  harness_init (&h, "fixed", "5ms", &lifo_ops, 0);
  for (i = 0; i < 4; i++) {
    init_read (&r[i], i, 0);
    if (!late)
      engine_advance (h.engine, arrive[i] - (i > 0));
    engine_submit (h.engine, &r[i], arrive[i]);
  }
  engine_advance (h.engine, 100 * MS);
  ck_assert_ptr_eq (h.order[0], &r[0]);
  ck_assert_ptr_eq (h.order[1], &r[2]);
  ck_assert_ptr_eq (h.order[2], &r[3]);
  ck_assert_ptr_eq (h.order[3], &r[1]);
  ck_assert_uint_eq (r[2].start, 5 * MS);
  ck_assert_uint_eq (r[3].start, 10 * MS);
  ck_assert_uint_eq (r[1].start, 15 * MS);
  harness_free (&h);
}

START_TEST (test_decision_sees_only_arrived)
{
  check_lifo_order (false);
  check_lifo_order (true);
}
END_TEST

/* qdepth=2 under LIFO: at 5 ms the policy holds B and C (D waits in
 * arrival order outside), serves C; at 10 ms D is admitted and served
 * before B.
 */
START_TEST (test_qdepth_limits_what_policy_sees)
{
  struct harness h;
  struct req r[4];
  int i;

  harness_init (&h, "fixed", "5ms", &lifo_ops, 2);
  for (i = 0; i < 4; i++) {
    init_read (&r[i], i, 0);
    engine_submit (h.engine, &r[i], (uint64_t) i * MS);
  }
  engine_advance (h.engine, 100 * MS);
  ck_assert_ptr_eq (h.order[0], &r[0]);
  ck_assert_ptr_eq (h.order[1], &r[2]);
  ck_assert_ptr_eq (h.order[2], &r[3]);
  ck_assert_ptr_eq (h.order[3], &r[1]);
  harness_free (&h);
}
END_TEST

/* A policy that idles until multiples of 7 ms is woken at exactly
 * those times, with no arrival to prompt it.
 */
START_TEST (test_policy_wake)
{
  struct harness h;
  struct req a, b;

  test_hold_multiple = 7 * MS;
  harness_init (&h, "fixed", "5ms", &lifo_ops, 0);
  test_hold_multiple = 0;
  init_read (&a, 1, 0);
  init_read (&b, 2, 0);
  engine_submit (h.engine, &a, 1 * MS);
  engine_advance (h.engine, 1 * MS);
  ck_assert_int_eq (a.state, REQ_QUEUED);
  ck_assert_uint_eq (engine_next_event (h.engine), 7 * MS);
  engine_submit (h.engine, &b, 8 * MS);   /* its arrival is not a multiple */
  engine_advance (h.engine, 100 * MS);
  ck_assert_uint_eq (a.start, 7 * MS);
  ck_assert_uint_eq (b.start, 14 * MS);   /* a ends at 12, wait for 14 */
  harness_free (&h);
}
END_TEST

/* Cancelled requests never start, whether the policy holds them or
 * they wait beyond qdepth; one already on the drive cannot be recalled
 * and completes as modeled.  The policy here holds requests until
 * multiples of 10 ms, with qdepth 1.
 */
START_TEST (test_cancel)
{
  struct harness h;
  struct req a, b, c;

  test_hold_multiple = 10 * MS;
  harness_init (&h, "fixed", "5ms", &lifo_ops, 1);
  test_hold_multiple = 0;
  init_read (&a, 1, 0);
  init_read (&b, 2, 0);
  init_read (&c, 3, 0);
  engine_submit (h.engine, &a, 1 * MS);
  engine_submit (h.engine, &b, 2 * MS);
  engine_advance (h.engine, 3 * MS);
  ck_assert_int_eq (a.state, REQ_QUEUED);
  ck_assert_int_eq (b.state, REQ_WAITING);     /* qdepth 1 */
  ck_assert_int_eq (engine_cancel (h.engine, &a), 0);
  engine_submit (h.engine, &c, 4 * MS);
  engine_advance (h.engine, 4 * MS);
  ck_assert_int_eq (b.state, REQ_QUEUED);      /* a's place */
  ck_assert_int_eq (c.state, REQ_WAITING);
  engine_advance (h.engine, 10 * MS);
  ck_assert_int_eq (b.state, REQ_SERVING);
  ck_assert_uint_eq (b.start, 10 * MS);
  ck_assert_int_eq (engine_cancel (h.engine, &c), 0);
  ck_assert_int_eq (engine_cancel (h.engine, &b), -1);
  ck_assert_uint_eq (engine_pending (h.engine), 1);
  engine_advance (h.engine, 100 * MS);
  ck_assert_uint_eq (h.started, 1);
  ck_assert_uint_eq (h.completed, 1);
  ck_assert_uint_eq (b.done, 15 * MS);
  ck_assert_uint_eq (engine_pending (h.engine), 0);
  ck_assert_uint_eq (engine_next_event (h.engine), ENGINE_NEVER);
  harness_free (&h);
}
END_TEST

/* ---- replay == live: a randomized workload through a driver that
 * advances at every event and one that advances rarely and late. ---- */

#define NREQ 200

struct script {
  uint64_t arrival[NREQ];
  uint64_t offset[NREQ];
  enum io_op op[NREQ];
  uint32_t length[NREQ];
};

static uint64_t
lcg (uint64_t *s)
{
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s >> 33;
}

static void
make_script (struct script *s, uint64_t seed)
{
  uint64_t t = 0;
  int i;

  for (i = 0; i < NREQ; i++) {
    t += lcg (&seed) % (8 * MS);        /* bursts and gaps */
    s->arrival[i] = t;
    s->offset[i] = (lcg (&seed) % (1 << 20)) * 4096;
    s->length[i] = (uint32_t) (1 + lcg (&seed) % 16) * 4096;
    s->op[i] = lcg (&seed) % 3 == 0 ? IO_WRITE : IO_READ;
  }
}

/* lag_seed == 0: advance to every event and arrival as it happens;
 * otherwise advance only now and then, up to 50 ms late.
 */
static void
run_script (const char *profile, const char *service,
            const struct script *s, struct req *r, uint64_t lag_seed)
{
  struct harness h;
  int i;

  harness_init (&h, profile, service, fifo (), 0);
  for (i = 0; i < NREQ; i++) {
    memset (&r[i], 0, sizeof r[i]);
    r[i].id = i;
    r[i].io.op = s->op[i];
    r[i].io.offset = s->offset[i];
    r[i].io.length = s->length[i];
    if (lag_seed == 0) {
      while (engine_next_event (h.engine) < s->arrival[i])
        engine_advance (h.engine, engine_next_event (h.engine));
    }
    else if (lcg (&lag_seed) % 4 == 0 && i > 0) {
      /* a late wake-up: somewhere between the previous arrival and
       * this one, possibly long after events were due */
      uint64_t span = s->arrival[i] - s->arrival[i - 1];
      if (span > 1)
        engine_advance (h.engine,
                        s->arrival[i - 1] + lcg (&lag_seed) % (span - 1));
    }
    engine_submit (h.engine, &r[i], s->arrival[i]);
  }
  engine_advance (h.engine, UINT64_MAX - 1);
  ck_assert_uint_eq (h.completed, NREQ);
  harness_free (&h);
}

static void
check_replay_equals_live (const char *profile, const char *service)
{
  static struct script s;
  static struct req prompt[NREQ], late[NREQ];
  uint64_t seed;
  int i;

  for (seed = 1; seed <= 5; seed++) {
    make_script (&s, seed);
    run_script (profile, service, &s, prompt, 0);
    run_script (profile, service, &s, late, seed * 7919);
    for (i = 0; i < NREQ; i++) {
      ck_assert_uint_eq (prompt[i].arrival, s.arrival[i]);
      ck_assert_uint_eq (late[i].start, prompt[i].start);
      ck_assert_uint_eq (late[i].done, prompt[i].done);
      ck_assert_uint_ge (prompt[i].start, prompt[i].arrival);
      ck_assert_uint_ge (prompt[i].done, prompt[i].start);
      if (i > 0)                /* fifo: one at a time, in order */
        ck_assert_uint_ge (prompt[i].start, prompt[i - 1].done);
    }
  }
}

START_TEST (test_replay_equals_live_fixed)
{
  check_replay_equals_live ("fixed", "5ms");
}
END_TEST

START_TEST (test_replay_equals_live_mechanical)
{
  check_replay_equals_live (NULL, NULL);   /* the default profile */
}
END_TEST

static Suite *
engine_suite (void)
{
  Suite *s = suite_create ("engine");
  TCase *tc = tcase_create ("core");

  tcase_add_test (tc, test_fifo_fixed_timeline);
  tcase_add_test (tc, test_next_event);
  tcase_add_test (tc, test_decision_sees_only_arrived);
  tcase_add_test (tc, test_qdepth_limits_what_policy_sees);
  tcase_add_test (tc, test_policy_wake);
  tcase_add_test (tc, test_cancel);
  tcase_add_test (tc, test_replay_equals_live_fixed);
  tcase_add_test (tc, test_replay_equals_live_mechanical);
  tcase_set_timeout (tc, 60);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (engine_suite ());
}
