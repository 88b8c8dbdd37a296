#!/usr/bin/env bash
# hddsim: what each policy does with a deep queue of random reads, as a
# picture.  Two jobs of rw=randread bs=4k iodepth=8 (16 requests queued,
# each job on its own connection) over a 4 GiB image for RUNTIME seconds
# (default 5) under every policy; plots one second of head position per
# policy to $OUTDIR/heads-rand-read.png: C-SCAN's sawtooth, deadline's
# sorted batches, SATF's short hops, CFQ's per-connection slices.

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/sched-lib.sh"

RUNTIME=${RUNTIME:-5}
make_full_image 4G
panels=()
for pol in $POLICIES; do
  start_server sched="$pol" profile="$PROFILE"
  run_fio "saw-$pol" --time_based --runtime="$RUNTIME" --size=4G \
    --name=r --rw=randread --bs=4k --iodepth=8 --numjobs=2 --group_reporting
  stop_server
  cp "$TRACE" "$WORK/saw-$pol.csv"
  panels+=("$pol=$WORK/saw-$pol.csv")
  echo "$pol: $(mbs "$(fio_group "$WORK/saw-$pol.json" 0 read bw)") MB/s," \
    "mean $(ms "$(fio_group "$WORK/saw-$pol.json" 0 read mean)") ms"
done
"$TOP/tools/hddsim-plot" -o "$OUTDIR/heads-rand-read.png" --from 2 --to 3 \
  --unit GiB --ymax 4 \
  --title "2 x randread iodepth=8, $PROFILE: head position, 1 s window" \
  "${panels[@]}"
