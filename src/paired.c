/*
 * paired.c -- the Speedup-Test protocols for runs taken in complete
 * interleaved rounds (each round runs each of the two versions once), and
 * the variance components of runs grouped by process.
 *
 * Paired median protocol: the exact one-sided Wilcoxon signed-rank test
 * (Wilcoxon 1945) of the per-round log ratios d_i = log x_i - log y_i,
 * with the exact conditional null distribution when there are ties (the
 * zeros dropped, as Wilcoxon and R do); the speedup is exp of the
 * Hodges-Lehmann estimate of the centre of d (Hodges and Lehmann 1963) and
 * its interval exp of the exact interval from the Walsh averages (Tukey
 * 1949).  The test itself is st_signed_rank_test (signrank.c), the one
 * implementation the HPT uses too.
 *
 * Paired mean protocol: the Shapiro-Wilk test of the differences
 * D_i = x_i - y_i, the rule of the paper (not shown normal with 30 rounds
 * or fewer: insufficient data in rigorous mode), then the one-sided paired
 * t-test of mean(D) > 0 (Student 1908).  The speedup mean(x) / mean(y) gets
 * the paired Fieller interval (Fieller 1954): theta is in the interval when
 * the t statistic of mean(x) - theta mean(y), whose variance is
 * (s_xx - 2 theta s_xy + theta^2 s_yy) / n, is within the t quantile:
 *
 *   (xb - theta yb)^2 <= q^2 (s_xx - 2 theta s_xy + theta^2 s_yy) / n,
 *   q = qt(1 - a / 2, n - 1), with a = 2 alpha (the 1 - 2 alpha interval whose
 *   ends are one-sided 1 - alpha bounds, as the one-sided decision),
 *
 * a quadratic a theta^2 - 2 b theta + c <= 0 with a = yb^2 - q^2 s_yy / n,
 * b = xb yb - q^2 s_xy / n, c = xb^2 - q^2 s_xx / n.  When a > 0 (the mean
 * of y is clearly non-zero) the interval is between the two roots;
 * otherwise it is unbounded, reported as [0, Inf).
 *
 * Variance components: the one-way random-effects analysis of variance of
 * log times grouped by process (Searle, Casella and McCulloch 1992,
 * ch. 3): with k groups of n_i values, N in all,
 *   MSW = sum_i sum_j (v_ij - vbar_i)^2 / (N - k),
 *   MSB = sum_i n_i (vbar_i - vbar)^2 / (k - 1),
 *   n0 = (N - sum n_i^2 / N) / (k - 1),
 * s2_within = MSW and s2_between = max(0, (MSB - MSW) / n0) (the ANOVA
 * estimators, unbiased before truncation).
 *
 * References
 *   Wilcoxon, F. (1945). Individual comparisons by ranking methods.
 *     Biometrics Bulletin 1, 80-83.
 *   Hodges, J. L. and Lehmann, E. L. (1963). Estimates of location based
 *     on rank tests. Ann. Math. Statist. 34, 598-611.
 *   Fieller, E. C. (1954). Some problems in interval estimation. JRSS B
 *     16, 175-185.
 *   Searle, S. R., Casella, G. and McCulloch, C. E. (1992). Variance
 *     Components. Wiley.
 *   Kalibera, T. and Jones, R. (2013). Rigorous benchmarking in reasonable
 *     time. ISMM 2013.
 */
#include <math.h>
#include <stdlib.h>
#include <Rmath.h>
#include "speeduptest.h"

/* The signed-rank test of d in one direction, exact when the counting
 * table allows it (n <= 1000), else the normal approximation. */
static int signed_rank(const double *d, size_t n, st_alternative alt,
                       int conf_int, double conf_level, st_result *r,
                       double *level)
{
    double lev = NAN, achieved = NAN;
    int warn = 0;
    st_signed_rank_options o = {&lev, &warn, &achieved};
    int s = st_signed_rank_test(d, n, alt, 0.0, 1, 1, conf_int, conf_level,
                                &o, r);
    if (s == ST_ERR_TOO_MANY)
        s = st_signed_rank_test(d, n, alt, 0.0, 0, 1, conf_int, conf_level,
                                &o, r);
    /* the exact law's own level when it falls short of conf_level, the
     * normal law's widened one when it was widened */
    if (level) *level = !isnan(achieved) ? achieved : warn ? lev : NAN;
    return s;
}

/* st_mean() of x, of y and of the differences x[i] - y[i] (each
 * difference rounded to a double, as when stored) into means[0..2]: the
 * same sums in the same order as three calls of st_mean() make, the three
 * chains of additions stepped in one loop so that the processor overlaps
 * them (the differences are made again in each pass, never stored). */
static void paired_means(const double *x, const double *y, size_t n,
                         double means[3])
{
    long double sx = 0.0L, sy = 0.0L, sd = 0.0L;
    for (size_t i = 0; i < n; i++) {
        double di = x[i] - y[i];
        sx += x[i];
        sy += y[i];
        sd += di;
    }
    long double ln = (long double) n;
    sx /= ln;
    sy /= ln;
    sd /= ln;
    long double tx = 0.0L, ty = 0.0L, td = 0.0L;
    for (size_t i = 0; i < n; i++) {
        double di = x[i] - y[i];
        tx += x[i] - sx;
        ty += y[i] - sy;
        td += di - sd;
    }
    means[0] = (double) (sx + tx / ln);
    means[1] = (double) (sy + ty / ln);
    means[2] = (double) (sd + td / ln);
}

/* What both paired protocols do first: reset the verdict, check the
 * pairs, record the observed speedups; fewer than 3 rounds is too few
 * (the caller stops when this returns an error or n < 3).  means (or
 * NULL): receives st_mean() of x, of y and of the differences x - y
 * (paired_means()), made once for the observed speedup and the caller. */
static int paired_start(const double *x, const double *y, size_t n,
                        double alpha, double *means, st_verdict *out)
{
    int s = st_verdict_start(out, alpha, x, n, y, n);
    if (s != ST_OK) return s;
    if (means && n > 0) paired_means(x, y, n, means);
    st_verdict_observed_means(out, x, n, y, n, means);
    if (n < 3) out->caveats = ST_CAVEAT_TOO_FEW_VALUES;
    return ST_OK;
}

/* (rigorous is unread: the signed-rank test needs no model check) */
int st_paired_median(const double *x, const double *y, size_t n,
                     double alpha, int rigorous, st_verdict *out)
{
    (void) rigorous;
    int s = paired_start(x, y, n, alpha, NULL, out);
    if (s != ST_OK || n < 3) return s;
    double *d = st_malloc(n, sizeof(double));
    if (!d) return ST_ERR_ALLOC;
    double greater = 0;
    for (size_t i = 0; i < n; i++) {
        d[i] = log(x[i]) - log(y[i]);
        greater += x[i] > y[i] ? 1.0 : x[i] == y[i] ? 0.5 : 0.0;
    }
    st_result up, down, two;
    s = signed_rank(d, n, ST_GREATER, 0, 0.5, &up, NULL);
    if (s == ST_OK) s = signed_rank(d, n, ST_LESS, 0, 0.5, &down, NULL);
    /* the interval at 1 - 2 alpha: each end a one-sided 1 - alpha bound,
     * matching the one-sided decisions (none for alpha >= 0.5) */
    double lev = alpha < 0.5 ? st_decision_conf(alpha) : 0.5, real_lev = NAN;
    if (s == ST_OK) s = signed_rank(d, n, ST_TWO_SIDED, 1, lev, &two,
                                    &real_lev);
    free(d);
    if (s != ST_OK) return s;
    out->branch = ST_BRANCH_PAIRED_SIGNED_RANK;
    out->guaranteed = 1;
    out->p_value = up.p_value;
    out->p_value_slowdown = down.p_value;
    out->decision = up.p_value <= alpha ? ST_SIGNIFICANT : ST_NOT_SIGNIFICANT;
    out->shift = two.estimate[0];
    out->shift_ci[0] = two.conf_int[0];
    out->shift_ci[1] = two.conf_int[1];
    out->speedup = exp(two.estimate[0]);
    out->speedup_ci[0] = alpha < 0.5 ? exp(two.conf_int[0]) : NAN;
    out->speedup_ci[1] = alpha < 0.5 ? exp(two.conf_int[1]) : NAN;
    out->speedup_ci_level = alpha < 0.5 ? st_attained_level(real_lev, alpha)
                                        : NAN;
    out->speedup_estimate = out->speedup;
    out->prob_greater = greater / (double) n;
    up.estimate[0] = two.estimate[0];
    out->n_steps = 1;
    out->step_kind[0] = ST_STEP_SIGNED_RANK;
    out->steps[0] = up;
    return ST_OK;
}

/* Fieller's interval for mean(x) / mean(y) from paired samples. */
static void paired_fieller(double xb, double yb, double sxx, double syy,
                           double sxy, size_t n, double alpha, double ci[2])
{
    double q = qt(1 - alpha / 2, (double) n - 1, 1, 0);
    double k = q * q / (double) n;
    double a = yb * yb - k * syy;
    double b = xb * yb - k * sxy;
    double c = xb * xb - k * sxx;
    double disc = b * b - a * c;
    if (!(a > 0) || !(disc >= 0)) {
        ci[0] = 0;
        ci[1] = INFINITY;
        return;
    }
    double r = sqrt(disc);
    double lo = (b - r) / a, hi = (b + r) / a;
    ci[0] = lo > 0 ? lo : 0;
    ci[1] = hi;
}

int st_paired_mean(const double *x, const double *y, size_t n, double alpha,
                   int rigorous, st_verdict *out)
{
    double means[3];
    int s = paired_start(x, y, n, alpha, means, out);
    if (s != ST_OK || n < 3) return s;
    /* the differences are not stored: each pass makes D_i = x_i - y_i
     * again; only the Shapiro-Wilk test (at most 5000 rounds) gets them
     * as an array */
    double xb = means[0], yb = means[1], db = means[2];
    double d0 = x[0] - y[0];
    int constant = 1;
    long double sxx = 0, syy = 0, sxy = 0, sdd = 0;
    for (size_t i = 0; i < n; i++) {
        double di = x[i] - y[i];
        double ex = x[i] - xb, ey = y[i] - yb, ed = di - db;
        sxx += (long double) ex * ex;
        syy += (long double) ey * ey;
        sxy += (long double) ex * ey;
        sdd += (long double) ed * ed;
        constant &= di == d0;
    }
    double dn = (double) n;
    double vdd = (double) (sdd / (dn - 1));
    st_result sw;
    st_result_init(&sw);
    if (constant) {
        sw.status = ST_ERR_CONSTANT;
    } else if (n > 5000) {
        sw.status = ST_ERR_TOO_MANY;
    } else {
        double *D = st_malloc(n, sizeof(double));
        if (!D) return ST_ERR_ALLOC;
        for (size_t i = 0; i < n; i++) D[i] = x[i] - y[i];
        s = st_shapiro_wilk(D, n, NULL, &sw);
        free(D);
        if (ST_FATAL(s)) return s;
    }
    out->n_steps = 1;
    out->step_kind[0] = ST_STEP_SHAPIRO_D;
    out->steps[0] = sw;
    if (constant) {
        out->branch = ST_BRANCH_CONSTANT;
        out->caveats = ST_CAVEAT_CONSTANT;
        return ST_OK;
    }
    int normal = sw.status == ST_OK && sw.p_value > alpha;
    if (!normal) {
        out->caveats |= ST_CAVEAT_X_NOT_NORMAL;
        if (sw.status != ST_OK) out->caveats |= ST_CAVEAT_X_UNCHECKABLE;
        if (n <= 30) {
            out->caveats |= ST_CAVEAT_X_FEW_RUNS;
            if (rigorous) {
                out->branch = ST_BRANCH_NEED_MORE_RUNS;
                return ST_OK;
            }
        }
    }
    /* the paired t-test of mean(D) > 0 */
    double se = sqrt(vdd / dn);
    double t = db / se;
    st_result tt;
    st_result_init(&tt);
    tt.statistic = t;
    tt.df[0] = dn - 1;
    tt.p_value = pt(t, dn - 1, 0, 0);
    tt.estimate[0] = db;
    double qa = qt(1 - alpha, dn - 1, 1, 0);
    tt.conf_int[0] = db - qa * se;
    tt.conf_int[1] = INFINITY;
    tt.exact = 1;
    tt.status = ST_OK;
    out->step_kind[1] = ST_STEP_PAIRED_T;
    out->steps[1] = tt;
    out->n_steps = 2;
    out->branch = normal ? ST_BRANCH_PAIRED_T_NORMAL : ST_BRANCH_PAIRED_T_NOT_NORMAL;
    out->guaranteed = normal;
    out->p_value = tt.p_value;
    out->p_value_slowdown = pt(t, dn - 1, 1, 0);
    out->decision = tt.p_value <= alpha ? ST_SIGNIFICANT : ST_NOT_SIGNIFICANT;
    out->speedup = xb / yb;
    out->speedup_estimate = out->speedup;
    /* Fieller at 1 - 2 alpha (paired_fieller takes the two-sided risk) */
    if (alpha < 0.5) {
        paired_fieller(xb, yb, (double) (sxx / (dn - 1)), (double) (syy / (dn - 1)),
                       (double) (sxy / (dn - 1)), n, 2 * alpha, out->speedup_ci);
        out->speedup_ci_level = 1 - 2 * alpha;
    } else {
        out->speedup_ci[0] = out->speedup_ci[1] = NAN;
    }
    return ST_OK;
}

int st_paired_protocol(int proto, const double *x, const double *y,
                       size_t n, double alpha, int rigorous, st_verdict *out)
{
    const st_protocol_def *def = st_protocol_find(proto);
    if (!def || !def->paired) {
        st_verdict_start(out, alpha, NULL, 0, NULL, 0);
        return def ? ST_ERR_UNSUPPORTED : ST_ERR_DOMAIN;
    }
    return def->paired(x, y, n, alpha, rigorous, out);
}

int st_variance_components(const double *v, const int *group, size_t n,
                           double out[6])
{
    /* out: s2_within, s2_between, MSW, MSB, n0, k */
    for (int i = 0; i < 6; i++) out[i] = NAN;
    if (n == 0) return ST_ERR_TOO_FEW;
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        if (group[i] < 1 || !isfinite(v[i])) return ST_ERR_DOMAIN;
        if (group[i] > k) k = group[i];
    }
    double *sum = calloc((size_t) k, sizeof(double));
    double *cnt = calloc((size_t) k, sizeof(double));
    if (!sum || !cnt) {
        free(sum);
        free(cnt);
        return ST_ERR_ALLOC;
    }
    long double tot = 0;
    for (size_t i = 0; i < n; i++) {
        sum[group[i] - 1] += v[i];
        cnt[group[i] - 1] += 1;
        tot += v[i];
    }
    int kk = 0;
    double sum_n2 = 0;
    for (int g = 0; g < k; g++) {
        if (cnt[g] > 0) {
            kk++;
            sum[g] /= cnt[g];
            sum_n2 += cnt[g] * cnt[g];
        }
    }
    double N = (double) n, grand = (double) (tot / N);
    long double ssw = 0, ssb = 0;
    for (size_t i = 0; i < n; i++) {
        double e = v[i] - sum[group[i] - 1];
        ssw += (long double) e * e;
    }
    for (int g = 0; g < k; g++)
        if (cnt[g] > 0) {
            double e = sum[g] - grand;
            ssb += (long double) cnt[g] * e * e;
        }
    free(sum);
    free(cnt);
    out[5] = kk;
    if (N - kk >= 1) out[2] = (double) (ssw / (N - kk));
    if (kk >= 2) {
        out[3] = (double) (ssb / (kk - 1));
        out[4] = (N - sum_n2 / N) / (kk - 1);
    }
    out[0] = out[2];
    if (!isnan(out[2]) && !isnan(out[3]) && out[4] > 0) {
        double b = (out[3] - out[2]) / out[4];
        out[1] = b > 0 ? b : 0;
    }
    return ST_OK;
}

/* ---- R entry points -------------------------------------------------------- */
#include "ffi.h"

/* d[i] = log(x[i]) - log(y[i]), the per-round log ratios, as R's
 * log(x) - log(y) computes them, in one pass and one allocation. */
SEXP ffi_log_ratio(SEXP x, SEXP y)
{
    size_t n, m;
    const double *px = ffi_doubles(x, &n, "x");
    const double *py = ffi_doubles(y, &m, "y");
    if (n != m) Rf_error("`x` and `y` must have the same length.");
    SEXP d = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) n));
    double *pd = REAL(d);
    for (size_t i = 0; i < n; i++) pd[i] = log(px[i]) - log(py[i]);
    UNPROTECT(1);
    return d;
}

SEXP ffi_variance_components(SEXP v, SEXP group)
{
    size_t n;
    const double *pv = ffi_doubles(v, &n, "v");
    if (!Rf_isInteger(group) || (size_t) XLENGTH(group) != n)
        Rf_error("`group` must be an integer vector as long as `v`.");
    double out[6];
    int s = st_variance_components(pv, INTEGER(group), n, out);
    static const char *names[] = {"status", "within", "between", "ms_within",
                                  "ms_between", "n0", "groups"};
    SEXP values[7];
    values[0] = PROTECT(Rf_ScalarInteger(s));
    for (int i = 0; i < 6; i++) values[i + 1] = PROTECT(Rf_ScalarReal(out[i]));
    SEXP res = ffi_named_list(7, names, values);
    UNPROTECT(7);
    return res;
}
