/* hddsim: the trigger forms (see trigger.h). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trigger.h"
#include "u64.h"
#include "value.h"

/* random:A-B: a modeled time drawn uniformly from [A, B]. */
static int
parse_random (struct trigger *tr, const char *key, const char *v,
              uint64_t seed, uint64_t salt, char *err, size_t errlen)
{
  const char *dash = strchr (v, '-');
  char lo_s[64];
  uint64_t lo, hi;

  if (!dash || (size_t) (dash - v) >= sizeof lo_s) {
    snprintf (err, errlen, "%s=random:%s: expected random:A-B, "
              "two durations (e.g. random:10s-60s)", key, v);
    return -1;
  }
  memcpy (lo_s, v, (size_t) (dash - v));
  lo_s[dash - v] = '\0';
  if (parse_duration (lo_s, &lo) == -1 || parse_duration (dash + 1, &hi) == -1
      || hi < lo) {
    snprintf (err, errlen, "%s=random:%s: expected random:A-B with "
              "durations A <= B (e.g. random:10s-60s)", key, v);
    return -1;
  }
  tr->at = lo + splitmix64 (seed ^ salt) % (hi - lo + 1);
  return 0;
}

int
trigger_parse (struct trigger *tr, const char *key, const char *full,
               const char *value, uint64_t seed, uint64_t salt,
               char *err, size_t errlen)
{
  *tr = (struct trigger) { .kind = TRIGGER_OFF, .at = TRIGGER_NEVER };
  if (strncmp (value, "at:", 3) == 0) {
    tr->kind = TRIGGER_AT;
    if (parse_duration (value + 3, &tr->at) == -1) {
      snprintf (err, errlen, "%s=%s: '%s' is not a duration "
                "(e.g. 30s, 250ms)", key, full, value + 3);
      return -1;
    }
  }
  else if (strncmp (value, "after-writes:", 13) == 0) {
    tr->kind = TRIGGER_AFTER_WRITES;
    if (parse_uint (value + 13, &tr->writes) == -1 || tr->writes == 0) {
      snprintf (err, errlen, "%s=%s: expected after-writes:N, N >= 1",
                key, full);
      return -1;
    }
  }
  else if (strncmp (value, "random:", 7) == 0) {
    tr->kind = TRIGGER_RANDOM;
    return parse_random (tr, key, value + 7, seed, salt, err, errlen);
  }
  else if (strcmp (value, "signal") == 0)
    tr->kind = TRIGGER_SIGNAL;
  else if (strncmp (value, "file:", 5) == 0 && value[5]) {
    tr->kind = TRIGGER_FILE;
    tr->path = strdup (value + 5);
    if (!tr->path) {
      snprintf (err, errlen, "%s=%s: out of memory", key, full);
      return -1;
    }
  }
  else {
    snprintf (err, errlen, "%s=%s: " TRIGGER_USAGE, key, full);
    return -1;
  }
  return 0;
}

void
trigger_free (struct trigger *tr)
{
  free (tr->path);
  *tr = (struct trigger) { .kind = TRIGGER_OFF, .at = TRIGGER_NEVER };
}
