# shellcheck shell=sh
# Guest workloads of the hddsim benchmark guest; sourced by /init (busybox sh).
# Each wl_* function runs on $TARGET (the mounted filesystem $MNT, or the raw
# device $DEV when FS=raw) for $TIME seconds, appends "metric,value,unit"
# lines to $RES/metrics.csv with `metric`, keeps its raw outputs in $RES,
# and returns non-zero on failure.  Options come from `opt NAME DEFAULT`.

# fio_flat JSON: flatten fio's pretty-printed JSON into path=value lines,
# e.g. jobs.0.read.lat_ns.mean=1234.5 (array elements are numbered).
fio_flat() {
    awk '
    function path(k,   i, p) { p = ""; for (i = 1; i <= n; i++) p = p st[i] "."; return p k }
    {
        line = $0; sub(/^[ \t]+/, "", line); sub(/[ \t\r]+$/, "", line)
        if (line ~ /^"[^"]*" : [[{]$/) {
            k = line; sub(/^"/, "", k); sub(/" : .*$/, "", k); gsub(/ /, "_", k)
            n++; st[n] = k; arr[n] = (line ~ /\[$/); idx[n] = 0; next
        }
        if (line == "{") {
            if (n > 0 && arr[n]) { n++; st[n] = idx[n - 1]++; arr[n] = 0 }
            next
        }
        if (line ~ /^[]}],?$/) { if (n > 0) n--; next }
        if (line ~ /^"[^"]*" : /) {
            k = line; sub(/^"/, "", k); sub(/" : .*$/, "", k); gsub(/ /, "_", k)
            v = line; sub(/^"[^"]*" : /, "", v); sub(/,$/, "", v); gsub(/"/, "", v)
            print path(k) "=" v
        }
    }' "$1"
}

# fget FLAT KEY [SCALE]: value of KEY in a flattened file, divided by SCALE
fget() {
    awk -F= -v k="$2" -v s="${3:-1}" '$1 == k { printf "%.6g\n", $2 / s; found = 1; exit }
        END { if (!found) print "NaN" }' "$1"
}

# fio_run NAME ARGS...: run fio with JSON output into $RES/NAME.json and
# its flattened form into $RES/NAME.flat; returns fio's exit status
fio_run() {
    _name=$1; shift
    say "fio $_name: $*"
    fio --eta=never --output-format=json --output="$RES/$_name.json" "$@" 2> "$RES/$_name.err"
    _rc=$?
    fio_flat "$RES/$_name.json" > "$RES/$_name.flat" 2>/dev/null
    [ -s "$RES/$_name.err" ] && head -n 20 "$RES/$_name.err"
    return $_rc
}

fio_target_args() {
    if [ "$FS" = raw ]; then echo "--filename=$DEV"; else echo "--directory=$MNT"; fi
}

# --- fio-verify: mixed random read/write, every block checked with crc32c -------
wl_fio_verify() {
    size=$(opt size 128M)
    fio_run fio-verify --name=verify "$(fio_target_args)" --size="$size" \
        --rw=randrw --rwmixread="$(opt rwmixread 50)" --bsrange="$(opt bs 4k-64k)" \
        --ioengine=libaio --iodepth="$(opt iodepth 16)" --direct=1 \
        --verify=crc32c --verify_backlog="$(opt backlog 256)" --verify_fatal=1 --verify_dump=0 \
        --runtime="$TIME" --time_based --randrepeat=1
    rc=$?
    f=$RES/fio-verify.flat
    mism=$(grep -c -e 'verify:' -e 'bad magic' -e 'crc32c: verify failed' "$RES/fio-verify.err")
    err=$(fget "$f" jobs.0.error)
    metric fio_rc "$rc" ""
    metric fio_error "$err" ""
    metric verify_mismatches "$mism" count
    metric read_iops "$(fget "$f" jobs.0.read.iops)" IOPS
    metric write_iops "$(fget "$f" jobs.0.write.iops)" IOPS
    metric read_MBps "$(fget "$f" jobs.0.read.bw_bytes 1048576)" MiB/s
    metric write_MBps "$(fget "$f" jobs.0.write.bw_bytes 1048576)" MiB/s
    metric read_lat_mean_ms "$(fget "$f" jobs.0.read.lat_ns.mean 1000000)" ms
    metric write_lat_mean_ms "$(fget "$f" jobs.0.write.lat_ns.mean 1000000)" ms
    metric read_lat_p99_ms "$(fget "$f" jobs.0.read.clat_ns.percentile.99.000000 1000000)" ms
    metric write_lat_p99_ms "$(fget "$f" jobs.0.write.clat_ns.percentile.99.000000 1000000)" ms
    metric read_ios "$(fget "$f" jobs.0.read.total_ios)" count
    metric write_ios "$(fget "$f" jobs.0.write.total_ios)" count
    if [ "$rc" != 0 ] || [ "$mism" != 0 ] || [ "$err" != 0 ]; then
        say "fio-verify FAILED: rc=$rc error=$err mismatches=$mism"
        echo "fio-verify: fio rc=$rc error=$err verify mismatches=$mism" >> "$RES/error.txt"
        return 1
    fi
    say "fio-verify OK: no mismatches"
    return 0
}

# --- sysbench fileio: seqrd seqwr seqrewr rndrd rndwr rndrw, O_DIRECT -----------
wl_sysbench_fileio() {
    [ "$FS" != raw ] || { say "sysbench-fileio needs a filesystem"; return 1; }
    size=$(opt size 256M)
    files=$(opt files 8)
    # several threads, so that the host scheduler has requests to order (one
    # thread keeps one request in flight, and every policy is then FIFO)
    threads=$(opt threads 4)
    # seqwr re-creates the files (and, time-limited, leaves them short), so
    # it runs last by default, and the files are prepared again after it
    modes=$(opt modes seqrd:seqrewr:rndrd:rndwr:rndrw:seqwr | tr ':' ' ')
    cd "$MNT" || return 1
    say "sysbench fileio prepare ($size in $files files)"
    sysbench fileio --file-total-size="$size" --file-num="$files" prepare > "$RES/sysbench-prepare.txt" 2>&1 ||
        { cat "$RES/sysbench-prepare.txt"; return 1; }
    sync
    short=0
    for mode in $modes; do
        if [ "$short" = 1 ] && [ "$mode" != seqwr ]; then
            say "sysbench fileio prepare again (seqwr left the files short)"
            sysbench fileio --file-total-size="$size" --file-num="$files" cleanup > /dev/null 2>&1
            sysbench fileio --file-total-size="$size" --file-num="$files" prepare >> "$RES/sysbench-prepare.txt" 2>&1 ||
                { tail -n 5 "$RES/sysbench-prepare.txt"; cd /; return 1; }
            sync
            short=0
        fi
        [ "$mode" = seqwr ] && short=1
        say "sysbench fileio $mode for ${TIME}s"
        sysbench fileio --file-total-size="$size" --file-num="$files" --file-test-mode="$mode" \
            --file-extra-flags=direct --threads="$threads" --time="$TIME" --events=0 \
            --percentile=99 run > "$RES/sysbench-$mode.txt" 2>&1 ||
            { tail -n 20 "$RES/sysbench-$mode.txt"; cd /; return 1; }
        f=$RES/sysbench-$mode.txt
        rd=$(awk '/read, MiB\/s:/ { print $3 }' "$f")
        wr=$(awk '/written, MiB\/s:/ { print $3 }' "$f")
        avg=$(awk '/^ *avg:/ { print $2; exit }' "$f")
        p99=$(awk '/99th percentile:/ { print $3; exit }' "$f")
        tps=$(awk '/reads\/s:/ { r = $2 } /writes\/s:/ { w = $2 } END { print r + w }' "$f")
        metric "${mode}_read_MBps" "${rd:-NaN}" MiB/s
        metric "${mode}_write_MBps" "${wr:-NaN}" MiB/s
        metric "${mode}_lat_mean_ms" "${avg:-NaN}" ms
        metric "${mode}_lat_p99_ms" "${p99:-NaN}" ms
        metric "${mode}_iops" "${tps:-NaN}" IOPS
    done
    sysbench fileio --file-total-size="$size" --file-num="$files" cleanup > /dev/null 2>&1
    cd /
    return 0
}

# --- writer-readers: one buffered writer at full throttle, N O_DIRECT readers -----
wl_writer_readers() {
    [ "$FS" != raw ] || { say "writer-readers needs a filesystem"; return 1; }
    readers=$(opt readers 4)
    fio_run writer-readers --directory="$MNT" --time_based --runtime="$TIME" --group_reporting \
        --name=writer --rw=write --bs=1M --size="$(opt wsize 2G)" --ioengine=psync --direct=0 \
        --name=readers --new_group --rw=randread --bs=4k --size="$(opt rsize 256M)" \
        --filename=readers.dat --numjobs="$readers" --ioengine=psync --direct=1 --randrepeat=1
    rc=$?
    f=$RES/writer-readers.flat
    metric fio_rc "$rc" ""
    metric reader_lat_mean_ms "$(fget "$f" jobs.1.read.lat_ns.mean 1000000)" ms
    metric reader_lat_p99_ms "$(fget "$f" jobs.1.read.clat_ns.percentile.99.000000 1000000)" ms
    metric reader_lat_max_ms "$(fget "$f" jobs.1.read.lat_ns.max 1000000)" ms
    metric reader_iops "$(fget "$f" jobs.1.read.iops)" IOPS
    metric writer_MBps "$(fget "$f" jobs.0.write.bw_bytes 1048576)" MiB/s
    return $rc
}

# --- fsync-under-writer: background streaming write, foreground 1 MiB + fsync ----
wl_fsync_under_writer() {
    [ "$FS" != raw ] || { say "fsync-under-writer needs a filesystem"; return 1; }
    interval=$(opt interval 2)
    fio_run fsync-under-writer --directory="$MNT" --time_based --runtime="$TIME" \
        --name=background --rw=write --bs=1M --size="$(opt bgsize 2G)" --ioengine=psync --direct=0 \
        --name=fsync --new_group --rw=write --bs=1M --size=64M --ioengine=psync --direct=0 \
        --fsync=1 --thinktime="$((interval * 1000000))" --thinktime_blocks=1
    rc=$?
    f=$RES/fsync-under-writer.flat
    metric fio_rc "$rc" ""
    metric fsync_lat_mean_ms "$(fget "$f" jobs.1.sync.lat_ns.mean 1000000)" ms
    metric fsync_lat_stddev_ms "$(fget "$f" jobs.1.sync.lat_ns.stddev 1000000)" ms
    metric fsync_lat_max_ms "$(fget "$f" jobs.1.sync.lat_ns.max 1000000)" ms
    metric fsync_count "$(fget "$f" jobs.1.sync.total_ios)" count
    metric fg_write_lat_mean_ms "$(fget "$f" jobs.1.write.lat_ns.mean 1000000)" ms
    metric bg_write_MBps "$(fget "$f" jobs.0.write.bw_bytes 1048576)" MiB/s
    return $rc
}

# --- blktrace of $DEV around the workload (run --opts blktrace=1) ----------------
# The guest's own block-layer trace of the run hddsim traces from the
# host side, for the offline-replay comparison in docs/replay.md.
blk_start() {
    mount -t debugfs none /sys/kernel/debug 2>/dev/null
    mkdir -p "$RES/blktrace"
    blktrace -d "$DEV" -D "$RES/blktrace" -o vda > "$RES/blktrace.log" 2>&1 &
    BLKPID=$!
    sleep 1
    kill -0 "$BLKPID" 2>/dev/null || { say "blktrace failed: $(cat "$RES/blktrace.log")"; BLKPID=; }
}
blk_stop() {
    kill -INT "$BLKPID"
    wait "$BLKPID"
    BLKPID=
}

# --- raid-rebuild: fail a member of the md array, add it back, time the ----------
# recovery while a foreground random reader runs.  First TIME seconds of
# the reader on the healthy array (the baseline), then the same reader
# during the recovery, which is over when md is no longer degraded.
# md yields to foreground I/O only while the recovery runs faster than
# /proc/sys/dev/raid/speed_limit_min: sync_min (KB/s) defaults to the
# kernel's speed_limit_max, so md never yields and the host scheduler
# alone shares each drive between the recovery and the reader
# (sync_min=1000, the kernel's default, lets md throttle itself).
# rb_fail MESSAGE: say why raid-rebuild failed, on the console and to the host
rb_fail() { say "raid-rebuild: $*"; echo "raid-rebuild: $*" >> "$RES/error.txt"; }

wl_raid_rebuild() {
    if [ -z "$RAID" ] || [ "$RAID" = 0 ]; then rb_fail "needs --raid 1, 5 or 10"; return 1; fi
    member=/dev/$(opt member "$(echo "$MEMBERS" | awk '{ print $NF }')")
    echo " $MEMBERS " | grep -q " ${member#/dev/} " || { rb_fail "member=${member#/dev/} is not one of $MEMBERS"; return 1; }
    opt sync_min "$(cat /proc/sys/dev/raid/speed_limit_max)" > /proc/sys/dev/raid/speed_limit_min ||
        { rb_fail "cannot set speed_limit_min"; return 1; }
    fg="--name=fg --rw=randread --bs=4k --ioengine=psync --direct=1 --numjobs=$(opt fgjobs 2)"
    fg="$fg --group_reporting --randrepeat=1 $(fio_target_args) --size=$(opt fgsize 64M)"
    # shellcheck disable=SC2086  # $fg is a list of options
    fio_run rebuild-baseline $fg --time_based --runtime="$TIME" ||
        { rb_fail "the baseline reader failed: $(head -n3 "$RES/rebuild-baseline.err")"; return 1; }
    # fio itself in the background, so that the signal reaches it: fio
    # ends on SIGTERM, writes its JSON, and exits non-zero
    say "fio rebuild-fg: $fg (until the recovery ends)"
    # shellcheck disable=SC2086
    fio --eta=never --output-format=json --output="$RES/rebuild-fg.json" $fg \
        --time_based --runtime=1000000 2> "$RES/rebuild-fg.err" &
    fgpid=$!
    sleep 1
    if ! { mdadm /dev/md0 --fail "$member" && mdadm /dev/md0 --remove "$member" &&
           mdadm --zero-superblock "$member"; } > "$RES/mdadm-rebuild.log" 2>&1; then
        rb_fail "mdadm --fail/--remove/--zero-superblock $member: $(tail -n2 "$RES/mdadm-rebuild.log")"
        kill "$fgpid"; wait "$fgpid"; return 1
    fi
    # zeroed, the member comes back as a new device: a whole-member recovery
    t0=$(uptime_s)
    mdadm /dev/md0 --add "$member" >> "$RES/mdadm-rebuild.log" 2>&1 ||
        { rb_fail "mdadm --add $member: $(tail -n2 "$RES/mdadm-rebuild.log")"; kill "$fgpid"; wait "$fgpid"; return 1; }
    md=/sys/block/md0/md
    limit=$(opt rebuild_max 3600)
    # degraded stays 1 until the recovery has ended (and before it began)
    while [ "$(cat $md/degraded)" != 0 ] || [ "$(cat $md/sync_action)" != idle ]; do
        if [ "$(echo "$(uptime_s) $t0 $limit" | awk '{ print ($1 - $2 > $3) }')" = 1 ]; then
            rb_fail "the recovery did not end within rebuild_max=${limit}s: $(tr '\n' ' ' < /proc/mdstat)"
            kill "$fgpid"; wait "$fgpid"; return 1
        fi
        sleep 0.2
    done
    t1=$(uptime_s)
    kill "$fgpid"
    wait "$fgpid"
    fio_flat "$RES/rebuild-fg.json" > "$RES/rebuild-fg.flat"
    [ -s "$RES/rebuild-fg.err" ] && head -n 20 "$RES/rebuild-fg.err"
    err=$(fget "$RES/rebuild-fg.flat" jobs.0.error)
    [ "$err" = 0 ] || { rb_fail "the foreground reader failed (fio error $err)"; return 1; }
    cat /proc/mdstat > "$RES/mdstat-after.txt"
    kib=$(cat $md/component_size)
    secs=$(echo "$t1 $t0" | awk '{ printf "%.2f", $1 - $2 }')
    metric rebuild_s "$secs" s
    metric rebuild_MBps "$(echo "$kib $secs" | awk '{ printf "%.4g", $1 / 1024 / $2 }')" MiB/s
    for ph in baseline fg; do
        f=$RES/rebuild-$ph.flat
        metric "${ph}_read_iops" "$(fget "$f" jobs.0.read.iops)" IOPS
        metric "${ph}_read_lat_mean_ms" "$(fget "$f" jobs.0.read.lat_ns.mean 1000000)" ms
        metric "${ph}_read_lat_p99_ms" "$(fget "$f" jobs.0.read.clat_ns.percentile.99.000000 1000000)" ms
    done
    return 0
}
