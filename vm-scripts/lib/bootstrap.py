#!/usr/bin/python3
"""bootstrap: the sampling error of a run's tail percentile, from the
run's own requests: a bootstrap over blocks of time.

Usage: bootstrap.py [--stat p99|pNN.N|mean] [--block-s S] [--reps N]
                    [--seed N] [--scale X] LOG...

Reads fio latency logs (write_lat_log: "time_ms, value, ddir, bs, ...";
the logs of several jobs are pooled, each job's time from its own start)
and prints one line:

    stat=p99 value=V se=SE lo=LO hi=HI n=N blocks=K block_s=S reps=R seed=D

V is the statistic of all the requests (a percentile by nearest rank,
the ceil(q n)-th smallest); SE the standard deviation of the statistic
over R resamples, LO and HI their 2.5% and 97.5% points.  Values are
multiplied by --scale (default 1e-6: fio's nanoseconds to ms).

Why blocks: a run's latencies come in episodes (a reader waits behind a
burst of writeback, then several reads in a row are slow), so requests
are not independent and resampling them one by one understates the
error of a tail percentile.  The run is cut into consecutive blocks of
S seconds (empty ones kept: a stall is a block with few completions);
each resample draws as many blocks, with replacement, and pools their
requests (Carlstein's non-overlapping block bootstrap).  The draws come
from Python's Mersenne Twister seeded with --seed, through random()
only, whose sequence Python keeps from version to version: the same
logs and seed give the same figures.
"""
import argparse
import math
import random
import sys


def read_fio_logs(paths):
    """(time s, value) of every logged request of every log."""
    out = []
    for path in paths:
        with open(path) as f:
            for line in f:
                fields = line.split(",")
                if len(fields) < 2:
                    continue
                try:
                    out.append((float(fields[0]) / 1000.0, float(fields[1])))
                except ValueError:
                    continue
    return out


def blocks_of(samples, block_s):
    """The values cut into consecutive blocks of block_s seconds from 0,
    the empty ones kept."""
    if not samples:
        return []
    k = int(max(t for t, _ in samples) // block_s) + 1
    blocks = [[] for _ in range(k)]
    for t, v in samples:
        blocks[int(t // block_s)].append(v)
    return blocks


def statistic(name):
    """The function of a list of values that --stat names."""
    if name == "mean":
        return lambda xs: sum(xs) / len(xs)
    if not name.startswith("p"):
        raise ValueError("--stat: mean or pNN (got %r)" % name)
    q = float(name[1:]) / 100.0
    if not 0 < q <= 1:
        raise ValueError("--stat %s: the percentile must be in (0, 100]" % name)
    return lambda xs: nearest_rank(sorted(xs), q)


def nearest_rank(sorted_xs, q):
    """The ceil(q n)-th smallest of n sorted values (as conn_summary's)."""
    r = max(1, math.ceil(q * len(sorted_xs) - 1e-9))
    return sorted_xs[r - 1]


def resample(blocks, stat, reps, seed):
    """The statistic of reps resamples of len(blocks) blocks, drawn with
    replacement; a resample of empty blocks only is drawn again."""
    rng = random.Random(seed)
    k = len(blocks)
    out = []
    while len(out) < reps:
        pooled = []
        for _ in range(k):
            pooled.extend(blocks[int(rng.random() * k)])
        if pooled:
            out.append(stat(pooled))
    return out


def summary(values, reps_values):
    """SE, and the 2.5% and 97.5% points of the replicates."""
    m = sum(reps_values) / len(reps_values)
    se = math.sqrt(sum((x - m) ** 2 for x in reps_values) / (len(reps_values) - 1))
    s = sorted(reps_values)
    return se, nearest_rank(s, 0.025), nearest_rank(s, 0.975)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stat", default="p99")
    ap.add_argument("--block-s", type=float, default=1.0)
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scale", type=float, default=1e-6)
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()
    if a.block_s <= 0 or a.reps < 2:
        sys.exit("bootstrap: --block-s must be > 0 and --reps >= 2")
    try:
        stat = statistic(a.stat)
    except ValueError as e:
        sys.exit("bootstrap: %s" % e)
    samples = [(t, v * a.scale) for t, v in read_fio_logs(a.logs)]
    if not samples:
        sys.exit("bootstrap: no requests in %s" % " ".join(a.logs))
    blocks = blocks_of(samples, a.block_s)
    value = stat([v for _, v in samples])
    se, lo, hi = summary(value, resample(blocks, stat, a.reps, a.seed))
    print("stat=%s value=%.6g se=%.6g lo=%.6g hi=%.6g n=%d blocks=%d block_s=%g reps=%d seed=%d"
          % (a.stat, value, se, lo, hi, len(samples), len(blocks), a.block_s, a.reps, a.seed))


if __name__ == "__main__":
    main()
