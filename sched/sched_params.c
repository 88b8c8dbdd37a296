/* hddsim: the scheduler's tunables as given (see sched_params.h). */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../common/param.h"
#include "policy.h"
#include "sched_params.h"

/* The engine's own: how many requests a policy may look at. */
static const struct param_desc engine_params[] = {
  { .key = "qdepth", .type = PARAM_UINT,
    .offset = offsetof (struct sched_params, qdepth),
    .min = 1, .max = 65536, .def = 32,
    .help = "requests a policy may look at (the host's window; the "
    "drive's own queue is ncq-depth=)" },
  { .key = NULL },
};

void
sched_params_init (struct sched_params *p)
{
  memset (p, 0, sizeof *p);
  param_defaults (engine_params, p);
}

/* The policy table that holds key, or NULL. */
static const struct param_desc *
policy_param (const char *key)
{
  size_t i;

  for (i = 0; policy_list[i]; i++) {
    const struct param_desc *d;

    if (policy_list[i]->params
        && (d = param_find (policy_list[i]->params, key)) != NULL)
      return d;
  }
  return NULL;
}

static int
keep (struct sched_params *p, const struct param_desc *d, uint64_t v,
      char *err, size_t errlen)
{
  size_t i;

  for (i = 0; i < p->nset; i++)
    if (p->set[i].def == d) {
      p->set[i].value = v;
      return 0;
    }
  if (p->nset == SCHED_MAX_SETTINGS) {
    snprintf (err, errlen, "%s: too many scheduler tunables", d->key);
    return -1;
  }
  p->set[p->nset++] = (struct sched_setting) { .def = d, .value = v };
  return 0;
}

int
sched_params_set (struct sched_params *p, const char *key,
                  const char *value, char *err, size_t errlen)
{
  const struct param_desc *d;
  uint64_t v;
  int r = param_set (engine_params, p, key, value, err, errlen);

  if (r != 1)
    return r;
  d = policy_param (key);
  if (!d)
    return 1;
  if (param_parse (d, value, &v, err, errlen) == -1)
    return -1;
  return keep (p, d, v, err, errlen);
}

static bool
in_table (const struct param_desc *table, const struct param_desc *d)
{
  for (; table->key; table++)
    if (table == d)
      return true;
  return false;
}

void
sched_params_apply (const struct sched_params *p,
                    const struct param_desc *table, void *tunables)
{
  size_t i;

  param_defaults (table, tunables);
  for (i = 0; i < p->nset; i++)
    if (in_table (table, p->set[i].def))
      param_store (p->set[i].def, tunables, p->set[i].value);
}

void
sched_params_print_help (FILE *fp)
{
  size_t i;

  param_print_help (engine_params, fp);
  for (i = 0; policy_list[i]; i++)
    if (policy_list[i]->params) {
      fprintf (fp, "Tunables of sched=%s:\n", policy_list[i]->name);
      param_print_help (policy_list[i]->params, fp);
    }
}

void
sched_params_print_defaults (const char *prefix, FILE *fp)
{
  size_t i;

  param_print_defaults (engine_params, prefix, fp);
  for (i = 0; policy_list[i]; i++)
    if (policy_list[i]->params)
      param_print_defaults (policy_list[i]->params, prefix, fp);
}
