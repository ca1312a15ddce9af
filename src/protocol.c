/*
 * protocol.c -- the Speedup-Test protocols for the mean and the median
 * execution time (Touati, Worms and Briais 2013, Figures 1 and 2), as the
 * package's SPEC (sections 2-4) settles them, the observed speedups, an
 * interval for the speedup itself, and the highest confidence level at
 * which a protocol declares a speedup.
 *
 * Mean (Fig. 1): Shapiro-Wilk on x and y at alpha; a sample that is not
 * shown normal (p <= alpha, constant, or more than 5000 values) with at
 * most 30 runs stops the rigorous protocol ("insufficient data"); then a
 * two-sided F-test of equal variances at alpha chooses Student's pooled
 * t-test (p > alpha) or Welch's (p <= alpha) for H0: mu_X <= mu_Y against
 * Ha: mu_X > mu_Y.  The confidence is guaranteed only when both samples
 * were shown normal.
 *
 * Median (Fig. 2): two-sided Kolmogorov-Smirnov test of x - med(x) against
 * y - med(y) (the location-shift model); rejected with n <= 30 or m <= 30
 * stops the rigorous protocol; then the one-sided Wilcoxon-Mann-Whitney
 * test, Ha: X tends to be larger than Y.  The confidence is guaranteed
 * only when the location model was not rejected.
 *
 * Slowdown: on the same path, the mirrored one-sided final test (the
 * t-test's other tail; the rank-sum test with Ha: Y tends to be larger,
 * exact with ties whenever the speedup test is) gives p_value_slowdown; a
 * slowdown is declared when it is <= alpha, each claim at risk alpha.
 *
 * Every decision compares p <= alpha.  A sample with fewer than 3 values,
 * or no variability at all, gives "insufficient data".
 *
 * References:
 *   Touati, S.-A.-A., Worms, J. and Briais, S. (2013). The Speedup-Test:
 *     a statistical methodology for programme speedup analysis and
 *     computation. Concurrency and Computation: Practice and Experience
 *     25(10), 1410-1426.
 *   Fieller, E. C. (1954). Some problems in interval estimation. Journal
 *     of the Royal Statistical Society B 16(2), 175-185.
 *   Hodges, J. L. and Lehmann, E. L. (1963). Estimates of location based
 *     on rank tests. Annals of Mathematical Statistics 34(2), 598-611.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <Rmath.h>
#include "speeduptest.h"
#include "cache.h"

/* "A sample is large when its size exceeds 30" (paper, section 3.1.3). */
#define ST_SMALL_RUNS 30
/* Royston's Shapiro-Wilk algorithm covers 3 <= n <= 5000. */
#define ST_SW_MAX 5000
/* Fewer values than this: insufficient data, no test is run. */
#define ST_MIN_RUNS 3

/* ---- shared pieces ------------------------------------------------------- */

static void verdict_init(st_verdict *v, double alpha)
{
    v->decision = ST_INSUFFICIENT;
    v->branch = ST_BRANCH_TOO_FEW_VALUES;
    v->guaranteed = 0;
    v->alpha = alpha;
    v->p_value = NAN;
    v->p_value_slowdown = NAN;
    v->speedup = NAN;
    v->speedup_min = v->speedup_mean = v->speedup_median = NAN;
    v->speedup_ci[0] = v->speedup_ci[1] = NAN;
    v->speedup_estimate = NAN;
    v->speedup_ci_level = NAN;
    v->prob_greater = NAN;
    v->prob_ci[0] = v->prob_ci[1] = NAN;
    v->shift = NAN;
    v->shift_ci[0] = v->shift_ci[1] = NAN;
    v->n_steps = 0;
    for (int i = 0; i < ST_MAX_STEPS; i++) {
        v->step_kind[i] = ST_STEP_SHAPIRO_X;
        st_result_init(&v->steps[i]);
    }
    v->caveats = 0;
}

static void add_step(st_verdict *v, st_step_kind kind, const st_result *r)
{
    if (v->n_steps >= ST_MAX_STEPS) return;
    v->step_kind[v->n_steps] = kind;
    v->steps[v->n_steps] = *r;
    v->n_steps++;
}

/* Run times must be finite and positive: the speedups are ratios. */
static int check_times(const double *x, size_t n)
{
    if (n > 0 && !x) return ST_ERR_DOMAIN;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]) || x[i] <= 0) return ST_ERR_DOMAIN;
    return ST_OK;
}

static int check_input(const double *x, size_t n, const double *y, size_t m)
{
    /* n + m values are copied at most twice into double buffers. */
    if (n > SIZE_MAX / 4 / sizeof(double) ||
        m > SIZE_MAX / 4 / sizeof(double) - n)
        return ST_ERR_TOO_MANY;
    int s = check_times(x, n);
    return s != ST_OK ? s : check_times(y, m);
}

int st_verdict_start(st_verdict *v, double alpha, const double *x, size_t n,
                     const double *y, size_t m)
{
    verdict_init(v, alpha);
    if (!(alpha > 0 && alpha < 1)) return ST_ERR_DOMAIN;
    return check_input(x, n, y, m);
}

/*
 * The level asked of the exact rank intervals beside a decision.  The
 * decision rejects when p <= alpha; the interval's one-sided end of rank k
 * excludes the boundary exactly when P(W <= k - 1) < a (qwilcox, as
 * wilcox.test), which misses the law's atoms at a itself (3 against 3 at
 * alpha = 0.1: P(W <= 1) = 0.1 is significant, yet its bound was taken at
 * rank 1).  Asking 1 - 2 alpha (1 + 1e-9) takes the largest k with
 * P(W <= k - 1) <= alpha up to rounding, so that end and decision are one
 * test; the level is reported as 1 - 2 alpha (st_attained_level).
 */
double st_decision_conf(double alpha)
{
    return 1 - 2 * alpha * (1 + 1e-9);
}

/* The level an exact rank interval asked st_decision_conf(alpha) has:
 * 1 - 2 alpha, or its law's own level when that falls short (too few
 * units: the ends are the extreme order statistics); achieved NAN (the
 * normal law): 1 - 2 alpha. */
double st_attained_level(double achieved, double alpha)
{
    double want = 1 - 2 * alpha;
    return !isnan(achieved) && achieved < want - 1e-8 ? achieved : want;
}

/* The confidence level of the intervals shown with the steps: 1 - alpha,
 * kept below 1 when alpha is so small that 1 - alpha rounds to 1 (the
 * component tests refuse a level of 1; the decision never uses it). */
static double conf_of(double alpha)
{
    double conf = 1 - alpha;
    return conf < 1 ? conf : nextafter(1.0, 0.0);
}

/* means: the means of x and y already computed (st_mean), or NULL */
static int observed_speedups(const double *x, size_t n, const double *y,
                             size_t m, const double *means,
                             double speedups[3])
{
    speedups[0] = speedups[1] = speedups[2] = NAN;
    if (n == 0 || m == 0) return ST_OK;
    /* the minima and medians by selection: the values a sort gives */
    double xmin, ymin;
    double xmed = st_median_select(x, n, &xmin);
    double ymed = st_median_select(y, m, &ymin);
    if (isnan(xmed) || isnan(ymed)) return ST_ERR_ALLOC;
    speedups[0] = xmin / ymin;
    speedups[1] = means ? means[0] / means[1] : st_mean(x, n) / st_mean(y, m);
    speedups[2] = xmed / ymed;
    return ST_OK;
}

int st_observed_speedups(const double *x, size_t n, const double *y,
                         size_t m, double speedups[3])
{
    return observed_speedups(x, n, y, m, NULL, speedups);
}

int st_verdict_observed_means(st_verdict *v, const double *x, size_t n,
                              const double *y, size_t m,
                              const double *means)
{
    double s[3];
    int status = observed_speedups(x, n, y, m, means, s);
    v->speedup_min = s[0];
    v->speedup_mean = s[1];
    v->speedup_median = s[2];
    return status;
}

int st_verdict_observed(st_verdict *v, const double *x, size_t n,
                        const double *y, size_t m)
{
    return st_verdict_observed_means(v, x, n, y, m, NULL);
}

/* The decision a protocol takes at one alpha, from sub-test results. */
typedef struct {
    st_decision decision;
    int branch;
    int guaranteed;
    unsigned caveats;
    int final;                /* mean: 1 Student, 0 Welch; -1 not reached */
} st_path;

/* ---- the mean (Fig. 1) ----------------------------------------------------- */

typedef struct {
    int too_few, both_constant;
    int checked[2];           /* Shapiro-Wilk could be run on x, y       */
    st_result sw[2];
    st_result f;
    st_result t[2];           /* [0] Welch, [1] Student (pooled)         */
    st_result tl[2];          /* the same, other tail (slowdown)         */
    double mean[2], var[2];   /* of x and y, computed once               */
} mean_parts;

/* xs: x sorted ascending, or NULL; cache (may be NULL) keeps the
 * Shapiro-Wilk constants of each sample size */
static int shapiro_part(const double *x, const double *xs, size_t n,
                        st_result *r, int *checked, st_cache *cache)
{
    st_result_init(r);
    *checked = 0;
    if (st_is_constant(x, n)) {
        r->status = ST_ERR_CONSTANT;
        return ST_OK;
    }
    if (n > ST_SW_MAX) {
        r->status = ST_ERR_TOO_MANY;
        return ST_OK;
    }
    st_shapiro_options opt = {xs != NULL, cache};
    int s = st_shapiro_wilk(xs ? xs : x, n, &opt, r);
    if (ST_FATAL(s)) return s;
    *checked = s == ST_OK && !isnan(r->p_value);
    return ST_OK;
}

/*
 * Runs every sub-test the flowchart may need, once; which of them the
 * decision uses depends on alpha only through comparisons with their
 * p-values (see mean_path).  conf_level only sets the intervals shown in
 * the steps.
 *   - alpha: the level of the protocol, which decides from the F-test
 *     which of the two t-tests (Student's or Welch's) the flowchart reads;
 *     only that one is computed, in both tails.  NAN: all four (the
 *     highest confidence needs them at every level).
 *   - with_ci = 0 skips the sub-tests' own intervals (their quantiles),
 *     which only the steps of a verdict show; both tails of the t-test
 *     then come from one evaluation of the t distribution.
 *   - sorted (or NULL): x ascending, then y ascending, for the
 *     Shapiro-Wilk tests; means (or NULL): st_mean of x and of y, already
 *     computed; cache (may be NULL): the caller's cache.
 */
static int mean_parts_compute(const double *x, size_t n, const double *y,
                              size_t m, const double *sorted,
                              const double *means, double conf_level,
                              double alpha, int with_ci, mean_parts *mp,
                              st_cache *cache)
{
    mp->too_few = n < ST_MIN_RUNS || m < ST_MIN_RUNS;
    mp->both_constant = 0;
    mp->checked[0] = mp->checked[1] = 0;
    st_result_init(&mp->sw[0]);
    st_result_init(&mp->sw[1]);
    st_result_init(&mp->f);
    st_result_init(&mp->t[0]);
    st_result_init(&mp->t[1]);
    st_result_init(&mp->tl[0]);
    st_result_init(&mp->tl[1]);
    mp->mean[0] = mp->mean[1] = mp->var[0] = mp->var[1] = NAN;
    if (mp->too_few) return ST_OK;
    mp->mean[0] = means ? means[0] : st_mean(x, n);
    mp->mean[1] = means ? means[1] : st_mean(y, m);
    mp->var[0] = st_var(x, n, mp->mean[0]);
    mp->var[1] = st_var(y, m, mp->mean[1]);
    mp->both_constant = st_is_constant(x, n) && st_is_constant(y, m);
    if (mp->both_constant) return ST_OK;
    if (shapiro_part(x, sorted, n, &mp->sw[0], &mp->checked[0], cache)
            != ST_OK ||
        shapiro_part(y, sorted ? sorted + n : NULL, m, &mp->sw[1],
                     &mp->checked[1], cache) != ST_OK)
        return ST_ERR_ALLOC;
    /* the F-test and the t-tests from the moments just computed */
    st_var_test_options fo = {mp->var, !with_ci};
    st_var_test(NULL, n, NULL, m, ST_TWO_SIDED, 1.0, conf_level, &fo, &mp->f);
    st_t_figures fig = {{mp->mean[0], mp->mean[1]}, {mp->var[0], mp->var[1]},
                        {(double) n, (double) m}, 1};
    /* as mean_path decides: equal variances when the F-test passes */
    int only = isnan(alpha) ? -1
             : (mp->f.status == ST_OK && mp->f.p_value > alpha);
    for (int k = 0; k < 2; k++) {
        if (only >= 0 && k != only) continue;
        st_t_test_options to = {&fig, !with_ci, NULL, NULL};
        if (!with_ci) {
            /* both tails at once */
            to.less = &mp->tl[k];
            st_t_test(NULL, n, NULL, m, ST_GREATER, 0.0, k, conf_level, &to,
                      &mp->t[k]);
            continue;
        }
        st_t_test(NULL, n, NULL, m, ST_GREATER, 0.0, k, conf_level, &to,
                  &mp->t[k]);
        st_t_test(NULL, n, NULL, m, ST_LESS, 0.0, k, conf_level, &to,
                  &mp->tl[k]);
    }
    return ST_OK;
}

/*
 * The tests of the mean protocol are invariant under a change of unit
 * (every statistic is a ratio of differences of the run times), but their
 * arithmetic is not at every scale: Welch's degrees of freedom and
 * Fieller's interval raise the variances to the second power, so times
 * above about 2^128 (3e38) overflow, and below about 2^-510 (3e-154) the
 * variance underflows to zero and the samples look constant.  Times whose
 * largest value lies outside [2^-64, 2^64] are therefore multiplied by the
 * power of two 2^s that brings it into [1, 2): exact for every value that
 * stays a normal double, and the same verdict as for the times at that
 * unit (the tests' arithmetic commutes with a power-of-two scaling far
 * beyond 2^+-64).  Times within that range are used as they are.  The
 * parts' means and variances stay in the scaled unit (only their ratios
 * are read); the t-tests' estimates and intervals are scaled back.
 */
#define ST_MEAN_SCALE_LIMIT 64

static int mean_parts_run(const double *x, size_t n, const double *y,
                          size_t m, const double *sorted,
                          const double *means, double conf_level,
                          double alpha, int with_ci, mean_parts *mp,
                          st_cache *cache)
{
    double top = 0.0;
    if (sorted && n && m) {
        top = sorted[n - 1] > sorted[n + m - 1] ? sorted[n - 1]
                                                : sorted[n + m - 1];
    } else {
        for (size_t i = 0; i < n; i++) top = x[i] > top ? x[i] : top;
        for (size_t i = 0; i < m; i++) top = y[i] > top ? y[i] : top;
    }
    int e = top > 0.0 && isfinite(top) ? ilogb(top) : 0;
    if (e >= -ST_MEAN_SCALE_LIMIT && e <= ST_MEAN_SCALE_LIMIT)
        return mean_parts_compute(x, n, y, m, sorted, means, conf_level,
                                  alpha, with_ci, mp, cache);
    double *xy = st_malloc(n + m, sizeof(double));
    if (!xy) return ST_ERR_ALLOC;
    for (size_t i = 0; i < n; i++) xy[i] = ldexp(x[i], -e);
    for (size_t i = 0; i < m; i++) xy[n + i] = ldexp(y[i], -e);
    int s = mean_parts_compute(xy, n, xy + n, m, NULL, NULL, conf_level,
                               alpha, with_ci, mp, cache);
    free(xy);
    for (int k = 0; k < 2; k++) {
        st_result *r[2] = {&mp->t[k], &mp->tl[k]};
        for (int j = 0; j < 2; j++)
            for (int c = 0; c < 2; c++) {
                r[j]->estimate[c] = ldexp(r[j]->estimate[c], e);
                r[j]->conf_int[c] = ldexp(r[j]->conf_int[c], e);
            }
    }
    return s;
}

/*
 * The two exits both flowcharts share before any test runs: fewer than
 * ST_MIN_RUNS values in a sample, or nothing to test (constant samples).
 * Starts *p as "insufficient data" and returns 1 when the path ends here.
 */
static int path_start(st_path *p, int too_few, int constant, size_t n,
                      size_t m)
{
    p->decision = ST_INSUFFICIENT;
    p->guaranteed = 0;
    p->caveats = 0;
    p->final = -1;
    if (too_few) {
        p->branch = ST_BRANCH_TOO_FEW_VALUES;
        p->caveats = ST_CAVEAT_TOO_FEW_VALUES;
        if (n < ST_MIN_RUNS) p->caveats |= ST_CAVEAT_X_FEW_RUNS;
        if (m < ST_MIN_RUNS) p->caveats |= ST_CAVEAT_Y_FEW_RUNS;
        return 1;
    }
    if (constant) {
        p->branch = ST_BRANCH_CONSTANT;
        p->caveats = ST_CAVEAT_CONSTANT;
        return 1;
    }
    return 0;
}

static void mean_path(const mean_parts *mp, size_t n, size_t m, double alpha,
                      int rigorous, st_path *p)
{
    if (path_start(p, mp->too_few, mp->both_constant, n, m)) return;
    int normal_x = mp->checked[0] && mp->sw[0].p_value > alpha;
    int normal_y = mp->checked[1] && mp->sw[1].p_value > alpha;
    if (!normal_x) {
        p->caveats |= ST_CAVEAT_X_NOT_NORMAL;
        if (!mp->checked[0]) p->caveats |= ST_CAVEAT_X_UNCHECKABLE;
        if (n <= ST_SMALL_RUNS) p->caveats |= ST_CAVEAT_X_FEW_RUNS;
    }
    if (!normal_y) {
        p->caveats |= ST_CAVEAT_Y_NOT_NORMAL;
        if (!mp->checked[1]) p->caveats |= ST_CAVEAT_Y_UNCHECKABLE;
        if (m <= ST_SMALL_RUNS) p->caveats |= ST_CAVEAT_Y_FEW_RUNS;
    }
    if (rigorous &&
        (p->caveats & (ST_CAVEAT_X_FEW_RUNS | ST_CAVEAT_Y_FEW_RUNS))) {
        p->branch = ST_BRANCH_NEED_MORE_RUNS;
        return;
    }
    /* A failed F-test (a constant sample: the ratio is 0 or infinite)
     * counts as unequal variances, as var.test's p-value of 0 would. */
    int equal = mp->f.status == ST_OK && mp->f.p_value > alpha;
    const st_result *t = &mp->t[equal];
    p->final = equal;
    if (t->status != ST_OK || isnan(t->p_value)) {
        /* The t statistic is undefined (no variability). */
        p->branch = ST_BRANCH_CONSTANT;
        p->caveats |= ST_CAVEAT_CONSTANT;
        return;
    }
    p->decision = t->p_value <= alpha ? ST_SIGNIFICANT : ST_NOT_SIGNIFICANT;
    p->guaranteed = normal_x && normal_y;
    if (equal)
        p->branch = p->guaranteed ? ST_BRANCH_STUDENT_NORMAL
                                  : ST_BRANCH_STUDENT_NOT_NORMAL;
    else
        p->branch = p->guaranteed ? ST_BRANCH_WELCH_NORMAL
                                  : ST_BRANCH_WELCH_NOT_NORMAL;
}

/*
 * Fieller's interval for rho = mu_X / mu_Y.  With independent sample means
 * a, b of variances v11, v22, the pivot (a - rho b) / sqrt(v11 + rho^2 v22)
 * follows a t distribution, so the set of rho with
 *   (a - rho b)^2 <= t^2 (v11 + rho^2 v22)
 * is a 1 - alpha confidence set (here two-sided at 1 - 2 alpha, so that
 * each end is the one-sided 1 - alpha bound that matches the one-sided
 * decisions; t is the 1 - alpha quantile).  The quadratic
 *   (b^2 - t^2 v22) rho^2 - 2 a b rho + (a^2 - t^2 v11) <= 0
 * has the roots (a b +- t sqrt(D)) / (b^2 - t^2 v22) with
 *   D = a^2 v22 + b^2 v11 - t^2 v11 v22,
 * a bounded interval when b^2 > t^2 v22 (the mean of y is significantly
 * positive); otherwise the set is unbounded and we report [0, Inf).
 * The pooled branch (equal variances) uses v = s_p^2 / n, s_p^2 / m and
 * n + m - 2 degrees of freedom, which is exact for normal samples; the
 * Welch branch uses s_x^2 / n, s_y^2 / m and the Satterthwaite degrees of
 * freedom of a - rho b evaluated at rho = a / b (an approximation).  The
 * ratio of positive times cannot be negative, so the lower end is clamped
 * at 0.  The ratio a / b lies inside: the quadratic is -t^2 (v11 + r^2
 * v22) <= 0 there.
 */
/* cache (may be NULL) keeps the last quantile of t asked (a suite's pooled
 * intervals ask the same level and degrees of freedom again and again). */
static void fieller_interval(const mean_parts *mp, size_t n, size_t m,
                             int pooled, double alpha, double ci[2],
                             st_cache *cache)
{
    double a = mp->mean[0], b = mp->mean[1];
    double vx = mp->var[0], vy = mp->var[1];
    double dn = (double) n, dm = (double) m;
    double v11, v22, df, r = a / b;
    if (pooled) {
        double sp2 = ((dn - 1) * vx + (dm - 1) * vy) / (dn + dm - 2);
        v11 = sp2 / dn;
        v22 = sp2 / dm;
        df = dn + dm - 2;
    } else {
        v11 = vx / dn;
        v22 = vy / dm;
        double num = v11 + r * r * v22;
        double den = v11 * v11 / (dn - 1) + r * r * r * r * v22 * v22 / (dm - 1);
        df = den > 0 ? num * num / den : INFINITY;
    }
    if (!(alpha < 0.5)) {       /* no interval of level 1 - 2 alpha > 0 */
        ci[0] = ci[1] = NAN;
        return;
    }
    if (!(v11 > 0) && !(v22 > 0)) {
        ci[0] = ci[1] = r;
        return;
    }
    double pr = 1 - alpha, t;
    if (cache && cache->t_quantile.set && cache->t_quantile.p == pr &&
        cache->t_quantile.df == df) {
        t = cache->t_quantile.q;
    } else {
        t = qt(pr, df, 1, 0);
        if (cache) {
            cache->t_quantile.set = 1;
            cache->t_quantile.p = pr;
            cache->t_quantile.df = df;
            cache->t_quantile.q = t;
        }
    }
    double A = b * b - t * t * v22;
    if (!(A > 0)) {
        ci[0] = 0;
        ci[1] = INFINITY;
        return;
    }
    double D = a * a * v22 + b * b * v11 - t * t * v11 * v22;
    if (D < 0) D = 0;
    double lo = (a * b - t * sqrt(D)) / A, hi = (a * b + t * sqrt(D)) / A;
    ci[0] = lo < 0 ? 0 : lo;
    ci[1] = hi;
}

/* suite = 1: the path of speedup_suite(), which reads the decision, its
 * p-values and the speedup's interval only: no sub-test intervals, and of
 * the observed speedups only the mean's (the suite has its own centres,
 * means, which it passes). */
static int mean_protocol_run(const double *x, size_t n, const double *y,
                             size_t m, const double *sorted,
                             const double *means, double alpha,
                             int rigorous, int suite, st_verdict *out,
                             st_cache *cache)
{
    int s = st_verdict_start(out, alpha, x, n, y, m);
    if (s != ST_OK) return s;
    if (!suite && (s = st_verdict_observed(out, x, n, y, m)) != ST_OK)
        return s;

    mean_parts mp;
    if ((s = mean_parts_run(x, n, y, m, sorted, means, conf_of(alpha), alpha,
                            !suite, &mp, cache)) != ST_OK)
        return s;
    if (suite)
        out->speedup_mean = !mp.too_few ? mp.mean[0] / mp.mean[1]
                          : means ? means[0] / means[1]
                                  : st_mean(x, n) / st_mean(y, m);
    out->speedup = out->speedup_mean;
    st_path p;
    mean_path(&mp, n, m, alpha, rigorous, &p);
    out->decision = p.decision;
    out->branch = p.branch;
    out->guaranteed = p.guaranteed;
    out->caveats = p.caveats;
    if (mp.too_few || mp.both_constant) return ST_OK;
    add_step(out, ST_STEP_SHAPIRO_X, &mp.sw[0]);
    add_step(out, ST_STEP_SHAPIRO_Y, &mp.sw[1]);
    if (p.branch == ST_BRANCH_NEED_MORE_RUNS) return ST_OK;
    add_step(out, ST_STEP_F_TEST, &mp.f);
    add_step(out, ST_STEP_T_TEST, &mp.t[p.final]);
    if (p.decision == ST_INSUFFICIENT) return ST_OK;
    out->p_value = mp.t[p.final].p_value;
    out->p_value_slowdown = mp.tl[p.final].p_value;
    fieller_interval(&mp, n, m, p.final, alpha, out->speedup_ci, cache);
    if (!isnan(out->speedup_ci[0])) {
        out->speedup_estimate = mp.mean[0] / mp.mean[1];
        out->speedup_ci_level = 1 - 2 * alpha;
    }
    return ST_OK;
}


/* ---- the median (Fig. 2) --------------------------------------------------- */

/*
 * The path of the data.  The median protocol only looks at order, so the
 * run times are sorted once, where they enter (st_sorted_pair), and every
 * step reads the sorted samples:
 *   - observed minima and medians: the ends and middles of the runs;
 *   - Smirnov statistic of the centred samples: a merge of xs - med(x)
 *     and ys - med(y), which are still sorted (ks.c);
 *   - rank-sum test: the mid-ranks from a merge of xs and ys (sorted.c);
 *   - Hodges-Lehmann shift and interval: selections among the pairwise
 *     differences of xs and ys, walked in place (select.c);
 *   - the speedup's interval: the same on the logarithms, taken in place
 *     (log keeps the order), after everything that needs the times.
 * Memory: the sorted pair (the size of the data) and a selection buffer
 * of at most 2^21 values.
 */

typedef struct {
    int too_few, constant;
    st_result ks;             /* on the centred samples                  */
    st_result w;              /* one-sided rank-sum test, x greater      */
    st_result wl;             /* the mirrored test, x less (slowdown)    */
} median_parts;

/* cache (may be NULL) caches the exact rank-sum null distribution between
 * the rank-sum tests of one protocol call. */
static int median_parts_run(const st_sorted_pair *P, median_parts *mp,
                            st_cache *cache)
{
    size_t n = P->n, m = P->m;
    mp->too_few = n < ST_MIN_RUNS || m < ST_MIN_RUNS;
    mp->constant = 0;
    st_result_init(&mp->ks);
    st_result_init(&mp->w);
    st_result_init(&mp->wl);
    if (mp->too_few) return ST_OK;
    /* The rank-sum statistic has no variability only when all n + m
     * values are equal; two different constants are a clear order. */
    mp->constant = P->xs[0] == P->xs[n - 1] && P->ys[0] == P->ys[m - 1] &&
                   P->xs[0] == P->ys[0];
    if (mp->constant) return ST_OK;
    double mx = st_median_sorted(P->xs, n), my = st_median_sorted(P->ys, m);
    st_ks_options ko = {1, {mx, my}, cache, NULL};
    int s = st_ks_test(P->xs, n, P->ys, m, ST_TWO_SIDED, -1, &ko, &mp->ks);
    if (ST_FATAL(s)) return s;
    /* The speedup test and the mirrored one: the same statistic, the same
     * automatic choice of the exact distribution (with ties too) and the
     * same cached table, from one merge. */
    st_wilcoxon_options wo = {0};
    wo.sorted = 1;
    wo.cache = cache;
    wo.less = &mp->wl;
    s = st_wilcoxon_test(P->xs, n, P->ys, m, ST_GREATER, 0.0, -1, 1, 0, 0.95,
                         &wo, &mp->w);
    if (ST_FATAL(s)) return s;
    return ST_OK;
}

static void median_path(const median_parts *mp, size_t n, size_t m,
                        double alpha, int rigorous, st_path *p)
{
    if (path_start(p, mp->too_few, mp->constant, n, m)) return;
    int model = mp->ks.status == ST_OK && mp->ks.p_value > alpha;
    if (!model) {
        p->caveats |= ST_CAVEAT_NO_LOCATION_MODEL;
        if (n <= ST_SMALL_RUNS) p->caveats |= ST_CAVEAT_X_FEW_RUNS;
        if (m <= ST_SMALL_RUNS) p->caveats |= ST_CAVEAT_Y_FEW_RUNS;
        if (rigorous && (n <= ST_SMALL_RUNS || m <= ST_SMALL_RUNS)) {
            p->branch = ST_BRANCH_NEED_MORE_RUNS;
            return;
        }
    }
    p->final = 1;
    if (mp->w.status != ST_OK || isnan(mp->w.p_value)) {
        p->branch = ST_BRANCH_CONSTANT;
        p->caveats |= ST_CAVEAT_CONSTANT;
        return;
    }
    p->decision = mp->w.p_value <= alpha ? ST_SIGNIFICANT : ST_NOT_SIGNIFICANT;
    p->guaranteed = model;
    p->branch = model ? ST_BRANCH_WILCOXON_MODEL : ST_BRANCH_WILCOXON_NO_MODEL;
}

/*
 * Intervals of the median protocol:
 *   - the Hodges-Lehmann shift of the times with its interval, two-sided
 *     at 1 - alpha (a sub-test's interval);
 *   - the speedup: under the scale model Y = X / theta (a location shift
 *     of log times by log theta) the Hodges-Lehmann estimate and interval
 *     of the shift of log(x) against log(y) map through exp() to an
 *     estimate and an interval for theta, the ratio of the medians.  The
 *     interval is two-sided at 1 - 2 alpha: each end is the one-sided
 *     1 - alpha bound that matches the one-sided decisions (the rank-sum
 *     statistic is the same on log times, a monotone transform).
 * The second one takes the logarithms of the sorted pair in place, so it
 * comes last.  A failure other than memory leaves the fields NAN.
 */
static int median_intervals(st_sorted_pair *P, double alpha, st_verdict *v,
                            st_cache *cache, int shift)
{
    st_result r;
    /* the Hodges-Lehmann estimates and intervals alone, on the sorted
     * pair read in place */
    st_wilcoxon_options hl = {0};
    hl.sorted = 1;
    hl.interval_only = 1;
    hl.cache = cache;
    int s = shift ? st_wilcoxon_test(P->xs, P->n, P->ys, P->m, ST_TWO_SIDED,
                                     0.0, -1, 1, 1, conf_of(alpha), &hl, &r)
                  : ST_ERR_DOMAIN;      /* not asked for: left NAN */
    if (ST_FATAL(s)) return s;
    if (s == ST_OK) {
        v->shift = r.estimate[0];
        v->shift_ci[0] = r.conf_int[0];
        v->shift_ci[1] = r.conf_int[1];
    }
    if (!(alpha < 0.5)) return ST_OK;   /* no level 1 - 2 alpha > 0 */
    if (st_sorted_pair_log(P) != ST_OK) return ST_OK;
    /* the level the interval really has: lower than 1 - 2 alpha when the
     * exact law cannot reach it with these sizes (then the one-sided
     * test cannot reach alpha either) */
    double achieved = NAN;
    hl.ci_achieved = &achieved;
    s = st_wilcoxon_test(P->xs, P->n, P->ys, P->m, ST_TWO_SIDED, 0.0, -1, 1,
                         1, st_decision_conf(alpha), &hl, &r);
    if (ST_FATAL(s)) return s;
    if (s == ST_OK) {
        v->speedup_ci[0] = exp(r.conf_int[0]);
        v->speedup_ci[1] = exp(r.conf_int[1]);
        v->speedup_estimate = exp(r.estimate[0]);
        v->speedup_ci_level = st_attained_level(achieved, alpha);
    }
    return ST_OK;
}

static int median_protocol_run(st_sorted_pair *P, double alpha, int rigorous,
                               st_verdict *out, st_cache *cache, int shift)
{
    int s;
    size_t n = P->n, m = P->m;
    median_parts mp;
    if ((s = median_parts_run(P, &mp, cache)) != ST_OK) return s;
    st_path p;
    median_path(&mp, n, m, alpha, rigorous, &p);
    out->decision = p.decision;
    out->branch = p.branch;
    out->guaranteed = p.guaranteed;
    out->caveats = p.caveats;
    if (mp.too_few || mp.constant) return ST_OK;
    add_step(out, ST_STEP_KS_TEST, &mp.ks);
    if (p.branch == ST_BRANCH_NEED_MORE_RUNS) return ST_OK;
    add_step(out, ST_STEP_WILCOXON, &mp.w);
    if (p.decision == ST_INSUFFICIENT) return ST_OK;
    out->p_value = mp.w.p_value;
    out->p_value_slowdown = mp.wl.p_value;
    /* W / (n m) counts the pairs with x > y, ties one half. */
    out->prob_greater = mp.w.statistic / ((double) n * (double) m);
    return median_intervals(P, alpha, out, cache, shift);
}

/* The observed speedups from the sorted pair (the mean from the data as
 * given, summed in their order). */
static void observed_sorted(const double *x, const double *y,
                            const st_sorted_pair *P, st_verdict *v)
{
    if (P->n == 0 || P->m == 0) return;
    v->speedup_min = P->xs[0] / P->ys[0];
    /* (a suite, x == NULL, has its own centres) */
    if (x) v->speedup_mean = st_mean(x, P->n) / st_mean(y, P->m);
    v->speedup_median = st_median_sorted(P->xs, P->n) /
                        st_median_sorted(P->ys, P->m);
}

/* The protocol on the sorted pair P (which the caller frees). */
static int median_protocol_pair(const double *x, const double *y,
                                st_sorted_pair *P, double alpha, int rigorous,
                                st_verdict *out, st_cache *cache, int shift)
{
    observed_sorted(x, y, P, out);
    out->speedup = out->speedup_median;
    /* the three rank-sum tests share one exact null distribution: a cache
     * of their own without the caller's */
    if (cache) return median_protocol_run(P, alpha, rigorous, out, cache, shift);
    st_cache own;
    st_cache_init(&own);
    int s = median_protocol_run(P, alpha, rigorous, out, &own, shift);
    st_cache_free(&own);
    return s;
}

/* Runs in all up to which the median protocol's copy of a caller's
 * sorted runs lives on the stack. */
#define MEDIAN_LOCAL 512

/* The median protocol on x, y: sorted here (with the Mann-Kendall tests of
 * each sample on the way when trend is not NULL, whose merge sort sorts
 * the data), or from the caller's sorted copy (a suite: no Hodges-Lehmann
 * shift, no mean speedup). */
static int median_protocol(const double *x, size_t n, const double *y,
                           size_t m, double alpha, int rigorous,
                           const st_protocol_options *opt, st_verdict *out)
{
    int suite = opt && opt->suite;
    st_cache *cache = opt ? opt->cache : NULL;
    st_result *trend = opt && opt->trend_min > 0 ? opt->trend : NULL;
    if (trend) {
        st_result_init(&trend[0]);
        st_result_init(&trend[1]);
    }
    int s = st_verdict_start(out, alpha, x, n, y, m);
    if (s != ST_OK) return s;
    st_sorted_pair P;
    if (opt && opt->sorted) {
        /* a copy: the interval of the speedup takes its logarithms in
         * place (on the stack for most sizes) */
        double local[MEDIAN_LOCAL];
        P.xs = n + m <= MEDIAN_LOCAL ? local : st_malloc(n + m, sizeof(double));
        if (!P.xs) return ST_ERR_ALLOC;
        memcpy(P.xs, opt->sorted, (n + m) * sizeof(double));
        P.ys = P.xs + n;
        P.n = n;
        P.m = m;
        s = median_protocol_pair(NULL, NULL, &P, alpha, rigorous, out, cache,
                                 !suite);
        if (P.xs != local) free(P.xs);
        return s;
    }
    st_pair_trend by_trend = {trend ? opt->trend_min : 0, trend, cache};
    s = st_sorted_pair_init(&P, x, n, 0.0, y, m, trend ? &by_trend : NULL);
    if (s != ST_OK) return s;
    s = median_protocol_pair(x, y, &P, alpha, rigorous, out, cache, !suite);
    st_sorted_pair_free(&P);
    return s;
}

/* The mean protocol with the options of st_protocol. */
static int mean_protocol(const double *x, size_t n, const double *y, size_t m,
                         double alpha, int rigorous,
                         const st_protocol_options *opt, st_verdict *out)
{
    return mean_protocol_run(x, n, y, m, opt ? opt->sorted : NULL,
                             opt ? opt->means : NULL, alpha, rigorous,
                             opt ? opt->suite : 0, out,
                             opt ? opt->cache : NULL);
}

int st_protocol(int proto, const double *x, size_t n, const double *y,
                size_t m, double alpha, int rigorous,
                const st_protocol_options *opt, st_verdict *out)
{
    const st_protocol_def *def = st_protocol_find(proto);
    if (!def || !def->run) {
        verdict_init(out, alpha);
        return def ? ST_ERR_UNSUPPORTED : ST_ERR_DOMAIN;
    }
    return def->run(x, n, y, m, alpha, rigorous, opt, out);
}

/* ---- highest confidence ---------------------------------------------------- */

/*
 * As a function of alpha, every comparison in a flowchart has the form
 * "p <= alpha" (true on [p, inf)) or "p > alpha" (true on [0, p)), where p
 * is a sub-test's p-value that does not depend on alpha (the two t-tests
 * are both computed; alpha only chooses between them).  The set of alpha
 * at which the protocol declares significance is therefore a finite union
 * of intervals [lo, hi) whose left ends are 0 or one of those p-values.
 * Its smallest element is found by evaluating the decision just above 0
 * (below every positive p-value) and then at each p-value in (0, 0.5] in
 * increasing order; the first significant point is the answer.
 */
static int add_candidate(double *c, int k, double p)
{
    if (p > 0 && p <= 0.5) c[k++] = p;
    return k;
}

static int cmp_dbl(const void *a, const void *b)
{
    double u = *(const double *) a, v = *(const double *) b;
    return (u > v) - (u < v);
}

/* The smallest of the candidates c[0 .. k-1] (sorted ascending, the last
 * 0.5) at which path() declares significance, trying first just above 0
 * (below every positive p-value): 0 there, NAN when none. */
typedef void (*st_path_fn)(const void *parts, size_t n, size_t m,
                           double alpha, int rigorous, st_path *p);

static double first_significant(const double *c, int k, st_path_fn path,
                                const void *parts, size_t n, size_t m,
                                int rigorous)
{
    st_path p;
    for (int i = -1; i < k; i++) {
        double a = i < 0 ? c[0] / 2 : c[i];
        path(parts, n, m, a, rigorous, &p);
        if (p.decision == ST_SIGNIFICANT) return i < 0 ? 0 : a;
    }
    return NAN;
}

static void mean_path_of(const void *parts, size_t n, size_t m, double alpha,
                         int rigorous, st_path *p)
{
    mean_path((const mean_parts *) parts, n, m, alpha, rigorous, p);
}

static void median_path_of(const void *parts, size_t n, size_t m,
                           double alpha, int rigorous, st_path *p)
{
    median_path((const median_parts *) parts, n, m, alpha, rigorous, p);
}

/* The mean's candidates: both Shapiro-Wilk p-values, the F-test's and
 * both t-tests' (Student's and Welch's). */
static int mean_highest(const double *x, size_t n, const double *y, size_t m,
                        int rigorous, st_cache *cache, double *alpha)
{
    *alpha = NAN;
    int s = check_input(x, n, y, m);
    if (s != ST_OK) return s;
    double c[8];
    int k = 0;
    mean_parts mp;
    memset(&mp, 0, sizeof mp);
    if ((s = mean_parts_run(x, n, y, m, NULL, NULL, 0.95, NAN, 0, &mp,
                            cache)) != ST_OK)
        return s;
    if (mp.too_few || mp.both_constant) return ST_OK;
    if (mp.checked[0]) k = add_candidate(c, k, mp.sw[0].p_value);
    if (mp.checked[1]) k = add_candidate(c, k, mp.sw[1].p_value);
    if (mp.f.status == ST_OK) k = add_candidate(c, k, mp.f.p_value);
    for (int i = 0; i < 2; i++)
        if (mp.t[i].status == ST_OK) k = add_candidate(c, k, mp.t[i].p_value);
    c[k++] = 0.5;
    qsort(c, (size_t) k, sizeof(double), cmp_dbl);
    *alpha = first_significant(c, k, mean_path_of, &mp, n, m, rigorous);
    return ST_OK;
}

/* The median's candidates: the Kolmogorov-Smirnov p-value and the
 * rank-sum test's. */
static int median_highest(const double *x, size_t n, const double *y,
                          size_t m, int rigorous, st_cache *cache,
                          double *alpha)
{
    *alpha = NAN;
    int s = check_input(x, n, y, m);
    if (s != ST_OK) return s;
    double c[8];
    int k = 0;
    median_parts dp;
    memset(&dp, 0, sizeof dp);
    st_sorted_pair P;
    s = st_sorted_pair_init(&P, x, n, 0.0, y, m, NULL);
    if (s != ST_OK) return s;
    s = median_parts_run(&P, &dp, cache);
    st_sorted_pair_free(&P);
    if (s != ST_OK) return s;
    if (dp.too_few || dp.constant) return ST_OK;
    if (dp.ks.status == ST_OK) k = add_candidate(c, k, dp.ks.p_value);
    if (dp.w.status == ST_OK) k = add_candidate(c, k, dp.w.p_value);
    c[k++] = 0.5;
    qsort(c, (size_t) k, sizeof(double), cmp_dbl);
    *alpha = first_significant(c, k, median_path_of, &dp, n, m, rigorous);
    return ST_OK;
}

int st_highest_alpha(int proto, const double *x, size_t n, const double *y,
                     size_t m, int rigorous, st_cache *cache,
                     double *alpha)
{
    *alpha = NAN;
    const st_protocol_def *def = st_protocol_find(proto);
    if (!def) return ST_ERR_DOMAIN;
    if (!def->highest) return ST_ERR_UNSUPPORTED;
    return def->highest(x, n, y, m, rigorous, cache, alpha);
}

/* ---- the protocol table ---------------------------------------------------- */

/* One row per protocol code (ST_PROTO_*), in the order of the codes. */
static const st_protocol_def protocol_table[ST_N_PROTOCOLS] = {
    {"mean", ST_CENTRE_MEAN, 0, mean_protocol, mean_highest,
     st_tolerance_mean, st_paired_mean},
    {"median", ST_CENTRE_MEDIAN, 1, median_protocol, median_highest,
     st_tolerance_median, st_paired_median},
    {"prob", ST_CENTRE_MEDIAN, 0, st_prob_protocol, st_prob_highest,
     st_tolerance_prob, st_paired_prob}
};

const st_protocol_def *st_protocol_find(int proto)
{
    if (proto < 0 || proto >= ST_N_PROTOCOLS) return NULL;
    return &protocol_table[proto];
}

/* ---- R entry points -------------------------------------------------------- */
#include "ffi.h"

static SEXP real2(const double v[2])
{
    SEXP out = Rf_allocVector(REALSXP, 2);
    REAL(out)[0] = v[0];
    REAL(out)[1] = v[1];
    return out;
}

/* A verdict as the named list the R side reads (also the paired
 * protocols' result, paired.c). */
SEXP ffi_verdict_list(const st_verdict *v, int status)
{
    static const char *names[] = {
        "status", "decision", "branch", "guaranteed", "alpha", "p_value",
        "speedup", "speedup_min", "speedup_mean", "speedup_median",
        "speedup_ci", "prob_greater", "shift", "shift_ci", "caveats",
        "step_kinds", "steps", "p_value_slowdown", "speedup_estimate",
        "prob_ci", "speedup_ci_level"
    };
    SEXP values[21];
    values[0] = PROTECT(Rf_ScalarInteger(status));
    values[1] = PROTECT(Rf_ScalarInteger((int) v->decision));
    values[2] = PROTECT(Rf_ScalarInteger(v->branch));
    values[3] = PROTECT(Rf_ScalarLogical(v->guaranteed));
    values[4] = PROTECT(Rf_ScalarReal(v->alpha));
    values[5] = PROTECT(Rf_ScalarReal(v->p_value));
    values[6] = PROTECT(Rf_ScalarReal(v->speedup));
    values[7] = PROTECT(Rf_ScalarReal(v->speedup_min));
    values[8] = PROTECT(Rf_ScalarReal(v->speedup_mean));
    values[9] = PROTECT(Rf_ScalarReal(v->speedup_median));
    values[10] = PROTECT(real2(v->speedup_ci));
    values[11] = PROTECT(Rf_ScalarReal(v->prob_greater));
    values[12] = PROTECT(Rf_ScalarReal(v->shift));
    values[13] = PROTECT(real2(v->shift_ci));
    values[14] = PROTECT(Rf_ScalarInteger((int) v->caveats));
    int ns = status == ST_OK ? v->n_steps : 0;
    values[15] = PROTECT(Rf_allocVector(INTSXP, ns));
    values[16] = PROTECT(Rf_allocVector(VECSXP, ns));
    for (int i = 0; i < ns; i++) {
        INTEGER(values[15])[i] = (int) v->step_kind[i];
        SET_VECTOR_ELT(values[16], i, ffi_result(&v->steps[i]));
    }
    values[17] = PROTECT(Rf_ScalarReal(v->p_value_slowdown));
    values[18] = PROTECT(Rf_ScalarReal(v->speedup_estimate));
    values[19] = PROTECT(real2(v->prob_ci));
    values[20] = PROTECT(Rf_ScalarReal(v->speedup_ci_level));
    SEXP out = ffi_named_list(21, names, values);
    UNPROTECT(21);
    return out;
}

/* The verdict of protocol `test` (a protocol code) as ffi_verdict_list;
 * design 0: unpaired, 1: its paired twin on rounds x[i], y[i].  With
 * trend_min >= 3 (unpaired, a protocol whose run makes them) the list has
 * a `trend` element: the Mann-Kendall tests of x and y made on the way
 * (list(statistic, tau, p_value, exact, status), as ffi_mann_kendall),
 * for the samples of at least trend_min runs; 0: none. */
SEXP ffi_run_protocol(SEXP x, SEXP y, SEXP test, SEXP design, SEXP alpha,
                      SEXP rigorous, SEXP trend_min)
{
    size_t n, m;
    const double *xp = ffi_doubles(x, &n, "x");
    const double *yp = ffi_doubles(y, &m, "y");
    int t = ffi_int(test, "test");
    int paired = ffi_flag(design, "design");
    double a = ffi_double(alpha, "alpha");
    int rig = ffi_flag(rigorous, "rigorous");
    int tmin = ffi_int(trend_min, "trend_min");
    const st_protocol_def *def = st_protocol_find(t);
    if (!def) Rf_error("`test` is not a protocol code.");
    if (tmin != 0 && (tmin < 3 || paired || !def->trend))
        Rf_error("`trend_min` must be 0, or at least 3 for a protocol that makes the trend tests.");
    st_verdict v;
    if (paired) {
        if (n != m) Rf_error("`x` and `y` must have the same length.");
        int s = st_paired_protocol(t, xp, yp, n, a, rig, &v);
        return ffi_verdict_list(&v, s);
    }
    st_result trend[2];
    st_protocol_options opt = {0};
    opt.trend_min = (size_t) tmin;
    opt.trend = trend;
    int s = st_protocol(t, xp, n, yp, m, a, rig, &opt, &v);
    SEXP out = PROTECT(ffi_verdict_list(&v, s));
    if (tmin == 0) {
        UNPROTECT(1);
        return out;
    }
    SEXP tr = PROTECT(ffi_trend_list(trend, 2));
    R_xlen_t len = Rf_xlength(out);
    SEXP res = PROTECT(Rf_allocVector(VECSXP, len + 1));
    SEXP nm = PROTECT(Rf_allocVector(STRSXP, len + 1));
    SEXP onm = Rf_getAttrib(out, R_NamesSymbol);
    for (R_xlen_t i = 0; i < len; i++) {
        SET_VECTOR_ELT(res, i, VECTOR_ELT(out, i));
        SET_STRING_ELT(nm, i, STRING_ELT(onm, i));
    }
    SET_VECTOR_ELT(res, len, tr);
    SET_STRING_ELT(nm, len, Rf_mkChar("trend"));
    Rf_setAttrib(res, R_NamesSymbol, nm);
    UNPROTECT(4);
    return res;
}

SEXP ffi_observed_speedups(SEXP x, SEXP y)
{
    size_t n, m;
    const double *xp = ffi_doubles(x, &n, "x");
    const double *yp = ffi_doubles(y, &m, "y");
    double s[3];
    int status = st_observed_speedups(xp, n, yp, m, s);
    static const char *names[] = {"status", "speedups"};
    SEXP values[2];
    values[0] = PROTECT(Rf_ScalarInteger(status));
    values[1] = PROTECT(Rf_allocVector(REALSXP, 3));
    for (int i = 0; i < 3; i++) REAL(values[1])[i] = s[i];
    SEXP out = ffi_named_list(2, names, values);
    UNPROTECT(2);
    return out;
}

SEXP ffi_highest_confidence(SEXP x, SEXP y, SEXP test, SEXP rigorous)
{
    size_t n, m;
    const double *xp = ffi_doubles(x, &n, "x");
    const double *yp = ffi_doubles(y, &m, "y");
    int t = ffi_int(test, "test");
    int rig = ffi_flag(rigorous, "rigorous");
    double a;
    int s = st_highest_alpha(t, xp, n, yp, m, rig, NULL, &a);
    static const char *names[] = {"status", "confidence", "alpha"};
    SEXP values[3];
    values[0] = PROTECT(Rf_ScalarInteger(s));
    values[1] = PROTECT(Rf_ScalarReal(isnan(a) ? NA_REAL : 1 - a));
    values[2] = PROTECT(Rf_ScalarReal(isnan(a) ? NA_REAL : a));
    SEXP out = ffi_named_list(3, names, values);
    UNPROTECT(3);
    return out;
}
