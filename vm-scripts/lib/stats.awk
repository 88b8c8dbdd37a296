# stats.awk: the summary statistics of repeated runs, one place for
# report, matrix --repeats auto and bench/guest-repeatability (awk -f).
#
#   stats_add(K, X)   adds the value X to the sample K (Welford's update,
#                     so that large means lose no digits in the variance)
#   stats_n(K), stats_mean(K), stats_sd(K) (sample, n - 1; 0 for n < 2)
#   stats_cv(K)       sd / |mean| (-1 when the mean is 0)
#   stats_ci(K)       the half-width of the mean's 95% confidence interval,
#                     t(0.975, n - 1) x sd / sqrt(n) (-1 for n < 2)
#   t975(DF)          Student's t quantile 0.975 with DF degrees of freedom

# t975 DF: from the textbook table for DF <= 30 (e.g. Montgomery, Applied
# Statistics, Table V; 3 decimals); above it the Cornish-Fisher expansion
# z + g1/DF + g2/DF^2 + g3/DF^3 around the normal z = 1.959964, within
# 0.0005 of the table at 40, 60 and 120
function t975(df,    z) {
    if (df < 1) return -1
    if (!_t975_init) {
        split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 " \
              "2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 " \
              "2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", _t975, " ")
        _t975_init = 1
    }
    if (df <= 30) return _t975[int(df)]
    z = 1.959964
    return z + (z^3 + z) / 4 / df + (5 * z^5 + 16 * z^3 + 3 * z) / 96 / df^2 \
             + (3 * z^7 + 19 * z^5 + 17 * z^3 - 15 * z) / 384 / df^3
}

function stats_add(k, x,    d) {
    _st_n[k]++
    d = x - _st_mean[k]
    _st_mean[k] += d / _st_n[k]
    _st_m2[k] += d * (x - _st_mean[k])
}
function stats_n(k) { return (k in _st_n) ? _st_n[k] : 0 }
function stats_mean(k) { return _st_mean[k] }
function stats_sd(k) { return (_st_n[k] > 1) ? sqrt(_st_m2[k] / (_st_n[k] - 1)) : 0 }
function stats_cv(k,    m) { m = _st_mean[k]; if (m < 0) m = -m; return (m > 0) ? stats_sd(k) / m : -1 }
function stats_ci(k) { return (_st_n[k] > 1) ? t975(_st_n[k] - 1) * stats_sd(k) / sqrt(_st_n[k]) : -1 }
