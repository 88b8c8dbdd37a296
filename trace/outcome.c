/* hddsim: the outcome column's words (see outcome.h). */

#include "outcome.h"

const char *const trace_outcome_names[OUTCOME_COUNT] = {
  [OUTCOME_OK] = "ok",
  [OUTCOME_IO_ERROR] = "error",
  [OUTCOME_ABORTED] = "aborted",
  [OUTCOME_POWERCUT] = "powercut",
  [OUTCOME_MEDIUM_ERROR] = "medium-error",
};
