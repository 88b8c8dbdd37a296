#!/usr/bin/env bash
# hddsim: a writer and readers over a drive that queues (issue 24):
# does a host policy still keep the readers' tail down when the drive
# reorders beneath it?  For each layout, ncq-depth and policy, fio
# through the nbd engine for RUNTIME seconds (default 20) on PROFILE
# (default st340014a) over a 4 GiB image written through first:
#   two  the writer (rw=write bs=1M iodepth=4) on one connection, the
#        readers (rw=randread bs=4k iodepth=4) on another;
#   one  both on one connection: one job, rw=randrw, writes sequential
#        and reads random (percentage_random=100,0), bs=4k,1M,
#        rwmixread=50, iodepth=8.
# Records the reads' p50, p99 and p99.9 completion latency and the
# writes' MB/s; the table goes to $OUTDIR/ncq-writer-readers.md
# (docs/schedulers/) with each run's trace (gzipped) and, for each
# layout, a plot of head position and queues (2 s) of the PLOTTED
# policies' runs (default fifo and cfq).
#
#   bench/ncq-writer-readers.sh
#   POLICIES="fifo cfq" DEPTHS=32 LAYOUTS=two RUNTIME=10 bench/ncq-writer-readers.sh
#
# The issue's check: at ncq-depth=32, cfq's reader p99 below fifo's in
# both layouts.  Exits 1 if it is not.

source "$(dirname "$0")/lib.sh"
POLICIES=${POLICIES:-fifo cfq}
source "$(dirname "$0")/sched-lib.sh"

RUNTIME=${RUNTIME:-20}
SIZE=${SIZE:-4G}
DEPTHS=${DEPTHS:-1 32}
PLOTTED=${PLOTTED:-fifo cfq}
LAYOUTS=${LAYOUTS:-two one}
PLOT=$TOP/tools/hddsim-plot

# jobs LAYOUT: fio's job options.
jobs () {
  case $1 in
    two) echo "--name=writer --rw=write --bs=1M --iodepth=4" \
              "--name=readers --rw=randread --bs=4k --iodepth=4" ;;
    one) echo "--name=mixed --rw=randrw --percentage_random=100,0" \
              "--bs=4k,1M --rwmixread=50 --iodepth=8" ;;
    *) die "unknown layout $1" ;;
  esac
}

# reads FILE FIELD: over every job, the reads' (p50|p99|p999 in ns, or
# iops) and the writes' MB/s (wmbs).
reads () {
  python3 - "$1" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
f = sys.argv[2]
jobs = j["jobs"]
if f == "wmbs":
    print("%.2f" % (sum(x["write"]["bw"] for x in jobs) * 1024 / 1e6))
elif f == "iops":
    print("%.1f" % sum(x["read"]["iops"] for x in jobs))
else:
    key = {"p50": "50.000000", "p99": "99.000000", "p999": "99.900000"}[f]
    r = [x["read"] for x in jobs if x["read"]["total_ios"]]
    print("%.1f" % (max(x["clat_ns"]["percentile"][key] for x in r) / 1e6))
PY
}

make_full_image "$SIZE"
TABLE=$WORK/table.md
{
  echo "| layout | ncq-depth | policy | read p50 ms | read p99 ms | read p99.9 ms | read IOPS | write MB/s |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|"
} > "$TABLE"
declare -A P99
for layout in $LAYOUTS; do
  panels=()
  for depth in $DEPTHS; do
    for pol in $POLICIES; do
      start_server sched="$pol" profile="$PROFILE" ncq-depth="$depth"
      # shellcheck disable=SC2046
      run_fio "$layout-$depth-$pol" --time_based --runtime="$RUNTIME" \
        --size="$SIZE" $(jobs "$layout")
      stop_server
      f=$WORK/$layout-$depth-$pol.json
      P99[$layout-$depth-$pol]=$(reads "$f" p99)
      echo "| $layout | $depth | $pol | $(reads "$f" p50) | ${P99[$layout-$depth-$pol]} | $(reads "$f" p999) | $(reads "$f" iops) | $(reads "$f" wmbs) |" >> "$TABLE"
      tail -1 "$TABLE"
      gzip -c "$TRACE" > "$OUTDIR/ncq-wr-$layout-$depth-$pol.csv.gz"
      cp "$TRACE" "$WORK/$layout-$depth-$pol.csv"
      case " $PLOTTED " in *" $pol "*)
        panels+=("$pol, ncq-depth $depth=$WORK/$layout-$depth-$pol.csv") ;;
      esac
    done
  done
  if [ ${#panels[@]} -gt 0 ] && command -v gnuplot >/dev/null; then
    "$PLOT" --queue -o "$OUTDIR/ncq-wr-$layout.png" --from 5 --to 7 \
      --unit GiB --title "writer and readers ($layout connection(s)), $PROFILE: 2 s" \
      "${panels[@]}" >/dev/null
  fi
done

pairs=()
for k in "${!P99[@]}"; do pairs+=("$k" "${P99[$k]}"); done
verdict=$(python3 - "${pairs[@]}" <<'PY'
import sys
a = sys.argv[1:]
p = {a[i]: float(a[i + 1]) for i in range(0, len(a), 2)}
out, ok = [], True
for layout in ("two", "one"):
    f, c = p.get(layout + "-32-fifo"), p.get(layout + "-32-cfq")
    if f is None or c is None:
        continue
    good = c < f
    ok = ok and good
    out.append("%s: cfq %.1f ms < fifo %.1f ms: %s"
               % (layout, c, f, "yes" if good else "NO"))
print("; ".join(out) + ("" if out else "no ncq-depth=32 fifo/cfq pair"),
      "MET" if ok and out else "NOT MET")
PY
)
{
  echo "# A writer and readers over a queueing drive ($PROFILE, ${RUNTIME}s, $(date -u +%Y-%m-%d))"
  echo
  echo "Produced by \`bench/ncq-writer-readers.sh\` (its header says what each"
  echo "layout runs).  Latencies are fio's completion latencies of the reads."
  echo
  cat "$TABLE"
  echo
  echo "Reader p99 at ncq-depth=32: $verdict"
} > "$OUTDIR/ncq-writer-readers.md"
echo "$verdict"
echo "wrote $OUTDIR/ncq-writer-readers.md"
case $verdict in *"NOT MET") exit 1 ;; esac
