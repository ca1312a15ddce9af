/*
 * run-order.c -- checks that the runs of a sample behave as independent
 * draws in the order they were recorded.
 *
 * Trend (Mann 1945, Kendall 1975): Kendall's S of the run times against
 * the run index,
 *   S = sum_{i < j} sign(x_j - x_i) = C - D,
 * C and D the concordant and discordant pairs.  D is the number of strict
 * inversions of the sequence, counted by a merge sort in O(n log n); with
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
#include <stdlib.h>
#include <string.h>
#include <Rmath.h>
#include "speeduptest.h"

#define MK_EXACT_MAX 50   /* exact distribution below this size, no ties */

/* Strict inversions of a[0..n) (sorting it), buffer tmp of n values. */
static double inversions(double *a, double *tmp, size_t n)
{
    if (n < 2) return 0;
    size_t h = n / 2;
    double inv = inversions(a, tmp, h) + inversions(a + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        if (a[j] < a[i]) {
            inv += (double) (h - i);   /* every a[i..h) exceeds a[j] */
            tmp[k++] = a[j++];
        } else {
            tmp[k++] = a[i++];
        }
    }
    while (i < h) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof(double));
    return inv;
}

/* P(D <= d) for n values without ties (Mahonian recursion). */
static int mahonian_cdf(size_t n, double d, double *out)
{
    size_t N = n * (n - 1) / 2;
    double *p = calloc(N + 1, sizeof(double));
    double *q = calloc(N + 1, sizeof(double));
    if (!p || !q) {
        free(p);
        free(q);
        return ST_ERR_ALLOC;
    }
    p[0] = 1;
    for (size_t k = 2; k <= n; k++) {
        size_t top = k * (k - 1) / 2;
        double run = 0;
        for (size_t s = 0; s <= top; s++) {
            run += p[s];
            if (s >= k) run -= p[s - k];
            q[s] = run / (double) k;
        }
        double *t = p; p = q; q = t;
    }
    double c = 0;
    for (size_t s = 0; s <= N && (double) s <= d; s++) c += p[s];
    free(p);
    free(q);
    *out = c > 1 ? 1 : c;
    return ST_OK;
}

int st_mann_kendall(const double *x, size_t n, st_result *out)
{
    st_result_init(out);
    if (n < 3) return st_result_fail(out, ST_ERR_TOO_FEW);
    double *a = malloc(2 * n * sizeof(double));
    if (!a) return st_result_fail(out, ST_ERR_ALLOC);
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i])) {
            free(a);
            return st_result_fail(out, ST_ERR_DOMAIN);
        }
        a[i] = x[i];
    }
    double D = inversions(a, a + n, n);
    /* a is sorted now: tie groups */
    double T = 0, tv = 0;
    int ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && a[j] == a[i]) j++;
        double t = (double) (j - i);
        if (t > 1) {
            ties = 1;
            T += t * (t - 1) / 2;
            tv += t * (t - 1) * (2 * t + 5);
        }
        i = j;
    }
    free(a);
    double dn = (double) n, N = dn * (dn - 1) / 2;
    double S = (N - T - D) - D;
    double var = (dn * (dn - 1) * (2 * dn + 5) - tv) / 18;
    out->statistic = S;
    out->estimate[0] = (N - T) > 0 ? S / sqrt(N * (N - T)) : NAN; /* tau-b */
    if (!(var > 0)) return st_result_fail(out, ST_ERR_CONSTANT);
    if (!ties && n < MK_EXACT_MAX) {
        double lo = D < N - D ? D : N - D, c;
        int s = mahonian_cdf(n, lo, &c);
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
    double lK = lchoose(n1 + n2, n1), p = 0;
    for (double s = 2; s <= r; s++) p += exp(runs_logprob(n1, n2, s, lK));
    return p > 1 ? 1 : p;
}

/* ---- R entry points -------------------------------------------------------- */
#include "ffi.h"

/* Mann-Kendall on each of the k samples values[start[i] + 0..len[i]):
 * list(statistic, tau, p_value, exact, status), NA when not computed. */
SEXP ffi_mann_kendall(SEXP values, SEXP start, SEXP len)
{
    size_t nv, k, k2;
    const double *v = ffi_doubles(values, &nv, "values");
    const double *st = ffi_doubles(start, &k, "start");
    const double *ln = ffi_doubles(len, &k2, "len");
    if (k != k2) Rf_error("`start` and `len` must have the same length.");
    SEXP s = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) k));
    SEXP tau = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) k));
    SEXP p = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) k));
    SEXP ex = PROTECT(Rf_allocVector(LGLSXP, (R_xlen_t) k));
    SEXP stt = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) k));
    for (size_t i = 0; i < k; i++) {
        if (!(st[i] >= 0 && ln[i] >= 0 && st[i] + ln[i] <= (double) nv))
            Rf_error("`start` or `len` is out of range.");
        st_result r;
        int status = st_mann_kendall(v + (size_t) st[i], (size_t) ln[i], &r);
        if (status == ST_ERR_ALLOC) Rf_error("out of memory.");
        int ok = status == ST_OK;
        REAL(s)[i] = isnan(r.statistic) ? NA_REAL : r.statistic;
        REAL(tau)[i] = ok && !isnan(r.estimate[0]) ? r.estimate[0] : NA_REAL;
        REAL(p)[i] = ok ? r.p_value : NA_REAL;
        LOGICAL(ex)[i] = ok ? r.exact : NA_LOGICAL;
        INTEGER(stt)[i] = status;
    }
    static const char *names[] = {"statistic", "tau", "p_value", "exact",
                                  "status"};
    SEXP vals[5] = {s, tau, p, ex, stt};
    SEXP out = ffi_named_list(5, names, vals);
    UNPROTECT(5);
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
