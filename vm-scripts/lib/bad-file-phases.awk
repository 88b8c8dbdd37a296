# bad-file-phases.awk: the drive's side of a bad-file run, per read of
# the file (guest/workloads.sh, wl_bad_file), from the run's trace.csv:
#   awk -F, -f vm-scripts/lib/bad-file-phases.awk trace.csv
# The guest marks where each read begins with a 512-byte read of the
# device's sector 8K + 1 (K = 1: cat, 2: buffered 4 KiB, 3: O_DIRECT
# 1 MiB, 4: O_DIRECT 4 KiB, 5: the end).  Per read: the drive's
# commands between its marker and the next, how many of them failed
# (outcome medium-error: the drive asked, and its recovery run out),
# the drive's time for those, and from the arrival of the phase's
# first command at the drive to each failure's completion (modeled
# time, seconds; from the first command, not the marker, so that the
# program's start-up is not counted).
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["op"] == "read" && $c["length"] == 512 && ($c["offset"] / 512 - 1) % 8 == 0 {
    k = ($c["offset"] / 512 - 1) / 8
    if (k >= 1 && k <= 5) { phase = k; t0[k] = $c["arrival_ns"]; next }
}
phase && phase < 5 && $c["op"] != "fault" {
    if (!n[phase]++) first[phase] = $c["arrival_ns"]
    if ($c["outcome"] == "medium-error") {
        bad[phase]++
        busy[phase] += $c["done_ns"] - $c["start_ns"]
        at[phase] = at[phase] sprintf(" %.2f", ($c["done_ns"] - first[phase]) / 1e9)
    }
}
END {
    split("cat buffered-4k direct-1m direct-4k", name, " ")
    print "read,commands,medium_errors,recovery_s,errors_at_s"
    for (k = 1; k <= 4; k++)
        printf "%s,%d,%d,%.2f,%s\n", name[k], n[k], bad[k], busy[k] / 1e9, at[k]
}
