/* hddsim: faults while the drive runs (see faults.h). */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault_bad.h"
#include "faults.h"
#include "../common/u64.h"
#include "../common/value.h"

#define SLOW_MAX_MILLI UINT64_C(1000000)        /* x1000 */
#define STALL_PERIOD_MIN UINT64_C(1000000)      /* 1 ms */

/* F as thousandths: digits, optionally '.' and up to three more. */
static int
parse_factor (const char *s, uint64_t *milli)
{
  uint64_t whole = 0, frac = 0, scale = 1000;
  const char *p = s;

  if (*p < '0' || *p > '9')
    return -1;
  for (; *p >= '0' && *p <= '9'; p++)
    if ((whole = whole * 10 + (uint64_t) (*p - '0')) > SLOW_MAX_MILLI / 1000)
      return -1;
  if (*p == '.') {
    for (p++; *p >= '0' && *p <= '9'; p++) {
      if (scale == 1)
        return -1;
      scale /= 10;
      frac += (uint64_t) (*p - '0') * scale;
    }
  }
  if (*p)
    return -1;
  *milli = whole * 1000 + frac;
  return 0;
}

static int
parse_slow (const char *v, struct hdd_fault *f, char *err, size_t errlen)
{
  if (parse_factor (v, &f->slow_milli) == -1 || f->slow_milli < 1000
      || f->slow_milli > SLOW_MAX_MILLI) {
    snprintf (err, errlen, "slow:%s: expected slow:F, a factor from 1 to "
              "1000 with at most three decimals (e.g. slow:2.5)", v);
    return -1;
  }
  return 0;
}

static int
parse_stall (const char *v, struct hdd_fault *f, char *err, size_t errlen)
{
  const char *slash = strchr (v, '/');
  char len_s[64];

  if (!slash || (size_t) (slash - v) >= sizeof len_s)
    goto bad;
  memcpy (len_s, v, (size_t) (slash - v));
  len_s[slash - v] = '\0';
  if (parse_duration (len_s, &f->stall_len) == -1
      || parse_duration (slash + 1, &f->stall_period) == -1
      || f->stall_len == 0 || f->stall_len >= f->stall_period
      || f->stall_period < STALL_PERIOD_MIN)
    goto bad;
  return 0;
 bad:
  snprintf (err, errlen, "stall:%s: expected stall:LENGTH/PERIOD, two "
            "durations with 0 < LENGTH < PERIOD and PERIOD >= 1ms "
            "(e.g. stall:500ms/10s)", v);
  return -1;
}

/* LBA+COUNT: 0, or -1 (nothing said). */
static int
parse_range (const char *v, struct hdd_fault *f)
{
  const char *plus = strchr (v, '+');
  char lba_s[32];

  if (!plus || (size_t) (plus - v) >= sizeof lba_s)
    return -1;
  memcpy (lba_s, v, (size_t) (plus - v));
  lba_s[plus - v] = '\0';
  if (parse_uint (lba_s, &f->lba) == -1 || parse_uint (plus + 1, &f->count)
      == -1 || f->count == 0 || f->lba + f->count < f->lba)
    return -1;
  return 0;
}

static int
parse_bad (const char *v, struct hdd_fault *f, char *err, size_t errlen)
{
  if (parse_range (v, f) == 0)
    return 0;
  snprintf (err, errlen, "bad:%s: expected bad:LBA+COUNT, 512-byte "
            "sectors, COUNT >= 1 (e.g. bad:1000+8)", v);
  return -1;
}

int
hdd_fault_parse_range (const char *s, struct hdd_fault *f, char *err,
                       size_t errlen)
{
  if (parse_range (s, f) == 0)
    return 0;
  snprintf (err, errlen, "'%s': expected LBA+COUNT, 512-byte sectors, "
            "COUNT >= 1 (e.g. 1000+8)", s);
  return -1;
}

int
hdd_fault_parse (const char *s, struct hdd_fault *f, char *err,
                 size_t errlen)
{
  *f = (struct hdd_fault) { 0 };
  if (strncmp (s, "slow:", 5) == 0) {
    f->kind = HDD_FAULT_SLOW;
    return parse_slow (s + 5, f, err, errlen);
  }
  if (strncmp (s, "stall:", 6) == 0) {
    f->kind = HDD_FAULT_STALL;
    return parse_stall (s + 6, f, err, errlen);
  }
  if (strcmp (s, "recover") == 0) {
    f->kind = HDD_FAULT_RECOVER;
    return 0;
  }
  if (strncmp (s, "bad:", 4) == 0) {
    f->kind = HDD_FAULT_BAD;
    return parse_bad (s + 4, f, err, errlen);
  }
  if (strcmp (s, "bad") == 0) {         /* the sectors come later */
    f->kind = HDD_FAULT_BAD;
    return 0;
  }
  snprintf (err, errlen, "'%s': expected a fault kind: slow:FACTOR, "
            "stall:LENGTH/PERIOD, recover, bad:LBA+COUNT or bad", s);
  return -1;
}

const char *
hdd_fault_format (const struct hdd_fault *f, char *buf, size_t len)
{
  char a[32], b[32];

  switch (f->kind) {
  case HDD_FAULT_SLOW:
    snprintf (buf, len, "slow:%" PRIu64 ".%03" PRIu64, f->slow_milli / 1000,
              f->slow_milli % 1000);
    break;
  case HDD_FAULT_STALL:
    snprintf (buf, len, "stall:%s/%s",
              format_duration (f->stall_len, a, sizeof a),
              format_duration (f->stall_period, b, sizeof b));
    break;
  case HDD_FAULT_RECOVER:
    snprintf (buf, len, "recover");
    break;
  case HDD_FAULT_BAD:
    if (f->count == 0)
      snprintf (buf, len, "bad");
    else
      snprintf (buf, len, "bad:%" PRIu64 "+%" PRIu64, f->lba, f->count);
    break;
  }
  return buf;
}

/* Fault s takes effect at its instant. */
static void
apply (struct faults *fs, const struct fault_slot *s, struct hdd *d,
       bool real)
{
  switch (s->f.kind) {
  case HDD_FAULT_SLOW:
    fs->slow_milli = s->f.slow_milli;
    break;
  case HDD_FAULT_STALL:
    fs->stall_len = s->f.stall_len;
    fs->stall_period = s->f.stall_period;
    fs->stall_origin = s->at;
    break;
  case HDD_FAULT_RECOVER:
    fs->slow_milli = 0;
    fs->stall_len = 0;
    break;
  case HDD_FAULT_BAD:
    /* The map is the drive's, not the estimate's copy's; a "bad"
       whose sectors never came marks none. */
    if (real && s->f.count > 0)
      hdd_fault_mark_bad (d, s->f.lba, s->f.count);
    break;
  }
}

/* The armed, unfired fault due first by t (ties: the first given). */
static struct fault_slot *
next_due (struct faults *fs, uint64_t t)
{
  struct fault_slot *best = NULL;
  unsigned i;

  for (i = 0; i < fs->n; i++) {
    struct fault_slot *s = &fs->slot[i];
    if (!s->fired && s->at <= t && (!best || s->at < best->at))
      best = s;
  }
  return best;
}

void
faults_fire_due (struct faults *fs, uint64_t t, struct hdd *d, bool real)
{
  struct fault_slot *s;

  while ((s = next_due (fs, t)) != NULL) {
    s->fired = true;
    fs->order[fs->nfired++] = (unsigned) (s - fs->slot);
    apply (fs, s, d, real);
  }
}

void
faults_write_served (struct faults *fs, uint64_t done)
{
  unsigned i;

  for (i = 0; i < fs->n; i++) {
    struct fault_slot *s = &fs->slot[i];
    if (!s->fired && s->writes_left > 0 && --s->writes_left == 0)
      s->at = done;
  }
}

/* When work started at 'start' ends, the drive standing still in
 * each stall [origin + k period, + len) on the way.
 */
static uint64_t
through_stalls (const struct faults *fs, uint64_t start, uint64_t work)
{
  uint64_t t = start, len = fs->stall_len, per = fs->stall_period;

  if (t < fs->stall_origin) {           /* not yet: cannot happen once
                                           fired, kept for safety */
    if (t + work <= fs->stall_origin)
      return t + work;
    work -= fs->stall_origin - t;
    t = fs->stall_origin;
  }
  for (;;) {
    uint64_t phase = (t - fs->stall_origin) % per;
    uint64_t next;

    if (phase < len) {                  /* in a stall: wait it out */
      t += len - phase;
      phase = len;
    }
    next = t + (per - phase);           /* the next stall begins */
    if (t + work <= next)
      return t + work;
    work -= next - t;
    t = next;
  }
}

uint64_t
faults_extra (const struct faults *fs, uint64_t start, uint64_t work)
{
  uint64_t slowed = work;

  if (fs->slow_milli)
    slowed = (uint64_t) (((unsigned __int128) work * fs->slow_milli + 500)
                         / 1000);
  if (fs->stall_len)
    return through_stalls (fs, start, slowed) - start - work;
  return slowed - work;
}
