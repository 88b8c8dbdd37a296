# vm-scripts/report's aggregation: one pass over run's long-form CSV
# (workload,fs,guest_sched,sched,profile,repeat,metric,value,unit,guest,
# clock; a CSV from before the guest or clock column is guest 1, clock
# tcg throughout) that writes the Markdown tables (per cell the mean and
# its 95% confidence interval, lib/stats.awk), the gnuplot data files, a
# list of plots (workload metric unit nrows nseries series...) and the
# summary of geometric-mean ratios.
# Variables: canon_list (series order), all, key, mre (metric filters),
# dir (data folder), csv (the source's name, for the heading),
# multiclock (1: the CSV holds several clocks, each a row of its own),
# disturbed (a file of lib/disturbed.awk's lines: runs to mark),
# drop_disturbed (1: leave those runs out).
BEGIN {
    if (disturbed != "")
        while ((getline line < disturbed) > 0) { split(line, dw, "\t"); dist[dw[1]] = 1; ndist++ }
}
function addorder(list, cnt, v,    k) { k = list SUBSEP v; if (!(k in seen)) { seen[k] = 1; cnt[list]++; ord[list, cnt[list]] = v } }
# A run of several guests on one drive has the workload W1:W2:...: guest
# K's rows are the row "FS/GSCHED gK WK", checked against the key metrics
# of WK; the shared drive's (guest 0) are "FS/GSCHED drive".
function guest_wl(wl, g,    w) {
    if (g == 0) return "drive"
    split(wl, w, ":")
    return w[g]
}
NR == 1 { next }
NF < 9 { next }
{
    wl = $1; m = $7
    g = (NF >= 10) ? $10 + 0 : 1
    multi = (wl ~ /:/)
    gw = multi ? guest_wl(wl, g) : wl
    # a run's own sampling error of a tail percentile M (M_se_ms for M_ms):
    # kept for M's cell, not a table of its own
    if (m ~ /_se_ms$/) {
        base = m; sub(/_se_ms$/, "_ms", base)
        if ($8 == "NaN" || $8 == "") next
        sclock = cell_clock()
        srow = $2 "/" $3; if (multiclock) srow = srow " " sclock
        if (multi) srow = srow (g == 0 ? " drive" : " g" g " " gw)
        serec[NR] = wl SUBSEP base SUBSEP srow; seval[NR] = $8; s4[NR] = $4; s5[NR] = $5
        next
    }
    if (!all && (gw ":" m) !~ key) next
    if (mre != "" && m !~ mre) next
    if ($8 == "NaN" || $8 == "" || $8 == "nan" || $8 == "-nan") next
    clock = cell_clock()
    run = $1 "," $2 "," $3 "," $4 "," $5 "," $6 "," clock
    if (drop_disturbed && (run in dist)) next
    profs[$5] = 1
    row = $2 "/" $3
    if (multiclock) row = row " " clock
    if (multi) row = row (g == 0 ? " drive" : " g" g " " gw)
    ser = $4; sp[ser "/" $5] = 1
    s4[NR] = $4; s5[NR] = $5
    rec[NR] = wl SUBSEP m SUBSEP row; val[NR] = $8; unit[wl SUBSEP m] = $9
    if (run in dist) drun[NR] = run
    addorder("wl", c, wl)
    addorder("m" SUBSEP wl, c, m)
    addorder("row" SUBSEP wl SUBSEP m, c, row)
}
END {
    np = 0; for (p in profs) np++
    # series label: the scheduler, plus the profile when there are several
    for (i in rec) {
        ser = (np > 1) ? s4[i] "/" s5[i] : s4[i]
        split(rec[i], f, SUBSEP)
        addorder("ser" SUBSEP f[1] SUBSEP f[2], c, ser)
        k = rec[i] SUBSEP ser
        stats_add(k, val[i])
        # the cell's disturbed runs, each counted once
        if ((i in drun) && !((k, drun[i]) in dseen)) { dseen[k, drun[i]] = 1; ndisturbed[k]++ }
    }
    for (i in serec) {
        ser = (np > 1) ? s4[i] "/" s5[i] : s4[i]
        k = serec[i] SUBSEP ser
        se2[k] += seval[i] * seval[i]; sen[k]++
    }
    printf "# hddsim guest benchmarks\n\nSource: `%s`. Each cell: mean ± the half-width of its 95%% confidence interval (Student's t, n - 1 degrees of freedom; none for one run), then (n runs; sd: the runs' sample standard deviation; run se: for a tail percentile whose runs measured their own sampling error, the root mean square of each run's bootstrap standard error, the spread one run has by itself)%s.\n", csv, (ndist ? "; † k: k of the cell's runs were disturbed by the host (see \"Disturbed runs\")" : "")
    # (one line: report puts the summary after these four)
    printf "Rows: filesystem / guest I/O scheduler (several guests on one drive, workload W1:W2: a row per guest K, \"gK WK\", and \"drive\" for the drive they share); columns: hddsim scheduler%s.\n", (np > 1 ? "/profile" : "")
    for (a = 1; a <= c["wl"]; a++) {
        wl = ord["wl", a]
        printf "\n## %s\n", wl
        ml = "m" SUBSEP wl
        for (b = 1; b <= c[ml]; b++) {
            m = ord[ml, b]; u = unit[wl SUBSEP m]
            sl = "ser" SUBSEP wl SUBSEP m; rl = "row" SUBSEP wl SUBSEP m
            # canonical order of the built-in policies first
            ns = 0; delete sord
            ncanon = split(canon_list, canon, " "); delete known
            for (q = 1; q <= ncanon; q++) known[canon[q]] = 1
            for (q = 1; q <= ncanon; q++) for (j = 1; j <= c[sl]; j++) { s = ord[sl, j]; base = s; sub(/\/.*/, "", base); if (base == canon[q]) sord[++ns] = s }
            for (j = 1; j <= c[sl]; j++) { s = ord[sl, j]; base = s; sub(/\/.*/, "", base); if (!(base in known)) sord[++ns] = s }
            printf "\n### %s%s\n\n| fs / guest sched |", m, (u != "" ? " (" u ")" : "")
            for (j = 1; j <= ns; j++) printf " %s |", sord[j]
            printf "\n|---|"; for (j = 1; j <= ns; j++) printf "---:|"; printf "\n"
            fn = wl; gsub(/:/, "+", fn); dat = dir "/" fn "-" m ".dat"
            for (r = 1; r <= c[rl]; r++) {
                row = ord[rl, r]
                printf "| %s |", row; printf "%s", row > dat
                for (j = 1; j <= ns; j++) {
                    k = wl SUBSEP m SUBSEP row SUBSEP sord[j]
                    if (stats_n(k)) {
                        printf " %s |", cell(k)
                        printf "\t%.6g\t%.6g", stats_mean(k), (stats_n(k) > 1 ? stats_ci(k) : 0) > dat
                    } else { printf " – |"; printf "\tNaN\tNaN" > dat }
                }
                printf "\n"; printf "\n" > dat
            }
            close(dat)
            summarize(wl, m, u, rl, ns)
            printf "%s\t%s\t%s\t%d\t%d", wl, m, u, c[rl], ns > (dir "/plots.list")
            for (j = 1; j <= ns; j++) printf "\t%s", sord[j] > (dir "/plots.list")
            printf "\n" > (dir "/plots.list")
        }
    }
    if (sum != "") printf "\n## Summary\n\nEach scheduler against the reference (the first column): the geometric mean,\nover the rows (filesystem / guest scheduler) where both have a positive mean,\nof the scheduler's cell mean divided by the reference's; (n) rows.  1 is the\nsame as the reference, 0.5 half of it.\n%s", sum > (dir "/summary.md")
}
# cell K: "mean ± CI (n; sd S; run se E) † D"
function cell(k,    s) {
    s = sprintf("%.4g", stats_mean(k))
    if (stats_n(k) > 1) s = s sprintf(" ± %.3g", stats_ci(k))
    s = s sprintf(" (%d", stats_n(k))
    if (stats_n(k) > 1) s = s sprintf("; sd %.3g", stats_sd(k))
    if (k in sen) s = s sprintf("; run se %.3g", sqrt(se2[k] / sen[k]))
    s = s ")"
    if (k in ndisturbed) s = s sprintf(" †%d", ndisturbed[k])
    return s
}
# summarize: one summary line per metric, each series against the first
function summarize(wl, m, u, rl, ns,    j, r, k0, k, lg, nr, line) {
    if (ns < 2) return
    if (!sumhead[wl]++) {
        sum = sum sprintf("\n### %s\n\n| metric | %s (reference) |", wl, sord[1])
        for (j = 2; j <= ns; j++) sum = sum sprintf(" %s |", sord[j])
        sum = sum "\n|---|---:|"
        for (j = 2; j <= ns; j++) sum = sum "---:|"
        sum = sum "\n"
    }
    line = sprintf("| %s%s | 1 |", m, (u != "" ? " (" u ")" : ""))
    for (j = 2; j <= ns; j++) {
        lg = 0; nr = 0
        for (r = 1; r <= c[rl]; r++) {
            k0 = wl SUBSEP m SUBSEP ord[rl, r] SUBSEP sord[1]
            k = wl SUBSEP m SUBSEP ord[rl, r] SUBSEP sord[j]
            if (stats_n(k0) && stats_n(k) && stats_mean(k0) > 0 && stats_mean(k) > 0) { lg += log(stats_mean(k) / stats_mean(k0)); nr++ }
        }
        line = line (nr ? sprintf(" %.3g (%d) |", exp(lg / nr), nr) : " – |")
    }
    sum = sum line "\n"
}
