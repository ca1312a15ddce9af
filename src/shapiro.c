/*
 * shapiro.c -- the Shapiro-Wilk W test of normality.
 *
 * Coefficients and p-value follow Royston's approximations as published
 * in Algorithm AS R94:
 *   Royston, P. (1992). Approximating the Shapiro-Wilk W-test for
 *   non-normality. Statistics and Computing 2, 117-119.
 *   Royston, P. (1995). Remark AS R94: A remark on Algorithm AS 181: the
 *   W-test for normality. Applied Statistics 44(4), 547-551.
 * Valid for 3 <= n <= 5000 (the range over which Royston calibrated the
 * normalising transformation of W).  stats::shapiro.test implements the
 * same algorithm, so the two agree to rounding.
 */
#include <math.h>
#include <stdlib.h>
#include <Rmath.h>
#include "speeduptest.h"
#include "cache.h"

#define SW_MAX_N 5000

/*
 * Polynomial coefficients of AS R94 (lowest degree first).
 *   c1, c2: corrections of the two most extreme coefficients, in 1/sqrt(n);
 *   c3, c4: mean and log-sd of the transformed W for n <= 11, in n;
 *   c5, c6: mean and log-sd of log(1 - W) for n >= 12, in log(n);
 *   g:      the bound gamma of the small-sample transformation, in n.
 */
static const double sw_c1[6] = {0.0, 0.221157, -0.147981, -2.07119,
                                4.434685, -2.706056};
static const double sw_c2[6] = {0.0, 0.042981, -0.293762, -1.752461,
                                5.682633, -3.582633};
static const double sw_c3[4] = {0.544, -0.39978, 0.025054, -6.714e-4};
static const double sw_c4[4] = {1.3822, -0.77857, 0.062767, -0.0020322};
static const double sw_c5[4] = {-1.5861, -0.31082, -0.083751, 0.0038915};
static const double sw_c6[3] = {-0.4803, -0.082676, 0.0030302};
static const double sw_g[2] = {-2.273, 0.459};

/* n = 3: the exact null distribution (Shapiro and Wilk 1965),
 * P[W <= w] = (6 / pi) (asin(sqrt(w)) - asin(sqrt(3/4))), with the two
 * constants as AS R94 tabulates them (so that W = 3/4 gives p = 0 exactly). */
static const double sw_six_over_pi = 1.90985931710274;
static const double sw_asin_sqrt_3_4 = 1.04719755119660;

/* c[0] + c[1] x + ... + c[k-1] x^(k-1), by Horner's rule. */
static double sw_poly(const double *c, int k, double x)
{
    double r = c[k - 1];
    for (int j = k - 2; j >= 0; j--) r = r * x + c[j];
    return r;
}

/*
 * The upper half of the antisymmetric coefficient vector: a[i], i = 0..h-1
 * (h = n / 2), multiplies x(n-i) and -a[i] multiplies x(i+1) (1-based
 * order statistics).  Royston starts from the normal scores
 * m_i = Phi^-1((i - 3/8) / (n + 1/4)), which he normalises to unit length,
 * and replaces the one (n <= 5) or two (n > 5) most extreme coefficients
 * by polynomials in 1/sqrt(n); the rest are rescaled so that the whole
 * vector keeps unit length.  The scores m_i, i <= h, are negative, so the
 * rescaling divides by -fac.
 */
static void sw_coefficients(size_t n, double *a)
{
    size_t h = n / 2;
    if (n == 3) {
        a[0] = sqrt(0.5);
        return;
    }
    double an = (double) n;
    double an25 = an + 0.25;
    double summ2 = 0.0;
    for (size_t i = 0; i < h; i++) {
        a[i] = qnorm(((double) (i + 1) - 0.375) / an25, 0.0, 1.0, 1, 0);
        summ2 += a[i] * a[i];
    }
    summ2 *= 2.0;
    double ssumm2 = sqrt(summ2);
    double rsn = 1.0 / sqrt(an);
    double a1 = sw_poly(sw_c1, 6, rsn) - a[0] / ssumm2;
    double fac;
    size_t first;
    if (n > 5) {
        double a2 = -a[1] / ssumm2 + sw_poly(sw_c2, 6, rsn);
        fac = sqrt((summ2 - 2.0 * (a[0] * a[0]) - 2.0 * (a[1] * a[1])) /
                   (1.0 - 2.0 * (a1 * a1) - 2.0 * (a2 * a2)));
        a[1] = a2;
        first = 2;
    } else {
        fac = sqrt((summ2 - 2.0 * (a[0] * a[0])) / (1.0 - 2.0 * (a1 * a1)));
        first = 1;
    }
    a[0] = a1;
    for (size_t i = first; i < h; i++) a[i] /= -fac;
}

/* The coefficient of the k-th smallest value (0-based) of n. */
static double sw_coef_of(const double *a, size_t n, size_t k)
{
    size_t mirror = n - 1 - k;
    if (k < mirror) return -a[k];
    if (k > mirror) return a[mirror];
    return 0.0;
}

static int sw_check(const double *x, size_t n, st_result *out)
{
    st_result_init(out);
    if (n < 3) return out->status = ST_ERR_TOO_FEW;
    if (n > SW_MAX_N) return out->status = ST_ERR_TOO_MANY;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return out->status = ST_ERR_DOMAIN;
    if (st_is_constant(x, n)) return out->status = ST_ERR_CONSTANT;
    return ST_OK;
}

/*
 * Everything in the test that depends on n alone: the coefficients
 * centred on their mean (da[k] = a_k - mean(a), k = 0 .. n-1, in the
 * order of the sorted sample), their sum of squares, and the mean, log-sd
 * and bound gamma of the normalising transformation.  A suite meets the
 * same few sizes again and again, so a caller may keep these per n
 * (st_cache); the statistic from them is the same computation, in
 * the same order, as from coefficients computed afresh.
 */
typedef struct st_sw_consts {
    size_t n;
    double ssa;               /* sum of da[k]^2                          */
    double m, s, gamma;       /* the transformation (n >= 4)             */
    double da[];              /* n values                                */
} st_sw_consts;

static st_sw_consts *sw_consts_new(size_t n)
{
    st_sw_consts *c = malloc(sizeof *c + n * sizeof(double));
    double *a = st_malloc(n / 2, sizeof(double));
    if (!c || !a) {
        free(c);
        free(a);
        return NULL;
    }
    sw_coefficients(n, a);
    c->n = n;
    double sa = 0.0;
    for (size_t k = 0; k < n; k++) sa += sw_coef_of(a, n, k);
    sa /= (double) n;
    double ssa = 0.0;
    for (size_t k = 0; k < n; k++) {
        double da = sw_coef_of(a, n, k) - sa;
        c->da[k] = da;
        ssa += da * da;
    }
    c->ssa = ssa;
    free(a);
    double an = (double) n;
    c->gamma = NAN;
    if (n <= 11) {
        c->gamma = sw_poly(sw_g, 2, an);
        c->m = sw_poly(sw_c3, 4, an);
        c->s = exp(sw_poly(sw_c4, 4, an));
    } else {
        double ln = log(an);
        c->m = sw_poly(sw_c5, 4, ln);
        c->s = exp(sw_poly(sw_c6, 3, ln));
    }
    return c;
}

/* Samples of up to this many values keep x / range on the stack. */
#define SW_LOCAL_N 512

/* The constants for n: from the cache (computed and kept there the first
 * time) when n is below ST_CACHE_SHAPIRO_N, else computed into *own (for
 * the caller to free).  NULL when out of memory. */
static const st_sw_consts *sw_consts(size_t n, st_cache *cache,
                                     st_sw_consts **own)
{
    *own = NULL;
    if (cache && n < ST_CACHE_SHAPIRO_N) {
        if (!cache->shapiro) {
            cache->shapiro = calloc(ST_CACHE_SHAPIRO_N, sizeof(st_sw_consts *));
            if (!cache->shapiro) return *own = sw_consts_new(n);
        }
        if (!cache->shapiro[n]) cache->shapiro[n] = sw_consts_new(n);
        return cache->shapiro[n];
    }
    return *own = sw_consts_new(n);
}

/* The test on the checked sample xs, sorted ascending. */
static int sw_sorted(const double *xs, size_t n, st_result *out,
                     st_cache *cache)
{
    st_sw_consts *own;
    const st_sw_consts *c = sw_consts(n, cache, &own);
    if (!c) return out->status = ST_ERR_ALLOC;

    /*
     * W is the squared correlation between the coefficients and the
     * ordered sample.  The sample is divided by its range (W is scale
     * invariant) as AS R94 does.  1 - W is formed as
     * (sqrt(SaSx) - Sax)(sqrt(SaSx) + Sax) / (SaSx), which keeps its
     * relative accuracy when W is close to 1 (large normal samples);
     * the p-value is a function of log(1 - W).
     */
    double range = xs[n - 1] - xs[0];
    double sx = 0.0;
    /* (the quotients of a small sample are kept for the second pass) */
    double q[SW_LOCAL_N];
    int keep = n <= SW_LOCAL_N;
    for (size_t k = 0; k < n; k++) {
        double v = xs[k] / range;
        if (keep) q[k] = v;
        sx += v;
    }
    sx /= (double) n;
    double ssa = c->ssa, ssx = 0.0, sax = 0.0;
    for (size_t k = 0; k < n; k++) {
        double dx = (keep ? q[k] : xs[k] / range) - sx;
        ssx += dx * dx;
        sax += c->da[k] * dx;
    }
    double m = c->m, sd = c->s, gamma = c->gamma;
    free(own);
    double root = sqrt(ssa * ssx);
    double w1 = (root - sax) * (root + sax) / (ssa * ssx);
    double w = 1.0 - w1;
    out->statistic = w;

    if (n == 3) {
        double p = sw_six_over_pi * (asin(sqrt(w)) - sw_asin_sqrt_3_4);
        out->p_value = p < 0.0 ? 0.0 : p;
        out->exact = 1;
        return ST_OK;
    }

    /*
     * Normalising transformation of W (Royston 1992): for n >= 12,
     * log(1 - W) is close to normal with mean and log-sd polynomial in
     * log(n); for 4 <= n <= 11, -log(gamma - log(1 - W)) is, with gamma,
     * mean and log-sd polynomial in n.  Small W (large 1 - W) is evidence
     * against normality, hence the upper tail.
     */
    double y = log(w1);
    if (n <= 11) {
        if (y >= gamma) {
            /* Beyond the support of the transformation (cannot happen for
             * a W a sample can reach): as AS R94, a vanishing p-value. */
            out->p_value = 1e-99;
            return ST_OK;
        }
        y = -log(gamma - y);
    }
    out->p_value = pnorm(y, m, sd, 0, 0);
    return ST_OK;
}

int st_shapiro_wilk(const double *x, size_t n, const st_shapiro_options *opt,
                    st_result *out)
{
    st_cache *cache = opt ? opt->cache : NULL;
    int s = sw_check(x, n, out);
    if (s != ST_OK) return s;
    if (opt && opt->sorted) return sw_sorted(x, n, out, cache);
    double *xs = st_sorted_copy(x, n);
    if (!xs) return out->status = ST_ERR_ALLOC;
    s = sw_sorted(xs, n, out, cache);
    free(xs);
    return s;
}

/* ---- R entry point --------------------------------------------------- */
#include "ffi.h"

SEXP ffi_shapiro_wilk(SEXP x)
{
    size_t n;
    const double *px = ffi_doubles(x, &n, "x");
    st_result r;
    st_shapiro_wilk(px, n, NULL, &r);
    return ffi_result(&r);
}
