/* hddsim: DiskSim 4.0 parameter files (libparam syntax) as a tree.
 *
 * A lexer over a stack of whole files in memory ('source' pushes one)
 * and a recursive-descent parser with two tokens of lookahead.  All
 * nodes live in one arena freed at once.  The first error stops the
 * parse and names the file and line.
 */

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parv.h"

/* ---- arena ---- */

struct dsp_arena {
  struct dsp_arena *next;
  size_t used, cap;
  max_align_t data[];
};

#define ARENA_CHUNK (64 * 1024)

static void *
arena_alloc (struct dsp_arena **a, size_t n)
{
  struct dsp_arena *c = *a;
  size_t align = sizeof (max_align_t);
  void *p;

  n = (n + align - 1) / align * align;
  if (!c || c->cap - c->used < n) {
    size_t cap = n > ARENA_CHUNK ? n : ARENA_CHUNK;
    c = malloc (sizeof *c + cap);
    if (!c)
      return NULL;
    c->next = *a;
    c->used = 0;
    c->cap = cap;
    *a = c;
  }
  p = (char *) c->data + c->used;
  c->used += n;
  memset (p, 0, n);
  return p;
}

static void
arena_free (struct dsp_arena *a)
{
  while (a) {
    struct dsp_arena *next = a->next;
    free (a);
    a = next;
  }
}

/* ---- lexer ---- */

enum tok {
  T_EOF, T_LBRACE, T_RBRACE, T_LBRAK, T_RBRAK, T_COMMA, T_EQUAL,
  T_DOTDOT, T_INT, T_FLOAT, T_STRING, T_BAD,
};

struct token {
  enum tok t;
  struct dsp_where at;
  const char *s;                /* T_STRING (arena), T_BAD: the character */
  int64_t i;
  double d;
};

struct input {
  char *text;                   /* NUL-terminated file contents */
  size_t pos;
  unsigned line;
  const char *path;             /* arena copy */
};

struct parser {
  struct dsp_arena *arena;
  struct input in[DSP_INCLUDE_MAX];
  int depth;                    /* inputs open */
  struct token la[2];           /* lookahead */
  int nla;
  int nest;
  char *err;
  size_t errlen;
  bool failed;
  struct dsp_tree *tree;
};

static void
fail_at (struct parser *p, struct dsp_where at, const char *fmt, ...)
{
  va_list ap;
  size_t used;

  if (p->failed)
    return;
  p->failed = true;
  if (at.line)
    used = (size_t) snprintf (p->err, p->errlen, "%s:%u: ", at.file, at.line);
  else
    used = (size_t) snprintf (p->err, p->errlen, "%s: ", at.file);
  if (used < p->errlen) {
    va_start (ap, fmt);
    vsnprintf (p->err + used, p->errlen - used, fmt, ap);
    va_end (ap);
  }
}

static char *
arena_strndup (struct parser *p, const char *s, size_t n)
{
  char *c = arena_alloc (&p->arena, n + 1);

  if (c) {
    memcpy (c, s, n);
    c[n] = '\0';
  }
  return c;
}

/* Characters a string token may not contain (libparam's class). */
static bool
is_string_char (char c)
{
  return c != '\0' && !strchr (" \t\n\r\f;{},[]:?=", c);
}

static bool
all_digits (const char *s, size_t n, int (*is) (int))
{
  size_t i;

  if (n == 0)
    return false;
  for (i = 0; i < n; i++)
    if (!is ((unsigned char) s[i]))
      return false;
  return true;
}

/* -?[0-9]+\.[0-9]+(e[+-][0-9]+)? */
static bool
is_float_word (const char *s, size_t n)
{
  size_t i = 0, j;

  if (i < n && s[i] == '-')
    i++;
  for (j = i; j < n && isdigit ((unsigned char) s[j]); j++)
    ;
  if (j == i || j == n || s[j] != '.')
    return false;
  i = ++j;
  for (; j < n && isdigit ((unsigned char) s[j]); j++)
    ;
  if (j == i)
    return false;
  if (j == n)
    return true;
  if (s[j] != 'e' || j + 2 >= n || (s[j + 1] != '+' && s[j + 1] != '-'))
    return false;
  return all_digits (s + j + 2, n - j - 2, isdigit);
}

/* Classify one run of string characters as flex's longest match
 * would: a number only if the number pattern covers the whole run.
 */
static void
classify_word (struct parser *p, const char *s, size_t n, struct token *t)
{
  bool neg = n > 0 && s[0] == '-';
  const char *u = s + neg;
  size_t un = n - neg;
  char buf[64];

  if (n == 2 && s[0] == '.' && s[1] == '.') {
    t->t = T_DOTDOT;
    return;
  }
  if (all_digits (u, un, isdigit)
      || (un > 2 && u[0] == '0' && u[1] == 'x'
          && all_digits (u + 2, un - 2, isxdigit))) {
    bool hex = !all_digits (u, un, isdigit);
    char *end;
    if (n >= sizeof buf) {
      fail_at (p, t->at, "integer %.*s out of range", (int) n, s);
      return;
    }
    memcpy (buf, s, n);
    buf[n] = '\0';
    errno = 0;
    t->i = strtoll (buf, &end, hex ? 16 : 10);
    if (errno == ERANGE || *end) {
      fail_at (p, t->at, "integer %s out of range", buf);
      return;
    }
    t->d = (double) t->i;
    t->t = T_INT;
    return;
  }
  if (is_float_word (s, n)) {
    if (n >= sizeof buf) {
      fail_at (p, t->at, "number %.*s too long", (int) n, s);
      return;
    }
    memcpy (buf, s, n);
    buf[n] = '\0';
    t->d = strtod (buf, NULL);
    if (!isfinite (t->d)) {
      fail_at (p, t->at, "number %s out of range", buf);
      return;
    }
    t->t = T_FLOAT;
    return;
  }
  t->t = T_STRING;
  t->s = arena_strndup (p, s, n);
}

static int push_input (struct parser *p, const char *path,
                       struct dsp_where from);

/* Skip blanks, newlines and comments of the current input. */
static void
skip_space (struct input *in)
{
  for (;;) {
    char c = in->text[in->pos];
    if (c == '\n') {
      in->line++;
      in->pos++;
    }
    else if (c == ' ' || c == '\t' || c == '\r' || c == '\f')
      in->pos++;
    else if (c == '#') {
      while (in->text[in->pos] && in->text[in->pos] != '\n')
        in->pos++;
    }
    else
      return;
  }
}

/* 'source FILE': the name is the next run of string characters. */
static void
lex_source (struct parser *p, struct input *in, struct dsp_where at)
{
  size_t start;
  char *name;

  skip_space (in);
  start = in->pos;
  while (is_string_char (in->text[in->pos]))
    in->pos++;
  if (in->pos == start) {
    fail_at (p, at, "'source' without a file name");
    return;
  }
  name = arena_strndup (p, in->text + start, in->pos - start);
  if (name)
    push_input (p, name, at);
}

static void
lex (struct parser *p, struct token *t)
{
  static const char punct[] = "{}[],=";
  static const enum tok punct_tok[] = {
    T_LBRACE, T_RBRACE, T_LBRAK, T_RBRAK, T_COMMA, T_EQUAL,
  };

  for (;;) {
    struct input *in;
    const char *c;
    size_t start;

    memset (t, 0, sizeof *t);
    if (p->failed) {
      t->t = T_BAD;
      return;
    }
    in = &p->in[p->depth - 1];
    skip_space (in);
    t->at = (struct dsp_where) { in->path, in->line };
    if (in->text[in->pos] == '\0') {
      if (p->depth == 1) {      /* the end, where the top file ends */
        t->t = T_EOF;
        return;
      }
      /* End of an included file: back to the includer. */
      free (in->text);
      in->text = NULL;
      p->depth--;
      continue;
    }
    c = strchr (punct, in->text[in->pos]);
    if (c) {
      in->pos++;
      t->t = punct_tok[c - punct];
      return;
    }
    if (!is_string_char (in->text[in->pos])) {
      fail_at (p, t->at, "unexpected '%c'", in->text[in->pos]);
      t->t = T_BAD;
      return;
    }
    start = in->pos;
    while (is_string_char (in->text[in->pos]))
      in->pos++;
    if (in->pos - start == 6 && memcmp (in->text + start, "source", 6) == 0) {
      lex_source (p, in, t->at);
      continue;
    }
    classify_word (p, in->text + start, in->pos - start, t);
    if (p->failed)
      t->t = T_BAD;
    return;
  }
}

/* Read a whole file, refusing huge ones and NUL bytes. */
static char *
read_file (struct parser *p, const char *path, struct dsp_where from)
{
  FILE *fp = fopen (path, "r");
  char *buf = NULL;
  size_t n = 0, cap = 0;

  if (!fp) {
    fail_at (p, from, "cannot open %s: %s", path, strerror (errno));
    return NULL;
  }
  for (;;) {
    if (n == cap) {
      char *nb;
      cap = cap ? 2 * cap : 8192;
      if (cap > DSP_FILE_MAX + 1)
        cap = DSP_FILE_MAX + 1;
      nb = n == cap ? NULL : realloc (buf, cap + 1);
      if (!nb) {
        fail_at (p, from, "%s: %s", path, n == cap
                 ? "larger than 16 MiB, not a parameter file"
                 : "out of memory");
        fclose (fp);
        free (buf);
        return NULL;
      }
      buf = nb;
    }
    size_t got = fread (buf + n, 1, cap - n, fp);
    n += got;
    if (got == 0)
      break;
  }
  if (ferror (fp)) {
    fail_at (p, from, "%s: %s", path, strerror (errno));
    fclose (fp);
    free (buf);
    return NULL;
  }
  fclose (fp);
  buf[n] = '\0';
  if (strlen (buf) != n) {
    fail_at (p, (struct dsp_where) { path, 1 }, "NUL byte: not a text file");
    free (buf);
    return NULL;
  }
  return buf;
}

/* The path of an included file: relative to the includer's directory. */
static char *
include_path (struct parser *p, const char *name)
{
  const char *dir_end;
  const char *from;
  char *path;
  size_t dlen;

  if (name[0] == '/' || p->depth == 0)
    return arena_strndup (p, name, strlen (name));
  from = p->in[p->depth - 1].path;
  dir_end = strrchr (from, '/');
  if (!dir_end)
    return arena_strndup (p, name, strlen (name));
  dlen = (size_t) (dir_end - from) + 1;
  path = arena_alloc (&p->arena, dlen + strlen (name) + 1);
  if (path) {
    memcpy (path, from, dlen);
    strcpy (path + dlen, name);
  }
  return path;
}

static int
push_input (struct parser *p, const char *name, struct dsp_where from)
{
  char *path = include_path (p, name);
  struct input *in;
  int i;

  if (!path) {
    fail_at (p, from, "out of memory");
    return -1;
  }
  if (p->depth == DSP_INCLUDE_MAX) {
    fail_at (p, from, "source %s: more than %d files deep (an include "
             "cycle?)", name, DSP_INCLUDE_MAX);
    return -1;
  }
  for (i = 0; i < p->depth; i++)
    if (strcmp (p->in[i].path, path) == 0) {
      fail_at (p, from, "source %s: a cycle (%s is already being read)",
               name, path);
      return -1;
    }
  in = &p->in[p->depth];
  in->text = read_file (p, path, from);
  if (!in->text)
    return -1;
  in->pos = 0;
  in->line = 1;
  in->path = path;
  p->depth++;
  return 0;
}

/* ---- parser ---- */

static struct token *
peek (struct parser *p, int k)
{
  while (p->nla <= k)
    lex (p, &p->la[p->nla++]);
  return &p->la[k];
}

static struct token
next (struct parser *p)
{
  struct token t = *peek (p, 0);

  p->la[0] = p->la[1];
  p->nla--;
  return t;
}

static const char *
tok_desc (const struct token *t)
{
  switch (t->t) {
  case T_EOF: return "end of file";
  case T_LBRACE: return "'{'";
  case T_RBRACE: return "'}'";
  case T_LBRAK: return "'['";
  case T_RBRAK: return "']'";
  case T_COMMA: return "','";
  case T_EQUAL: return "'='";
  case T_DOTDOT: return "'..'";
  case T_INT: return "an integer";
  case T_FLOAT: return "a number";
  case T_STRING: return "a word";
  case T_BAD: return "a bad token";
  }
  return "?";
}

static bool
expect (struct parser *p, enum tok want, const char *what)
{
  struct token t = next (p);

  if (t.t == want)
    return true;
  if (t.t == T_STRING)
    fail_at (p, t.at, "expected %s, found '%s'", what, t.s);
  else
    fail_at (p, t.at, "expected %s, found %s", what, tok_desc (&t));
  return false;
}

/* A growable array in the arena (old copies are simply left there). */
static void *
grow (struct parser *p, void *v, size_t n, size_t *cap, size_t size)
{
  void *nv;

  if (n < *cap)
    return v;
  *cap = *cap ? 2 * *cap : 8;
  nv = arena_alloc (&p->arena, *cap * size);
  if (!nv)
    return NULL;
  if (n)
    memcpy (nv, v, n * size);
  return nv;
}

static struct dsp_value *
new_value (struct parser *p, enum dsp_kind k, struct dsp_where at)
{
  struct dsp_value *v = arena_alloc (&p->arena, sizeof *v);

  if (!v) {
    fail_at (p, at, "out of memory");
    return NULL;
  }
  v->kind = k;
  v->at = at;
  return v;
}

static struct dsp_value *parse_value (struct parser *p);
static struct dsp_value *parse_list (struct parser *p);
static bool parse_params (struct parser *p, struct dsp_block *b);

/* Adding to a list: fails on out-of-memory. */
static bool
list_add (struct parser *p, struct dsp_value *l, size_t *cap,
          struct dsp_value *item)
{
  l->items = grow (p, l->items, l->n, cap, sizeof *l->items);
  if (!l->items) {
    fail_at (p, l->at, "out of memory");
    return false;
  }
  l->items[l->n++] = item;
  return true;
}

/* "disk0 .. disk5": the same stem, a number range. */
static bool
expand_range (struct parser *p, struct dsp_value *l, size_t *cap,
              struct token a, struct token b)
{
  size_t la = strlen (a.s), lb = strlen (b.s), sa = la, sb = lb;
  long lo, hi, i;

  while (sa > 0 && isdigit ((unsigned char) a.s[sa - 1]))
    sa--;
  while (sb > 0 && isdigit ((unsigned char) b.s[sb - 1]))
    sb--;
  if (sa == la || sb == lb || sa != sb || memcmp (a.s, b.s, sa) != 0
      || la - sa > 9 || lb - sb > 9) {
    fail_at (p, a.at, "bad range %s .. %s (expected NAME<i> .. NAME<j>)",
             a.s, b.s);
    return false;
  }
  lo = atol (a.s + sa);
  hi = atol (b.s + sb);
  if (hi < lo || hi - lo >= DSP_RANGE_MAX) {
    fail_at (p, a.at, "bad range %s .. %s (1 to %d names, ascending)",
             a.s, b.s, DSP_RANGE_MAX);
    return false;
  }
  for (i = lo; i <= hi; i++) {
    struct dsp_value *v = new_value (p, DSP_STRING, a.at);
    char *s = v ? arena_alloc (&p->arena, sa + 12) : NULL;
    if (!s)
      return false;
    snprintf (s, sa + 12, "%.*s%ld", (int) sa, a.s, i);
    v->s = s;
    if (!list_add (p, l, cap, v))
      return false;
  }
  return true;
}

static struct dsp_value *
parse_list (struct parser *p)
{
  struct token open = next (p);         /* the '[' */
  struct dsp_value *l = new_value (p, DSP_LIST, open.at);
  size_t cap = 0;

  if (!l)
    return NULL;
  if (peek (p, 0)->t == T_RBRAK) {
    next (p);
    return l;
  }
  for (;;) {
    if (peek (p, 0)->t == T_STRING && peek (p, 1)->t == T_DOTDOT) {
      struct token a = next (p), b;
      next (p);
      b = next (p);
      if (b.t != T_STRING) {
        fail_at (p, b.at, "expected a name after '..', found %s",
                 tok_desc (&b));
        return NULL;
      }
      if (!expand_range (p, l, &cap, a, b))
        return NULL;
    }
    else {
      struct dsp_value *v = parse_value (p);
      if (!v || !list_add (p, l, &cap, v))
        return NULL;
    }
    if (peek (p, 0)->t == T_RBRAK) {
      next (p);
      return l;
    }
    if (!expect (p, T_COMMA, "',' or ']'"))
      return NULL;
  }
}

static struct dsp_block *
parse_block_body (struct parser *p, const char *type, const char *name,
                  struct dsp_where at)
{
  struct dsp_block *b = arena_alloc (&p->arena, sizeof *b);

  if (!b) {
    fail_at (p, at, "out of memory");
    return NULL;
  }
  b->type = type;
  b->name = name;
  b->at = at;
  next (p);                     /* the '{' */
  if (!parse_params (p, b) || !expect (p, T_RBRACE, "',' or '}'"))
    return NULL;
  return b;
}

/* A value starting with a word: a string, a block or a topology entry. */
static struct dsp_value *
parse_word_value (struct parser *p)
{
  struct token w = next (p);
  struct dsp_value *v;
  enum tok t1 = peek (p, 0)->t;

  if (t1 == T_LBRACE) {
    v = new_value (p, DSP_BLOCK, w.at);
    if (v)
      v->b = parse_block_body (p, w.s, NULL, w.at);
    return v && v->b ? v : NULL;
  }
  if (t1 == T_STRING && (peek (p, 1)->t == T_LBRACE
                         || peek (p, 1)->t == T_LBRAK)) {
    struct token name = next (p);
    if (peek (p, 0)->t == T_LBRACE) {
      v = new_value (p, DSP_BLOCK, w.at);
      if (v)
        v->b = parse_block_body (p, w.s, name.s, w.at);
      return v && v->b ? v : NULL;
    }
    v = new_value (p, DSP_TOPO, w.at);
    if (v) {
      struct dsp_value *l = parse_list (p);
      if (!l)
        return NULL;
      v->s = w.s;
      v->name = name.s;
      v->items = l->items;
      v->n = l->n;
    }
    return v;
  }
  v = new_value (p, DSP_STRING, w.at);
  if (v)
    v->s = w.s;
  return v;
}

static struct dsp_value *
parse_value (struct parser *p)
{
  struct token *t = peek (p, 0);
  struct dsp_value *v = NULL;

  if (++p->nest > DSP_NEST_MAX) {
    fail_at (p, t->at, "blocks and lists nested more than %d deep",
             DSP_NEST_MAX);
    return NULL;
  }
  switch (t->t) {
  case T_INT:
  case T_FLOAT: {
    struct token n = next (p);
    v = new_value (p, n.t == T_INT ? DSP_INT : DSP_FLOAT, n.at);
    if (v) {
      v->i = n.i;
      v->d = n.d;
    }
    break;
  }
  case T_STRING:
    v = parse_word_value (p);
    break;
  case T_LBRAK:
    v = parse_list (p);
    break;
  default:
    expect (p, T_STRING, "a value");
  }
  p->nest--;
  return v;
}

static bool
add_param (struct parser *p, struct dsp_block *b, size_t *cap,
           const char *name, struct dsp_where at, struct dsp_value *v)
{
  size_t i;

  for (i = 0; i < b->n; i++)
    if (strcmp (b->params[i].name, name) == 0) {
      fail_at (p, at, "'%s' set twice in this block (first at line %u)",
               name, b->params[i].at.line);
      return false;
    }
  b->params = grow (p, b->params, b->n, cap, sizeof *b->params);
  if (!b->params) {
    fail_at (p, at, "out of memory");
    return false;
  }
  b->params[b->n++] = (struct dsp_param) { name, at, v };
  return true;
}

/* NAME WORDS = VALUE, or [ NAME, NAME ] = VALUE. */
static bool
parse_param (struct parser *p, struct dsp_block *b, size_t *cap)
{
  struct token first = *peek (p, 0);
  struct dsp_value *names = NULL, *v;
  char *name = NULL;
  size_t len = 0, i;

  if (first.t == T_LBRAK) {
    names = parse_list (p);
    if (!names)
      return false;
    for (i = 0; i < names->n; i++)
      if (names->items[i]->kind != DSP_STRING) {
        fail_at (p, names->items[i]->at, "a list of names before '=' "
                 "holds names only (found %s)",
                 dsp_kind_name (names->items[i]->kind));
        return false;
      }
  }
  else {
    if (first.t != T_STRING) {
      expect (p, T_STRING, "a parameter name");
      return false;
    }
    while (peek (p, 0)->t == T_STRING) {
      struct token w = next (p);
      size_t wl = strlen (w.s);
      char *nn = arena_alloc (&p->arena, len + wl + 2);
      if (!nn) {
        fail_at (p, w.at, "out of memory");
        return false;
      }
      if (len) {
        memcpy (nn, name, len);
        nn[len++] = ' ';
      }
      memcpy (nn + len, w.s, wl + 1);
      len += wl;
      name = nn;
    }
  }
  if (!expect (p, T_EQUAL, "'=' after the parameter name"))
    return false;
  v = parse_value (p);
  if (!v)
    return false;
  if (!names)
    return add_param (p, b, cap, name, first.at, v);
  for (i = 0; i < names->n; i++)
    if (!add_param (p, b, cap, names->items[i]->s, first.at, v))
      return false;
  return true;
}

static bool
parse_params (struct parser *p, struct dsp_block *b)
{
  size_t cap = 0;

  if (peek (p, 0)->t == T_RBRACE)
    return true;
  for (;;) {
    if (!parse_param (p, b, &cap))
      return false;
    if (peek (p, 0)->t != T_COMMA)
      return !p->failed;
    next (p);
  }
}

/* ---- top level ---- */

static struct dsp_top *
new_top (struct parser *p, size_t *cap, enum dsp_top_kind k,
         struct dsp_where at)
{
  struct dsp_tree *t = p->tree;
  struct dsp_top *top;

  t->tops = grow (p, t->tops, t->n, cap, sizeof *t->tops);
  if (!t->tops) {
    fail_at (p, at, "out of memory");
    return NULL;
  }
  top = &t->tops[t->n++];
  top->kind = k;
  top->at = at;
  return top;
}

/* A named top-level block other than 'self'. */
static const struct dsp_block *
find_named_block (const struct dsp_tree *t, const char *name,
                  const struct dsp_block *self)
{
  size_t i;

  for (i = 0; i < t->n; i++)
    if (t->tops[i].kind == DSP_TOP_BLOCK && t->tops[i].b != self
        && t->tops[i].b && t->tops[i].b->name
        && strcmp (t->tops[i].b->name, name) == 0)
      return t->tops[i].b;
  return NULL;
}

/* libparam's subtypes: "PARENT NAME { ... }" where PARENT is a block
 * defined before takes PARENT's type and every parameter of PARENT
 * that it does not set itself.
 */
static bool
define_block (struct parser *p, struct dsp_block *b)
{
  const struct dsp_block *old = find_named_block (p->tree, b->name, b);
  const struct dsp_block *parent = find_named_block (p->tree, b->type, b);
  size_t i, cap = b->n;

  if (old) {
    fail_at (p, b->at, "block %s defined again (first at %s:%u)", b->name,
             old->at.file, old->at.line);
    return false;
  }
  if (!parent)
    return true;
  b->type = parent->type;
  for (i = 0; i < parent->n; i++)
    if (!dsp_find (b, parent->params[i].name)
        && !add_param (p, b, &cap, parent->params[i].name,
                       parent->params[i].at, parent->params[i].v))
      return false;
  return true;
}

static bool
parse_top (struct parser *p, size_t *cap)
{
  struct token w = *peek (p, 0);
  struct dsp_top *top;

  if (w.t != T_STRING) {
    expect (p, T_STRING, "a block, 'instantiate' or 'topology'");
    return false;
  }
  if (strcmp (w.s, "instantiate") == 0) {
    next (p);
    if (peek (p, 0)->t != T_LBRAK) {
      expect (p, T_LBRAK, "'[' (the names to instantiate)");
      return false;
    }
    top = new_top (p, cap, DSP_TOP_INSTANTIATE, w.at);
    if (!top || !(top->names = parse_list (p)))
      return false;
    struct token as = next (p), name;
    if (as.t != T_STRING || strcmp (as.s, "as") != 0) {
      fail_at (p, as.at, "expected 'as' after the instantiate list");
      return false;
    }
    name = next (p);
    if (name.t != T_STRING) {
      fail_at (p, name.at, "expected a block name after 'as'");
      return false;
    }
    top->as = name.s;
    return true;
  }
  if (strcmp (w.s, "topology") == 0) {
    next (p);
    top = new_top (p, cap, DSP_TOP_TOPOLOGY, w.at);
    if (!top)
      return false;
    if (peek (p, 0)->t != T_STRING || peek (p, 1)->t != T_STRING
        || (top->topo = parse_value (p)) == NULL
        || top->topo->kind != DSP_TOPO) {
      fail_at (p, w.at, "expected 'topology TYPE NAME [ ... ]'");
      return false;
    }
    return true;
  }
  next (p);
  if (peek (p, 0)->t != T_STRING || peek (p, 1)->t != T_LBRACE) {
    fail_at (p, w.at, "expected a block 'TYPE NAME { ... }' at top level, "
             "found '%s'", w.s);
    return false;
  }
  struct token name = next (p);
  top = new_top (p, cap, DSP_TOP_BLOCK, w.at);
  if (!top || !(top->b = parse_block_body (p, w.s, name.s, w.at)))
    return false;
  return define_block (p, top->b);
}

struct dsp_tree *
dsp_parse_file (const char *path, char *err, size_t errlen)
{
  struct parser p = { .err = err, .errlen = errlen };
  struct dsp_where from = { path, 0 };
  size_t cap = 0;
  int i;

  p.tree = arena_alloc (&p.arena, sizeof *p.tree);
  if (!p.tree) {
    snprintf (err, errlen, "%s: out of memory", path);
    return NULL;
  }
  p.tree->arena = NULL;
  if (push_input (&p, path, from) == 0) {
    p.tree->path = p.in[0].path;
    while (!p.failed && peek (&p, 0)->t != T_EOF)
      if (!parse_top (&p, &cap))
        break;
  }
  for (i = 0; i < p.depth; i++)
    free (p.in[i].text);
  if (p.failed) {
    arena_free (p.arena);
    return NULL;
  }
  p.tree->arena = p.arena;
  return p.tree;
}

void
dsp_free (struct dsp_tree *t)
{
  if (t)
    arena_free (t->arena);
}

const struct dsp_param *
dsp_find (const struct dsp_block *b, const char *name)
{
  size_t i;

  for (i = 0; i < b->n; i++)
    if (strcmp (b->params[i].name, name) == 0)
      return &b->params[i];
  return NULL;
}

const char *
dsp_kind_name (enum dsp_kind k)
{
  switch (k) {
  case DSP_INT: return "integer";
  case DSP_FLOAT: return "number";
  case DSP_STRING: return "string";
  case DSP_LIST: return "list";
  case DSP_BLOCK: return "block";
  case DSP_TOPO: return "topology entry";
  }
  return "?";
}
