/* hddsim: unit tests of the DiskSim parameter-file parser
 * (disksim/parv.c): every syntax element, and every malformed
 * file giving an error that names the file and the line.  Inputs are
 * tiny files written by the tests; the expected trees and lines are
 * read off those inputs by hand.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "../../disksim/parv.h"
#include "run-suite.h"

static char tmpdir[] = "/tmp/hddsim-test-parv-XXXXXX";
static char path_buf[512];

static const char *
put (const char *name, const char *text)
{
  FILE *fp;

  snprintf (path_buf, sizeof path_buf, "%s/%s", tmpdir, name);
  fp = fopen (path_buf, "w");
  ck_assert_ptr_nonnull (fp);
  fputs (text, fp);
  fclose (fp);
  return path_buf;
}

static struct dsp_tree *
parse_ok (const char *name, const char *text)
{
  char err[512];
  struct dsp_tree *t = dsp_parse_file (put (name, text), err, sizeof err);

  ck_assert_msg (t != NULL, "%s", err);
  return t;
}

/* The error names FILE:LINE (FILE relative to tmpdir) and says what. */
static void
parse_fails (const char *name, const char *text, const char *where,
             const char *what)
{
  char err[512], want[600];
  struct dsp_tree *t = dsp_parse_file (put (name, text), err, sizeof err);

  ck_assert_msg (t == NULL, "%s parsed", name);
  snprintf (want, sizeof want, "%s/%s: ", tmpdir, where);
  ck_assert_msg (strncmp (err, want, strlen (want)) == 0,
                 "error '%s' does not start with '%s'", err, want);
  ck_assert_msg (strstr (err, what) != NULL, "error '%s' lacks '%s'", err,
                 what);
}

static const struct dsp_value *
get (const struct dsp_block *b, const char *name)
{
  const struct dsp_param *p = dsp_find (b, name);

  ck_assert_msg (p != NULL, "no '%s'", name);
  return p->v;
}

static void
setup (void)
{
  ck_assert_ptr_nonnull (mkdtemp (tmpdir));
}

static void
teardown (void)
{
  char cmd[600];

  snprintf (cmd, sizeof cmd, "rm -rf %s", tmpdir);
  ck_assert_int_eq (system (cmd), 0);
  strcpy (tmpdir, "/tmp/hddsim-test-parv-XXXXXX");
}

START_TEST (test_values)
{
  struct dsp_tree *t = parse_ok ("v.parv",
    "# a comment line\n"
    "disksim_disk D {   # a comment after tokens\n"
    "  Int = 42,\n"
    "  Neg = -7,\n"
    "  Hex = 0x1F,\n"
    "  Float = 0.125,\n"
    "  Negfloat = -0.642000,\n"
    "  Exp = 1.5e+3,\n"
    "  Word = trackSwitchPlusRotation,\n"
    "  File = barracuda.seek,\n"
    "  Not a number = 1.0e5,\n"
    "  Hash = a#b,\n"
    "  Add. write settling delay = 0.5,\n"
    "  Segment size (in blks) = 281\n"
    "}\n");
  const struct dsp_block *b;

  ck_assert_uint_eq (t->n, 1);
  ck_assert_int_eq (t->tops[0].kind, DSP_TOP_BLOCK);
  b = t->tops[0].b;
  ck_assert_str_eq (b->type, "disksim_disk");
  ck_assert_str_eq (b->name, "D");
  ck_assert_uint_eq (b->at.line, 2);
  ck_assert_uint_eq (b->n, 12);
  ck_assert_int_eq (get (b, "Int")->kind, DSP_INT);
  ck_assert_int_eq (get (b, "Int")->i, 42);
  ck_assert_int_eq (get (b, "Neg")->i, -7);
  ck_assert_int_eq (get (b, "Hex")->kind, DSP_INT);
  ck_assert_int_eq (get (b, "Hex")->i, 31);
  ck_assert_int_eq (get (b, "Float")->kind, DSP_FLOAT);
  ck_assert_double_eq (get (b, "Float")->d, 0.125);
  ck_assert_double_eq (get (b, "Negfloat")->d, -0.642);
  ck_assert_double_eq (get (b, "Exp")->d, 1500);
  ck_assert_str_eq (get (b, "Word")->s, "trackSwitchPlusRotation");
  ck_assert_str_eq (get (b, "File")->s, "barracuda.seek");
  /* libparam's float needs e+ or e-: "1.0e5" is a word. */
  ck_assert_int_eq (get (b, "Not a number")->kind, DSP_STRING);
  ck_assert_str_eq (get (b, "Hash")->s, "a#b");
  ck_assert_double_eq (get (b, "Add. write settling delay")->d, 0.5);
  ck_assert_int_eq (get (b, "Segment size (in blks)")->i, 281);
  ck_assert_uint_eq (dsp_find (b, "Segment size (in blks)")->at.line, 14);
  ck_assert_ptr_null (dsp_find (b, "Segment size"));
  /* Names: words joined by one space, however they were spaced. */
  dsp_free (t);
  t = parse_ok ("w.parv", "T N {  Two \t  words = 1 }\n");
  ck_assert_int_eq (get (t->tops[0].b, "Two words")->i, 1);
  dsp_free (t);
}
END_TEST

START_TEST (test_lists_and_blocks)
{
  struct dsp_tree *t = parse_ok ("l.parv",
    "T N {\n"
    "  Empty = [],\n"
    "  Nums = [ 1, 2.5, x ],\n"
    "  Nested = [ [ 1 ], [] ],\n"
    "  Range = [ disk0 .. disk2, disk7 ],\n"
    "  Anon = dm_mech_g1 { Head switch time = 0.1 },\n"
    "  Named = dm_disk M { Block count = 9 },\n"
    "  Blocks = [ zone { a = 1 }, zone { a = 2 } ],\n"
    "  [ Alpha, Beta ] = 5\n"
    "}\n");
  const struct dsp_block *b = t->tops[0].b;
  const struct dsp_value *v;

  ck_assert_int_eq (get (b, "Empty")->kind, DSP_LIST);
  ck_assert_uint_eq (get (b, "Empty")->n, 0);
  v = get (b, "Nums");
  ck_assert_uint_eq (v->n, 3);
  ck_assert_int_eq (v->items[0]->i, 1);
  ck_assert_double_eq (v->items[1]->d, 2.5);
  ck_assert_str_eq (v->items[2]->s, "x");
  v = get (b, "Nested");
  ck_assert_uint_eq (v->n, 2);
  ck_assert_uint_eq (v->items[0]->n, 1);
  ck_assert_uint_eq (v->items[1]->n, 0);
  v = get (b, "Range");
  ck_assert_uint_eq (v->n, 4);
  ck_assert_str_eq (v->items[0]->s, "disk0");
  ck_assert_str_eq (v->items[1]->s, "disk1");
  ck_assert_str_eq (v->items[2]->s, "disk2");
  ck_assert_str_eq (v->items[3]->s, "disk7");
  v = get (b, "Anon");
  ck_assert_int_eq (v->kind, DSP_BLOCK);
  ck_assert_str_eq (v->b->type, "dm_mech_g1");
  ck_assert_ptr_null (v->b->name);
  ck_assert_double_eq (get (v->b, "Head switch time")->d, 0.1);
  v = get (b, "Named");
  ck_assert_str_eq (v->b->type, "dm_disk");
  ck_assert_str_eq (v->b->name, "M");
  v = get (b, "Blocks");
  ck_assert_uint_eq (v->n, 2);
  ck_assert_int_eq (get (v->items[1]->b, "a")->i, 2);
  ck_assert_uint_eq (v->items[1]->at.line, 8);
  ck_assert_int_eq (get (b, "Alpha")->i, 5);
  ck_assert_int_eq (get (b, "Beta")->i, 5);
  dsp_free (t);
}
END_TEST

START_TEST (test_instantiate_topology_subtype)
{
  struct dsp_tree *t = parse_ok ("i.parv",
    "disksim_disk BASE { a = 1, b = 2 }\n"
    "BASE CHILD { b = 3 }\n"
    "instantiate [ disk0 .. disk1 ] as CHILD\n"
    "topology disksim_iodriver driver0 [\n"
    "  disksim_bus bus0 [ disksim_disk disk0 [] ]\n"
    "]\n");
  const struct dsp_block *child;
  const struct dsp_value *topo;

  ck_assert_uint_eq (t->n, 4);
  /* A block whose type is an earlier block's name inherits from it. */
  child = t->tops[1].b;
  ck_assert_str_eq (child->type, "disksim_disk");
  ck_assert_int_eq (get (child, "a")->i, 1);
  ck_assert_int_eq (get (child, "b")->i, 3);
  ck_assert_int_eq (t->tops[2].kind, DSP_TOP_INSTANTIATE);
  ck_assert_str_eq (t->tops[2].as, "CHILD");
  ck_assert_uint_eq (t->tops[2].names->n, 2);
  ck_assert_str_eq (t->tops[2].names->items[1]->s, "disk1");
  ck_assert_int_eq (t->tops[3].kind, DSP_TOP_TOPOLOGY);
  topo = t->tops[3].topo;
  ck_assert_str_eq (topo->s, "disksim_iodriver");
  ck_assert_str_eq (topo->name, "driver0");
  ck_assert_uint_eq (topo->n, 1);
  ck_assert_int_eq (topo->items[0]->kind, DSP_TOPO);
  ck_assert_str_eq (topo->items[0]->items[0]->name, "disk0");
  ck_assert_uint_eq (topo->items[0]->items[0]->n, 0);
  dsp_free (t);
}
END_TEST

START_TEST (test_source)
{
  struct dsp_tree *t;
  const struct dsp_block *b;
  char want[600];

  ck_assert_int_eq (mkdir (strcat (strcpy (want, tmpdir), "/sub"), 0700), 0);
  put ("sub/m.model", "dm_disk M {\n  Block count = 7\n}\n");
  /* The model sources its neighbour: relative to sub/, not to . */
  put ("sub/d.diskspecs", "disksim_disk D {\n  x = 1,\n"
       "  Model = source m.model\n}\n");
  t = parse_ok ("s.parv", "# top\nsource sub/d.diskspecs\n"
                "T AFTER {\n  y = 2\n}\n");
  ck_assert_uint_eq (t->n, 2);
  b = t->tops[0].b;
  ck_assert_str_eq (b->name, "D");
  snprintf (want, sizeof want, "%s/sub/d.diskspecs", tmpdir);
  ck_assert_str_eq (b->at.file, want);
  ck_assert_uint_eq (b->at.line, 1);
  ck_assert_str_eq (get (b, "Model")->b->name, "M");
  snprintf (want, sizeof want, "%s/sub/m.model", tmpdir);
  ck_assert_str_eq (dsp_find (get (b, "Model")->b, "Block count")->at.file,
                    want);
  ck_assert_uint_eq (dsp_find (get (b, "Model")->b, "Block count")->at.line,
                     2);
  /* Back in the including file, its own lines count on. */
  ck_assert_uint_eq (t->tops[1].b->at.line, 3);
  ck_assert_uint_eq (dsp_find (t->tops[1].b, "y")->at.line, 4);
  snprintf (want, sizeof want, "%s/s.parv", tmpdir);
  ck_assert_str_eq (t->tops[1].b->at.file, want);
  dsp_free (t);
  /* An error inside an included file names that file. */
  put ("sub/bad.model", "dm_disk M {\n\n  Block count 7\n}\n");
  parse_fails ("s2.parv", "T D {\n  Model = source sub/bad.model\n}\n",
               "sub/bad.model:3", "expected '='");
}
END_TEST

START_TEST (test_syntax_errors)
{
  parse_fails ("e1.parv", "T N {\n  a 1\n}\n", "e1.parv:2",
               "expected '=' after the parameter name");
  parse_fails ("e2.parv", "T N {\n  a =\n}\n", "e2.parv:3",
               "expected a value");
  parse_fails ("e3.parv", "T N {\n  a = 1;\n}\n", "e3.parv:2",
               "unexpected ';'");
  parse_fails ("e4.parv", "T N { a = b:c }\n", "e4.parv:1",
               "unexpected ':'");
  parse_fails ("e5.parv", "T N { a = ? }\n", "e5.parv:1", "unexpected '?'");
  parse_fails ("e6.parv", "T N {\n  a = 1,\n", "e6.parv:3",
               "found end of file");
  parse_fails ("e7.parv", "T N {\n  a = [ 1, 2\n}\n", "e7.parv:3",
               "expected ',' or ']'");
  parse_fails ("e8.parv", "T N { a = [ 1, ] }\n", "e8.parv:1",
               "expected a value");
  parse_fails ("e9.parv", "T N {\n  a = 1,\n}\n", "e9.parv:3",
               "expected a parameter name");
  parse_fails ("e10.parv", "T N { a = 1 b = 2 }\n", "e10.parv:1",
               "expected ',' or '}'");
  parse_fails ("e11.parv", "T N {\n\n  7 = 1 }\n", "e11.parv:3",
               "expected a parameter name");
  parse_fails ("e12.parv", "T N {\n  a = 99999999999999999999\n}\n",
               "e12.parv:2", "integer 99999999999999999999 out of range");
  parse_fails ("e13.parv", "T N {\n  a = 1.0e+999\n}\n", "e13.parv:2",
               "out of range");
  parse_fails ("e14.parv", "T N { [ 3 ] = 1 }\n", "e14.parv:1",
               "holds names only (found integer)");
}
END_TEST

START_TEST (test_structure_errors)
{
  parse_fails ("s1.parv", "\nlonely\n", "s1.parv:2",
               "expected a block 'TYPE NAME { ... }' at top level");
  parse_fails ("s2.parv", "T N\n{ a = 1 }\n= 3\n", "s2.parv:3",
               "expected a block, 'instantiate' or 'topology'");
  parse_fails ("s3.parv", "instantiate disk0 as D\n", "s3.parv:1",
               "expected '[' (the names to instantiate)");
  parse_fails ("s4.parv", "instantiate [ disk0 ] D\n", "s4.parv:1",
               "expected 'as'");
  parse_fails ("s5.parv", "instantiate [ disk0 ] as\n", "s5.parv:2",
               "expected a block name after 'as'");
  parse_fails ("s6.parv", "topology disksim_bus [ ]\n", "s6.parv:1",
               "expected 'topology TYPE NAME [ ... ]'");
  parse_fails ("s7.parv", "T N {\n  a = 1,\n  a = 2\n}\n", "s7.parv:3",
               "'a' set twice in this block (first at line 2)");
  parse_fails ("s8.parv", "T N { a = 1 }\n\nT N { b = 1 }\n", "s8.parv:3",
               "block N defined again");
  parse_fails ("s9.parv", "T N { a = [ d1 .. x3 ] }\n", "s9.parv:1",
               "bad range d1 .. x3");
  parse_fails ("s10.parv", "T N { a = [ d5 .. d2 ] }\n", "s10.parv:1",
               "bad range d5 .. d2");
  parse_fails ("s11.parv", "T N { a = [ d0 .. d99999 ] }\n", "s11.parv:1",
               "1 to 4096 names");
  parse_fails ("s12.parv", "T N { a = [ d0 .. ] }\n", "s12.parv:1",
               "expected a name after '..'");
}
END_TEST

START_TEST (test_nesting_bound)
{
  char text[1024];
  int i, n = 0;

  /* DSP_NEST_MAX lists inside each other parse; one more does not. */
  n += snprintf (text + n, sizeof text - n, "T N { a = ");
  for (i = 0; i < DSP_NEST_MAX; i++)
    n += snprintf (text + n, sizeof text - n, "[");
  for (i = 0; i < DSP_NEST_MAX; i++)
    n += snprintf (text + n, sizeof text - n, "]");
  snprintf (text + n, sizeof text - n, " }\n");
  dsp_free (parse_ok ("n1.parv", text));
  n = snprintf (text, sizeof text, "T N { a = ");
  for (i = 0; i <= DSP_NEST_MAX; i++)
    n += snprintf (text + n, sizeof text - n, "[");
  parse_fails ("n2.parv", text, "n2.parv:1", "nested more than 64 deep");
}
END_TEST

START_TEST (test_include_errors)
{
  char name[64], text[128];
  int i;

  parse_fails ("i1.parv", "\nsource missing.model\n", "i1.parv:2",
               "cannot open");
  parse_fails ("i2.parv", "T N { a = 1 }\nsource\n", "i2.parv:2",
               "'source' without a file name");
  /* a -> b -> a */
  put ("cyc-b.parv", "source cyc-a.parv\n");
  parse_fails ("cyc-a.parv", "\n\nsource cyc-b.parv\n", "cyc-b.parv:1",
               "a cycle");
  /* A chain of distinct files: 32 open at once parse, 33 do not. */
  for (i = 1; i < DSP_INCLUDE_MAX + 1; i++) {
    snprintf (name, sizeof name, "chain%d.parv", i);
    snprintf (text, sizeof text, "source chain%d.parv\n", i + 1);
    put (name, text);
  }
  snprintf (name, sizeof name, "chain%d.parv", DSP_INCLUDE_MAX - 1);
  put (name, "T END { a = 1 }\n");
  dsp_free (parse_ok ("chain0.parv", "source chain1.parv\n"
                      "T X { a = 1 }\n"));
  /* chain0 .. chain31 are 32 files; starting one earlier makes 33:
     chain30 cannot open chain31. */
  snprintf (name, sizeof name, "chain%d.parv:1", DSP_INCLUDE_MAX - 2);
  parse_fails ("chainm.parv", "source chain0.parv\n", name,
               "more than 32 files deep");
  /* Not a text file. */
  snprintf (path_buf, sizeof path_buf, "%s/nul.parv", tmpdir);
  {
    FILE *fp = fopen (path_buf, "w");
    ck_assert_ptr_nonnull (fp);
    fwrite ("T N {\0}", 1, 7, fp);
    fclose (fp);
  }
  {
    char err[512];
    ck_assert_ptr_null (dsp_parse_file (path_buf, err, sizeof err));
    ck_assert_ptr_nonnull (strstr (err, "NUL byte"));
  }
}
END_TEST

static Suite *
parv_suite (void)
{
  Suite *s = suite_create ("disksim-parv");
  TCase *tc = tcase_create ("parser");

  /* Valgrind on a shared 2-core machine: seconds per test. */
  tcase_set_timeout (tc, 60);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_values);
  tcase_add_test (tc, test_lists_and_blocks);
  tcase_add_test (tc, test_instantiate_topology_subtype);
  tcase_add_test (tc, test_source);
  tcase_add_test (tc, test_syntax_errors);
  tcase_add_test (tc, test_structure_errors);
  tcase_add_test (tc, test_nesting_bound);
  tcase_add_test (tc, test_include_errors);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  return run_suite (parv_suite ());
}
