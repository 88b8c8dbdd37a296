# cell-intervals.awk: how far each cell of a matrix is from the precision
# --repeats auto asks for (vm-scripts/matrix); needs lib/stats.awk.
# Two inputs: first the cells, one a line,
#   WL FS GSCHED SCHED KEY METRIC@GUEST...
# (KEY: workload,fs,guest_sched,sched,profile,clock as in the CSV; GUEST
# a number, or * for any guest), then run's long-form CSV.  Prints per
# cell, in the cells' order:
#   WL FS GSCHED SCHED RUNS RATIO METRIC@GUEST
# RUNS: its runs in the CSV; RATIO: the widest of its key metrics' 95%
# confidence intervals (half-width) as a fraction of that metric's mean,
# and which metric that is; "inf" while a key metric has fewer than two
# runs, a mean of 0, or none of the cell's key metrics is in the CSV.
FNR == NR {
    nc++; name[nc] = $1 " " $2 " " $3 " " $4; cellof[$5] = nc
    for (i = 6; i <= NF; i++) want[nc, $i] = 1
    next
}
# the CSV's fields are its commas' (from its second line on: the header
# is read with the cells' blanks, and skipped)
FNR == 1 { FS = ","; next }
{
    k = $1 "," $2 "," $3 "," $4 "," $5 "," cell_clock()
    if (!(k in cellof)) next
    c = cellof[k]; g = (NF >= 10) ? $10 : 1
    if (!((c, $6) in seenrun)) { seenrun[c, $6] = 1; nruns[c]++ }
    if (((c, $7 "@" g) in want) || ((c, $7 "@*") in want)) {
        mk = $7 "@" g
        stats_add(c SUBSEP mk, $8 + 0)
        if (!((c, mk) in seenm)) { seenm[c, mk] = 1; ms[c] = ms[c] " " mk }
    }
}
END {
    for (c = 1; c <= nc; c++) {
        worst = -1; wm = "-"
        n = split(ms[c], list, " ")
        if (n == 0) worst = "inf"
        for (i = 1; i <= n; i++) {
            kk = c SUBSEP list[i]; m = stats_mean(kk); if (m < 0) m = -m
            if (stats_n(kk) < 2 || m == 0) { worst = "inf"; wm = list[i]; break }
            r = stats_ci(kk) / m
            if (r > worst) { worst = r; wm = list[i] }
        }
        printf "%s %d %s %s\n", name[c], nruns[c], (worst == "inf" ? "inf" : sprintf("%.4f", worst)), wm
    }
}
