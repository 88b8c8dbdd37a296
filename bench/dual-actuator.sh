#!/usr/bin/env bash
# hddsim: exos2x18's two actuators in counts of modeled time (issue 26's
# done-when).  4K random reads at QD16, closed loop through
# build/tools/hddsim-replay (--closed=16), write cache off, host fifo:
#   both    over the whole drive: each half (each arm) gets half
#   one     confined to the first half (one arm)
#   single  the same drive with one arm (actuators=1), over the whole
#           stroke (what one arm of the two covers within its half)
# The rate is requests over the modeled span (the last completion).
# Passes when both >= 1.8 x one and one <= 1.1 x single.  N requests a
# case (default 20000).
#
#   bench/dual-actuator.sh
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
REPLAY=$TOP/build/tools/hddsim-replay
N=${N:-20000}
[ -x "$REPLAY" ] || { echo "dual-actuator.sh: build/tools/hddsim-replay not built" >&2; exit 2; }
WORK=$(mktemp -d /tmp/hddsim-dual-XXXXXX)
trap 'rm -rf "$WORK"' EXIT

CAP=$("$TOP/build/tools/hddsim-profile" exos2x18 | sed -n 's/^capacity=//p')

# trace FILE FROM TO: N 4K reads, uniformly random in [FROM, TO) bytes.
trace () {
  awk -v n="$N" -v lo="$2" -v hi="$3" 'BEGIN {
    srand (1); print "op,offset,length"; blocks = int ((hi - lo) / 4096)
    for (i = 0; i < n; i++)
      printf "read,%.0f,4096\n", lo + int (rand () * blocks) * 4096 }' > "$1"
}

# rate TRACE PARAMS...: requests a second of modeled time.
rate () {
  local t=$1; shift
  "$REPLAY" --closed=16 --output="$WORK/out.csv" "$t" profile=exos2x18 \
    sched=fifo cache=off "$@" >/dev/null
  python3 - "$WORK/out.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
end = max(int(r["done_ns"]) for r in rows)
print("%.1f" % (len(rows) / (end / 1e9)))
PY
}

trace "$WORK/both.csv" 0 "$CAP"
trace "$WORK/one.csv" 0 $((CAP / 2))
both=$(rate "$WORK/both.csv")
one=$(rate "$WORK/one.csv")
single=$(rate "$WORK/both.csv" actuators=1)
python3 - "$both" "$one" "$single" <<'PY'
import sys
both, one, single = map(float, sys.argv[1:])
ok1, ok2 = both >= 1.8 * one, one <= 1.1 * single
print("| exos2x18, 4K random reads QD16, cache off | IOPS |\n|---|---:|")
print("| both halves | %.1f |\n| one half | %.1f |\n| one arm (actuators=1), whole stroke | %.1f |" % (both, one, single))
print("both / one = %.2f (>= 1.8: %s); one / single = %.2f (<= 1.1: %s)"
      % (both / one, "yes" if ok1 else "NO", one / single, "yes" if ok2 else "NO"))
sys.exit(0 if ok1 and ok2 else 1)
PY
