# shellcheck shell=bash
# guest-split.sh: several guests on one drive (run --guests N): the
# hddsim trace split into each guest's requests, and each guest's
# figures at the drive.  Sourced by vm-scripts/run and the tests; needs
# lib/drive-summary.sh.
#
# Guest K is served the image's bytes [(K-1) x REGION, K x REGION)
# through its own NBD connection.  The plugin numbers connections in the
# order they open, which the host does not control (the guests' QEMUs
# start together), so a connection is matched to its guest by the region
# its reads and writes fall in; its flushes follow it.

# split_trace TRACE REGION N PREFIX: writes PREFIX1.csv ... PREFIXN.csv,
# each the header and guest K's rows of TRACE.  An error, and nothing
# trusted, when a request crosses a region's end, lies beyond the last
# region, or a connection has requests in two guests' regions, or a
# guest has no connection; a connection with no reads or writes (only
# flushes) is left out, and said on stderr.
split_trace() {
    local trace=$1 region=$2 n=$3 prefix=$4
    [ -s "$trace" ] || { echo "$trace: missing or empty" >&2; return 1; }
    awk -F, -v region="$region" -v n="$n" -v prefix="$prefix" -v trace="$trace" '
        function bad(msg) { print trace ": " msg > "/dev/stderr"; err = 1; exit 1 }
        FNR == 1 {
            pass++
            if (pass == 1) {
                for (i = 1; i <= NF; i++) c[$i] = i
                if (!c["conn"] || !c["op"] || !c["offset"] || !c["length"] || !c["id"])
                    bad("lacks one of the columns id,conn,op,offset,length")
                head = $0
            }
            next
        }
        pass == 1 {
            len = $c["length"] + 0
            if (len <= 0) next
            g = int($c["offset"] / region) + 1
            last = int(($c["offset"] + len - 1) / region) + 1
            if (last != g) bad("request " $c["id"] " (" $c["op"] " at byte " $c["offset"] ", " len " bytes) crosses the end of guest " g "'"'"'s region")
            if (g > n) bad("request " $c["id"] " at byte " $c["offset"] " lies beyond the last guest'"'"'s region")
            k = $c["conn"]
            if ((k in guest) && guest[k] != g)
                bad("connection " k " has requests in the regions of guest " guest[k] " and guest " g " (request " $c["id"] ")")
            guest[k] = g
            next
        }
        pass == 2 && !started {
            started = 1
            for (g = 1; g <= n; g++) { has = 0
                for (k in guest) if (guest[k] == g) has = 1
                if (!has) bad("no connection has requests in guest " g "'"'"'s region")
                print head > (prefix g ".csv") }
        }
        pass == 2 {
            k = $c["conn"]
            if (k in guest) print > (prefix guest[k] ".csv")
            else if (!(k in told)) { told[k] = 1; lost[++nl] = k }
        }
        END {
            if (err) exit 1
            for (i = 1; i <= nl; i++)
                print trace ": connection " lost[i] " made no reads or writes: its requests are in no guest'"'"'s trace" > "/dev/stderr"
        }' "$trace" "$trace"
}

# conn_summary TRACE: a guest's figures from its part of the trace (ok
# requests only), as metric lines: drive_summary's (requests, busy time,
# utilisation and IOPS over the guest's span, MiB read and written) named
# conn_*, and the response time at the drive (arrival to completion) of
# its reads and writes: p50, p99 (nearest rank) and max, in ms
conn_summary() {
    local trace=$1 cols c_op c_arr c_done c_out op
    drive_summary X "$trace" | sed 's/^driveX_/conn_/' || return 1
    cols=$(head -n1 "$trace" | awk -F, '{ for (i = 1; i <= NF; i++) c[$i] = i
        printf "%d %d %d %d", c["op"], c["arrival_ns"], c["done_ns"], c["outcome"] }')
    read -r c_op c_arr c_done c_out <<< "$cols"
    for op in read write; do
        tail -n +2 "$trace" |
            awk -F, -v op="$op" -v o="$c_op" -v a="$c_arr" -v d="$c_done" -v out="$c_out" \
                '$o == op && $out == "ok" { printf "%.0f\n", $d - $a }' |
            sort -n |
            awk -v p="conn_${op}_resp_" '
                { x[++n] = $1 }
                END {
                    if (!n) exit
                    r50 = int((50 * n + 99) / 100); r99 = int((99 * n + 99) / 100)
                    printf "%sp50_ms,%.4f,ms\n%sp99_ms,%.4f,ms\n%smax_ms,%.4f,ms\n", p, x[r50] / 1e6, p, x[r99] / 1e6, p, x[n] / 1e6
                }'
    done
}
