/* hddsim: the drive's parameters (one table, see param.h). */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hdd_int.h"
#include "../common/param.h"

#define FIELD(f) offsetof (struct hdd_params, f)
#define HOUR (UINT64_C(3600) * 1000000000)
#define SEC UINT64_C(1000000000)

static const char *const cache_names[] = { "wb", "wt", "off", NULL };
static const char *const placement_names[] = { "start", "spread", NULL };
static const char *const layout_names[] = { "cylinder", "serpentine", NULL };
static const char *const write_seg_names[] = {
  "none", "shared", "separate", NULL
};
static const char *const ra_hits_names[] = {
  "ahead", "almost", "read", NULL
};
static const char *const ra_stop_names[] = { "now", "sector", NULL };
static const char *const ra_until_names[] = {
  "size", "track", "cylinder", "next-track", NULL
};

static const struct param_desc hdd_param_table[] = {
  { "service", PARAM_DURATION, FIELD(service), 0, HOUR, NULL,
    "fixed service time of every request (implies profile=fixed)" },
  { "capacity", PARAM_SIZE, FIELD(capacity), 1 << 20, UINT64_C(1) << 56, NULL,
    "drive capacity in bytes (LBAs x 512)" },
  { "rpm", PARAM_UINT, FIELD(rpm), 1000, 30000, NULL,
    "spindle speed, revolutions per minute" },
  { "surfaces", PARAM_UINT, FIELD(surfaces), 1, 64, NULL,
    "recording surfaces (heads)" },
  { "zones", PARAM_UINT, FIELD(zones), 1, ZONES_MAX, NULL,
    "recording zones (zoned bit recording)" },
  { "sectors-outer", PARAM_UINT, FIELD(spt_outer), 1, 1000000, NULL,
    "512-byte sectors per track in the outermost zone" },
  { "sectors-inner", PARAM_UINT, FIELD(spt_inner), 1, 1000000, NULL,
    "512-byte sectors per track in the innermost zone" },
  { "track-skew", PARAM_DURATION, FIELD(track_skew), 0, SEC, NULL,
    "track skew as time (0 = head-switch)" },
  { "cyl-skew", PARAM_DURATION, FIELD(cyl_skew), 0, SEC, NULL,
    "cylinder skew as time (0 = seek-track + write-settle)" },
  { "layout", PARAM_ENUM, FIELD(layout), 0, 0, layout_names,
    "LBA layout: cylinder (surfaces of a cylinder in turn) or serpentine" },
  { "placement", PARAM_ENUM, FIELD(placement), 0, 0, placement_names,
    "smaller image: start of the drive, or spread over the full stroke" },
  { "seek-track", PARAM_DURATION, FIELD(seek_track), 1, SEEK_MAX_NS, NULL,
    "one-cylinder seek" },
  { "seek-avg", PARAM_DURATION, FIELD(seek_avg), 1, SEEK_MAX_NS, NULL,
    "mean seek between uniformly random LBAs (spec-sheet average)" },
  { "seek-full", PARAM_DURATION, FIELD(seek_full), 1, SEEK_MAX_NS, NULL,
    "full-stroke seek" },
  { "write-settle", PARAM_DURATION, FIELD(write_settle), 0, SEC, NULL,
    "extra settling before writing after a seek" },
  { "head-switch", PARAM_DURATION, FIELD(head_switch), 0, SEC, NULL,
    "switching to another surface of the same cylinder" },
  { "iface-rate", PARAM_RATE, FIELD(iface_rate), 1000, UINT64_C(1) << 40,
    NULL, "interface transfer rate (e.g. 100M for ATA-100)" },
  { "overhead", PARAM_DURATION, FIELD(overhead), 0, SEC, NULL,
    "command processing time of every request" },
  { "cache", PARAM_ENUM, FIELD(cache), 0, 0, cache_names,
    "on-drive cache: wb (write-back), wt (write-through), off" },
  { "cache-size", PARAM_SIZE, FIELD(cache_size), 0, UINT64_C(1) << 40, NULL,
    "on-drive cache size" },
  { "cache-segments", PARAM_UINT, FIELD(cache_segments), 1, 1024, NULL,
    "read cache segments" },
  { "readahead", PARAM_SIZE, FIELD(readahead), 0, UINT64_C(1) << 40, NULL,
    "read-ahead after a read, capped at a segment (0 or off = none)" },
  /* Cache: segment rules (DiskSim's; docs/model.md "Cache segments"). */
  { "cache-write-segment", PARAM_ENUM, FIELD(write_seg), 0, 0,
    write_seg_names, "where a write's data stays: none (not in the read "
    "segments), shared (in a read segment), separate (a segment of its "
    "own)" },
  { "cache-write-hits", PARAM_UINT, FIELD(write_hits), 0, 1, NULL,
    "1: reads hit data a write left in a segment" },
  { "cache-partial-hits", PARAM_UINT, FIELD(partial_hits), 0, 1, NULL,
    "1: a read whose first sectors a segment holds reads only the rest "
    "from the media" },
  { "readahead-hits", PARAM_ENUM, FIELD(ra_hits), 0, 0, ra_hits_names,
    "reads the read-ahead serves: ahead (any it is to read), almost (its "
    "first sector read or being read), read (its first sector read)" },
  { "readahead-stop", PARAM_ENUM, FIELD(ra_stop), 0, 0, ra_stop_names,
    "when a request needs the arm, read-ahead stops: now, or at the end "
    "of the sector it is reading (sector)" },
  { "readahead-on-hit", PARAM_UINT, FIELD(ra_on_hit), 0, 1, NULL,
    "1: a read served wholly from a segment, the read-ahead idle, reads "
    "ahead from the segment's end" },
  { "readahead-until", PARAM_ENUM, FIELD(ra_until), 0, 0, ra_until_names,
    "read-ahead ends readahead= past the request (size), also at the end "
    "of the request's track (track) or cylinder (cylinder), or at the end "
    "of the next sector's track, one track further when its segment "
    "began on an earlier track (next-track)" },
  { "read-any-free", PARAM_UINT, FIELD(read_free), 0, 1, NULL,
    "1: a read keeps the sectors before it on its track that pass under "
    "the head during its rotational wait" },
  { NULL },
};

/* seek-table=DIST:TIME,DIST:TIME,... (cylinders, durations). */
static int
set_seek_table (struct hdd_params *p, const char *value, char *err,
                size_t errlen)
{
  char buf[2048], *save = NULL, *tok;
  unsigned n = 0;

  if (strlen (value) >= sizeof buf)
    goto bad;
  strcpy (buf, value);
  if (strcmp (buf, "") == 0 || strcmp (buf, "none") == 0) {
    p->seek_npoints = 0;
    return 0;
  }
  for (tok = strtok_r (buf, ",", &save); tok;
       tok = strtok_r (NULL, ",", &save)) {
    char *colon = strchr (tok, ':');
    uint64_t d, t;
    while (*tok == ' ')
      tok++;
    if (!colon || n == SEEK_TABLE_MAX)
      goto bad;
    *colon = '\0';
    if (parse_uint (tok, &d) == -1 || parse_duration (colon + 1, &t) == -1)
      goto bad;
    if (t > SEEK_MAX_NS) {
      char b[32];
      snprintf (err, errlen, "seek-table=%s: %s:%s: a seek of more than %s "
                "(the bound of seek-full)", value, tok, colon + 1,
                format_duration (SEEK_MAX_NS, b, sizeof b));
      return -1;
    }
    if (d == 0 || (n > 0 && (d <= p->seek_dist[n - 1]
                             || t < p->seek_time[n - 1])))
      goto bad;
    p->seek_dist[n] = d;
    p->seek_time[n] = t;
    n++;
  }
  if (n < 2)
    goto bad;
  p->seek_npoints = n;
  return 0;

 bad:
  snprintf (err, errlen,
            "seek-table=%s: expected 2 to %d CYLINDERS:DURATION points, "
            "distances increasing, times not decreasing "
            "(e.g. 1:0.8ms,1000:3ms,50000:14ms)", value, SEEK_TABLE_MAX);
  return -1;
}

void
params_defaults (struct hdd_params *p)
{
  memset (p, 0, sizeof *p);
  p->kind = KIND_MECH;
  p->layout = LAYOUT_CYLINDER;
  p->placement = PLACE_START;
  p->cache = CACHE_WB;
}

struct hdd_params *
hdd_params_copy (const struct hdd_params *p)
{
  struct hdd_params *c = malloc (sizeof *c);

  if (c)
    *c = *p;
  return c;
}

void
hdd_params_free (struct hdd_params *p)
{
  free (p);
}

static const char seek_table_key[] = "seek-table";

/* The table's own copy of key (static), or NULL if unknown. */
static const char *
static_key (const char *key)
{
  const struct param_desc *d = param_find (hdd_param_table, key);

  if (d)
    return d->key;
  return strcmp (key, seek_table_key) == 0 ? seek_table_key : NULL;
}

static void
forget_line (struct hdd_params *p, const char *key)
{
  unsigned i;

  for (i = 0; i < p->nlines; i++)
    if (strcmp (p->lines[i].key, key) == 0) {
      p->lines[i] = p->lines[--p->nlines];
      return;
    }
}

void
params_note_line (struct hdd_params *p, const char *key, unsigned line)
{
  const char *k = static_key (key);

  if (!k)
    return;
  forget_line (p, k);
  if (p->nlines < PARAM_LINES_MAX)
    p->lines[p->nlines++] = (typeof (p->lines[0])) { k, line };
}

int
hdd_params_set (struct hdd_params *p, const char *key, const char *value,
                char *err, size_t errlen)
{
  int r;

  forget_line (p, key);

  if (strcmp (key, seek_table_key) == 0)
    return set_seek_table (p, value, err, errlen);
  if (strcmp (key, "readahead") == 0 && strcmp (value, "off") == 0)
    value = "0";
  r = param_set (hdd_param_table, p, key, value, err, errlen);
  if (r == 0 && strcmp (key, "service") == 0)
    p->kind = KIND_FIXED;
  return r;
}

const char *
hdd_params_profile_name (const struct hdd_params *p)
{
  return p->profile;
}

void
hdd_params_print_help (FILE *fp)
{
  fprintf (fp, "%-28s %s\n", "profile=NAME|PATH.ini",
           "drive profile (default " HDD_PROFILE_DEFAULT
           "; see the profiles list)");
  param_print_help (hdd_param_table, fp);
  fprintf (fp, "%-28s %s\n", "seek-table=D:T,D:T,...",
           "measured seek times (cylinders:duration), replacing the curve");
}

void
hdd_params_print_values (const struct hdd_params *p, FILE *fp)
{
  unsigned i;

  fprintf (fp, "profile=%s\n", p->profile);
  param_print_values (hdd_param_table, p, "", fp);
  if (p->seek_npoints > 0) {
    char buf[64];
    fprintf (fp, "seek-table=");
    for (i = 0; i < p->seek_npoints; i++)
      fprintf (fp, "%s%" PRIu64 ":%s", i ? "," : "", p->seek_dist[i],
               format_duration (p->seek_time[i], buf, sizeof buf));
    fprintf (fp, "\n");
  }
}

int
params_check (const struct hdd_params *p, char *err, size_t errlen)
{
  if (p->kind == KIND_FIXED)
    return 0;
  if (p->spt_inner > p->spt_outer) {
    snprintf (err, errlen, "sectors-inner=%" PRIu64 ": more than "
              "sectors-outer=%" PRIu64 " (outer tracks are longer)",
              p->spt_inner, p->spt_outer);
    return -1;
  }
  if (p->seek_npoints == 0
      && !(p->seek_track <= p->seek_avg && p->seek_avg < p->seek_full)) {
    char a[32], b[32], c[32];
    snprintf (err, errlen, "seek-track=%s, seek-avg=%s, seek-full=%s: "
              "must satisfy seek-track <= seek-avg < seek-full",
              format_duration (p->seek_track, a, sizeof a),
              format_duration (p->seek_avg, b, sizeof b),
              format_duration (p->seek_full, c, sizeof c));
    return -1;
  }
  if (p->write_hits && p->write_seg == WSEG_NONE) {
    snprintf (err, errlen, "cache-write-hits=1 with cache-write-segment="
              "none: no segment keeps written data (shared or separate)");
    return -1;
  }
  if (p->cache != CACHE_OFF && p->cache_size / p->cache_segments < SECTOR) {
    snprintf (err, errlen, "cache-size=%" PRIu64 ", cache-segments=%"
              PRIu64 ": a segment must hold at least one sector",
              p->cache_size, p->cache_segments);
    return -1;
  }
  return 0;
}

/* Name the profile file the values came from, and the lines that set
 * the keys the message names ("key="): the inconsistency may be in the
 * file (or in a parameter given over it).
 */
static int
validate_fail (const struct hdd_params *p, const char *msg, char *err,
               size_t errlen)
{
  char where[HDD_ERRLEN] = "";
  size_t used = 0;
  unsigned i;

  if (!p->file[0]) {
    snprintf (err, errlen, "%s", msg);
    return -1;
  }
  for (i = 0; i < p->nlines && used < sizeof where; i++) {
    char pat[64];
    snprintf (pat, sizeof pat, "%s=", p->lines[i].key);
    if (strstr (msg, pat))
      used += (size_t) snprintf (where + used, sizeof where - used,
                                 ", line %u (%s)", p->lines[i].line,
                                 p->lines[i].key);
  }
  snprintf (err, errlen, "profile %s%s, or a parameter given over it: %s",
            p->file, where, msg);
  return -1;
}

int
hdd_params_validate (const struct hdd_params *p, char *err, size_t errlen)
{
  char msg[HDD_ERRLEN];
  struct drive_layout *l;

  if (params_check (p, msg, sizeof msg) == -1)
    return validate_fail (p, msg, err, errlen);
  if (p->kind == KIND_FIXED)
    return 0;
  /* The rest needs the geometry and the seek fit. */
  l = layout_new (p, 0, msg, sizeof msg);
  if (!l)
    return validate_fail (p, msg, err, errlen);
  layout_free (l);
  return 0;
}
