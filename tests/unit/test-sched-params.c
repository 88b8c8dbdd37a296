/* hddsim: the scheduler's tunables through the parameter tables
 * (sched/sched_params.c, sched/setup.c); the tables themselves are
 * test-param.c's.
 *
 * Expected values are the parameters' documented meanings (8.5ms is
 * 8 500 000 ns, 16M is 2^24 bytes) and the defaults of the Linux
 * versions the policies follow (docs/schedulers.md).
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "run-suite.h"
#include "test-units.h"

#include "../../common/param.h"
#include "../../sched/policy.h"
#include "../../sched/sched_params.h"
#include "../../sched/setup.h"

/* The table of policy_list[i], or NULL. */
static const struct param_desc *
table_of (size_t i)
{
  return policy_list[i] ? policy_list[i]->params : NULL;
}

/* A default printed in --help reads back as the same value, and lies
 * in the key's range, in every policy's table.
 */
START_TEST (test_policy_defaults_parse_back)
{
  size_t i;

  for (i = 0; policy_list[i]; i++) {
    const struct param_desc *d = table_of (i);

    for (; d && d->key; d++) {
      char buf[64], err[PARAM_ERRLEN] = "";
      uint64_t v;

      param_format (d, d->def, buf, sizeof buf);
      ck_assert_msg (param_parse (d, buf, &v, err, sizeof err) == 0,
                     "%s: %s", d->key, err);
      ck_assert_msg (v == d->def, "%s: %s", d->key, buf);
    }
  }
}
END_TEST

/* Keys are unique across the policies and do not shadow the setup's
 * or the engine's (a key is looked up in the first table that has
 * it).
 */
START_TEST (test_keys_unique)
{
  static const char *const reserved[] = { "sched", "profile", "seed",
                                          "qdepth", NULL };
  size_t i, j, k;

  for (i = 0; policy_list[i]; i++) {
    const struct param_desc *d = table_of (i);

    for (; d && d->key; d++) {
      for (k = 0; reserved[k]; k++)
        ck_assert_str_ne (d->key, reserved[k]);
      for (j = i + 1; policy_list[j]; j++)
        ck_assert_msg (!table_of (j) || !param_find (table_of (j), d->key),
                       "%s in %s and %s", d->key, policy_list[i]->name,
                       policy_list[j]->name);
    }
  }
}
END_TEST

/* Values given for a policy's keys reach that policy's tunables and no
 * other's; a key given twice keeps its latest value.  A policy's
 * tunables are private, so they are read here through its table's
 * offsets, in a zeroed buffer of uint64_t.
 */
START_TEST (test_apply)
{
  const struct param_desc *cfq = policy_find ("cfq")->params;
  const struct param_desc *dl = policy_find ("deadline")->params;
  const struct param_desc *quantum = param_find (cfq, "cfq-quantum");
  const struct param_desc *idle = param_find (cfq, "cfq-slice-idle");
  const struct param_desc *d;
  struct sched_params sp;
  uint64_t buf[64];
  size_t k;
  char err[PARAM_ERRLEN] = "";

  ck_assert_ptr_nonnull (quantum);
  ck_assert_ptr_nonnull (idle);
  sched_params_init (&sp);
  ck_assert_uint_eq (sp.qdepth, 32);
  ck_assert_int_eq (sched_params_set (&sp, "cfq-quantum", "4", err,
                                      sizeof err), 0);
  ck_assert_int_eq (sched_params_set (&sp, "cfq-quantum", "5", err,
                                      sizeof err), 0);
  ck_assert_int_eq (sched_params_set (&sp, "qdepth", "7", err,
                                      sizeof err), 0);
  ck_assert_uint_eq (sp.nset, 1);
  ck_assert_uint_eq (sp.qdepth, 7);
  ck_assert_int_eq (sched_params_set (&sp, "cfq-quantum", "0", err,
                                      sizeof err), -1);
  ck_assert_str_eq (err, "cfq-quantum=0: out of range [1, 1024]");
  ck_assert_int_eq (sched_params_set (&sp, "no-such", "1", err,
                                      sizeof err), 1);

  memset (buf, 0, sizeof buf);
  sched_params_apply (&sp, cfq, buf);
  ck_assert_uint_eq (buf[quantum->offset / sizeof buf[0]], 5);
  ck_assert_uint_eq (buf[idle->offset / sizeof buf[0]], 8 * MS); /* DESIGN */

  memset (buf, 0, sizeof buf);
  sched_params_apply (&sp, dl, buf);
  for (k = 0; k < sizeof buf / sizeof buf[0]; k++) {
    uint64_t expect = 0;

    for (d = dl; d->key; d++)
      if (d->offset == k * sizeof buf[0])
        expect = d->def;
    ck_assert_uint_eq (buf[k], expect);
  }
}
END_TEST

/* sched= is an enumeration of policy_list; fifo is the default. */
START_TEST (test_setup_sched)
{
  struct setup s;
  char err[SETUP_ERRLEN] = "", expect[SETUP_ERRLEN];
  size_t i, used;

  setup_init (&s);
  ck_assert_ptr_eq (s.policy, policy_find ("fifo"));
  ck_assert_int_eq (setup_set (&s, "sched", "cfq", err, sizeof err), 0);
  ck_assert_ptr_eq (s.policy, policy_find ("cfq"));
  ck_assert_int_eq (setup_set (&s, "sched", "noop", err, sizeof err), -1);
  ck_assert_ptr_eq (s.policy, policy_find ("cfq"));
  used = (size_t) snprintf (expect, sizeof expect,
                            "sched=noop: expected one of:");
  for (i = 0; policy_list[i]; i++)
    used += (size_t) snprintf (expect + used, sizeof expect - used, " %s",
                               policy_list[i]->name);
  ck_assert_str_eq (err, expect);
  ck_assert_int_eq (setup_set (&s, "seed", "-1", err, sizeof err), -1);
  ck_assert_int_eq (setup_set (&s, "seed", "12", err, sizeof err), 0);
  ck_assert_uint_eq (s.seed, 12);
  ck_assert_int_eq (setup_set (&s, "profile", "fixed", err, sizeof err), 0);
  ck_assert_str_eq (s.profile, "fixed");
  setup_free (&s);
}
END_TEST

START_TEST (test_setup_help)
{
  char *text = NULL;
  size_t len = 0, i;
  FILE *fp = open_memstream (&text, &len);

  ck_assert_ptr_nonnull (fp);
  setup_print_help (fp);
  setup_print_defaults ("d_", fp);
  fclose (fp);
  for (i = 0; policy_list[i]; i++)
    ck_assert_msg (strstr (text, policy_list[i]->name), "%s", text);
  ck_assert_msg (strstr (text, "scheduling policy (default fifo)\n"),
                 "%s", text);
  ck_assert_msg (strstr (text, "(0 = off) (default 8ms)\n"), "%s", text);
  ck_assert_msg (strstr (text, "d_cfq_back_seek_max=16M\n"), "%s", text);
  ck_assert_msg (strstr (text, "d_deadline_write_expire=5s\n"), "%s", text);
  ck_assert_msg (strstr (text, "d_qdepth=32\n"), "%s", text);
  free (text);
}
END_TEST

static Suite *
params_suite (void)
{
  Suite *s = suite_create ("sched-params");
  TCase *tc = tcase_create ("params");

  tcase_add_test (tc, test_policy_defaults_parse_back);
  tcase_add_test (tc, test_keys_unique);
  tcase_add_test (tc, test_apply);
  tcase_add_test (tc, test_setup_sched);
  tcase_add_test (tc, test_setup_help);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (params_suite ());
}
