/*
 * prob.c -- the probability protocol: is a run of the new code more likely
 * to be faster than a run of the initial code than not?  With X a run time
 * of the initial code and Y one of the new code, the relative effect
 *
 *   p = P[X > Y] + P[X = Y] / 2
 *
 * is 1/2 when neither tends to be faster, whatever the shapes and spreads
 * of the two laws; H1 is p > 1/2 (a speedup), its mirror p < 1/2 (a
 * slowdown).  Unlike the Wilcoxon-Mann-Whitney test of the median
 * protocol, the test needs no location-shift model and no equal spreads
 * (the Behrens-Fisher problem for ranks).
 *
 * The Brunner-Munzel statistic (Brunner and Munzel 2000).  With the
 * mid-ranks R_i of x_i in the pooled sample and R_i^(x) within x (and
 * likewise for y), the placement of x_i is P_i = R_i - R_i^(x), the number
 * of y values below x_i (ties one half); Q_j = R_j - R_j^(y) for y_j.  Then
 *
 *   p^ = mean(P) / m,
 *   v_x = sum (P_i - mean P)^2 / (n - 1),  v_y = sum (Q_j - mean Q)^2 / (m - 1),
 *   se^2 = v_x / (n m^2) + v_y / (m n^2),
 *   T = (p^ - 1/2) / se,
 *
 * and T is asymptotically t-distributed under p = 1/2 with the
 * Satterthwaite degrees of freedom
 *   df = (n v_x + m v_y)^2 / ((n v_x)^2 / (n - 1) + (m v_y)^2 / (m - 1)).
 *
 * Small samples: the studentized permutation test (Neubert and Brunner
 * 2007).  A studentized statistic is computed for every split of the
 * N = n + m pooled values into n and m (the pooled mid-ranks do not
 * change; only the ranks within each group do), and the one-sided
 * p-values are the shares of splits with a statistic at least (at most)
 * the observed one.  Any statistic gives a test that is exact at every
 * size when the two laws are equal; a studentized one is asymptotically
 * exact for p = 1/2 also when they differ in shape or spread.  It is used
 * whenever choose(N, n) <= ST_PROB_EXACT_MAX splits can be enumerated
 * (n = m = 10 and every smaller design); the t approximation beyond.
 *
 * The statistic permuted is the range-preserving one of the logit of p^
 * (Pauly, Asendorf and Konietschke 2016),
 *
 *   T_L = logit(p^) p^ (1 - p^) / se,
 *
 * the delta method's studentization of logit(p^) (its standard error is
 * se / (p^ (1 - p^))); T_L is infinite with the sign of p^ - 1/2 when p^
 * is 0 or 1 (the samples separate) or se = 0.  Under p = 1/2, p^ tends to
 * 1/2 and T_L / T to 1, in the sampling law and in the permutation law
 * alike, so the test keeps Neubert and Brunner's asymptotic exactness.  At
 * small sizes it holds the level where T does not: when one sample is
 * much more spread than the other, the placements of the other sample are
 * nearly 0 or n and se is that of a proportion estimated at p^, too small
 * when p^ is far from 1/2 (the Wald interval's flaw).  By simulation
 * (data-raw/simulate-prob.R, log-normal sd 1 % against sd 5 %, n = m =
 * 10, both orders) permuting T claimed a change in up to 6 % of A/A
 * comparisons per direction at alpha = 0.05, permuting T_L within alpha;
 * with equal laws the two tests have the same power.
 *
 * When se = 0 (the samples separate completely: every x above every y or
 * below), T is infinite: the p-value in that direction is then the
 * permutation probability of the observed ordering, 1 / choose(N, n), and
 * 1 in the other.
 *
 * The interval for p: p^ -+ t_{1 - alpha}(df) se, clipped to [0, 1]
 * (two-sided 1 - 2 alpha, each end a one-sided 1 - alpha bound, as the
 * other protocols' intervals).
 *
 * Tolerance: a margin d = s0 - 1 on the probability.  H1 of a speedup
 * beyond it is p > 1/2 + d, of a slowdown p < 1/2 - d, and equivalence is
 * the two one-sided tests of p < 1/2 + d and p > 1/2 - d (Schuirmann
 * 1987); each is the studentized statistic (p^ - p0) / se against the t
 * law above (the permutation law holds for p = 1/2 only).
 *
 * Paired twin, for runs taken in interleaved rounds: q = P[a round's new
 * run is faster] (ties one half), estimated by S / n with S the rounds
 * where x > y plus half the rounds where x = y, and the sign test of
 * q > 1/2 (Dixon and Mood 1946) with the ties split between the two signs:
 * the p-value P[B >= floor(S)] for B ~ Binomial(n, 1/2), conservative
 * with ties (S has a smaller spread than B under q = 1/2).  Its interval
 * is Clopper-Pearson's for S of n at 1 - 2 alpha.
 *
 * References:
 *   Brunner, E. and Munzel, U. (2000). The nonparametric Behrens-Fisher
 *     problem: asymptotic theory and a small-sample approximation.
 *     Biometrical Journal 42(1), 17-25.
 *   Neubert, K. and Brunner, E. (2007). A studentized permutation test for
 *     the non-parametric Behrens-Fisher problem. Computational Statistics
 *     and Data Analysis 51(10), 5192-5204.
 *   Pauly, M., Asendorf, T. and Konietschke, F. (2016). Permutation-based
 *     inference for the AUC: a unified approach for continuous and
 *     discontinuous data. Biometrical Journal 58(6), 1319-1337.
 *   Dixon, W. J. and Mood, A. M. (1946). The statistical sign test.
 *     Journal of the American Statistical Association 41(236), 557-566.
 *   Schuirmann, D. J. (1987). A comparison of the two one-sided tests
 *     procedure and the power approach for assessing the equivalence of
 *     average bioavailability. J. Pharmacokinetics and Biopharmaceutics
 *     15(6), 657-680.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <Rmath.h>
#include "speeduptest.h"

/* Fewer values than this in a sample: insufficient data, as the other
 * protocols. */
#define ST_PROB_MIN_RUNS 3

/* ---- the pooled sample and the statistic of a split ----------------------- */

/* The N pooled values in ascending order, as tie blocks: block b holds the
 * sorted positions start[b] .. start[b + 1] - 1, all of pooled mid-rank
 * rank[b]; from_x[k] is 1 when the value at sorted position k came from x. */
typedef struct {
    size_t N, n, m, nblocks;
    size_t *start;
    double *rank;
    unsigned char *from_x;
} prob_pool;

static void pool_free(prob_pool *p)
{
    free(p->start);
    free(p->rank);
    free(p->from_x);
    p->start = NULL;
    p->rank = NULL;
    p->from_x = NULL;
}

typedef struct {
    double v;
    unsigned char x;
} tagged;

static int cmp_tagged(const void *a, const void *b)
{
    double u = ((const tagged *) a)->v, w = ((const tagged *) b)->v;
    return (u > w) - (u < w);
}

static int pool_init(prob_pool *p, const double *x, size_t n, const double *y,
                     size_t m)
{
    size_t N = n + m;
    p->N = N;
    p->n = n;
    p->m = m;
    p->nblocks = 0;
    p->start = st_malloc(N + 1, sizeof(size_t));
    p->rank = st_malloc(N, sizeof(double));
    p->from_x = st_malloc(N, sizeof(unsigned char));
    tagged *t = st_malloc(N, sizeof(tagged));
    if (!p->start || !p->rank || !p->from_x || !t) {
        free(t);
        pool_free(p);
        return ST_ERR_ALLOC;
    }
    for (size_t i = 0; i < n; i++) {
        t[i].v = x[i];
        t[i].x = 1;
    }
    for (size_t j = 0; j < m; j++) {
        t[n + j].v = y[j];
        t[n + j].x = 0;
    }
    qsort(t, N, sizeof(tagged), cmp_tagged);
    size_t b = 0;
    for (size_t k = 0; k < N;) {
        size_t e = k + 1;
        while (e < N && t[e].v == t[k].v) e++;
        p->start[b] = k;
        /* mid-rank of positions k+1 .. e (1-based) */
        p->rank[b] = ((double) (k + 1) + (double) e) / 2.0;
        b++;
        k = e;
    }
    p->start[b] = N;
    p->nblocks = b;
    for (size_t k = 0; k < N; k++) p->from_x[k] = t[k].x;
    free(t);
    return ST_OK;
}

/* The Brunner-Munzel figures of a split: the first group (p->n members)
 * at the sorted positions idx[0] < ... < idx[n - 1].
 *
 * Mid-ranks are multiples of 1/2, so for the enumerated splits (small N)
 * the placements, their sums S1 and sums of squares S2 are exact in double
 * precision and the variances are formed in one pass as
 * (n S2 - S1^2) / (n (n - 1)): exactly 0 when the placements are equal,
 * and the same statistic for the same split whichever way it is reached.
 * With `precise` (the observed split of large samples, where n S2 may pass
 * 2^53) a second pass sums the squared deviations from the mean. */
typedef struct {
    double p_hat, vx, vy, se, df;
} bm_figures;

/* One walk over the blocks: the placement of the x and y members of each
 * block, handed to visit(). */
typedef struct {
    double s1p, s2p, s1q, s2q;    /* sums, or with centres the squared
                                     deviations from them                */
    double cp, cq;                /* centres (0: raw sums)                */
} bm_sums;

static void bm_walk(const prob_pool *p, const size_t *idx, bm_sums *z)
{
    size_t n = p->n, i = 0;
    double before_x = 0, before_y = 0;
    for (size_t b = 0; b < p->nblocks; b++) {
        size_t end = p->start[b + 1];
        double cx = 0;
        while (i < n && idx[i] < end) {
            cx += 1;
            i++;
        }
        double cy = (double) (end - p->start[b]) - cx;
        double r = p->rank[b];
        if (cx > 0) {
            double P = r - (before_x + (cx + 1) / 2) - z->cp;
            z->s1p += cx * P;
            z->s2p += cx * P * P;
        }
        if (cy > 0) {
            double Q = r - (before_y + (cy + 1) / 2) - z->cq;
            z->s1q += cy * Q;
            z->s2q += cy * Q * Q;
        }
        before_x += cx;
        before_y += cy;
    }
}

static void bm_of_split(const prob_pool *p, const size_t *idx, int precise,
                        bm_figures *f)
{
    double dn = (double) p->n, dm = (double) p->m;
    bm_sums z = {0, 0, 0, 0, 0, 0};
    bm_walk(p, idx, &z);
    f->p_hat = z.s1p / (dn * dm);
    double sp, sq;
    if (precise) {
        bm_sums d = {0, 0, 0, 0, z.s1p / dn, z.s1q / dm};
        bm_walk(p, idx, &d);
        sp = d.s2p * dn;
        sq = d.s2q * dm;
    } else {
        sp = dn * z.s2p - z.s1p * z.s1p;
        sq = dm * z.s2q - z.s1q * z.s1q;
    }
    f->vx = sp > 0 ? sp / (dn * (dn - 1)) : 0;
    f->vy = sq > 0 ? sq / (dm * (dm - 1)) : 0;
    double se2 = f->vx / (dn * dm * dm) + f->vy / (dm * dn * dn);
    f->se = se2 > 0 ? sqrt(se2) : 0;
    double a = dn * f->vx, c = dm * f->vy;
    double den = a * a / (dn - 1) + c * c / (dm - 1);
    f->df = den > 0 ? (a + c) * (a + c) / den : NAN;
}

/* The sorted positions of the x values (the observed split), as idx. */
static void observed_split(const prob_pool *p, size_t *idx)
{
    size_t i = 0;
    for (size_t k = 0; k < p->N; k++)
        if (p->from_x[k]) idx[i++] = k;
}

/* The studentized statistic of H0: p = p0 (infinite when se = 0 and
 * p^ != p0, 0 when both vanish). */
static double bm_stat(const bm_figures *f, double p0)
{
    double d = f->p_hat - p0;
    if (f->se > 0) return d / f->se;
    return d > 0 ? INFINITY : d < 0 ? -INFINITY : 0;
}

/* The range-preserving statistic permuted in small samples (see the
 * header): logit(p^) p^ (1 - p^) / se, from the sum s1p = n m p^ so that
 * the logit is exact; infinite with the sign of p^ - 1/2 when p^ is 0 or 1
 * or se = 0. */
static double bm_stat_logit(const bm_figures *f, double n, double m)
{
    double d = f->p_hat - 0.5;
    if (f->p_hat <= 0 || f->p_hat >= 1 || !(f->se > 0))
        return d > 0 ? INFINITY : d < 0 ? -INFINITY : 0;
    double s1 = f->p_hat * n * m;
    double logit = log(s1) - log(n * m - s1);
    return logit * f->p_hat * (1 - f->p_hat) / f->se;
}

/* ---- the test ---------------------------------------------------------- */

/* Splits enumerated at most (choose(N, n)); beyond, the t law. */
#define ST_PROB_EXACT_MAX 200000.0

typedef struct {
    bm_figures f;             /* of the observed split                   */
    double T;                 /* (p^ - 1/2) / se                          */
    double p_up, p_down;      /* one-sided p-values: p > 1/2, p < 1/2    */
    int exact;                /* 1: by the enumerated permutations       */
} bm_test;

/* The one-sided p-values of the t law at the statistic T (separation:
 * the permutation probability of the observed ordering). */
static void t_tails(const bm_figures *f, double T, double lchoose_Nn,
                    double *up, double *down)
{
    if (isinf(T)) {
        double extreme = exp(-lchoose_Nn);
        *up = T > 0 ? extreme : 1;
        *down = T < 0 ? extreme : 1;
        return;
    }
    if (f->se == 0) {          /* p^ = p0 with no spread: no evidence */
        *up = *down = 1;
        return;
    }
    *up = pt(T, f->df, 0, 0);
    *down = pt(T, f->df, 1, 0);
}

/* Two statistics equal up to rounding count as equal (ties of the
 * permutation law). */
static int at_least(double t, double t_obs)
{
    if (isinf(t_obs)) return t_obs < 0 || t == t_obs;
    return t >= t_obs - 1e-9 * (1 + fabs(t_obs));
}

static int at_most(double t, double t_obs)
{
    if (isinf(t_obs)) return t_obs > 0 || t == t_obs;
    return t <= t_obs + 1e-9 * (1 + fabs(t_obs));
}

static int bm_run(const prob_pool *p, bm_test *out)
{
    size_t N = p->N, n = p->n;
    size_t *idx = st_malloc(n, sizeof(size_t));
    if (!idx) return ST_ERR_ALLOC;
    double lc = lchoose((double) N, (double) n);
    out->exact = lc <= log(ST_PROB_EXACT_MAX);
    observed_split(p, idx);
    bm_of_split(p, idx, !out->exact, &out->f);
    out->T = bm_stat(&out->f, 0.5);
    int s = ST_OK;
    if (!out->exact) {
        t_tails(&out->f, out->T, lc, &out->p_up, &out->p_down);
    } else {
        /* every split: the n members of the first group at sorted
         * positions idx[0] < ... < idx[n - 1], in lexicographic order */
        double up = 0, down = 0, total = 0;
        double dn = (double) n, dm = (double) p->m;
        double t_obs = bm_stat_logit(&out->f, dn, dm);
        for (size_t i = 0; i < n; i++) idx[i] = i;
        for (;;) {
            bm_figures g;
            bm_of_split(p, idx, 0, &g);
            double t = bm_stat_logit(&g, dn, dm);
            up += at_least(t, t_obs);
            down += at_most(t, t_obs);
            total += 1;
            if (((size_t) total & 4095) == 0 && st_check_interrupt()) {
                s = ST_ERR_INTERRUPTED;
                break;
            }
            /* the next combination */
            size_t i = n;
            while (i > 0 && idx[i - 1] == N - n + i - 1) i--;
            if (i == 0) break;
            idx[i - 1]++;
            for (size_t j = i; j < n; j++) idx[j] = idx[j - 1] + 1;
        }
        out->p_up = up / total;
        out->p_down = down / total;
    }
    free(idx);
    return s;
}

/* The figures of the observed split alone (no permutations). */
static int bm_observed(const double *x, size_t n, const double *y, size_t m,
                       bm_figures *f)
{
    prob_pool p;
    int s = pool_init(&p, x, n, y, m);
    if (s != ST_OK) return s;
    size_t *idx = st_malloc(n, sizeof(size_t));
    if (!idx) {
        pool_free(&p);
        return ST_ERR_ALLOC;
    }
    observed_split(&p, idx);
    bm_of_split(&p, idx, 1, f);
    free(idx);
    pool_free(&p);
    return ST_OK;
}

/* ---- the protocol -------------------------------------------------------- */

/* 1 when every one of the n + m values is the same. */
static int all_equal(const double *x, size_t n, const double *y, size_t m)
{
    double v = n ? x[0] : y[0];
    for (size_t i = 0; i < n; i++) if (x[i] != v) return 0;
    for (size_t j = 0; j < m; j++) if (y[j] != v) return 0;
    return 1;
}

int st_prob_protocol(const double *x, size_t n, const double *y, size_t m,
                     double alpha, int rigorous,
                     const st_protocol_options *opt, st_verdict *out)
{
    (void) rigorous;            /* no model to check */
    int s = st_verdict_start(out, alpha, x, n, y, m);
    if (s != ST_OK) return s;
    int suite = opt && opt->suite;
    if (!suite && (s = st_verdict_observed(out, x, n, y, m)) != ST_OK)
        return s;
    out->speedup = out->speedup_median;
    if (n < ST_PROB_MIN_RUNS || m < ST_PROB_MIN_RUNS) {
        out->branch = ST_BRANCH_TOO_FEW_VALUES;
        out->caveats = ST_CAVEAT_TOO_FEW_VALUES;
        return ST_OK;
    }
    if (all_equal(x, n, y, m)) {
        out->branch = ST_BRANCH_CONSTANT;
        out->caveats = ST_CAVEAT_CONSTANT;
        return ST_OK;
    }
    prob_pool p;
    if ((s = pool_init(&p, x, n, y, m)) != ST_OK) return s;
    bm_test t;
    s = bm_run(&p, &t);
    pool_free(&p);
    if (s != ST_OK) return s;
    st_result r;
    st_result_init(&r);
    r.statistic = t.T;
    r.df[0] = t.f.df;
    r.p_value = t.p_up;
    r.estimate[0] = t.f.p_hat;
    r.exact = t.exact;
    r.status = ST_OK;
    if (alpha < 0.5) {
        double q = t.f.se > 0 ? qt(1 - alpha, t.f.df, 1, 0) : 0;
        double lo = t.f.p_hat - q * t.f.se, hi = t.f.p_hat + q * t.f.se;
        out->prob_ci[0] = lo < 0 ? 0 : lo;
        out->prob_ci[1] = hi > 1 ? 1 : hi;
        r.conf_int[0] = out->prob_ci[0];
        r.conf_int[1] = out->prob_ci[1];
    }
    out->n_steps = 1;
    out->step_kind[0] = ST_STEP_BRUNNER_MUNZEL;
    out->steps[0] = r;
    out->branch = t.exact ? ST_BRANCH_PROB_PERMUTATION : ST_BRANCH_PROB_T;
    out->guaranteed = 1;
    out->p_value = t.p_up;
    out->p_value_slowdown = t.p_down;
    out->prob_greater = t.f.p_hat;
    out->decision = t.p_up <= alpha ? ST_SIGNIFICANT : ST_NOT_SIGNIFICANT;
    return ST_OK;
}

/* Its decision is "p_up <= alpha" alone: the smallest significant alpha
 * is p_up itself (when at most 0.5). */
int st_prob_highest(const double *x, size_t n, const double *y, size_t m,
                    int rigorous, st_cache *cache, double *alpha)
{
    (void) cache;
    *alpha = NAN;
    st_verdict v;
    st_protocol_options opt = {0};
    opt.suite = 1;
    int s = st_prob_protocol(x, n, y, m, 0.5, rigorous, &opt, &v);
    if (s != ST_OK) return s;
    if (v.decision == ST_SIGNIFICANT) *alpha = v.p_value;
    return ST_OK;
}

/* The four tests at the margin d = s0 - 1 (see the header). */
int st_tolerance_prob(const double *x, size_t n, const double *y, size_t m,
                      int pooled, double alpha, double s0, double p[4])
{
    (void) pooled;
    (void) alpha;
    p[0] = p[1] = p[2] = p[3] = NAN;
    if (n < 2 || m < 2) return ST_ERR_TOO_FEW;
    if (!(s0 > 0) || !isfinite(s0)) return ST_ERR_DOMAIN;
    if (all_equal(x, n, y, m)) return ST_ERR_CONSTANT;
    bm_figures f;
    int s = bm_observed(x, n, y, m, &f);
    if (s != ST_OK) return s;
    double d = s0 - 1, lc = lchoose((double) (n + m), (double) n), dummy;
    /* speedup beyond the margin, and not more than it faster */
    double T = bm_stat(&f, 0.5 + d);
    t_tails(&f, T, lc, &p[0], &p[2]);
    /* slowdown beyond it, and not more than it slower */
    T = bm_stat(&f, 0.5 - d);
    t_tails(&f, T, lc, &dummy, &p[1]);
    t_tails(&f, T, lc, &p[3], &dummy);
    return ST_OK;
}

/* ---- the paired twin ------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double u = *(const double *) a, v = *(const double *) b;
    return (u > v) - (u < v);
}

int st_paired_prob(const double *x, const double *y, size_t n, double alpha,
                   int rigorous, st_verdict *out)
{
    (void) rigorous;
    int s = st_verdict_start(out, alpha, x, n, y, n);
    if (s != ST_OK) return s;
    st_verdict_observed(out, x, n, y, n);
    if (n < ST_PROB_MIN_RUNS) {
        out->caveats = ST_CAVEAT_TOO_FEW_VALUES;
        return ST_OK;
    }
    double *r = st_malloc(n, sizeof(double));
    if (!r) return ST_ERR_ALLOC;
    double pos = 0, neg = 0;
    for (size_t i = 0; i < n; i++) {
        pos += x[i] > y[i];
        neg += x[i] < y[i];
        r[i] = x[i] / y[i];
    }
    qsort(r, n, sizeof(double), cmp_double);
    out->speedup = st_median_sorted(r, n);
    free(r);
    double dn = (double) n, ties = dn - pos - neg;
    double S = pos + ties / 2, Sd = neg + ties / 2;
    /* P[B >= floor(S)], B ~ Binomial(n, 1/2) */
    double up = pbinom(floor(S) - 1, dn, 0.5, 0, 0);
    double down = pbinom(floor(Sd) - 1, dn, 0.5, 0, 0);
    st_result t;
    st_result_init(&t);
    t.statistic = S;
    t.p_value = up;
    t.estimate[0] = S / dn;
    t.exact = 1;
    t.status = ST_OK;
    if (alpha < 0.5) {
        st_result ci;
        if (st_proportion_ci(S, dn, 1 - 2 * alpha, ST_PROP_CLOPPER_PEARSON,
                             &ci) == ST_OK) {
            out->prob_ci[0] = t.conf_int[0] = ci.conf_int[0];
            out->prob_ci[1] = t.conf_int[1] = ci.conf_int[1];
        }
    }
    out->n_steps = 1;
    out->step_kind[0] = ST_STEP_SIGN_TEST;
    out->steps[0] = t;
    out->branch = ST_BRANCH_PAIRED_SIGN;
    out->guaranteed = 1;
    out->p_value = up;
    out->p_value_slowdown = down;
    out->prob_greater = S / dn;
    out->decision = up <= alpha ? ST_SIGNIFICANT : ST_NOT_SIGNIFICANT;
    return ST_OK;
}
