/*
 * hpt.c -- the Hierarchical Performance Test (HPT) and its r-Speedup.
 *
 * Chen, T., Chen, Y., Guo, Q., Temam, O., Wu, Y. and Hu, W. (2012).
 * Statistical performance comparisons of computers.  HPCA 2012, section 4.
 * Wilcoxon, F. (1945).  Individual comparisons by ranking methods.
 *
 * Two levels.  On each benchmark, two one-sided Wilcoxon rank-sum tests
 * (A better, B better) at level alpha_bench decide a winner; a significant
 * benchmark contributes d = median(A) - median(B) (oriented so that larger
 * is better), the others d = 0.  Across benchmarks, a Wilcoxon signed-rank
 * statistic on the d's (mid-ranks of |d|, zeros sharing their ranks half
 * and half) gives the confidence that A beats B.
 *
 * "A is more than gamma times faster than B" is tested by handicapping A:
 * with scores (higher is better) A's scores are divided by gamma, with times
 * A's times are multiplied by gamma.  For scores the rank-sum level compares
 * a with gamma * b rather than a / gamma with b.  The order is the same in
 * exact arithmetic, and in floating point it keeps the ties of rescaled
 * data: when A's scores were stored as a = fl(gamma x) and x == b, then
 * a == fl(gamma b) exactly, whereas fl(a / gamma) == b can fail.  Medians
 * and d are reported in the units of A divided by gamma.
 *
 * The exact conditional laws of exact_ties are the package's shared ones
 * (st_exact_tails, exact.c); the classical tables are Rmath's pwilcox and
 * psignrank.
 *
 * The r-Speedup sup{gamma >= 1: confidence(gamma) >= r} is found without
 * listing the ~n^2 points where the confidence can change: the classical
 * decision of a benchmark changes at most twice in gamma (at two order
 * statistics of its ratios of runs, selected by counting on the sorted
 * runs), R_B is a Walsh count of the d's, non-decreasing in gamma while
 * the winners are fixed, and a branch-and-bound search down the decision
 * changes with a lower bound of R_B finds the stretch holding the
 * supremum, then the crossing point inside it by bisection (see
 * "classical test: the search over gamma" below).
 *   Hodges, J. L. and Lehmann, E. L. (1963) for the Walsh averages behind
 *   the count: Estimates of location based on rank tests.  Ann. Math.
 *   Statist. 34, 598-611.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <Rmath.h>
#include "speeduptest.h"

/* Relative tolerance under which two |d| are tied and a d is zero: the d's
 * are differences of (scaled) medians, and a tie the data show exactly must
 * not be broken by the rounding of the scaling. */
#define HPT_TOL 1e-9

/* Most benchmarks squared for the candidate sweep of hpt_speedup() (with
 * exact_ties, and the reference method): its candidate gammas include one
 * or two points per pair of benchmarks (8 bytes each, twice while they are
 * sorted).  The classical search lists none. */
#define HPT_MAX_POINTS 1.6e8

/* Most pairs of runs of one benchmark whose breakpoints hpt_speedup() with
 * exact_ties lists (checked for every benchmark before any is listed; the
 * classical search lists none). */
#define HPT_MAX_PAIRS 4000000.0

/* ---- per-benchmark rank-sum level --------------------------------------- */

/*
 * P-values of the classical HPT rank-sum level from W = the Mann-Whitney
 * count of A (R_a - na (na + 1) / 2, mid-ranks).  With fewer than 12 runs
 * in both samples the paper reads printed tables of the no-ties null
 * distribution: A wins when R_a reaches the critical value, i.e. the
 * p-value is P(U >= W) for the no-ties statistic U; a mid-rank W (a
 * multiple of 1/2) is compared with the integer support, so
 * P(U >= W) = P(U >= ceil(W)).  With 12 or more runs the paper's normal
 * approximation z = (R_a - na (N + 1) / 2) / sqrt(na nb (N + 1) / 12)
 * (which is its formula with na = nb = m), without continuity correction.
 */
static void ranksum_p_classical(double w, size_t na, size_t nb, double *p_a,
                                double *p_b, int *exact)
{
    double mn = (double) na * (double) nb;
    double wb = mn - w;
    if (na < 12 && nb < 12) {
        *p_a = pwilcox(ceil(w) - 1.0, (double) na, (double) nb, 0, 0);
        *p_b = pwilcox(ceil(wb) - 1.0, (double) nb, (double) na, 0, 0);
        *exact = 1;
    } else {
        double sd = sqrt(mn * (double) (na + nb + 1) / 12.0);
        double z = (w - mn / 2.0) / sd;
        *p_a = pnorm(z, 0.0, 1.0, 0, 0);
        *p_b = pnorm(z, 0.0, 1.0, 1, 0);
        *exact = 0;
    }
}

/*
 * One benchmark from its pooled oriented values v (A's first, then B's;
 * larger = better).  *w = Mann-Whitney count of A with mid-ranks.
 */
static int bench_test(const double *v, size_t na, size_t nb, int exact_ties,
                      double *w, double *p_a, double *p_b, int *exact)
{
    size_t N = na + nb;
    double *rank = st_malloc(N, sizeof(double));
    if (!rank) return ST_ERR_ALLOC;
    double tie_term = 0.0;
    int st = st_midranks(v, N, rank, &tie_term);
    if (st != ST_OK) {
        free(rank);
        return st;
    }
    double ra = 0.0;
    for (size_t i = 0; i < na; i++) ra += rank[i];
    *w = ra - (double) na * (double) (na + 1) / 2.0;
    if (exact_ties) {
        /* the shared exact law of the rank sum, conditional on the ties
         * (without ties, the classical law): A's doubled mid-rank sum is
         * large when A is better */
        for (size_t i = 0; i < N; i++) rank[i] *= 2.0;
        double le, ge;
        st = st_exact_tails(ST_RANK_SUM, rank, N, na, 2.0 * ra, &le, &ge);
        if (st == ST_OK) {
            *p_a = ge;
            *p_b = le;
            *exact = 1;
        }
    } else {
        ranksum_p_classical(*w, na, nb, p_a, p_b, exact);
    }
    free(rank);
    return st;
}

/* 1: A wins, -1: B wins, 0: tie.  Both significant cannot happen with the
 * level below 1/2; should it, the smaller p-value wins. */
static int decide(double p_a, double p_b, double alpha)
{
    int sa = p_a <= alpha, sb = p_b <= alpha;
    if (sa && sb) return p_a < p_b ? 1 : (p_b < p_a ? -1 : 0);
    return sa ? 1 : (sb ? -1 : 0);
}

/*
 * The pooled oriented values of one benchmark at gamma.  Scores: A = a,
 * B = gamma b.  Times: A = -gamma a, B = -b.  A's value beats B's exactly
 * when gamma < g with g = a / b (scores) or b / a (times), the benchmark's
 * breakpoints.  With snap, pairs whose breakpoint equals gamma (as the
 * same double) are made exactly equal, so that the tie that holds at the
 * breakpoint in exact arithmetic is seen.
 */
static double pair_ratio(double a, double b, int higher)
{
    return higher ? a / b : b / a;
}

static void bench_values(const double *a, size_t na, const double *b,
                         size_t nb, int higher, double gamma, int snap,
                         double *v)
{
    for (size_t i = 0; i < na; i++) v[i] = higher ? a[i] : -gamma * a[i];
    for (size_t j = 0; j < nb; j++) v[na + j] = higher ? gamma * b[j] : -b[j];
    if (!snap) return;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            if (pair_ratio(a[i], b[j], higher) == gamma) {
                if (higher) v[na + j] = v[i];
                else v[i] = v[na + j];
            }
}

/* ---- cross-benchmark signed-rank level ----------------------------------- */

/*
 * Mid-ranks of |d| with a relative tolerance (HPT_TOL), then
 *   R_A = sum_{d > 0} rank + 1/2 sum_{d = 0} rank,
 *   R_B = sum_{d < 0} rank + 1/2 sum_{d = 0} rank.
 */
typedef struct {
    double v;
    size_t i;
} hpt_item;

static int cmp_item(const void *x, const void *y)
{
    const hpt_item *u = x, *w = y;
    if (u->v < w->v) return -1;
    if (u->v > w->v) return 1;
    return (u->i > w->i) - (u->i < w->i);
}

static int signed_ranks(size_t n, const double *d, double *rank, double *r_a,
                        double *r_b)
{
    hpt_item *it = st_malloc(n, sizeof(hpt_item));
    if (!it) return ST_ERR_ALLOC;
    for (size_t i = 0; i < n; i++) {
        it[i].v = fabs(d[i]);
        it[i].i = i;
    }
    qsort(it, n, sizeof(hpt_item), cmp_item);
    size_t i = 0;
    while (i < n) {
        size_t j = i + 1;
        while (j < n && it[j].v - it[i].v <= HPT_TOL * it[i].v) j++;
        double r = (double) (i + 1 + j) / 2.0;
        for (size_t k = i; k < j; k++) rank[it[k].i] = r;
        i = j;
    }
    free(it);
    double sa = 0.0, sb = 0.0;
    for (size_t k = 0; k < n; k++) {
        if (d[k] > 0) sa += rank[k];
        else if (d[k] < 0) sb += rank[k];
        else {
            sa += rank[k] / 2.0;
            sb += rank[k] / 2.0;
        }
    }
    *r_a = sa;
    *r_b = sb;
    return ST_OK;
}

/*
 * Exact conditional distribution of R_B given the |d| pattern: under H0
 * each non-zero d is negative with probability 1/2 independently, the
 * zeros add their fixed half-ranks to R_B whatever happens.  So
 * P(R_B* <= R_B) = P(T <= T_obs) with T the sum of the ranks of the
 * negative non-zero d's, whose law (the sign-flip law of their mid-ranks,
 * symmetric in the two signs) is the package's exact signed-rank law.
 */
static int overall_conditional(size_t n, const double *d, const double *rank,
                               double *p_lower)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) m += d[i] != 0;
    if (m == 0) {
        *p_lower = 1.0;
        return ST_OK;
    }
    double *rank2 = st_malloc(m, sizeof(double));
    if (!rank2) return ST_ERR_ALLOC;
    double t2 = 0.0;
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (d[i] == 0) continue;
        rank2[j++] = 2.0 * rank[i];
        if (d[i] < 0) t2 += 2.0 * rank[i];
    }
    double le, ge;
    int st = st_exact_tails(ST_SIGNED_RANK, rank2, m, 0, t2, &le, &ge);
    free(rank2);
    if (st != ST_OK) return st;
    *p_lower = fmin(1.0, le);
    return ST_OK;
}

/*
 * Confidence that A beats B.  Classical: with n < 25 benchmarks the
 * paper's tables, 1 - P(W <= floor(R_B)) with W the no-ties signed-rank
 * statistic; with n >= 25 its normal approximation
 * z_B = (R_B - n (n + 1) / 4) / sqrt(n (n + 1) (2n + 1) / 24), confidence
 * 1 - Phi(z_B).  Exact ties: 1 - P(R_B* <= R_B) under the conditional law.
 */
static int overall_confidence(size_t n, const double *d, const double *rank,
                              double r_b, int exact_ties, double *conf,
                              int *exact)
{
    double nn = (double) n;
    if (exact_ties) {
        double pl;
        int st = overall_conditional(n, d, rank, &pl);
        if (st != ST_OK) return st;
        *conf = 1.0 - pl;
        *exact = 1;
    } else if (n < 25) {
        *conf = psignrank(floor(r_b + 1e-9), nn, 0, 0);
        *exact = 1;
    } else {
        double z = (r_b - nn * (nn + 1.0) / 4.0) /
                   sqrt(nn * (nn + 1.0) * (2.0 * nn + 1.0) / 24.0);
        *conf = pnorm(z, 0.0, 1.0, 0, 0);
        *exact = 0;
    }
    return ST_OK;
}

/* d of one benchmark from its raw medians, oriented, zero under tolerance */
static double bench_d(double ma, double mb, int higher, double gamma,
                      int winner)
{
    if (winner == 0) return 0.0;
    double sa = higher ? ma / gamma : gamma * ma;
    double d = higher ? sa - mb : mb - sa;
    if (fabs(d) <= HPT_TOL * (fabs(sa) + fabs(mb))) d = 0.0;
    return d;
}

/* ---- the test at one gamma ----------------------------------------------- */

static int check_input(const st_hpt_input *in)
{
    if (in->n < 1) return ST_ERR_TOO_FEW;
    if (!(in->alpha_bench > 0 && in->alpha_bench < 1)) return ST_ERR_DOMAIN;
    size_t oa = 0, ob = 0;
    for (size_t i = 0; i < in->n; i++) {
        if (in->a_len[i] < 3 || in->b_len[i] < 3) return ST_ERR_TOO_FEW;
        if (in->a_len[i] > ((size_t) -1) / 4 - in->b_len[i])
            return ST_ERR_TOO_MANY;
        for (size_t k = 0; k < in->a_len[i]; k++)
            if (!(in->a[oa + k] > 0) || !isfinite(in->a[oa + k]))
                return ST_ERR_DOMAIN;
        for (size_t k = 0; k < in->b_len[i]; k++)
            if (!(in->b[ob + k] > 0) || !isfinite(in->b[ob + k]))
                return ST_ERR_DOMAIN;
        oa += in->a_len[i];
        ob += in->b_len[i];
    }
    return ST_OK;
}

static size_t max_runs(const st_hpt_input *in)
{
    size_t m = 0;
    for (size_t i = 0; i < in->n; i++)
        if (in->a_len[i] + in->b_len[i] > m) m = in->a_len[i] + in->b_len[i];
    return m;
}

static double median_of(const double *x, size_t n, double *work)
{
    memcpy(work, x, n * sizeof(double));
    st_sort(work, n);
    return st_median_sorted(work, n);
}

int st_hpt(const st_hpt_input *in, double gamma, st_hpt_result *out)
{
    out->r_a = out->r_b = out->confidence = NAN;
    out->exact_bench = out->exact_overall = 0;
    int st = check_input(in);
    if (st != ST_OK) return st;
    if (!(gamma > 0) || !isfinite(gamma)) return ST_ERR_DOMAIN;
    size_t n = in->n, mr = max_runs(in);
    double *v = st_malloc(mr, sizeof(double));
    double *work = st_malloc(mr, sizeof(double));
    if (!v || !work) {
        free(v);
        free(work);
        return ST_ERR_ALLOC;
    }
    int all_exact = 1;
    size_t oa = 0, ob = 0;
    for (size_t i = 0; i < n && st == ST_OK; i++) {
        size_t na = in->a_len[i], nb = in->b_len[i];
        const double *a = in->a + oa, *b = in->b + ob;
        double ma = median_of(a, na, work), mb = median_of(b, nb, work);
        int ex = 0;
        bench_values(a, na, b, nb, in->higher_is_better, gamma, 0, v);
        st = bench_test(v, na, nb, in->exact_ties, &out->w_a[i], &out->p_a[i],
                        &out->p_b[i], &ex);
        if (st != ST_OK) break;
        all_exact = all_exact && ex;
        out->winner[i] = decide(out->p_a[i], out->p_b[i], in->alpha_bench);
        out->median_a[i] = in->higher_is_better ? ma / gamma : gamma * ma;
        out->median_b[i] = mb;
        out->d[i] = bench_d(ma, mb, in->higher_is_better, gamma,
                            out->winner[i]);
        oa += na;
        ob += nb;
    }
    free(v);
    free(work);
    if (st != ST_OK) return st;
    st = signed_ranks(n, out->d, out->rank, &out->r_a, &out->r_b);
    if (st != ST_OK) return st;
    int ex = 0;
    st = overall_confidence(n, out->d, out->rank, out->r_b, in->exact_ties,
                            &out->confidence, &ex);
    if (st != ST_OK) {
        out->confidence = NAN;
        return st;
    }
    out->exact_bench = all_exact;
    out->exact_overall = ex;
    return ST_OK;
}

/* ---- the r-Speedup -------------------------------------------------------- */

/*
 * confidence(gamma) is a step function.  On one benchmark the decision
 * depends on gamma only through the comparisons of A's handicapped values
 * with B's, which change only at the benchmark's breakpoints g_ij (a_i / b_j
 * for scores, b_j / a_i for times); between two consecutive breakpoints
 * nothing changes.  So each benchmark is summarised by the few breakpoints
 * where its decision changes ("events": the decision at the point and just
 * after it).  Across benchmarks, d_i(gamma) is 0 or linear in 1/gamma
 * (scores) or gamma (times), so the ranks of |d| and the signs change only
 * at the events, at the zero crossings median ratio, and where
 * |d_i| = |d_k| (one solution each of d_i = d_k and d_i = -d_k).  The
 * supremum is the highest of these points, or of the open intervals
 * between two consecutive ones, where the confidence reaches r (attained
 * at a point, or the open right end of an interval).  With exact_ties the
 * confidence is evaluated at every such point (sweep_candidates); the
 * classical test searches them without listing them (search_below).
 * Nothing assumes the confidence is monotone in gamma across decision
 * changes (it is in the classical test when every significant benchmark's
 * medians agree with its winner, since every d then decreases with gamma
 * and R_B is a count of Walsh averages).
 */
typedef struct {
    double g;
    signed char at, after;
} hpt_event;

typedef struct {
    double ma, mb;          /* raw medians           */
    int initial;            /* decision below events */
    size_t n_ev;
    hpt_event *ev;
} hpt_bench;

static int cmp_double_asc(const void *x, const void *y)
{
    double u = *(const double *) x, w = *(const double *) y;
    return (u > w) - (u < w);
}

/* Work allowed for the exact conditional decisions of hpt_speedup() with
 * exact_ties (DP cells summed over all breakpoints of all benchmarks). */
#define HPT_MAX_WORK 2e9

/* The events of one benchmark with exact_ties, from its sorted
 * breakpoints: the decision at every breakpoint and inside every interval
 * between two, each from its own exact conditional distribution. */
static int bench_events(const st_hpt_input *in, const double *a, size_t na,
                        const double *b, size_t nb, double *v, hpt_bench *bk)
{
    int higher = in->higher_is_better;
    double cells = (double) na * (double) nb;
    if (cells > HPT_MAX_PAIRS) return ST_ERR_TOO_MANY;
    size_t K = na * nb;
    double *g = st_malloc(K, sizeof(double));
    if (!g) return ST_ERR_ALLOC;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++) g[i * nb + j] = pair_ratio(a[i], b[j], higher);
    qsort(g, K, sizeof(double), cmp_double_asc);
    /* distinct values in place */
    hpt_event *ev = st_malloc(K, sizeof(hpt_event));
    if (!ev) {
        free(g);
        return ST_ERR_ALLOC;
    }
    size_t U = 0;
    for (size_t k = 0; k < K;) {
        size_t h = k + 1;
        while (h < K && g[h] == g[k]) h++;
        g[U++] = g[k];
        k = h;
    }
    int st = ST_OK, ex;
    signed char *dec_iv = malloc(U + 1);
    signed char *dec_pt = malloc(U ? U : 1);
    if (!dec_iv || !dec_pt) {
        st = ST_ERR_ALLOC;
        goto out;
    }
    /* interval u is (g[u-1], g[u]), each decided at its middle.  The
     * decisions below gamma = 1 are never asked for and are not computed:
     * they are set afterwards to the decision of the first interval that
     * is, so that they create no event */
    double w, pa, pb;
    size_t first = U;
    for (size_t u = 0; u <= U; u++) {
        int need_iv = u == U || g[u] > 1.0;
        int need_pt = u < U && g[u] >= 1.0;
        if (need_iv && first == U) first = u;
        if (need_iv) {
            double rep = U == 0 ? 1.0
                       : u == 0 ? g[0] / 2.0
                       : u == U ? g[U - 1] * 2.0
                       : g[u - 1] + (g[u] - g[u - 1]) / 2.0;
            bench_values(a, na, b, nb, higher, rep, 0, v);
            st = bench_test(v, na, nb, 1, &w, &pa, &pb, &ex);
            if (st != ST_OK) goto out;
            dec_iv[u] = (signed char) decide(pa, pb, in->alpha_bench);
        }
        if (u == U) break;
        if (need_pt) {
            bench_values(a, na, b, nb, higher, g[u], 1, v);
            st = bench_test(v, na, nb, 1, &w, &pa, &pb, &ex);
            if (st != ST_OK) goto out;
            dec_pt[u] = (signed char) decide(pa, pb, in->alpha_bench);
        }
    }
    for (size_t u = 0; u < first; u++) {
        dec_iv[u] = dec_iv[first];
        if (g[u] < 1.0) dec_pt[u] = dec_iv[first];
    }
    bk->initial = dec_iv[0];
    bk->n_ev = 0;
    for (size_t u = 0; u < U; u++) {
        if (dec_pt[u] == dec_iv[u] && dec_iv[u + 1] == dec_iv[u]) continue;
        ev[bk->n_ev].g = g[u];
        ev[bk->n_ev].at = dec_pt[u];
        ev[bk->n_ev].after = dec_iv[u + 1];
        bk->n_ev++;
    }
out:
    free(g);
    free(dec_iv);
    free(dec_pt);
    if (st != ST_OK) {
        free(ev);
        bk->n_ev = 0;
        return st;
    }
    bk->ev = ev;
    return ST_OK;
}

static int lookup_decision(const hpt_bench *bk, double gamma)
{
    size_t lo = 0, hi = bk->n_ev;  /* first event with g > gamma */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (bk->ev[mid].g <= gamma) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return bk->initial;
    const hpt_event *e = &bk->ev[lo - 1];
    return e->g == gamma ? e->at : e->after;
}

/*
 * The confidence at one gamma from the benchmarks' summaries, as st_hpt
 * computes it.  The sweep evaluates at decreasing gammas, where the order
 * of the |d| changes little from one evaluation to the next, so the
 * indices sorted by |d| are kept between calls and repaired by insertion
 * sort (O(n + number of pairs that changed order)); a jump elsewhere
 * (incremental = 0) sorts afresh.  The mid-ranks only depend on the
 * sorted values, so they are those of signed_ranks().
 */
typedef struct {
    const st_hpt_input *in;
    hpt_bench *bk;
    double *d, *rank, *absd;
    size_t *perm;
    hpt_item *items;
} hpt_scan;

static int scan_confidence(hpt_scan *sc, double gamma, int incremental,
                           double *conf)
{
    size_t n = sc->in->n;
    double *d = sc->d, *absd = sc->absd, *rank = sc->rank;
    size_t *perm = sc->perm;
    for (size_t i = 0; i < n; i++) {
        d[i] = bench_d(sc->bk[i].ma, sc->bk[i].mb, sc->in->higher_is_better,
                       gamma, lookup_decision(&sc->bk[i], gamma));
        absd[i] = fabs(d[i]);
    }
    if (incremental) {
        for (size_t i = 1; i < n; i++) {
            size_t p = perm[i];
            double v = absd[p];
            size_t j = i;
            while (j > 0 && absd[perm[j - 1]] > v) {
                perm[j] = perm[j - 1];
                j--;
            }
            perm[j] = p;
        }
    } else {
        hpt_item *it = sc->items;
        for (size_t i = 0; i < n; i++) {
            it[i].v = absd[i];
            it[i].i = i;
        }
        qsort(it, n, sizeof(hpt_item), cmp_item);
        for (size_t i = 0; i < n; i++) perm[i] = it[i].i;
    }
    size_t i = 0;
    while (i < n) {
        size_t j = i + 1;
        double vi = absd[perm[i]];
        while (j < n && absd[perm[j]] - vi <= HPT_TOL * vi) j++;
        double r = (double) (i + 1 + j) / 2.0;
        for (size_t k = i; k < j; k++) rank[perm[k]] = r;
        i = j;
    }
    double sb = 0.0;
    for (size_t k = 0; k < n; k++) {
        if (d[k] < 0) sb += rank[k];
        else if (d[k] == 0) sb += rank[k] / 2.0;
    }
    int ex;
    return overall_confidence(n, d, rank, sb, sc->in->exact_ties, conf, &ex);
}

/* the confidence at gamma exactly as st_hpt computes it */
static int direct_confidence(const st_hpt_input *in, double gamma,
                             double *conf)
{
    size_t n = in->n;
    double *buf = n > SIZE_MAX / 7 ? NULL : st_malloc(7 * n, sizeof(double));
    int *win = st_malloc(n, sizeof(int));
    if (!buf || !win) {
        free(buf);
        free(win);
        return ST_ERR_ALLOC;
    }
    st_hpt_result r;
    r.median_a = buf;
    r.median_b = buf + n;
    r.d = buf + 2 * n;
    r.rank = buf + 3 * n;
    r.w_a = buf + 4 * n;
    r.p_a = buf + 5 * n;
    r.p_b = buf + 6 * n;
    r.winner = win;
    int st = st_hpt(in, gamma, &r);
    *conf = r.confidence;
    free(buf);
    free(win);
    return st;
}

static void free_benches(hpt_bench *bk, size_t n)
{
    if (!bk) return;
    for (size_t i = 0; i < n; i++) free(bk[i].ev);
    free(bk);
}

/* The gamma of sweep position pos: the point pts[pos / 2] (pos even) or
 * the middle of (pts[k - 1], pts[k]), k = (pos + 1) / 2, formed as
 * pts[k - 1] + (pts[k] - pts[k - 1]) / 2, which cannot overflow. */
static double position_gamma(const double *pts, size_t pos)
{
    size_t k = (pos + 1) / 2;
    if (pos % 2 == 0) return pts[k];
    return pts[k - 1] + (pts[k] - pts[k - 1]) / 2.0;
}

/* Sorts positive doubles ascending by their bit patterns (which order
 * like the values for positive finite numbers and +Inf): four passes of a
 * 16-bit radix sort, O(n) instead of qsort's O(n log n) on the n^2
 * candidate points. */
static int sort_positive(double *x, size_t n)
{
    if (n < 4096) {
        qsort(x, n, sizeof(double), cmp_double_asc);
        return ST_OK;
    }
    double *buf = st_malloc(n, sizeof(double));
    size_t *count = st_malloc(65536, sizeof(size_t));
    if (!buf || !count) {
        free(buf);
        free(count);
        return ST_ERR_ALLOC;
    }
    /* four passes between x and buf: the result ends in x */
    double *src = x, *dst = buf;
    for (int shift = 0; shift < 64; shift += 16) {
        memset(count, 0, 65536 * sizeof(size_t));
        for (size_t i = 0; i < n; i++) {
            uint64_t u;
            memcpy(&u, src + i, sizeof u);
            count[(u >> shift) & 0xFFFF]++;
        }
        size_t sum = 0;
        for (size_t h = 0; h < 65536; h++) {
            size_t c = count[h];
            count[h] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) {
            uint64_t u;
            memcpy(&u, src + i, sizeof u);
            dst[count[(u >> shift) & 0xFFFF]++] = src[i];
        }
        double *t = src;
        src = dst;
        dst = t;
    }
    free(buf);
    free(count);
    return ST_OK;
}

/* ---- exact_ties: every candidate point ------------------------------------ */

/*
 * The sweep over every candidate point: 1, the events, the zero crossings
 * median ratios and, for every pair of benchmarks, the points where
 * |d_i| = |d_k| (one or two per pair, so about n^2 points).  With
 * exact_ties the conditional null law of R_B depends on the ties of the
 * |d| themselves, so every point is evaluated on its own; between two
 * decision events the winners are fixed and the confidence of the
 * classical test can only fall as gamma grows, which the sweep uses to
 * settle each stretch with one evaluation (the classical test is reached
 * here only as the reference the faster search is checked against).  On
 * success *pts holds the U sorted distinct points.
 */
static int sweep_candidates(const st_hpt_input *in, hpt_bench *bk,
                            double level, double *sup_out, int *attained,
                            double **pts_out, size_t *U_out)
{
    size_t n = in->n;
    *sup_out = NAN;
    *attained = 0;
    *pts_out = NULL;
    *U_out = 0;
    if ((double) n * (double) n > HPT_MAX_POINTS) return ST_ERR_TOO_MANY;
    int st = ST_OK;
    double *d = st_malloc(n, sizeof(double));
    double *rank = st_malloc(n, sizeof(double));
    double *absd = st_malloc(n, sizeof(double));
    size_t *perm = st_malloc(n, sizeof(size_t));
    hpt_item *items = st_malloc(n, sizeof(hpt_item));
    double *pts = NULL;
    unsigned char *is_event = NULL;
    if (!d || !rank || !absd || !perm || !items) {
        st = ST_ERR_ALLOC;
        goto done;
    }
    size_t n_ev = 0;
    for (size_t i = 0; i < n; i++) n_ev += bk[i].n_ev;
    /* candidate points: 1, events, zero crossings, |d_i| = |d_k| */
    size_t cap = 1 + n_ev + n + n * (n - 1);
    pts = st_malloc(cap, sizeof(double));
    if (st_check_interrupt()) {
        st = ST_ERR_INTERRUPTED;
        goto done;
    }
    if (!pts) {
        st = ST_ERR_ALLOC;
        goto done;
    }
    size_t P = 0;
    int higher = in->higher_is_better;
    pts[P++] = 1.0;
    for (size_t i = 0; i < n; i++) {
        for (size_t e = 0; e < bk[i].n_ev; e++)
            if (bk[i].ev[e].g > 1.0 && isfinite(bk[i].ev[e].g))
                pts[P++] = bk[i].ev[e].g;
        double z = pair_ratio(bk[i].ma, bk[i].mb, higher);
        if (z > 1.0 && isfinite(z)) pts[P++] = z;
        for (size_t k = i + 1; k < n; k++) {
            /* u = 1 / gamma (scores) or gamma (times) */
            double num[2] = {bk[i].mb - bk[k].mb, bk[i].mb + bk[k].mb};
            double den[2] = {bk[i].ma - bk[k].ma, bk[i].ma + bk[k].ma};
            for (int s = 0; s < 2; s++) {
                if (den[s] == 0) continue;
                double u = num[s] / den[s];
                if (!(u > 0)) continue;
                double gm = higher ? 1.0 / u : u;
                if (gm > 1.0 && isfinite(gm)) pts[P++] = gm;
            }
        }
    }
    st = sort_positive(pts, P);
    if (st != ST_OK) goto done;
    size_t U = 0;
    for (size_t k = 0; k < P; k++)
        if (U == 0 || pts[k] != pts[U - 1]) pts[U++] = pts[k];
    /* which candidate points are decision events of some benchmark (the
     * configuration of winners changes there); pts[0] = 1 is treated as
     * one too */
    is_event = calloc(U ? U : 1, 1);
    if (!is_event) {
        st = ST_ERR_ALLOC;
        goto done;
    }
    /* With exact_ties a tie of two |d| at a point changes the null
     * distribution itself, so the confidence at a point can exceed that on
     * both sides: every point is then evaluated on its own (runs are single
     * middles). */
    for (size_t k = 0; k < U; k++) is_event[k] = k == 0 || in->exact_ties;
    for (size_t i = 0; i < n && !in->exact_ties; i++)
        for (size_t e = 0; e < bk[i].n_ev; e++) {
            double g = bk[i].ev[e].g;
            size_t lo = 0, hi = U;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (pts[mid] < g) lo = mid + 1;
                else hi = mid;
            }
            if (lo < U && pts[lo] == g) is_event[lo] = 1;
        }
    for (size_t i = 0; i < n; i++) perm[i] = i;
    hpt_scan sc = {in, bk, d, rank, absd, perm, items};
    double c;
    st = scan_confidence(&sc, pts[U - 1] * 2.0, 0, &c);
    if (st != ST_OK) goto done;
    if (c >= level) {
        *sup_out = INFINITY;
        *attained = 1;
        goto done;
    }
    /*
     * The positions the confidence is evaluated at, from the top: point
     * pts[k] is position 2k, the middle of (pts[k-1], pts[k]) position
     * 2k - 1; the answer is the first position, from the top, reaching the
     * level (a point: the supremum, attained; a middle: the supremum is
     * the open end pts[k]).  Between two decision events the winners are
     * fixed, every d_i is 0 or a decreasing function of gamma plus a
     * constant (scores: a / gamma - b; times: b - gamma a, with a > 0),
     * so every d_i + d_k decreases as gamma grows and R_B -- the number of
     * pairs i <= k with d_i + d_k < 0, half of those with 0 -- can only
     * grow: the confidence is non-increasing in gamma there.  So a run of
     * positions strictly between two events is settled by its lowest
     * position: if that one fails, all fail; if it reaches the level, the
     * highest position reaching it is found by bisection.  Each event
     * point is evaluated on its own.  Nothing is assumed across events.
     * At a point where two |d| tie, or a d is zero, R_B is between its
     * values on either side (the tied pair shares its ranks), so the
     * classical confidence -- a decreasing function of R_B -- keeps the
     * order; the exact conditional one need not (see is_event above).
     * The sweep goes down in gamma, so the order of |d| is repaired
     * incrementally from one run to the next.
     */
    size_t pos = 2 * (U - 1), found = (size_t) -1;
    size_t evals = 0;
    for (;;) {
        if (++evals % 64 == 0 && st_check_interrupt()) {
            st = ST_ERR_INTERRUPTED;
            goto done;
        }
        if (pos % 2 == 0 && is_event[pos / 2]) {
            st = scan_confidence(&sc, pts[pos / 2], 1, &c);
            if (st != ST_OK) goto done;
            if (c >= level) {
                found = pos;
                break;
            }
            if (pos == 0) break;
            pos--;
            continue;
        }
        /* the run from pos down to just above the next event point */
        size_t ke = pos / 2;
        while (!is_event[ke]) ke--;          /* is_event[0] = 1 */
        size_t lo = 2 * ke + 1, hi = pos;
        st = scan_confidence(&sc, position_gamma(pts, lo), 1, &c);
        if (st != ST_OK) goto done;
        if (c >= level) {
            /* the highest position in [lo, hi] reaching the level */
            size_t good = lo, bad = hi + 1;
            while (bad - good > 1) {
                size_t mid = good + (bad - good) / 2;
                double cm;
                st = scan_confidence(&sc, position_gamma(pts, mid), 0, &cm);
                if (st != ST_OK) goto done;
                if (cm >= level) good = mid;
                else bad = mid;
            }
            found = good;
            break;
        }
        pos = 2 * ke;
    }
    if (found != (size_t) -1) {
        *sup_out = pts[(found + 1) / 2];
        *attained = found % 2 == 0;
    }
    *pts_out = pts;
    *U_out = U;
    pts = NULL;
done:
    free(d);
    free(rank);
    free(absd);
    free(perm);
    free(items);
    free(pts);
    free(is_event);
    return st;
}

/* The events of every benchmark with exact_ties, refused up front when the
 * exact conditional decisions at every breakpoint >= 1 would take too
 * long: one DP of about N k N (N + 1) / 2 cells per breakpoint. */
static int exact_benches(const st_hpt_input *in, hpt_bench *bk, double *v)
{
    size_t n = in->n, oa = 0, ob = 0;
    for (size_t i = 0; i < n; i++)
        if ((double) in->a_len[i] * (double) in->b_len[i] > HPT_MAX_PAIRS)
            return ST_ERR_TOO_MANY;
    double dp_work = 0.0;
    for (size_t i = 0; i < n; i++) {
        size_t na = in->a_len[i], nb = in->b_len[i];
        const double *a = in->a + oa, *b = in->b + ob;
        double pts_ge1 = 0.0, N = (double) (na + nb);
        double k = (double) (na < nb ? na : nb);
        for (size_t x = 0; x < na; x++)
            for (size_t y = 0; y < nb; y++)
                pts_ge1 += pair_ratio(a[x], b[y], in->higher_is_better) >= 1.0;
        dp_work += pts_ge1 * N * k * N * (N + 1.0) / 2.0;
        oa += na;
        ob += nb;
    }
    if (dp_work > HPT_MAX_WORK) return ST_ERR_TOO_MANY;
    oa = ob = 0;
    for (size_t i = 0; i < n; i++) {
        size_t na = in->a_len[i], nb = in->b_len[i];
        int st = bench_events(in, in->a + oa, na, in->b + ob, nb, v, &bk[i]);
        if (st != ST_OK) return st;
        oa += na;
        ob += nb;
        if (i % 16 == 15 && st_check_interrupt()) return ST_ERR_INTERRUPTED;
    }
    return ST_OK;
}

/* ---- classical test: events from the decision thresholds ------------------ */

/*
 * In the classical test the decision on a benchmark is a function of the
 * Mann-Whitney count W alone (a multiple of 1/2 in [0, K], K = na nb), and
 * a monotone one: p_a falls and p_b rises with W, so B wins below a first
 * threshold, A from a second one on, and neither in between.  As gamma
 * grows A's handicapped runs beat fewer of B's: W(gamma) = #{g_ij > gamma}
 * + #{g_ij = gamma} / 2 over the K breakpoints g_ij falls from K to 0.  So
 * the decision changes at most twice, each time at the breakpoint where
 * W crosses a threshold h / 2: the ceil(h / 2)-th largest breakpoint.
 * It is found without listing the K breakpoints: with both samples
 * sorted, #{g_ij >= gamma} is counted in O(na + nb) (each ratio is
 * monotone in both runs, also as rounded), and the breakpoint is the
 * largest double at which that count still reaches ceil(h / 2), found by
 * bisection on the bit patterns of positive doubles (which order like
 * their values).  Memory is O(na + nb) whatever K.
 */
static int classical_dec(double w, size_t na, size_t nb, double alpha)
{
    double pa, pb;
    int ex;
    ranksum_p_classical(w, na, nb, &pa, &pb, &ex);
    return decide(pa, pb, alpha);
}

/* Smallest h in [0, 2K] with a decision >= target at W = h / 2; 2K + 1
 * when there is none. */
static double dec_threshold(size_t na, size_t nb, double alpha, int target)
{
    double k2 = 2.0 * (double) na * (double) nb;
    if (classical_dec(0.0, na, nb, alpha) >= target) return 0.0;
    if (classical_dec(k2 / 2.0, na, nb, alpha) < target) return k2 + 1.0;
    double lo = 0.0, hi = k2;            /* decision(lo) < target <= (hi) */
    while (hi - lo > 1.0) {
        double mid = floor(lo + (hi - lo) / 2.0);
        if (classical_dec(mid / 2.0, na, nb, alpha) >= target) hi = mid;
        else lo = mid;
    }
    return hi;
}

/* #{(i, j): num[j] / den[i] > gamma} (or >= gamma), num and den sorted
 * ascending: the ratio grows with j and falls with i, so the first j
 * passing moves right as i grows. */
static double ratio_count(const double *num, size_t nn, const double *den,
                          size_t nd, double gamma, int or_equal)
{
    double c = 0.0;
    size_t j = 0;
    for (size_t i = 0; i < nd; i++) {
        while (j < nn && !(or_equal ? num[j] / den[i] >= gamma
                                    : num[j] / den[i] > gamma))
            j++;
        c += (double) (nn - j);
    }
    return c;
}

static uint64_t dbl_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static double bits_dbl(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* The c-th largest ratio num[j] / den[i] (1 <= c <= nn nd). */
static double ratio_kth_largest(const double *num, size_t nn,
                                const double *den, size_t nd, double c)
{
    double lo = num[0] / den[nd - 1], hi = num[nn - 1] / den[0];
    if (ratio_count(num, nn, den, nd, hi, 1) >= c) return hi;
    uint64_t l = dbl_bits(lo), h = dbl_bits(hi);  /* count(l) >= c > (h) */
    while (h - l > 1) {
        uint64_t m = l + (h - l) / 2;
        if (ratio_count(num, nn, den, nd, bits_dbl(m), 1) >= c) l = m;
        else h = m;
    }
    return bits_dbl(l);
}

/* thresholds of the last sizes seen (benchmarks usually share them) */
typedef struct {
    size_t na, nb;
    double t_tie, t_a;
} hpt_thresholds;

static int classical_events(const st_hpt_input *in, const double *a,
                            size_t na, const double *b, size_t nb,
                            double *work, hpt_thresholds *tc, hpt_bench *bk)
{
    double *sa = work, *sb = work + na;
    memcpy(sa, a, na * sizeof(double));
    memcpy(sb, b, nb * sizeof(double));
    st_sort(sa, na);
    st_sort(sb, nb);
    const double *num = in->higher_is_better ? sa : sb;
    const double *den = in->higher_is_better ? sb : sa;
    size_t nn = in->higher_is_better ? na : nb;
    size_t nd = in->higher_is_better ? nb : na;
    if (tc->na != na || tc->nb != nb) {
        tc->na = na;
        tc->nb = nb;
        tc->t_tie = dec_threshold(na, nb, in->alpha_bench, 0);
        tc->t_a = dec_threshold(na, nb, in->alpha_bench, 1);
    }
    double k2 = 2.0 * (double) na * (double) nb;
    double th[2] = {tc->t_a, tc->t_tie};   /* the first at the smaller gamma */
#define DEC2(h) ((h) >= tc->t_a ? 1 : ((h) >= tc->t_tie ? 0 : -1))
    bk->initial = DEC2(k2);
    bk->n_ev = 0;
    bk->ev = st_malloc(2, sizeof(hpt_event));
    if (!bk->ev) return ST_ERR_ALLOC;
    for (int t = 0; t < 2; t++) {
        double h = th[t];
        if (!(h > 0.0 && h <= k2)) continue;
        double g = ratio_kth_largest(num, nn, den, nd, ceil(h / 2.0));
        if (bk->n_ev > 0 && bk->ev[bk->n_ev - 1].g == g) continue;
        double gt = ratio_count(num, nn, den, nd, g, 0);
        double ge = ratio_count(num, nn, den, nd, g, 1);
        bk->ev[bk->n_ev].g = g;
        bk->ev[bk->n_ev].at = (signed char) DEC2(gt + ge);
        bk->ev[bk->n_ev].after = (signed char) DEC2(2.0 * gt);
        bk->n_ev++;
    }
#undef DEC2
    return ST_OK;
}

/* ---- classical test: the search over gamma -------------------------------- */

/*
 * The classical confidence is a non-increasing function of R_B alone
 * (given n), so confidence >= r exactly when R_B <= thr, thr the largest
 * attainable R_B (a multiple of 1/4) that reaches r, found once by
 * bisection.  R_B is the Walsh count: with d_i the benchmarks' d's,
 *   R_B = #{i <= k: d_i + d_k < 0} + #{i <= k: d_i + d_k = 0} / 2,
 * which is the sum of the mid-ranks of the negative d's plus half those of
 * the zeros.  Between two consecutive decision events (a "segment") the
 * winners are fixed; the z ties have d = 0 and every other benchmark has
 * d_i(gamma) = m_a,i / gamma - m_b,i (scores) or m_b,i - gamma m_a,i
 * (times), decreasing in gamma.  Then d_i + d_k < 0 exactly when gamma is
 * above the pair's crossing point (m_b,i + m_b,k) / (m_a,i + m_a,k) for
 * times (its inverse for scores; i = k gives the benchmark's median
 * ratio), so in a segment
 *   R_B(gamma) = #{pairs of winners crossing below gamma}
 *              + (1 + z) #{winners crossing below gamma} + z (z + 1) / 4,
 * a non-decreasing step function counted at any gamma in O(n log n) by
 * sorting the d's and walking two pointers.  The count is exact as the
 * crossing points are computed (in floating point): a pair whose d_i + d_k
 * is too close to zero for its sign to be trusted is decided by comparing
 * its crossing point itself with gamma.
 *
 * The supremum is then found from the top down without listing the
 * crossing points.  A block of consecutive segments and event points is
 * skipped when a lower bound of R_B over all of it exceeds thr: each d is
 * at most max(0, d_i at the block's lowest gamma), 0 only when a tie
 * occurs in the block (d_i decreases with gamma), and R_B is
 * non-increasing in every d, so the Walsh count of these bounds (pairs
 * surely negative only) is a lower bound.  A block that cannot be skipped
 * is halved, the upper half searched first.  When every d moves down with
 * gamma (the usual case: each winner's medians agree with its rank-sum
 * verdict) the bound is R_B at the block's bottom and the search is a
 * bisection over the events: O(n log n log n).  In a single segment, the
 * bottom (just above the lower event) decides whether any gamma in it
 * passes; if one does, the supremum is the smallest crossing point at
 * which the count exceeds thr (attained when the confidence at the point
 * itself, where that pair's d's tie, still reaches r), found by bisection
 * on the bit patterns of the doubles, or the segment's open upper end.
 * Event points and crossing points are evaluated exactly as st_hpt
 * computes the confidence there.
 */
typedef struct {
    const st_hpt_input *in;
    hpt_bench *bk;
    size_t n;
    const double *pts;        /* 1, then the events > 1, ascending */
    size_t np;
    double level, thr;
    double limit;             /* search gamma < limit only */
    double big;               /* above every crossing point */
    hpt_scan *sc;
    hpt_item *items;
    signed char *dec;         /* the winners of the segment searched */
} hpt_search;

/* the decision just above gamma */
static int lookup_after(const hpt_bench *bk, double gamma)
{
    size_t lo = 0, hi = bk->n_ev;  /* first event with g > gamma */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (bk->ev[mid].g <= gamma) lo = mid + 1;
        else hi = mid;
    }
    return lo == 0 ? bk->initial : bk->ev[lo - 1].after;
}

/* d_i as bench_d computes it before rounding to zero, kept finite */
static double raw_d(const hpt_bench *bk, int higher, double gamma,
                    double *mag)
{
    double sa = higher ? bk->ma / gamma : gamma * bk->ma;
    double d = higher ? sa - bk->mb : bk->mb - sa;
    *mag = fabs(sa) + fabs(bk->mb);
    const double cap = DBL_MAX / 8.0;
    if (!(d > -cap)) d = -cap;    /* also a NaN */
    if (d > cap) d = cap;
    if (!(*mag < cap)) *mag = cap;
    return d;
}

/* the crossing point of d_i + d_k as the candidate list has it */
static double pair_crossing(const hpt_bench *u, const hpt_bench *w,
                            int higher)
{
    double q = (u->mb + w->mb) / (u->ma + w->ma);
    return higher ? 1.0 / q : q;
}

/* Ordered pairs (p, q) of the sorted items with x_p + x_q surely below
 * zero, the band being eps (|x_p| + |x_q|) + B: *ord counts them, *self
 * the p = q among them.  When amb is given, the unordered pairs p < q in
 * the band are compared by their crossing points with gamma and those at
 * or below it counted in *amb; ST_ERR_TOO_MANY when there are more than
 * a budget of them (data with very many equal medians: the caller then
 * counts by the signs alone). */
static int walsh_pairs(const hpt_search *S, const hpt_item *it, size_t m,
                       double eps, double B, double gamma, double *ord,
                       double *self, double *amb)
{
    size_t qn = m, qa = m;
    double o = 0.0, sf = 0.0, am = 0.0, work = 0.0, total = 0.0;
    double budget = 16.0 * (double) m + 1e6;
    int higher = S->in->higher_is_better;
    for (size_t p = 0; p < m; p++) {
        double x = it[p].v;
        while (qn > 0 && !(x + it[qn - 1].v +
                           eps * (fabs(x) + fabs(it[qn - 1].v)) + B < 0))
            qn--;
        o += (double) qn;
        if (p < qn) sf += 1.0;
        if (!amb) continue;
        while (qa > 0 && !(x + it[qa - 1].v -
                           eps * (fabs(x) + fabs(it[qa - 1].v)) - B <= 0))
            qa--;
        for (size_t q = qn > p + 1 ? qn : p + 1; q < qa; q++) {
            if (pair_crossing(&S->bk[it[p].i], &S->bk[it[q].i], higher) <=
                gamma)
                am += 1.0;
            if (++total > budget) return ST_ERR_TOO_MANY;
            if (++work >= 1e7) {
                work = 0.0;
                if (st_check_interrupt()) return ST_ERR_INTERRUPTED;
            }
        }
    }
    *ord = o;
    *self = sf;
    if (amb) *amb = am;
    return ST_OK;
}

/* R_B just above gamma with the winners in S->dec, gamma in the segment
 * or at its lower end (the crossing points at gamma count as passed). */
static int segment_rb(hpt_search *S, double gamma, double *rb)
{
    size_t n = S->n, m = 0;
    double z = 0.0, selfc = 0.0, mag_max = 0.0;
    int higher = S->in->higher_is_better;
    for (size_t i = 0; i < n; i++) {
        if (S->dec[i] == 0) {
            z += 1.0;
            continue;
        }
        if (pair_ratio(S->bk[i].ma, S->bk[i].mb, higher) <= gamma)
            selfc += 1.0;
        double mag;
        S->items[m].v = raw_d(&S->bk[i], higher, gamma, &mag);
        S->items[m].i = i;
        if (mag > mag_max) mag_max = mag;
        m++;
    }
    double M = (double) m;
    if (gamma >= S->big) {
        *rb = M * (M - 1.0) / 2.0 + (1.0 + z) * M + z * (z + 1.0) / 4.0;
        return ST_OK;
    }
    qsort(S->items, m, sizeof(hpt_item), cmp_item);
    double ord, self, amb;
    int st = walsh_pairs(S, S->items, m, 1e-12, 4e-12 * mag_max, gamma, &ord,
                         &self, &amb);
    if (st == ST_ERR_TOO_MANY) {
        /* too many sums near zero to compare their crossing points one by
         * one: the signs of the sums as computed decide */
        amb = 0.0;
        st = walsh_pairs(S, S->items, m, 0.0, 0.0, gamma, &ord, &self, NULL);
    }
    if (st != ST_OK) return st;
    *rb = (ord - self) / 2.0 + amb + (1.0 + z) * selfc + z * (z + 1.0) / 4.0;
    return ST_OK;
}

/* A lower bound of R_B over the points pts[a..b] and the segments above
 * them (gamma in [pts[a], pts[b + 1]) and below the limit). */
static int block_bound(hpt_search *S, size_t a, size_t b, double *lb)
{
    size_t n = S->n;
    double lo = S->pts[a];
    double hi = b + 1 < S->np ? S->pts[b + 1] : INFINITY;
    if (hi > S->limit) hi = S->limit;
    int higher = S->in->higher_is_better;
    double zt = 0.0, mb_max = 0.0;
    for (size_t i = 0; i < n; i++) {
        const hpt_bench *bk = &S->bk[i];
        int seen[3] = {0, 0, 0};
        seen[lookup_decision(bk, lo) + 1] = 1;
        seen[lookup_after(bk, lo) + 1] = 1;
        for (size_t e = 0; e < bk->n_ev; e++)
            if (bk->ev[e].g > lo && bk->ev[e].g < hi) {
                seen[bk->ev[e].at + 1] = 1;
                seen[bk->ev[e].after + 1] = 1;
            }
        double v = 0.0, mag;
        if (seen[0] || seen[2]) {
            v = raw_d(bk, higher, lo, &mag);
            if (seen[1] && v < 0) v = 0.0;
        } else {
            zt += 1.0;
        }
        S->items[i].v = v;
        S->items[i].i = i;
        if (fabs(bk->mb) > mb_max) mb_max = fabs(bk->mb);
    }
    qsort(S->items, n, sizeof(hpt_item), cmp_item);
    double ord, self;
    /* the band covers the rounding of a d to zero (1e-9 of the medians)
     * and the tolerance of tied |d| (1e-9 relative) in st_hpt */
    int st = walsh_pairs(S, S->items, n, 1e-8, 1e-8 * mb_max, lo, &ord, &self,
                         NULL);
    if (st != ST_OK) return st;
    *lb = (ord - self) / 2.0 + self + zt * (zt + 1.0) / 4.0;
    return ST_OK;
}

/* The segment above pts[a]: the supremum in it, if any gamma passes. */
static int search_segment(hpt_search *S, size_t a, int *found, double *sup,
                          int *attained)
{
    double lo = S->pts[a];
    double hi = a + 1 < S->np ? S->pts[a + 1] : INFINITY;
    if (hi > S->limit) hi = S->limit;
    if (!(hi > lo)) return ST_OK;
    for (size_t i = 0; i < S->n; i++) S->dec[i] = (signed char) lookup_after(&S->bk[i], lo);
    double rb;
    int st = segment_rb(S, lo, &rb);
    if (st != ST_OK) return st;
    if (rb > S->thr) return ST_OK;
    /* the bottom passes: the smallest crossing point above which R_B
     * exceeds thr, or the open upper end */
    double top = isinf(hi) ? DBL_MAX : nextafter(hi, 0.0);
    if (!(top > lo)) return ST_OK;        /* no double inside */
    st = segment_rb(S, top, &rb);
    if (st != ST_OK) return st;
    *found = 1;
    if (rb <= S->thr) {
        *sup = hi;
        *attained = isinf(hi);
        return ST_OK;
    }
    uint64_t l = dbl_bits(lo), h = dbl_bits(top);   /* rb(l) <= thr < (h) */
    while (h - l > 1) {
        uint64_t m = l + (h - l) / 2;
        st = segment_rb(S, bits_dbl(m), &rb);
        if (st != ST_OK) return st;
        if (rb <= S->thr) l = m;
        else h = m;
    }
    *sup = bits_dbl(h);
    double c;
    st = scan_confidence(S->sc, *sup, 0, &c);
    if (st != ST_OK) return st;
    *attained = c >= S->level;
    return ST_OK;
}

/* The highest position reaching the level among the points pts[a..b] and
 * the segments above them, below the limit. */
static int search_block(hpt_search *S, size_t a, size_t b, int *found,
                        double *sup, int *attained)
{
    if (!(S->pts[a] < S->limit)) return ST_OK;
    if (st_check_interrupt()) return ST_ERR_INTERRUPTED;
    double lb;
    int st = block_bound(S, a, b, &lb);
    if (st != ST_OK || lb > S->thr) return st;
    if (a == b) {
        st = search_segment(S, a, found, sup, attained);
        if (st != ST_OK || *found) return st;
        double c;
        st = scan_confidence(S->sc, S->pts[a], 0, &c);
        if (st != ST_OK) return st;
        if (c >= S->level) {
            *found = 1;
            *sup = S->pts[a];
            *attained = 1;
        }
        return ST_OK;
    }
    size_t mid = a + (b - a + 1) / 2;
    st = search_block(S, mid, b, found, sup, attained);
    if (st != ST_OK || *found) return st;
    return search_block(S, a, mid - 1, found, sup, attained);
}

static int search_below(hpt_search *S, double limit, double *sup,
                        int *attained)
{
    *sup = NAN;
    *attained = 0;
    if (!(S->thr >= 0)) return ST_OK;      /* no R_B reaches the level */
    S->limit = limit;
    int found = 0;
    return search_block(S, 0, S->np - 1, &found, sup, attained);
}

/* s itself when R_B can change at s (an event point or a crossing
 * point), else the largest gamma below s where it can: an event point or
 * the largest crossing point below s (found by bisection on the count). */
static int last_change_below(hpt_search *S, double s, double *u)
{
    size_t lo_i = 0, hi_i = S->np;          /* first point >= s */
    while (lo_i < hi_i) {
        size_t mid = lo_i + (hi_i - lo_i) / 2;
        if (S->pts[mid] < s) lo_i = mid + 1;
        else hi_i = mid;
    }
    *u = s;
    if (lo_i == 0 || (lo_i < S->np && S->pts[lo_i] == s)) return ST_OK;
    double lo = S->pts[lo_i - 1];
    double top = nextafter(s, 0.0);
    if (!(top > lo)) {
        *u = lo;
        return ST_OK;
    }
    for (size_t i = 0; i < S->n; i++)
        S->dec[i] = (signed char) lookup_after(&S->bk[i], lo);
    double r_top, r_lo, r_s, r;
    int st = segment_rb(S, top, &r_top);
    if (st == ST_OK) st = segment_rb(S, s, &r_s);
    if (st != ST_OK || r_s != r_top) return st;   /* a crossing at s */
    *u = lo;
    st = segment_rb(S, lo, &r_lo);
    if (st != ST_OK || r_lo == r_top) return st;
    uint64_t l = dbl_bits(lo), h = dbl_bits(top);  /* r(l) < r_top = r(h) */
    while (h - l > 1) {
        uint64_t m = l + (h - l) / 2;
        st = segment_rb(S, bits_dbl(m), &r);
        if (st != ST_OK) return st;
        if (r < r_top) l = m;
        else h = m;
    }
    *u = bits_dbl(h);
    return ST_OK;
}

/* The largest attainable R_B (a multiple of 1/4) at which the classical
 * confidence reaches the level; -1 when even R_B = 0 does not. */
static double rb_threshold(size_t n, double level)
{
    double c;
    int ex;
    overall_confidence(n, NULL, NULL, 0.0, 0, &c, &ex);
    if (!(c >= level)) return -1.0;
    double top = 2.0 * (double) n * ((double) n + 1.0);  /* 4 n (n + 1) / 2 */
    overall_confidence(n, NULL, NULL, top / 4.0, 0, &c, &ex);
    if (c >= level) return top / 4.0;
    double lo = 0.0, hi = top;
    while (hi - lo > 1.0) {
        double mid = floor(lo + (hi - lo) / 2.0);
        overall_confidence(n, NULL, NULL, mid / 4.0, 0, &c, &ex);
        if (c >= level) lo = mid;
        else hi = mid;
    }
    return lo / 4.0;
}

/* ---- the r-Speedup ---------------------------------------------------------- */

typedef struct {
    int method;               /* 0: search, 1: candidate sweep */
    const double *pts;        /* the sweep's points */
    size_t U;
    hpt_search *S;            /* the search */
} hpt_below;

/* A gamma u <= s such that no gamma in (u, s) reaches the level, or none
 * but those where the confidence is the one at s (NAN when none below s
 * does), after s itself failed. */
static int passing_below(hpt_below *B, double s, int stuck, double *u)
{
    if (B->method == 1) {
        *u = s;
        size_t lo = 0, hi = B->U;            /* first point >= s */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (B->pts[mid] < s) lo = mid + 1;
            else hi = mid;
        }
        if (lo > 0 && lo < B->U && B->pts[lo] > s) *u = B->pts[lo - 1];
        return ST_OK;
    }
    int att;
    int st = search_below(B->S, s, u, &att);
    if (st != ST_OK || isnan(*u) || *u < s || stuck < 2) return st;
    /* the search has passed just below several failed multiples in a row
     * (the evaluation at them and the search disagree: rounding at extreme
     * gammas): like the sweep, skip to the last point below s where the
     * confidence can change */
    return last_change_below(B->S, s, u);
}

/*
 * Report the largest multiple of precision, at most the supremum, at which
 * st_hpt itself (as hpt(speedup = value) computes it) reaches the level.
 * When 1 / precision is an integer the value is k / inv, the double
 * nearest the decimal, so that the printed number is the one checked.  A
 * multiple that fails sends the walk to the largest multiple below the
 * next gamma that can pass.  The walk is bounded; it stops at gamma = 1.
 */
static int floor_walk(const st_hpt_input *in, double level, double precision,
                      double sup, hpt_below *B, double *speedup)
{
    double c;
    int st;
    double inv = 1.0 / precision;
    int whole = fabs(inv - nearbyint(inv)) < 1e-9 * inv;
    if (whole) inv = nearbyint(inv);
    double k = floor(sup / precision + 1e-9);
    int stuck = 0;            /* failures in a row that skipped nothing */
    /* k - 1 rounds back to k beyond 2^53 (a supremum of 1e297): step to
     * the next double below then */
    for (long iter = 0; iter < 1000000;
         iter++, k = k - 1.0 < k ? k - 1.0 : nextafter(k, 0.0)) {
        double s = whole ? k / inv : k * precision;
        if (s > sup) continue;
        if (s < 1.0) break;
        if (st_check_interrupt()) return ST_ERR_INTERRUPTED;
        st = direct_confidence(in, s, &c);
        if (st != ST_OK) return st;
        if (c >= level) {
            *speedup = s;
            break;
        }
        double u;
        st = passing_below(B, s, stuck, &u);
        if (st != ST_OK) return st;
        if (isnan(u)) break;
        stuck = u < s ? 0 : stuck + 1;
        if (u < s) {
            double kn = whole ? floor(u * inv) : floor(u / precision);
            if (kn < k - 1.0) k = kn + 1.0 > kn ? kn + 1.0 : nextafter(kn, INFINITY);
        }
    }
    if (isnan(*speedup)) {
        st = direct_confidence(in, 1.0, &c);
        if (st != ST_OK) return st;
        if (c >= level) *speedup = 1.0;
    }
    return ST_OK;
}

int st_hpt_speedup(const st_hpt_input *in, double level, double precision,
                   const st_hpt_speedup_options *opt, double *speedup,
                   double *supremum, int *attained)
{
    int method = opt && opt->every_candidate ? 1 : 0;
    *speedup = *supremum = NAN;
    *attained = 0;
    int st = check_input(in);
    if (st != ST_OK) return st;
    if (!(level > 0 && level < 1) || !(precision > 0 && precision <= 1))
        return ST_ERR_DOMAIN;
    if (in->exact_ties) method = 1;
    size_t n = in->n, mr = max_runs(in);
    if (method == 1 && (double) n * (double) n > HPT_MAX_POINTS)
        return ST_ERR_TOO_MANY;
    hpt_bench *bk = calloc(n, sizeof(hpt_bench));
    double *work = st_malloc(mr, sizeof(double));
    double *pts = NULL, *pts_sweep = NULL;
    double *d = NULL, *rank = NULL, *absd = NULL;
    size_t *perm = NULL;
    hpt_item *items = NULL;
    signed char *dec = NULL;
    if (!bk || !work) {
        st = ST_ERR_ALLOC;
        goto done;
    }
    size_t oa = 0, ob = 0;
    for (size_t i = 0; i < n; i++) {
        size_t na = in->a_len[i], nb = in->b_len[i];
        bk[i].ma = median_of(in->a + oa, na, work);
        bk[i].mb = median_of(in->b + ob, nb, work);
        oa += na;
        ob += nb;
    }
    if (in->exact_ties) {
        st = exact_benches(in, bk, work);
    } else {
        hpt_thresholds tc = {0, 0, 0.0, 0.0};
        oa = ob = 0;
        for (size_t i = 0; i < n && st == ST_OK; i++) {
            size_t na = in->a_len[i], nb = in->b_len[i];
            st = classical_events(in, in->a + oa, na, in->b + ob, nb, work,
                                  &tc, &bk[i]);
            oa += na;
            ob += nb;
            if (i % 256 == 255 && st_check_interrupt())
                st = ST_ERR_INTERRUPTED;
        }
    }
    if (st != ST_OK) goto done;
    hpt_below B = {method, NULL, 0, NULL};
    double sup;
    if (method == 1) {
        st = sweep_candidates(in, bk, level, &sup, attained, &pts_sweep,
                              &B.U);
        if (st != ST_OK) goto done;
        B.pts = pts_sweep;
    } else {
        /* the points: 1 and the events above it */
        size_t n_ev = 0;
        for (size_t i = 0; i < n; i++) n_ev += bk[i].n_ev;
        pts = st_malloc(n_ev + 1, sizeof(double));
        d = st_malloc(n, sizeof(double));
        rank = st_malloc(n, sizeof(double));
        absd = st_malloc(n, sizeof(double));
        perm = st_malloc(n, sizeof(size_t));
        items = st_malloc(n, sizeof(hpt_item));
        dec = malloc(n);
        if (!pts || !d || !rank || !absd || !perm || !items || !dec) {
            st = ST_ERR_ALLOC;
            goto done;
        }
        size_t np = 0;
        double big = 0.0;
        for (size_t i = 0; i < n; i++) {
            for (size_t e = 0; e < bk[i].n_ev; e++)
                if (bk[i].ev[e].g > 1.0) pts[np++] = bk[i].ev[e].g;
            double z = pair_ratio(bk[i].ma, bk[i].mb, in->higher_is_better);
            if (z > big) big = z;
        }
        qsort(pts, np, sizeof(double), cmp_double_asc);
        size_t u = 0;
        for (size_t k = 0; k < np; k++)
            if (u == 0 || pts[k] != pts[u - 1]) pts[u++] = pts[k];
        memmove(pts + 1, pts, u * sizeof(double));
        pts[0] = 1.0;
        for (size_t i = 0; i < n; i++) perm[i] = i;
        hpt_scan sc = {in, bk, d, rank, absd, perm, items};
        /* a crossing point is at most the larger median ratio of its
         * pair (up to rounding) */
        hpt_search S = {in, bk, n, pts, u + 1, level, rb_threshold(n, level),
                        INFINITY, 4.0 * big, &sc, items, dec};
        B.S = &S;
        st = search_below(&S, INFINITY, &sup, attained);
        if (st != ST_OK) goto done;
        *supremum = sup;
        if (!isnan(sup)) {
            if (isinf(sup)) *speedup = INFINITY;
            else st = floor_walk(in, level, precision, sup, &B, speedup);
        }
        goto done;
    }
    *supremum = sup;
    if (!isnan(sup)) {
        if (isinf(sup)) *speedup = INFINITY;
        else st = floor_walk(in, level, precision, sup, &B, speedup);
    }
done:
    free_benches(bk, n);
    free(work);
    free(pts);
    free(pts_sweep);
    free(d);
    free(rank);
    free(absd);
    free(perm);
    free(items);
    free(dec);
    return st;
}

/* ---- R entry points ----------------------------------------------------- */

#include "ffi.h"

static int ffi_hpt_input(SEXP a, SEXP a_len, SEXP b, SEXP b_len, SEXP higher,
                         SEXP alpha_bench, SEXP exact_ties, st_hpt_input *in,
                         size_t **la, size_t **lb)
{
    size_t na_all, nb_all;
    in->a = ffi_doubles(a, &na_all, "a");
    in->b = ffi_doubles(b, &nb_all, "b");
    if (TYPEOF(a_len) != INTSXP || TYPEOF(b_len) != INTSXP ||
        XLENGTH(a_len) != XLENGTH(b_len))
        Rf_error("`a_len` and `b_len` must be integer vectors of one length.");
    size_t n = (size_t) XLENGTH(a_len);
    in->n = n;
    in->higher_is_better = ffi_flag(higher, "higher_is_better");
    in->alpha_bench = ffi_double(alpha_bench, "alpha_bench");
    in->exact_ties = ffi_flag(exact_ties, "exact_ties");
    *la = (size_t *) R_alloc(n ? n : 1, sizeof(size_t));
    *lb = (size_t *) R_alloc(n ? n : 1, sizeof(size_t));
    size_t sa = 0, sb = 0;
    for (size_t i = 0; i < n; i++) {
        int x = INTEGER(a_len)[i], y = INTEGER(b_len)[i];
        if (x == NA_INTEGER || y == NA_INTEGER || x < 0 || y < 0)
            Rf_error("run counts must be non-negative integers.");
        (*la)[i] = (size_t) x;
        (*lb)[i] = (size_t) y;
        sa += (size_t) x;
        sb += (size_t) y;
    }
    if (sa != na_all || sb != nb_all)
        Rf_error("run counts do not add up to the number of values.");
    in->a_len = *la;
    in->b_len = *lb;
    return 0;
}

SEXP ffi_hpt(SEXP a, SEXP a_len, SEXP b, SEXP b_len, SEXP higher,
             SEXP alpha_bench, SEXP gamma, SEXP exact_ties)
{
    st_hpt_input in;
    size_t *la, *lb;
    ffi_hpt_input(a, a_len, b, b_len, higher, alpha_bench, exact_ties, &in,
                  &la, &lb);
    double g = ffi_double(gamma, "gamma");
    R_xlen_t n = (R_xlen_t) in.n;
    SEXP vals[14];
    for (int k = 0; k < 7; k++) vals[k] = PROTECT(Rf_allocVector(REALSXP, n));
    vals[7] = PROTECT(Rf_allocVector(INTSXP, n));
    st_hpt_result r;
    r.median_a = REAL(vals[0]);
    r.median_b = REAL(vals[1]);
    r.d = REAL(vals[2]);
    r.rank = REAL(vals[3]);
    r.w_a = REAL(vals[4]);
    r.p_a = REAL(vals[5]);
    r.p_b = REAL(vals[6]);
    r.winner = INTEGER(vals[7]);
    for (R_xlen_t i = 0; i < n; i++) r.winner[i] = 0;
    int st = st_hpt(&in, g, &r);
    vals[8] = PROTECT(Rf_ScalarReal(r.r_a));
    vals[9] = PROTECT(Rf_ScalarReal(r.r_b));
    vals[10] = PROTECT(Rf_ScalarReal(r.confidence));
    vals[11] = PROTECT(Rf_ScalarLogical(r.exact_bench));
    vals[12] = PROTECT(Rf_ScalarLogical(r.exact_overall));
    vals[13] = PROTECT(Rf_ScalarInteger(st));
    static const char *names[] = {
        "median_a", "median_b", "d", "rank", "w_a", "p_a", "p_b", "winner",
        "R_A", "R_B", "confidence", "exact_bench", "exact_overall", "status"
    };
    SEXP out = ffi_named_list(14, names, vals);
    UNPROTECT(14);
    return out;
}

SEXP ffi_hpt_speedup(SEXP a, SEXP a_len, SEXP b, SEXP b_len, SEXP higher,
                     SEXP alpha_bench, SEXP exact_ties, SEXP level,
                     SEXP precision, SEXP method)
{
    st_hpt_input in;
    size_t *la, *lb;
    ffi_hpt_input(a, a_len, b, b_len, higher, alpha_bench, exact_ties, &in,
                  &la, &lb);
    double speedup, sup;
    int attained;
    st_hpt_speedup_options opt = {ffi_flag(method, "method")};
    int st = st_hpt_speedup(&in, ffi_double(level, "confidence"),
                            ffi_double(precision, "precision"), &opt,
                            &speedup, &sup, &attained);
    SEXP vals[4];
    vals[0] = PROTECT(Rf_ScalarReal(speedup));
    vals[1] = PROTECT(Rf_ScalarReal(sup));
    vals[2] = PROTECT(Rf_ScalarLogical(attained));
    vals[3] = PROTECT(Rf_ScalarInteger(st));
    static const char *names[] = {"speedup", "supremum", "attained", "status"};
    SEXP out = ffi_named_list(4, names, vals);
    UNPROTECT(4);
    return out;
}
