/* hddsim: DiskSim 4.0 parameter files (libparam syntax) as a tree.
 *
 * The syntax, as DiskSim's manual (chapter 3) and its libparam define
 * it:
 *
 *   file      := { toplevel }
 *   toplevel  := TYPE NAME '{' params '}'              a block
 *              | 'instantiate' list 'as' NAME          an instantiation
 *              | 'topology' TYPE NAME list             a topology
 *   params    := [ param { ',' param } ]
 *   param     := WORD { WORD } '=' value               (names have spaces)
 *              | list '=' value                        (several names)
 *   value     := INT | FLOAT | STRING | list
 *              | TYPE '{' params '}'                   an anonymous block
 *              | TYPE NAME '{' params '}'              a named block
 *              | TYPE NAME list                        a topology entry
 *   list      := '[' [ item { ',' item } ] ']'
 *   item      := value | WORD '..' WORD                (disk0 .. disk5)
 *
 * Integers are decimal or 0x hexadecimal, optionally negative; floats
 * are DIGITS.DIGITS with an optional e+NN/e-NN exponent; anything else
 * that is one run of characters other than blanks and ;{},[]:?= is a
 * string.  '#' at the start of a token comments out the rest of the
 * line.  'source FILE' anywhere includes FILE's tokens (a path
 * relative to the directory of the including file), up to
 * DSP_INCLUDE_MAX files deep.
 */
#ifndef HDDSIM_DISKSIM_PARV_H
#define HDDSIM_DISKSIM_PARV_H

#include <stddef.h>
#include <stdint.h>

#define DSP_INCLUDE_MAX 32              /* libparam's limit */
#define DSP_NEST_MAX 64                 /* blocks and lists inside each other */
#define DSP_FILE_MAX (16 << 20)         /* bytes per file */
#define DSP_RANGE_MAX 4096              /* names in one 'a0 .. aN' range */

enum dsp_kind {
  DSP_INT,
  DSP_FLOAT,
  DSP_STRING,
  DSP_LIST,
  DSP_BLOCK,
  DSP_TOPO,                     /* TYPE NAME [ children ] */
};

struct dsp_block;

/* Where something was read: the file as opened (include paths are
 * resolved) and its line, from 1.
 */
struct dsp_where {
  const char *file;
  unsigned line;
};

struct dsp_value {
  enum dsp_kind kind;
  struct dsp_where at;
  int64_t i;                    /* DSP_INT */
  double d;                     /* DSP_FLOAT; DSP_INT too, converted */
  const char *s;                /* DSP_STRING; DSP_TOPO: the type */
  const char *name;             /* DSP_TOPO: the name */
  struct dsp_value **items;     /* DSP_LIST, DSP_TOPO: children */
  size_t n;
  struct dsp_block *b;          /* DSP_BLOCK */
};

struct dsp_param {
  const char *name;             /* words joined by single spaces */
  struct dsp_where at;
  struct dsp_value *v;
};

struct dsp_block {
  const char *type;
  const char *name;             /* NULL for an anonymous block */
  struct dsp_where at;
  struct dsp_param *params;
  size_t n;
};

enum dsp_top_kind { DSP_TOP_BLOCK, DSP_TOP_INSTANTIATE, DSP_TOP_TOPOLOGY };

struct dsp_top {
  enum dsp_top_kind kind;
  struct dsp_where at;
  struct dsp_block *b;          /* DSP_TOP_BLOCK */
  struct dsp_value *names;      /* DSP_TOP_INSTANTIATE: a list of strings */
  const char *as;               /* DSP_TOP_INSTANTIATE: the block's name */
  struct dsp_value *topo;       /* DSP_TOP_TOPOLOGY: a DSP_TOPO value */
};

struct dsp_tree {
  struct dsp_top *tops;
  size_t n;
  const char *path;             /* the file given to dsp_parse_file */
  struct dsp_arena *arena;      /* owns everything above */
};

/* Parse a file and everything it sources.  NULL and err on error:
 * "FILE:LINE: what is wrong" for a malformed file.
 */
extern struct dsp_tree *dsp_parse_file (const char *path, char *err,
                                        size_t errlen);
extern void dsp_free (struct dsp_tree *);

/* The parameter of b called name (a name appears once), or NULL. */
extern const struct dsp_param *dsp_find (const struct dsp_block *b,
                                         const char *name);

extern const char *dsp_kind_name (enum dsp_kind);

#endif /* HDDSIM_DISKSIM_PARV_H */
