/* hddsim: a drive and a policy from key=value parameters. */

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/param.h"
#include "../profile/profile.h"
#include "setup.h"

/* The policies' names, for sched='s table; filled from policy_list,
 * which holds five: the assert in name_policies catches a list that
 * outgrows the room.
 */
#define MAX_POLICIES 16
static const char *policy_names[MAX_POLICIES + 1];

static const struct param_desc setup_params[] = {
  /* The default is the first of policy_list (fifo); sched= comes
   * first, setup_print_help lists the policies after it.
   */
  { .key = "sched", .type = PARAM_ENUM,
    .offset = offsetof (struct setup, policy_index), .def = 0,
    .choices = policy_names, .help = "scheduling policy" },
  { .key = "profile", .type = PARAM_STRING,
    .offset = offsetof (struct setup, profile), .metavar = "NAME|FILE.ini",
    .help = "drive profile (see --dump-plugin)" },
  { .key = "seed", .type = PARAM_UINT, .offset = offsetof (struct setup, seed),
    .min = 0, .max = UINT64_MAX, .def = 0,
    .help = "platter phase at time 0" },
  { .key = NULL },
};

static void
name_policies (void)
{
  size_t i;

  for (i = 0; policy_list[i]; i++) {
    assert (i < MAX_POLICIES);
    policy_names[i] = policy_list[i]->name;
  }
}

void
setup_init (struct setup *s)
{
  memset (s, 0, sizeof *s);
  name_policies ();
  param_defaults (setup_params, s);
  s->policy = policy_list[s->policy_index];
  sched_params_init (&s->sched);
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
  int r = param_set (setup_params, s, key, value, err, errlen);

  if (r != 1) {
    s->policy = policy_list[s->policy_index];
    return r;
  }
  r = sched_params_set (&s->sched, key, value, err, errlen);
  if (r != 1)
    return r;
  return add_override (s, key, value, err, errlen);
}

int
setup_finish (struct setup *s, char *err, size_t errlen)
{
  size_t i;

  s->hdd = hdd_params_new ();
  if (!s->hdd) {
    snprintf (err, errlen, "out of memory");
    return -1;
  }
  /* The loader's messages name the profile (and its file and line). */
  if (s->profile
      && hdd_params_load_profile (s->hdd, s->profile, err, errlen) == -1)
    return -1;
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
  param_free (setup_params, s);
  hdd_params_free (s->hdd);
  memset (s, 0, sizeof *s);
}

void
setup_print_help (FILE *fp)
{
  size_t i;

  name_policies ();
  param_print_help_one (&setup_params[0], fp);
  for (i = 0; policy_list[i]; i++)
    fprintf (fp, "%-*s   %s: %s\n", PARAM_HELP_COLUMN, "",
             policy_list[i]->name, policy_list[i]->description);
  param_print_help (&setup_params[1], fp);
  sched_params_print_help (fp);
}

void
setup_print_defaults (const char *prefix, FILE *fp)
{
  name_policies ();
  param_print_defaults (setup_params, prefix, fp);
  sched_params_print_defaults (prefix, fp);
}
