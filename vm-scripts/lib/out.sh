# shellcheck shell=bash
# out.sh: where a run's rows and files go: appended to the CSV of --out,
# the files in a folder beside it; without --out, the rows on stdout and
# the files in a temporary folder; and the CSV's formats.  Sourced by
# run, crash and matrix.

# The rows' formats, newest first.  guest: the guest whose row it is (0
# for the drive several share); clock: the guest's clock (lib/qemu.sh:
# kvm, icountN, tcg); kernel: the guest kernel's release (uname -r; the
# project's own ends in -hddsim).  A CSV written before a column is read
# as guest 1 and clock tcg throughout (every run before issue 22 ran on
# plain TCG), and its runs were on Debian's kernel (before 2026-12-03),
# release unrecorded.
ROWS_HEADER="workload,fs,guest_sched,sched,profile,repeat,metric,value,unit,guest,clock,kernel"
ROWS_HEADER_V3="workload,fs,guest_sched,sched,profile,repeat,metric,value,unit,guest,clock"
ROWS_HEADER_V2="workload,fs,guest_sched,sched,profile,repeat,metric,value,unit,guest"
ROWS_HEADER_V1="workload,fs,guest_sched,sched,profile,repeat,metric,value,unit"

# csv_version FILE: 4, 3, 2 or 1 by FILE's header (4 for a missing or
# empty FILE: a new one gets the newest); fails, printing nothing, on another
csv_version() {
    [ -s "$1" ] || { echo 4; return 0; }
    case $(head -n1 "$1") in
        "$ROWS_HEADER") echo 4 ;;
        "$ROWS_HEADER_V3") echo 3 ;;
        "$ROWS_HEADER_V2") echo 2 ;;
        "$ROWS_HEADER_V1") echo 1 ;;
        *) return 1 ;;
    esac
}

# out_dir OUT NAME: makes and prints the folder for the files: OUT.d
# beside the CSV OUT, or with OUT empty a new $TMPDIR/NAME.XXXXXX
out_dir() {
    if [ -n "$1" ]; then
        mkdir -p "$(dirname "$1")" "$1.d"
        echo "$1.d"
    else
        mktemp -d "${TMPDIR:-/tmp}/$2.XXXXXX"
    fi
}

# out_rows ROWS OUT HEADER FIRST: the CSV rows in the file ROWS appended
# to OUT, one writer at a time, after HEADER if OUT is new; with OUT empty,
# printed on stdout, after HEADER if FIRST is 1 (the first run's)
out_rows() {
    local rows=$1 out=$2 header=$3 first=$4
    if [ -n "$out" ]; then
        (
            flock 9
            [ -s "$out" ] || echo "$header" > "$out"
            cat "$rows" >> "$out"
        ) 9>> "$out.lock"
    else
        [ "$first" != 1 ] || echo "$header"
        cat "$rows"
    fi
}
