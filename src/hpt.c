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
 */
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

/* Largest DP table (entries) for the exact conditional distributions. */
#define HPT_MAX_TABLE 20000000.0

/* Most benchmarks squared for hpt_speedup(): its candidate gammas include
 * one or two points per pair of benchmarks (8 bytes each, twice while
 * they are sorted). */
#define HPT_MAX_POINTS 1.6e8

/* Most pairs of runs of one benchmark whose breakpoints hpt_speedup()
 * lists (32 bytes each while the benchmark is summarised). */
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
 * Exact conditional null distribution of a mid-rank sum.  Under H0 the k
 * values of one sample are a random k-subset of the N pooled values, so
 * with tie groups of sizes t_g and doubled mid-ranks q_g (integers) the
 * number of subsets with doubled sum s satisfies the recursion over groups
 *   f_g(j, s) = sum_c C(t_g, c) f_{g-1}(j - c, s - c q_g).
 * Counts are kept as doubles (exact up to 2^53, then relative error of
 * order 1e-16) and divided by C(N, k) at the end.  Returns
 * P(S >= s_obs) in *upper and P(S <= s_obs) in *lower.
 */
static int ranksum_conditional(const double *rank, const int *in_sample,
                               size_t N, size_t k, double *upper,
                               double *lower)
{
    long *q = malloc((N ? N : 1) * sizeof(long));
    if (!q) return ST_ERR_ALLOC;
    long s_obs = 0, s_max = 0;
    for (size_t i = 0; i < N; i++) {
        q[i] = lround(2.0 * rank[i]);
        if (in_sample[i]) s_obs += q[i];
        s_max += q[i];
    }
    /* sort doubled ranks (insertion sort is enough for the sizes allowed) */
    for (size_t i = 1; i < N; i++) {
        long v = q[i];
        size_t j = i;
        while (j > 0 && q[j - 1] > v) {
            q[j] = q[j - 1];
            j--;
        }
        q[j] = v;
    }
    double cells = ((double) k + 1.0) * ((double) s_max + 1.0);
    if (cells > HPT_MAX_TABLE) {
        free(q);
        return ST_ERR_TOO_MANY;
    }
    size_t width = (size_t) s_max + 1;
    double *f = calloc((k + 1) * width, sizeof(double));
    double *binom = malloc((N + 1) * sizeof(double));
    if (!f || !binom) {
        free(q);
        free(f);
        free(binom);
        return ST_ERR_ALLOC;
    }
    f[0] = 1.0;
    long reach = 0;             /* largest sum reachable so far */
    size_t seen = 0;            /* values processed so far      */
    size_t g = 0;
    while (g < N) {
        size_t h = g + 1;
        while (h < N && q[h] == q[g]) h++;
        size_t t = h - g;
        long qg = q[g];
        binom[0] = 1.0;
        for (size_t c = 1; c <= t; c++)
            binom[c] = binom[c - 1] * (double) (t - c + 1) / (double) c;
        size_t jmax = seen + t < k ? seen + t : k;
        for (size_t jj = jmax + 1; jj-- > 0;) {
            double *row = f + jj * width;
            size_t cmax = t < jj ? t : jj;
            for (long s = reach + (long) cmax * qg; s >= 0; s--) {
                double acc = row[s];
                for (size_t c = 1; c <= cmax; c++) {
                    long ss = s - (long) c * qg;
                    if (ss < 0) break;
                    acc += binom[c] * f[(jj - c) * width + (size_t) ss];
                }
                row[s] = acc;
            }
        }
        reach += (long) t * qg;
        if (reach > s_max) reach = s_max;
        seen += t;
        g = h;
    }
    double total = 0.0, up = 0.0, lo = 0.0;
    const double *last = f + k * width;
    for (long s = 0; s <= s_max; s++) {
        total += last[s];
        if (s >= s_obs) up += last[s];
        if (s <= s_obs) lo += last[s];
    }
    *upper = fmin(1.0, up / total);
    *lower = fmin(1.0, lo / total);
    free(q);
    free(f);
    free(binom);
    return ST_OK;
}

/*
 * One benchmark from its pooled oriented values v (A's first, then B's;
 * larger = better).  *w = Mann-Whitney count of A with mid-ranks.
 */
static int bench_test(const double *v, size_t na, size_t nb, int exact_ties,
                      double *w, double *p_a, double *p_b, int *exact)
{
    size_t N = na + nb;
    double *rank = malloc(N * sizeof(double));
    int *in_a = malloc(N * sizeof(int));
    if (!rank || !in_a) {
        free(rank);
        free(in_a);
        return ST_ERR_ALLOC;
    }
    double tie_term = 0.0;
    int st = st_midranks(v, N, rank, &tie_term);
    if (st != ST_OK) {
        free(rank);
        free(in_a);
        return st;
    }
    double ra = 0.0;
    for (size_t i = 0; i < na; i++) ra += rank[i];
    *w = ra - (double) na * (double) (na + 1) / 2.0;
    if (exact_ties && tie_term > 0) {
        /* the smaller sample is the subset whose sum is enumerated;
         * B's sum large is A's sum small */
        int use_a = na <= nb;
        for (size_t i = 0; i < N; i++) in_a[i] = use_a ? (i < na) : (i >= na);
        double up, lo;
        st = ranksum_conditional(rank, in_a, N, use_a ? na : nb, &up, &lo);
        if (st == ST_OK) {
            *p_a = use_a ? up : lo;
            *p_b = use_a ? lo : up;
            *exact = 1;
        }
    } else if (exact_ties) {
        /* without ties the conditional law is the no-ties law */
        *p_a = pwilcox(*w - 1.0, (double) na, (double) nb, 0, 0);
        *p_b = pwilcox((double) na * (double) nb - *w - 1.0, (double) nb,
                       (double) na, 0, 0);
        *exact = 1;
    } else {
        ranksum_p_classical(*w, na, nb, p_a, p_b, exact);
    }
    free(rank);
    free(in_a);
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
    hpt_item *it = malloc((n ? n : 1) * sizeof(hpt_item));
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
 * P(R_B* <= R_B) = P(T <= T_obs) with T the sum of the doubled ranks q_i
 * of the negative non-zero d's, distributed by the DP
 *   P_i(s) = (P_{i-1}(s) + P_{i-1}(s - q_i)) / 2.
 */
static int overall_conditional(size_t n, const double *d, const double *rank,
                               double *p_lower)
{
    long total = 0, t_obs = 0;
    for (size_t i = 0; i < n; i++) {
        if (d[i] == 0) continue;
        long q = lround(2.0 * rank[i]);
        total += q;
        if (d[i] < 0) t_obs += q;
    }
    if ((double) total + 1.0 > HPT_MAX_TABLE) return ST_ERR_TOO_MANY;
    double *p = calloc((size_t) total + 1, sizeof(double));
    if (!p) return ST_ERR_ALLOC;
    p[0] = 1.0;
    long reach = 0;
    for (size_t i = 0; i < n; i++) {
        if (d[i] == 0) continue;
        long q = lround(2.0 * rank[i]);
        for (long s = reach + q; s >= 0; s--) {
            double inc = s >= q ? p[s - q] : 0.0;
            p[s] = (p[s] + inc) / 2.0;
        }
        reach += q;
    }
    double acc = 0.0;
    for (long s = 0; s <= t_obs && s <= total; s++) acc += p[s];
    *p_lower = fmin(1.0, acc);
    free(p);
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
    double *v = malloc(mr * sizeof(double));
    double *work = malloc(mr * sizeof(double));
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
 * confidence is evaluated at every such point and once inside every open
 * interval between two consecutive points, from the top down: the first
 * point or interval reaching r gives the supremum (attained at a point, or
 * the open right end of an interval).  Nothing here assumes the confidence
 * is monotone in gamma (it is in the classical test when every significant
 * benchmark's medians agree with its winner, since every d then decreases
 * with gamma and R_B is a count of Walsh averages).
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

/* The classical per-benchmark decision is a function of the Mann-Whitney
 * count W (a multiple of 1/2 in [0, na nb]) and the sizes only, so
 * hpt_speedup() keeps it in a table by 2 W for the sizes last seen: the
 * benchmarks of a suite usually share their sizes, and each decision is
 * then computed once instead of once per breakpoint of every benchmark.
 * The entries are the same function at the same W, so nothing changes. */
typedef struct {
    size_t na, nb, len;
    signed char *dec;         /* 2 = not yet computed */
} hpt_dec_cache;

static int classical_decision(hpt_dec_cache *dc, double w, size_t na,
                              size_t nb, double alpha)
{
    double pa, pb;
    int ex;
    size_t i = (size_t) (2.0 * w);
    if (dc && dc->dec && dc->na == na && dc->nb == nb && i < dc->len &&
        (double) i == 2.0 * w) {
        if (dc->dec[i] == 2) {
            ranksum_p_classical(w, na, nb, &pa, &pb, &ex);
            dc->dec[i] = (signed char) decide(pa, pb, alpha);
        }
        return dc->dec[i];
    }
    ranksum_p_classical(w, na, nb, &pa, &pb, &ex);
    return decide(pa, pb, alpha);
}

static int dec_cache_prepare(hpt_dec_cache *dc, size_t na, size_t nb)
{
    if (dc->dec && dc->na == na && dc->nb == nb) return ST_OK;
    free(dc->dec);
    dc->dec = NULL;
    size_t len = 2 * na * nb + 1;
    dc->dec = malloc(len);
    if (!dc->dec) return ST_ERR_ALLOC;
    memset(dc->dec, 2, len);
    dc->na = na;
    dc->nb = nb;
    dc->len = len;
    return ST_OK;
}

static int bench_events(const st_hpt_input *in, const double *a, size_t na,
                        const double *b, size_t nb, double *v, hpt_bench *bk,
                        hpt_dec_cache *dc)
{
    int higher = in->higher_is_better;
    double cells = (double) na * (double) nb;
    if (cells > HPT_MAX_PAIRS) return ST_ERR_TOO_MANY;
    size_t K = na * nb;
    double *g = malloc(K * sizeof(double));
    if (!g) return ST_ERR_ALLOC;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++) g[i * nb + j] = pair_ratio(a[i], b[j], higher);
    qsort(g, K, sizeof(double), cmp_double_asc);
    /* distinct values in place, with multiplicities */
    size_t *cnt = malloc(K * sizeof(size_t));
    hpt_event *ev = malloc(K * sizeof(hpt_event));
    if (!cnt || !ev) {
        free(g);
        free(cnt);
        free(ev);
        return ST_ERR_ALLOC;
    }
    size_t U = 0;
    for (size_t k = 0; k < K;) {
        size_t h = k + 1;
        while (h < K && g[h] == g[k]) h++;
        g[U] = g[k];
        cnt[U] = h - k;
        U++;
        k = h;
    }
    int st = ST_OK, ex;
    signed char *dec_iv = malloc(U + 1);
    signed char *dec_pt = malloc(U ? U : 1);
    if (!dec_iv || !dec_pt) {
        st = ST_ERR_ALLOC;
        goto out;
    }
    /* interval u is (g[u-1], g[u]); W = # ratios above it; at the point
     * g[u] the cnt[u] equal ratios count one half each */
    double above = (double) K, w, pa, pb;
    /* with exact_ties the decisions below gamma = 1 are never asked for and
     * are not computed: they are set afterwards to the decision of the
     * first interval that is, so that they create no event */
    size_t first = U;
    for (size_t u = 0; u <= U; u++) {
        int need_iv = !in->exact_ties || u == U || g[u] > 1.0;
        int need_pt = u < U && (!in->exact_ties || g[u] >= 1.0);
        if (need_iv && first == U) first = u;
        if (need_iv) {
            if (in->exact_ties) {
                double rep = U == 0 ? 1.0
                           : u == 0 ? g[0] / 2.0
                           : u == U ? g[U - 1] * 2.0
                           : g[u - 1] + (g[u] - g[u - 1]) / 2.0;
                bench_values(a, na, b, nb, higher, rep, 0, v);
                st = bench_test(v, na, nb, 1, &w, &pa, &pb, &ex);
                if (st != ST_OK) goto out;
                dec_iv[u] = (signed char) decide(pa, pb, in->alpha_bench);
            } else {
                dec_iv[u] = (signed char) classical_decision(
                    dc, above, na, nb, in->alpha_bench);
            }
        }
        if (u == U) break;
        if (need_pt) {
            if (in->exact_ties) {
                bench_values(a, na, b, nb, higher, g[u], 1, v);
                st = bench_test(v, na, nb, 1, &w, &pa, &pb, &ex);
                if (st != ST_OK) goto out;
                dec_pt[u] = (signed char) decide(pa, pb, in->alpha_bench);
            } else {
                dec_pt[u] = (signed char) classical_decision(
                    dc, above - (double) cnt[u] / 2.0, na, nb,
                    in->alpha_bench);
            }
        }
        above -= (double) cnt[u];
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
    free(cnt);
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
    double *buf = malloc(7 * n * sizeof(double));
    int *win = malloc(n * sizeof(int));
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
 * the middle of (pts[k - 1], pts[k]), k = (pos + 1) / 2, computed as the
 * scan has always computed it. */
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
    double *buf = malloc(n * sizeof(double));
    size_t *count = malloc(65536 * sizeof(size_t));
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

int st_hpt_speedup(const st_hpt_input *in, double level, double precision,
                   double *speedup, double *supremum, int *attained)
{
    *speedup = *supremum = NAN;
    *attained = 0;
    int st = check_input(in);
    if (st != ST_OK) return st;
    if (!(level > 0 && level < 1) || !(precision > 0 && precision <= 1))
        return ST_ERR_DOMAIN;
    size_t n = in->n, mr = max_runs(in);
    double n_pairs = (double) n * (double) n;
    if (n_pairs > HPT_MAX_POINTS) return ST_ERR_TOO_MANY;
    hpt_bench *bk = calloc(n, sizeof(hpt_bench));
    double *v = malloc(mr * sizeof(double));
    double *work = malloc(mr * sizeof(double));
    double *d = malloc(n * sizeof(double));
    double *rank = malloc(n * sizeof(double));
    double *absd = malloc(n * sizeof(double));
    size_t *perm = malloc(n * sizeof(size_t));
    hpt_item *items = malloc(n * sizeof(hpt_item));
    double *pts = NULL;
    unsigned char *is_event = NULL;
    hpt_dec_cache dc = {0, 0, 0, NULL};
    if (!bk || !v || !work || !d || !rank || !absd || !perm || !items) {
        st = ST_ERR_ALLOC;
        goto done;
    }
    size_t oa = 0, ob = 0, n_ev = 0;
    if (in->exact_ties) {
        /* refuse up front when the exact conditional decisions at every
         * breakpoint >= 1 would take too long: one DP of about
         * N k N (N + 1) / 2 cells per breakpoint (the intervals without
         * ties use the no-ties law and cost nothing) */
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
        if (dp_work > HPT_MAX_WORK) {
            st = ST_ERR_TOO_MANY;
            goto done;
        }
        oa = ob = 0;
    }
    for (size_t i = 0; i < n; i++) {
        size_t na = in->a_len[i], nb = in->b_len[i];
        const double *a = in->a + oa, *b = in->b + ob;
        bk[i].ma = median_of(a, na, work);
        bk[i].mb = median_of(b, nb, work);
        if (!in->exact_ties) {
            st = dec_cache_prepare(&dc, na, nb);
            if (st != ST_OK) goto done;
        }
        st = bench_events(in, a, na, b, nb, v, &bk[i], &dc);
        if (st != ST_OK) goto done;
        n_ev += bk[i].n_ev;
        oa += na;
        ob += nb;
    }
    /* candidate points: 1, events, zero crossings, |d_i| = |d_k| */
    size_t cap = 1 + n_ev + n + n * (n - 1);
    pts = malloc(cap * sizeof(double));
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
    double sup = NAN;
    if (c >= level) {
        *supremum = INFINITY;
        *speedup = INFINITY;
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
        sup = pts[(found + 1) / 2];
        *attained = found % 2 == 0;
    }
    *supremum = sup;
    if (isnan(sup)) goto done;
    /*
     * Report the largest multiple of precision, at most the supremum, at
     * which st_hpt itself (as hpt(speedup = value) computes it) reaches
     * the level.  When 1 / precision is an integer the value is k / inv,
     * the double nearest the decimal, so that the printed number is the
     * one checked.  The walk is bounded; it stops at gamma = 1.
     */
    double inv = 1.0 / precision;
    int whole = fabs(inv - nearbyint(inv)) < 1e-9 * inv;
    if (whole) inv = nearbyint(inv);
    double k = floor(sup / precision + 1e-9);
    /* k - 1 rounds back to k beyond 2^53 (a supremum of 1e297, found by
     * fuzzing, walked a million times on the spot): step to the next
     * double below then */
    for (long iter = 0; iter < 1000000;
         iter++, k = k - 1.0 < k ? k - 1.0 : nextafter(k, 0.0)) {
        double s = whole ? k / inv : k * precision;
        if (s > sup) continue;
        if (s < 1.0) break;
        if (st_check_interrupt()) {
            st = ST_ERR_INTERRUPTED;
            goto done;
        }
        st = direct_confidence(in, s, &c);
        if (st != ST_OK) goto done;
        if (c >= level) {
            *speedup = s;
            break;
        }
        /* the confidence is the same everywhere strictly between two
         * consecutive candidate points (what the sweep relies on): skip
         * the multiples left in the interval that holds s */
        size_t lo = 0, hi = U;            /* first point >= s */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (pts[mid] < s) lo = mid + 1;
            else hi = mid;
        }
        if (lo > 0 && lo < U && pts[lo] > s) {
            double kn = whole ? floor(pts[lo - 1] * inv)
                              : floor(pts[lo - 1] / precision);
            if (kn < k - 1.0) k = kn + 1.0 > kn ? kn + 1.0 : nextafter(kn, INFINITY);
        }
    }
    if (isnan(*speedup)) {
        st = direct_confidence(in, 1.0, &c);
        if (st != ST_OK) goto done;
        if (c >= level) *speedup = 1.0;
    }
done:
    free_benches(bk, n);
    free(v);
    free(work);
    free(d);
    free(rank);
    free(absd);
    free(perm);
    free(items);
    free(pts);
    free(is_event);
    free(dc.dec);
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
                     SEXP precision)
{
    st_hpt_input in;
    size_t *la, *lb;
    ffi_hpt_input(a, a_len, b, b_len, higher, alpha_bench, exact_ties, &in,
                  &la, &lb);
    double speedup, sup;
    int attained;
    int st = st_hpt_speedup(&in, ffi_double(level, "confidence"),
                            ffi_double(precision, "precision"), &speedup,
                            &sup, &attained);
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
