/*
 * fuzz_core.c -- libFuzzer harness for the C core of speeduptest.
 *
 * One source, one target per build: FUZZ_TARGET names the entry points
 * driven (see the table at the end and README.md).  The fuzzer's bytes are
 * read as a little program: sizes first (bounded so that one input runs in
 * milliseconds), then values, each either a raw double or one of a palette
 * of awkward ones (NaN, +-Inf, 0, -0, huge, tiny, repeated small integers,
 * so that ties are frequent).  Every call must return without hanging or
 * crashing, and with ST_OK its results must satisfy the invariants below;
 * a broken invariant calls abort(), which libFuzzer reports with the input.
 *
 * Invariants checked
 *   - p-values in [0, 1]; confidence intervals ordered (lo <= hi);
 *   - a non-finite input value gives ST_ERR_DOMAIN (never a hang);
 *   - st_pairwise_kths equals the k-th of the explicitly sorted differences
 *     (or Walsh averages);
 *   - st_exact_tails (rank sum and signed rank) equal the tails
 *     counted by enumerating every split or sign pattern (N <= 14);
 *   - proportion intervals inside [0, 1] and ordered;
 *   - HPT confidence in [0, 1]; r-Speedup <= its supremum;
 *   - select.c's small-matrix pass in plain C and in vector code give
 *     the same counts and cells, the formed differences' ones; the
 *     sorting network sorts; select_between selects;
 *   - sorted pairs, merged mid-ranks, select_kth, st_pairwise_kths
 *     and the rank and Smirnov tests on sorted pairs equal their
 *     references (st_midranks, qsort, formed differences, the tests on
 *     plain arrays, the Smirnov statistic from the ECDFs counted at
 *     every pooled value);
 *   - an entry point's options (sorted samples, a cache, both tails at
 *     once, figures instead of data, the interval alone) give the answers
 *     of the plain call;
 *   - Mann-Kendall's S equals the O(n^2) count; the runs test's P(R <= r)
 *     is a distribution function equal to the count by enumeration;
 *   - a suite's decisions are the protocols', its two summaries agree and
 *     its gains, speedups, weights and proportions match their definitions;
 *   - the change-point scan's levels add up to alpha, its changes lie in
 *     their windows with disjoint ranges and p-values at most alpha, their
 *     figures use every value once; E-divisive's changes leave segments
 *     of at least min_size values;
 *   - every round of measure()'s order is a permutation of the versions,
 *     whatever the source of uniform indices returns;
 *   - a Google Benchmark file's runs are numbered in file order within
 *     their benchmark and ranked by distinct repetition indices;
 *   - a suite's timings grouped in one pass equal the grouping and the
 *     process counts made in two;
 *   - a suite's result columns (suitecols): the distinct rounded values
 *     are distinct, in order of appearance, and each value's index gives
 *     its fround(); a protocol's column read out of the interleaved long
 *     column is the column; the decisions' directions and significance
 *     agree with the decisions; the unattainable rows are those of the
 *     test written out; the mean's detectable speedup is missing below
 *     two runs a side.
 * Hangs are caught by libFuzzer's -timeout.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <Rmath.h>
#include "speeduptest.h"
#include "cache.h"
#include "measure.h"
/* select.c is compiled as part of the harness (run.sh leaves it out of
 * the core's files), so that its selection in an array, a static helper
 * of the pairwise selection, is checked directly. */
#include "select.c"

#ifndef FUZZ_TARGET
#define FUZZ_TARGET all
#endif
#define STR2(x) #x
#define STR(x) STR2(x)

typedef struct {
    const uint8_t *p;
    size_t n;
} reader;

static uint8_t rd_u8(reader *r)
{
    if (r->n == 0) return 0;
    r->n--;
    return *r->p++;
}

static size_t rd_size(reader *r, size_t max)
{
    return max ? (size_t) rd_u8(r) % (max + 1) : 0;
}

static double rd_double(reader *r)
{
    uint8_t tag = rd_u8(r);
    switch (tag % 16) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return 0.0;
    case 4: return -0.0;
    case 5: return DBL_MAX;
    case 6: return DBL_MIN;
    case 7: return 1e300;
    case 8: {
        double v;
        uint8_t b[8];
        for (int i = 0; i < 8; i++) b[i] = rd_u8(r);
        memcpy(&v, b, 8);
        return v;
    }
    default:
        /* small values with many ties: k / 4, k in -32 .. 31, plus 100 */
        return 100.0 + (double) ((int) rd_u8(r) % 64 - 32) / 4.0;
    }
}

static int all_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "invariant failed: %s (%s:%d)\n", #cond, __FILE__, \
            __LINE__); abort(); } } while (0)

static void check_p(double p)
{
    CHECK(isnan(p) || (p >= 0.0 && p <= 1.0));
}

static void check_result(int status, const st_result *r)
{
    if (status != ST_OK) return;
    check_p(r->p_value);
    if (!isnan(r->conf_int[0]) && !isnan(r->conf_int[1]))
        CHECK(r->conf_int[0] <= r->conf_int[1]);
}

/* non-finite values must be refused */
static void check_domain(int status, const double *x, size_t n,
                         const double *y, size_t m)
{
    if (!all_finite(x, n) || (y && !all_finite(y, m)))
        CHECK(status == ST_ERR_DOMAIN || status == ST_ERR_TOO_FEW);
}

static void check_same_result(const st_result *a, const st_result *b);

static int cmp_dbl(const void *a, const void *b)
{
    double u = *(const double *) a, v = *(const double *) b;
    return (u > v) - (u < v);
}

/* The protocols a fuzzed suite runs: the paper's two, so that the
 * per-protocol index of a benchmark's results is the protocol's code. */
static const int fuzz_protos[2] = {ST_PROTO_MEAN, ST_PROTO_MEDIAN};

/* ---- targets ------------------------------------------------------------ */

static void fuzz_wilcoxon(reader *r)
{
    size_t n = rd_size(r, 40), m = rd_size(r, 40);
    double x[40], y[40];
    for (size_t i = 0; i < n; i++) x[i] = rd_double(r);
    for (size_t j = 0; j < m; j++) y[j] = rd_double(r);
    st_alternative alt = (st_alternative) (rd_u8(r) % 3);
    int exact = (int) (rd_u8(r) % 3) - 1, correct = rd_u8(r) & 1;
    int ci = rd_u8(r) & 1;
    double level = (double) (rd_u8(r) % 99 + 1) / 100.0;
    double mu = (rd_u8(r) & 1) ? rd_double(r) : 0.0;
    st_result out;
    int st = st_wilcoxon_test(x, n, y, m, alt, mu, exact, correct, ci, level,
                              NULL, &out);
    check_result(st, &out);
    check_domain(st, x, n, y, m);
}

static void fuzz_signrank(reader *r)
{
    size_t n = rd_size(r, 60);
    double d[60];
    for (size_t i = 0; i < n; i++) d[i] = rd_double(r);
    st_alternative alt = (st_alternative) (rd_u8(r) % 3);
    int exact = (int) (rd_u8(r) % 3) - 1, correct = rd_u8(r) & 1;
    int ci = rd_u8(r) & 1;
    double level = (double) (rd_u8(r) % 99 + 1) / 100.0;
    double mu = (rd_u8(r) & 1) ? rd_double(r) : 0.0;
    st_result out;
    int st = st_signed_rank_test(d, n, alt, mu, exact, correct, ci, level,
                                 NULL, &out);
    check_result(st, &out);
    check_domain(st, d, n, NULL, 0);
}

static void fuzz_exact(reader *r)
{
    /* doubled mid-ranks of small integer data, checked by enumeration */
    size_t N = rd_size(r, 14), n = N ? rd_size(r, N) : 0;
    if (N == 0) return;
    double v[14], r2[14];
    for (size_t i = 0; i < N; i++) v[i] = (double) (rd_u8(r) % 6);
    for (size_t i = 0; i < N; i++) {
        size_t lt = 0, eq = 0;
        for (size_t j = 0; j < N; j++) {
            if (v[j] < v[i]) lt++;
            else if (v[j] == v[i]) eq++;
        }
        r2[i] = (double) (2 * lt + eq + 1);
    }
    double s2 = 0;
    for (size_t i = 0; i < n; i++) s2 += r2[i];
    double le, ge;
    int st = st_exact_tails(ST_RANK_SUM, r2, N, n, s2, &le, &ge);
    CHECK(st == ST_OK);
    double cl = 0, cg = 0, tot = 0;
    for (uint32_t mask = 0; mask < (1u << N); mask++) {
        if ((size_t) __builtin_popcount(mask) != n) continue;
        double s = 0;
        for (size_t i = 0; i < N; i++)
            if (mask >> i & 1) s += r2[i];
        tot++;
        cl += s <= s2;
        cg += s >= s2;
    }
    CHECK(fabs(le - cl / tot) <= 1e-12 * (cl / tot));
    CHECK(fabs(ge - cg / tot) <= 1e-12 * (cg / tot));
    /* signed ranks: the first n as positive */
    st = st_exact_tails(ST_SIGNED_RANK, r2, N, 0, s2, &le, &ge);
    CHECK(st == ST_OK);
    cl = cg = tot = 0;
    for (uint32_t mask = 0; mask < (1u << N); mask++) {
        double s = 0;
        for (size_t i = 0; i < N; i++)
            if (mask >> i & 1) s += r2[i];
        tot++;
        cl += s <= s2;
        cg += s >= s2;
    }
    CHECK(fabs(le - cl / tot) <= 1e-12 * (cl / tot));
    CHECK(fabs(ge - cg / tot) <= 1e-12 * (cg / tot));
    /* arbitrary (possibly invalid) ranks must fail cleanly */
    for (size_t i = 0; i < N; i++) r2[i] = rd_double(r);
    st = st_exact_tails(ST_RANK_SUM, r2, N, n, rd_double(r), &le, &ge);
    if (st == ST_OK) {
        check_p(le);
        check_p(ge);
    }
    st = st_exact_tails(ST_SIGNED_RANK, r2, N, 0, rd_double(r), &le, &ge);
    if (st == ST_OK) {
        check_p(le);
        check_p(ge);
    }
}

/* The exact distributions at large sizes (n = m = 200 to the refusal
 * limits): p-values in [0, 1], tails consistent and monotone, the no-ties
 * table a symmetric unimodal distribution whose smallest probabilities are
 * the partition numbers over choose(n + m, n), and equal (1e-10 relative)
 * to the tied counting algorithm on the ranks 1 .. N. */
static size_t rd_u16(reader *r)
{
    size_t hi = rd_u8(r);
    return hi << 8 | rd_u8(r);
}

static void fuzz_exact_large(reader *r)
{
    uint8_t kind = rd_u8(r) % 4;
    if (kind == 0) {
        size_t n = 1 + rd_u16(r) % 500, m = 1 + rd_u16(r) % 500;
        if (n * m > 400 * 400) return;
        double *p;
        size_t len;
        int st = st_exact_law(ST_RANK_SUM, n, m, &p, &len);
        if (st != ST_OK) {
            CHECK(st == ST_ERR_TOO_MANY);
            return;
        }
        CHECK(len == n * m + 1);
        long double tot = 0.0L;
        size_t k = n < m ? n : m;
        for (size_t j = 0; j < len; j++) {
            check_p(p[j]);
            CHECK(p[j] == p[len - 1 - j]);
            if (2 * j + 2 <= len) CHECK(p[j] <= p[j + 1]);
            tot += p[j];
        }
        CHECK(fabsl(tot - 1.0L) < 1e-13L);
        /* P[W = j] = (partitions of j) P[W = 0] while j <= min(n, m) */
        double part[41] = {1};
        for (size_t q = 1; q <= 40; q++)
            for (size_t j = q; j <= 40; j++) part[j] += part[j - q];
        for (size_t j = 0; j <= k && j <= 40 && j < len; j++)
            if (p[0] > 1e-290)
                CHECK(fabs(p[j] / p[0] - part[j]) <= 1e-12 * part[j]);
        /* a tail against the tied count on the ranks 2, 4, ..., 2N */
        size_t N = n + m;
        size_t w = (size_t) rd_u16(r) * (rd_u16(r) + 1) % len;
        if ((double) k * (double) N <= 300.0 * 600.0) {
            double *r2 = malloc(N * sizeof(double));
            for (size_t i = 0; i < N; i++) r2[i] = 2.0 * (double) (i + 1);
            double le, ge;
            double s2 = 2.0 * ((double) w + (double) n * (n + 1) / 2);
            st = st_exact_tails(ST_RANK_SUM, r2, N, n, s2, &le, &ge);
            if (st == ST_OK) {
                long double tl = 0.0L, tg = 0.0L;
                for (size_t j = 0; j <= w; j++) tl += p[j];
                for (size_t j = w; j < len; j++) tg += p[j];
                CHECK(fabs(le - (double) tl) <= 1e-10 * le + 1e-300);
                CHECK(fabs(ge - (double) tg) <= 1e-10 * ge + 1e-300);
            }
            free(r2);
        }
        free(p);
        return;
    }
    /* values from a palette of up to 64 levels: ties of every size */
    size_t levels = 1 + rd_u8(r) % 64;
    size_t N = kind == 1 ? 2 + rd_u16(r) % 600 : kind == 2 ? 1 + rd_u16(r) % 2000
                                                : 2 + rd_u16(r) % 4000;
    uint8_t seed = rd_u8(r);
    double *v = malloc(N * sizeof(double));
    uint32_t h = seed * 2654435761u + 1;
    for (size_t i = 0; i < N; i++) {
        h = h * 1664525u + 1013904223u;
        v[i] = (double) ((h >> 8) % levels) - (kind == 2 ? (double) levels / 3 : 0);
    }
    if (kind == 3) {
        size_t n = 1 + rd_u16(r) % (N - 1), m = N - n;
        st_result out;
        int st = st_ks_test(v, n, v + n, m, (st_alternative) (rd_u8(r) % 3), 1,
                            NULL, &out);
        if (st == ST_OK) check_p(out.p_value);
        free(v);
        return;
    }
    /* doubled mid-ranks of v (kind 1) or of |v| without zeros (kind 2) */
    size_t M = 0;
    double *a = malloc(N * sizeof(double)), *r2 = malloc(N * sizeof(double));
    int *pos = malloc(N * sizeof(int));
    for (size_t i = 0; i < N; i++) {
        if (kind == 2 && v[i] == 0) continue;
        pos[M] = v[i] > 0;
        a[M++] = kind == 2 ? fabs(v[i]) : v[i];
    }
    for (size_t i = 0; i < M; i++) {
        size_t lt = 0, eq = 0;
        for (size_t j = 0; j < M; j++) {
            if (a[j] < a[i]) lt++;
            else if (a[j] == a[i]) eq++;
        }
        r2[i] = (double) (2 * lt + eq + 1);
    }
    size_t n = kind == 1 && M ? 1 + rd_u16(r) % M : 0;
    double s2 = 0;
    for (size_t i = 0; i < M; i++)
        if (kind == 1 ? i < n : pos[i]) s2 += r2[i];
    double le, ge, le2, ge2;
    st_rank_statistic stat = kind == 1 ? ST_RANK_SUM : ST_SIGNED_RANK;
    int st = M == 0 ? ST_ERR_TOO_FEW
                    : st_exact_tails(stat, r2, M, n, s2, &le, &ge);
    if (st == ST_OK) {
        check_p(le);
        check_p(ge);
        CHECK(le + ge >= 1.0 - 1e-12);
        /* monotone: one doubled unit further up */
        int st2 = st_exact_tails(stat, r2, M, n, s2 + 1, &le2, &ge2);
        if (st2 == ST_OK) {
            CHECK(le2 >= le * (1 - 1e-12));
            CHECK(ge2 <= ge * (1 + 1e-12));
        }
    } else {
        CHECK(st == ST_ERR_TOO_MANY || st == ST_ERR_TOO_FEW);
    }
    free(v);
    free(a);
    free(r2);
    free(pos);
}

static void fuzz_kth(reader *r)
{
    size_t na = rd_size(r, 30), nb = rd_size(r, 30);
    int walsh = rd_u8(r) & 1;
    double a[30], b[30], all[900];
    for (size_t i = 0; i < na; i++) a[i] = (double) ((int) rd_u8(r) % 41 - 20) / 2.0;
    for (size_t j = 0; j < nb; j++) b[j] = (double) ((int) rd_u8(r) % 41 - 20) / 2.0;
    qsort(a, na, sizeof(double), cmp_dbl);
    qsort(b, nb, sizeof(double), cmp_dbl);
    size_t c = 0;
    if (walsh) {
        for (size_t i = 0; i < na; i++)
            for (size_t j = i; j < na; j++) all[c++] = (a[i] + a[j]) / 2.0;
    } else {
        for (size_t i = 0; i < na; i++)
            for (size_t j = 0; j < nb; j++) all[c++] = a[i] - b[j];
    }
    qsort(all, c, sizeof(double), cmp_dbl);
    size_t k = (size_t) rd_u8(r) * 4 + rd_u8(r) % 4;
    uint64_t rank = k;
    double v;
    int st = st_pairwise_kths(a, na, walsh ? NULL : b, nb, &rank, 1, &v);
    if (k >= 1 && k <= c) {
        CHECK(st == ST_OK);
        CHECK(v == all[k - 1]);
    } else {
        CHECK(st != ST_OK);
    }
}

static void fuzz_ks_t_f(reader *r)
{
    size_t n = rd_size(r, 40), m = rd_size(r, 40);
    double x[40], y[40];
    for (size_t i = 0; i < n; i++) x[i] = rd_double(r);
    for (size_t j = 0; j < m; j++) y[j] = rd_double(r);
    st_alternative alt = (st_alternative) (rd_u8(r) % 3);
    double level = (double) (rd_u8(r) % 99 + 1) / 100.0;
    st_result out;
    int st = st_ks_test(x, n, y, m, alt, (int) (rd_u8(r) % 3) - 1, NULL, &out);
    check_result(st, &out);
    /* as ks.test, the KS test takes +-Inf (they have an ECDF) but not NaN */
    for (size_t i = 0; i < n + m; i++)
        if (isnan(i < n ? x[i] : y[i - n]))
            CHECK(st == ST_ERR_DOMAIN || st == ST_ERR_TOO_FEW);
    st = st_t_test(x, n, (rd_u8(r) & 1) ? y : NULL, m, alt, 0.0,
                   rd_u8(r) & 1, level, NULL, &out);
    check_result(st, &out);
    st = st_var_test(x, n, y, m, alt, 1.0, level, NULL, &out);
    check_result(st, &out);
    /* both one-sided t-tests at once: the two single calls' answers */
    if (n >= 2 && m >= 2 && all_finite(x, n) && all_finite(y, m)) {
        double mx = st_mean(x, n), my = st_mean(y, m);
        double vx = st_var(x, n, mx), vy = st_var(y, m, my);
        int eq = rd_u8(r) & 1;
        st_result g, l, g1, l1;
        st_t_figures fig = {{mx, my}, {vx, vy}, {(double) n, (double) m}, 1};
        st_t_test_options both = {&fig, 1, &l, NULL}, one = {&fig, 1, NULL,
                                                             NULL};
        int sb = st_t_test(NULL, n, NULL, m, ST_GREATER, 0.0, eq, 0.95,
                           &both, &g);
        int sg = st_t_test(NULL, n, NULL, m, ST_GREATER, 0.0, eq, 0.95,
                           &one, &g1);
        int sl = st_t_test(NULL, n, NULL, m, ST_LESS, 0.0, eq, 0.95, &one,
                           &l1);
        CHECK(sb == sg && sb == sl && g.status == g1.status &&
              l.status == l1.status);
        check_same_result(&g, &g1);
        check_same_result(&l, &l1);
        /* the F-test from the variances: the answer from the data */
        double var[2] = {vx, vy};
        st_var_test_options fv = {var, 0};
        st_result f0, f1;
        int s0 = st_var_test(x, n, y, m, alt, 1.0, level, NULL, &f0);
        int s1 = st_var_test(NULL, n, NULL, m, alt, 1.0, level, &fv, &f1);
        CHECK(s0 == s1);
        check_same_result(&f0, &f1);
    }
    st = st_shapiro_wilk(x, n, NULL, &out);
    check_result(st, &out);
    check_domain(st, x, n, NULL, 0);
    /* the constants kept per size in a table: the same answers, whatever
     * sizes the table met before (x's, y's, then x's again) */
    if (all_finite(x, n) && all_finite(y, m)) {
        double xs[40], ys[40];
        memcpy(xs, x, n * sizeof(double));
        memcpy(ys, y, m * sizeof(double));
        qsort(xs, n, sizeof(double), cmp_dbl);
        qsort(ys, m, sizeof(double), cmp_dbl);
        st_cache tab;
        st_cache_init(&tab);
        for (int k = 0; k < 3; k++) {
            const double *v = k == 1 ? ys : xs;
            size_t len = k == 1 ? m : n;
            st_result a, b;
            st_shapiro_options plain = {1, NULL}, kept = {1, &tab};
            int sa = st_shapiro_wilk(v, len, &plain, &a);
            int sb = st_shapiro_wilk(v, len, &kept, &b);
            CHECK(sa == sb && a.status == b.status);
            check_same_result(&a, &b);
        }
        st_cache_free(&tab);
    }
}

static void fuzz_proportion(reader *r)
{
    double a = rd_double(r), b = rd_double(r);
    double level = (double) (rd_u8(r) % 99 + 1) / 100.0;
    st_result out;
    st_prop_method method = (st_prop_method) (rd_u8(r) % 5);
    int st = st_proportion_ci(a, b, level, method, &out);
    if (getenv("FUZZ_VERBOSE"))
        fprintf(stderr, "proportion a=%.17g b=%.17g level=%g method=%d: "
                "[%.17g, %.17g]\n", a, b, level, (int) method,
                out.conf_int[0], out.conf_int[1]);
    if (st == ST_OK && !isnan(out.conf_int[0]) && !isnan(out.conf_int[1])) {
        CHECK(out.conf_int[0] <= out.conf_int[1]);
        CHECK(out.conf_int[0] >= 0.0 && out.conf_int[1] <= 1.0);
    }
    double mb = st_min_benchmarks(rd_double(r), rd_double(r), level);
    CHECK(isnan(mb) || mb >= 0);
}

/* Equal, or both NaN. */
static int same_double(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

static void fuzz_protocol(reader *r)
{
    size_t n = rd_size(r, 40), m = rd_size(r, 40);
    double x[40], y[40];
    for (size_t i = 0; i < n; i++) x[i] = rd_double(r);
    for (size_t j = 0; j < m; j++) y[j] = rd_double(r);
    double alpha = (double) (rd_u8(r) % 50 + 1) / 100.0;
    int rigorous = rd_u8(r) & 1;
    st_verdict v;
    int st = st_protocol(ST_PROTO_MEAN, x, n, y, m, alpha, rigorous, NULL,
                         &v);
    if (st == ST_OK) check_p(v.p_value);
    st = st_protocol(ST_PROTO_MEDIAN, x, n, y, m, alpha, rigorous, NULL, &v);
    if (st == ST_OK) {
        check_p(v.p_value);
        if (!isnan(v.shift_ci[0]) && !isnan(v.shift_ci[1]))
            CHECK(v.shift_ci[0] <= v.shift_ci[1]);
    }
    /* the probability protocol: p-values, its estimate in [0, 1] inside
     * its interval */
    st = st_protocol(ST_PROTO_PROB, x, n, y, m, alpha, rigorous, NULL, &v);
    if (st == ST_OK) {
        check_p(v.p_value);
        check_p(v.p_value_slowdown);
        if (!isnan(v.prob_greater)) {
            CHECK(v.prob_greater >= 0 && v.prob_greater <= 1);
            if (!isnan(v.prob_ci[0]))
                CHECK(v.prob_ci[0] <= v.prob_greater &&
                      v.prob_greater <= v.prob_ci[1]);
        }
    }
    /* an unknown protocol is an error, never another protocol */
    CHECK(st_protocol(ST_N_PROTOCOLS, x, n, y, m, alpha, rigorous, NULL, &v)
          == ST_ERR_DOMAIN);
    /* the same protocol sorting by the trend tests' merge sort: the same
     * verdict (run times are positive, so no -0 to lose) */
    {
        st_verdict vt;
        st_result trend[2];
        size_t tmin = 3 + rd_u8(r) % 8;
        st_protocol_options opt = {0};
        opt.trend_min = tmin;
        opt.trend = trend;
        st = st_protocol(ST_PROTO_MEDIAN, x, n, y, m, alpha, rigorous, NULL,
                         &v);
        int stt = st_protocol(ST_PROTO_MEDIAN, x, n, y, m, alpha, rigorous,
                              &opt, &vt);
        CHECK(stt == st);
        if (stt == ST_OK) {
            CHECK(vt.decision == v.decision && vt.branch == v.branch);
            CHECK(same_double(vt.p_value, v.p_value));
            CHECK(same_double(vt.speedup_ci[0], v.speedup_ci[0]));
            CHECK(same_double(vt.speedup_ci[1], v.speedup_ci[1]));
            CHECK(same_double(vt.shift_ci[0], v.shift_ci[0]));
            CHECK(same_double(vt.shift_ci[1], v.shift_ci[1]));
            CHECK(same_double(vt.speedup_median, v.speedup_median));
            for (int k = 0; k < 2; k++) {
                size_t len = k ? m : n;
                if (len < tmin) CHECK(trend[k].status == ST_ERR_TOO_FEW);
                else CHECK(trend[k].status == ST_OK ||
                           trend[k].status == ST_ERR_CONSTANT);
            }
        }
    }
    double a;
    st = st_highest_alpha(rd_u8(r) & 1, x, n, y, m, rigorous, NULL, &a);
    if (st == ST_OK) CHECK(isnan(a) || (a >= 0.0 && a <= 0.5));
    st_bench_result br;
    st = st_suite_bench(x, n, y, m, (rd_u8(r) & 1) ? NAN : alpha, rigorous,
                        fuzz_protos, 2, &br, NULL);
    if (st == ST_OK) {
        check_p(br.proto[0].p_value);
        check_p(br.proto[1].p_value);
    }
    /* the paired protocols on the first min(n, m) values as rounds, and
     * the variance components with a fuzzer-chosen grouping */
    size_t k = n < m ? n : m;
    static const int paired_protos[3] = {ST_PROTO_MEAN, ST_PROTO_MEDIAN,
                                         ST_PROTO_PROB};
    for (int t = 0; t < 3; t++) {
        st = st_paired_protocol(paired_protos[t], x, y, k, alpha, rigorous,
                                &v);
        if (st == ST_OK) {
            check_p(v.p_value);
            check_p(v.p_value_slowdown);
            if (!isnan(v.speedup_ci[0]) && !isnan(v.speedup_ci[1]))
                CHECK(v.speedup_ci[0] <= v.speedup_ci[1]);
        } else {
            CHECK(st == ST_ERR_DOMAIN);
        }
    }
    int group[40];
    for (size_t i = 0; i < n; i++) group[i] = 1 + rd_u8(r) % 5;
    double vc[6];
    st = st_variance_components(x, group, n, vc);
    if (st == ST_OK) {
        CHECK(isnan(vc[0]) || vc[0] >= 0);
        CHECK(isnan(vc[1]) || vc[1] >= 0);
    }
    /* the tolerance (tolerance.c): p-values in [0, 1], a direction code,
     * a power in [0, 1] */
    double s0 = 1.0 + (double) (rd_u8(r) % 8) / 100.0, p[4];
    int pooled = rd_u8(r) & 1;
    if (st_tolerance_tests(ST_PROTO_MEAN, x, n, y, m, pooled, s0, p) == ST_OK)
        for (int k = 0; k < 4; k++) check_p(p[k]);
    if (st_tolerance_tests(ST_PROTO_MEDIAN, x, n, y, m, pooled, s0, p) ==
        ST_OK)
        for (int k = 0; k < 4; k++) check_p(p[k]);
    if (st_tolerance_tests(ST_PROTO_PROB, x, n, y, m, pooled, s0, p) ==
        ST_OK)
        for (int k = 0; k < 4; k++) check_p(p[k]);
    int dir;
    st = st_decide(x, n, y, m, rd_u8(r) & 1, alpha, rigorous, s0, &dir, NULL);
    if (st == ST_OK)
        CHECK(dir >= ST_DIRECTION_NA && dir <= ST_DIRECTION_EQUIVALENT);
    if (n > 0 && m > 0 && all_finite(x, n) && all_finite(y, m)) {
        double nk = (double) (3 + rd_u8(r) % 6), pw;
        /* the runs themselves, or a smoothed bootstrap (needs positive
         * run times: ST_ERR_DOMAIN else) */
        const double sm[9] = {0.0, 0.9, 0.05, 1.0, 0.0, 0.9, 0.05, 0.0, 3.0};
        st = st_power_sim(x, n, y, m, 1.01, rd_u8(r) & 1, alpha, rigorous, s0,
                          1, &nk, &nk, 1, 3, rd_u8(r),
                          (rd_u8(r) & 1) ? sm : NULL, &pw);
        if (st == ST_OK) CHECK(pw >= 0.0 && pw <= 1.0);
    }
}

static void fuzz_hpt(reader *r)
{
    size_t nb = rd_size(r, 8);
    size_t la[8], lb[8], ta = 0, tb = 0;
    double a[8 * 12], b[8 * 12];
    for (size_t i = 0; i < nb; i++) {
        la[i] = rd_size(r, 12);
        lb[i] = rd_size(r, 12);
        for (size_t k = 0; k < la[i]; k++) a[ta++] = rd_double(r);
        for (size_t k = 0; k < lb[i]; k++) b[tb++] = rd_double(r);
    }
    st_hpt_input in = {nb, a, la, b, lb, rd_u8(r) & 1,
                       (double) (rd_u8(r) % 20 + 1) / 100.0, rd_u8(r) & 1};
    double med_a[8], med_b[8], d[8], rank[8], w[8], pa[8], pb[8];
    int win[8];
    st_hpt_result out = {med_a, med_b, d, rank, w, pa, pb, win, 0, 0, 0, 0, 0};
    double gamma = (rd_u8(r) & 1) ? rd_double(r) : 1.0 + rd_u8(r) / 64.0;
    int st = st_hpt(&in, gamma, &out);
    if (st == ST_OK) {
        CHECK(out.confidence >= 0.0 && out.confidence <= 1.0);
        for (size_t i = 0; i < nb; i++) {
            check_p(pa[i]);
            check_p(pb[i]);
        }
    }
    double sp, sup;
    int att;
    double level = (double) (rd_u8(r) % 98 + 1) / 100.0;
    st = st_hpt_speedup(&in, level, 0.01, NULL, &sp, &sup, &att);
    if (st == ST_OK && !isnan(sp)) {
        CHECK(sp >= 1.0);
        CHECK(sp <= sup);
    }
}

static void fuzz_util(reader *r)
{
    size_t n = rd_size(r, 50);
    double x[50], rank[50];
    for (size_t i = 0; i < n; i++) x[i] = rd_double(r);
    double tie;
    int has_nan = 0;
    for (size_t i = 0; i < n; i++) has_nan |= isnan(x[i]);
    if (has_nan) CHECK(st_midranks(x, n, rank, &tie) == ST_ERR_DOMAIN);
    if (all_finite(x, n)) {
        int st = st_midranks(x, n, rank, &tie);
        CHECK(st == ST_OK);
        double s = 0;
        for (size_t i = 0; i < n; i++) s += rank[i];
        CHECK(fabs(s - (double) n * (n + 1) / 2) < 1e-6);
    }
    double sp[3];
    st_observed_speedups(x, n / 2, x + n / 2, n - n / 2, sp);

    /* st_sort (any path: insertion, counting, radix) against a stable
     * insertion sort, bit for bit (-0 and +0 in their order) up to 48
     * values, value for value above (no NaN: callers check) */
    if (!has_nan) {
        double a[50], b[50];
        memcpy(a, x, n * sizeof(double));
        memcpy(b, x, n * sizeof(double));
        st_sort(a, n);
        for (size_t i = 1; i < n; i++) {
            double v = b[i];
            size_t j = i;
            while (j > 0 && b[j - 1] > v) {
                b[j] = b[j - 1];
                j--;
            }
            b[j] = v;
        }
        for (size_t i = 0; i < n; i++) CHECK(a[i] == b[i]);
        if (n <= 48) CHECK(memcmp(a, b, n * sizeof(double)) == 0);
    }
}

/* ---- sorted pairs, merged ranks, selection (sorted.c, select.c) -------- */

static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static void check_same_result(const st_result *a, const st_result *b)
{
    CHECK(same(a->statistic, b->statistic));
    CHECK(same(a->p_value, b->p_value));
    CHECK(same(a->conf_int[0], b->conf_int[0]));
    CHECK(same(a->conf_int[1], b->conf_int[1]));
    CHECK(same(a->estimate[0], b->estimate[0]));
    CHECK(same(a->estimate[1], b->estimate[1]));
}

/* a value for the sorted target: mostly small tied ones, sometimes any */
static double rd_sorted_value(reader *r, int wild)
{
    if (wild) return rd_double(r);
    return (double) ((int) rd_u8(r) % 41 - 20) / 2.0;
}

/* some x[i] - y[j] is not finite */
static int diffs_overflow(const double *x, size_t n, const double *y, size_t m)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < m; j++)
            if (!isfinite(x[i] - y[j])) return 1;
    return 0;
}

static void fuzz_sorted(reader *r)
{
    size_t n = rd_size(r, 30), m = rd_size(r, 30);
    int wild = rd_u8(r) % 4 == 0;
    double x[30], y[30];
    for (size_t i = 0; i < n; i++) x[i] = rd_sorted_value(r, wild);
    for (size_t j = 0; j < m; j++) y[j] = rd_sorted_value(r, wild);
    double mu = (rd_u8(r) & 1) ? rd_sorted_value(r, wild) : 0.0;

    /* the pair: x - mu and y sorted; refused when anything is not finite */
    st_sorted_pair P;
    int st = st_sorted_pair_init(&P, x, n, mu, y, m, NULL);
    int finite = all_finite(x, n) && all_finite(y, m) && isfinite(mu);
    for (size_t i = 0; finite && i < n; i++) finite = isfinite(x[i] - mu);
    if (!finite) {
        CHECK(st == ST_ERR_DOMAIN);
    } else {
        CHECK(st == ST_OK);
        double xs[30], ys[30];
        for (size_t i = 0; i < n; i++) xs[i] = x[i] - mu;
        memcpy(ys, y, m * sizeof(double));
        qsort(xs, n, sizeof(double), cmp_dbl);
        qsort(ys, m, sizeof(double), cmp_dbl);
        CHECK(P.n == n && P.m == m);
        for (size_t i = 0; i < n; i++) CHECK(P.xs[i] == xs[i]);
        for (size_t j = 0; j < m; j++) CHECK(P.ys[j] == ys[j]);

        /* merged mid-ranks of c(xs - d, ys) against st_midranks */
        double d = (rd_u8(r) & 1) ? rd_sorted_value(r, wild) : 0.0;
        double pool[60], rank[60], rank2[60], tie_ref, tie, tie2;
        long double rs, rs2;
        int pfin = isfinite(d);
        for (size_t i = 0; i < n; i++) {
            pool[i] = xs[i] - d;
            pfin = pfin && isfinite(pool[i]);
        }
        memcpy(pool + n, ys, m * sizeof(double));
        int s1 = st_merge_ranks(xs, n, d, ys, m, &rs, &tie, NULL);
        int s2 = st_merge_ranks(xs, n, d, ys, m, &rs2, &tie2, rank2);
        if (!isfinite(d)) {
            CHECK(s1 == ST_ERR_DOMAIN && s2 == ST_ERR_DOMAIN);
        } else if (pfin) {
            CHECK(s1 == ST_OK && s2 == ST_OK);
            CHECK(st_midranks(pool, n + m, rank, &tie_ref) == ST_OK);
            double sx = 0;
            for (size_t i = 0; i < n; i++) sx += rank[i];
            CHECK((double) rs == sx && (double) rs2 == sx);
            CHECK(tie == tie_ref && tie2 == tie_ref);
            for (size_t k = 0; k < n + m; k++) CHECK(rank2[k] == 2 * rank[k]);
        } else {
            /* x - d overflowed: a clean refusal or the right answer */
            CHECK(s1 == ST_OK || s1 == ST_ERR_DOMAIN);
            CHECK(s2 == ST_OK || s2 == ST_ERR_DOMAIN);
        }

        /* the tests on the pair give the answers of the plain ones */
        st_alternative alt = (st_alternative) (rd_u8(r) % 3);
        int exact = (int) (rd_u8(r) % 3) - 1, correct = rd_u8(r) & 1;
        int ci = rd_u8(r) & 1;
        double level = (double) (rd_u8(r) % 99 + 1) / 100.0;
        st_result a, b;
        double la, lb;
        int wa, wb;
        st_cache tab;
        st_cache_init(&tab);
        /* The pair holds x - mu: its test is that of x against y with
         * mu, but its interval and estimate are for the shift of x - mu
         * (st_wilcoxon_test's are for the shift of x itself, as
         * wilcox.test), i.e. those of the test of x - mu with mu = 0. */
        st_result a0;
        double la0;
        int wa0;
        st_wilcoxon_options o0 = {0}, oa = {0}, ob = {0};
        o0.ci_level = &la0;
        o0.ci_warn = &wa0;
        oa.ci_level = &la;
        oa.ci_warn = &wa;
        ob.sorted = 1;
        ob.ci_level = &lb;
        ob.ci_warn = &wb;
        int s0 = st_wilcoxon_test(x, n, y, m, alt, mu, exact, correct, ci,
                                  level, &o0, &a0);
        double xm[30];
        for (size_t i = 0; i < n; i++) xm[i] = x[i] - mu;
        int sa = st_wilcoxon_test(xm, n, y, m, alt, 0.0, exact, correct, ci,
                                  level, &oa, &a);
        if (getenv("FUZZ_VERBOSE"))
            fprintf(stderr, "n=%zu m=%zu mu=%.17g: with mu %d, x - mu %d\n",
                    n, m, mu, s0, sa);
        if (getenv("FUZZ_VERBOSE")) {
            for (size_t i = 0; i < n; i++) fprintf(stderr, "x %.17g\n", x[i]);
            for (size_t j = 0; j < m; j++) fprintf(stderr, "y %.17g\n", y[j]);
            fprintf(stderr, "alt %d exact %d correct %d ci %d level %g\n",
                    (int) alt, exact, correct, ci, level);
        }
        if (s0 != sa) {
            /* only when the pairwise differences of one of them overflow
             * (the interval refuses them) */
            CHECK(ci);
            CHECK((s0 == ST_ERR_DOMAIN && diffs_overflow(x, n, y, m)) ||
                  (sa == ST_ERR_DOMAIN && diffs_overflow(xm, n, y, m)));
        }
        if (sa == ST_OK && s0 == ST_OK) {
            CHECK(same(a0.statistic, a.statistic));
            CHECK(same(a0.p_value, a.p_value));
            CHECK(a0.exact == a.exact);
        }
        for (int rep = 0; rep < 3; rep++) {      /* no cache, cache twice */
            wb = 0;
            lb = NAN;
            ob.cache = rep ? &tab : NULL;
            int sb = st_wilcoxon_test(P.xs, n, P.ys, m, alt, 0.0, exact,
                                      correct, ci, level, &ob, &b);
            CHECK(sa == sb);
            if (sa == ST_OK) {
                check_same_result(&a, &b);
                CHECK(a.exact == b.exact);
                if (ci) {
                    CHECK(same(la, lb));
                    CHECK(wa == wb);
                }
            }
        }
        /* both one-sided tests at once: the two single calls' answers */
        {
            st_result g, l, g1, l1;
            st_wilcoxon_options both = {0}, one = {0};
            both.sorted = one.sorted = 1;
            both.cache = &tab;
            both.less = &l;
            int sb = st_wilcoxon_test(P.xs, n, P.ys, m, ST_GREATER, 0.0, exact,
                                      correct, 0, 0.95, &both, &g);
            int sg = st_wilcoxon_test(P.xs, n, P.ys, m, ST_GREATER, 0.0, exact,
                                      correct, 0, 0.95, &one, &g1);
            int sl = st_wilcoxon_test(P.xs, n, P.ys, m, ST_LESS, 0.0, exact,
                                      correct, 0, 0.95, &one, &l1);
            CHECK(sb == sg && sb == sl);
            check_same_result(&g, &g1);
            check_same_result(&l, &l1);
            CHECK(g.exact == g1.exact && l.exact == l1.exact);
        }
        /* the estimate and interval alone */
        int sc = st_wilcoxon_test(xm, n, y, m, alt, 0.0, exact, correct, 1,
                                  level, &oa, &a);
        st_wilcoxon_options hl = ob;
        hl.cache = &tab;
        hl.interval_only = 1;
        int sh = st_wilcoxon_test(P.xs, n, P.ys, m, alt, 0.0, exact, correct,
                                  0, level, &hl, &b);
        if (getenv("FUZZ_VERBOSE"))
            fprintf(stderr, "n=%zu m=%zu mu=%g alt=%d exact=%d correct=%d "
                    "level=%g: test %d est %.17g [%.17g, %.17g] lvl %.17g; "
                    "HL %d est %.17g [%.17g, %.17g] lvl %.17g\n", n, m, mu,
                    (int) alt, exact, correct, level, sc, a.estimate[0],
                    a.conf_int[0], a.conf_int[1], la, sh, b.estimate[0],
                    b.conf_int[0], b.conf_int[1], lb);
        if (sc == ST_OK) {
            CHECK(sh == ST_OK);
            CHECK(same(a.estimate[0], b.estimate[0]));
            CHECK(same(a.conf_int[0], b.conf_int[0]));
            CHECK(same(a.conf_int[1], b.conf_int[1]));
            CHECK(same(la, lb) && wa == wb);
            CHECK(isnan(b.statistic) && isnan(b.p_value));
            CHECK(a.exact == b.exact);
        }
        st_cache_free(&tab);

        /* Smirnov on the centred samples */
        double cx = (rd_u8(r) & 1) ? rd_sorted_value(r, wild) : 0.0;
        double cy = (rd_u8(r) & 1) ? rd_sorted_value(r, wild) : 0.0;
        double xc[30], yc[30];
        for (size_t i = 0; i < n; i++) xc[i] = xs[i] - cx;
        for (size_t j = 0; j < m; j++) yc[j] = ys[j] - cy;
        int kex = (int) (rd_u8(r) % 3) - 1;
        sa = st_ks_test(xc, n, yc, m, alt, kex, NULL, &a);
        st_ks_options sorted = {1, {cx, cy}, NULL, NULL};
        int sb = st_ks_test(xs, n, ys, m, alt, kex, &sorted, &b);
        if (all_finite(xc, n) && all_finite(yc, m)) {
            CHECK(sa == sb);
            if (sa == ST_OK) {
                check_same_result(&a, &b);
                CHECK(a.exact == b.exact);
            }
        }
        check_result(sb, &b);
        if (sb == ST_OK && n > 0 && m > 0) {
            /* the statistic against the ECDFs counted at every pooled
             * value (the merges of ks.c stand in for these counts) */
            int64_t hi = 0, lo = 0;
            for (size_t k = 0; k < n + m; k++) {
                double v = k < n ? xs[k] - cx : ys[k - n] - cy;
                int64_t ci = 0, cj = 0;
                for (size_t i = 0; i < n; i++) ci += xs[i] - cx <= v;
                for (size_t j = 0; j < m; j++) cj += ys[j] - cy <= v;
                int64_t d = ci * (int64_t) m - cj * (int64_t) n;
                hi = d > hi ? d : hi;
                lo = d < lo ? d : lo;
            }
            int64_t dobs = alt == ST_TWO_SIDED ? (hi > -lo ? hi : -lo)
                         : alt == ST_GREATER ? hi : -lo;
            CHECK(b.statistic == (double) dobs / ((double) n * (double) m));
        }
        st_cache_init(&tab);
        sorted.cache = &tab;
        sb = st_ks_test(xs, n, ys, m, alt, kex, &sorted, &b);
        int sb2 = st_ks_test(xs, n, ys, m, alt, kex, &sorted, &a);
        CHECK(sb == sb2);
        if (sb == ST_OK) check_same_result(&a, &b);
        st_cache_free(&tab);

        /* logarithms: refused unless every value is positive */
        int pos = 1;
        for (size_t i = 0; i < n; i++) pos = pos && xs[i] > 0;
        for (size_t j = 0; j < m; j++) pos = pos && ys[j] > 0;
        st = st_sorted_pair_log(&P);
        if (!pos) {
            CHECK(st == ST_ERR_DOMAIN);
        } else {
            CHECK(st == ST_OK);
            for (size_t i = 0; i < n; i++) CHECK(P.xs[i] == log(xs[i]));
            for (size_t j = 0; j < m; j++) CHECK(P.ys[j] == log(ys[j]));
        }
    }
    st_sorted_pair_free(&P);
    st_sorted_pair_free(&P);             /* harmless twice */
}

/* ---- select.c's small matrices, part by part ---------------------------- */

/* ascending, -0 before +0: equal multisets sort to the same bits */
static int cmp_bits(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    if (x < y) return -1;
    if (x > y) return 1;
    return (int) (signbit(y) != 0) - (int) (signbit(x) != 0);
}

static void same_multiset(double *u, double *v, size_t len)
{
    qsort(u, len, sizeof(double), cmp_bits);
    qsort(v, len, sizeof(double), cmp_bits);
    CHECK(memcmp(u, v, len * sizeof(double)) == 0);
}

/* One pass of each kind (differences, Walsh averages of xs, plain values)
 * by st_simd_pair_window (when it runs) and by pair_window, against the
 * counts and cells of the formed, sorted differences `all` (t of them):
 * the same counts, the same cells; the sorting network against qsort;
 * select_between against the sorted window. */
static void fuzz_small_parts(reader *r, const double *xs, size_t n,
                             const double *ys, size_t m, const double *all,
                             size_t t)
{
    double pv[2];
    for (int q = 0; q < 2; q++) {
        uint8_t c = rd_u8(r);
        pv[q] = c % 7 == 0 ? (q ? INFINITY : -INFINITY) : all[(c * 7u) % t];
    }
    if (pv[0] > pv[1]) {
        double u = pv[0];
        pv[0] = pv[1];
        pv[1] = u;
    }
    static double w1[PM_SMALL_WIN + 8], w2[PM_SMALL_WIN + 8];
    double *b1[1] = {w1}, *b2[1] = {w2};
    uint64_t le1, le2;
    size_t l1, l2;
    for (int kind = 0; kind < 3; kind++) {
        const double *pa = kind == 2 ? NULL : xs, *pb = kind == 1 ? NULL
                         : kind == 2 ? all : ys;
        size_t na = kind == 2 ? 0 : n, nb = kind == 1 ? 0 : kind == 2 ? t : m;
        int s1 = pair_window(pa, na, pb, nb, 1, pv, &le1, b1, PM_SMALL_WIN, &l1);
        int s2 = st_simd_pair_window(pa, na, pb, nb, 1, pv, &le2, b2,
                                     PM_SMALL_WIN, &l2);
        CHECK(s1 == 1 || s1 == -1);
        if (s2 != 0) CHECK(s2 == s1);
        if (s1 != 1) continue;
        if (kind != 1) {
            /* the differences (and the plain values) are `all` */
            uint64_t le = 0;
            size_t in = 0, first = t;
            for (size_t i = 0; i < t; i++) {
                le += all[i] <= pv[0];
                if (all[i] > pv[0] && all[i] < pv[1]) {
                    if (!in) first = i;
                    in++;
                }
            }
            CHECK(le1 == le && l1 == in);
            if (in > 0) {
                /* select_between: a rank or two of the window */
                uint64_t rk[2];
                rk[0] = rd_u8(r) % in;
                rk[1] = rk[0] + 1 < in ? rk[0] + 1 : rk[0];
                int two = rk[1] != rk[0] && (rd_u8(r) & 1);
                double v[2];
                select_between(w1, in, pv[0], pv[1], rk, 1 + two, v);
                CHECK(v[0] == all[first + rk[0]]);
                if (two) CHECK(v[1] == all[first + rk[1]]);
            }
        }
        if (s2 == 1) {
            CHECK(le2 == le1 && l2 == l1);
            same_multiset(w1, w2, l1);
        }
    }
    if (t >= 2 && t <= 64) {
        double u[64], v[64];
        memcpy(u, all, t * sizeof(double));
        memcpy(v, all, t * sizeof(double));
        /* (all is sorted: shuffle it first) */
        for (size_t i = t - 1; i > 0; i--) {
            size_t j = rd_u8(r) % (i + 1);
            double e = v[i];
            v[i] = v[j];
            v[j] = e;
        }
        if (st_simd_sort_net(v, t)) {
            for (size_t i = 0; i < t; i++) CHECK(v[i] == all[i]);
            same_multiset(u, v, t);
        }
    }
}

static void fuzz_select(reader *r)
{
    /* select_kth (select.c) against qsort (no NaN: order is undefined
     * there) */
    size_t c = rd_size(r, 200);
    int wild = rd_u8(r) % 4 == 0;
    double buf[200], ref[200];
    for (size_t i = 0; i < c; i++) {
        double v = rd_sorted_value(r, wild);
        buf[i] = isnan(v) ? 0.0 : v;
    }
    if (c > 0) {
        memcpy(ref, buf, c * sizeof(double));
        qsort(ref, c, sizeof(double), cmp_dbl);
        size_t k = ((size_t) rd_u8(r) << 8 | rd_u8(r)) % c;
        /* the two-buffer selection (select_tiny below SELECT_TINY values)
         * and several ranks at once, on copies */
        double cp[200];
        memcpy(cp, buf, c * sizeof(double));
        CHECK(select_small(cp, c, k) == ref[k]);
        uint64_t kk[3] = {k / 2, k, k + (c - 1 - k) / 2};
        double kv[3];
        memcpy(cp, buf, c * sizeof(double));
        select_ranks(cp, c, kk, 3, kv);
        for (int q = 0; q < 3; q++) CHECK(kv[q] == ref[kk[q]]);
        double v = select_kth(buf, c, k);
        CHECK(v == ref[k]);
        for (size_t i = 0; i < c; i++)
            CHECK(i < k ? buf[i] <= v : i > k ? buf[i] >= v : buf[i] == v);
        qsort(buf, c, sizeof(double), cmp_dbl);
        for (size_t i = 0; i < c; i++) CHECK(buf[i] == ref[i]);  /* a permutation */
    }

    /* st_pairwise_kths against the formed, sorted differences */
    size_t n = rd_size(r, 30), m = rd_size(r, 30);
    double xs[30], ys[30], all[900];
    for (size_t i = 0; i < n; i++) {
        double v = rd_sorted_value(r, wild);
        xs[i] = isfinite(v) ? v : 1.0;
    }
    for (size_t j = 0; j < m; j++) {
        double v = rd_sorted_value(r, wild);
        ys[j] = isfinite(v) ? v : -1.0;
    }
    qsort(xs, n, sizeof(double), cmp_dbl);
    qsort(ys, m, sizeof(double), cmp_dbl);
    size_t t = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < m; j++) all[t++] = xs[i] - ys[j];
    qsort(all, t, sizeof(double), cmp_dbl);
    int cnt = rd_u8(r) % 6;                     /* 0 and 5 are refused */
    uint64_t ks[5];
    int valid = cnt >= 1 && cnt <= 4 && t > 0;
    for (int q = 0; q < cnt; q++) {
        uint8_t mode = rd_u8(r);
        if (mode % 8 == 0) ks[q] = mode % 16 ? 0 : (uint64_t) t + 1;
        else ks[q] = t ? 1 + ((size_t) rd_u8(r) << 8 | rd_u8(r)) % t : 0;
        if (mode % 8 != 0 && q > 0 && mode % 4 != 1 && ks[q] < ks[q - 1])
            ks[q] = ks[q - 1];                  /* mostly ascending */
    }
    for (int q = 0; q < cnt; q++) {
        if (ks[q] < 1 || ks[q] > t) valid = 0;
        if (q > 0 && ks[q] < ks[q - 1]) valid = 0;
    }
    double vals[5];
    int st = st_pairwise_kths(xs, n, ys, m, ks, cnt, vals);
    if (getenv("FUZZ_VERBOSE"))
        fprintf(stderr, "diff_kths n=%zu m=%zu cnt=%d valid=%d -> %d\n", n, m,
                cnt, valid, st);
    if (valid) {
        CHECK(st == ST_OK);
        for (int q = 0; q < cnt; q++) CHECK(vals[q] == all[ks[q] - 1]);
    } else {
        CHECK(st == ST_ERR_DOMAIN);
    }
    if (t > 0) fuzz_small_parts(r, xs, n, ys, m, all, t);
}

/* ---- run order (run-order.c) ------------------------------------------ */

static void fuzz_runorder(reader *r)
{
    size_t n = rd_size(r, 80);
    int wild = rd_u8(r) % 4 == 0;
    double x[80], xr[80];
    for (size_t i = 0; i < n; i++) x[i] = rd_sorted_value(r, wild);
    st_result out, rev;
    int st = st_mann_kendall(x, n, NULL, &out);
    if (n < 3) {
        CHECK(st == ST_ERR_TOO_FEW);
    } else if (!all_finite(x, n)) {
        CHECK(st == ST_ERR_DOMAIN);
    } else {
        /* Kendall's S by the O(n^2) definition */
        double S = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                S += (x[j] > x[i]) - (x[j] < x[i]);
        if (st_is_constant(x, n)) {
            CHECK(st == ST_ERR_CONSTANT);
        } else {
            CHECK(st == ST_OK);
            CHECK(out.statistic == S);
            check_p(out.p_value);
            CHECK(!isnan(out.p_value));
            CHECK(out.estimate[0] >= -1.0 - 1e-12 && out.estimate[0] <= 1.0 + 1e-12);
            /* the sequence read backwards: S changes sign, same p-value */
            for (size_t i = 0; i < n; i++) xr[i] = x[n - 1 - i];
            CHECK(st_mann_kendall(xr, n, NULL, &rev) == ST_OK);
            CHECK(rev.statistic == -S);
            CHECK(fabs(rev.p_value - out.p_value) <= 1e-12);
            /* with a cache kept across calls (as for a suite's samples):
             * the same answers */
            st_cache kc;
            st_cache_init(&kc);
            st_mann_kendall_options kept = {NULL, &kc};
            st_result c1, c2;
            CHECK(st_mann_kendall(xr, n, &kept, &c1) == ST_OK);
            CHECK(st_mann_kendall(x, n, &kept, &c2) == ST_OK);
            CHECK(c1.p_value == rev.p_value && c2.p_value == out.p_value);
            CHECK(c2.statistic == S && c2.exact == out.exact);
            st_cache_free(&kc);
        }
    }
    /* the same test keeping its sort (the median protocol's path): the
     * same answer, and the values sorted (zeros come back as +0) */
    {
        double sorted[80];
        st_result ks;
        st_mann_kendall_options keep = {sorted, NULL};
        int sst = st_mann_kendall(x, n, &keep, &ks);
        CHECK(sst == st);
        if (sst == ST_OK || sst == ST_ERR_CONSTANT) {
            CHECK(same_double(ks.statistic, out.statistic));
            if (sst == ST_OK) {
                CHECK(ks.p_value == out.p_value);
                CHECK(ks.exact == out.exact);
            }
            double ref[80];
            memcpy(ref, x, n * sizeof *ref);
            st_sort(ref, n);
            for (size_t i = 0; i < n; i++) CHECK(sorted[i] == ref[i]);
        }
    }

    /* runs test: P(R <= r) in [0, 1], non-decreasing in r, 1 at the
     * largest number of runs, and equal to the count over every
     * arrangement for n1 + n2 <= 14 */
    double n1 = (double) rd_size(r, 40), n2 = (double) rd_size(r, 40);
    if (rd_u8(r) % 8 == 0) n1 = rd_double(r);
    double prev = -1;
    double rmax = (n1 >= 1 && n2 >= 1 && n1 <= 40 && n2 <= 40)
        ? 2 * fmin(n1, n2) + (n1 != n2) : 0;
    for (double rr = 0; rr <= 82; rr++) {
        double p = st_runs_test_lower(n1, n2, rr);
        if (!(n1 >= 1 && n2 >= 1) || rr < 2) {
            CHECK(isnan(p));
            continue;
        }
        if (!isfinite(n1)) {                    /* not a count: NaN or a p */
            CHECK(isnan(p) || (p >= 0.0 && p <= 1.0));
            continue;
        }
        CHECK(p >= 0.0 && p <= 1.0);
        CHECK(p >= prev - 1e-12);
        prev = p;
        if (rmax > 0 && rr >= rmax && n1 == floor(n1))
            CHECK(fabs(p - 1.0) <= 1e-9);
    }
    /* a huge number of runs answers at once (no loop over r) */
    if (n1 >= 1 && n2 >= 1 && isfinite(n1))
        CHECK(st_runs_test_lower(n1, n2, 1e300) == 1.0);
    size_t a = (size_t) (n1 >= 1 && n1 <= 40 ? n1 : 0), b = (size_t) n2;
    if (a >= 1 && b >= 1 && a + b <= 14 && n1 == floor(n1)) {
        size_t N = a + b;
        double cnt[16] = {0}, tot = 0;
        for (uint32_t mask = 0; mask < (1u << N); mask++) {
            if ((size_t) __builtin_popcount(mask) != a) continue;
            int runs = 1;
            for (size_t i = 1; i < N; i++)
                runs += ((mask >> i) & 1) != ((mask >> (i - 1)) & 1);
            cnt[runs]++;
            tot++;
        }
        double cum = 0;
        for (size_t rr = 2; rr <= N; rr++) {
            cum += cnt[rr];
            double p = st_runs_test_lower(n1, n2, (double) rr);
            CHECK(fabs(p - cum / tot) <= 1e-9);
        }
    }
}

/* ---- suites (suite.c) ---------------------------------------------------- */

/* a running time: mostly positive with ties, sometimes anything */
static double rd_time(reader *r)
{
    uint8_t tag = rd_u8(r);
    if (tag % 16 == 0) return rd_double(r);
    double scale = tag % 16 == 1 ? 1e-6 : tag % 16 == 2 ? 1e6 : 1.0;
    return scale * (1.0 + (double) (rd_u8(r) % 64) / 8.0);
}

#define SUITE_NB 6
#define SUITE_LEN 10

/* ---- the suite's reference summary ---------------------------------------- */

/*
 * The summary of a suite computed from the whole per-benchmark results in
 * one pass, as the package did before it streamed suites in chunks: the
 * package's st_suite_summarise (from the columns) must agree with it
 * exactly.
 */
/*
 * Overall gain over the benchmarks with include[j] != 0 (eq. 2 of the
 * 2013 paper with weights W):  G = sum W (c(x) - c(y)) / sum W c(x), and
 * the overall speedup S = 1 / (1 - G) = sum W c(x) / sum W c(y).  G does
 * not change when every weight is multiplied by the same factor, so the
 * weights need not be normalised over the subset.  NAN when the subset is
 * empty or carries no weight.
 */
static void ref_overall(const st_bench_result *res, size_t nb, const double *w,
                    int centre, const int *include, double *gain,
                    double *speedup, size_t *used)
{
    long double num = 0.0L, den = 0.0L, rest = 0.0L;
    size_t k = 0;
    for (size_t j = 0; j < nb; j++) {
        if (!include[j]) continue;
        double cx = res[j].centre_x[centre], cy = res[j].centre_y[centre];
        num += (long double) w[j] * (cx - cy);
        den += (long double) w[j] * cx;
        rest += (long double) w[j] * cy;
        k++;
    }
    *used = k;
    if (k == 0 || !(den > 0.0L)) {
        *gain = *speedup = NAN;
        return;
    }
    *gain = (double) (num / den);
    /* S = 1 / (1 - G) = sum W c(x) / sum W c(y), formed from the sums
     * themselves: den - num would lose sum W c(y) when it is below the
     * rounding of den */
    *speedup = (double) (den / rest);
}

static int ref_custom_legal(const st_bench_result *res, size_t nb,
                                const double *custom)
{
    if (!custom) return 0;
    double total = 0.0;
    for (size_t j = 0; j < nb; j++) {
        if (res[j].status != ST_OK) continue;
        if (!isfinite(custom[j]) || custom[j] < 0.0) return 0;
        total += custom[j];
    }
    return total > 0.0 && isfinite(total);
}

/*
 * Proportion of accelerated benchmarks (section 4 of the 2013 paper):
 * a[p] of the nok analysed benchmarks have a significant speedup under
 * protocol p.  The normal approximation behind the interval is trusted
 * when a - a^2/b = a (1 - a/b) > 5; the minimal number of benchmarks for
 * a precision r is ceil(z^2 C (1 - C) / r^2) with C = a / b.
 */
static int ref_proportions(const size_t a[2], size_t nok,
                                 const st_suite_options *opt,
                                 st_suite_summary *out)
{
    out->b = (double) nok;
    for (int p = 0; p < 2; p++) {
        out->a[p] = (double) a[p];
        st_result_init(&out->prop[p]);
        out->valid[p] = 0;
        out->min_benchmarks[p] = NAN;
        if (nok == 0) continue;
        int st = st_proportion_ci(out->a[p], out->b, opt->prop_conf_level,
                                  opt->prop_method, &out->prop[p]);
        if (st == ST_ERR_ALLOC) return st;
        double C = out->a[p] / out->b;
        out->valid[p] = out->a[p] * (1.0 - C) > 5.0;
        out->min_benchmarks[p] = st_min_benchmarks(C, opt->precision,
                                                   opt->prop_conf_level);
    }
    return ST_OK;
}

/*
 * Weights.  "equal": W = 1.  "custom": the user's, when every analysed
 * benchmark has a finite non-negative weight and they do not all vanish;
 * otherwise equal weights (the original tool's fallback; out->weights
 * tells the caller).  "fraction": the 2009 report's time-proportional
 * weights W_j = c(x_j) / sum_i c(x_i), under each centre c.  Each column
 * is normalised to sum 1 over the analysed benchmarks (skipped ones get
 * NAN).
 */
static int ref_suite_summarise(const st_bench_result *res, size_t nb,
                               const double *custom,
                               const st_suite_options *opt, double *weights,
                               st_suite_summary *out)
{
    st_weights mode = opt->weights;
    if (mode == ST_WEIGHTS_CUSTOM && !ref_custom_legal(res, nb, custom))
        mode = ST_WEIGHTS_EQUAL;
    out->weights = mode;

    size_t nok = 0;
    for (size_t j = 0; j < nb; j++) nok += res[j].status == ST_OK;
    out->n_used = nok;

    int *include = malloc((nb ? nb : 1) * sizeof(int));
    if (!include) return ST_ERR_ALLOC;

    for (int c = 0; c < 3; c++) {
        double *w = weights + (size_t) c * nb;
        long double total = 0.0L;
        for (size_t j = 0; j < nb; j++) {
            if (res[j].status != ST_OK) {
                w[j] = NAN;
                continue;
            }
            w[j] = mode == ST_WEIGHTS_CUSTOM ? custom[j]
                 : mode == ST_WEIGHTS_FRACTION ? res[j].centre_x[c] : 1.0;
            total += w[j];
        }
        for (size_t j = 0; j < nb; j++)
            if (res[j].status == ST_OK) w[j] = (double) (w[j] / total);

        size_t used;
        for (size_t j = 0; j < nb; j++) include[j] = res[j].status == ST_OK;
        ref_overall(res, nb, w, c, include, &out->gain[c], &out->speedup[c], &used);

        /* Significant only: the benchmarks whose speedup of this centre is
         * declared; the minimum has no test of its own, so it keeps the
         * benchmarks declared by both protocols. */
        for (size_t j = 0; j < nb; j++) {
            const st_bench_result *r = &res[j];
            int sm = r->proto[ST_PROTO_MEAN].decision == ST_SIGNIFICANT;
            int sd = r->proto[ST_PROTO_MEDIAN].decision == ST_SIGNIFICANT;
            include[j] = r->status == ST_OK &&
                (c == ST_CENTRE_MEAN ? sm : c == ST_CENTRE_MEDIAN ? sd : sm && sd);
        }
        ref_overall(res, nb, w, c, include, &out->gain_sig[c], &out->speedup_sig[c],
                &out->n_sig[c]);
    }
    free(include);

    /* the proportion of accelerated benchmarks */
    size_t a[2] = {0, 0};
    for (int p = 0; p < 2; p++)
        for (size_t j = 0; j < nb; j++)
            a[p] += res[j].status == ST_OK && res[j].proto[p].decision == ST_SIGNIFICANT;
    return ref_proportions(a, nok, opt, out);
}


static void fuzz_suite(reader *r)
{
    size_t nb = rd_size(r, SUITE_NB);
    int rigorous = rd_u8(r) & 1;
    uint8_t am = rd_u8(r);
    double alpha = am % 4 == 0 ? NAN : (double) (am % 50 + 1) / 100.0;
    double xv[SUITE_NB][SUITE_LEN], yv[SUITE_NB][SUITE_LEN];
    size_t nx[SUITE_NB], ny[SUITE_NB];
    st_bench_result res[SUITE_NB];
    st_cache tab;
    st_cache_init(&tab);
    for (size_t b = 0; b < nb; b++) {
        nx[b] = rd_size(r, SUITE_LEN);
        ny[b] = rd_u8(r) % 2 ? nx[b] : rd_size(r, SUITE_LEN);
        for (size_t i = 0; i < nx[b]; i++) xv[b][i] = rd_time(r);
        for (size_t j = 0; j < ny[b]; j++) yv[b][j] = rd_time(r);
        int st = st_suite_bench(xv[b], nx[b], yv[b], ny[b], alpha,
                                rigorous, fuzz_protos, 2, &res[b], &tab);
        CHECK(st == res[b].status);
        st_bench_result plain;
        int st2 = st_suite_bench(xv[b], nx[b], yv[b], ny[b], alpha, rigorous,
                                 fuzz_protos, 2, &plain, NULL);
        CHECK(st2 == st);
        if (st != ST_OK) continue;
        /* the centres: minimum, mean and median of each sample */
        for (int side = 0; side < 2; side++) {
            const double *v = side ? yv[b] : xv[b];
            size_t len = side ? ny[b] : nx[b];
            const double *c = side ? res[b].centre_y : res[b].centre_x;
            double srt[SUITE_LEN];
            memcpy(srt, v, len * sizeof(double));
            qsort(srt, len, sizeof(double), cmp_dbl);
            CHECK(c[ST_CENTRE_MIN] == srt[0]);
            CHECK(c[ST_CENTRE_MEAN] >= srt[0] &&
                  c[ST_CENTRE_MEAN] <= srt[len - 1]);
            double lo = srt[(len - 1) / 2], hi = srt[len / 2];
            double med = (double) (((long double) lo + hi) / 2);
            if (getenv("FUZZ_VERBOSE"))
                fprintf(stderr, "median %.17g %.17g: %.17g, expected %.17g\n",
                        lo, hi, c[ST_CENTRE_MEDIAN], med);
            /* one rounding (halving a subnormal may lose its last bit) */
            CHECK(fabs(c[ST_CENTRE_MEDIAN] - med) <=
                  2 * DBL_EPSILON * fabs(med) + 0x1p-1074);
        }
        for (int p = 0; p < 2; p++) {
            CHECK(plain.proto[p].decision == res[b].proto[p].decision);
            CHECK(same(plain.proto[p].p_value, res[b].proto[p].p_value));
            CHECK(same(plain.proto[p].alpha, res[b].proto[p].alpha));
            check_p(res[b].proto[p].p_value);
            check_p(res[b].proto[p].p_value_slowdown);
            /* the decision is the protocol's at the alpha reported */
            double al = res[b].proto[p].alpha;
            if (isnan(alpha)) {
                CHECK(res[b].searched);
                CHECK(al >= 0.01 - 1e-12 && al <= 0.5 + 1e-12);
                CHECK(fabs(al * 100 - round(al * 100)) < 1e-9);
            } else {
                CHECK(al == alpha);
            }
            st_verdict v;
            int sv = st_protocol(p, xv[b], nx[b], yv[b], ny[b], al, rigorous,
                                 NULL, &v);
            CHECK(sv == ST_OK);
            CHECK(v.decision == res[b].proto[p].decision);
            CHECK(v.guaranteed == res[b].proto[p].guaranteed);
            CHECK(same(v.p_value, res[b].proto[p].p_value));
            CHECK(same(v.p_value_slowdown, res[b].proto[p].p_value_slowdown));
            if (p == ST_PROTO_MEDIAN) CHECK(same(v.prob_greater, res[b].prob_greater));
            if (isnan(alpha) && res[b].proto[p].decision == ST_SIGNIFICANT)
                CHECK(!isnan(res[b].proto[p].highest));
        }
    }
    st_cache_free(&tab);

    /* the summary, from the results and from the columns */
    st_suite_options opt;
    opt.weights = (st_weights) (rd_u8(r) % 3);
    opt.prop_conf_level = (double) (rd_u8(r) % 99 + 1) / 100.0;
    opt.prop_method = (st_prop_method) (rd_u8(r) % 5);
    opt.precision = (double) (rd_u8(r) % 50 + 1) / 100.0;
    double custom[SUITE_NB];
    for (size_t b = 0; b < nb; b++)
        custom[b] = rd_u8(r) % 4 ? (double) (rd_u8(r) % 5) : rd_double(r);
    const double *cw = rd_u8(r) % 8 ? custom : NULL;
    double w1[3 * SUITE_NB + 1], w2[3 * SUITE_NB + 1];
    st_suite_summary s1, s2;
    int st1 = ref_suite_summarise(res, nb, cw, &opt, w1, &s1);
    double status[SUITE_NB], cxs[3][SUITE_NB], cys[3][SUITE_NB],
           dec[2][SUITE_NB];
    st_suite_columns cols;
    cols.nb = nb;
    cols.status = status;
    for (size_t b = 0; b < nb; b++) {
        status[b] = res[b].status;
        for (int c = 0; c < 3; c++) {
            cxs[c][b] = res[b].centre_x[c];
            cys[c][b] = res[b].centre_y[c];
        }
        for (int p = 0; p < 2; p++) dec[p][b] = res[b].proto[p].decision;
    }
    for (int c = 0; c < 3; c++) {
        cols.centre_x[c] = cxs[c];
        cols.centre_y[c] = cys[c];
    }
    cols.k = 2;
    for (int p = 0; p < 2; p++) {
        cols.protos[p] = fuzz_protos[p];
        cols.decision[p] = dec[p];
    }
    int st2 = st_suite_summarise(&cols, cw, &opt, w2, &s2);
    CHECK(st1 == ST_OK && st2 == ST_OK);
    if (getenv("FUZZ_VERBOSE")) {
        for (size_t b = 0; b < nb; b++)
            fprintf(stderr, "bench %zu: status %d, n %zu m %zu, centres x "
                    "%.17g %.17g %.17g y %.17g %.17g %.17g, decisions %d %d\n",
                    b, res[b].status, nx[b], ny[b], res[b].centre_x[0],
                    res[b].centre_x[1], res[b].centre_x[2], res[b].centre_y[0],
                    res[b].centre_y[1], res[b].centre_y[2],
                    (int) res[b].proto[0].decision, (int) res[b].proto[1].decision);
        fprintf(stderr, "weights %d -> %d; gain %.17g %.17g %.17g; sig %.17g "
                "%.17g %.17g\n", (int) opt.weights, (int) s1.weights,
                s1.gain[0], s1.gain[1], s1.gain[2], s1.gain_sig[0],
                s1.gain_sig[1], s1.gain_sig[2]);
    }

    size_t nok = 0;
    for (size_t b = 0; b < nb; b++) nok += res[b].status == ST_OK;
    CHECK(s1.n_used == nok && s2.n_used == nok);
    CHECK(s1.weights == s2.weights);
    for (size_t k = 0; k < 3 * nb; k++) CHECK(same(w1[k], w2[k]));
    for (int c = 0; c < 3; c++) {
        CHECK(same(s1.gain[c], s2.gain[c]));
        CHECK(same(s1.speedup[c], s2.speedup[c]));
        CHECK(same(s1.gain_sig[c], s2.gain_sig[c]));
        CHECK(same(s1.speedup_sig[c], s2.speedup_sig[c]));
        CHECK(s1.n_sig[c] == s2.n_sig[c]);
        CHECK(s1.n_sig[c] <= nok);
        /* analysed benchmarks have positive finite times: a gain is NaN
         * (nothing analysed) or 1 - sum w c(y) / sum w c(x), at most 1 and
         * finite unless that value is beyond the range of a double (a
         * centre of x near DBL_MIN against an ordinary one of y) */
        for (int sig = 0; sig < 2; sig++) {
            double g = sig ? s1.gain_sig[c] : s1.gain[c];
            double sp = sig ? s1.speedup_sig[c] : s1.speedup[c];
            long double sx = 0, sy = 0;
            size_t k = 0;
            int overflowed = 0;     /* the known median overflow */
            for (size_t b = 0; b < nb; b++) {
                if (res[b].status != ST_OK) continue;
                int sm = res[b].proto[ST_PROTO_MEAN].decision == ST_SIGNIFICANT;
                int sd = res[b].proto[ST_PROTO_MEDIAN].decision == ST_SIGNIFICANT;
                if (sig && !(c == ST_CENTRE_MEAN ? sm :
                             c == ST_CENTRE_MEDIAN ? sd : sm && sd))
                    continue;
                double w = w1[(size_t) c * nb + b];
                overflowed |= !isfinite(res[b].centre_x[c]) ||
                              !isfinite(res[b].centre_y[c]);
                sx += (long double) w * res[b].centre_x[c];
                sy += (long double) w * res[b].centre_y[c];
                k++;
            }
            if (overflowed) {
                CHECK(c == ST_CENTRE_MEDIAN);
                continue;
            }
            if (k == 0 || !(sx > 0)) {
                CHECK(isnan(g) && isnan(sp));
                continue;
            }
            long double gref = 1.0L - sy / sx, spref = sx / sy;
            CHECK(!isnan(g) && g <= 1);
            if (fabsl(gref) < (long double) DBL_MAX * 0.999L) {
                CHECK(isfinite(g));
                CHECK(fabsl((long double) g - gref) <=
                      1e-9L * (1.0L + fabsl(gref)));
            } else {
                CHECK(g == -INFINITY || fabs(g) >= DBL_MAX * 0.99);
            }
            /* S = sum W c(x) / sum W c(y), to rounding, whatever the ratio
             * of the centres (while it is a double) */
            CHECK(isnan(sp) == 0 && sp >= 0);
            if (spref < (long double) DBL_MAX && spref > (long double) DBL_MIN)
                CHECK(fabsl((long double) sp - spref) <= 1e-9L * spref);
        }
        if (nok == 0) CHECK(isnan(s1.gain[c]));
        if (s1.n_sig[c] == 0) CHECK(isnan(s1.gain_sig[c]));
        /* weights of the analysed benchmarks sum to 1 (unless a centre
         * overflowed, above) */
        double tot = 0;
        int finite_centres = 1;
        for (size_t b = 0; b < nb; b++)
            if (res[b].status == ST_OK && !isfinite(res[b].centre_x[c]))
                finite_centres = 0;
        for (size_t b = 0; finite_centres && b < nb; b++) {
            double w = w1[(size_t) c * nb + b];
            if (res[b].status != ST_OK) CHECK(isnan(w));
            else {
                CHECK(w >= 0);
                tot += w;
            }
        }
        if (nok > 0 && finite_centres) CHECK(fabs(tot - 1) <= 1e-12 * nok);
    }
    CHECK(s1.b == (double) nok && s2.b == (double) nok);
    for (int p = 0; p < 2; p++) {
        size_t a = 0;
        for (size_t b = 0; b < nb; b++)
            a += res[b].status == ST_OK && res[b].proto[p].decision == ST_SIGNIFICANT;
        CHECK(s1.a[p] == (double) a && s2.a[p] == (double) a);
        CHECK(s1.valid[p] == s2.valid[p]);
        CHECK(same(s1.min_benchmarks[p], s2.min_benchmarks[p]));
        check_same_result(&s1.prop[p], &s2.prop[p]);
        if (nok > 0) {
            double C = s1.a[p] / s1.b;
            CHECK(C >= 0 && C <= 1);
            const st_result *pr = &s1.prop[p];
            if (!isnan(pr->estimate[0]))
                CHECK(pr->estimate[0] >= 0 && pr->estimate[0] <= 1);
            if (!isnan(pr->conf_int[0]) && !isnan(pr->conf_int[1])) {
                CHECK(pr->conf_int[0] <= pr->conf_int[1]);
                CHECK(pr->conf_int[0] >= 0 && pr->conf_int[1] <= 1);
            }
            CHECK(isnan(s1.min_benchmarks[p]) || s1.min_benchmarks[p] >= 0);
        } else {
            CHECK(isnan(s1.min_benchmarks[p]));
        }
    }
}

/* st_split_command on arbitrary bytes: -1 or 1..max_words words, each ended
 * inside the buffer, none holding a character the shell reads specially
 * unless quoted; and on lines of plain characters and blanks, the words of splitting at
 * the blanks (the reference). */
static void fuzz_split(reader *r)
{
    size_t len = rd_size(r, 200);
    char *cmd = (char *) malloc(len + 1);
    for (size_t i = 0; i < len; i++) {
        uint8_t c = rd_u8(r);
        cmd[i] = c == 0 ? ' ' : (char) c;
    }
    cmd[len] = '\0';
    int plain = 1;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char) cmd[i];
        if (!(c == ' ' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) plain = 0;
    }
    char *out = (char *) malloc(len + 1);
    int max_words = (int) (len / 2 + 1);
    int *starts = (int *) malloc(sizeof(int) * (size_t) max_words);
    int n = st_split_command(cmd, out, len + 1, starts, max_words);
    CHECK(n == -1 || (n >= 1 && n <= max_words));
    for (int w = 0; w < n; w++) {
        CHECK(starts[w] >= 0 && (size_t) starts[w] < len + 1);
        size_t wl = strnlen(out + starts[w], len + 1 - (size_t) starts[w]);
        CHECK((size_t) starts[w] + wl < len + 1);
        /* unquoted, no word holds a character the shell reads specially */
        if (!memchr(cmd, '\'', len) && !memchr(cmd, '"', len)) {
            for (size_t i = 0; i < wl; i++)
                CHECK(strchr("|&;<>()$`\\\n*?[]{}~!", out[starts[w] + i]) == NULL);
        }
    }
    if (plain) {
        /* the reference: words between blanks */
        int m = 0;
        size_t i = 0;
        while (i < len) {
            while (i < len && cmd[i] == ' ') i++;
            if (i >= len) break;
            size_t j = i;
            while (j < len && cmd[j] != ' ') j++;
            if (n > 0) {
                CHECK(m < n);
                CHECK(strlen(out + starts[m]) == j - i);
                CHECK(memcmp(out + starts[m], cmd + i, j - i) == 0);
            }
            m++;
            i = j;
        }
        /* plain lines need no shell unless empty or a shell word first */
        if (n > 0) CHECK(m == n);
        if (m == 0) CHECK(n == -1);
    }
    free(starts);
    free(out);
    free(cmd);
}

/* ---- change points along a series (changes.c, edivisive.c) -------------- */

static void fuzz_changes(reader *r)
{
    size_t k = rd_size(r, 60) + 1;
    size_t *start = malloc((k + 1) * sizeof(size_t));
    start[0] = 0;
    for (size_t c = 0; c < k; c++) start[c + 1] = start[c] + 1 + rd_size(r, 3);
    size_t N = start[k];
    double *v = malloc(N * sizeof(double));
    int step = rd_u8(r) % 3;
    for (size_t i = 0; i < N; i++) {
        double x = rd_double(r);
        v[i] = step && i > N / 2 ? x + 10.0 * step : x;
    }
    double alpha = (1 + rd_size(r, 49)) / 100.0;
    /* the triplets: inside the series, levels adding up to alpha */
    st_scan_triplet *t;
    size_t nt;
    int s = st_scan_grid(start, k, alpha, 128, &t, &nt);
    CHECK(s == ST_OK);
    double sum = 0.0;
    for (size_t i = 0; i < nt; i++) {
        CHECK(t[i].from < t[i].split && t[i].split < t[i].to && t[i].to <= k);
        CHECK(t[i].level > 0);
        sum += t[i].level;
    }
    if (nt) CHECK(fabs(sum - alpha) <= 1e-9 * alpha);
    free(t);
    /* the scan: disjoint ranges in order, each p-value at most alpha */
    st_scan_change *ch;
    size_t nc;
    s = st_scan_changes(v, start, k, alpha, NULL, &ch, &nc);
    if (!all_finite(v, N)) CHECK(s == ST_ERR_DOMAIN);
    if (s == ST_OK) {
        for (size_t i = 0; i < nc; i++) {
            CHECK(ch[i].from < ch[i].first_bad && ch[i].first_bad < ch[i].to);
            CHECK(ch[i].p_value <= alpha && ch[i].p_value >= 0);
            check_p(ch[i].p_local);
            if (i) CHECK(ch[i - 1].to - 1 < ch[i].from + 1);
        }
        /* the figures: intervals ordered, p-values in [0, 1] */
        int positive = 1;
        for (size_t i = 0; i < N; i++) positive &= v[i] > 0;
        size_t *fb = malloc((nc ? nc : 1) * sizeof(size_t));
        for (size_t i = 0; i < nc; i++) fb[i] = ch[i].first_bad;
        st_change_figure *f = malloc((nc ? nc : 1) * sizeof(st_change_figure));
        double a2 = alpha < 0.5 ? alpha : 0.25;
        s = st_change_figures(v, start, k, fb, nc, a2, 1.01, f);
        if (!positive) CHECK(s == ST_ERR_DOMAIN);
        if (s == ST_OK) {
            size_t used = 0;
            for (size_t i = 0; i < nc; i++) {
                used += f[i].n_after;
                if (i == 0) used += f[i].n_before;
                if (!isnan(f[i].conf[0]) && !isnan(f[i].conf[1]))
                    CHECK(f[i].conf[0] <= f[i].conf[1]);
                for (int j = 0; j < 4; j++) check_p(f[i].p[j]);
            }
            if (nc) CHECK(used == N);
        }
        free(fb);
        free(f);
    }
    free(ch);
    /* E-divisive: changes strictly inside, segments of min_size at least */
    st_edivisive_options o;
    o.sig_level = alpha;
    o.permutations = rd_size(r, 19);
    o.min_size = 2 + rd_size(r, 10);
    o.exponent = (1 + rd_size(r, 3)) / 2.0;
    o.max_changes = rd_size(r, 3);
    o.seed = rd_u8(r);
    st_edivisive_result e;
    s = st_edivisive(v, N, &o, &e);
    if (!all_finite(v, N)) CHECK(s == ST_ERR_DOMAIN);
    if (s == ST_OK) {
        char *cut = calloc(N + 1, 1);
        for (size_t i = 0; i < e.n_changes; i++) {
            CHECK(e.change[i] >= o.min_size && e.change[i] + o.min_size <= N);
            CHECK(!cut[e.change[i]]);
            cut[e.change[i]] = 1;
            check_p(e.p_value[i]);
        }
        size_t last = 0;
        for (size_t i = 1; i <= N; i++)
            if (cut[i] || i == N) {
                CHECK(i - last >= o.min_size || e.n_changes == 0);
                last = i;
            }
        free(cut);
        free(e.change);
        free(e.p_value);
    }
    free(v);
    free(start);
}

/* Warm-up (warmup.c): the rolling outlier rule's bounds are ordered and
 * flag exactly the values outside them; the classification of a process
 * refuses non-positive or non-finite times and bad options, and otherwise
 * gives a class, change points inside the series in increasing order at
 * least minseg apart, a first steady iteration inside it (or none for
 * "no steady state"), the time before it, and the segments' medians within
 * the range of the times. */
static void fuzz_warmup(reader *r)
{
    size_t n = rd_size(r, 250);
    double *x = malloc((n ? n : 1) * sizeof(double));
    int base = rd_u8(r) & 1;
    for (size_t i = 0; i < n; i++) {
        double v = rd_double(r);
        /* mostly positive times, a warm-up or a slowdown now and then */
        x[i] = base ? v : fabs(v) + (i < n / 4 ? (double) (rd_u8(r) % 3) : 0.0);
    }
    size_t window = rd_size(r, 40);
    double k = (double) (rd_u8(r) % 12) / 2.0;
    if (rd_u8(r) == 255) k = NAN;
    double *lo = malloc((n ? n : 1) * sizeof(double));
    double *hi = malloc((n ? n : 1) * sizeof(double));
    int *out = malloc((n ? n : 1) * sizeof(int));
    int s = st_warmup_outliers(x, n, window, k, lo, hi, out);
    CHECK(s == ST_OK || s == ST_ERR_DOMAIN);
    if (!all_finite(x, n)) CHECK(s == ST_ERR_DOMAIN);
    if (s == ST_OK)
        for (size_t i = 0; i < n; i++) {
            CHECK(lo[i] <= hi[i]);
            CHECK(out[i] == (x[i] < lo[i] || x[i] > hi[i]));
        }
    st_warmup_options o;
    o.penalty = (double) (rd_u8(r) % 40) * (n > 1 ? log((double) n) : 1.0);
    o.minseg = rd_size(r, 12);
    o.step = rd_size(r, 3);
    o.window = window;
    o.outlier_k = k;
    o.steady = rd_size(r, 60);
    o.margin = (double) (rd_u8(r) % 6) / 100.0;
    o.alpha = (double) (rd_u8(r) % 12) / 20.0;
    size_t *cpts = malloc((n ? n : 1) * sizeof(size_t));
    double *seg = malloc((n + 1) * sizeof(double));
    st_warmup_result res;
    s = st_warmup_classify(x, n, &o, NULL, &res, cpts, out, seg);
    CHECK(s == ST_OK || s == ST_ERR_DOMAIN || s == ST_ERR_TOO_FEW ||
          s == ST_ERR_TOO_MANY);
    int positive = 1;
    for (size_t i = 0; i < n; i++) positive &= isfinite(x[i]) && x[i] > 0;
    if (n == 0) CHECK(s == ST_ERR_TOO_FEW);
    else if (!positive) CHECK(s == ST_ERR_DOMAIN);
    if (s == ST_OK) {
        CHECK(res.cls >= ST_WARMUP_FLAT && res.cls <= ST_WARMUP_TOO_SHORT);
        CHECK(res.changes < n);
        size_t outliers = 0;
        for (size_t i = 0; i < n; i++) outliers += (size_t) (out[i] != 0);
        CHECK(outliers == res.outliers);
        double mn = x[0], mx = x[0];
        for (size_t i = 1; i < n; i++) {
            if (x[i] < mn) mn = x[i];
            if (x[i] > mx) mx = x[i];
        }
        size_t prev = 0;
        for (size_t j = 0; j < res.changes; j++) {
            CHECK(cpts[j] >= prev + o.minseg && cpts[j] + o.minseg <= n);
            prev = cpts[j];
        }
        for (size_t j = 0; j <= res.changes; j++)
            CHECK(seg[j] >= mn && seg[j] <= mx);
        if (res.cls == ST_WARMUP_NO_STEADY) {
            CHECK(res.steady_iteration == 0 && isnan(res.steady_median));
        } else {
            CHECK(res.steady_iteration >= 1 && res.steady_iteration <= n);
            CHECK(res.steady_median >= mn && res.steady_median <= mx);
            CHECK(res.steady_time >= 0);
            if (res.cls == ST_WARMUP_FLAT) CHECK(res.steady_iteration == 1);
        }
    }
    free(x);
    free(lo);
    free(hi);
    free(out);
    free(cpts);
    free(seg);
}

/* Rounds and processes (replication.c): the complete rounds of each pair
 * of samples against a count by brute force; per-process summaries (the
 * runs, the common round, the value within the range of the process's
 * runs); the labels of each benchmark against a brute-force count. */
static void fuzz_units(reader *r)
{
    enum { MAXSEG = 4, MAXU = 24, NA = -1 };
    size_t nseg = 1 + rd_size(r, MAXSEG - 1);
    size_t x_off[MAXSEG + 1], y_off[MAXSEG + 1];
    int rx[MAXSEG * MAXU], ry[MAXSEG * MAXU];
    x_off[0] = y_off[0] = 0;
    for (size_t s = 0; s < nseg; s++) {
        size_t a = rd_size(r, MAXU), b = rd_size(r, MAXU);
        x_off[s + 1] = x_off[s] + a;
        y_off[s + 1] = y_off[s] + b;
        for (size_t i = x_off[s]; i < x_off[s + 1]; i++)
            rx[i] = rd_u8(r) % 9 == 0 ? NA : (int) (rd_u8(r) % 12);
        for (size_t i = y_off[s]; i < y_off[s + 1]; i++)
            ry[i] = rd_u8(r) % 9 == 0 ? NA : (int) (rd_u8(r) % 12);
    }
    int complete[MAXSEG], rounds[MAXSEG], shared[MAXSEG];
    int pos_x[MAXSEG * MAXU], pos_y[MAXSEG * MAXU];
    int index_x[MAXSEG * MAXU], index_y[MAXSEG * MAXU];
    int s = st_round_pairs(rx, x_off, ry, y_off, nseg, NA, complete, rounds,
                           shared, pos_x, pos_y, index_x, index_y);
    CHECK(s == ST_OK);
    /* the indices without the ranks are the same */
    int complete2[MAXSEG], rounds2[MAXSEG], shared2[MAXSEG];
    int index_x2[MAXSEG * MAXU], index_y2[MAXSEG * MAXU];
    s = st_round_pairs(rx, x_off, ry, y_off, nseg, NA, complete2, rounds2,
                       shared2, NULL, NULL, index_x2, index_y2);
    CHECK(s == ST_OK);
    size_t base = 0;
    for (size_t g = 0; g < nseg; g++) {
        CHECK(complete2[g] == complete[g] && rounds2[g] == rounds[g] &&
              shared2[g] == shared[g]);
        /* unit i of a complete round of rank p is the p-th index, and the
         * rounds of the indices increase */
        for (size_t i = x_off[g]; i < x_off[g + 1]; i++)
            if (pos_x[i])
                CHECK(index_x[base + pos_x[i] - 1] == (int) (i - x_off[g] + 1));
        for (size_t i = y_off[g]; i < y_off[g + 1]; i++)
            if (pos_y[i])
                CHECK(index_y[base + pos_y[i] - 1] == (int) (i - y_off[g] + 1));
        for (int p = 0; p < complete[g]; p++) {
            CHECK(index_x2[base + p] == index_x[base + p] &&
                  index_y2[base + p] == index_y[base + p]);
            CHECK(rx[x_off[g] + index_x[base + p] - 1] ==
                  ry[y_off[g] + index_y[base + p] - 1]);
            if (p)
                CHECK(rx[x_off[g] + index_x[base + p] - 1] >
                      rx[x_off[g] + index_x[base + p - 1] - 1]);
        }
        base += (size_t) complete[g];
    }
    for (size_t g = 0; g < nseg; g++) {
        int cnt_c = 0, cnt_r = 0, cnt_s = 0;
        for (int c = 0; c < 12; c++) {
            int ax = 0, ay = 0;
            for (size_t i = x_off[g]; i < x_off[g + 1]; i++) ax += rx[i] == c;
            for (size_t i = y_off[g]; i < y_off[g + 1]; i++) ay += ry[i] == c;
            cnt_r += ax + ay > 0;
            cnt_s += ax > 0 && ay > 0;
            cnt_c += ax == 1 && ay == 1;
        }
        CHECK(complete[g] == cnt_c && rounds[g] == cnt_r && shared[g] == cnt_s);
        for (size_t i = x_off[g]; i < x_off[g + 1]; i++)
            CHECK(pos_x[i] >= 0 && pos_x[i] <= cnt_c);
        for (size_t i = y_off[g]; i < y_off[g + 1]; i++)
            CHECK(pos_y[i] >= 0 && pos_y[i] <= cnt_c);
    }
    /* the rows of one benchmark's pair of versions (protocol-input.c)
     * against a count by brute force: the rows of each side in table
     * order, their ranks among both, and whether the keys are in order */
    {
        enum { NR = 40 };
        size_t nr = rd_size(r, NR);
        int nlev = 1 + (int) rd_size(r, 3);
        int sel[NR], marked[NR], vcode[NR], run[NR], side[4];
        double ts[NR];
        int use_sel = rd_u8(r) & 1, use_marked = rd_u8(r) & 1;
        int use_run = rd_u8(r) & 1, use_ts = rd_u8(r) & 1;
        for (size_t i = 0; i < nr; i++) {
            sel[i] = rd_u8(r) % 4 ? 1 : (rd_u8(r) & 1 ? 0 : NA);
            marked[i] = rd_u8(r) % 5 ? 0 : (rd_u8(r) & 1 ? 1 : NA);
            vcode[i] = rd_u8(r) % 7 ? 1 + (int) (rd_u8(r) % (unsigned) (nlev + 1)) : NA;
            run[i] = rd_u8(r) % 11 ? (int) (rd_u8(r) % 8) : NA;
            ts[i] = rd_u8(r) % 13 ? (double) (rd_u8(r) % 6) : NAN;
        }
        for (int l = 0; l < nlev; l++) side[l] = (int) (rd_u8(r) % 3);
        size_t count[4];
        const int *ps = use_sel ? sel : NULL, *pm = use_marked ? marked : NULL;
        s = st_pair_counts(nr, ps, pm, vcode, nlev, NA, count);
        int out_of_range = 0;
        for (size_t i = 0; i < nr; i++)
            if ((!ps || ps[i] == 1) && (!pm || pm[i] != 1) && vcode[i] != NA &&
                vcode[i] > nlev) out_of_range = 1;
        CHECK((s == ST_ERR_DOMAIN) == out_of_range);
        if (s == ST_OK) {
            size_t cx = 0, cy = 0;
            for (int l = 0; l < nlev; l++) {
                if (side[l] == 1) cx += count[l];
                if (side[l] == 2) cy += count[l];
            }
            int rows_x[NR], rows_y[NR], pos_x[NR], pos_y[NR], ox, ob, tn;
            double time[NR], time_x[NR], time_y[NR];
            int round_x[NR], round_y[NR];
            for (size_t i = 0; i < nr; i++) time[i] = (double) i / 2;
            st_pair_gather g = {time, time_x, time_y, run, round_x, round_y, 1};
            s = st_pair_rows(nr, ps, pm, vcode, nlev, side, use_run ? run : NULL,
                             use_ts ? ts : NULL, NA, cx, cy, rows_x, rows_y,
                             pos_x, pos_y, &g, &ox, &ob, &tn);
            CHECK(s == ST_OK);
            /* a wrong capacity is refused */
            if (cx > 0)
                CHECK(st_pair_rows(nr, ps, pm, vcode, nlev, side, NULL, NULL, NA,
                                   cx - 1, cy, rows_x, rows_y, NULL, NULL, &g,
                                   &ox, &ob, &tn) == ST_ERR_DOMAIN);
            s = st_pair_rows(nr, ps, pm, vcode, nlev, side, use_run ? run : NULL,
                             use_ts ? ts : NULL, NA, cx, cy, rows_x, rows_y,
                             pos_x, pos_y, &g, &ox, &ob, &tn);
            size_t kx = 0, ky = 0, kk = 0;
            int in[3] = {1, 1, 1}, seen[3] = {0, 0, 0}, nan_ts = 0;
            double pt[3] = {0, 0, 0};
            int prn[3] = {0, 0, 0};
            for (size_t i = 0; i < nr; i++) {
                if ((ps && ps[i] != 1) || (pm && pm[i] == 1) || vcode[i] == NA)
                    continue;
                int sd = side[vcode[i] - 1];
                if (sd != 1 && sd != 2) continue;
                kk++;
                if (use_ts && isnan(ts[i])) nan_ts = 1;
                int who[2] = {0, sd};
                for (int w = 0; w < 2; w++) {
                    int q = who[w];
                    int rv = use_run ? run[i] : 0;
                    double tv = use_ts ? ts[i] : 0;
                    if ((use_run && rv == NA) || (use_ts && isnan(tv))) in[q] = 0;
                    else if (seen[q] && (tv < pt[q] || (tv == pt[q] && rv < prn[q])))
                        in[q] = 0;
                    seen[q] = 1;
                    pt[q] = tv;
                    prn[q] = rv;
                }
                if (sd == 1) {
                    CHECK(rows_x[kx] == (int) i + 1 && pos_x[kx] == (int) kk);
                    CHECK(time_x[kx] == time[i] && round_x[kx] == run[i]);
                    kx++;
                } else {
                    CHECK(rows_y[ky] == (int) i + 1 && pos_y[ky] == (int) kk);
                    CHECK(time_y[ky] == time[i] && round_y[ky] == run[i]);
                    ky++;
                }
            }
            CHECK(kx == cx && ky == cy);
            CHECK(ox == (in[1] && in[2]) && ob == in[0]);
            CHECK(tn == nan_ts);
            /* without the rows' numbers: the same times, rounds and flags */
            double tx2[NR], ty2[NR];
            int rx2[NR], ry2[NR], ox2, ob2, tn2;
            st_pair_gather g2 = {time, tx2, ty2, run, rx2, ry2, 1};
            CHECK(st_pair_rows(nr, ps, pm, vcode, nlev, side, use_run ? run : NULL,
                               use_ts ? ts : NULL, NA, cx, cy, NULL, NULL, NULL,
                               NULL, &g2, &ox2, &ob2, &tn2) == ST_OK);
            for (size_t q = 0; q < cx; q++)
                CHECK(tx2[q] == time_x[q] && rx2[q] == round_x[q]);
            for (size_t q = 0; q < cy; q++)
                CHECK(ty2[q] == time_y[q] && ry2[q] == round_y[q]);
            CHECK(ox2 == ox && ob2 == ob && tn2 == tn && g2.plain == g.plain);
            /* paired by round (run keys only): rounds lo + a permutation
             * of each side's rows, now and then spoilt, against brute force */
            int rnd[NR], lo = (int) (rd_u8(r) % 5) - 2, shift = (int) rd_u8(r);
            double tm[NR];
            size_t jx = 0, jy = 0;
            for (size_t i = 0; i < nr; i++) {
                tm[i] = rd_u8(r) % 23 == 0 ? 0.0 : 1.0 + (double) i;
                rnd[i] = NA;
                if ((ps && ps[i] != 1) || (pm && pm[i] == 1) || vcode[i] == NA)
                    continue;
                int sd = side[vcode[i] - 1];
                if (sd == 1) rnd[i] = lo + (int) ((jx++ + (size_t) shift) % (cx ? cx : 1));
                else if (sd == 2) rnd[i] = lo + (int) (cy - 1 - jy++);
                else continue;
                unsigned spoil = rd_u8(r) % 29;
                if (spoil == 0) rnd[i] = NA;
                if (spoil == 1) rnd[i] = lo;
            }
            int use_global = rd_u8(r) & 1, ox3, ob3, tn3;
            st_pair_gather g3 = {tm, tx2, ty2, rnd, rx2, ry2, 1};
            CHECK(st_pair_rows(nr, ps, pm, vcode, nlev, side, use_run ? run : NULL,
                               NULL, NA, cx, cy, NULL, NULL, NULL, NULL, &g3,
                               &ox3, &ob3, &tn3) == ST_OK);
            double bx[NR], by[NR];
            int lo_out = 0, done = 0;
            size_t mm = cx > 0 ? cx : 1;
            s = st_pair_by_round(nr, ps, pm, vcode, nlev, side, use_run ? run : NULL,
                                 NA, use_global, tm, rnd, mm, bx, by, &lo_out, &done);
            CHECK(s == ST_OK);
            /* expected: each side holds every round of [lo, lo + m) once */
            int want = cx == cy && cx > 0 && ox3 && (!use_global || ob3) && g3.plain;
            int lo_b = INT_MAX;
            for (size_t q = 0; q < cx; q++) {
                if (rx2[q] == NA || ry2[q] == NA) want = 0;
                else {
                    if (rx2[q] < lo_b) lo_b = rx2[q];
                    if (ry2[q] < lo_b) lo_b = ry2[q];
                }
            }
            for (size_t q = 0; want && q < cx; q++)
                for (size_t p2 = 0; p2 < cx; p2++) {
                    if (p2 != q && (rx2[p2] == rx2[q] || ry2[p2] == ry2[q])) want = 0;
                    if ((size_t) (rx2[q] - lo_b) >= cx || (size_t) (ry2[q] - lo_b) >= cx)
                        want = 0;
                }
            CHECK(done == want);
            if (done) {
                CHECK(lo_out == lo_b);
                for (size_t q = 0; q < cx; q++) {
                    CHECK(bx[rx2[q] - lo_b] == tx2[q]);
                    CHECK(by[ry2[q] - lo_b] == ty2[q]);
                }
            }
            /* the complete rounds' values against their indices */
            if (cx > 0 && cy > 0) {
                size_t xo[2] = {0, cx}, yo[2] = {0, cy};
                int cmp[1], rds[1], shd[1], ix[NR], iy[NR], c2, r2, s2;
                double vx[NR], vy[NR];
                CHECK(st_round_pairs(rx2, xo, ry2, yo, 1, NA, cmp, rds, shd, NULL,
                                     NULL, ix, iy) == ST_OK);
                CHECK(st_round_pair_values(rx2, cx, ry2, cy, tx2, ty2, NA, &c2, &r2,
                                           &s2, vx, vy) == ST_OK);
                CHECK(c2 == cmp[0] && r2 == rds[0] && s2 == shd[0]);
                for (int q = 0; q < c2; q++)
                    CHECK(vx[q] == tx2[ix[q] - 1] && vy[q] == ty2[iy[q] - 1]);
            }
        }
    }
    /* per-process summaries */
    size_t n = rd_size(r, 60), k = 1 + rd_size(r, 7);
    double t[60];
    int group[60], round[60];
    for (size_t i = 0; i < n; i++) {
        t[i] = rd_double(r);
        group[i] = 1 + (int) (rd_u8(r) % k);
        round[i] = rd_u8(r) % 5 == 0 ? NA : (int) (rd_u8(r) % 4);
    }
    double value[8], excess[8];
    int runs[8], unit_round[8];
    int median = rd_u8(r) & 1;
    size_t take = rd_size(r, 4);
    s = st_process_units(t, group, round, n, k, NA, median, take, value, runs,
                         unit_round, excess);
    if (s == ST_OK && all_finite(t, n)) {
        for (size_t g = 0; g < k; g++) {
            int cnt = 0;
            double mn = INFINITY, mx = -INFINITY;
            for (size_t i = 0; i < n; i++)
                if ((size_t) group[i] == g + 1) {
                    cnt++;
                    if (take == 0 || (size_t) cnt <= take) {
                        if (t[i] < mn) mn = t[i];
                        if (t[i] > mx) mx = t[i];
                    }
                }
            CHECK(runs[g] == cnt);
            if (cnt > 0 && !isnan(value[g]) && isfinite(mn) && isfinite(mx) &&
                fabs(mn) < 1e300 && fabs(mx) < 1e300)
                CHECK(value[g] >= mn - 1e-9 * fabs(mn) &&
                      value[g] <= mx + 1e-9 * fabs(mx));
        }
    }
    /* labels per benchmark, runs of each benchmark together, x before y */
    size_t nb = 1 + rd_size(r, 3), u = 1 + rd_size(r, 6), nl = 0;
    int bench[80], side[80], code[80];
    for (size_t b = 0; b < nb; b++)
        for (int sd = 1; sd <= 2; sd++) {
            size_t c = rd_size(r, 9);
            for (size_t i = 0; i < c && nl < 80; i++) {
                bench[nl] = (int) b + 1;
                side[nl] = sd;
                code[nl] = rd_u8(r) % 7 == 0 ? NA : 1 + (int) (rd_u8(r) % u);
                nl++;
            }
        }
    int has_na[4], kx[4], ky[4], sh[4];
    s = st_process_counts(bench, side, code, nl, nb, u, NA, has_na, kx, ky, sh);
    CHECK(s == ST_OK || s == ST_ERR_DOMAIN);
    if (s == ST_OK)
        for (size_t b = 0; b < nb; b++) {
            int na = 0, cx = 0, cy = 0, both = 0;
            for (size_t c = 1; c <= u; c++) {
                int ax = 0, ay = 0;
                for (size_t i = 0; i < nl; i++)
                    if ((size_t) bench[i] == b + 1 && (size_t) code[i] == c) {
                        ax += side[i] == 1;
                        ay += side[i] == 2;
                    }
                cx += ax > 0;
                cy += ay > 0;
                both |= ax > 0 && ay > 0;
            }
            for (size_t i = 0; i < nl; i++)
                na |= (size_t) bench[i] == b + 1 && code[i] == NA;
            CHECK((has_na[b] != 0) == na && kx[b] == cx && ky[b] == cy &&
                  (sh[b] != 0) == both);
        }
}

/* The median's normal plan (plan-rank.c): any input returns; with ST_OK
 * the plan is a whole number of runs of at least 2, or Inf; a non-finite
 * or non-positive argument where a finite positive one is needed gives
 * ST_ERR_DOMAIN. */
static void fuzz_planrank(reader *r)
{
    double mx[24], my[24], w[40];
    size_t nx = rd_size(r, 24), ny = rd_size(r, 24), nw = rd_size(r, 40);
    for (size_t i = 0; i < nx; i++) mx[i] = rd_double(r) / 100.0 - 1.0;
    for (size_t j = 0; j < ny; j++) my[j] = rd_double(r) / 100.0 - 1.0;
    for (size_t i = 0; i < nw; i++) w[i] = rd_double(r) / 100.0;
    double sd = rd_double(r) / 1000.0, t = rd_double(r) / 1000.0;
    double z = rd_double(r) / 50.0, power = (double) rd_u8(r) / 256.0;
    int slowdown = rd_u8(r) & 1, nodes = (int) rd_size(r, 70);
    double runs = -1;
    int s = st_plan_rank(mx, nx, my, ny, sd, t, slowdown, w, nw, z, power,
                         nodes, &runs);
    CHECK(s == ST_OK || s == ST_ERR_DOMAIN);
    if (s == ST_OK) {
        CHECK(runs == INFINITY || (runs >= 2 && runs == floor(runs)));
        CHECK(isfinite(sd) && sd > 0 && isfinite(t) && t > 0 && isfinite(z));
        CHECK(all_finite(mx, nx) && all_finite(my, ny) && all_finite(w, nw));
    }
}

/* The rounds' order (measure-plan.c): the uniform index is read from the
 * input, in range or not; every round must be a permutation of 1..k. */
static reader *rounds_src;
static double rounds_index(double n)
{
    uint8_t b = rd_u8(rounds_src);
    /* mostly in range; sometimes past the end or negative */
    return b < 240 ? floor((double) b * n / 240.0) : (b & 1 ? n + b : -1.0 - b);
}

static void fuzz_rounds(reader *r)
{
    int k = (int) rd_size(r, 40), rounds = (int) rd_size(r, 30) - 1;
    int pool[40], out[40 * 30], seen[41];
    rounds_src = r;
    int s = st_rounds_order(k, rounds, rounds_index, pool, out);
    CHECK((s == ST_OK) == (k >= 1 && rounds >= 0));
    if (s != ST_OK) return;
    for (int q = 0; q < rounds; q++) {
        memset(seen, 0, sizeof seen);
        for (int i = 0; i < k; i++) {
            int v = out[q * k + i];
            CHECK(v >= 1 && v <= k && !seen[v]);
            seen[v] = 1;
        }
    }
}

/* The order of a Google Benchmark file's repetitions (json-fields.c):
 * within each benchmark, run[] counts its runs 1, 2, ... in file order;
 * iteration[] is a permutation of the same numbers, in the order of the
 * repetition indices when they are all present and distinct, else run[]. */
static void fuzz_gborder(reader *r)
{
    enum { N = 64 };
    int code[N], run[N], iteration[N];
    double rep[N];
    size_t n = rd_size(r, N);
    int k = (int) rd_size(r, 8);
    for (size_t i = 0; i < n; i++) {
        code[i] = (int) rd_size(r, 9);   /* 0 and k + 1.. out of range */
        uint8_t t = rd_u8(r);
        rep[i] = t < 16 ? NAN : (double) (t % 12);
    }
    int s = st_gbench_order(code, rep, n, k, run, iteration);
    int bad = 0;
    for (size_t i = 0; i < n; i++) bad |= code[i] < 1 || code[i] > k;
    CHECK(s == (bad ? ST_ERR_DOMAIN : ST_OK));
    if (s != ST_OK) return;
    for (int g = 1; g <= k; g++) {
        int count = 0, distinct = 1, seen[N + 1] = {0};
        for (size_t i = 0; i < n; i++) {
            if (code[i] != g) continue;
            CHECK(run[i] == ++count);
            if (isnan(rep[i])) distinct = 0;
            for (size_t j = 0; j < i; j++)
                if (code[j] == g && rep[j] == rep[i]) distinct = 0;
        }
        for (size_t i = 0; i < n; i++) {
            if (code[i] != g) continue;
            CHECK(iteration[i] >= 1 && iteration[i] <= count && !seen[iteration[i]]);
            seen[iteration[i]] = 1;
            if (!distinct) CHECK(iteration[i] == run[i]);
            else
                for (size_t j = 0; j < n; j++)
                    if (code[j] == g && rep[j] < rep[i]) CHECK(iteration[j] < iteration[i]);
        }
    }
}

/* A suite's timings grouped in one pass (suite-timings.c): the same order,
 * counts and cleanliness as st_timings_group(), the times gathered in that
 * order, the same answers from the benchmark codes per row and per start
 * row, from integer and double run numbers, and the process labels'
 * counts of st_process_counts() over the grouped rows. */
static void fuzz_tsuite(reader *r)
{
    enum { N = 48, NB = 6, NA = -1 };
    int bench[N], version[N], irun[N], code[N], starts[N], sbench[N];
    double drun[N], time[N];
    size_t n = rd_size(r, N), nb = 1 + rd_size(r, NB - 1), u = rd_size(r, 6);
    int use_run = rd_u8(r) & 1, bad = 0;
    /* half the inputs as files give them: each benchmark's runs of one
     * version, then of the other, in run order (st_timings_suite_blocks()
     * reads them in place), with a few departures */
    int tidy = rd_u8(r) & 1;
    for (size_t i = 0; i < n; i++) {
        uint8_t t = rd_u8(r);
        /* mostly in blocks (as files give them), sometimes not */
        bench[i] = i && t < 200 ? bench[i - 1] + (t % 5 == 0) : 1 + (int) (t % nb);
        if (bench[i] > (int) nb) bench[i] = (int) nb;
        version[i] = 1 + (rd_u8(r) & 1);
        irun[i] = (int) rd_size(r, 6);
        if (tidy) {
            int same = i && bench[i] == bench[i - 1];
            version[i] = same && (version[i - 1] == 2 || t % 3 == 0) ? 2 : 1;
            if (t == 7) version[i] = 3 - version[i];
            irun[i] = same ? irun[i - 1] + (t % 4 != 1) - (t == 9) : (int) (t % 3);
        }
        drun[i] = irun[i];
        uint8_t c = rd_u8(r);
        time[i] = c < 12 ? (c < 4 ? 0.0 : c < 8 ? -1.0 : NAN) : (double) c / 7.0;
        code[i] = u && rd_u8(r) % 5 ? 1 + (int) (rd_u8(r) % u) : NA;
    }
    if (n && rd_u8(r) < 8) {
        version[rd_size(r, n - 1)] = 3;   /* out of range */
        bad = 1;
    }
    size_t ns = 0;
    for (size_t i = 0; i < n; i++)
        if (!i || bench[i] != bench[i - 1]) {
            starts[ns] = (int) i + 1;
            sbench[ns++] = bench[i];
        }
    int order[N], count[2 * NB], clean, has_na[NB], kx[NB], ky[NB], sh[NB];
    double values[N];
    int s = st_timings_suite(bench, NULL, 0, version, use_run ? irun : NULL, NULL, time,
                             code, u, NA, n, nb, order, count, values, &clean, has_na,
                             kx, ky, sh);
    CHECK(s == (bad ? ST_ERR_DOMAIN : ST_OK));
    if (s != ST_OK) return;
    int order2[N], count2[2 * NB], clean2;
    CHECK(st_timings_group(bench, version, use_run ? drun : NULL, time, n, nb, order2,
                           count2, &clean2) == ST_OK);
    CHECK(clean == clean2);
    for (size_t g = 0; g < 2 * nb; g++) CHECK(count[g] == count2[g]);
    for (size_t i = 0; i < n; i++) {
        CHECK(order[i] == order2[i]);
        CHECK(memcmp(&values[i], &time[order[i]], sizeof(double)) == 0);
    }
    int gb[N], gs[N], gc[N], h2[NB], kx2[NB], ky2[NB], sh2[NB];
    for (size_t i = 0; i < n; i++) {
        gb[i] = bench[order[i]];
        gs[i] = version[order[i]];
        gc[i] = code[order[i]];
    }
    if (u) {
        CHECK(st_process_counts(gb, gs, gc, n, nb, u, NA, h2, kx2, ky2, sh2) == ST_OK);
        for (size_t b = 0; b < nb; b++)
            CHECK(has_na[b] == h2[b] && kx[b] == kx2[b] && ky[b] == ky2[b] &&
                  sh[b] == sh2[b]);
    }
    /* the actions of those counts (st_structure_actions()) against the
     * rules as structure_actions() applies them in R, in reverse order of
     * precedence, each replication; a bad benchmark from the input */
    {
        int nx[NB], ny[NB], bad[NB], act[NB];
        for (size_t b = 0; b < nb; b++) {
            nx[b] = count[2 * b];
            ny[b] = count[2 * b + 1];
            bad[b] = rd_u8(r) < 32;
        }
        for (int rep = 0; rep < 3; rep++) {
            int labels = u > 0;
            CHECK(st_structure_actions(nb, nx, ny, labels ? kx : NULL, ky, sh, has_na,
                                       bad, rep, act) == ST_OK);
            for (size_t b = 0; b < nb; b++) {
                /* kind: 0 unknown, 1 shared, 2 one per run, 3 single, 4 processes */
                int kind = 0;
                if (labels) {
                    kind = 4;
                    if (kx[b] == 1 || ky[b] == 1) kind = 3;
                    if (kx[b] == nx[b] && ky[b] == ny[b]) kind = 2;
                    if (sh[b]) kind = 1;
                    if (has_na[b] || nx[b] == 0 || ny[b] == 0) kind = 0;
                }
                int unit_process = rep == 2 ? 0 : (rep == 1 || kind == 4);
                int refused = bad[b] || (rep == 1 && (kind == 0 || kind == 1));
                int want = 1;
                if (!unit_process && kind == 3 && rep == 0) want = 2;
                if (unit_process || refused) want = 3;
                if (labels && kind == 1 && (kx[b] > 1 || ky[b] > 1) &&
                    (kx[b] < nx[b] || ky[b] < ny[b]))
                    want = 3;
                CHECK(act[b] == want);
            }
        }
        CHECK(st_structure_actions(nb, nx, ny, NULL, NULL, NULL, NULL, bad, 3, act) ==
              ST_ERR_DOMAIN);
    }
    /* the same from the start rows, and from double run numbers */
    int order3[N], count3[2 * NB], clean3, h3[NB], kx3[NB], ky3[NB], sh3[NB];
    double values3[N];
    s = st_timings_suite(sbench, starts, ns, version, NULL, use_run ? drun : NULL, time,
                         code, u, NA, n, nb, order3, count3, values3, &clean3, h3, kx3,
                         ky3, sh3);
    CHECK(s == ST_OK && clean3 == clean);
    for (size_t g = 0; g < 2 * nb; g++) CHECK(count3[g] == count[g]);
    for (size_t i = 0; i < n; i++) CHECK(order3[i] == order[i]);
    for (size_t b = 0; b < nb; b++)
        CHECK(h3[b] == has_na[b] && kx3[b] == kx[b] && ky3[b] == ky[b] && sh3[b] == sh[b]);
    /* the rows read in place when they are contiguous blocks in run order:
     * the same, from the codes as integer labels offset by 3 (code + 3,
     * lab_lo 4) and as double labels; declined exactly when some group is
     * not one block in run order */
    int blocks = 1;
    {
        int first[2 * NB];
        for (size_t g = 0; g < 2 * nb; g++) first[g] = -1;
        for (size_t i = 0; i < n; i++) {
            int g = 2 * (bench[i] - 1) + version[i] - 1;
            int cont = i && g == 2 * (bench[i - 1] - 1) + version[i - 1] - 1;
            if (cont && use_run && irun[i] < irun[i - 1]) blocks = 0;
            if (!cont && first[g] >= 0) blocks = 0;
            if (!cont) first[g] = (int) i;
        }
    }
    int ilab[N];
    double dlab[N];
    for (size_t i = 0; i < n; i++) {
        ilab[i] = code[i] == NA ? NA : code[i] + 3;
        dlab[i] = code[i] == NA ? 1.0 : (double) code[i];
    }
    /* the span of the integer labels (st_label_span()) by a plain scan */
    {
        double lo = 0, hi = 0;
        int labelled = -1, want_lo = 0, want_hi = 0, any = 0;
        for (size_t i = 0; i < n; i++) {
            if (ilab[i] == NA) continue;
            if (!any || ilab[i] < want_lo) want_lo = ilab[i];
            if (!any || ilab[i] > want_hi) want_hi = ilab[i];
            any = 1;
        }
        int whole = st_label_span(ilab, NULL, n, NA, &lo, &hi, &labelled);
        CHECK(whole == any && labelled == any);
        if (any) CHECK(lo == want_lo && hi == want_hi);
        else CHECK(lo == INFINITY && hi == -INFINITY);
    }
    for (int variant = 0; variant < 4; variant++) {
        int order4[N], count4[2 * NB], clean4 = -1, h4[NB], kx4[NB], ky4[NB], sh4[NB];
        double values4[N];
        int with_starts = variant & 1, dbl = variant >> 1;
        int with_order = rd_u8(r) & 1;
        int any_na = 0;
        for (size_t i = 0; i < n; i++) any_na |= code[i] == NA;
        /* double labels cannot be missing: the codes' counts then differ */
        int labels = u && !(dbl && any_na);
        s = st_timings_suite_blocks(with_starts ? sbench : bench,
                                    with_starts ? starts : NULL, ns, version,
                                    use_run && !dbl ? irun : NULL,
                                    use_run && dbl ? drun : NULL, time,
                                    labels && !dbl ? ilab : NULL,
                                    labels && dbl ? dlab : NULL,
                                    dbl ? 1.0 : 4.0, u, NA, n, nb,
                                    with_order ? order4 : NULL, count4, values4,
                                    &clean4, h4, kx4, ky4, sh4);
        CHECK(s == (blocks ? ST_OK : ST_ERR_DOMAIN));
        if (s != ST_OK) continue;
        CHECK(clean4 == clean);
        for (size_t g = 0; g < 2 * nb; g++) CHECK(count4[g] == count[g]);
        for (size_t i = 0; i < n; i++) {
            if (with_order) CHECK(order4[i] == order[i]);
            CHECK(memcmp(&values4[i], &values[i], sizeof(double)) == 0);
        }
        if (labels)
            for (size_t b = 0; b < nb; b++)
                CHECK(h4[b] == has_na[b] && kx4[b] == kx[b] && ky4[b] == ky[b] &&
                      sh4[b] == sh[b]);
    }
}

/* The elements of a JSON text's "benchmarks" array found by a scan of its
 * bytes (json-blocks.c).  Half the inputs are raw bytes: the scan never
 * reads outside them, and when it finds the text clean its offsets are
 * consistent (brackets at open and close, commas in between, increasing).
 * The other half are JSON texts written by a generator from the input
 * (objects, arrays, strings with escapes and UTF-8 of every length,
 * numbers, literals, white space, the key elsewhere and nested), which
 * knows where it put the array's brackets and commas: the scan must find
 * them, or refuse exactly the texts the generator made unclean on
 * purpose (a duplicate or escaped top key, a byte order mark, a comment,
 * a bad UTF-8 byte, trailing garbage). */
typedef struct {
    char *buf;
    size_t len, cap;
    int depth;
} jbuf;

static void jput(jbuf *b, const char *s, size_t n)
{
    if (n == 0) return;
    if (b->len + n > b->cap) {
        size_t nc = (b->len + n) * 2 + 64;
        char *p = realloc(b->buf, nc);
        if (!p) abort();
        b->buf = p;
        b->cap = nc;
    }
    memcpy(b->buf + b->len, s, n);
    b->len += n;
}

static void jputs(jbuf *b, const char *s) { jput(b, s, strlen(s)); }

static void jws(jbuf *b, reader *r)
{
    static const char *ws[] = {"", "", " ", "\n", "\t", "\r\n  "};
    jputs(b, ws[rd_size(r, 5)]);
}

static void jstring(jbuf *b, reader *r)
{
    static const char *pieces[] = {
        "a", "benchmarks", ",", "]", "}", "[", "{", ":", " ", "\\\"", "\\\\", "\\/",
        "\\n", "\\u00e9", "\\ud83d\\ude00", "\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80",
        "'", "#", "//", "/*"};
    jputs(b, "\"");
    size_t n = rd_size(r, 4);
    for (size_t i = 0; i < n; i++) jputs(b, pieces[rd_size(r, 21)]);
    jputs(b, "\"");
}

/* a key of the top object: no escape, never "benchmarks" */
static void jkey(jbuf *b, reader *r)
{
    static const char *pieces[] = {"a", "benchmarks", ",", "]", "[", ":", " ", "\xc3\xa9"};
    jputs(b, "\"k");
    size_t n = rd_size(r, 3);
    for (size_t i = 0; i < n; i++) jputs(b, pieces[rd_size(r, 7)]);
    jputs(b, "\"");
}

static void jvalue(jbuf *b, reader *r);

static void jobject(jbuf *b, reader *r)
{
    jputs(b, "{");
    b->depth++;
    size_t n = rd_size(r, 3);
    for (size_t i = 0; i < n; i++) {
        if (i) jputs(b, ",");
        jws(b, r);
        jstring(b, r);
        jws(b, r);
        jputs(b, ":");
        jws(b, r);
        jvalue(b, r);
        jws(b, r);
    }
    b->depth--;
    jputs(b, "}");
}

static void jarray(jbuf *b, reader *r)
{
    jputs(b, "[");
    b->depth++;
    size_t n = rd_size(r, 3);
    for (size_t i = 0; i < n; i++) {
        if (i) jputs(b, ",");
        jws(b, r);
        jvalue(b, r);
        jws(b, r);
    }
    b->depth--;
    jputs(b, "]");
}

static void jvalue(jbuf *b, reader *r)
{
    static const char *scalars[] = {"0", "-1.5e+3", "true", "false", "null", "12345678901234567890"};
    uint8_t t = rd_u8(r) % 8;
    if (b->depth > 6) t = 7;
    if (t == 0) jobject(b, r);
    else if (t == 1) jarray(b, r);
    else if (t <= 3) jstring(b, r);
    else jputs(b, scalars[rd_size(r, 5)]);
}

/* st_json_block_keep() of the elements buf[from .. to), as objects and
 * as rows: it writes inside the bound it promises, one bracketed text */
static void jkeep(const unsigned char *buf, size_t from, size_t to, reader *r)
{
    static const char *const keys[] = {"name", "x", "benchmarks", "", "k\\u0041"};
    static const size_t klen[] = {4, 1, 10, 0, 7};
    int nk = (int) rd_size(r, 5);
    size_t cap = to - from + 2;
    unsigned char *out = malloc(cap);
    if (!out) abort();
    for (int mode = 0; mode < 2; mode++) {
        int rows = mode;
        size_t n = st_json_block_keep(buf, from, to, keys, klen, nk, &rows, out);
        CHECK(n >= 2 && n <= cap && out[0] == '[' && out[n - 1] == ']');
        CHECK(rows == 0 || mode == 1);
    }
    free(out);
}

static void fuzz_jscan(reader *r)
{
    static const char key[] = "benchmarks";
    st_json_array a;
    if (rd_u8(r) & 1) {
        /* raw bytes */
        size_t n = r->n;
        unsigned char *buf = malloc(n ? n : 1);
        if (!buf) abort();
        if (n) {
            memcpy(buf, r->p, n);
            r->p += n;
            r->n = 0;
        }
        CHECK(st_json_array_find(buf, n, key, sizeof key - 1, &a) == ST_OK);
        if (a.clean) {
            CHECK(a.open < a.close && a.close < n);
            CHECK(buf[a.open] == '[' && buf[a.close] == ']');
            for (size_t j = 0; j + 1 < a.n; j++) {
                CHECK(a.comma[j] > a.open && a.comma[j] < a.close && buf[a.comma[j]] == ',');
                if (j) CHECK(a.comma[j] > a.comma[j - 1]);
            }
            jkeep(buf, a.open + 1, a.close, r);
        } else {
            CHECK(a.comma == NULL);
        }
        free(a.comma);
        free(buf);
        return;
    }
    /* a generated text: members before and after the array, the array's
     * elements, and one flaw or none */
    jbuf b = {NULL, 0, 0, 1};
    uint8_t flaw = rd_u8(r) % 12; /* 0-6: none */
    if (flaw == 7) jputs(&b, "\xef\xbb\xbf");
    jws(&b, r);
    jputs(&b, "{");
    size_t before = rd_size(r, 2), after = rd_size(r, 2);
    for (size_t i = 0; i < before; i++) {
        jws(&b, r);
        jkey(&b, r);
        jputs(&b, ":");
        jvalue(&b, r);
        jputs(&b, ",");
    }
    if (flaw == 8) jputs(&b, "\"bench\\u006darks\": 1,");
    if (flaw == 9) jputs(&b, "\"benchmarks\": [], ");
    jws(&b, r);
    jputs(&b, "\"benchmarks\"");
    jws(&b, r);
    jputs(&b, ":");
    jws(&b, r);
    size_t open = b.len, comma[8], n = rd_size(r, 8);
    jputs(&b, "[");
    b.depth = 2;
    for (size_t i = 0; i < n; i++) {
        if (i) {
            comma[i - 1] = b.len;
            jputs(&b, ",");
        }
        jws(&b, r);
        jvalue(&b, r);
        jws(&b, r);
    }
    if (n == 0) jws(&b, r);
    size_t close = b.len;
    jputs(&b, "]");
    b.depth = 1;
    for (size_t i = 0; i < after; i++) {
        jputs(&b, ",");
        jws(&b, r);
        jkey(&b, r);
        jputs(&b, ":");
        jvalue(&b, r);
    }
    if (flaw == 10) jputs(&b, ", \"x\": \"\xc3\"");
    jputs(&b, "}");
    jws(&b, r);
    if (flaw == 11) jputs(&b, "/* c */");
    CHECK(st_json_array_find((const unsigned char *) b.buf, b.len, key, sizeof key - 1, &a) ==
          ST_OK);
    if (flaw >= 7) {
        CHECK(!a.clean && a.comma == NULL);
    } else {
        CHECK(a.clean);
        CHECK(a.open == open && a.close == close && a.n == n);
        for (size_t i = 0; i + 1 < n; i++) CHECK(a.comma[i] == comma[i]);
        jkeep((const unsigned char *) b.buf, open + 1, close, r);
    }
    free(a.comma);
    free(b.buf);
}

/* ---- suitecols: a suite's result columns (suite-columns.c, round-text.c) */

static void fuzz_suitecols(reader *r)
{
    size_t n = rd_size(r, 64), np = 1 + rd_size(r, 3);
    double x[64], y[64], z[64], w[64], v[64], uniq[64], back[64];
    int index[64], dir[64], sig[64];
    for (size_t i = 0; i < n; i++) {
        x[i] = rd_double(r);
        y[i] = rd_double(r);
        z[i] = rd_double(r);
        w[i] = rd_double(r);
        v[i] = (double) ((int) rd_u8(r) % 3 - 1);
    }
    /* the rounded values' index */
    double digits = (double) rd_size(r, 6);
    size_t nu;
    CHECK(st_round_index(x, n, digits, uniq, index, &nu) == ST_OK);
    CHECK(nu <= n);
    int seen = 0;
    for (size_t i = 0; i < n; i++) {
        double f = fround(x[i], digits);
        if (isnan(f)) {
            CHECK(index[i] == 0);
            continue;
        }
        CHECK(index[i] >= 1 && index[i] <= seen + 1);
        if (index[i] == seen + 1) seen++;
        CHECK(uniq[index[i] - 1] == f);
    }
    CHECK((size_t) seen == nu);
    for (size_t a = 0; a < nu; a++)
        for (size_t b = a + 1; b < nu; b++) CHECK(!(uniq[a] == uniq[b]));
    /* interleaved and read out again */
    size_t nb = n / np;
    const void *cols[4];
    double long_col[64];
    for (size_t i = 0; i < np; i++) cols[i] = x + i * nb;
    st_suite_interleave(cols, nb, np, sizeof(double), long_col);
    for (size_t i = 0; i < np; i++) {
        st_suite_column(long_col, nb, np, i, back);
        CHECK(memcmp(back, x + i * nb, nb * sizeof(double)) == 0);
    }
    /* decisions: alpha from y (a level or missing), p-values z, w, x */
    double alpha[64], dec[64];
    for (size_t i = 0; i < n; i++) alpha[i] = isnan(y[i]) ? NAN : 0.05;
    int eq = rd_u8(r) & 1;
    st_suite_decide(n, v, alpha, z, w, eq ? x : NULL, dec, dir, sig);
    for (size_t i = 0; i < n; i++) {
        CHECK(dir[i] >= 1 && dir[i] <= 5);
        CHECK((dir[i] == 1) == (dec[i] == 1));
        if (dec[i] < 0) CHECK(dir[i] == 5);
        CHECK(sig[i] == (isnan(dec[i]) || dec[i] < 0 ? -1 : dec[i] == 1));
        if (v[i] < 0) CHECK(dec[i] == v[i]);
        if (dir[i] == 4) CHECK(eq);
    }
    /* the mean's detectable speedups: none below two runs a side */
    double nn[64], mm[64], det[64];
    int miss[64];
    for (size_t i = 0; i < n; i++) {
        nn[i] = (double) (rd_u8(r) % 8);
        mm[i] = (double) (rd_u8(r) % 8);
    }
    double s0 = 1 + (double) (rd_u8(r) % 4) / 100;
    st_suite_detectable_mean(n, z, w, nn, mm, x, alpha, 0.8, s0, det, miss);
    for (size_t i = 0; i < n; i++) {
        if (nn[i] < 2 || mm[i] < 2) CHECK(miss[i]);
    }
    /* the unattainable rows */
    size_t at[64];
    size_t k = st_suite_short(n, z, y, at), m = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isnan(z[i]) && !isnan(y[i]) && y[i] < 0.5 && z[i] < 1 - 2 * y[i] - 1e-9) {
            CHECK(m < k && at[m] == i);
            m++;
        }
    }
    CHECK(m == k);
}

/* the targets of the bulk files (paste, fileread, json, site, vtable) */
#include "fuzz_bulk.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    /* FUZZ_TARGET_NAME (environment) runs another target of the same
     * build: one build serves a campaign over all the targets */
    static const char *t;
    if (!t) {
        t = getenv("FUZZ_TARGET_NAME");
        if (!t || !*t) t = STR(FUZZ_TARGET);
    }
    int all = strcmp(t, "all") == 0;
    uint8_t pick = all ? rd_u8(&r) % 13 : 255;
    if ((all && pick == 0) || strcmp(t, "wilcoxon") == 0) fuzz_wilcoxon(&r);
    if ((all && pick == 1) || strcmp(t, "signrank") == 0) fuzz_signrank(&r);
    if ((all && pick == 2) || strcmp(t, "exact") == 0) fuzz_exact(&r);
    if ((all && pick == 3) || strcmp(t, "kth") == 0) fuzz_kth(&r);
    if ((all && pick == 4) || strcmp(t, "tests") == 0) fuzz_ks_t_f(&r);
    if ((all && pick == 5) || strcmp(t, "proportion") == 0) fuzz_proportion(&r);
    if ((all && pick == 6) || strcmp(t, "protocol") == 0) fuzz_protocol(&r);
    if ((all && pick == 7) || strcmp(t, "hpt") == 0) fuzz_hpt(&r);
    if ((all && pick == 8) || strcmp(t, "util") == 0) fuzz_util(&r);
    if ((all && pick == 9) || strcmp(t, "sorted") == 0) fuzz_sorted(&r);
    if ((all && pick == 10) || strcmp(t, "select") == 0) fuzz_select(&r);
    if ((all && pick == 11) || strcmp(t, "runorder") == 0) fuzz_runorder(&r);
    if ((all && pick == 12) || strcmp(t, "suite") == 0) fuzz_suite(&r);
    if (strcmp(t, "split") == 0) fuzz_split(&r);
    if (strcmp(t, "changes") == 0) fuzz_changes(&r);
    if (strcmp(t, "warmup") == 0) fuzz_warmup(&r);
    if (strcmp(t, "units") == 0) fuzz_units(&r);
    if (strcmp(t, "planrank") == 0) fuzz_planrank(&r);
    if (strcmp(t, "rounds") == 0) fuzz_rounds(&r);
    if (strcmp(t, "gborder") == 0) fuzz_gborder(&r);
    if (strcmp(t, "tsuite") == 0) fuzz_tsuite(&r);
    if (strcmp(t, "jscan") == 0) fuzz_jscan(&r);
    if (strcmp(t, "suitecols") == 0) fuzz_suitecols(&r);
    /* the bulk files (not in all: four start an embedded R) */
    if (strcmp(t, "paste") == 0) fuzz_paste(&r);
    if (strcmp(t, "fileread") == 0) fuzz_fileread(&r);
    if (strcmp(t, "json") == 0) fuzz_json(&r);
    if (strcmp(t, "site") == 0) fuzz_site(&r);
    if (strcmp(t, "vtable") == 0) fuzz_vtable(&r);
    /* (not in all: one input can take seconds) */
    if (strcmp(t, "exactlarge") == 0) fuzz_exact_large(&r);
    return 0;
}
