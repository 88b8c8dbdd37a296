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

# sb_metrics MODE OUT PCT: metric lines from sysbench 1.0's report OUT of
# one mode: MiB/s read and written, the mean and the PCT-th percentile
# latency (run with --percentile=PCT), reads + writes per second; NaN for
# a figure the report lacks
sb_metrics() {
    awk -v m="$1" -v want="$3" '
        /read, MiB\/s:/ { rd = $3 }
        /written, MiB\/s:/ { wr = $3 }
        /reads\/s:/ { r = $2; ops = 1 }
        /writes\/s:/ { w = $2; ops = 1 }
        /^ *avg:/ && avg == "" { avg = $2 }
        $1 == want "th" && $2 == "percentile:" { pc = $3 }
        END {
            printf "%s_read_MBps,%s,MiB/s\n", m, (rd != "" ? rd : "NaN")
            printf "%s_write_MBps,%s,MiB/s\n", m, (wr != "" ? wr : "NaN")
            printf "%s_lat_mean_ms,%s,ms\n", m, (avg != "" ? avg : "NaN")
            printf "%s_lat_p%s_ms,%s,ms\n", m, want, (pc != "" ? pc : "NaN")
            printf "%s_iops,%s,IOPS\n", m, (ops ? r + w : "NaN")
        }' "$2"
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
        sb_metrics "$mode" "$RES/sysbench-$mode.txt" 99 >> "$RES/metrics.csv"
    done
    sysbench fileio --file-total-size="$size" --file-num="$files" cleanup > /dev/null 2>&1
    cd /
    return 0
}

# --- fio job definitions -----------------------------------------------------
# Each job is defined once here and used both by the single-guest
# workload that combines it with another (writer-readers,
# fsync-under-writer) and by the workload that runs it alone in one of
# several guests on one drive (writer, readers, fsync-fg: run --guests).
# Each prints fio options (no spaces inside a value: they are split into
# words); job_readers' and job_fsync_fg's arguments go right after --name
# (--new_group, when they are the second job).

# job_writer: one buffered sequential 1 MiB writer at full throttle
job_writer() {
    echo "--name=writer --rw=write --bs=1M --size=$(opt wsize 2G) --ioengine=psync --direct=0"
}
# job_readers: N sync O_DIRECT 4 KiB random readers on one shared file
job_readers() {
    echo "--name=readers $* --rw=randread --bs=4k --size=$(opt rsize 256M)" \
        "--filename=readers.dat --numjobs=$(opt readers 4) --ioengine=psync --direct=1 --randrepeat=1"
}
# readers_log: the readers' completion latency of every request, in
# fio's latency logs readers_clat.N.log (ms since the job's start, ns),
# from which the host works out their p99's sampling error within the
# run (vm-scripts/lib/bootstrap.py); go right after job_readers' --name
readers_log() { echo "--write_lat_log=$RES/readers --log_avg_msec=0"; }
# readers_log_trim: only the completion latency's logs are kept (fio
# writes the submission's and the total's too)
readers_log_trim() { rm -f "$RES"/readers_slat.*.log "$RES"/readers_lat.*.log; }
# job_background: fsync-under-writer's buffered 1 MiB background writer
job_background() {
    echo "--name=background --rw=write --bs=1M --size=$(opt bgsize 2G) --ioengine=psync --direct=0"
}
# job_fsync_fg: fsync-under-writer's foreground: 1 MiB written and
# fsynced every interval s
job_fsync_fg() {
    echo "--name=fsync $* --rw=write --bs=1M --size=64M --ioengine=psync --direct=0" \
        "--fsync=1 --thinktime=$(($(opt interval 2) * 1000000)) --thinktime_blocks=1"
}

# writer_metrics FLAT JOB, readers_metrics FLAT JOB, fsync_metrics FLAT
# JOB: the metric lines of those jobs, JOB their index in fio's output
writer_metrics() {
    metric writer_MBps "$(fget "$1" "jobs.$2.write.bw_bytes" 1048576)" MiB/s
}
readers_metrics() {
    metric reader_lat_mean_ms "$(fget "$1" "jobs.$2.read.lat_ns.mean" 1000000)" ms
    metric reader_lat_p99_ms "$(fget "$1" "jobs.$2.read.clat_ns.percentile.99.000000" 1000000)" ms
    metric reader_lat_max_ms "$(fget "$1" "jobs.$2.read.lat_ns.max" 1000000)" ms
    metric reader_iops "$(fget "$1" "jobs.$2.read.iops")" IOPS
}
fsync_metrics() {
    metric fsync_lat_mean_ms "$(fget "$1" "jobs.$2.sync.lat_ns.mean" 1000000)" ms
    metric fsync_lat_stddev_ms "$(fget "$1" "jobs.$2.sync.lat_ns.stddev" 1000000)" ms
    metric fsync_lat_max_ms "$(fget "$1" "jobs.$2.sync.lat_ns.max" 1000000)" ms
    metric fsync_count "$(fget "$1" "jobs.$2.sync.total_ios")" count
    metric fg_write_lat_mean_ms "$(fget "$1" "jobs.$2.write.lat_ns.mean" 1000000)" ms
}

# --- sysbench-2006: the seeds' 2006 run, sysbench 0.4's fileio defaults --------
# sysbench 0.4 (sysbench/tests/fileio/sb_fileio.c, sysbench/sysbench.c)
# ran fileio with 128 files, 16 KiB blocks, 2G in all, synchronous
# buffered I/O (no extra open flags), 1 thread.  Its sequential modes
# made one pass over the files (max-time 0, and max-requests does not
# bound them) with no periodic fsync, then fsynced every file if they
# wrote; its random modes made 10000 requests (max-requests), fsynced all
# files after every 100 of them (file-fsync-freq, once written to), and
# fsynced every file at the end; rndrw reads 1.5 per write; its random
# numbers were the same on every run (no --rand-init).  sysbench 1.0.20
# differs in each of its defaults here (10 s runs, the sequential modes
# fsync too, fsyncs count as events, a time-seeded generator), so all
# of them are spelt out.  docs/sysbench-2006.md gives the sources.
SB2006_MODES="seqwr seqrewr seqrd rndrd rndwr rndrw"

# sb2006_fail MESSAGE: say why sysbench-2006 cannot run, on the console
# and to the host
sb2006_fail() { say "sysbench-2006: $*"; echo "sysbench-2006: $*" >> "$RES/error.txt"; }

# sb2006_count NAME VALUE: VALUE if it is a whole number >= 1, else fails
# naming the option
sb2006_count() {
    case $2 in
        ''|*[!0-9]*|0|0*) sb2006_fail "$1=$2: a whole number >= 1 is needed"; return 1 ;;
    esac
    echo "$2"
}

# sb2006_bytes NAME SIZE: bytes of SIZE (digits with K, M or G, 1024-based,
# as sysbench reads it), else fails naming the option
sb2006_bytes() {
    case $2 in
        [1-9]*[KMG]|[1-9]*) ;;
        *) sb2006_fail "$1=$2: a size like 2G, 512M or 16384 is needed"; return 1 ;;
    esac
    _n=${2%[KMG]}
    case $_n in *[!0-9]*) sb2006_fail "$1=$2: a size like 2G, 512M or 16384 is needed"; return 1 ;; esac
    case $2 in *K) _m=1024 ;; *M) _m=1048576 ;; *G) _m=1073741824 ;; *) _m=1 ;; esac
    awk -v n="$_n" -v m="$_m" 'BEGIN { printf "%.0f\n", n * m }'
}

# sb2006_plan: check the options and print one line per mode, "MODE
# EVENTS FSYNC_FREQ", then the common sysbench arguments on a line of
# their own after "args"; fails with a message naming a bad option.
# EVENTS is what sysbench 1.0 must count to make 0.4's run: one pass
# (size / bs) for the sequential modes; for the random ones the
# requests, plus the fsyncs of the rounds between them, which 1.0 counts
# as events and 0.4 did not (a round after every FSYNC_FREQ requests but
# the last, one fsync per file; rndrd writes nothing, so has no rounds)
sb2006_plan() {
    threads=$(sb2006_count threads "$(opt threads 1)") || return 1
    files=$(sb2006_count files "$(opt files 128)") || return 1
    requests=$(sb2006_count requests "$(opt requests 10000)") || return 1
    fsync=$(sb2006_count fsync "$(opt fsync 100)") || return 1
    seed=$(sb2006_count seed "$(opt seed 1)") || return 1
    bs=$(sb2006_bytes bs "$(opt bs 16384)") || return 1
    size=$(sb2006_bytes size "$(opt size 1G)") || return 1
    # 0.4 splits the total into equal files of whole blocks
    if [ "$(awk -v s="$size" -v f="$files" -v b="$bs" 'BEGIN { print (s % (f * b) == 0) }')" != 1 ]; then
        sb2006_fail "size=$(opt size 1G) is not a whole number of bs=$(opt bs 16384) blocks in each of files=$files files"
        return 1
    fi
    modes=$(opt modes seqwr:seqrewr:seqrd:rndrd:rndwr:rndrw | tr ':' ' ')
    [ -n "$modes" ] || { sb2006_fail "modes= is empty (any of $SB2006_MODES, colon-separated)"; return 1; }
    # the fsync rounds between the requests: after every fsync= of them,
    # but the last (the end's fsyncs are not events)
    rounds=$(((requests - 1) / fsync))
    for mode in $modes; do
        case " $SB2006_MODES " in
            *" $mode "*) ;;
            *) sb2006_fail "modes=: unknown mode '$mode' (any of $SB2006_MODES)"; return 1 ;;
        esac
        case $mode in
            seq*) echo "$mode $(awk -v s="$size" -v b="$bs" 'BEGIN { printf "%.0f", s / b }') 0" ;;
            rndrd) echo "$mode $requests $fsync" ;;
            *) echo "$mode $((requests + rounds * files)) $fsync" ;;
        esac
    done
    echo "args --file-num=$files --file-block-size=$bs --file-total-size=$size" \
        "--file-io-mode=sync --file-extra-flags= --file-fsync-end=on --file-fsync-mode=fsync" \
        "--file-merged-requests=0 --file-rw-ratio=1.5 --threads=$threads --time=0" \
        "--rand-seed=$seed --percentile=95"
}

# sb2006_mark K: a 512-byte O_DIRECT read of sector 8K + 1 of the device,
# which no filesystem issues (they read whole 4 KiB blocks), so that the
# host's trace shows where mode K of SB2006_MODES began (K = 1..6) and
# where the last mode ended (K = 7).  fio, not busybox dd: dd's buffer is
# not always aligned for O_DIRECT, and it then reads through the page
# cache (whole pages, or none when the page is cached)
sb2006_mark() {
    fio --name=mark --filename="$DEV" --readonly --direct=1 --ioengine=psync --rw=read --bs=512 \
        --offset=$((512 * (8 * $1 + 1))) --size=512 --output=/dev/null > /dev/null 2>&1 ||
        say "sysbench-2006: the trace marker read $1 failed"
}

# sb2006_index MODE: MODE's place in SB2006_MODES, 1..6
sb2006_index() { echo "$SB2006_MODES" | tr ' ' '\n' | grep -n -x "$1" | cut -d: -f1; }

wl_sysbench_2006() {
    [ "$FS" != raw ] || { sb2006_fail "needs a filesystem"; return 1; }
    sb2006_plan > "$RES/sysbench-2006.plan" || return 1
    args=$(sed -n 's/^args //p' "$RES/sysbench-2006.plan")
    cd "$MNT" || return 1
    made=0
    while read -r mode events freq; do
        [ "$mode" != args ] || continue
        # shellcheck disable=SC2086  # $args is a list of options
        if [ "$mode" = seqwr ]; then
            # 0.4's seqwr removed the files and created them anew
            sysbench fileio $args cleanup < /dev/null > /dev/null 2>&1
            made=1
        elif [ "$made" = 0 ]; then
            say "sysbench-2006: prepare (no seqwr ran first)"
            sysbench fileio $args prepare < /dev/null > "$RES/sysbench-2006-prepare.txt" 2>&1 ||
                { sb2006_fail "prepare failed: $(tail -n 2 "$RES/sysbench-2006-prepare.txt")"; cd /; return 1; }
            made=1
        fi
        # the files are smaller than the guest's memory (2006: larger than
        # the machine's): start every mode with nothing cached, as 0.4's
        # reads of a 2G set found the drive
        sync
        [ "$(opt dropcache 1)" = 1 ] && echo 3 > /proc/sys/vm/drop_caches
        sb2006_mark "$(sb2006_index "$mode")"
        say "sysbench-2006 $mode: $events events, fsync every $freq requests (0: at the end only)"
        t0=$(uptime_s)
        # shellcheck disable=SC2086
        sysbench fileio $args --file-test-mode="$mode" --events="$events" --file-fsync-freq="$freq" run \
            < /dev/null > "$RES/sysbench-2006-$mode.txt" 2>&1 ||
            { sb2006_fail "$mode failed: $(tail -n 3 "$RES/sysbench-2006-$mode.txt" | tr '\n' ' ')"; cd /; return 1; }
        metric "${mode}_wall_s" "$(echo "$(uptime_s) $t0" | awk '{ printf "%.2f", $1 - $2 }')" s
        sb_metrics "$mode" "$RES/sysbench-2006-$mode.txt" 95 >> "$RES/metrics.csv"
        ev=$(awk '/total number of events:/ { print $5 }' "$RES/sysbench-2006-$mode.txt")
        metric "${mode}_events" "${ev:-NaN}" count
        [ "$ev" = "$events" ] || { sb2006_fail "$mode made ${ev:-no} events, not $events"; cd /; return 1; }
    done < "$RES/sysbench-2006.plan"
    sb2006_mark 7
    # shellcheck disable=SC2086
    sysbench fileio $args cleanup > /dev/null 2>&1
    cd /
    return 0
}

# --- writer-readers: one buffered writer at full throttle, N O_DIRECT readers -----
# shellcheck disable=SC2046  # the job definitions are lists of options
wl_writer_readers() {
    [ "$FS" != raw ] || { say "writer-readers needs a filesystem"; return 1; }
    fio_run writer-readers --directory="$MNT" --time_based --runtime="$TIME" --group_reporting \
        $(job_writer) $(job_readers --new_group $(readers_log))
    rc=$?
    readers_log_trim
    f=$RES/writer-readers.flat
    metric fio_rc "$rc" ""
    readers_metrics "$f" 1
    writer_metrics "$f" 0
    return $rc
}

# --- fsync-under-writer: background streaming write, foreground 1 MiB + fsync ----
# shellcheck disable=SC2046
wl_fsync_under_writer() {
    [ "$FS" != raw ] || { say "fsync-under-writer needs a filesystem"; return 1; }
    fio_run fsync-under-writer --directory="$MNT" --time_based --runtime="$TIME" \
        $(job_background) $(job_fsync_fg --new_group)
    rc=$?
    f=$RES/fsync-under-writer.flat
    metric fio_rc "$rc" ""
    fsync_metrics "$f" 1
    metric bg_write_MBps "$(fget "$f" jobs.0.write.bw_bytes 1048576)" MiB/s
    return $rc
}

# --- writer, readers, fsync-fg: one job of the above alone, for one guest of ------
# several on one drive (run --guests).  Each calls ready_barrier (guest/init)
# when its preparation is done, so that the guests' timed parts start together.
# shellcheck disable=SC2046
wl_writer() {
    [ "$FS" != raw ] || { say "writer needs a filesystem"; return 1; }
    ready_barrier || return 1
    fio_run writer --directory="$MNT" --time_based --runtime="$TIME" $(job_writer)
    rc=$?
    metric fio_rc "$rc" ""
    writer_metrics "$RES/writer.flat" 0
    return $rc
}

# the readers' file is laid out (and written back) before the barrier, so
# that the other guests' timed parts do not meet its layout
# shellcheck disable=SC2046
wl_readers() {
    [ "$FS" != raw ] || { say "readers needs a filesystem"; return 1; }
    fio_run readers-layout --directory="$MNT" --create_only=1 $(job_readers) ||
        { echo "readers: laying out readers.dat failed: $(head -n 3 "$RES/readers-layout.err")" >> "$RES/error.txt"; return 1; }
    sync
    ready_barrier || return 1
    fio_run readers --directory="$MNT" --time_based --runtime="$TIME" --group_reporting $(job_readers $(readers_log))
    rc=$?
    readers_log_trim
    metric fio_rc "$rc" ""
    readers_metrics "$RES/readers.flat" 0
    return $rc
}

# shellcheck disable=SC2046
wl_fsync_fg() {
    [ "$FS" != raw ] || { say "fsync-fg needs a filesystem"; return 1; }
    ready_barrier || return 1
    fio_run fsync-fg --directory="$MNT" --time_based --runtime="$TIME" $(job_fsync_fg)
    rc=$?
    metric fio_rc "$rc" ""
    fsync_metrics "$RES/fsync-fg.flat" 0
    return $rc
}

# --- blktrace of $DEV around the workload (run --opts blktrace=1) ----------------
# The guest's own block-layer trace of the run hddsim traces from the
# host side, for the offline-replay comparison in docs/replay.md.
blk_start() {
    mount -t debugfs none /sys/kernel/debug 2>/dev/null
    mkdir -p "$RES/blktrace"
    blktrace -d "$DEV" -D "$RES/blktrace" -o "${DEV##*/}" > "$RES/blktrace.log" 2>&1 &
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
# fgjobs=0: no reader at all, the recovery alone (as a NAS rebuilds an
# idle array; issue 30's SMR rebuilds).
# rb_fail MESSAGE: say why raid-rebuild failed, on the console and to the host
rb_fail() { say "raid-rebuild: $*"; echo "raid-rebuild: $*" >> "$RES/error.txt"; }

# rb_recover MEMBER: fail, remove, zero and re-add MEMBER with nothing
# else running; rebuild_s, rebuild_MBps from the guest's clock
rb_recover() {
    if ! { mdadm /dev/md0 --fail "$1" && mdadm /dev/md0 --remove "$1" &&
           mdadm --zero-superblock "$1"; } > "$RES/mdadm-rebuild.log" 2>&1; then
        rb_fail "mdadm --fail/--remove/--zero-superblock $1: $(tail -n2 "$RES/mdadm-rebuild.log")"; return 1
    fi
    cat /proc/mdstat > "$RES/mdstat-degraded.txt"
    t0=$(uptime_s)
    mdadm /dev/md0 --add "$1" >> "$RES/mdadm-rebuild.log" 2>&1 ||
        { rb_fail "mdadm --add $1: $(tail -n2 "$RES/mdadm-rebuild.log")"; return 1; }
    md=/sys/block/md0/md limit=$(opt rebuild_max 3600) last=''
    # degraded stays 1 until the recovery has ended (and before it began);
    # /proc/mdstat's progress line each 10 s, for the curve
    while [ "$(cat $md/degraded)" != 0 ] || [ "$(cat $md/sync_action)" != idle ]; do
        now=$(uptime_s)
        if [ "$(echo "$now $t0 $limit" | awk '{ print ($1 - $2 > $3) }')" = 1 ]; then
            rb_fail "the recovery did not end within rebuild_max=${limit}s: $(tr '\n' ' ' < /proc/mdstat)"; return 1
        fi
        if [ -z "$last" ] || [ "$(echo "$now $last" | awk '{ print ($1 - $2 >= 10) }')" = 1 ]; then
            echo "$(echo "$now $t0" | awk '{ printf "%.1f", $1 - $2 }') $(grep -o 'recovery = [^ ]*.*speed=[^ ]*' /proc/mdstat)" >> "$RES/mdstat-progress.txt"
            last=$now
        fi
        sleep 0.2
    done
    t1=$(uptime_s)
    cat /proc/mdstat > "$RES/mdstat-after.txt"
    kib=$(cat $md/component_size)
    secs=$(echo "$t1 $t0" | awk '{ printf "%.2f", $1 - $2 }')
    metric rebuild_s "$secs" s
    metric rebuild_MBps "$(echo "$kib $secs" | awk '{ printf "%.4g", $1 / 1024 / $2 }')" MiB/s
}

wl_raid_rebuild() {
    if [ -z "$RAID" ] || [ "$RAID" = 0 ]; then rb_fail "needs --raid 1, 5 or 10"; return 1; fi
    member=/dev/$(opt member "$(echo "$MEMBERS" | awk '{ print $NF }')")
    echo " $MEMBERS " | grep -q " ${member#/dev/} " || { rb_fail "member=${member#/dev/} is not one of $MEMBERS"; return 1; }
    opt sync_min "$(cat /proc/sys/dev/raid/speed_limit_max)" > /proc/sys/dev/raid/speed_limit_min ||
        { rb_fail "cannot set speed_limit_min"; return 1; }
    if [ "$(opt fgjobs 2)" = 0 ]; then rb_recover "$member"; return; fi
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

# --- bad-read: one read over a failing drive's sectors -------------------------
# Reads count= sectors (512 B) from the first drive's sector lba= with
# O_DIRECT, once, and once more after settle= seconds: the time until the
# application saw the result, and the result.  On --raid 1 the read goes
# through /dev/md0 (the first member's sector, less md's data offset),
# the other members write-mostly so that md reads the first one; after
# the read, each member's md state.  The kernel's log (dmesg.txt) holds
# the command timer, the resets and md's actions, with the guest's times.
br_fail() { say "bad-read: $*"; echo "bad-read: $*" >> "$RES/error.txt"; }

# br_read NAME SECTOR: one direct read; metrics NAME_s and NAME_ok
br_read() {
    _t0=$(uptime_s)
    say "bad-read: $1: dd skip=$2 count=$COUNT from $DEV"
    dd if="$DEV" of=/dev/null bs=512 skip="$2" count="$COUNT" iflag=direct 2> "$RES/$1.err"
    _rc=$?
    _t1=$(uptime_s)
    say "bad-read: $1: rc=$_rc after $(echo "$_t1 $_t0" | awk '{ printf "%.3f", $1 - $2 }') s: $(tail -n1 "$RES/$1.err")"
    metric "${1}_s" "$(echo "$_t1 $_t0" | awk '{ printf "%.3f", $1 - $2 }')" s
    metric "${1}_ok" "$([ $_rc = 0 ] && echo 1 || echo 0)" ""
}

# br_md_state: each member's md state, the corrected read errors, degraded
br_md_state() {
    md=/sys/block/md0/md
    faulty=0 corrected=0
    for d in $MEMBERS; do
        st=$(cat "$md/dev-$d/state" 2>/dev/null || echo removed)
        er=$(cat "$md/dev-$d/errors" 2>/dev/null || echo 0)
        say "bad-read: md member $d: state $st, corrected read errors $er"
        echo "$d $st $er" >> "$RES/md-members.txt"
        case $st in *faulty*|removed) faulty=$((faulty + 1)) ;; esac
        corrected=$((corrected + er))
    done
    metric md_faulty_members "$faulty" ""
    metric md_corrected_read_errors "$corrected" ""
    metric md_degraded "$(cat "$md/degraded")" ""
    cat /proc/mdstat > "$RES/mdstat-after.txt"
}

wl_bad_read() {
    lba=$(opt lba 1000000) COUNT=$(opt count 8)
    case $lba$COUNT in *[!0-9]*) br_fail "lba= and count= are sector numbers"; return 1 ;; esac
    sector=$lba
    if [ -n "$RAID" ]; then
        md=/sys/block/md0/md
        first=${MEMBERS%% *}
        off=$(cat "$md/dev-$first/offset") || { br_fail "no data offset for $first"; return 1; }
        [ "$lba" -ge "$off" ] || { br_fail "lba=$lba is in md's metadata (data offset $off)"; return 1; }
        sector=$((lba - off))
        for d in $MEMBERS; do
            [ "$d" = "$first" ] && continue
            echo writemostly > "$md/dev-$d/state" || { br_fail "cannot make $d write-mostly"; return 1; }
        done
        say "bad-read: md data offset $off sectors; $first is read, the others write-mostly"
    fi
    br_read bad_read "$sector"
    sleep "$(opt settle 5)"
    [ -z "$RAID" ] || br_md_state
    br_read bad_reread "$sector"
    return 0
}

# --- bonnie++: sequential output/input, random seeks, file creation -------------
# bonnie_parse CSV: bonnie++'s CSV line (format 1.98, fields as in
# bon_csv2html(1), numbered from 0 there, from 1 here) as metric lines.
# Rates are KiB/s in the CSV (turned into MiB/s), seeks/s and files/s;
# "+++++" (a test too short to time) becomes NaN; latencies are the
# slowest single operation, "123us" / "45ms" / "6s", turned into ms.
bonnie_parse() {
    awk -F, '
    function rate(i, scale) { return ($i ~ /^[0-9.]+$/) ? sprintf("%.6g", $i / scale) : "NaN" }
    function lat(i,   v) {
        v = $i
        if (v ~ /^[0-9.]+us$/) return sprintf("%.6g", v / 1000)
        if (v ~ /^[0-9.]+ms$/) return sprintf("%.6g", v + 0)
        if (v ~ /^[0-9.]+s$/) return sprintf("%.6g", v * 1000)
        return "NaN"
    }
    $1 == "1.98" {
        found = 1
        print "seq_out_char_MBps," rate(10, 1024) ",MiB/s"
        print "seq_out_block_MBps," rate(12, 1024) ",MiB/s"
        print "seq_rewrite_MBps," rate(14, 1024) ",MiB/s"
        print "seq_in_char_MBps," rate(16, 1024) ",MiB/s"
        print "seq_in_block_MBps," rate(18, 1024) ",MiB/s"
        print "random_seeks," rate(20, 1) ",seeks/s"
        print "seq_create," rate(27, 1) ",files/s"
        print "seq_read," rate(29, 1) ",files/s"
        print "seq_delete," rate(31, 1) ",files/s"
        print "rnd_create," rate(33, 1) ",files/s"
        print "rnd_read," rate(35, 1) ",files/s"
        print "rnd_delete," rate(37, 1) ",files/s"
        n = split("seq_out_char seq_out_block seq_rewrite seq_in_char seq_in_block random_seeks " \
                  "seq_create seq_read seq_delete rnd_create rnd_read rnd_delete", name, " ")
        for (k = 1; k <= n; k++) print name[k] "_lat_max_ms," lat(38 + k) ",ms"
    }
    END { if (!found) { print "bonnie_parse: no format 1.98 CSV line in " FILENAME > "/dev/stderr"; exit 1 } }' "$1"
}

# pin_memory MIB: fill a tmpfs until about MIB MiB of memory is left
# available, so that a file of a few times MIB no longer fits in the page
# cache (there is no swap: tmpfs pages cannot be evicted)
pin_memory() {
    avail=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
    pin=$((avail - $1))
    [ "$pin" -gt 0 ] || return 0
    mount -o remount,size=95% /dev/shm || return 1
    dd if=/dev/zero of=/dev/shm/pin bs=1M count="$pin" 2> /dev/null || return 1
    say "pinned $pin MiB in /dev/shm: $(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo) MiB left available"
}

wl_bonnie() {
    [ "$FS" != raw ] || { say "bonnie++ needs a filesystem"; return 1; }
    # bonnie++ wants -s at least twice -r; the guest is left about -r MiB
    # of memory (pin_memory), so that the file does not fit in the page
    # cache and the reads reach the drive, with sizes small enough for TCG
    size=$(opt size 256); ram=$(opt ram 96); files=$(opt files 4)
    seeks=$(opt seeks 1000); seekers=$(opt seekers 5)
    fast=-f
    [ "$(opt perchar 0)" = 1 ] && fast=
    pin_memory "$ram" || { echo "bonnie++: could not pin memory in /dev/shm" >> "$RES/error.txt"; return 1; }
    metric mem_available_MiB "$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)" MiB
    mkdir -p "$MNT/bonnie"
    say "bonnie++ -s $size:8192:$seeks:$seekers -r $ram -n $files ${fast:+(no per-char tests)}"
    # shellcheck disable=SC2086  # $fast may be empty
    bonnie++ -q -d "$MNT/bonnie" -s "$size:8192:$seeks:$seekers" -r "$ram" -n "$files" -u root -m hddsim $fast \
        > "$RES/bonnie.csv" 2> "$RES/bonnie.txt"
    rc=$?
    rm -f /dev/shm/pin
    metric bonnie_rc "$rc" ""
    [ "$rc" = 0 ] || { tail -n 5 "$RES/bonnie.txt"; echo "bonnie++ rc=$rc: $(tail -n 2 "$RES/bonnie.txt")" >> "$RES/error.txt"; return 1; }
    bonnie_parse "$RES/bonnie.csv" > "$RES/bonnie.metrics" || return 1
    cat "$RES/bonnie.metrics" >> "$RES/metrics.csv"
    rm -rf "$MNT/bonnie"
    return 0
}

# --- fs_mark: small files written and fsynced one by one ------------------------
# fsmark_parse OUT: fs_mark's table (FSUse% Count Size Files/sec App
# Overhead), one row per loop, as metric lines: the mean and lowest
# files/s over the loops, the files written (Count is cumulative: the
# last row's), the loops.
fsmark_parse() {
    awk '
    /^FSUse%/ { table = 1; next }
    table && NF == 5 && $2 ~ /^[0-9]+$/ { n++; sum += $4; files = $2; if (n == 1 || $4 < min) min = $4; ovh += $5 }
    END {
        if (!n) { print "fsmark_parse: no result rows in " FILENAME > "/dev/stderr"; exit 1 }
        printf "files_per_s,%.6g,files/s\n", sum / n
        printf "files_per_s_min,%.6g,files/s\n", min
        printf "app_overhead_us,%.6g,us\n", ovh / n
        printf "files,%d,count\n", files
        printf "loops,%d,count\n", n
    }' "$1"
}

wl_fs_mark() {
    [ "$FS" != raw ] || { say "fs_mark needs a filesystem"; return 1; }
    n=$(opt files 200); s=$(opt fsize 4096); loops=$(opt loops 2); threads=$(opt threads 1)
    mkdir -p "$MNT/fsmark"
    say "fs_mark -n $n -s $s -t $threads -L $loops -S 1 (fsync per file)"
    fs_mark -d "$MNT/fsmark" -n "$n" -s "$s" -t "$threads" -L "$loops" -S 1 > "$RES/fs_mark.txt" 2>&1
    rc=$?
    metric fs_mark_rc "$rc" ""
    [ "$rc" = 0 ] || { tail -n 5 "$RES/fs_mark.txt"; echo "fs_mark rc=$rc: $(tail -n 2 "$RES/fs_mark.txt")" >> "$RES/error.txt"; return 1; }
    fsmark_parse "$RES/fs_mark.txt" > "$RES/fs_mark.metrics" || return 1
    cat "$RES/fs_mark.metrics" >> "$RES/metrics.csv"
    return 0
}

# --- fs-age: a filesystem aged by small fsynced files, then read back ----------
# fs_mark writes loops x files files of fsize bytes (fsync before each
# close, kept: -k) round robin over dirs subdirectories, which ages the
# filesystem as a NAS's small-file traffic does; then, with the page
# cache dropped, every file is read back once in directory order (find
# | xargs cat: what a backup or a copy of the tree does).  Issue 30: on
# a drive-managed SMR drive the small writes are staged and cleaned,
# and the read back finds what is still in the persistent cache.
wl_fs_age() {
    [ "$FS" != raw ] || { say "fs-age needs a filesystem"; return 1; }
    n=$(opt files 1000); s=$(opt fsize 16384); loops=$(opt loops 2)
    threads=$(opt threads 1); dirs=$(opt dirs 16)
    mkdir -p "$MNT/age"
    say "fs-age: fs_mark -n $n -s $s -t $threads -L $loops -D $dirs -S 1 -k"
    fs_mark -d "$MNT/age" -n "$n" -s "$s" -t "$threads" -L "$loops" -D "$dirs" -S 1 -k \
        > "$RES/fs_mark.txt" 2>&1
    rc=$?
    metric fs_mark_rc "$rc" ""
    [ "$rc" = 0 ] || { tail -n 5 "$RES/fs_mark.txt"; echo "fs-age: fs_mark rc=$rc: $(tail -n 2 "$RES/fs_mark.txt")" >> "$RES/error.txt"; return 1; }
    fsmark_parse "$RES/fs_mark.txt" > "$RES/fs_mark.metrics" || return 1
    cat "$RES/fs_mark.metrics" >> "$RES/metrics.csv"
    sync
    echo 3 > /proc/sys/vm/drop_caches
    t0=$(uptime_s)
    # shellcheck disable=SC2038  # fs_mark's names are letters and digits
    bytes=$(find "$MNT/age" -type f | xargs cat | wc -c)
    t1=$(uptime_s)
    secs=$(echo "$t1 $t0" | awk '{ printf "%.3f", $1 - $2 }')
    metric readback_bytes "$bytes" bytes
    metric readback_s "$secs" s
    metric readback_MBps "$(echo "$bytes $secs" | awk '{ printf "%.4g", $1 / 1e6 / $2 }')" MB/s
    return 0
}

# --- app-start-under-torture: cold read of a program's files, with and without --
# the fsync torture (the 2010 thread's "time firefox &" under Linus's test)

# tree_sizes SEED FILES TOTAL_KIB: FILES file sizes in bytes summing to about
# TOTAL_KIB KiB, heavy-tailed (a few large binaries and libraries, many
# small files), the same for the same seed.  Busybox awk has no math
# library (no exp, log, sqrt, ^): a weight 1 / (u + 0.01) of a uniform u
# is a Pareto tail truncated at 100 times the smallest weight.
tree_sizes() {
    awk -v seed="$1" -v n="$2" -v total="$3" 'BEGIN {
        srand(seed)
        for (i = 1; i <= n; i++) { w[i] = 1 / (rand() + 0.01); sum += w[i] }
        for (i = 1; i <= n; i++) { b = int(w[i] / sum * total * 1024); if (b < 512) b = 512; print b }
    }'
}

# mean_sd FILE: "mean stddev n" of the numbers in FILE, one a line
# (sample stddev, 0 for one number; the square root by Newton's method,
# as busybox awk has no sqrt)
mean_sd() {
    awk 'NF { x[++n] = $1; s += $1 }
        END { if (!n) { print "NaN NaN 0"; exit }
              m = s / n; for (i = 1; i <= n; i++) q += (x[i] - m) * (x[i] - m)
              v = (n > 1 ? q / (n - 1) : 0); r = (v > 1 ? v : 1)
              for (k = 0; k < 100 && v > 0; k++) r = (r + v / r) / 2
              printf "%.6g %.6g %d\n", m, (v > 0 ? r : 0), n }' "$1"
}

# app_start LIST: drop the page cache, read every file in LIST; prints seconds
app_start() {
    echo 3 > /proc/sys/vm/drop_caches
    _t0=$(uptime_s)
    xargs cat < "$1" > /dev/null
    echo "$(uptime_s) $_t0" | awk '{ printf "%.2f\n", $1 - $2 }'
}

# app_metrics PHASE TIMES: the mean and stddev of a phase's start times
app_metrics() {
    # shellcheck disable=SC2046  # three words: mean, stddev, n
    set -- "$1" $(mean_sd "$2")
    metric "${1}_start_s_mean" "$2" s
    metric "${1}_start_s_stddev" "$3" s
    metric "${1}_starts" "$4" count
}

wl_app_start_under_torture() {
    [ "$FS" != raw ] || { say "app-start-under-torture needs a filesystem"; return 1; }
    nfiles=$(opt files 300); total=$(opt total 12288); seed=$(opt seed 1)
    repeats=$(opt repeats 3); warmup=$(opt warmup "$TIME"); interval=$(opt interval 2)
    list=$RES/app-tree.list
    : > "$list"
    say "laying down the tree: $nfiles files, ~$total KiB, seed $seed"
    i=0
    tree_sizes "$seed" "$nfiles" "$total" | while read -r b; do
        d=$MNT/app/d$((i % 12)); mkdir -p "$d"
        head -c "$b" /dev/urandom > "$d/f$i" || exit 1
        echo "$d/f$i" >> "$list"
        i=$((i + 1))
    done || { echo "app-start: could not lay down the tree" >> "$RES/error.txt"; return 1; }
    sync
    metric tree_files "$(wc -l < "$list")" count
    metric tree_MiB "$(du -sk "$MNT/app" | awk '{ printf "%.2f", $1 / 1024 }')" MiB
    : > "$RES/app-idle.times"
    for r in $(seq "$repeats"); do
        t=$(app_start "$list"); echo "$t" >> "$RES/app-idle.times"; say "cold start $r, no torture: ${t}s"
    done
    # the torture: a buffered streaming writer, and a loop writing 1 MiB
    # and fsyncing it every interval s (fsync-under-writer); fio in the
    # background so that SIGTERM ends it and it still writes its JSON
    say "fsync torture on; warm-up ${warmup}s"
    fio --eta=never --output-format=json --output="$RES/app-torture.json" --directory="$MNT" \
        --time_based --runtime=1000000 \
        --name=background --rw=write --bs=1M --size="$(opt bgsize 1G)" --ioengine=psync --direct=0 \
        --name=fsync --new_group --rw=write --bs=1M --size=64M --ioengine=psync --direct=0 \
        --fsync=1 --thinktime="$((interval * 1000000))" --thinktime_blocks=1 2> "$RES/app-torture.err" &
    fiopid=$!
    sleep "$warmup"
    kill -0 "$fiopid" 2>/dev/null || { echo "app-start: the torture's fio ended early: $(head -n 3 "$RES/app-torture.err")" >> "$RES/error.txt"; return 1; }
    : > "$RES/app-torture.times"
    for r in $(seq "$repeats"); do
        t=$(app_start "$list"); echo "$t" >> "$RES/app-torture.times"; say "cold start $r, under torture: ${t}s"
    done
    kill "$fiopid"
    wait "$fiopid"
    fio_flat "$RES/app-torture.json" > "$RES/app-torture.flat"
    # a torture that failed (ENOSPC: the drive smaller than bgsize + 64M)
    # would leave a start "under torture" with no fsyncs in it
    for j in 0 1; do
        e=$(fget "$RES/app-torture.flat" "jobs.$j.error")
        [ "$e" = 0 ] || { echo "app-start: the torture's fio job $j failed (error $e): $(head -n 2 "$RES/app-torture.err")" >> "$RES/error.txt"; return 1; }
    done
    app_metrics idle "$RES/app-idle.times"
    app_metrics torture "$RES/app-torture.times"
    metric start_ratio "$(cat "$RES/app-idle.times" "$RES/app-torture.times" | awk -v n="$repeats" '
        NR <= n { a += $1 } NR > n { b += $1 } END { if (a > 0) printf "%.4g\n", b / a; else print "NaN" }')" ""
    f=$RES/app-torture.flat
    metric fsync_lat_mean_ms "$(fget "$f" jobs.1.sync.lat_ns.mean 1000000)" ms
    metric fsync_lat_max_ms "$(fget "$f" jobs.1.sync.lat_ns.max 1000000)" ms
    metric bg_write_MBps "$(fget "$f" jobs.0.write.bw_bytes 1048576)" MiB/s
    return 0
}

# --- bad-file: a file read back over a sector gone bad under it ----------------
# Writes a file of size= MiB (random bytes, fsync), finds where its 4 KiB
# at file offset at= KiB lies on the drive (FIEMAP through filefrag;
# on btrfs FIEMAP gives btrfs's logical address, which the chunk tree
# maps to the device), checks that the drive's sectors there hold the
# file's bytes, and says "HDDSIM-BAD-SECTORS LBA+8" on the console.  The
# host makes them go bad (fault=bad@file:, vm-scripts/lib/bad-file.sh)
# and answers "go" on /dev/ttyS3.  Then, each from a cold page cache and
# after a marker read (bf_mark), the file is read back as applications
# read it: cat (buffered, the page cache's readahead), one buffered 4 KiB
# read at the bad offset, fio O_DIRECT 1 MiB reads of the whole file,
# one O_DIRECT 4 KiB read at the bad offset: what each saw, where and
# when.  The kernel's log is dmesg.txt.
bf_fail() { say "bad-file: $*"; echo "bad-file: $*" >> "$RES/error.txt"; }
bf_secs() { echo "$1 $2" | awk '{ printf "%.3f", $1 - $2 }'; }

# bf_mark K: a 512-byte O_DIRECT read of the device's sector 8K + 1,
# which no filesystem reads (they read whole 4 KiB blocks): in the
# host's trace, where read K begins (K = 1..4) and the last one ended
# (K = 5); as sb2006_mark
bf_mark() {
    fio --name=mark --filename="$DEV" --readonly --direct=1 --ioengine=psync --rw=read --bs=512 \
        --offset=$((512 * (8 * $1 + 1))) --size=512 --output=/dev/null > /dev/null 2>&1 ||
        say "bad-file: the trace marker read $1 failed"
}

# bf_extent FILEFRAG SECTOR: the physical sector (filefrag -b512's unit)
# of the file's sector SECTOR, from filefrag -v's extent table, if the
# 8 sectors from there lie in one plain extent (no unwritten, delalloc,
# inline, encoded or unknown data)
bf_extent() {
    awk -v s="$2" '
        /^ *[0-9]+: / {
            line = $0; gsub(/\.\./, " ", line); gsub(/:/, " ", line)
            n = split(line, f, " ")
            if (s >= f[2] && s + 7 <= f[3]) {
                if (line ~ /unwritten|delalloc|inline|encoded|unknown/) exit 1
                printf "%.0f\n", f[4] + s - f[2]; found = 1; exit
            }
        }
        END { exit !found }' "$1"
}

# bf_btrfs_device SECTOR: btrfs's logical address SECTOR (512-byte
# units) on the device, from the chunk tree: stripe 0's offset plus the
# address's place in its chunk (single and DUP chunks, whose stripe 0
# holds it all)
bf_btrfs_device() {
    btrfs inspect-internal dump-tree -t chunk "$DEV" > "$RES/btrfs-chunks.txt" 2>&1 || return 1
    awk -v want="$(($1 * 512))" '
        / CHUNK_ITEM / { s = $0; sub(/.*CHUNK_ITEM /, "", s); sub(/\).*/, "", s); start = s + 0; len = 0 }
        /^[ \t]*length [0-9]+ .* type / { len = $2 + 0; type = $NF }
        /^[ \t]*stripe 0 devid / && len && want >= start && want < start + len {
            if (type !~ /single|DUP/) exit 1
            printf "%.0f\n", ($NF + want - start) / 512; found = 1; exit
        }
        END { exit !found }' "$RES/btrfs-chunks.txt"
}

# bf_go: the host's "go" on /dev/ttyS3, once it has made the sectors
# bad; the port opened before the sectors are said (ready_barrier's
# reason)
bf_go() {
    exec 3< /dev/ttyS3 || { bf_fail "cannot open /dev/ttyS3"; return 1; }
    stty -F /dev/ttyS3 -echo 2>/dev/null
    say "HDDSIM-BAD-SECTORS $1"
    _go=''
    # shellcheck disable=SC3045  # busybox sh's read has -t
    read -r -t 300 _go <&3
    exec 3<&-
    case $_go in
        go*) say "bad-file: go" ;;
        *) bf_fail "expected 'go' from the host on /dev/ttyS3, got '$_go'"; return 1 ;;
    esac
}

# bf_cold K: the page cache emptied, then marker K
bf_cold() {
    sync
    echo 3 > /proc/sys/vm/drop_caches
    bf_mark "$1"
}

# bf_cat: cat of the whole file, as an application copies it: the bytes
# it got before it stopped, its message, the time
bf_cat() {
    bf_cold 1
    _t0=$(uptime_s)
    cat "$F" > /tmp/bad-file.out 2> "$RES/cat.err"
    _rc=$?
    _t1=$(uptime_s)
    # (not wc -c: busybox's reads every byte, 28 s for 32 MiB on icount5)
    _got=$(stat -c %s /tmp/bad-file.out)
    rm -f /tmp/bad-file.out
    say "bad-file: cat: rc=$_rc after $(bf_secs "$_t1" "$_t0") s, $_got bytes: $(head -n1 "$RES/cat.err")"
    metric cat_s "$(bf_secs "$_t1" "$_t0")" s
    metric cat_ok "$([ "$_rc" = 0 ] && echo 1 || echo 0)" ""
    metric cat_bytes "$_got" bytes
}

# bf_page: one buffered 4 KiB read at the bad offset
bf_page() {
    bf_cold 2
    _t0=$(uptime_s)
    dd if="$F" of=/dev/null bs=4096 skip="$((AT / 4))" count=1 2> "$RES/page.err"
    _rc=$?
    _t1=$(uptime_s)
    say "bad-file: buffered 4 KiB at $((AT * 1024)): rc=$_rc after $(bf_secs "$_t1" "$_t0") s: $(head -n1 "$RES/page.err")"
    metric page_s "$(bf_secs "$_t1" "$_t0")" s
    metric page_ok "$([ "$_rc" = 0 ] && echo 1 || echo 0)" ""
}

# bf_fio NAME K ARGS: an O_DIRECT fio read of the file (marker K): its
# error (fio's errno), the offset fio names in its error line, the time
bf_fio() {
    _n=$1 _k=$2; shift 2
    bf_cold "$_k"
    _t0=$(uptime_s)
    fio_run "$_n" --name="$_n" --filename="$F" --readonly --direct=1 --ioengine=psync --rw=read "$@"
    _t1=$(uptime_s)
    _err=$(fget "$RES/$_n.flat" jobs.0.error)
    _off=$(sed -n 's/.*error.*offset=\([0-9]*\).*/\1/p' "$RES/$_n.err" | head -n1)
    say "bad-file: fio $_n: error $_err at offset ${_off:-none} after $(bf_secs "$_t1" "$_t0") s"
    metric "${_n}_s" "$(bf_secs "$_t1" "$_t0")" s
    metric "${_n}_errno" "$_err" ""
    metric "${_n}_error_offset" "${_off:-NaN}" bytes
}

wl_bad_file() {
    [ "$FS" != raw ] || { bf_fail "needs a filesystem"; return 1; }
    size=$(opt size 64) AT=$(opt at 33024)
    case $size$AT in *[!0-9]*) bf_fail "size= (MiB) and at= (KiB) are numbers"; return 1 ;; esac
    if [ $((AT % 4)) != 0 ] || [ "$AT" -ge $((size * 1024)) ]; then
        bf_fail "at=$AT: a multiple of 4 KiB inside the file"; return 1
    fi
    F=$MNT/bad-file
    say "bad-file: writing $F: $size MiB of random bytes, fsync"
    dd if=/dev/urandom of="$F" bs=1M count="$size" conv=fsync 2> "$RES/write.err" ||
        { bf_fail "writing the file failed: $(tail -n1 "$RES/write.err")"; return 1; }
    sync
    filefrag -v -b512 "$F" > "$RES/filefrag.txt" 2>&1 || { bf_fail "filefrag failed: $(tail -n1 "$RES/filefrag.txt")"; return 1; }
    phys=$(bf_extent "$RES/filefrag.txt" $((AT * 2))) ||
        { bf_fail "no plain extent holds the file's sectors at $AT KiB: $(cat "$RES/filefrag.txt")"; return 1; }
    lba=$phys
    if [ "$FS" = btrfs ]; then
        lba=$(bf_btrfs_device "$phys") || { bf_fail "btrfs address $phys not in a single or DUP chunk"; return 1; }
    fi
    # the drive's sectors there must hold the file's bytes
    a=$(dd if="$F" bs=4096 skip=$((AT / 4)) count=1 2>/dev/null | md5sum)
    b=$(dd if="$DEV" bs=512 skip="$lba" count=8 2>/dev/null | md5sum)
    [ "$a" = "$b" ] || { bf_fail "the drive's sectors $lba+8 do not hold the file's 4 KiB at $AT KiB"; return 1; }
    say "bad-file: the file's 4 KiB at $AT KiB is the drive's sectors $lba+8 (filefrag: $phys)"
    metric bad_lba "$lba" sector
    metric bad_file_offset "$((AT * 1024))" bytes
    metric file_extents "$(grep -c '^ *[0-9]*: ' "$RES/filefrag.txt")" count
    bf_go "$lba+8" || return 1
    bf_cat
    bf_page
    bf_fio direct 3 --bs=1M
    bf_fio direct_page 4 --bs=4k --offset=$((AT * 1024)) --size=4k
    bf_mark 5
    return 0
}
