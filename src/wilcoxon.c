/*
 * wilcoxon.c -- the Wilcoxon-Mann-Whitney rank-sum test (Wilcoxon 1945;
 * Mann and Whitney 1947) with the Hodges-Lehmann shift estimate and its
 * confidence interval (Hodges and Lehmann 1963; Bauer 1972), computed as
 * R's stats::wilcox.test computes them, on the two samples sorted once
 * (sorted.c):
 *   - the rank sum and the tie term from a merge of the sorted samples;
 *   - the exact p-value from the exact null distribution (exact.c): the
 *     no-ties law (Harding 1984), kept in a caller's cache and shared by
 *     the p-value and the interval, or the conditional law of the
 *     mid-rank sum given the ties (Streitberg and Roehmel 1986);
 *   - the estimate and interval from selections of the k-th smallest
 *     pairwise difference in the implicit sorted matrix without forming it
 *     (Johnson and Mizoguchi 1978; Monahan 1984; select.c), so that the
 *     interval needs O(n + m) memory instead of the n m differences R
 *     materialises; with ties the exact interval keeps at least its
 *     nominal coverage (Noether 1967).
 *
 * References
 *   Wilcoxon, F. (1945). Individual comparisons by ranking methods.
 *     Biometrics Bulletin 1, 80-83.
 *   Mann, H. B. and Whitney, D. R. (1947). On a test of whether one of two
 *     random variables is stochastically larger than the other. Ann. Math.
 *     Statist. 18, 50-60.
 *   Hodges, J. L. and Lehmann, E. L. (1963). Estimates of location based on
 *     rank tests. Ann. Math. Statist. 34, 598-611.
 *   Bauer, D. F. (1972). Constructing confidence sets using rank
 *     statistics. JASA 67, 687-690.
 *   Noether, G. E. (1967). Wilcoxon confidence intervals for location
 *     parameters in the discrete case. JASA 62, 184-188.
 *   Johnson, D. B. and Mizoguchi, T. (1978). Selecting the Kth element in
 *     X + Y and X1 + X2 + ... + Xm. SIAM J. Comput. 7, 147-153.
 *   Monahan, J. F. (1984). Algorithm 616: fast computation of the Hodges-
 *     Lehmann location estimator. ACM TOMS 10, 265-270.
 *   Harding, E. F. (1984). An efficient, minimal-storage procedure for
 *     calculating the Mann-Whitney U, generalized U and similar
 *     distributions. Applied Statistics 33, 1-6.
 *   Streitberg, B. and Roehmel, J. (1986). Exact distributions for
 *     permutation and rank tests. Statistical Software Newsletter 12, 10-17.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <Rmath.h>
#include "speeduptest.h"
#include "cache.h"

/* P[W <= w] and P[W >= w] from the probabilities, each summed over its own
 * tail so that small tails keep their relative accuracy. */
static void prob_tails(const double *prob, size_t len, double w,
                       double *p_le, double *p_ge)
{
    long double le = 0.0L, ge = 0.0L;
    /* i <= w and i >= w as index ranges, each summed upwards */
    double fl = floor(w) + 1, ce = ceil(w);
    /* first i with i > w, first i with i >= w (w is finite) */
    size_t split = !(fl > 0) ? 0 : fl >= (double) len ? len : (size_t) fl;
    size_t from = !(ce > 0) ? 0 : ce >= (double) len ? len : (size_t) ce;
    for (size_t i = 0; i < split; i++) le += prob[i];
    for (size_t i = from; i < len; i++) ge += prob[i];
    *p_le = (double) (le < 1.0L ? le : 1.0L);
    *p_ge = (double) (ge < 1.0L ? ge : 1.0L);
}

/* The no-ties table for (n, m): the one held in cache when it is for the
 * same sizes (the table is symmetric in n and m), else a new one, kept in
 * cache (replacing its old table) or, without cache, returned in *owned for
 * the caller to free. */
static int null_table(size_t n, size_t m, st_cache *cache,
                      const double **prob, size_t *len, double **owned)
{
    size_t k = n < m ? n : m, r = n < m ? m : n;
    *owned = NULL;
    if (cache && cache->ranksum.prob && cache->ranksum.n == k &&
        cache->ranksum.m == r) {
        *prob = cache->ranksum.prob;
        *len = cache->ranksum.len;
        return ST_OK;
    }
    double *p;
    int status = st_exact_law(ST_RANK_SUM, n, m, &p, len);
    if (status != ST_OK) return status;
    if (cache) {
        free(cache->ranksum.prob);
        free(cache->ranksum.tails);
        cache->ranksum.tails = NULL;
        cache->ranksum.q_set = 0;
        cache->ranksum.prob = p;
        cache->ranksum.n = k;
        cache->ranksum.m = r;
        cache->ranksum.len = *len;
    } else *owned = p;
    *prob = p;
    return ST_OK;
}

/* prob_tails, remembered in cache for each integer w when prob is cache's
 * table (a suite's benchmarks of equal sizes meet the same few hundred
 * values of W): the same sums, computed once.  P[W <= w] for every w
 * comes from one pass of running sums, which are the sums prob_tails
 * forms (from i = 0 upwards, in long double); P[W >= w], summed from w
 * upwards, is formed the first time w is met. */
static void table_tails(st_cache *cache, const double *prob, size_t len,
                        double w, double *p_le, double *p_ge)
{
    if (!cache || prob != cache->ranksum.prob || !(w >= 0) ||
        w >= (double) len || w != floor(w)) {
        prob_tails(prob, len, w, p_le, p_ge);
        return;
    }
    if (!cache->ranksum.tails) {
        cache->ranksum.tails = st_malloc(len, 2 * sizeof(double));
        if (cache->ranksum.tails) {
            long double le = 0.0L;
            for (size_t i = 0; i < len; i++) {
                le += prob[i];
                cache->ranksum.tails[2 * i] = (double) (le < 1.0L ? le : 1.0L);
                cache->ranksum.tails[2 * i + 1] = NAN;
            }
        }
    }
    size_t i = (size_t) w;
    if (!cache->ranksum.tails) {
        prob_tails(prob, len, w, p_le, p_ge);
        return;
    }
    if (isnan(cache->ranksum.tails[2 * i + 1])) {
        long double ge = 0.0L;
        for (size_t k = i; k < len; k++) ge += prob[k];
        cache->ranksum.tails[2 * i + 1] = (double) (ge < 1.0L ? ge : 1.0L);
    }
    *p_le = cache->ranksum.tails[2 * i];
    *p_ge = cache->ranksum.tails[2 * i + 1];
}

/* ------------------------------------------------------------------------
 * The test, on the two samples sorted once (st_sorted_pair, sorted.c):
 * the rank sum and the tie term come from a merge of the sorted samples,
 * the Hodges-Lehmann estimate and interval from selections among the
 * pairwise differences of the same sorted samples (select.c).
 * ---------------------------------------------------------------------- */

/* R's standardised statistic W(d) of the asymptotic interval: mid-ranks
 * of c(x - d, y) and the tie-corrected variance, from the merge of the
 * sorted x - d (x - d keeps the order of x) and y.  ST_ERR_DOMAIN for a
 * non-finite d or value. */
static int wmw_standardised(const double *xs, size_t n, const double *ys,
                            size_t m, double d, st_alternative alt,
                            int correct, double *z)
{
    long double sr;
    double ties;
    *z = NAN;
    int status = st_merge_ranks(xs, n, d, ys, m, &sr, &ties, NULL);
    if (status != ST_OK) return status;
    double dn = (double) n, dm = (double) m;
    double dz = (double) sr - dn * (dn + 1) / 2 - dn * dm / 2;
    double sigma = sqrt((dn * dm / 12) *
                        ((dn + dm + 1) - ties / ((dn + dm) * (dn + dm - 1))));
    *z = (dz - st_continuity(alt, correct, dz)) / sigma;
    return isnan(*z) ? ST_ERR_DOMAIN : ST_OK;
}

/* Generic-position standardised statistic as a function of the integer
 * count U = #{x_i - y_j > d}; non-decreasing in U. */
static double wmw_generic(double U, double dn, double dm, double sigma0,
                          st_alternative alt, int correct)
{
    double dz = U - dn * dm / 2;
    return (dz - st_continuity(alt, correct, dz)) / sigma0;
}

/*
 * The asymptotic interval.  R finds roots of W(d) = zq with uniroot on
 * [min(x) - max(y), max(x) - min(y)].  Between consecutive distinct
 * pairwise differences no value of x - d ties with a value of y, so
 * W(d) = g(U(d)) with U(d) = #{x_i - y_j > d}, g non-decreasing and the
 * variance fixed by the ties within x and within y alone.  U(d) >= c
 * exactly when d < D(nm - c + 1), the (nm - c + 1)-th smallest difference,
 * so with c the smallest integer such that g(c) >= zq the sign change --
 * the root uniroot approaches to within its tolerance -- is exactly at
 * D(nm - c + 1).  The end-point rules of R (return the end when W there
 * is already on the far side of zq) are applied with W evaluated exactly
 * as R does at the two ends.  wmw_rank gives the rank of the difference
 * (0: an end point, in *root).
 */
typedef struct {
    size_t n, m;
    double mumin, mumax, wmin, wmax, sigma0;
    st_alternative alt;
    int correct;
} wmw_ci_ctx;

static uint64_t wmw_rank(const wmw_ci_ctx *C, double zq, double *root)
{
    if (C->wmin - zq <= 0) {
        *root = C->mumin;
        return 0;
    }
    if (C->wmax - zq >= 0) {
        *root = C->mumax;
        return 0;
    }
    uint64_t nm = (uint64_t) C->n * C->m;
    double dn = (double) C->n, dm = (double) C->m;
    if (wmw_generic((double) nm, dn, dm, C->sigma0, C->alt, C->correct) < zq) {
        *root = C->mumin;
        return 0;
    }
    uint64_t lo = 0, hi = nm;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (wmw_generic((double) mid, dn, dm, C->sigma0, C->alt,
                        C->correct) >= zq) hi = mid;
        else lo = mid + 1;
    }
    if (lo == 0) {
        *root = C->mumax;
        return 0;
    }
    return nm - lo + 1;
}

/* The tie term of an ascending sample summed from its largest value down.
 * Beyond ties of about 2e5 values the terms are not exact in a double, so
 * the order of summation is part of the answer: the interval sums y's
 * terms in this order. */
static double tie_term_desc(const double *s, size_t n)
{
    double ties = 0.0;
    size_t j = n;
    while (j > 0) {
        size_t i = j - 1;
        while (i > 0 && s[i - 1] == s[j - 1]) i--;
        double t = (double) (j - i);
        ties += t * t * t - t;
        j = i;
    }
    return ties;
}

/*
 * Hodges-Lehmann estimate and interval from x and y sorted ascending.
 * All the order statistics of the differences one interval needs (the
 * one or two middle ones and the ends) are selected in one call, which
 * searches the ones close together in one bracket.
 */
static int wmw_conf_int(const double *xs, size_t n, const double *ys,
                        size_t m, st_alternative alt, int exact,
                        int correct, double conf_level,
                        const double *null_prob, size_t null_len,
                        st_cache *cache, st_result *out,
                        double *ci_level, int *ci_warn, double *ci_achieved)
{
    if (n > SIZE_MAX / m) return ST_ERR_TOO_MANY;
    uint64_t nm = (uint64_t) n * m;
    double *prob = NULL;
    int status = ST_OK;
    double lo_v = NAN, hi_v = NAN, est = NAN;
    /* Hodges-Lehmann: the median of the n m differences. */
    uint64_t ks[4] = {(nm + 1) / 2, nm / 2 + 1, 0, 0};
    int nks = nm % 2 == 0 ? 2 : 1;
    double vals[4];
    double alpha = 1 - conf_level, level = conf_level;
    int at_lo = -1, at_hi = -1;        /* where the ends are in ks */
    if (exact) {
        /* R's exact interval: order statistics at qwilcox positions.  With
         * ties the same closed interval is kept; Noether (1967) shows its
         * coverage is then at least the nominal one. */
        size_t len = null_len;
        if (!null_prob) {
            status = null_table(n, m, cache, &null_prob, &len, &prob);
            if (status != ST_OK) goto done;
        }
        double a = alt == ST_TWO_SIDED ? alpha / 2 : alpha;
        double qu, achieved;
        /* (kept in cache for its table: a suite asks the same level of the
         * same sizes again and again) */
        int cached = cache && null_prob == cache->ranksum.prob;
        if (cached && cache->ranksum.q_set && cache->ranksum.q_a == a) {
            qu = cache->ranksum.q_q;
            achieved = cache->ranksum.q_cdf;
        } else {
            qu = st_exact_interval_rank(null_prob, len, a, &achieved);
            if (cached) {
                cache->ranksum.q_set = 1;
                cache->ranksum.q_a = a;
                cache->ranksum.q_q = qu;
                cache->ranksum.q_cdf = achieved;
            }
        }
        if (alt == ST_TWO_SIDED) achieved *= 2;
        uint64_t iq = (uint64_t) qu;
        lo_v = -INFINITY;
        hi_v = INFINITY;
        if (alt != ST_LESS) {
            at_lo = nks;
            ks[nks++] = iq;
        }
        if (alt != ST_GREATER) {
            at_hi = nks;
            ks[nks++] = nm - iq + 1;
        }
        if (ci_achieved) *ci_achieved = 1 - achieved;
        if (achieved - alpha > alpha / 2) {
            *ci_warn = 1;
            level = 1 - achieved;
        }
    } else {
        wmw_ci_ctx C;
        C.n = n;
        C.m = m;
        C.alt = alt;
        C.correct = correct;
        C.mumin = xs[0] - ys[m - 1];
        C.mumax = xs[n - 1] - ys[0];
        double dn = (double) n, dm = (double) m;
        double t0 = st_sorted_tie_term(xs, n) + tie_term_desc(ys, m);
        C.sigma0 = sqrt((dn * dm / 12) *
                        ((dn + dm + 1) - t0 / ((dn + dm) * (dn + dm - 1))));
        if (C.mumin == C.mumax) {
            /* every difference is the same: R stops ("all observations are
             * tied"); the interval of the differences is that point. */
            lo_v = alt == ST_LESS ? -INFINITY : C.mumin;
            hi_v = alt == ST_GREATER ? INFINITY : C.mumin;
        } else {
            status = wmw_standardised(xs, n, ys, m, C.mumin, alt, correct,
                                      &C.wmin);
            if (status == ST_OK)
                status = wmw_standardised(xs, n, ys, m, C.mumax, alt,
                                          correct, &C.wmax);
            if (status != ST_OK) goto done;
            lo_v = -INFINITY;
            hi_v = INFINITY;
            double zl = NAN, zh = NAN;
            if (alt == ST_TWO_SIDED) {
                zl = qnorm(alpha / 2, 0, 1, 0, 0);
                zh = qnorm(alpha / 2, 0, 1, 1, 0);
            } else if (alt == ST_GREATER) {
                zl = qnorm(alpha, 0, 1, 0, 0);
            } else {
                zh = qnorm(alpha, 0, 1, 1, 0);
            }
            if (!isnan(zl)) {
                uint64_t k = wmw_rank(&C, zl, &lo_v);
                if (k) {
                    at_lo = nks;
                    ks[nks++] = k;
                }
            }
            if (!isnan(zh)) {
                uint64_t k = wmw_rank(&C, zh, &hi_v);
                if (k) {
                    at_hi = nks;
                    ks[nks++] = k;
                }
            }
        }
    }
    /* select in ascending order of rank, then put the values back */
    int order[4] = {0, 1, 2, 3};
    for (int i = 1; i < nks; i++)
        for (int p = i; p > 0 && ks[order[p - 1]] > ks[order[p]]; p--) {
            int t = order[p];
            order[p] = order[p - 1];
            order[p - 1] = t;
        }
    uint64_t sorted_ks[4];
    double sorted_vals[4];
    for (int i = 0; i < nks; i++) sorted_ks[i] = ks[order[i]];
    /* one call: the ranks are searched together while they share a
     * bracket, then apart (select.c) */
    if (nks > 0) {
        status = st_pairwise_kths(xs, n, ys, m, sorted_ks, nks,
                                  sorted_vals);
        if (status != ST_OK) goto done;
    }
    for (int i = 0; i < nks; i++) vals[order[i]] = sorted_vals[i];
    if (at_lo >= 0) lo_v = vals[at_lo];
    if (at_hi >= 0) hi_v = vals[at_hi];
    est = nm % 2 == 0 ? (double) (((long double) vals[0] + vals[1]) / 2.0L)
                      : vals[0];
    out->conf_int[0] = lo_v;
    out->conf_int[1] = hi_v;
    out->estimate[0] = est;
    *ci_level = level;
done:
    free(prob);
    return status;
}

/*
 * The test of x - mu against y on the sorted pair P (holding x - mu and
 * y).  On success *null_prob (with *null_len) is the exact no-ties table
 * when one was used, for the interval to reuse; *owned is that table when
 * the caller must free it.  less (may be NULL) also receives the test with
 * the alternative ST_LESS, from the same statistic and tails.
 */
static int wmw_test_sorted(const st_sorted_pair *P, st_alternative alt,
                           int exact, int correct, st_result *out,
                           st_cache *cache, const double **null_prob,
                           size_t *null_len, double **owned,
                           st_result *less)
{
    size_t n = P->n, m = P->m, N = n + m;
    *null_prob = NULL;
    *null_len = 0;
    *owned = NULL;
    int use_exact = exact < 0 ? (n < 50 && m < 50) : exact;
    /* one tie group: all n + m values equal */
    int all_tied = P->xs[0] == P->xs[n - 1] && P->ys[0] == P->ys[m - 1] &&
                   P->xs[0] == P->ys[0];
    double dn = (double) n, dm = (double) m;
    long double sr;
    double ties, p;
    double *rank2 = NULL;
    int status = st_merge_ranks(P->xs, n, 0.0, P->ys, m, &sr, &ties, NULL);
    if (status != ST_OK) return status;
    if (use_exact && !all_tied && ties != 0.0) {
        /* the exact distribution with ties needs every doubled mid-rank */
        rank2 = st_malloc(N, sizeof(double));
        if (!rank2) return ST_ERR_ALLOC;
        status = st_merge_ranks(P->xs, n, 0.0, P->ys, m, &sr, &ties, rank2);
        if (status != ST_OK) {
            free(rank2);
            return status;
        }
    }
    double W = (double) sr - dn * (dn + 1) / 2;
    double p_less = NAN;
    if (all_tied) {
        /* One tie group: given the ties W is always n m / 2, so every
         * alternative has p = 1 exactly (R's normal formula gives 0/0). */
        p = p_less = 1.0;
        use_exact = 1;
    } else if (use_exact) {
        double ple, pge;
        if (ties == 0.0) {
            /* W is an integer; one table serves the p-value and the
             * interval's quantiles */
            status = null_table(n, m, cache, null_prob, null_len, owned);
            if (status == ST_OK)
                table_tails(cache, *null_prob, *null_len, W, &ple, &pge);
        } else {
            status = st_exact_tails(ST_RANK_SUM, rank2, N, n,
                                    (double) (2.0L * sr), &ple, &pge);
        }
        free(rank2);
        if (status != ST_OK) return status;
        /* Two-sided: twice the smaller tail.  Without ties the null
         * distribution is symmetric and this is R's choice of tail. */
        p = alt == ST_LESS ? ple : alt == ST_GREATER ? pge
            : 2.0 * (ple < pge ? ple : pge);
        if (p > 1.0) p = 1.0;
        p_less = ple > 1.0 ? 1.0 : ple;
    } else {
        double z0 = W - dn * dm / 2;
        double sigma = sqrt((dn * dm / 12) *
                            ((dn + dm + 1) - ties / ((dn + dm) * (dn + dm - 1))));
        double z = (z0 - st_continuity(alt, correct, z0)) / sigma;
        p = st_normal_p(alt, z);
        if (less)
            p_less = st_normal_p(ST_LESS,
                                 (z0 - st_continuity(ST_LESS, correct, z0)) /
                                 sigma);
    }
    out->statistic = W;
    out->p_value = p;
    out->exact = use_exact;
    if (less) {
        less->statistic = W;
        less->p_value = p_less;
        less->exact = use_exact;
    }
    return ST_OK;
}

static int check_args(size_t n, size_t m, st_alternative alt, double mu,
                      int exact, int conf_int, double conf_level)
{
    if (n < 1 || m < 1) return ST_ERR_TOO_FEW;
    if (!isfinite(mu) || exact < -1 || exact > 1 ||
        (alt != ST_TWO_SIDED && alt != ST_LESS && alt != ST_GREATER) ||
        (conf_int && !(conf_level > 0 && conf_level < 1)))
        return ST_ERR_DOMAIN;
    return ST_OK;
}

/* One call's arguments and options. */
typedef struct {
    st_alternative alt;
    int exact, correct, conf_int, interval_only;
    double conf_level;
    st_cache *cache;
    st_result *less;
    double *ci_level;
    int *ci_warn;
    double *ci_achieved;
} wmw_call;

/* Whether the test of the pair P takes the exact law: the automatic
 * choice below 50 values per sample, and always with one tie group (all
 * n + m values equal, p = 1). */
static int wmw_use_exact(const st_sorted_pair *P, int exact)
{
    size_t n = P->n, m = P->m;
    if (P->xs[0] == P->xs[n - 1] && P->ys[0] == P->ys[m - 1] &&
        P->xs[0] == P->ys[0])
        return 1;
    return exact < 0 ? (n < 50 && m < 50) : exact;
}

/* The test on the pair P of x - mu and y (with interval_only, only its
 * choice of the exact law, in out->exact); *null_prob (with *null_len) is
 * the exact no-ties table the test used, for the interval to reuse, and
 * *owned the table to free when the cache does not hold it. */
static int wmw_test_part(const st_sorted_pair *P, const wmw_call *C,
                         st_result *out, const double **null_prob,
                         size_t *null_len, double **owned)
{
    *null_prob = NULL;
    *null_len = 0;
    *owned = NULL;
    if (C->interval_only) {
        out->exact = wmw_use_exact(P, C->exact);
        return ST_OK;
    }
    return wmw_test_sorted(P, C->alt, C->exact, C->correct, out, C->cache,
                           null_prob, null_len, owned, C->less);
}

/* The Hodges-Lehmann estimate and interval of the pair Q of x and y, with
 * the law the test chose. */
static int wmw_interval_part(const st_sorted_pair *Q, const wmw_call *C,
                             const double *null_prob, size_t null_len,
                             st_result *out)
{
    return wmw_conf_int(Q->xs, Q->n, Q->ys, Q->m, C->alt, out->exact,
                        C->correct, C->conf_level, null_prob, null_len,
                        C->cache, out, C->ci_level, C->ci_warn,
                        C->ci_achieved);
}

/* Samples already sorted, mu = 0: read in place. */
static int wmw_sorted(const double *xs, size_t n, const double *ys, size_t m,
                      const wmw_call *C, st_result *out)
{
    st_sorted_pair P = {(double *) xs, (double *) ys, n, m};
    const double *null_prob;
    size_t null_len;
    double *owned;
    int status = wmw_test_part(&P, C, out, &null_prob, &null_len, &owned);
    if (status == ST_OK && C->conf_int)
        status = wmw_interval_part(&P, C, null_prob, null_len, out);
    free(owned);
    return status;
}

/* Samples in any order: sorted here, x - mu for the test and x itself for
 * the interval (the shift of x, as wilcox.test reports it). */
static int wmw_unsorted(const double *x, size_t n, const double *y,
                        size_t m, double mu, const wmw_call *C,
                        st_result *out)
{
    st_sorted_pair P, P0 = {NULL, NULL, 0, 0};
    int status = st_sorted_pair_init(&P, x, n, mu, y, m, NULL);
    if (status != ST_OK) return status;
    const double *null_prob;
    size_t null_len;
    double *owned;
    status = wmw_test_part(&P, C, out, &null_prob, &null_len, &owned);
    if (status == ST_OK && C->conf_int) {
        const st_sorted_pair *Q = &P;
        if (mu != 0.0) {
            st_sorted_pair_free(&P);
            status = st_sorted_pair_init(&P0, x, n, 0.0, y, m, NULL);
            Q = &P0;
        }
        if (status == ST_OK)
            status = wmw_interval_part(Q, C, null_prob, null_len, out);
    }
    free(owned);
    st_sorted_pair_free(&P);
    st_sorted_pair_free(&P0);
    return status;
}

int st_wilcoxon_test(const double *x, size_t n, const double *y, size_t m,
                     st_alternative alt, double mu, int exact, int correct,
                     int conf_int, double conf_level,
                     const st_wilcoxon_options *opt, st_result *out)
{
    double level;
    int warn;
    wmw_call C;
    C.alt = alt;
    C.exact = exact;
    C.correct = correct;
    C.interval_only = opt && opt->interval_only;
    C.conf_int = conf_int || C.interval_only;
    C.conf_level = conf_level;
    C.cache = opt ? opt->cache : NULL;
    C.less = opt && !C.interval_only ? opt->less : NULL;
    C.ci_level = opt && opt->ci_level ? opt->ci_level : &level;
    C.ci_warn = opt && opt->ci_warn ? opt->ci_warn : &warn;
    *C.ci_level = NAN;
    *C.ci_warn = 0;
    C.ci_achieved = opt ? opt->ci_achieved : NULL;
    if (C.ci_achieved) *C.ci_achieved = NAN;
    st_result_init(out);
    if (opt && opt->less) st_result_init(opt->less);
    int status = check_args(n, m, alt, mu, exact, C.conf_int, conf_level);
    if (status == ST_OK)
        status = opt && opt->sorted && mu == 0.0
                 ? wmw_sorted(x, n, y, m, &C, out)
                 : wmw_unsorted(x, n, y, m, mu, &C, out);
    if (status != ST_OK) {
        if (C.less) st_result_fail(C.less, status);
        return st_result_fail(out, status);
    }
    return ST_OK;
}

/* ---- R entry point ------------------------------------------------------ */
#include "ffi.h"

/* ffi_result() plus the interval's confidence level and whether it had to
 * be lowered (R's "requested conf.level not achievable"). */
SEXP rank_result_sexp(const st_result *r, double ci_level, int ci_warn)
{
    SEXP base = PROTECT(ffi_result(r));
    R_xlen_t nb = XLENGTH(base);
    SEXP out = PROTECT(Rf_allocVector(VECSXP, nb + 2));
    SEXP names = PROTECT(Rf_allocVector(STRSXP, nb + 2));
    SEXP bnames = Rf_getAttrib(base, R_NamesSymbol);
    for (R_xlen_t i = 0; i < nb; i++) {
        SET_VECTOR_ELT(out, i, VECTOR_ELT(base, i));
        SET_STRING_ELT(names, i, STRING_ELT(bnames, i));
    }
    SET_VECTOR_ELT(out, nb, Rf_ScalarReal(ci_level));
    SET_STRING_ELT(names, nb, Rf_mkChar("ci_level"));
    SET_VECTOR_ELT(out, nb + 1, Rf_ScalarLogical(ci_warn));
    SET_STRING_ELT(names, nb + 1, Rf_mkChar("ci_warning"));
    Rf_setAttrib(out, R_NamesSymbol, names);
    UNPROTECT(3);
    return out;
}

SEXP ffi_wilcoxon_test(SEXP x, SEXP y, SEXP alternative, SEXP mu, SEXP exact,
                       SEXP correct, SEXP conf_int, SEXP conf_level)
{
    size_t n, m;
    const double *px = ffi_doubles(x, &n, "x");
    const double *py = ffi_doubles(y, &m, "y");
    int alt = ffi_int(alternative, "alternative");
    double dmu = ffi_double(mu, "mu");
    int ex = ffi_int(exact, "exact");
    int corr = ffi_flag(correct, "correct");
    int ci = ffi_flag(conf_int, "conf_int");
    double cl = ffi_double(conf_level, "conf_level");
    st_result r;
    double level;
    int warn;
    st_wilcoxon_options opt = {0};
    opt.ci_level = &level;
    opt.ci_warn = &warn;
    st_wilcoxon_test(px, n, py, m, (st_alternative) alt, dmu, ex, corr, ci,
                     cl, &opt, &r);
    return rank_result_sexp(&r, level, warn);
}
