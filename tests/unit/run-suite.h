/* hddsim tests: the one main every Check program needs. */
#ifndef HDDSIM_TEST_RUN_SUITE_H
#define HDDSIM_TEST_RUN_SUITE_H

#include <stdlib.h>

#include <check.h>

/* Run every test of s; the exit status says whether all passed. */
static inline int
run_suite (Suite *s)
{
  SRunner *sr = srunner_create (s);
  int failed;

  srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif /* HDDSIM_TEST_RUN_SUITE_H */
