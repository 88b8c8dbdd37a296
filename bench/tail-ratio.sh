#!/usr/bin/env bash
# hddsim: the tail of QD1 4K random reads (issue 25, "The tail"): the
# p99.9 / p99 ratio of their response times, with the profile's tail
# and with legacy=true (no tail), closed loop through hddsim-replay (--closed=1)
# (one request in flight: the next is issued when one completes, as
# fio at iodepth 1, less the client's turnaround).  The reads are
# aligned 4 KiB at offsets drawn uniformly over a 4 GiB image spread
# over the platter (placement=spread), as issue 25's measurements, or
# (SPAN=drive) over the whole drive, as the measurement the ratio is
# held against (fio on the raw device).  docs/model.md, "The tail",
# gives that measurement.
#
#   bench/tail-ratio.sh                   st340014a and st500lt012
#   PROFILES=st500lt012 N=400000 bench/tail-ratio.sh
#   SPAN=drive WINDOW=4324 SEEDS=1 bench/tail-ratio.sh
#
# N reads a run (default 200000: 200 beyond the p99.9), SEEDS the
# seed= of each run (default 1 2 3: the ratio is given for each),
# PARAMS more parameters for the runs with the tail (e.g. a retry-rate=
# to see what rate a given ratio needs), SPAN image (the default) or
# drive, WINDOW K: also the 5th to 95th percentile of the ratio over
# the run's consecutive windows of K reads (how far a measurement of K
# reads strays from the ratio by sampling alone).
# Prints a Markdown table.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
REPLAY=${REPLAY:-$TOP/build/tools/hddsim-replay}
PROFILE_TOOL=${PROFILE_TOOL:-$(dirname "$REPLAY")/hddsim-profile}
PROFILES=${PROFILES:-st340014a st500lt012}
N=${N:-200000}
SEEDS=${SEEDS:-1 2 3}
SPAN=${SPAN:-image}
WINDOW=${WINDOW:-}
read -r -a PARAMS <<<"${PARAMS:-}"

die () { echo "tail-ratio: $*" >&2; exit 2; }
[ -x "$REPLAY" ] || die "$REPLAY: not built"
case $SPAN in image|drive) ;; *) die "SPAN: image or drive (got '$SPAN')" ;; esac
[ -z "$WINDOW" ] || [[ $WINDOW =~ ^[1-9][0-9]*$ ]] || die "WINDOW: a number of reads (got '$WINDOW')"
WORK=$(mktemp -d /tmp/hddsim-tail-ratio-XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# span PROFILE: the bytes the reads are drawn over, and the placement
span () {
  if [ "$SPAN" = image ]; then
    echo "$((4 << 30)) spread"
  else
    echo "$("$PROFILE_TOOL" "$1" | sed -n 's/^capacity=//p') start"
  fi
}

# reads SIZE: the reads, op,offset,length, from a fixed generator (the
# same trace for every profile and seed of a size)
reads () {
  python3 - "$N" "$1" <<'PY'
import random, sys
n, size = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(25)
print("op,offset,length")
for _ in range(n):
    print("read,%d,4096" % (rng.randrange(size // 4096) * 4096))
PY
}

# response_ms FILE: each request's done_ns - arrival_ns in ms, one a
# line, in the order of the output
response_ms () {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
           { print ($(c["done_ns"]) - $(c["arrival_ns"])) / 1e6 }' "$1"
}

# quantiles: of the times on stdin, p50 p99 p99.9; with WINDOW, then
# "P5-P95(K)": the 5th and 95th percentile of the p99.9/p99 of each of
# the K whole windows of WINDOW consecutive times.  A percentile q of n
# sorted values is the one at rank int(n q) (at least 1).
quantiles () {
  python3 -c '
import sys
w = int(sys.argv[1])
v = [float(x) for x in sys.stdin]
def pct(s, q): return s[max(int(len(s) * q), 1) - 1]
s = sorted(v)
out = "%.2f %.2f %.2f" % (pct(s, 0.50), pct(s, 0.99), pct(s, 0.999))
if w > 0 and len(v) >= w:
    r = []
    for b in range(0, len(v) - w + 1, w):
        x = sorted(v[b:b + w])
        r.append(pct(x, 0.999) / pct(x, 0.99))
    r.sort()
    out += " %.2f-%.2f(%d)" % (pct(r, 0.05), pct(r, 0.95), len(r))
print(out)' "${WINDOW:-0}"
}

head="| profile | span | seed | tail | p50 ms | p99 ms | p99.9 ms | p99.9/p99 |"
rule="|---|---|---|---|---|---|---|---|"
if [ -n "$WINDOW" ]; then
  head+=" windows of $WINDOW reads: p5-p95 (windows) |"
  rule+="---|"
fi
echo "$head"
echo "$rule"
for p in $PROFILES; do
  read -r size placement < <(span "$p")
  [[ $size =~ ^[0-9]+$ ]] || die "no capacity for profile '$p' ($PROFILE_TOOL $p)"
  [ -s "$WORK/reads-$size.csv" ] || reads "$size" > "$WORK/reads-$size.csv"
  for s in $SEEDS; do
    for mode in on legacy; do
      extra=(${PARAMS[@]+"${PARAMS[@]}"})
      [ $mode = legacy ] && extra=(legacy=true)
      nice -n 19 "$REPLAY" --closed=1 --output="$WORK/out.csv" \
        "$WORK/reads-$size.csv" size="$size" profile="$p" \
        placement="$placement" seed="$s" sched=fifo \
        ${extra[@]+"${extra[@]}"} >/dev/null
      read -r p50 p99 p999 windows < <(response_ms "$WORK/out.csv" | quantiles)
      [ -n "${p999:-}" ] || die "no response times from $REPLAY ($p, seed $s, $mode)"
      ratio=$(awk -v a="$p999" -v b="$p99" 'BEGIN { printf "%.2f", a / b }')
      row="| $p | $SPAN | $s | $mode | $p50 | $p99 | $p999 | $ratio |"
      [ -z "$WINDOW" ] || row+=" ${windows/(/ (} |"
      echo "$row"
    done
  done
done
