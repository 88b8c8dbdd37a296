#!/usr/bin/env bash
# hddsim: the write cache under sustained scattered writes (issue 25),
# by the method of the issue's table: on a 4 GiB sparse image spread
# over the platter (placement=spread, cache on, host fifo), QD1 4K
# random reads for RUNTIME seconds, then QD1 4K random writes for
# WRITETIME seconds, then one flush (fio's end_fsync, NBD's FLUSH),
# one fio job through the nbd engine each.  Printed per profile: fio's
# read and write IOPS, their ratio (issue 25's bound: at most 3), the
# same writes with cache=off (the ratio must stay above them), and the
# flush's service time from the trace (done_ns - start_ns; the bound:
# under 2 s).  Beside them, the model's own figures for the same
# sequence, replayed closed loop (see replayed below).  EXTRA parameters go to every server (e.g.
# EXTRA=legacy=true for the cache before issue 25).
#
#   bench/write-cache.sh
#   RUNTIME=5 WRITETIME=10 PROFILES=st340014a bench/write-cache.sh
#
# The table goes to stdout.  Exits 1 if a profile misses a bound.

source "$(dirname "$0")/lib.sh"

RUNTIME=${RUNTIME:-10}
WRITETIME=${WRITETIME:-30}
PROFILES=${PROFILES:-st340014a st500lt012 st4000nm0033}
EXTRA=${EXTRA:-}

# iops NAME RW: fio's IOPS of job NAME's reads or writes.
iops () {
  json "$WORK/$1.json" "'%.1f' % j['jobs'][0]['$2']['iops']"
}

# fio4k NAME RW SECONDS [FIO-ARGS]: QD1 4K random RW over the image.
fio4k () {
  local name=$1 rw=$2 secs=$3; shift 3
  run_fio "$name" --name="$name" --rw="$rw" --bs=4k --iodepth=1 \
    --norandommap --randrepeat=0 --time_based --runtime="$secs" \
    --size="$(stat -c %s "$IMAGE")" "$@"
}

# replayed PROFILE: the same sequence through hddsim-replay, closed
# loop at QD1 with no host turnaround (--closed=1): 2,000 random reads,
# 3,000 random writes, a flush, on the same 4 GiB image.  Prints the
# drive's reads/s (requests over their service time), writes/s (over
# the wall time of the last 1,500 writes, the cache long full: the
# sustained rate), and the flush's ms.  Deterministic: the model's
# figures, which no host load moves.
replayed () {
  [ -f "$WORK/seq.csv" ] || python3 - "$WORK/seq.csv" <<'PY'
import random, sys
r = random.Random(1)
blocks = (4 << 30) // 4096
with open(sys.argv[1], "w") as f:
    f.write("op,offset,length\n")
    for op, n in (("read", 2000), ("write", 3000)):
        for _ in range(n):
            f.write("%s,%d,4096\n" % (op, r.randrange(blocks) * 4096))
    f.write("flush,0,0\n")
PY
  # shellcheck disable=SC2086
  "$TOP/build/tools/hddsim-replay" --closed=1 --output="$WORK/replay.csv" \
    "$WORK/seq.csv" size=4G sched=fifo placement=spread profile="$1" $EXTRA
  python3 - "$WORK/replay.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
rd = [r for r in rows if r["op"] == "read"]
wr = [r for r in rows if r["op"] == "write"][1500:]
fl = [r for r in rows if r["op"] == "flush"][0]
busy = sum(int(r["done_ns"]) - int(r["start_ns"]) for r in rd) / 1e9
wall = (int(wr[-1]["done_ns"]) - int(wr[0]["arrival_ns"])) / 1e9
print("%.1f %.1f %.1f" % (len(rd) / busy, len(wr) / wall,
                          (int(fl["done_ns"]) - int(fl["start_ns"])) / 1e6))
PY
}

# flush_ms: the service time of the last flush in the trace, in ms.
flush_ms () {
  python3 - "$TRACE" <<'PY'
import csv, sys
ms = None
for r in csv.DictReader(open(sys.argv[1])):
    if r["op"] == "flush":
        ms = (int(r["done_ns"]) - int(r["start_ns"])) / 1e6
print("%.1f" % ms if ms is not None else "-")
PY
}

# measure PROFILE: one table row; returns 1 if it misses a bound.
measure () {
  local p=$1 rd wr off fl model
  model=$(replayed "$p")
  # shellcheck disable=SC2086
  start_server sched=fifo placement=spread profile="$p" $EXTRA
  fio4k rr randread "$RUNTIME"
  fio4k rw randwrite "$WRITETIME" --end_fsync=1
  stop_server
  rd=$(iops rr read)
  wr=$(iops rw write)
  fl=$(flush_ms)
  # shellcheck disable=SC2086
  start_server sched=fifo placement=spread profile="$p" $EXTRA cache=off
  fio4k off randwrite "$RUNTIME"
  stop_server
  off=$(iops off write)
  # shellcheck disable=SC2086 # $model: three numbers
  python3 - "$p" "$rd" "$wr" "$off" "$fl" $model <<'PY'
import sys
p, rd, wr, off = sys.argv[1], *map(float, sys.argv[2:5])
fl = sys.argv[5]
mrd, mwr, mfl = map(float, sys.argv[6:9])
ok = (wr <= 3 * rd and wr > off and fl != "-" and float(fl) < 2000
      and mwr <= 3 * mrd and mwr > off and mfl < 2000)
print("| %s | %.1f | %.1f | %.2fx | %.1f | %s | %.1f | %.1f | %.2fx | %.1f | %s |"
      % (p, rd, wr, wr / rd, off, fl, mrd, mwr, mwr / mrd, mfl,
         "yes" if ok else "NO"))
sys.exit(0 if ok else 1)
PY
}

make_image 4G
echo "| profile | fio reads/s | fio writes/s | writes/reads | fio writes/s, cache=off | the flush after them, ms | model reads/s | model writes/s | writes/reads | flush ms | within |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
status=0
for p in $PROFILES; do
  measure "$p" || status=1
done
exit $status
