#!/usr/bin/env bash
# hddsim: the tail of QD1 4K random reads (issue 25, "The tail"): the
# p99.9 / p99 ratio of their response times, with the profile's tail
# and with legacy=true (no tail), closed loop through hddsim-replay (--closed=1)
# (one request in flight: the next is issued when one completes, as
# fio at iodepth 1, less the client's turnaround).  The reads are
# aligned 4 KiB at offsets drawn uniformly over a 4 GiB image spread
# over the platter (placement=spread), as issue 25's measurements.
# docs/model.md, "The tail", gives the measurement of a drive of the
# class the ratio is held against.
#
#   bench/tail-ratio.sh                   st340014a and st500lt012
#   PROFILES=st500lt012 N=400000 bench/tail-ratio.sh
#
# N reads a run (default 200000: 200 beyond the p99.9), SEEDS the
# seed= of each run (default 1 2 3: the ratio is given for each),
# PARAMS more parameters for the runs with the tail (e.g. a retry-rate=
# to see what rate a given ratio needs).
# Prints a Markdown table.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
REPLAY=${REPLAY:-$TOP/build/tools/hddsim-replay}
PROFILES=${PROFILES:-st340014a st500lt012}
N=${N:-200000}
SEEDS=${SEEDS:-1 2 3}
read -r -a PARAMS <<<"${PARAMS:-}"
SIZE=$((4 << 30))

[ -x "$REPLAY" ] || { echo "tail-ratio: $REPLAY: not built" >&2; exit 2; }
WORK=$(mktemp -d /tmp/hddsim-tail-ratio-XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# The reads: op,offset,length, offsets from a fixed generator (the
# same trace for every profile and seed).
python3 - "$N" "$SIZE" >"$WORK/reads.csv" <<'EOF'
import random, sys
n, size = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(25)
print("op,offset,length")
for _ in range(n):
    print("read,%d,4096" % (rng.randrange(size // 4096) * 4096))
EOF

# pct FILE: p50 p99 p99.9 (ms) of done_ns - arrival_ns.
pct () {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
           { print ($(c["done_ns"]) - $(c["arrival_ns"])) / 1e6 }' "$1" \
    | sort -g | awk '{ v[NR] = $1 }
        END { i50 = int(NR * 0.50); i99 = int(NR * 0.99);
              i999 = int(NR * 0.999);
              printf "%.2f %.2f %.2f\n", v[i50], v[i99], v[i999] }'
}

echo "| profile | seed | tail | p50 ms | p99 ms | p99.9 ms | p99.9/p99 |"
echo "|---|---|---|---|---|---|---|"
for p in $PROFILES; do
  for s in $SEEDS; do
    for mode in on legacy; do
      extra=(${PARAMS[@]+"${PARAMS[@]}"})
      [ $mode = legacy ] && extra=(legacy=true)
      nice -n 19 "$REPLAY" --closed=1 --output="$WORK/out.csv" \
        "$WORK/reads.csv" size=$SIZE profile="$p" placement=spread \
        seed="$s" sched=fifo ${extra[@]+"${extra[@]}"} >/dev/null
      read -r p50 p99 p999 < <(pct "$WORK/out.csv")
      ratio=$(awk -v a="$p999" -v b="$p99" 'BEGIN { printf "%.2f", a / b }')
      echo "| $p | $s | $mode | $p50 | $p99 | $p999 | $ratio |"
    done
  done
done
