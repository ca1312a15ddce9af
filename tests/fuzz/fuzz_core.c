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
 *   - st_pairwise_kth equals the k-th of the explicitly sorted differences
 *     (or Walsh averages);
 *   - st_ranksum_exact_tails and st_signrank_exact_tails equal the tails
 *     counted by enumerating every split or sign pattern (N <= 14);
 *   - proportion intervals inside [0, 1] and ordered;
 *   - HPT confidence in [0, 1]; r-Speedup <= its supremum.
 * Hangs are caught by libFuzzer's -timeout.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "speeduptest.h"

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

static int cmp_dbl(const void *a, const void *b)
{
    double u = *(const double *) a, v = *(const double *) b;
    return (u > v) - (u < v);
}

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
                              &out);
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
                                 &out);
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
    int st = st_ranksum_exact_tails(r2, N, n, s2, &le, &ge);
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
    st = st_signrank_exact_tails(r2, N, s2, &le, &ge);
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
    st = st_ranksum_exact_tails(r2, N, n, rd_double(r), &le, &ge);
    if (st == ST_OK) {
        check_p(le);
        check_p(ge);
    }
    st = st_signrank_exact_tails(r2, N, rd_double(r), &le, &ge);
    if (st == ST_OK) {
        check_p(le);
        check_p(ge);
    }
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
    for (size_t j = 0; j < nb / 2; j++) {       /* b descending */
        double t = b[j];
        b[j] = b[nb - 1 - j];
        b[nb - 1 - j] = t;
    }
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
    double v;
    int st = st_pairwise_kth(a, na, b, nb, walsh, k, &v);
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
    int st = st_ks_test(x, n, y, m, alt, (int) (rd_u8(r) % 3) - 1, &out);
    check_result(st, &out);
    /* as ks.test, the KS test takes +-Inf (they have an ECDF) but not NaN */
    for (size_t i = 0; i < n + m; i++)
        if (isnan(i < n ? x[i] : y[i - n]))
            CHECK(st == ST_ERR_DOMAIN || st == ST_ERR_TOO_FEW);
    st = st_t_test(x, n, (rd_u8(r) & 1) ? y : NULL, m, alt, 0.0,
                   rd_u8(r) & 1, level, &out);
    check_result(st, &out);
    st = st_var_test(x, n, y, m, alt, 1.0, level, &out);
    check_result(st, &out);
    st = st_shapiro_wilk(x, n, &out);
    check_result(st, &out);
    check_domain(st, x, n, NULL, 0);
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

static void fuzz_protocol(reader *r)
{
    size_t n = rd_size(r, 40), m = rd_size(r, 40);
    double x[40], y[40];
    for (size_t i = 0; i < n; i++) x[i] = rd_double(r);
    for (size_t j = 0; j < m; j++) y[j] = rd_double(r);
    double alpha = (double) (rd_u8(r) % 50 + 1) / 100.0;
    int rigorous = rd_u8(r) & 1;
    st_verdict v;
    int st = st_mean_protocol(x, n, y, m, alpha, rigorous, &v);
    if (st == ST_OK) check_p(v.p_value);
    st = st_median_protocol(x, n, y, m, alpha, rigorous, &v);
    if (st == ST_OK) {
        check_p(v.p_value);
        if (!isnan(v.shift_ci[0]) && !isnan(v.shift_ci[1]))
            CHECK(v.shift_ci[0] <= v.shift_ci[1]);
    }
    double conf;
    st = st_highest_confidence(x, n, y, m, rd_u8(r) & 1, rigorous, &conf);
    if (st == ST_OK) CHECK(isnan(conf) || (conf >= 0.5 && conf <= 1.0));
    st_bench_result br;
    st = st_suite_bench(x, n, y, m, (rd_u8(r) & 1) ? NAN : alpha, rigorous,
                        &br);
    if (st == ST_OK) {
        check_p(br.p_value[0]);
        check_p(br.p_value[1]);
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
    st = st_hpt_speedup(&in, level, 0.01, &sp, &sup, &att);
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
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    const char *t = STR(FUZZ_TARGET);
    int all = strcmp(t, "all") == 0;
    uint8_t pick = all ? rd_u8(&r) % 9 : 255;
    if ((all && pick == 0) || strcmp(t, "wilcoxon") == 0) fuzz_wilcoxon(&r);
    if ((all && pick == 1) || strcmp(t, "signrank") == 0) fuzz_signrank(&r);
    if ((all && pick == 2) || strcmp(t, "exact") == 0) fuzz_exact(&r);
    if ((all && pick == 3) || strcmp(t, "kth") == 0) fuzz_kth(&r);
    if ((all && pick == 4) || strcmp(t, "tests") == 0) fuzz_ks_t_f(&r);
    if ((all && pick == 5) || strcmp(t, "proportion") == 0) fuzz_proportion(&r);
    if ((all && pick == 6) || strcmp(t, "protocol") == 0) fuzz_protocol(&r);
    if ((all && pick == 7) || strcmp(t, "hpt") == 0) fuzz_hpt(&r);
    if ((all && pick == 8) || strcmp(t, "util") == 0) fuzz_util(&r);
    return 0;
}
