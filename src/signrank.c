/*
 * signrank.c -- the Wilcoxon signed-rank test (Wilcoxon 1945) with the
 * Hodges-Lehmann pseudo-median (median of the Walsh averages; Hodges and
 * Lehmann 1963) and its confidence interval (Tukey 1949; Bauer 1972), as
 * R's stats::wilcox.test computes them for one sample or paired
 * differences.  The exact p-value, with ties or zeros too, comes from the
 * exact conditional distribution of the sum of positive mid-ranks
 * (st_exact_tails, exact.c); the interval's Walsh averages are selected
 * without forming the n (n + 1) / 2 of them (Monahan 1984;
 * st_pairwise_kths, select.c).
 *
 * References
 *   Wilcoxon, F. (1945). Individual comparisons by ranking methods.
 *     Biometrics Bulletin 1, 80-83.
 *   Tukey, J. W. (1949). The simplest signed-rank tests. Memorandum
 *     Report 17, Statistical Research Group, Princeton University.
 *   Hodges, J. L. and Lehmann, E. L. (1963). Estimates of location based
 *     on rank tests. Ann. Math. Statist. 34, 598-611.
 *   Bauer, D. F. (1972). Constructing confidence sets using rank
 *     statistics. JASA 67, 687-690.
 *   Noether, G. E. (1967). Wilcoxon confidence intervals for location
 *     parameters in the discrete case. JASA 62, 184-188.
 *   Monahan, J. F. (1984). Algorithm 616: fast computation of the Hodges-
 *     Lehmann location estimator. ACM TOMS 10, 265-270.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <Rmath.h>
#include "speeduptest.h"

/* Drops the zeros of d - mu: v receives the non-zero differences; returns
 * their number. */
static size_t nonzero_shifted(const double *d, size_t n, double mu, double *v)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        double t = d[i] - mu;
        if (t != 0) v[k++] = t;
    }
    return k;
}

/* V (sum of the mid-ranks of |v| over v > 0) and the tie term. */
static int signed_ranks(const double *v, size_t n, double *work,
                        double *rank, double *V, double *ties)
{
    for (size_t i = 0; i < n; i++) work[i] = fabs(v[i]);
    int status = st_midranks(work, n, rank, ties);
    if (status != ST_OK) return status;
    long double s = 0.0L;
    for (size_t i = 0; i < n; i++)
        if (v[i] > 0) s += rank[i];
    *V = (double) s;
    return ST_OK;
}

/* R's W(d) of the asymptotic interval: the statistic of x - d with its
 * zeros dropped, standardised with the tie-corrected variance.  With xs
 * ascending, |xs - d| decreases over the negative part and increases over
 * the positive part (rounding is monotone), so the ranks come from merging
 * the two runs, O(n). */
static double sr_standardised(const double *xs, size_t n, double d,
                              st_alternative alt, int correct)
{
    size_t z0 = 0;
    while (z0 < n && xs[z0] - d < 0) z0++;
    size_t z1 = z0;
    while (z1 < n && xs[z1] - d == 0) z1++;
    size_t ineg = z0, ipos = z1, pos = 0;   /* ineg counts down */
    long double V = 0.0L;
    double ties = 0.0;
    while (ineg > 0 || ipos < n) {
        double an = ineg > 0 ? fabs(xs[ineg - 1] - d) : INFINITY;
        double ap = ipos < n ? fabs(xs[ipos] - d) : INFINITY;
        double v = an < ap ? an : ap;
        size_t cn = 0, cp = 0;
        while (ineg > 0 && fabs(xs[ineg - 1] - d) == v) {
            ineg--;
            cn++;
        }
        while (ipos < n && fabs(xs[ipos] - d) == v) {
            ipos++;
            cp++;
        }
        if (cn + cp == 0) return NAN;   /* a NaN: no order, no statistic */
        double t = (double) (cn + cp);
        V += (long double) cp * ((long double) pos + (t + 1) / 2);
        ties += t * t * t - t;
        pos += cn + cp;
    }
    double nx = (double) pos;
    double zd = (double) V - nx * (nx + 1) / 4;
    double sigma = sqrt(nx * (nx + 1) * (2 * nx + 1) / 24 - ties / 48);
    return (zd - st_continuity(alt, correct, zd)) / sigma;
}

/* The k-th smallest (1-based) Walsh average of xs (ascending). */
static int walsh_kth(const double *xs, size_t n, size_t k, double *value)
{
    uint64_t rank = k;
    return st_pairwise_kths(xs, n, NULL, 0, &rank, 1, value);
}

static double sr_generic(double V, double dn, double sigma0,
                         st_alternative alt, int correct)
{
    double zd = V - dn * (dn + 1) / 4;
    return (zd - st_continuity(alt, correct, zd)) / sigma0;
}

/*
 * Root of W(d) = zq.  Away from the Walsh averages no x_i - d is zero and
 * |x_i - d| ties only within groups of equal x, so W(d) = g(V(d)) with
 * V(d) = #{Walsh averages > d} (Tukey's identity, which mid-ranks within
 * a group of equal values do not change), g non-decreasing and the
 * variance fixed.  With c the smallest integer such that g(c) >= zq the
 * sign change uniroot approaches is at the (M - c + 1)-th smallest Walsh
 * average, M = n (n + 1) / 2.
 */
static int sr_root(const double *xs, size_t n, double sigma0,
                   st_alternative alt, int correct, double zq, double *root)
{
    size_t M = n * (n + 1) / 2;
    double dn = (double) n;
    if (sr_generic((double) M, dn, sigma0, alt, correct) < zq) {
        *root = xs[0];
        return ST_OK;
    }
    size_t lo = 0, hi = M;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sr_generic((double) mid, dn, sigma0, alt, correct) >= zq) hi = mid;
        else lo = mid + 1;
    }
    if (lo == 0) {
        *root = xs[n - 1];
        return ST_OK;
    }
    return walsh_kth(xs, n, M - lo + 1, root);
}

/*
 * The interval and the pseudo-median use all of d (it does not depend on
 * mu).  R drops the values equal to mu before computing them; the two
 * agree whenever no value equals mu.
 */
static int sr_conf_int(const double *d, size_t n, st_alternative alt,
                       int exact, int correct, double conf_level,
                       st_result *out, double *ci_level, int *ci_warn,
                       double *ci_achieved)
{
    if (n > (SIZE_MAX - 1) / n) return ST_ERR_TOO_MANY;
    size_t M = n * (n + 1) / 2;
    double *xs = st_sorted_copy(d, n);
    double *prob = NULL;
    int status = ST_OK;
    if (!xs) return ST_ERR_ALLOC;
    double est, e1, lo_v = -INFINITY, hi_v = INFINITY;
    status = walsh_kth(xs, n, (M + 1) / 2, &est);
    if (status != ST_OK) goto done;
    if (M % 2 == 0) {
        status = walsh_kth(xs, n, M / 2 + 1, &e1);
        if (status != ST_OK) goto done;
        est = (double) (((long double) est + e1) / 2.0L);
    }
    double alpha = 1 - conf_level, level = conf_level;
    if (exact) {
        /* R's exact interval: Walsh averages at qsignrank positions; with
         * ties or zeros the same closed interval, whose coverage is then at
         * least nominal (Noether 1967). */
        size_t len;
        status = st_exact_law(ST_SIGNED_RANK, n, 0, &prob, &len);
        if (status != ST_OK) goto done;
        double a = alt == ST_TWO_SIDED ? alpha / 2 : alpha;
        double achieved;
        double qu = st_exact_interval_rank(prob, len, a, &achieved);
        if (alt == ST_TWO_SIDED) achieved *= 2;
        size_t iq = (size_t) qu;
        if (alt != ST_LESS) {
            status = walsh_kth(xs, n, iq, &lo_v);
            if (status != ST_OK) goto done;
        }
        if (alt != ST_GREATER) {
            status = walsh_kth(xs, n, M - iq + 1, &hi_v);
            if (status != ST_OK) goto done;
        }
        if (ci_achieved) *ci_achieved = 1 - achieved;
        if (achieved - alpha > alpha / 2) {
            *ci_warn = 1;
            level = 1 - fprec(achieved, 2);
        }
    } else if (xs[0] == xs[n - 1]) {
        /* all values equal: R gives NaN limits; the Walsh averages are all
         * that value, and so is the interval. */
        if (alt != ST_LESS) lo_v = xs[0];
        if (alt != ST_GREATER) hi_v = xs[0];
    } else {
        double wmin = sr_standardised(xs, n, xs[0], alt, correct);
        double wmax = sr_standardised(xs, n, xs[n - 1], alt, correct);
        double dn = (double) n;
        double sigma0 = sqrt(dn * (dn + 1) * (2 * dn + 1) / 24 -
                             st_sorted_tie_term(xs, n) / 48);
        /* R widens alpha (doubling it) until the ends of the data bracket
         * the quantiles, then reports the level it reached. */
        for (int it = 0; it < 64 && alpha < 1; it++) {
            int widen;
            if (alt == ST_TWO_SIDED)
                widen = wmin - qnorm(alpha / 2, 0, 1, 0, 0) < 0 ||
                        wmax - qnorm(alpha / 2, 0, 1, 1, 0) > 0;
            else if (alt == ST_GREATER)
                widen = wmin - qnorm(alpha, 0, 1, 0, 0) < 0;
            else
                widen = wmax - qnorm(alpha / 2, 0, 1, 1, 0) > 0;
            if (!widen) break;
            alpha *= 2;
        }
        if (alpha >= 1 || 1 - conf_level < alpha * 0.75) {
            level = 1 - (alpha < 1 ? alpha : 1);
            *ci_warn = 1;
        }
        if (alpha < 1) {
            if (alt == ST_TWO_SIDED) {
                status = sr_root(xs, n, sigma0, alt, correct,
                                 qnorm(alpha / 2, 0, 1, 0, 0), &lo_v);
                if (status == ST_OK)
                    status = sr_root(xs, n, sigma0, alt, correct,
                                     qnorm(alpha / 2, 0, 1, 1, 0), &hi_v);
            } else if (alt == ST_GREATER) {
                status = sr_root(xs, n, sigma0, alt, correct,
                                 qnorm(alpha, 0, 1, 0, 0), &lo_v);
            } else {
                status = sr_root(xs, n, sigma0, alt, correct,
                                 qnorm(alpha, 0, 1, 1, 0), &hi_v);
            }
            if (status != ST_OK) goto done;
        } else {
            double med = st_median_sorted(xs, n);
            if (alt != ST_LESS) lo_v = med;
            if (alt != ST_GREATER) hi_v = med;
        }
    }
    out->conf_int[0] = lo_v;
    out->conf_int[1] = hi_v;
    out->estimate[0] = est;
    *ci_level = level;
done:
    free(xs);
    free(prob);
    return status;
}

int st_signed_rank_test(const double *d, size_t n, st_alternative alt,
                        double mu, int exact, int correct, int conf_int,
                        double conf_level, const st_signed_rank_options *opt,
                        st_result *out)
{
    double level;
    int warn;
    double *ci_level = opt && opt->ci_level ? opt->ci_level : &level;
    int *ci_warn = opt && opt->ci_warn ? opt->ci_warn : &warn;
    *ci_level = NAN;
    *ci_warn = 0;
    double *ci_achieved = opt ? opt->ci_achieved : NULL;
    if (ci_achieved) *ci_achieved = NAN;
    st_result_init(out);
    if (n < 1) return st_result_fail(out, ST_ERR_TOO_FEW);
    if (!isfinite(mu) || exact < -1 || exact > 1 ||
        (alt != ST_TWO_SIDED && alt != ST_LESS && alt != ST_GREATER) ||
        (conf_int && !(conf_level > 0 && conf_level < 1)))
        return st_result_fail(out, ST_ERR_DOMAIN);
    if (n > SIZE_MAX / 4 / sizeof(double)) return st_result_fail(out, ST_ERR_TOO_MANY);
    /* non-finite values (or d - mu overflowing) have no rank */
    for (size_t i = 0; i < n; i++)
        if (!isfinite(d[i]) || !isfinite(d[i] - mu))
            return st_result_fail(out, ST_ERR_DOMAIN);
    double *v = st_malloc(n, sizeof(double));
    double *work = st_malloc(n, sizeof(double));
    double *rank = st_malloc(n, sizeof(double));
    if (!v || !work || !rank) {
        free(v);
        free(work);
        free(rank);
        return st_result_fail(out, ST_ERR_ALLOC);
    }
    size_t k = nonzero_shifted(d, n, mu, v);
    double V = 0.0, ties = 0.0, p = 1.0;
    int status = signed_ranks(v, k, work, rank, &V, &ties);
    int use_exact = exact < 0 ? k < 50 : exact;
    if (status == ST_OK) {
        if (k == 0) {
            /* every value equals mu: V = 0 with certainty given the zeros,
             * p = 1 (R's normal formula gives 0/0). */
            use_exact = 1;
        } else if (use_exact) {
            double ple, pge;
            for (size_t i = 0; i < k; i++) work[i] = 2.0 * rank[i];
            status = st_exact_tails(ST_SIGNED_RANK, work, k, 0, 2.0 * V, &ple,
                                    &pge);
            p = alt == ST_LESS ? ple : alt == ST_GREATER ? pge
                : 2.0 * (ple < pge ? ple : pge);
            if (p > 1.0) p = 1.0;
        } else {
            double dn = (double) k;
            double z = V - dn * (dn + 1) / 4;
            double sigma = sqrt(dn * (dn + 1) * (2 * dn + 1) / 24 - ties / 48);
            z = (z - st_continuity(alt, correct, z)) / sigma;
            p = st_normal_p(alt, z);
        }
    }
    free(v);
    free(work);
    free(rank);
    if (status != ST_OK) return st_result_fail(out, status);
    out->statistic = V;
    out->p_value = p;
    out->exact = use_exact;
    if (conf_int) {
        status = sr_conf_int(d, n, alt, use_exact, correct, conf_level, out,
                             ci_level, ci_warn, ci_achieved);
        if (status != ST_OK) return st_result_fail(out, status);
    }
    return ST_OK;
}

/* ---- R entry point ------------------------------------------------------ */
#include "ffi.h"

SEXP ffi_signed_rank_test(SEXP d, SEXP alternative, SEXP mu, SEXP exact,
                          SEXP correct, SEXP conf_int, SEXP conf_level)
{
    size_t n;
    const double *pd = ffi_doubles(d, &n, "d");
    int alt = ffi_int(alternative, "alternative");
    double dmu = ffi_double(mu, "mu");
    int ex = ffi_int(exact, "exact");
    int corr = ffi_flag(correct, "correct");
    int ci = ffi_flag(conf_int, "conf_int");
    double cl = ffi_double(conf_level, "conf_level");
    st_result r;
    double level;
    int warn;
    st_signed_rank_options opt = {&level, &warn};
    st_signed_rank_test(pd, n, (st_alternative) alt, dmu, ex, corr, ci, cl,
                        &opt, &r);
    return rank_result_sexp(&r, level, warn);
}
