/* hddsim: unit tests of the key=value parsers (common/param.c).
 * Expected values are the units' definitions: 1 ms = 10^6 ns, 1K = 1024
 * bytes, rates in decimal as spec sheets quote them.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "run-suite.h"

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
  suite_add_tcase (s, tc);
  return run_suite (s);
}
