/* hddsim: DiskSim's dm_mech_g1 block: the access time type, the
 * rotation, head switch and write settle, and the seek type with the
 * keys it needs (mech_g1.h: struct ds_seek).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read.h"

#define HDD_ERRLEN_DS 512

static const struct read_spec mech_specs[] = {
  { "Access time type", K_STR, true, 0, 0, NONE },
  { "Constant access time", K_NUM, false, 0, MS, NONE },
  { "Seek type", K_STR, true, 0, 0, NONE },
  { "Average seek time", K_NUM, false, 0, MS, NONE },
  { "Constant seek time", K_NUM, false, 0, MS, NONE },
  { "Single cylinder seek time", K_NUM, false, 0, MS, NONE },
  { "Full strobe seek time", K_NUM, false, 0, MS, NONE },
  { "Full seek curve", K_STR, false, 0, 0, NONE },
  { "Add. write settling delay", K_NUM, true, -MS, MS, KEY (write_settle) },
  { "Head switch time", K_NUM, true, 0, MS, KEY (head_switch) },
  { "Rotation speed (in rpms)", K_INT, true, 1, 1e6, KEY (rpm) },
  { "Percent error in rpms", K_NUM, true, 0, 100, KEY (rpm_error) },
  { "First ten seek times", K_LIST, false, 0, 0, NONE },
  { "HPL seek equation values", K_LIST, false, 0, 0, NONE },
  { NULL },
};

static const char *const seek_names[] = {
  "constant", "linear", "curve", "hpl", "hplplus10", "extracted", NULL,
};

/* A path named in a file: relative to that file's directory. */
static char *
relative_path (const char *from, const char *name)
{
  const char *slash = strrchr (from, '/');
  size_t dlen = slash && name[0] != '/' ? (size_t) (slash - from) + 1 : 0;
  char *p = malloc (dlen + strlen (name) + 1);

  if (p) {
    memcpy (p, from, dlen);
    strcpy (p + dlen, name);
  }
  return p;
}

static int
num_list (struct read_ctx *c, const struct dsp_block *b, const char *name,
          double *out, size_t n)
{
  const struct dsp_value *l = read_val (b, name);
  size_t i;

  if (!l)
    return read_fail (c, read_where (b, "Seek type"),
                      "this seek type needs '%s'", name);
  if (l->n != n)
    return read_fail (c, l->at, "%s: %zu values, expected %zu", name, l->n, n);
  for (i = 0; i < n; i++) {
    const struct dsp_value *v = l->items[i];
    if (v->kind != DSP_INT && v->kind != DSP_FLOAT)
      return read_fail (c, v->at, "%s: expected numbers", name);
    out[i] = v->d;
  }
  return 0;
}

static int
need_num (struct read_ctx *c, const struct dsp_block *b, const char *name,
          double *out)
{
  const struct dsp_value *v = read_val (b, name);

  if (!v)
    return read_fail (c, read_where (b, "Seek type"),
                      "this seek type needs '%s'", name);
  *out = v->d;
  return 0;
}

/* HPL: V1 a non-negative integer (cylinders), V2..V5 non-negative,
 * V6 non-negative or -1 (the manual, section 1.5.2).
 */
static int
check_hpl (struct read_ctx *c, const struct dsp_block *b, const double v[6])
{
  const struct dsp_value *l = read_val (b, "HPL seek equation values");
  int i;

  if (l->items[0]->kind != DSP_INT || v[0] < 0)
    return read_fail (c, l->at, "HPL seek equation values: V1 must be a "
                      "non-negative integer (cylinders)");
  for (i = 1; i < 5; i++)
    if (v[i] < 0 || v[i] > MS)
      return read_fail (c, l->at, "HPL seek equation values: V%d = %g must be "
                        "0 to %g ms", i + 1, v[i], MS);
  if (v[5] != -1 && (v[5] < 0 || v[5] > MS))
    return read_fail (c, l->at, "HPL seek equation values: V6 = %g must be "
                      "0 to %g ms, or -1", v[5], MS);
  return 0;
}

static int
load_seek (struct read_ctx *c, struct ds_drive *d, const struct dsp_block *b)
{
  struct ds_seek *s = &d->seek;
  const struct dsp_value *t = read_val (b, "Seek type");
  int i;

  s->at = t->at;
  s->cylinders = d->layout.cylinders;
  for (i = 0; seek_names[i]; i++)
    if (strcmp (t->s, seek_names[i]) == 0)
      break;
  if (!seek_names[i])
    return read_fail (c, t->at, "Seek type = %s: expected constant, linear, "
                      "curve, hpl, hplplus10 or extracted", t->s);
  s->type = i;
  switch (s->type) {
  case DS_SEEK_CONSTANT:
    return need_num (c, b, "Constant seek time", &s->constant);
  case DS_SEEK_LINEAR:
    return read_fail (c, t->at, "Seek type = linear: the manual does not say "
                      "at which distances its three points lie; use curve, "
                      "hpl or extracted");
  case DS_SEEK_CURVE:
    if (need_num (c, b, "Single cylinder seek time", &s->one) == -1
        || need_num (c, b, "Average seek time", &s->avg) == -1
        || need_num (c, b, "Full strobe seek time", &s->full) == -1)
      return -1;
    return 0;
  case DS_SEEK_HPLPLUS10:
    if (num_list (c, b, "First ten seek times", s->first10, 10) == -1)
      return -1;
    for (i = 0; i < 10; i++)
      if (s->first10[i] < 0 || s->first10[i] > MS)
        return read_fail (c, read_where (b, "First ten seek times"),
                          "First ten seek times: %g is not 0 to %g ms",
                          s->first10[i], MS);
    /* fall through */
  case DS_SEEK_HPL:
    if (num_list (c, b, "HPL seek equation values", s->hpl, 6) == -1)
      return -1;
    return check_hpl (c, b, s->hpl);
  default: {                    /* DS_SEEK_EXTRACTED */
    const struct dsp_value *f = read_val (b, "Full seek curve");
    char *path;
    int r;
    if (!f)
      return read_fail (c, t->at, "Seek type = extracted needs 'Full seek "
                        "curve'");
    path = relative_path (f->at.file, f->s);
    if (!path)
      return read_fail (c, f->at, "out of memory");
    r = ds_seek_read_curve (s, path, c->err, c->errlen);
    free (path);
    if (r == -1) {
      char why[HDD_ERRLEN_DS];
      snprintf (why, sizeof why, "%s", c->err);
      return read_fail (c, f->at, "Full seek curve = %s: %s", f->s, why);
    }
    return r;
  }
  }
}

int
read_mech (struct read_ctx *c, struct ds_drive *d, const struct dsp_block *b)
{
  const struct dsp_value *a = read_val (b, "Access time type");

  if (read_check_block (c, b, mech_specs, d) == -1)
    return -1;
  d->access_type.at = a->at;
  d->access_type.set = true;
  if (strcmp (a->s, "trackSwitchPlusRotation") == 0)
    d->access_type.v = 0;
  else if (strcmp (a->s, "averageRotation") == 0)
    d->access_type.v = 1;
  else if (strcmp (a->s, "constant") == 0)
    d->access_type.v = 2;
  else
    return read_fail (c, a->at, "Access time type = %s: expected constant, "
                      "averageRotation or trackSwitchPlusRotation", a->s);
  return load_seek (c, d, b);
}
