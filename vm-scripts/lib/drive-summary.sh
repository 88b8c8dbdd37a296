# One drive's figures from its hddsim trace, for vm-scripts/run's rows
# (one drive or several); sourced.
# drive_summary K TRACE: drive K's own figures from its trace, over its
# span (first arrival to last completion), requests that ended ok only:
# requests, IOPS, MiB read and written, and its busy time, the union of
# the requests' service intervals [start_ns, done_ns] (the drive serves
# one request at a time, but a cache hit or a queued write may overlap
# another's interval: counted once)
drive_summary() {
    local k=$1 trace=$2 cols c_op c_len c_arr c_start c_done c_out
    cols=$(head -n1 "$trace" | awk -F, '{ for (i = 1; i <= NF; i++) c[$i] = i
        printf "%d %d %d %d %d %d", c["op"], c["length"], c["arrival_ns"], c["start_ns"], c["done_ns"], c["outcome"] }')
    read -r c_op c_len c_arr c_start c_done c_out <<< "$cols"
    [ "$c_op" != 0 ] && [ "$c_len" != 0 ] && [ "$c_arr" != 0 ] && [ "$c_start" != 0 ] && [ "$c_done" != 0 ] && [ "$c_out" != 0 ] ||
        { echo "$trace: lacks one of the columns op,length,arrival_ns,start_ns,done_ns,outcome" >&2; return 1; }
    tail -n +2 "$trace" | sort -t, -k"$c_start,$c_start"n |
    awk -F, -v k="$k" -v op="$c_op" -v len="$c_len" -v arr="$c_arr" -v st="$c_start" -v dn="$c_done" -v out="$c_out" '
        $out != "ok" { next }
        {
            n++
            if (first == "" || $arr + 0 < first) first = $arr + 0
            if ($dn + 0 > last) last = $dn + 0
            if ($op == "read") rd += $len; else if ($op == "write") wr += $len
            # union of the service intervals, taken in start order
            if (n == 1 || $st + 0 > end) { busy += end - beg; beg = $st + 0; end = $dn + 0 }
            else if ($dn + 0 > end) end = $dn + 0
        }
        END {
            busy += end - beg; span = (n ? last - first : 0)
            p = "drive" k "_"
            printf "%srequests,%d,count\n", p, n
            printf "%sbusy_s,%.4f,s\n", p, busy / 1e9
            if (span > 0) {
                printf "%sutil,%.4f,fraction\n", p, busy / span
                printf "%siops,%.4g,IOPS\n", p, n / (span / 1e9)
            }
            printf "%sread_MiB,%.4g,MiB\n%swrite_MiB,%.4g,MiB\n", p, rd / 1048576, p, wr / 1048576
        }'
}

# stats_lateness STATS...: the plugin's lateness percentiles from its
# stats files (stats.json's "lateness_us": how late the host delivered
# the model's completions, the host's own disturbance of the drive's
# time), as metric lines in ms; with several drives, each percentile's
# largest.  Nothing when no file has them.
stats_lateness() {
    awk '
        /"lateness_us"/ {
            line = $0; sub(/.*"lateness_us": *\{/, "", line); sub(/\}.*/, "", line)
            n = split(line, kv, ",")
            for (i = 1; i <= n; i++) {
                split(kv[i], p, ":"); k = p[1]; gsub(/[" ]/, "", k); v = p[2] + 0
                if (!(k in top) || v > top[k]) top[k] = v
            }
            seen = 1
        }
        END {
            if (!seen) exit
            printf "late_p50_ms,%.4f,ms\nlate_p99_ms,%.4f,ms\nlate_p999_ms,%.4f,ms\n", top["p50"] / 1000, top["p99"] / 1000, top["p99.9"] / 1000
        }' "$@"
}
