/* hddsim: the registry of built-in policies. */

#include <string.h>

#include "policy.h"

extern const struct policy_ops fifo_policy;
extern const struct policy_ops cscan_policy;
extern const struct policy_ops deadline_policy;
extern const struct policy_ops satf_policy;
extern const struct policy_ops cfq_policy;

const struct policy_ops *const policy_list[] = {
  &fifo_policy,
  &cscan_policy,
  &deadline_policy,
  &satf_policy,
  &cfq_policy,
  NULL,
};

const struct policy_ops *
policy_find (const char *name)
{
  size_t i;

  for (i = 0; policy_list[i]; i++)
    if (strcmp (policy_list[i]->name, name) == 0)
      return policy_list[i];
  return NULL;
}
