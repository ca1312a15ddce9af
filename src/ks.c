/*
 * ks.c -- two-sample Kolmogorov-Smirnov (Smirnov) test.
 *
 * Statistic: D = max |F_x - F_y| (two-sided), D^+ = max (F_x - F_y)
 * ("greater"), D^- = max (F_y - F_x) ("less"), the empirical distribution
 * functions being compared at the distinct pooled values, as R's ks.test.
 *
 * Exact p-value: Smirnov's lattice-path argument (Smirnov 1939; Gnedenko
 * and Korolyuk 1951).  Under H0 and given the pooled values, every one of
 * the choose(n + m, n) ways to label n of the sorted pooled values "x" is
 * equally likely.  A labelling is a monotone path from (0, 0) to (n, m);
 * after k = i + j steps the ECDF difference is (i m - j n) / (n m).  With
 * ties the ECDFs are only observed at the END of each block of equal
 * pooled values, so the boundary is checked only at those k (the
 * conditional distribution given the tie pattern; Schroer and Trenkler
 * 1995, the approach of R >= 4.3's psmirnov).
 *
 * Asymptotic p-value: the Kolmogorov limit distribution (two-sided) and
 * exp(-2 n m / (n + m) D^2) (one-sided, Smirnov 1939), computed with the
 * same series and truncation as R's ks.test so that the two agree.
 *
 * References:
 *   Smirnov, N. V. (1939). On the estimation of the discrepancy between
 *     empirical curves of distribution for two independent samples.
 *     Bull. Math. Univ. Moscou 2(2), 3-14.
 *   Gnedenko, B. V. and Korolyuk, V. S. (1951). On the maximum discrepancy
 *     between two empirical distributions. Doklady Akad. Nauk SSSR 80.
 *   Schroer, G. and Trenkler, D. (1995). Exact and randomization
 *     distributions of Kolmogorov-Smirnov tests for two or three samples.
 *     Computational Statistics & Data Analysis 20, 185-202.
 *   Marsaglia, G., Tsang, W. W. and Wang, J. (2003). Evaluating
 *     Kolmogorov's distribution. Journal of Statistical Software 8(18).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "speeduptest.h"
#include "cache.h"

/* Automatic choice: exact when n m < ST_KS_AUTO_EXACT (as R). */
#define ST_KS_AUTO_EXACT 10000.0
/* An explicit exact request costs O(n m) time; above this size it is
 * refused with ST_ERR_TOO_MANY rather than running for minutes. */
#define ST_KS_MAX_EXACT 1e8

#define KS_PI 3.141592653589793238462643383280

/*
 * One pass over the separately sorted samples, each compared after
 * subtracting its centre (x - cx keeps the order of x: rounding is
 * monotone, so the shifted values are computed on the fly).  At the end
 * of every block of equal pooled values (i x's and j y's seen so far) the
 * lattice value d = i m - j n is compared with the running maxima.  When
 * `block_end` is not NULL, block_end[k] is set to 1 for those k = i + j
 * (k = 1..n+m).  *ties tells whether some block holds more than one
 * value.  The products fit in int64 because the caller checked n m.
 */
/* The end of a block after i x's and j y's: the lattice value
 * d = i m - j n against the running maxima of d and -d (without a branch),
 * and the block's end marked when wanted. */
static inline void ks_block_end(size_t i, size_t j, int64_t mm, int64_t nn,
                                int64_t *best_plus, int64_t *best_minus,
                                unsigned char *block_end)
{
    int64_t d = (int64_t) i * mm - (int64_t) j * nn;
    *best_plus = d > *best_plus ? d : *best_plus;
    *best_minus = -d > *best_minus ? -d : *best_minus;
    if (block_end)
        block_end[i + j] = 1;
}

static void ks_scan(const double *xs, size_t n, double cx, const double *ys,
                    size_t m, double cy, unsigned char *block_end,
                    int64_t *dplus, int64_t *dminus, int *ties)
{
    size_t i = 0, j = 0;
    int any_tie = 0;
    int64_t best_plus = 0, best_minus = 0;
    const int64_t nn = (int64_t) n, mm = (int64_t) m;
    while (i < n || j < m) {
        /* Fast path: while the smaller head is tied with nothing it ends
         * a block of its own; the choice of head and the maxima are taken
         * without branches (and the block's end marked when wanted). */
        while (i < n && j < m) {
            double a = xs[i] - cx, b = ys[j] - cy;
            if (a == b || (i + 1 < n && xs[i + 1] - cx == a) ||
                (j + 1 < m && ys[j + 1] - cy == b))
                break;
            size_t tx = a < b;
            i += tx;
            j += 1 - tx;
            ks_block_end(i, j, mm, nn, &best_plus, &best_minus, block_end);
        }
        if (i >= n && j >= m)
            break;
        double v;
        if (j >= m || (i < n && xs[i] - cx <= ys[j] - cy))
            v = xs[i] - cx;
        else
            v = ys[j] - cy;
        const size_t before = i + j;
        while (i < n && xs[i] - cx == v)
            i++;
        while (j < m && ys[j] - cy == v)
            j++;
        if (i + j == before)
            break;                /* not finite: the caller checked */
        if (i + j - before > 1)
            any_tie = 1;
        ks_block_end(i, j, mm, nn, &best_plus, &best_minus, block_end);
    }
    *dplus = best_plus;
    *dminus = best_minus;
    *ties = any_tie;
}

/*
 * ks_scan on integer keys of the centred values (st_sort_key of v + 0.0,
 * which turns -0 into +0: equal doubles get equal keys, and the keys'
 * order is the values').  The same merge, each step's loads and
 * comparisons on integers, whose latencies (the merge is one chain of
 * them) are about half those of doubles.  Returns 0 (nothing done) for a
 * NaN among the centred values or more than KS_KEYS of them.
 */
#define KS_KEYS 512
static int ks_scan_keys(const double *xs, size_t n, double cx,
                        const double *ys, size_t m, double cy,
                        unsigned char *block_end, int64_t *dplus,
                        int64_t *dminus, int *ties)
{
    uint64_t kx[KS_KEYS + 1], ky[KS_KEYS + 1];
    if (n + m > KS_KEYS) return 0;
    int nan = 0;
    for (size_t i = 0; i < n; i++) {
        double v = xs[i] - cx + 0.0;
        nan |= isnan(v);
        kx[i] = st_sort_key(v);
    }
    for (size_t j = 0; j < m; j++) {
        double v = ys[j] - cy + 0.0;
        nan |= isnan(v);
        ky[j] = st_sort_key(v);
    }
    if (nan) return 0;
    /* sentinels past the ends: key 0 is a NaN's, which no value here is */
    kx[n] = ky[m] = 0;
    size_t i = 0, j = 0;
    int any_tie = 0;
    int64_t best_plus = 0, best_minus = 0;
    const int64_t nn = (int64_t) n, mm = (int64_t) m;
    while (i < n || j < m) {
        while (i < n && j < m) {
            uint64_t a = kx[i], b = ky[j];
            if (a == b || kx[i + 1] == a || ky[j + 1] == b) break;
            size_t tx = a < b;
            i += tx;
            j += 1 - tx;
            ks_block_end(i, j, mm, nn, &best_plus, &best_minus, block_end);
        }
        if (i >= n && j >= m)
            break;
        uint64_t v = j >= m || (i < n && kx[i] <= ky[j]) ? kx[i] : ky[j];
        const size_t before = i + j;
        while (i < n && kx[i] == v)
            i++;
        while (j < m && ky[j] == v)
            j++;
        if (i + j - before > 1)
            any_tie = 1;
        ks_block_end(i, j, mm, nn, &best_plus, &best_minus, block_end);
    }
    *dplus = best_plus;
    *dminus = best_minus;
    *ties = any_tie;
    return 1;
}

/*
 * Kolmogorov's limit distribution P(K <= x), K = lim sqrt(n m/(n+m)) D.
 * Two classical series (Marsaglia et al. 2003, eq. 2 and 3):
 *   x < 1:  sqrt(2 pi) / x  sum_{k odd} exp(-k^2 pi^2 / (8 x^2))
 *   x >= 1: 1 - 2 sum_{k >= 1} (-1)^(k-1) exp(-2 k^2 x^2)
 * R's ks.test evaluates them with tolerance 1e-6: for x < 1 that keeps
 * only the first term (k < floor(sqrt(2 - log(1e-6))) = 3), for x >= 1
 * it stops once a term changes the sum by no more than 1e-6.  The same
 * truncation is used here so that the p-values agree with R's; just
 * below x = 1 the single term is off by up to about 3e-5 (R's choice).
 */
static double ks_limit_cdf(double x)
{
    const double tol = 1e-6;
    if (!(x > 0))
        return 0.0;
    if (x < 1) {
        const int kmax = (int) sqrt(2 - log(tol));
        const double z = -(KS_PI * KS_PI / 8) / (x * x);
        const double w = log(x);
        double s = 0;
        for (int k = 1; k < kmax; k += 2)
            s += exp(k * k * z - w);
        return s * sqrt(2 * KS_PI);
    }
    const double z = -2 * x * x;
    double sign = -1, old = 0, cur = 1;
    /* Terms decrease like exp(-2 k^2), so the loop stops after a handful
     * of iterations; the bound only guards against a NaN argument. */
    for (int k = 1; k < 1000 && fabs(old - cur) > tol; k++) {
        old = cur;
        cur += 2 * sign * exp(z * k * k);
        sign = -sign;
    }
    return cur;
}

/*
 * Exact P(statistic >= dobs) by dynamic programming over the diagonals
 * k = i + j of the lattice.  Instead of path counts (which overflow
 * double near n + m = 1030) the array holds probabilities: from (i, j)
 * with r = N - k values left the next value is an x with probability
 * (n - i) / r and a y with probability (m - j) / r, which makes every
 * complete path equally likely (probability 1 / choose(N, n)).  At a
 * block end, the mass of the states at or beyond the boundary is moved to
 * `hit`, so the p-value is accumulated directly (no 1 - P cancellation).
 * cur[i] is the probability of (i, k - i) not having hit yet.
 * Time O(n m), memory O(n + m).
 */
static int ks_exact_upper(size_t n, size_t m, const unsigned char *block_end,
                          st_alternative alt, int64_t dobs, double *p)
{
    const size_t N = n + m;
    const int64_t nn = (int64_t) n, mm = (int64_t) m;
    double *cur = calloc(n + 1, sizeof(double));
    if (!cur)
        return ST_ERR_ALLOC;
    double hit = 0;
    cur[0] = 1;
    for (size_t k = 0; k < N; k++) {
        const size_t lo = k > m ? k - m : 0;
        const size_t hi = k < n ? k : n;
        const double r = (double) (N - k);
        /* Update in place from high i to low i: new[i] = old[i] * P(y
         * step from (i, k - i)) + old[i - 1] * P(x step from (i-1, .)). */
        const size_t nlo = (k + 1) > m ? k + 1 - m : 0;
        const size_t nhi = (k + 1) < n ? k + 1 : n;
        for (size_t i = nhi + 1; i-- > nlo;) {
            double v = 0;
            if (i >= lo && i <= hi) {
                size_t j = k - i;
                v += cur[i] * ((double) (m - j) / r);
            }
            if (i >= 1 && i - 1 >= lo && i - 1 <= hi)
                v += cur[i - 1] * ((double) (n - (i - 1)) / r);
            cur[i] = v;
        }
        if (lo < nlo)
            cur[lo] = 0;          /* state left the band */
        if (block_end[k + 1]) {
            for (size_t i = nlo; i <= nhi; i++) {
                int64_t d = (int64_t) i * mm - (int64_t) (k + 1 - i) * nn;
                int64_t stat = alt == ST_TWO_SIDED ? (d < 0 ? -d : d)
                             : alt == ST_GREATER ? d : -d;
                if (stat >= dobs) {
                    hit += cur[i];
                    cur[i] = 0;
                }
            }
        }
    }
    free(cur);
    *p = hit < 0 ? 0 : (hit > 1 ? 1 : hit);
    return ST_OK;
}

/* Tails kept for sizes with n m up to this many lattice values. */
#define ST_KS_CACHE_MAX 100000.0
/* Tie-block marks of samples of up to this many values in all (less
 * one) live on the stack. */
#define KS_LOCAL_BLOCKS 1024

/* The cache's exact tails (NAN until computed) for the sizes n, m, the
 * alternative and the tie blocks block_end, started afresh when any of
 * them differs from the ones it holds; NULL without a cache or memory. */
static double *cached_tails(st_cache *cache, size_t n, size_t m,
                            st_alternative alt,
                            const unsigned char *block_end)
{
    if (!cache) return NULL;
    size_t N = n + m;
    if (cache->smirnov.p && cache->smirnov.n == n && cache->smirnov.m == m &&
        cache->smirnov.alt == (int) alt &&
        memcmp(cache->smirnov.blocks, block_end, N + 1) == 0)
        return cache->smirnov.p;
    size_t len = n * m + 1;
    free(cache->smirnov.p);
    free(cache->smirnov.blocks);
    cache->smirnov.p = st_malloc(len, sizeof(double));
    cache->smirnov.blocks = malloc(N + 1);
    if (!cache->smirnov.p || !cache->smirnov.blocks) {
        free(cache->smirnov.p);
        free(cache->smirnov.blocks);
        cache->smirnov.p = NULL;
        cache->smirnov.blocks = NULL;
        cache->smirnov.n = cache->smirnov.m = 0;
        return NULL;
    }
    for (size_t i = 0; i < len; i++) cache->smirnov.p[i] = NAN;
    memcpy(cache->smirnov.blocks, block_end, N + 1);
    cache->smirnov.n = n;
    cache->smirnov.m = m;
    cache->smirnov.alt = (int) alt;
    return cache->smirnov.p;
}

/* The test on sorted samples (see ks_scan for the centres), also
 * telling (when has_ties is not NULL) whether the pooled sample has ties;
 * the R entry point uses it for R's warning. */
static int ks_sorted_impl(const double *xs, size_t n, double cx,
                          const double *ys, size_t m, double cy,
                          st_alternative alt, int exact, st_result *out,
                          int *has_ties, st_cache *cache)
{
    st_result_init(out);
    if (n < 1 || m < 1) {
        out->status = ST_ERR_TOO_FEW;
        return out->status;
    }
    if (alt != ST_TWO_SIDED && alt != ST_LESS && alt != ST_GREATER) {
        out->status = ST_ERR_DOMAIN;
        return out->status;
    }
    /* infinite values are ordered like any other; a NaN (or an infinite
     * value minus an infinite centre) is not, and shows at an end */
    if (isnan(cx) || isnan(cy) || isnan(xs[0] - cx) ||
        isnan(xs[n - 1] - cx) || isnan(ys[0] - cy) || isnan(ys[m - 1] - cy)) {
        out->status = ST_ERR_DOMAIN;
        return out->status;
    }
    /* n m, n + m and the lattice values i m - j n must fit in int64. */
    if (n > (size_t) (INT64_MAX / 4) || m > (size_t) (INT64_MAX / 4) ||
        (int64_t) n > INT64_MAX / 2 / (int64_t) m) {
        out->status = ST_ERR_TOO_MANY;
        return out->status;
    }
    const double nm = (double) n * (double) m;
    int use_exact = exact < 0 ? nm < ST_KS_AUTO_EXACT : exact != 0;
    if (use_exact && nm > ST_KS_MAX_EXACT) {
        out->status = ST_ERR_TOO_MANY;
        return out->status;
    }

    unsigned char *block_end = NULL;
    unsigned char local[KS_LOCAL_BLOCKS];   /* (small samples: no malloc) */
    if (use_exact) {
        block_end = n + m + 1 <= KS_LOCAL_BLOCKS ? local
                                                : malloc(n + m + 1);
        if (block_end) memset(block_end, 0, n + m + 1);
        if (!block_end) {
            out->status = ST_ERR_ALLOC;
            return out->status;
        }
    }
    int64_t dplus, dminus;
    int ties;
    if (!ks_scan_keys(xs, n, cx, ys, m, cy, block_end, &dplus, &dminus,
                      &ties))
        ks_scan(xs, n, cx, ys, m, cy, block_end, &dplus, &dminus, &ties);
    if (has_ties)
        *has_ties = ties;
    int64_t dobs = alt == ST_TWO_SIDED ? (dplus > dminus ? dplus : dminus)
                 : alt == ST_GREATER ? dplus : dminus;
    const double D = (double) dobs / nm;
    double p;
    if (use_exact) {
        /* dobs = 0: the last block always has d = 0, so P(D >= 0) = 1. */
        int status = ST_OK;
        p = 1;
        /* The tail depends on n, m, the alternative, the blocks of ties
         * and dobs only: a caller's cache keeps the ones computed. */
        double *tails = dobs > 0 && nm <= ST_KS_CACHE_MAX
                        ? cached_tails(cache, n, m, alt, block_end) : NULL;
        if (tails && !isnan(tails[dobs]))
            p = tails[dobs];
        else if (dobs > 0) {
            status = ks_exact_upper(n, m, block_end, alt, dobs, &p);
            if (tails && status == ST_OK) tails[dobs] = p;
        }
        if (block_end != local) free(block_end);
        if (status != ST_OK) {
            out->status = status;
            return status;
        }
    } else {
        /* Effective size n m / (n + m), computed in R's order. */
        const double neff = (double) n * (double) m / ((double) n + (double) m);
        if (alt == ST_TWO_SIDED)
            p = D < 2.220446049250313e-16 ? 1
              : 1 - ks_limit_cdf(sqrt(neff) * D);
        else
            p = exp(-2 * neff * D * D);
        p = p < 0 ? 0 : (p > 1 ? 1 : p);
    }
    out->statistic = D;
    out->p_value = p;
    out->exact = use_exact;
    out->status = ST_OK;
    return ST_OK;
}

/* The test on samples in any order: sorted copies (NaN refused first). */
static int ks_test_impl(const double *x, size_t n, double cx,
                        const double *y, size_t m, double cy,
                        st_alternative alt, int exact, st_result *out,
                        int *has_ties, st_cache *cache)
{
    st_result_init(out);
    if (n < 1 || m < 1) {
        out->status = ST_ERR_TOO_FEW;
        return out->status;
    }
    for (size_t i = 0; i < n; i++)
        if (isnan(x[i])) { out->status = ST_ERR_DOMAIN; return out->status; }
    for (size_t j = 0; j < m; j++)
        if (isnan(y[j])) { out->status = ST_ERR_DOMAIN; return out->status; }
    double *xs = st_sorted_copy(x, n);
    double *ys = st_sorted_copy(y, m);
    if (!xs || !ys) {
        free(xs); free(ys);
        out->status = ST_ERR_ALLOC;
        return out->status;
    }
    int status = ks_sorted_impl(xs, n, cx, ys, m, cy, alt, exact, out,
                                has_ties, cache);
    free(xs);
    free(ys);
    return status;
}

int st_ks_test(const double *x, size_t n, const double *y, size_t m,
               st_alternative alt, int exact, const st_ks_options *opt,
               st_result *out)
{
    double cx = opt ? opt->centre[0] : 0.0, cy = opt ? opt->centre[1] : 0.0;
    st_cache *cache = opt ? opt->cache : NULL;
    int *ties = opt ? opt->ties : NULL;
    if (ties) *ties = 0;
    if (opt && opt->sorted)
        return ks_sorted_impl(x, n, cx, y, m, cy, alt, exact, out, ties,
                              cache);
    return ks_test_impl(x, n, cx, y, m, cy, alt, exact, out, ties, cache);
}

/* ---- R entry point ------------------------------------------------------ */
#include "ffi.h"

SEXP ffi_ks_test(SEXP x, SEXP y, SEXP alternative, SEXP exact)
{
    size_t n, m;
    const double *xp = ffi_doubles(x, &n, "x");
    const double *yp = ffi_doubles(y, &m, "y");
    int alt = ffi_int(alternative, "alternative");
    int ex = ffi_int(exact, "exact");
    st_result r;
    int ties = 0;
    st_ks_options opt = {0};
    opt.ties = &ties;
    st_ks_test(xp, n, yp, m, (st_alternative) alt, ex, &opt, &r);
    /* the core's fields plus `ties` (for the warning R gives) */
    SEXP res = PROTECT(ffi_result(&r));
    R_xlen_t len = XLENGTH(res);
    SEXP out = PROTECT(Rf_allocVector(VECSXP, len + 1));
    SEXP nms = PROTECT(Rf_allocVector(STRSXP, len + 1));
    SEXP old = Rf_getAttrib(res, R_NamesSymbol);
    for (R_xlen_t i = 0; i < len; i++) {
        SET_VECTOR_ELT(out, i, VECTOR_ELT(res, i));
        SET_STRING_ELT(nms, i, STRING_ELT(old, i));
    }
    SET_VECTOR_ELT(out, len, Rf_ScalarLogical(ties));
    SET_STRING_ELT(nms, len, Rf_mkChar("ties"));
    Rf_setAttrib(out, R_NamesSymbol, nms);
    UNPROTECT(3);
    return out;
}
