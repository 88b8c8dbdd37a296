#!/usr/bin/env bash
# hddsim: the fair test of the 2006 thread, for every policy: one
# writer going full throttle (rw=write bs=1M iodepth=4, plain writes,
# async) against four sync readers (rw=randread bs=4k iodepth=1), each
# job on its own NBD connection, for RUNTIME seconds (default 20), on
# the ST340014A profile.  Records reader p50/p99/max completion latency
# and writer MB/s, keeps each policy's trace, plots head position over
# time, and checks the issue's goal: cfq's reader p99 at least 3x lower
# than cscan's while cfq's writer keeps at least 10% of cscan's MB/s.
#
#   bench/sched-writer-readers.sh
#   POLICIES="cscan cfq" RUNTIME=10 bench/sched-writer-readers.sh
#   WRITE_BS=4M SERVER_ARGS="max-transfer=128K cfq-quantum-bytes=4M" \
#     TAG=4m-split bench/sched-writer-readers.sh
#
# WRITE_BS is the writer's request size (1M; QEMU sends a guest's
# writeback as NBD writes of about 2 to 9 MiB); SERVER_ARGS are more
# hddsim parameters for every run (e.g. max-transfer=128K, the
# ST340014A's real command size, to split requests into commands: the
# default, 0, serves each request as one); TAG names the outputs of
# such a variant.
#
# Output in $OUTDIR (docs/schedulers/): writer-readers[-TAG].md, the
# traces (wr-POLICY[-TAG].csv.gz), heads-writer-readers.png (2 s of
# every policy) and heads-writer-readers-full.png (the whole run, cscan
# and cfq); the plots only without TAG.

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/sched-lib.sh"

RUNTIME=${RUNTIME:-20}
SIZE=${SIZE:-4G}
WRITE_BS=${WRITE_BS:-1M}
read -r -a EXTRA <<< "${SERVER_ARGS:-}"
SUFFIX=${TAG:+-$TAG}
PLOT=$TOP/tools/hddsim-plot

make_full_image "$SIZE"
TABLE=$WORK/table.md
{
  echo "| policy | reader p50 ms | reader p99 ms | reader max ms | reader IOPS | writer MB/s |"
  echo "|---|---:|---:|---:|---:|---:|"
} > "$TABLE"
declare -A P99 WBW
panels=()

for pol in $POLICIES; do
  start_server sched="$pol" profile="$PROFILE" "${EXTRA[@]}"
  fio --output-format=json --output="$WORK/$pol.json" \
    --ioengine=nbd --uri="nbd+unix:///?socket=$SOCK" \
    --time_based --runtime="$RUNTIME" --size="$SIZE" --group_reporting \
    --name=writer --rw=write --bs="$WRITE_BS" --iodepth=4 \
    --name=readers --new_group --rw=randread --bs=4k --iodepth=1 --numjobs=4 \
    >/dev/null || die "fio failed under $pol"
  stop_server
  f=$WORK/$pol.json
  p50=$(fio_group "$f" 1 read p50); p99=$(fio_group "$f" 1 read p99)
  max=$(fio_group "$f" 1 read max); ios=$(fio_group "$f" 1 read ios)
  wbw=$(fio_group "$f" 0 write bw)
  P99[$pol]=$p99; WBW[$pol]=$wbw
  iops=$(python3 -c "print('%.1f' % ($ios / $RUNTIME))")
  echo "| $pol | $(ms "$p50") | $(ms "$p99") | $(ms "$max") | $iops | $(mbs "$wbw") |" >> "$TABLE"
  tail -1 "$TABLE"
  cp "$TRACE" "$WORK/wr-$pol.csv"
  gzip -c "$TRACE" > "$OUTDIR/wr-$pol$SUFFIX.csv.gz"
  panels+=("$pol=$WORK/wr-$pol.csv")
done

if [ -z "$SUFFIX" ] && command -v gnuplot >/dev/null; then
  "$PLOT" -o "$OUTDIR/heads-writer-readers.png" --from 5 --to 7 --unit GiB \
    --ymax "$(python3 -c "import sys; s=sys.argv[1]; print(float(s[:-1]) if s[-1] in 'Gg' else float(s) / 2**30)" "$SIZE")" \
    --title "writer + 4 readers, $PROFILE: head position, 2 s window" \
    "${panels[@]}" >/dev/null
  if [ -f "$WORK/wr-cscan.csv" ] && [ -f "$WORK/wr-cfq.csv" ]; then
    "$PLOT" -o "$OUTDIR/heads-writer-readers-full.png" --unit GiB \
      --ymax "$(python3 -c "import sys; s=sys.argv[1]; print(float(s[:-1]) if s[-1] in 'Gg' else float(s) / 2**30)" "$SIZE")" \
      --title "writer + 4 readers, $PROFILE: head position, whole run" \
      cscan="$WORK/wr-cscan.csv" cfq="$WORK/wr-cfq.csv" >/dev/null
  fi
fi

verdict=""
if [ -n "${P99[cscan]:-}" ] && [ -n "${P99[cfq]:-}" ]; then
  verdict=$(python3 - "${P99[cscan]}" "${P99[cfq]}" "${WBW[cscan]}" "${WBW[cfq]}" <<'PY'
import sys
p_cscan, p_cfq, w_cscan, w_cfq = map(float, sys.argv[1:])
lat = p_cscan / p_cfq if p_cfq else float("inf")
thr = w_cfq / w_cscan if w_cscan else float("inf")
ok = lat >= 3 and thr >= 0.10
print("cscan/cfq reader p99 = %.2fx (goal >= 3x); cfq/cscan writer MB/s = "
      "%.0f%% (goal >= 10%%): %s" % (lat, 100 * thr, "MET" if ok else "NOT MET"))
PY
)
fi

{
  echo "# Writer against readers ($PROFILE, ${RUNTIME}s, $(date -u +%Y-%m-%d))"
  echo
  echo "Produced by \`bench/sched-writer-readers.sh\`: one writer (rw=write"
  echo "bs=$WRITE_BS iodepth=4) and four readers (rw=randread bs=4k iodepth=1),"
  echo "each on its own NBD connection, over a $SIZE image.  Reader latencies"
  echo "are fio's completion latencies over all four readers."
  [ -n "${SERVER_ARGS:-}" ] && { echo; echo "hddsim parameters: $SERVER_ARGS"; }
  echo
  cat "$TABLE"
  echo
  [ -n "$verdict" ] && echo "$verdict"
} > "$OUTDIR/writer-readers$SUFFIX.md"
[ -n "$verdict" ] && echo "$verdict"
echo "wrote $OUTDIR/writer-readers$SUFFIX.md"
