/* hddsim: DiskSim's disk cache (the buffer segments, read-ahead,
 * write segments and fast writes of disksim_disk) as the model's
 * cache parameters.
 */

#include <stdbool.h>
#include <stdint.h>

#include "map.h"

/* Read-ahead over requested (1, 0, -1), Minimum and Maximum
 * read-ahead: DiskSim's controller takes them as they are.
 */
static void
map_readahead_bounds (struct map_out *o, const struct ds_drive *d,
                      struct hdd_params *p)
{
  static const char *const over[] = { "drop", "no", "yes" };

  map_set_word (o, p, d->ra_over.at, "Read-ahead over requested",
                "readahead-over", over[(int) d->ra_over.v + 1]);
  map_set (o, p, d->ra_min.at, "Minimum read-ahead (blks)", "readahead-min",
           (uint64_t) d->ra_min.v * SECTOR, false);
  map_set (o, p, d->ra_max.at, "Maximum read-ahead (blks)", "readahead-max",
           (uint64_t) d->ra_max.v * SECTOR, false);
}

static void
map_readahead (struct map_out *o, const struct ds_drive *d,
               struct hdd_params *p)
{
  /* Buffer continuous read: 1, 2 stop at the end of the request's
     track, cylinder (DiskSim stops a background read at a head switch,
     a seek); 3 reads Maximum read-ahead past the request; 4 (DiskSim's
     "DEC prefetch scheme") to the end of the track of the block after
     the request, one track more if the segment began on an earlier
     track, not limited by Maximum read-ahead (the segment limits it). */
  static const char *const until[] = {
    NULL, "track", "cylinder", "size", "next-track",
  };
  unsigned mode = (unsigned) d->cont_read.v;

  if (mode == 0)
    p->readahead = 0;
  else if (mode < sizeof until / sizeof until[0]
           && d->cont_read.v == (double) mode) {
    /* Modes 1-3: Maximum read-ahead, or 0 for a segment's worth. */
    bool by_seg = mode == 4 || d->ra_max.v == 0;
    p->readahead = (uint64_t) (by_seg ? d->seg_size.v : d->ra_max.v) * SECTOR;
    map_set_word (o, p, d->cont_read.at, "Buffer continuous read",
                  "readahead-until", until[mode]);
  }
  else
    map_block (o, d->cont_read.at, "Buffer continuous read = %g: not one of "
               "DiskSim's 0 to 4", d->cont_read.v);
  map_readahead_bounds (o, d, p);
  map_set_word (o, p, d->ra_idle_hit.at, "Read-ahead on idle hit",
                "readahead-on-hit", d->ra_idle_hit.v != 0 ? "1" : "0");
  map_set_word (o, p, d->read_any_free.at, "Read any free blocks",
                "read-any-free", d->read_any_free.v != 0 ? "1" : "0");
  /* 1: a prefetch may be aborted in the middle of a sector; 0: only
     at sector boundaries (the manual). */
  map_set_word (o, p, d->stop_pf_sector.at, "Stop prefetch in sector",
                "readahead-stop", d->stop_pf_sector.v != 0 ? "now" : "sector");
  /* DiskSim's read-ahead serves a read whose first block it has read
     (waiting for the rest), and with almost read hits one whose first
     block it is reading now. */
  map_set_word (o, p, d->almost_hits.at, "Allow almost read hits",
                "readahead-hits", d->almost_hits.v != 0 ? "almost" : "read");
}

/* A write's data stays in a segment: one of its own (Use separate
 * write segment = 1: DiskSim's dedicated write segment, one of the
 * Number of buffer segments) or a read segment (0).  Reads may hit it
 * with Allow read hits on write data = 1.
 */
static void
map_write_segments (struct map_out *o, const struct ds_drive *d,
                    struct hdd_params *p)
{
  bool separate = d->sep_write_seg.v == 1 && d->segments.v > 1;
  uint64_t nread = (uint64_t) d->segments.v - separate;

  map_set_word (o, p, d->sep_write_seg.at, "Use separate write segment",
                "cache-write-segment", separate ? "separate" : "shared");
  map_set_word (o, p, d->hits_on_write.at, "Allow read hits on write data",
                "cache-write-hits", d->hits_on_write.v != 0 ? "1" : "0");
  map_set (o, p, d->segments.at, "Number of buffer segments",
           "cache-segments", nread, false);
  /* cache-size is the read segments' (the write segment is one more). */
  map_set (o, p, d->seg_size.at, "Segment size (in blks)", "cache-size",
           nread * (uint64_t) d->seg_size.v * SECTOR, false);
}

/* Fast write level 1 and 2: a write completes once its data is in
 * the buffer and the media write goes on (model: fast-write=).  The
 * number of write segments does not bound it: without write
 * prebuffering (refused) a write waits for the media write before it
 * takes a segment, so one segment is dirty at a time.  Appending to
 * the media write under way needs Combine seq writes.
 */
static void
map_fast_write (struct map_out *o, const struct ds_drive *d,
                struct hdd_params *p)
{
  map_set (o, p, d->combine.at, "Combine seq writes", "combine-writes",
           d->combine.v != 0, false);
  map_set (o, p, d->write_segs.at, "Maximum number of write segments",
           "write-segments", (uint64_t) d->write_segs.v, false);
  if (d->fast_write.v == 0)
    return;
  map_set (o, p, d->fast_write.at, "Fast write level", "fast-write",
           (uint64_t) d->fast_write.v, false);
}

void
map_cache (struct map_out *o, const struct ds_drive *d, struct hdd_params *p)
{
  /* 2 is allowed by DiskSim and not defined by the manual; DiskSim's
     cache code takes any non-zero value for "on". */
  if (d->caching.v == 0) {
    p->cache = CACHE_OFF;
    p->readahead = 0;
    map_need (o, &d->cont_read, "Buffer continuous read", 0, "read-ahead "
              "without caching is not modelled");
    map_need (o, &d->fast_write, "Fast write level", 0, "write-back without "
              "caching is not modelled");
    /* DiskSim's controller still stages every transfer in the
       segments (caching off only forgets them after): they keep their
       number and size, and a write needs a write segment. */
    map_write_segments (o, d, p);
    map_set (o, p, d->write_segs.at, "Maximum number of write segments",
             "write-segments", (uint64_t) d->write_segs.v, false);
    return;
  }
  p->cache = CACHE_WT;
  map_fast_write (o, d, p);
  /* A read whose first blocks a segment holds reads only the rest.
     Immed transfer partial hit = 0 makes DiskSim wait for the read
     water mark before transferring, which is at most one block with
     High (read) water mark = 0 (map_controller requires it): the
     cached blocks are there, so both values behave the same. */
  map_set_word (o, p, d->imm_partial.at, "Immed transfer partial hit",
                "cache-partial-hits", "1");
  map_set (o, p, d->imm_partial.at, "Immed transfer partial hit",
           "immed-partial-hit", d->imm_partial.v != 0, false);
  map_write_segments (o, d, p);
  map_readahead (o, d, p);
}
