#!/usr/bin/env bash
# hddsim: the media cache (issue 25, item 2), the model's own figures
# through hddsim-replay (deterministic: no host load moves them).
#
# 1. 4K random reads and writes at QD16 (closed loop) over a 4 GiB
#    image spread over the platter, the write cache disabled
#    (cache=wt: "WCD"), as datasheets rate them: reads; writes with no
#    media cache; writes with one (MC, below: media-cache-overhead=
#    the default, 1.5 ms) and with one whose firmware takes
#    MC_OVERHEAD (0) per staged write instead.
# 2. The cleaning in the trace: the same writes with a map of
#    MC_SMALL entries (it fills, and writes stall while the drive
#    cleans: their busy_ns), then, open loop, 400 writes 2 ms apart, a
#    second of quiet, and 200 reads 10 ms apart (the first ones, after
#    media-cache-idle=, wait for the clean step under way).
#
#   bench/media-cache.sh
#   PROFILE=st4000nm0033 MC='media-cache-size=1G' bench/media-cache.sh
#
# The table goes to stdout; the traces stay in $KEEP if set.

set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
REPLAY=$TOP/build/tools/hddsim-replay
[ -x "$REPLAY" ] || { echo "media-cache: build first" >&2; exit 2; }

PROFILE=${PROFILE:-st4000nm0033}
MC=${MC:-media-cache-size=1G media-cache-at=0}
MC_OVERHEAD=${MC_OVERHEAD:-0}
MC_SMALL=${MC_SMALL:-1024}
WORK=${KEEP:-$(mktemp -d /tmp/hddsim-media-cache-XXXXXX)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK"

python3 - "$WORK" <<'PY'
import random, sys
w = sys.argv[1]
blocks = (4 << 30) // 4096
def closed(name, op, n, seed):
    r = random.Random(seed)
    with open("%s/%s.csv" % (w, name), "w") as f:
        f.write("op,offset,length\n")
        for _ in range(n):
            f.write("%s,%d,4096\n" % (op, r.randrange(blocks) * 4096))
closed("reads", "read", 4000, 1)
closed("writes", "write", 8000, 2)
r = random.Random(3)
with open("%s/idle.csv" % w, "w") as f:
    f.write("op,offset,length,arrival_ns\n")
    t = 0
    for i in range(400):
        f.write("write,%d,4096,%d\n" % (r.randrange(blocks) * 4096, t))
        t += 2000000
    t += 1000000000
    for i in range(400, 600):
        f.write("read,%d,4096,%d\n" % (r.randrange(blocks) * 4096, t))
        t += 10000000
PY

base=(size=4G placement=spread profile="$PROFILE" cache=wt)
# run NAME TRACE OPTION PARAMS...: the replay's trace in NAME.out
# (OPTION: --closed=16, or --speed=1 for the trace's own arrivals).
run () {
  local name=$1 trace=$2 opt=$3; shift 3
  "$REPLAY" "$opt" --output="$WORK/$name.out" "$WORK/$trace.csv" \
    "${base[@]}" "$@" > "$WORK/$name.log" 2>&1 ||
    { cat "$WORK/$name.log" >&2; exit 2; }
}
# shellcheck disable=SC2086 # MC: several parameters
{
  run reads reads --closed=16
  run nomc writes --closed=16
  run mc writes --closed=16 $MC
  run mcov writes --closed=16 $MC media-cache-overhead="$MC_OVERHEAD"
  run full writes --closed=16 $MC media-cache-entries="$MC_SMALL"
  run idle idle --speed=1 $MC
}

python3 - "$WORK" "$PROFILE" "$MC" "$MC_OVERHEAD" "$MC_SMALL" <<'PY'
import csv, sys
w, prof, mc, ov, small = sys.argv[1:6]
def rows(name):   # the requests: no clean step's row
    return [r for r in csv.DictReader(open("%s/%s.out" % (w, name)))
            if r["op"] != "clean"]
def iops(name, skip=0):
    r = rows(name)[skip:]
    span = (max(int(x["done_ns"]) for x in r)
            - min(int(x["start_ns"]) for x in r)) / 1e9
    return len(r) / span
rd = iops("reads")
print("| %s, 4K QD16, write cache off (WCD) | IOPS | / reads |" % prof)
print("|---|---:|---:|")
print("| random reads | %.0f | 1.00 |" % rd)
for name, what in (("nomc", "random writes, no media cache"),
                   ("mc", "random writes, media cache (%s)" % mc),
                   ("mcov", "random writes, media cache, "
                    "media-cache-overhead=%s" % ov)):
    v = iops(name)
    print("| %s | %.0f | %.2f |" % (what, v, v / rd))
f = rows("full")
st = [int(x["busy_ns"]) for x in f if int(x["busy_ns"]) > 0]
print()
print("Cleaning when full (media-cache-entries=%s): %d of %d writes "
      "stalled, %.0f ms in all, the longest %.1f ms; %.0f writes/s over "
      "the run" % (small, len(st), len(f), sum(st) / 1e6,
                   max(st, default=0) / 1e6, iops("full")))
r = rows("idle")
reads = [x for x in r if x["op"] == "read"]
waited = [x for x in reads if int(x["busy_ns"]) > 0]
first = min(int(x["arrival_ns"]) for x in reads)
print("Cleaning when idle: of 200 reads arriving after a second of quiet, "
      "%d waited for a clean step (%.1f ms in all, the first at +%.0f ms "
      "of the reads); the writes before: %d" %
      (len(waited), sum(int(x["busy_ns"]) for x in waited) / 1e6,
       (int(waited[0]["arrival_ns"]) - first) / 1e6 if waited else 0,
       sum(1 for x in r if x["op"] == "write")))
PY
