# shellcheck shell=bash
# out.sh: where a run's rows and files go: appended to the CSV of --out,
# the files in a folder beside it; without --out, the rows on stdout and
# the files in a temporary folder.  Sourced by run and crash.

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
