# guest-repeatability.awk: bench/guest-repeatability's table: per cell,
# clock and key metric, each series' mean, sd, CV and n (lib/stats.awk),
# and the loaded series' mean over the quiet one's, with issue 22's bar
# (CV <= 10% quietly; loaded within 15% of quiet).
# Variables: cells (lines "NAME KEY METRIC@GUEST...", KEY the CSV's
# workload,fs,guest_sched,sched,profile), names (the series of the CSV
# files given, in order: "quiet loaded").
BEGIN {
    FS = ","
    nc = split(cells, cl, "\n")
    for (i = 1; i <= nc; i++) {
        nw = split(cl[i], w, " ")
        if (nw < 3) continue
        cname[w[2]] = w[1]; corder[++ncell] = w[2]
        for (j = 3; j <= nw; j++) { want[w[2], w[j]] = 1; mlist[w[2]] = mlist[w[2]] " " w[j] }
    }
    split(names, sname, " ")
}
FNR == 1 { fi++; next }
{
    k = $1 "," $2 "," $3 "," $4 "," $5
    if (!(k in cname)) next
    g = (NF >= 10) ? $10 : 1; clock = cell_clock()
    if (!((k, $7 "@" g) in want)) next
    if ($8 == "NaN" || $8 == "") next
    if (!((k, clock) in seenclock)) { seenclock[k, clock] = 1; clocks[k] = clocks[k] " " clock }
    stats_add(sname[fi] SUBSEP k SUBSEP clock SUBSEP $7 "@" g, $8 + 0)
}
function col(s, k, c, m,    kk) {
    kk = s SUBSEP k SUBSEP c SUBSEP m
    if (!stats_n(kk)) return " – | – | – | 0 |"
    return sprintf(" %.4g | %.3g | %.1f%%%s | %d |", stats_mean(kk), stats_sd(kk), 100 * stats_cv(kk),
                   (s == "quiet" && stats_n(kk) > 1 && stats_cv(kk) > 0.10) ? " (over 10%)" : "", stats_n(kk))
}
END {
    for (i = 1; i <= ncell; i++) {
        k = corder[i]
        nclk = split(clocks[k], cs, " ")
        for (c = 1; c <= nclk; c++) {
            nm = split(mlist[k], ms, " ")
            for (j = 1; j <= nm; j++) {
                m = ms[j]; q = "quiet" SUBSEP k SUBSEP cs[c] SUBSEP m; l = "loaded" SUBSEP k SUBSEP cs[c] SUBSEP m
                line = sprintf("| %s (%s) | %s |%s%s", cname[k], cs[c], m, col("quiet", k, cs[c], m), col("loaded", k, cs[c], m))
                ratio = " – |"
                if (stats_n(q) && stats_n(l) && stats_mean(q) != 0) {
                    r = stats_mean(l) / stats_mean(q)
                    ratio = sprintf(" %.3f%s |", r, (r < 0.85 || r > 1.15) ? " (beyond 15%)" : "")
                }

                print line ratio
            }
        }
    }
}
