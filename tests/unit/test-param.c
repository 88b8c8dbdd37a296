/* hddsim: unit tests of the parameter system: the value parsers
 * (common/value.c) and the tables (common/param.c), in both of their
 * styles.  Expected values are the units' definitions: 1 ms = 10^6 ns,
 * 1K = 1024 bytes, rates in decimal as spec sheets quote them; expected
 * messages are the ones users have always been shown.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "run-suite.h"
#include "test-units.h"

#include "../../common/param.h"

static uint64_t
duration (const char *s)
{
  uint64_t ns = 0;
  ck_assert_msg (parse_duration (s, &ns) == 0, "'%s' rejected", s);
  return ns;
}

/* Whole numbers: digits only, the full 64-bit range, nothing past it
 * (2^64 - 1 = 18446744073709551615).
 */
START_TEST (test_uints)
{
  uint64_t v = 7;

  ck_assert_int_eq (parse_uint ("0", &v), 0);
  ck_assert_uint_eq (v, 0);
  ck_assert_int_eq (parse_uint ("4096", &v), 0);
  ck_assert_uint_eq (v, 4096);
  ck_assert_int_eq (parse_uint ("007", &v), 0);
  ck_assert_uint_eq (v, 7);
  ck_assert_int_eq (parse_uint ("18446744073709551615", &v), 0);
  ck_assert_uint_eq (v, UINT64_MAX);
  ck_assert_int_eq (parse_uint ("18446744073709551610", &v), 0);
  ck_assert_uint_eq (v, UINT64_MAX - 5);
  ck_assert_int_eq (parse_uint ("18446744073709551616", &v), -1);
  ck_assert_int_eq (parse_uint ("18446744073709551620", &v), -1);
  ck_assert_int_eq (parse_uint ("99999999999999999999", &v), -1);
  ck_assert_int_eq (parse_uint ("", &v), -1);
  ck_assert_int_eq (parse_uint ("-1", &v), -1);
  ck_assert_int_eq (parse_uint ("+1", &v), -1);
  ck_assert_int_eq (parse_uint (" 1", &v), -1);
  ck_assert_int_eq (parse_uint ("1 ", &v), -1);
  ck_assert_int_eq (parse_uint ("12x", &v), -1);
  ck_assert_int_eq (parse_uint ("0x10", &v), -1);
  ck_assert_int_eq (parse_uint ("1/", &v), -1);   /* '/' is '0' - 1 */
  ck_assert_int_eq (parse_uint ("1:", &v), -1);   /* ':' is '9' + 1 */
}
END_TEST

START_TEST (test_durations)
{
  uint64_t ns;

  ck_assert_uint_eq (duration ("8.5ms"), 8500000);
  ck_assert_uint_eq (duration ("250us"), 250000);
  ck_assert_uint_eq (duration ("125ms"), 125000000);
  ck_assert_uint_eq (duration ("1.5s"), 1500000000);
  ck_assert_uint_eq (duration ("2"), 2000000000);    /* bare: seconds */
  ck_assert_uint_eq (duration ("0"), 0);
  ck_assert_uint_eq (duration ("17ns"), 17);
  ck_assert_uint_eq (duration (".5ms"), 500000);
  ck_assert_int_eq (parse_duration ("5parsecs", &ns), -1);
  ck_assert_int_eq (parse_duration ("", &ns), -1);
  ck_assert_int_eq (parse_duration ("ms", &ns), -1);
  ck_assert_int_eq (parse_duration ("-1ms", &ns), -1);
  ck_assert_int_eq (parse_duration ("5 ms", &ns), -1);
  ck_assert_int_eq (parse_duration ("99999999999999999999s", &ns), -1);
  /* the fraction must not wrap a value just below 2^64 ns around */
  ck_assert_int_eq (parse_duration ("18446744073.9", &ns), -1);
  ck_assert_int_eq (parse_duration ("18446744073709.6ms", &ns), -1);
}
END_TEST

/* format_duration prints what parse_duration reads back, exactly. */
START_TEST (test_format_duration)
{
  static const struct { uint64_t ns; const char *text; } cases[] = {
    { 0, "0ns" }, { 1, "1ns" }, { 999, "999ns" }, { 1500, "1500ns" },
    { 250000, "250us" }, { 8500000, "8.5ms" }, { 1000000, "1ms" },
    { 12345678000, "12345.678ms" }, { 1000001000, "1000.001ms" },
    { 3000000000, "3s" },
  };
  size_t i;

  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char buf[64];
    uint64_t back;
    ck_assert_str_eq (format_duration (cases[i].ns, buf, sizeof buf),
                      cases[i].text);
    ck_assert_int_eq (parse_duration (buf, &back), 0);
    ck_assert_uint_eq (back, cases[i].ns);
  }
}
END_TEST

START_TEST (test_sizes)
{
  uint64_t b;

  ck_assert_int_eq (parse_size ("4096", &b), 0);
  ck_assert_uint_eq (b, 4096);
  ck_assert_int_eq (parse_size ("64K", &b), 0);
  ck_assert_uint_eq (b, 65536);
  ck_assert_int_eq (parse_size ("16M", &b), 0);
  ck_assert_uint_eq (b, 16 << 20);
  ck_assert_int_eq (parse_size ("2MiB", &b), 0);
  ck_assert_uint_eq (b, 2 << 20);
  ck_assert_int_eq (parse_size ("4G", &b), 0);
  ck_assert_uint_eq (b, UINT64_C(4) << 30);
  ck_assert_int_eq (parse_size ("1.5M", &b), -1);
  ck_assert_int_eq (parse_size ("12Q", &b), -1);
  ck_assert_int_eq (parse_size ("-4K", &b), -1);
  ck_assert_int_eq (parse_size ("99999999999P", &b), -1);
}
END_TEST

struct rated {
  uint64_t rate;
  int mode;
};

static const char *const modes[] = { "wb", "wt", "off", NULL };

/* A drive-style table (model/hdd_params.c's). */
static const struct param_desc table[] = {
  { .key = "rate", .type = PARAM_RATE, .offset = offsetof (struct rated, rate),
    .min = 1, .max = UINT64_MAX, .help = "a rate",
    .style = PARAM_STYLE_PROFILE },
  { .key = "mode", .type = PARAM_ENUM, .offset = offsetof (struct rated, mode),
    .choices = modes, .help = "a mode", .style = PARAM_STYLE_PROFILE },
  { .key = NULL },
};

START_TEST (test_rates_enums_ranges)
{
  struct rated r = { 0, 0 };
  char err[PARAM_ERRLEN];

  ck_assert_int_eq (param_set (table, &r, "rate", "100M", err, sizeof err), 0);
  ck_assert_uint_eq (r.rate, 100000000);
  ck_assert_int_eq (param_set (table, &r, "rate", "58MB/s", err, sizeof err), 0);
  ck_assert_uint_eq (r.rate, 58000000);
  ck_assert_int_eq (param_set (table, &r, "rate", "1.5G", err, sizeof err), 0);
  ck_assert_uint_eq (r.rate, 1500000000);
  ck_assert_int_eq (param_set (table, &r, "rate", "100B/s", err, sizeof err), 0);
  ck_assert_uint_eq (r.rate, 100);
  ck_assert_int_eq (param_set (table, &r, "rate", "18446744073709551.9k",
                               err, sizeof err), -1);
  ck_assert_int_eq (param_set (table, &r, "rate", "0", err, sizeof err), -1);
  ck_assert_msg (strstr (err, "rate=0") && strstr (err, "range"), "%s", err);
  ck_assert_int_eq (param_set (table, &r, "rate", "fast", err, sizeof err), -1);
  ck_assert_msg (strstr (err, "rate=fast"), "%s", err);
  ck_assert_int_eq (param_set (table, &r, "mode", "off", err, sizeof err), 0);
  ck_assert_int_eq (r.mode, 2);
  ck_assert_int_eq (param_set (table, &r, "mode", "on", err, sizeof err), -1);
  ck_assert_msg (strstr (err, "mode=on") && strstr (err, "wb wt off"), "%s", err);
  ck_assert_int_eq (param_set (table, &r, "nope", "1", err, sizeof err), 1);
}
END_TEST

/* ---- a table of every type (TUNABLE: the setup's, the policies',
   the plugin's) ---- */

struct sample {
  uint64_t n, t, size;
  int mode;
  bool on;
  char *name;
};

static const char *const sample_modes[] = { "off", "auto", "on", NULL };

#define F(f) offsetof (struct sample, f)

static const struct param_desc sample_params[] = {
  { .key = "n", .type = PARAM_UINT, .offset = F(n), .min = 1, .max = 10,
    .def = 3, .help = "a count" },
  { .key = "t", .type = PARAM_DURATION, .offset = F(t), .min = 0,
    .max = 100 * MS, .def = 250 * US, .help = "a time" },
  { .key = "size", .type = PARAM_SIZE, .offset = F(size), .min = 0,
    .max = UINT64_MAX, .def = 16 * MiB, .help = "a size" },
  { .key = "mode", .type = PARAM_ENUM, .offset = F(mode), .def = 1,
    .choices = sample_modes, .help = "a mode" },
  { .key = "on", .type = PARAM_BOOL, .offset = F(on), .def = true,
    .help = "a switch" },
  { .key = "name", .type = PARAM_STRING, .offset = F(name), .metavar = "FILE",
    .help = "a file" },
  { .key = NULL },
};

static int
set (struct sample *s, const char *key, const char *value, char *err)
{
  return param_set (sample_params, s, key, value, err, PARAM_ERRLEN);
}

START_TEST (test_types)
{
  struct sample s;
  char err[PARAM_ERRLEN] = "";

  param_defaults (sample_params, &s);
  ck_assert_uint_eq (s.n, 3);
  ck_assert_uint_eq (s.t, 250 * US);
  ck_assert_uint_eq (s.size, 16 * MiB);
  ck_assert_int_eq (s.mode, 1);
  ck_assert (s.on);
  ck_assert_ptr_null (s.name);

  ck_assert_int_eq (set (&s, "n", "10", err), 0);
  ck_assert_uint_eq (s.n, 10);
  ck_assert_int_eq (set (&s, "t", "8.5ms", err), 0);
  ck_assert_uint_eq (s.t, 8500 * US);
  ck_assert_int_eq (set (&s, "size", "64K", err), 0);
  ck_assert_uint_eq (s.size, 64 * KiB);
  ck_assert_int_eq (set (&s, "mode", "on", err), 0);
  ck_assert_int_eq (s.mode, 2);
  ck_assert_int_eq (set (&s, "on", "Off", err), 0);
  ck_assert (!s.on);
  ck_assert_int_eq (set (&s, "on", "yes", err), 0);
  ck_assert (s.on);
  ck_assert_int_eq (set (&s, "name", "a.img", err), 0);
  ck_assert_int_eq (set (&s, "name", "b.img", err), 0);   /* frees a.img */
  ck_assert_str_eq (s.name, "b.img");
  ck_assert_int_eq (set (&s, "nope", "1", err), 1);
  ck_assert_str_eq (err, "");
  param_free (sample_params, &s);
  ck_assert_ptr_null (s.name);
}
END_TEST

/* Each bad value is named, with what was expected; nothing is
 * stored.
 */
START_TEST (test_errors)
{
  struct sample s;
  char err[PARAM_ERRLEN];

  param_defaults (sample_params, &s);
  ck_assert_int_eq (set (&s, "n", "11", err), -1);
  ck_assert_str_eq (err, "n=11: out of range [1, 10]");
  ck_assert_int_eq (set (&s, "n", "0", err), -1);
  ck_assert_int_eq (set (&s, "t", "101ms", err), -1);
  ck_assert_str_eq (err, "t=101ms: out of range [0ns, 100ms]");
  ck_assert_int_eq (set (&s, "t", "8 ms", err), -1);
  ck_assert_str_eq (err, "t=8 ms: expected a duration (e.g. 8ms, 250us, "
                    "1.5s)");
  ck_assert_int_eq (set (&s, "mode", "sometimes", err), -1);
  ck_assert_str_eq (err, "mode=sometimes: expected one of: off auto on");
  ck_assert_int_eq (set (&s, "on", "maybe", err), -1);
  ck_assert_msg (strncmp (err, "on=maybe: expected true or false", 32) == 0,
                 "%s", err);
  ck_assert_int_eq (set (&s, "name", "", err), -1);
  ck_assert_str_eq (err, "name: the value must not be empty");
  ck_assert_uint_eq (s.n, 3);
  ck_assert_uint_eq (s.t, 250 * US);
  ck_assert_int_eq (s.mode, 1);
  ck_assert (s.on);
  ck_assert_ptr_null (s.name);
}
END_TEST

/* --help and --dump-plugin print the defaults the code starts from. */
START_TEST (test_help_and_defaults)
{
  char *text = NULL;
  size_t len = 0;
  FILE *fp = open_memstream (&text, &len);

  ck_assert_ptr_nonnull (fp);
  param_print_help (sample_params, fp);
  param_print_defaults (sample_params, "x_", fp);
  fclose (fp);
  ck_assert_msg (strstr (text, "t=DURATION"), "%s", text);
  ck_assert_msg (strstr (text, "a time (default 250us)\n"), "%s", text);
  ck_assert_msg (strstr (text, "mode=off|auto|on"), "%s", text);
  ck_assert_msg (strstr (text, "a mode (default auto)\n"), "%s", text);
  ck_assert_msg (strstr (text, "name=FILE"), "%s", text);
  ck_assert_msg (strstr (text, "a file\n"), "%s", text);
  ck_assert_msg (strstr (text, "x_size=16M\n"), "%s", text);
  ck_assert_msg (strstr (text, "x_on=true\n"), "%s", text);
  ck_assert_msg (!strstr (text, "x_name="), "%s", text);
  free (text);
}
END_TEST

/* Every value as a profile is listed: a string only once set. */
START_TEST (test_values_listed)
{
  struct sample s;
  char err[PARAM_ERRLEN];
  char *text = NULL;
  size_t len = 0;
  FILE *fp;
  int set_name;

  param_defaults (sample_params, &s);
  for (set_name = 0; set_name < 2; set_name++) {
    if (set_name)
      ck_assert_int_eq (set (&s, "name", "a.img", err), 0);
    fp = open_memstream (&text, &len);
    ck_assert_ptr_nonnull (fp);
    param_print_values (sample_params, &s, fp);
    fclose (fp);
    ck_assert_str_eq (text, set_name
                      ? "n=3\nt=250us\nsize=16M\nmode=auto\non=true\n"
                        "name=a.img\n"
                      : "n=3\nt=250us\nsize=16M\nmode=auto\non=true\n");
    free (text);
    text = NULL;
  }
  param_free (sample_params, &s);
}
END_TEST

/* ---- each style's words, exactly as users have been shown them ---- */

struct drive {
  uint64_t n, t, size, rate;
  int mode;
};

#define DR(f) offsetof (struct drive, f)

/* Keys like the drive's (PROFILE) and like the others' (TUNABLE). */
#define STYLED(sty)                                                   \
  { .key = "n", .type = PARAM_UINT, .offset = DR(n), .min = 1000,       \
    .max = 30000, .def = 7200, .help = "a count", .style = (sty) },   \
  { .key = "a-rather-long-key-name", .type = PARAM_DURATION,            \
    .offset = DR(t), .min = 1, .max = SEC, .help = "a time",            \
    .style = (sty) },                                                 \
  { .key = "size", .type = PARAM_SIZE, .offset = DR(size), .min = 512,  \
    .max = UINT64_C(1) << 40, .def = 16 * MiB, .help = "a size",        \
    .style = (sty) },                                                 \
  { .key = "rate", .type = PARAM_RATE, .offset = DR(rate),              \
    .min = 1000, .max = UINT64_C(1) << 40, .def = 100000000,            \
    .help = "a rate", .style = (sty) },                               \
  { .key = "mode", .type = PARAM_ENUM, .offset = DR(mode), .def = 1,    \
    .choices = modes, .help = "a mode", .style = (sty) },             \
  { .key = NULL }

static const struct param_desc profile_params[] = {
  STYLED (PARAM_STYLE_PROFILE)
};
static const struct param_desc tunable_params[] = {
  STYLED (PARAM_STYLE_TUNABLE)
};

/* err after setting key=value in params, which must fail. */
static const char *
refused (const struct param_desc *params, const char *key,
         const char *value)
{
  static char err[PARAM_ERRLEN];
  struct drive d = { 0 };

  ck_assert_int_eq (param_set (params, &d, key, value, err, sizeof err), -1);
  return err;
}

/* The same bad values, in each style's words. */
START_TEST (test_words)
{
  static const struct {
    const char *key, *value, *profile, *tunable;
  } cases[] = {
    { "n", "fast", "n=fast: cannot parse as a whole number",
      "n=fast: expected a non-negative integer" },
    { "n", "999", "n=999: out of range [1000, 30000]",
      "n=999: out of range [1000, 30000]" },
    { "a-rather-long-key-name", "soon",
      "a-rather-long-key-name=soon: cannot parse as DURATION (e.g. 8ms, "
      "250us, 1.5s)",
      "a-rather-long-key-name=soon: expected a duration (e.g. 8ms, 250us, "
      "1.5s)" },
    { "a-rather-long-key-name", "2s",
      "a-rather-long-key-name=2s: out of range [1, 1000000000]",
      "a-rather-long-key-name=2s: out of range [1ns, 1s]" },
    { "size", "big", "size=big: cannot parse as SIZE (e.g. 4096, 64K, 16M)",
      "size=big: expected a size (e.g. 4096, 64K, 16M)" },
    { "size", "1", "size=1: out of range [512, 1099511627776]",
      "size=1: out of range [512, 1T]" },
    { "rate", "fast",
      "rate=fast: cannot parse as RATE (bytes/s, e.g. 100M or 58MB/s)",
      "rate=fast: expected a rate (bytes/s, e.g. 100M or 58MB/s)" },
    { "mode", "on", "mode=on: expected one of: wb wt off",
      "mode=on: expected one of: wb wt off" },
  };
  size_t i;

  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ck_assert_str_eq (refused (profile_params, cases[i].key, cases[i].value),
                      cases[i].profile);
    ck_assert_str_eq (refused (tunable_params, cases[i].key, cases[i].value),
                      cases[i].tunable);
  }
}
END_TEST

/* What params prints for --help, and then its values (PROFILE: d's,
 * as hddsim-profile lists them; TUNABLE: the defaults, as
 * --dump-plugin).
 */
static char *
listing (const struct param_desc *params, const struct drive *d)
{
  char *text = NULL;
  size_t len = 0;
  FILE *fp = open_memstream (&text, &len);

  ck_assert_ptr_nonnull (fp);
  param_print_help (params, fp);
  param_print_help_line (params->style, "by=HAND", "a key not in a table",
                         fp);
  if (params->style == PARAM_STYLE_PROFILE)
    param_print_values (params, d, fp);
  else
    param_print_defaults (params, "x_", fp);
  fclose (fp);
  return text;
}

/* PROFILE: help at column 28, long keys not wrapped, enumerations as
 * NAME, no defaults (the profile's); sizes and rates in bytes.
 */
START_TEST (test_profile_listing)
{
  struct drive d = { 0 };
  char err[PARAM_ERRLEN];
  char *text;

  ck_assert_int_eq (param_set (profile_params, &d, "n", "7200", err,
                               sizeof err), 0);
  ck_assert_int_eq (param_set (profile_params, &d, "a-rather-long-key-name",
                               "8.5ms", err, sizeof err), 0);
  ck_assert_int_eq (param_set (profile_params, &d, "size", "16M", err,
                               sizeof err), 0);
  ck_assert_int_eq (param_set (profile_params, &d, "rate", "58MB/s", err,
                               sizeof err), 0);
  ck_assert_int_eq (param_set (profile_params, &d, "mode", "off", err,
                               sizeof err), 0);
  text = listing (profile_params, &d);
  ck_assert_str_eq (text,
    "n=N                          a count\n"
    "a-rather-long-key-name=DURATION a time\n"
    "size=SIZE                    a size\n"
    "rate=RATE                    a rate\n"
    "mode=NAME                    a mode\n"
    "by=HAND                      a key not in a table\n"
    "n=7200\n"
    "a-rather-long-key-name=8.5ms\n"
    "size=16777216\n"
    "rate=58000000\n"
    "mode=off\n");
  free (text);
}
END_TEST

/* TUNABLE: help at column 27, a long key on a line of its own,
 * enumerations as their choices, "(default X)"; --dump-plugin's keys
 * with underscores, sizes in their largest unit.
 */
START_TEST (test_tunable_listing)
{
  char *text = listing (tunable_params, NULL);

  ck_assert_str_eq (text,
    "n=N                         a count (default 7200)\n"
    "a-rather-long-key-name=DURATION\n"
    "                            a time (default 0ns)\n"
    "size=SIZE                   a size (default 16M)\n"
    "rate=RATE                   a rate (default 100000000)\n"
    "mode=wb|wt|off              a mode (default wt)\n"
    "by=HAND                     a key not in a table\n"
    "x_n=7200\n"
    "x_a_rather_long_key_name=0ns\n"
    "x_size=16M\n"
    "x_rate=100000000\n"
    "x_mode=wt\n");
  free (text);
}
END_TEST

/* Booleans take nbdkit's words in any case; a size prints in the
 * largest binary unit that divides it, and reads back.
 */
START_TEST (test_bools_and_size_format)
{
  static const struct { uint64_t v; const char *text; } sizes[] = {
    { 0, "0" }, { 4097, "4097" }, { 16 * MiB, "16M" }, { 1536, "1536" },
    { UINT64_C(1) << 50, "1P" }, { UINT64_C(1) << 60, "1024P" },
  };
  bool b = false;
  size_t i;

  ck_assert_int_eq (parse_bool ("TRUE", &b), 0);
  ck_assert (b);
  ck_assert_int_eq (parse_bool ("no", &b), 0);
  ck_assert (!b);
  ck_assert_int_eq (parse_bool ("On", &b), 0);
  ck_assert (b);
  ck_assert_int_eq (parse_bool ("0", &b), 0);
  ck_assert (!b);
  ck_assert_int_eq (parse_bool ("2", &b), -1);
  ck_assert_int_eq (parse_bool ("", &b), -1);
  ck_assert_int_eq (parse_bool ("yes please", &b), -1);
  for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    char buf[32];
    uint64_t back;
    ck_assert_str_eq (format_size (sizes[i].v, buf, sizeof buf),
                      sizes[i].text);
    ck_assert_int_eq (parse_size (buf, &back), 0);
    ck_assert_uint_eq (back, sizes[i].v);
  }
}
END_TEST

int
main (void)
{
  Suite *s = suite_create ("param");
  TCase *tc = tcase_create ("parse");
  tcase_add_test (tc, test_uints);
  tcase_add_test (tc, test_durations);
  tcase_add_test (tc, test_format_duration);
  tcase_add_test (tc, test_sizes);
  tcase_add_test (tc, test_rates_enums_ranges);
  tcase_add_test (tc, test_bools_and_size_format);
  suite_add_tcase (s, tc);
  tc = tcase_create ("tables");
  tcase_add_test (tc, test_types);
  tcase_add_test (tc, test_errors);
  tcase_add_test (tc, test_help_and_defaults);
  tcase_add_test (tc, test_values_listed);
  tcase_add_test (tc, test_words);
  tcase_add_test (tc, test_profile_listing);
  tcase_add_test (tc, test_tunable_listing);
  suite_add_tcase (s, tc);
  return run_suite (s);
}
