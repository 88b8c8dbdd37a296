/* hddsim: a DiskSim block's keys checked against the table of its
 * module: each key known, of its type and in its bounds, every
 * required one there; and the look-ups the readers of each block
 * share (read_disk.c, read_layout.c, read_mech.c).
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "read.h"

int
read_fail (struct read_ctx *c, struct dsp_where at, const char *fmt, ...)
{
  va_list ap;
  size_t used;

  if (c->failed)
    return -1;
  c->failed = true;
  used = (size_t) snprintf (c->err, c->errlen, "%s:%u: ", at.file, at.line);
  if (used < c->errlen) {
    va_start (ap, fmt);
    vsnprintf (c->err + used, c->errlen - used, fmt, ap);
    va_end (ap);
  }
  return -1;
}

static const struct read_spec *
spec_find (const struct read_spec *t, const char *name)
{
  for (; t->name; t++)
    if (strcmp (t->name, name) == 0)
      return t;
  return NULL;
}

static const char *
kind_name (enum read_kind k)
{
  switch (k) {
  case K_INT: return "an integer";
  case K_NUM: return "a number";
  case K_STR: return "a word";
  case K_LIST: return "a list [ ... ]";
  case K_BLOCK: return "a block";
  case K_IGNORE: return "anything";
  }
  return "?";
}

static bool
kind_ok (enum read_kind k, const struct dsp_value *v)
{
  switch (k) {
  case K_INT: return v->kind == DSP_INT;
  case K_NUM: return v->kind == DSP_INT || v->kind == DSP_FLOAT;
  case K_STR: return v->kind == DSP_STRING;
  case K_LIST: return v->kind == DSP_LIST;
  case K_BLOCK: return v->kind == DSP_BLOCK;
  case K_IGNORE: return true;
  }
  return false;
}

int
read_check_block (struct read_ctx *c, const struct dsp_block *b,
                  const struct read_spec *t, struct ds_drive *d)
{
  const struct read_spec *s;
  size_t i;

  for (i = 0; i < b->n; i++) {
    const struct dsp_param *pa = &b->params[i];
    s = spec_find (t, pa->name);
    if (!s)
      return read_fail (c, pa->at, "'%s': not a parameter of %s",
                        pa->name, b->type);
    if (!kind_ok (s->kind, pa->v))
      return read_fail (c, pa->at, "%s: expected %s, found a %s",
                        pa->name, kind_name (s->kind),
                        dsp_kind_name (pa->v->kind));
    if ((s->kind == K_INT || s->kind == K_NUM)
        && !(pa->v->d >= s->min && pa->v->d <= s->max))
      return read_fail (c, pa->at, "%s = %g: out of range [%g, %g]",
                        pa->name, pa->v->d, s->min, s->max);
    if (s->off != NONE && d) {
      struct ds_key *k = (struct ds_key *) ((char *) d + s->off);
      *k = (struct ds_key) { pa->v->d, pa->at, true };
    }
  }
  for (s = t; s->name; s++)
    if (s->required && !dsp_find (b, s->name))
      return read_fail (c, b->at, "%s %s: the required parameter '%s' is "
                        "missing", b->type, b->name ? b->name : "block",
                        s->name);
  return 0;
}

const struct dsp_value *
read_val (const struct dsp_block *b, const char *name)
{
  const struct dsp_param *p = dsp_find (b, name);

  return p ? p->v : NULL;
}

struct dsp_where
read_where (const struct dsp_block *b, const char *name)
{
  const struct dsp_param *p = dsp_find (b, name);

  return p ? p->at : b->at;
}

const struct dsp_block *
read_sub_block (struct read_ctx *c, const struct dsp_block *b,
                const char *name, const char *type)
{
  const struct dsp_value *v = read_val (b, name);

  if (strcmp (v->b->type, type) != 0) {
    read_fail (c, v->at, "%s = %s: hddsim reads only %s blocks here",
               name, v->b->type, type);
    return NULL;
  }
  return v->b;
}
