#!/usr/bin/env bash
# hddsim: the 2006 C-SCAN vs CFQ matrix, for every policy.
#
# For each policy (POLICIES, default all) and each workload, start the
# plugin on the ST340014A profile (PROFILE) with that policy, run fio
# through its nbd engine for RUNTIME seconds (default 10), and record
# MB/s and mean latency.  Every workload has four jobs, each on its own
# NBD connection and its own 1 GiB region of a 4 GiB image, so that
# the scheduler has concurrent streams to order:
#   seq-read    rw=read      bs=64k  iodepth=1  x4
#   rand-read   rw=randread  bs=4k   iodepth=1  x4
#   seq-write   rw=write     bs=64k  iodepth=1  x4   (plain writes: async)
#   rand-write  rw=randwrite bs=4k   iodepth=1  x4
#   read+write  rw=read x2 and rw=write x2, bs=64k
# Writes a Markdown table to $OUTDIR/matrix.md (docs/schedulers/).
#
#   bench/sched-matrix.sh
#   POLICIES="cscan cfq" RUNTIME=5 bench/sched-matrix.sh
#   CELLS=seq-write EXTRA="cache=off" OUT=matrix-nocache.md bench/sched-matrix.sh
# (CELLS: a subset of the workloads; EXTRA: more plugin parameters;
#  OUT: the file name in $OUTDIR.)

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/sched-lib.sh"

RUNTIME=${RUNTIME:-10}
CELLS=${CELLS:-"seq-read rand-read seq-write rand-write read+write"}
EXTRA=${EXTRA:-}
OUT=${OUT:-matrix.md}
COMMON=(--time_based --runtime="$RUNTIME" --size=1G --offset_increment=1G
        --group_reporting)

cell_args () {
  case $1 in
    seq-read)   echo "--name=r --rw=read --bs=64k --iodepth=1 --numjobs=4" ;;
    rand-read)  echo "--name=r --rw=randread --bs=4k --iodepth=1 --numjobs=4" ;;
    seq-write)  echo "--name=w --rw=write --bs=64k --iodepth=1 --numjobs=4" ;;
    rand-write) echo "--name=w --rw=randwrite --bs=4k --iodepth=1 --numjobs=4" ;;
    read+write) echo "--name=r --rw=read --bs=64k --iodepth=1 --numjobs=2
                      --name=w --new_group --rw=write --bs=64k --iodepth=1
                      --numjobs=2 --offset=2G" ;;
  esac
}

make_full_image 4G
TABLE=$WORK/table.md
{
  echo "| policy | workload | read MB/s | read mean ms | write MB/s | write mean ms |"
  echo "|---|---|---:|---:|---:|---:|"
} > "$TABLE"

for pol in $POLICIES; do
  for cell in $CELLS; do
    # shellcheck disable=SC2086
    start_server sched="$pol" profile="$PROFILE" $EXTRA
    f=$WORK/$pol-$cell.json
    # shellcheck disable=SC2046
    if ! fio --output-format=json --output="$f" --ioengine=nbd \
         --uri="nbd+unix:///?socket=$SOCK" "${COMMON[@]}" \
         $(cell_args "$cell") >/dev/null 2>"$WORK/fio.err"; then
      # keep what explains it, and go on with the other cells
      stop_server || true
      mkdir -p "$OUTDIR/failed"
      cp "$WORK/nbdkit.log" "$OUTDIR/failed/$pol-$cell.nbdkit.log"
      cp "$WORK/fio.err" "$OUTDIR/failed/$pol-$cell.fio.err"
      gzip -c "$TRACE" > "$OUTDIR/failed/$pol-$cell.trace.csv.gz"
      echo "| $pol | $cell | failed | | | |" >> "$TABLE"
      tail -1 "$TABLE"
      continue
    fi
    stop_server
    rbw=0 rlat=0 wbw=0 wlat=0
    case $cell in
      *read*) rbw=$(fio_group "$f" 0 read bw); rlat=$(fio_group "$f" 0 read mean) ;;
    esac
    case $cell in
      read+write) wbw=$(fio_group "$f" 1 write bw); wlat=$(fio_group "$f" 1 write mean) ;;
      *write) wbw=$(fio_group "$f" 0 write bw); wlat=$(fio_group "$f" 0 write mean) ;;
    esac
    line="| $pol | $cell | $(mbs "$rbw") | $(ms "$rlat") | $(mbs "$wbw") | $(ms "$wlat") |"
    echo "$line" | sed 's/| 0.00 | 0.0 |/| - | - |/g' >> "$TABLE"
    tail -1 "$TABLE"
  done
done

{
  echo "# Scheduler matrix ($PROFILE $EXTRA, ${RUNTIME}s per cell, $(date -u +%Y-%m-%d))"
  echo
  echo "Produced by \`bench/sched-matrix.sh\`; four jobs per workload, each on"
  echo "its own NBD connection and 1 GiB region."
  echo
  cat "$TABLE"
} > "$OUTDIR/$OUT"
echo "wrote $OUTDIR/$OUT"
