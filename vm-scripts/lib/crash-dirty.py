#!/usr/bin/python3
"""crash-dirty: how long a write-back cache holds acknowledged data, from
the traces of vm-scripts/crash's first boots.

Usage: crash-dirty.py REPLAY CUTDIR...

For each cut directory: replays its trace-1.csv (a cache=wb run) through
hddsim-replay (REPLAY) with cache=wt and the same other parameters (from
nbdkit-1.cmd), which gives each write's media access time; then takes
each acknowledged write as dirty from its completion in the cache=wb
trace for one such access (the model starts destaging at once when the
arm is idle: model/hdd.c, dirty_since), and prints the share of the
boot's write-active time during which some acknowledged data was not on
the media, the median access, and the mean over all directories.  An
estimate: a destage that waits for the arm, or is merged with the next
one, is not modeled here.
"""
import csv
import os
import shlex
import statistics
import subprocess
import sys
import tempfile


def plugin_params(cmd_file):
    """The hddsim parameters of the first boot, cache= and the per-run
    ones left out."""
    words = shlex.split(open(cmd_file).read())
    skip = ("image=", "trace=", "stats=", "host-sync=", "powercut=", "cache=")
    so = [i for i, w in enumerate(words) if w.endswith(".so")]
    if not so:
        sys.exit("crash-dirty: no plugin in %s" % cmd_file)
    return [w for w in words[so[0] + 1:] if "=" in w and not w.startswith(skip)]


def dirty_share(replay, cutdir):
    trace = os.path.join(cutdir, "trace-1.csv")
    params = plugin_params(os.path.join(cutdir, "nbdkit-1.cmd"))
    with tempfile.NamedTemporaryFile(suffix=".csv") as out:
        subprocess.run([replay, "--output=" + out.name, trace, "size=2G",
                        "cache=wt"] + params, check=True,
                       stdout=subprocess.DEVNULL)
        wt = {r["id"]: r for r in csv.DictReader(open(out.name))}
    iv = []
    for r in csv.DictReader(open(trace)):
        if r["op"] != "write" or r["outcome"] != "ok" or r["id"] not in wt:
            continue
        w = wt[r["id"]]
        access = int(w["done_ns"]) - int(w["start_ns"])
        iv.append((int(r["done_ns"]), int(r["done_ns"]) + access))
    if len(iv) < 2:
        return None
    iv.sort()
    span = iv[-1][0] - iv[0][0]
    total, (cs, ce) = 0, iv[0]
    for s, e in iv[1:]:
        if s > ce:
            total, cs, ce = total + ce - cs, s, e
        else:
            ce = max(ce, e)
    total += ce - cs
    return (len(iv), span / 1e9, total / span,
            statistics.median(e - s for s, e in iv) / 1e6)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    shares = []
    for d in sys.argv[2:]:
        r = dirty_share(sys.argv[1], d)
        if r is None:
            print("%s: fewer than 2 writes" % d)
            continue
        n, span, share, med = r
        shares.append(share)
        print("%s: %d writes over %.1f s, dirty %.1f%% of the time, "
              "median access %.2f ms" % (os.path.basename(d.rstrip("/")),
                                         n, span, 100 * share, med))
    if shares:
        print("mean dirty share over %d boots: %.1f%%"
              % (len(shares), 100 * statistics.mean(shares)))


main()
