/*
 * run-order.c -- checks that the runs of a sample behave as independent
 * draws in the order they were recorded.
 *
 * Trend (Mann 1945, Kendall 1975): Kendall's S of the run times against
 * the run index,
 *   S = sum_{i < j} sign(x_j - x_i) = C - D,
 * C and D the concordant and discordant pairs.  D is the number of strict
 * inversions of the sequence, counted by a merge sort in O(n log n) (see
 * count_inversions below); with
 * N = n(n-1)/2 pairs and T = sum t(t-1)/2 pairs tied in x, C = N - T - D.
 * Without ties and n < 50 the null distribution of D is that of the
 * number of inversions of a random permutation (Mahonian numbers): with
 * P_n(k) the probability of k inversions among n values,
 *   P_n(k) = (1/n) sum_{j=0}^{min(k, n-1)} P_{n-1}(k - j),
 * (the last value adds j in 0..n-1 inversions, uniformly); the two-sided
 * p-value is min(1, 2 P(D <= min(d, N - d))) by symmetry.  Otherwise
 * z = S / sqrt(Var S) with the tie-corrected variance
 *   Var S = [n(n-1)(2n+5) - sum t(t-1)(2t+5)] / 18
 * and p = 2 (1 - Phi(|z|)), no continuity correction (as cor.test()).
 *
 * Interleaving (Wald and Wolfowitz 1940): R runs of the two version labels
 * in their global order, n1 and n2 runs of each version.  Under random
 * order, with C(a, b) the binomial coefficient and K = C(n1 + n2, n1),
 *   P(R = 2k)     = 2 C(n1-1, k-1) C(n2-1, k-1) / K,
 *   P(R = 2k + 1) = [C(n1-1, k) C(n2-1, k-1) + C(n1-1, k-1) C(n2-1, k)] / K,
 * summed in log space for the one-sided p-value P(R <= r) (too few runs:
 * the versions were measured in blocks).
 *
 * References:
 *   Mann, H. B. (1945). Nonparametric tests against trend. Econometrica
 *     13(3), 245-259.
 *   Kendall, M. G. (1975). Rank Correlation Methods, 4th ed. Griffin.
 *   Wald, A. and Wolfowitz, J. (1940). On a test whether two samples are
 *     from the same population. Annals of Mathematical Statistics 11(2),
 *     147-162.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <Rmath.h>
#include "speeduptest.h"
#include "cache.h"

/* exact distribution below this size, without ties */
#define MK_EXACT_MAX ST_CACHE_KENDALL_N

/*
 * The inversion count.  The run times are mapped to unsigned 64-bit keys
 * whose order is the numeric order (the IEEE-754 bit pattern with the sign
 * bit set for positive numbers and all bits flipped for negative ones; -0
 * is read as +0 first, so equal values have equal keys), and sorted by a
 * bottom-up merge sort that adds up the inversions it removes:
 *
 *   - runs of MK_RUN = 4 keys: their 6 pairs are compared (a strict >
 *     is one inversion) and a network of 5 compare-exchanges sorts them,
 *     all without branches (a last short run, or another MK_RUN, is
 *     sorted by insertion: each step of a key over a strictly larger one
 *     removes exactly one inversion, so the steps count them);
 *   - merging two sorted runs L and R, a key of R taken before the keys of
 *     L still waiting (R[j] < L[i], strictly: equal keys are no
 *     inversion) was after each of them in the sequence and below it: it
 *     adds (|L| - i) inversions.  Inversions between runs are counted once,
 *     at the merge that brings their two keys together, so the sum over
 *     all merges and runs is D.
 *
 * The merge chooses its next key without a branch (the comparison is used
 * as a 0/1 number), which keeps the pipeline full on run times in random
 * order, and two merges are stepped in the same loop so that their chains
 * of dependent loads overlap.  The passes up to width MK_BLOCK are made
 * block by block, each block staying in the cache.  Passes go back and
 * forth between the keys and one scratch array of n keys; the last pass
 * leaves the keys sorted in one of the two, and the tie blocks are read
 * off them.  O(n log n) time, 2n keys of memory (one sample at a time).
 * Samples of 16 to 64 values (a suite's benchmarks) are counted from all
 * pairs at once where the vector code applies (simd.c).
 */
#ifndef MK_BLOCK
#define MK_BLOCK 16384   /* keys merged block by block, in the cache */
#endif
#ifndef MK_RUN
#define MK_RUN 4
#endif

static uint64_t mk_key(double v)
{
    return st_sort_key(v == 0 ? 0.0 : v);  /* -0 and +0 are one value */
}

/* One merge in progress: a[i..mid) and a[j..hi) left, output at b[k]. */
typedef struct {
    size_t i, mid, j, hi, k;
} mk_merge;

#define MK_STEP(m, inv)                                                  \
    do {                                                                 \
        uint64_t l_ = a[(m).i], r_ = a[(m).j];                           \
        size_t right_ = r_ < l_;               /* 1: take r */           \
        (inv) += right_ * (uint64_t) ((m).mid - (m).i);                  \
        b[(m).k++] = right_ ? r_ : l_;                                   \
        (m).i += 1 - right_;                                             \
        (m).j += right_;                                                 \
    } while (0)

/* Finishes the merge m; returns the inversions it adds. */
static uint64_t merge_finish(const uint64_t *a, uint64_t *b, mk_merge m)
{
    uint64_t inv = 0;
    while (m.i < m.mid && m.j < m.hi) MK_STEP(m, inv);
    while (m.i < m.mid) b[m.k++] = a[m.i++];
    while (m.j < m.hi) b[m.k++] = a[m.j++];
    return inv;
}

/* Merges a[lo..mid) with a[mid..hi) into b[lo..hi) for two such triples
 * at once (p and q; q may be empty), returning the inversions between the
 * runs of each.  A merge is a chain of dependent loads and compares;
 * stepping two independent merges in the same loop lets the processor
 * overlap them.  Runs already in order are copied. */
static uint64_t merge_count2(const uint64_t *a, uint64_t *b, mk_merge p,
                             mk_merge q)
{
    uint64_t inv = 0;
    if (p.mid < p.hi && a[p.mid - 1] <= a[p.mid]) {
        memcpy(b + p.k, a + p.i, (p.hi - p.i) * sizeof *a);
        p.i = p.mid;
        p.j = p.k = p.hi;
    }
    if (q.mid < q.hi && a[q.mid - 1] <= a[q.mid]) {
        memcpy(b + q.k, a + q.i, (q.hi - q.i) * sizeof *a);
        q.i = q.mid;
        q.j = q.k = q.hi;
    }
    while (p.i < p.mid && p.j < p.hi && q.i < q.mid && q.j < q.hi) {
        MK_STEP(p, inv);
        MK_STEP(q, inv);
    }
    return inv + merge_finish(a, b, p) + merge_finish(a, b, q);
}

/* One pass over a[lo..hi): the runs of width w merged in pairs into b. */
static uint64_t merge_pass(const uint64_t *a, uint64_t *b, size_t lo0,
                           size_t hi0, size_t w)
{
    uint64_t inv = 0;
    for (size_t lo = lo0; lo < hi0; lo += 4 * w) {
        mk_merge m[2];
        for (int t = 0; t < 2; t++) {
            size_t l0 = lo + 2 * w * (size_t) t;
            l0 = l0 < hi0 ? l0 : hi0;
            m[t].i = m[t].k = l0;
            m[t].mid = m[t].j = l0 + w < hi0 ? l0 + w : hi0;
            m[t].hi = l0 + 2 * w < hi0 ? l0 + 2 * w : hi0;
        }
        inv += merge_count2(a, b, m[0], m[1]);
    }
    return inv;
}

/* Strict inversions of the keys k[0..n), through the scratch array tmp
 * of n keys; *sorted is set to whichever of the two holds them sorted. */
static uint64_t count_inversions(uint64_t *k, uint64_t *tmp, size_t n,
                                 const uint64_t **sorted)
{
    uint64_t inv = 0;
    size_t lo0 = 0;
#if MK_RUN == 4
    /* runs of 4: the 6 pairs compared without branches, then sorted by a
     * network of 5 compare-exchanges */
    for (; lo0 + 4 <= n; lo0 += 4) {
        uint64_t a0 = k[lo0], a1 = k[lo0 + 1], a2 = k[lo0 + 2],
                 a3 = k[lo0 + 3];
        inv += (uint64_t) (a0 > a1) + (a0 > a2) + (a0 > a3) + (a1 > a2) +
               (a1 > a3) + (a2 > a3);
#define MK_CX(p, q) do { uint64_t l_ = p < q ? p : q, h_ = p < q ? q : p; \
                         p = l_; q = h_; } while (0)
        MK_CX(a0, a1);
        MK_CX(a2, a3);
        MK_CX(a0, a2);
        MK_CX(a1, a3);
        MK_CX(a1, a2);
#undef MK_CX
        k[lo0] = a0;
        k[lo0 + 1] = a1;
        k[lo0 + 2] = a2;
        k[lo0 + 3] = a3;
    }
#endif
    for (size_t lo = lo0; lo < n; lo += MK_RUN) {
        size_t hi = lo + MK_RUN < n ? lo + MK_RUN : n;
        for (size_t i = lo + 1; i < hi; i++) {
            uint64_t v = k[i];
            size_t j = i;
            while (j > lo && k[j - 1] > v) {
                k[j] = k[j - 1];
                j--;
            }
            inv += (uint64_t) (i - j);
            k[j] = v;
        }
    }
    /* the passes up to width MK_BLOCK block by block, so that each
     * block stays in the cache through them; every block makes the same
     * number of passes (a short last block copies), so all end in the
     * same array */
    uint64_t *a = k, *b = tmp;
    size_t wb = MK_RUN;
    while (wb < MK_BLOCK && wb < n) wb *= 2;
    for (size_t blo = 0; blo < n; blo += wb) {
        size_t bhi = blo + wb < n ? blo + wb : n;
        uint64_t *p = k, *q = tmp;
        for (size_t w = MK_RUN; w < wb; w *= 2) {
            inv += merge_pass(p, q, blo, bhi, w);
            uint64_t *t = p;
            p = q;
            q = t;
        }
        a = p;
        b = q;
    }
    for (size_t w = wb; w < n; w *= 2) {
        inv += merge_pass(a, b, 0, n, w);
        uint64_t *t = a;
        a = b;
        b = t;
    }
    *sorted = a;
    return inv;
}

/* The null distributions of D for n < MK_EXACT_MAX, as cumulative
 * probabilities cdf[n][d] = P(D <= d), built in the cache once by the
 * Mahonian recursion up to the largest n asked (so a suite of many short
 * samples pays O(n^3) once, not per sample). */
static int mk_cdf(st_cache *cache, size_t n, double d, double *out)
{
    if (!cache->kendall.p) {
        size_t top = (MK_EXACT_MAX - 1) * (MK_EXACT_MAX - 2) / 2;
        cache->kendall.p = calloc(top + 1, sizeof(double));
        if (!cache->kendall.p) return ST_ERR_ALLOC;
        cache->kendall.p[0] = 1;
        cache->kendall.built = 1;
    }
    while (cache->kendall.built < n) {
        size_t k = cache->kendall.built + 1, top = k * (k - 1) / 2;
        double *c = st_malloc(top + 1, sizeof(double));
        if (!c) return ST_ERR_ALLOC;
        /* new density q(s) = (1/k) sum_{j<k} p(s - j), in place from the
         * top down using the running window sum */
        double *p = cache->kendall.p, run = 0;
        size_t oldtop = (k - 1) * (k - 2) / 2;
        for (size_t s = 0; s <= top; s++) {   /* prefix sums in c */
            run += s <= oldtop ? p[s] : 0;
            c[s] = run;
        }
        for (size_t s = 0; s <= top; s++) {
            double hi = c[s], lo = s >= k ? c[s - k] : 0;
            p[s] = (hi - lo) / (double) k;
        }
        run = 0;
        for (size_t s = 0; s <= top; s++) {
            run += p[s];
            c[s] = run > 1 ? 1 : run;
        }
        cache->kendall.cdf[k] = c;
        cache->kendall.built = k;
    }
    size_t N = n * (n - 1) / 2;
    size_t di = d < 0 ? 0 : (size_t) d;
    *out = d < 0 ? 0 : cache->kendall.cdf[n][di > N ? N : di];
    return ST_OK;
}

static int mk_test(double D, const uint64_t *sk, size_t n, st_result *out,
                   st_cache *cache);

/* The test from the keys k[0..n) of the sample (tmp: scratch of n keys;
 * the keys end sorted in one of the two). */
static int mk_from_keys(uint64_t *k, uint64_t *tmp, size_t n, st_result *out,
                        st_cache *cache)
{
    const uint64_t *sk;
    double D = (double) count_inversions(k, tmp, n, &sk);
    return mk_test(D, sk, n, out, cache);
}

static int mk_result(double D, double T, double tv, int ties, size_t n,
                     st_result *out, st_cache *cache);

/* The test from D, the strict inversions, and the sorted keys sk. */
static int mk_test(double D, const uint64_t *sk, size_t n, st_result *out,
                   st_cache *cache)
{
    /* tie groups */
    double T = 0, tv = 0;
    int ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && sk[j] == sk[i]) j++;
        double t = (double) (j - i);
        if (t > 1) {
            ties = 1;
            T += t * (t - 1) / 2;
            tv += t * (t - 1) * (2 * t + 5);
        }
        i = j;
    }
    return mk_result(D, T, tv, ties, n, out, cache);
}

/* The test from D, T = sum t(t-1)/2 and tv = sum t(t-1)(2t+5) over the
 * tie groups (all integers, exact in a double whatever the order of
 * summation below 2^53). */
static int mk_result(double D, double T, double tv, int ties, size_t n,
                     st_result *out, st_cache *cache)
{
    double dn = (double) n, N = dn * (dn - 1) / 2;
    double S = (N - T - D) - D;
    double var = (dn * (dn - 1) * (2 * dn + 5) - tv) / 18;
    out->statistic = S;
    out->estimate[0] = (N - T) > 0 ? S / sqrt(N * (N - T)) : NAN; /* tau-b */
    if (!(var > 0)) return st_result_fail(out, ST_ERR_CONSTANT);
    if (!ties && n < MK_EXACT_MAX) {
        double lo = D < N - D ? D : N - D, c;
        int s = mk_cdf(cache, n, lo, &c);
        if (s != ST_OK) return st_result_fail(out, s);
        out->p_value = fmin(1.0, 2 * c);
        out->exact = 1;
    } else {
        double z = S / sqrt(var);
        out->p_value = 2 * pnorm(-fabs(z), 0, 1, 1, 0);
        out->exact = 0;
    }
    out->status = ST_OK;
    return ST_OK;
}

static int mann_kendall_tab(const double *x, size_t n, st_result *out,
                            st_cache *cache)
{
    st_result_init(out);
    if (n < 3) return st_result_fail(out, ST_ERR_TOO_FEW);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return st_result_fail(out, ST_ERR_DOMAIN);
    double D, T, tv;
    int ties;
    if (st_simd_kendall(x, n, &D, &T, &tv, &ties))
        return mk_result(D, T, tv, ties, n, out, cache);
    /* short samples' keys on the stack */
    uint64_t local[2 * 64];
    uint64_t *a = n <= 64 ? local : st_malloc(n, 2 * sizeof(uint64_t));
    if (!a) return st_result_fail(out, ST_ERR_ALLOC);
    for (size_t i = 0; i < n; i++) a[i] = mk_key(x[i]);
    int s = mk_from_keys(a, a + n, n, out, cache);
    if (a != local) free(a);
    return s;
}

/* The last merge of a sort in place: left[0..h) (a copy of k[0..h)) with
 * the sorted k[h..n) into k, returning the inversions between the halves.
 * The output index i + (j - h) stays below j, so no key of the right half
 * is overwritten before it is read. */
static uint64_t merge_back(const uint64_t *left, size_t h, uint64_t *k,
                           size_t n)
{
    uint64_t inv = 0;
    size_t i = 0, j = h, o = 0;
    while (i < h && j < n) {
        uint64_t l = left[i], r = k[j];
        size_t right = r < l;
        inv += right * (uint64_t) (h - i);
        k[o++] = right ? r : l;
        i += 1 - right;
        j += right;
    }
    while (i < h) k[o++] = left[i++];
    return inv;
}

/*
 * The same test, keeping the sort it makes: the merge sort that counts the
 * inversions leaves the keys in ascending order, and a key maps back to
 * its value (the inverse of mk_key), so a caller that needs the sample
 * sorted too (the median protocol) gets it for the price of one pass
 * instead of a second sort.  The keys are sorted in `sorted` itself with
 * a scratch array of half their number: each half is sorted through the
 * scratch (and copied back when its passes end there), then the left half
 * is copied out and merged back with the right one in place; the
 * inversions are those within each half plus those the last merge
 * removes.  Only -0 does not come back (it is read as +0); run times are
 * positive.
 */
static int mann_kendall_sort(const double *x, size_t n, void *sorted,
                             st_result *out, st_cache *cache)
{
    st_result_init(out);
    if (n < 3) return st_result_fail(out, ST_ERR_TOO_FEW);
    unsigned char *bytes = sorted;
    uint64_t *k = sorted;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i])) return st_result_fail(out, ST_ERR_DOMAIN);
        k[i] = mk_key(x[i]);
    }
    size_t h = n / 2;
    uint64_t *tmp = st_malloc(n - h, sizeof *tmp);
    if (!tmp) return st_result_fail(out, ST_ERR_ALLOC);
    const uint64_t *sk;
    uint64_t inv = count_inversions(k, tmp, h, &sk);
    if (sk != k) memcpy(k, sk, h * sizeof *k);
    inv += count_inversions(k + h, tmp, n - h, &sk);
    if (sk != k + h) memcpy(k + h, sk, (n - h) * sizeof *k);
    memcpy(tmp, k, h * sizeof *k);
    inv += merge_back(tmp, h, k, n);
    free(tmp);
    int s = mk_test((double) inv, k, n, out, cache);
    if (ST_FATAL(s)) return s;
    /* keys back to values (memcpy: the storage changes from keys to
     * doubles) */
    for (size_t i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, bytes + i * sizeof u, sizeof u);
        double v = st_sort_unkey(u);
        memcpy(bytes + i * sizeof v, &v, sizeof v);
    }
    return s;
}

int st_mann_kendall(const double *x, size_t n,
                    const st_mann_kendall_options *opt, st_result *out)
{
    st_cache own, *cache = opt && opt->cache ? opt->cache : &own;
    if (cache == &own) st_cache_init(&own);
    int s = opt && opt->sorted
            ? mann_kendall_sort(x, n, opt->sorted, out, cache)
            : mann_kendall_tab(x, n, out, cache);
    if (cache == &own) st_cache_free(&own);
    return s;
}

/* log P(R = r) for n1, n2 > 0 under random order. */
static double runs_logprob(double n1, double n2, double r, double lK)
{
    double k = floor(r / 2);
    if (fmod(r, 2) == 0) {
        return M_LN2 + lchoose(n1 - 1, k - 1) + lchoose(n2 - 1, k - 1) - lK;
    }
    double a = (k <= n1 - 1 && k - 1 <= n2 - 1)
        ? exp(lchoose(n1 - 1, k) + lchoose(n2 - 1, k - 1) - lK) : 0;
    double b = (k - 1 <= n1 - 1 && k <= n2 - 1)
        ? exp(lchoose(n1 - 1, k - 1) + lchoose(n2 - 1, k) - lK) : 0;
    return log(a + b);
}

double st_runs_test_lower(double n1, double n2, double r)
{
    if (!(n1 >= 1 && n2 >= 1) || !(r >= 2)) return NAN;
    /* at most 2 min(n1, n2) + 1 runs are possible: from there on P = 1 (and
     * the loop below stays bounded whatever r is) */
    double rmax = 2 * (n1 < n2 ? n1 : n2) + 1;
    if (r >= rmax) return 1;
    double lK = lchoose(n1 + n2, n1), p = 0;
    for (double s = 2; s <= r; s++) p += exp(runs_logprob(n1, n2, s, lK));
    return p > 1 ? 1 : p;
}

/* ---- R entry points -------------------------------------------------------- */
#include "ffi.h"

/* Mann-Kendall results r[0 .. k) into the columns statistic, tau,
 * p_value, exact, status of a list of ffi_trend_list()'s layout, from row
 * `from` on, NA where not computed. */
static void trend_fill(const st_result *r, size_t k, SEXP cols[5], size_t from)
{
    double *s = REAL(cols[0]) + from, *tau = REAL(cols[1]) + from,
           *p = REAL(cols[2]) + from;
    int *ex = LOGICAL(cols[3]) + from, *stt = INTEGER(cols[4]) + from;
    for (size_t i = 0; i < k; i++) {
        int ok = r[i].status == ST_OK;
        s[i] = isnan(r[i].statistic) ? NA_REAL : r[i].statistic;
        tau[i] = ok && !isnan(r[i].estimate[0]) ? r[i].estimate[0] : NA_REAL;
        p[i] = ok ? r[i].p_value : NA_REAL;
        ex[i] = ok ? r[i].exact : NA_LOGICAL;
        stt[i] = r[i].status;
    }
}

static const char *trend_names[] = {"statistic", "tau", "p_value", "exact",
                                    "status"};

/* (the five columns of k rows, kept in `hold`, a protected list of 5) */
static void trend_alloc(SEXP cols[5], SEXP hold, size_t k)
{
    static const SEXPTYPE type[5] = {REALSXP, REALSXP, REALSXP, LGLSXP, INTSXP};
    for (int c = 0; c < 5; c++) {
        cols[c] = Rf_allocVector(type[c], (R_xlen_t) k);
        SET_VECTOR_ELT(hold, c, cols[c]);
    }
}

/* Mann-Kendall results as list(statistic, tau, p_value, exact, status),
 * NA where not computed. */
SEXP ffi_trend_list(const st_result *r, size_t k)
{
    SEXP hold = PROTECT(Rf_allocVector(VECSXP, 5));
    SEXP cols[5];
    trend_alloc(cols, hold, k);
    trend_fill(r, k, cols, 0);
    SEXP out = ffi_named_list(5, trend_names, cols);
    UNPROTECT(1);
    return out;
}

/* Mann-Kendall on each of the k samples values[start[i] + 0..len[i]),
 * a block of samples at a time written into the columns (a buffer that
 * stays in the cache instead of a result per sample). */
SEXP ffi_mann_kendall(SEXP values, SEXP start, SEXP len)
{
    ffi_samples s = ffi_read_samples(values, start, len);
    const double *v = s.values, *st = s.start, *ln = s.len;
    size_t k = s.k;
    SEXP hold = PROTECT(Rf_allocVector(VECSXP, 5));
    SEXP cols[5];
    trend_alloc(cols, hold, k);
    enum { BLOCK = 256 };
    st_result res[BLOCK];
    st_cache cache;
    st_cache_init(&cache);
    st_mann_kendall_options opt = {NULL, &cache};
    for (size_t from = 0; from < k; from += BLOCK) {
        size_t n = k - from < BLOCK ? k - from : BLOCK;
        for (size_t b = 0; b < n; b++) {
            size_t i = from + b;
            int status = st_mann_kendall(v + (size_t) st[i], (size_t) ln[i],
                                         &opt, &res[b]);
            if (ST_FATAL(status)) {
                st_cache_free(&cache);
                Rf_error(status == ST_ERR_ALLOC ? "out of memory." : "interrupted.");
            }
            res[b].status = status;
        }
        trend_fill(res, n, cols, from);
    }
    st_cache_free(&cache);
    SEXP out = ffi_named_list(5, trend_names, cols);
    UNPROTECT(1);
    return out;
}

/* The two-sided Mann-Kendall p-values of the k samples
 * values[start[i] + 0..len[i]) (a suite's trend checks, which read
 * nothing else): NA for a sample shorter than min_runs (not tested) and
 * where the test fails, as ffi_mann_kendall()'s p_value with those set
 * to NA. */
SEXP ffi_trend_p(SEXP values, SEXP start, SEXP len, SEXP min_runs)
{
    ffi_samples s = ffi_read_samples(values, start, len);
    int m = ffi_int(min_runs, "min_runs");
    SEXP out = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) s.k));
    double *p = REAL(out);
    st_cache cache;
    st_cache_init(&cache);
    st_mann_kendall_options opt = {NULL, &cache};
    for (size_t i = 0; i < s.k; i++) {
        if (s.len[i] < m) {
            p[i] = NA_REAL;
            continue;
        }
        st_result r;
        int status = st_mann_kendall(s.values + (size_t) s.start[i],
                                     (size_t) s.len[i], &opt, &r);
        if (ST_FATAL(status)) {
            st_cache_free(&cache);
            Rf_error(status == ST_ERR_ALLOC ? "out of memory." : "interrupted.");
        }
        p[i] = status == ST_OK ? r.p_value : NA_REAL;
    }
    st_cache_free(&cache);
    UNPROTECT(1);
    return out;
}

/* One-sided runs test P(R <= r), vectorised over n1, n2, r. */
SEXP ffi_runs_test(SEXP n1, SEXP n2, SEXP r)
{
    size_t k, k2, k3;
    const double *a = ffi_doubles(n1, &k, "n1");
    const double *b = ffi_doubles(n2, &k2, "n2");
    const double *c = ffi_doubles(r, &k3, "r");
    if (k != k2 || k != k3) Rf_error("`n1`, `n2` and `r` must have the same length.");
    SEXP out = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) k));
    for (size_t i = 0; i < k; i++) {
        double p = st_runs_test_lower(a[i], b[i], c[i]);
        REAL(out)[i] = isnan(p) ? NA_REAL : p;
    }
    UNPROTECT(1);
    return out;
}
