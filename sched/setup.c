/* hddsim: a drive and a policy from key=value parameters. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/param.h"
#include "setup.h"

void
setup_init (struct setup *s)
{
  memset (s, 0, sizeof *s);
  s->policy = policy_find ("fifo");
  sched_params_init (&s->sched);
}

static int
set_policy (struct setup *s, const char *value, char *err, size_t errlen)
{
  const struct policy_ops *ops = policy_find (value);
  size_t i, used;

  if (ops) {
    s->policy = ops;
    return 0;
  }
  used = (size_t) snprintf (err, errlen,
                            "sched=%s: unknown scheduler (expected one of:",
                            value);
  for (i = 0; policy_list[i] && used < errlen; i++)
    used += (size_t) snprintf (err + used, errlen - used, " %s",
                               policy_list[i]->name);
  if (used < errlen)
    snprintf (err + used, errlen - used, ")");
  return -1;
}

static char *
dup_nonempty (const char *key, const char *value, char *err, size_t errlen)
{
  char *copy;

  if (*value == '\0') {
    snprintf (err, errlen, "%s: the value must not be empty", key);
    return NULL;
  }
  copy = strdup (value);
  if (!copy)
    snprintf (err, errlen, "%s: out of memory", key);
  return copy;
}

/* Check a drive parameter now, on the default profile, so that a typo
 * is reported at once; keep it to apply over the chosen profile.
 */
static int
add_override (struct setup *s, const char *key, const char *value,
              char *err, size_t errlen)
{
  struct hdd_params *probe = hdd_params_new ();
  struct setup_override *o;
  int r;

  if (!probe) {
    snprintf (err, errlen, "out of memory");
    return -1;
  }
  r = hdd_params_set (probe, key, value, err, errlen);
  hdd_params_free (probe);
  if (r != 0)
    return r;
  o = realloc (s->overrides, (s->noverrides + 1) * sizeof *o);
  if (!o) {
    snprintf (err, errlen, "out of memory");
    return -1;
  }
  s->overrides = o;
  o[s->noverrides].key = strdup (key);
  o[s->noverrides].value = strdup (value);
  if (!o[s->noverrides].key || !o[s->noverrides].value) {
    snprintf (err, errlen, "out of memory");
    return -1;
  }
  s->noverrides++;
  return 0;
}

int
setup_set (struct setup *s, const char *key, const char *value,
           char *err, size_t errlen)
{
  int r;

  if (strcmp (key, "sched") == 0)
    return set_policy (s, value, err, errlen);
  if (strcmp (key, "profile") == 0) {
    char *copy = dup_nonempty (key, value, err, errlen);
    if (!copy)
      return -1;
    free (s->profile);
    s->profile = copy;
    return 0;
  }
  if (strcmp (key, "seed") == 0) {
    if (parse_uint (value, &s->seed) == -1) {
      snprintf (err, errlen, "seed=%s: expected a non-negative integer",
                value);
      return -1;
    }
    return 0;
  }
  r = sched_params_set (&s->sched, key, value, err, errlen);
  if (r != 1)
    return r;
  return add_override (s, key, value, err, errlen);
}

int
setup_finish (struct setup *s, char *err, size_t errlen)
{
  size_t i, used;

  s->hdd = hdd_params_new ();
  if (!s->hdd) {
    snprintf (err, errlen, "out of memory");
    return -1;
  }
  if (s->profile) {
    used = (size_t) snprintf (err, errlen, "profile=%s: ", s->profile);
    if (used < errlen
        && hdd_params_load_profile (s->hdd, s->profile, err + used,
                                    errlen - used) == -1)
      return -1;
  }
  for (i = 0; i < s->noverrides; i++)
    if (hdd_params_set (s->hdd, s->overrides[i].key, s->overrides[i].value,
                        err, errlen) != 0)
      return -1;
  return hdd_params_validate (s->hdd, err, errlen);
}

void
setup_free (struct setup *s)
{
  size_t i;

  for (i = 0; i < s->noverrides; i++) {
    free (s->overrides[i].key);
    free (s->overrides[i].value);
  }
  free (s->overrides);
  free (s->profile);
  hdd_params_free (s->hdd);
  memset (s, 0, sizeof *s);
}
