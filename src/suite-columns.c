/*
 * suite-columns.c -- a protocol's columns of a suite's result from the
 * core's long columns (R/suite-result.R new_speedup_suite()): the core
 * returns each column benchmark after benchmark, the protocols of each
 * benchmark in turn; one protocol's values are read out in one pass, and
 * its decisions are made again on the (adjusted) p-values, with their
 * directions, in another.
 */
#include <math.h>
#include <string.h>

#include <Rmath.h>

#include "ffi.h"

/* out[j] = v[j * np + i] for the nb benchmarks (protocol i of np). */
void st_suite_column(const double *v, size_t nb, size_t np, size_t i,
                     double *out)
{
    for (size_t j = 0; j < nb; j++) out[j] = v[j * np + i];
}

/*
 * The decision of each of n benchmarks made again, as R's vector
 * arithmetic on the columns gives it (missing values are NaN, and
 * propagate as R's NA does through <= and &):
 *   dec_out = (pa <= alpha) where dec >= 0 and pa is not missing (the
 *     final test was reached), missing when alpha is; dec otherwise;
 *   sig = 1 where dec_out == 1, -1 (missing) where dec_out is missing or
 *     negative (insufficient data), 0 otherwise;
 *   dir = the direction's row of the decision table: 3 (none), 2
 *     (slowdown) where psa <= alpha, 4 (equivalent) where none and peqa
 *     <= alpha (peqa NULL: none), 1 (speedup) where dec_out == 1, 5
 *     (insufficient data) where dec_out < 0 or where the slowdown test is
 *     missing (psa there and alpha missing: R's NA direction).
 */
void st_suite_decide(size_t n, const double *dec, const double *alpha,
                     const double *pa, const double *psa, const double *peqa,
                     double *dec_out, int *dir, int *sig)
{
    for (size_t j = 0; j < n; j++) {
        double d = dec[j];
        if (d >= 0 && !isnan(pa[j])) d = isnan(alpha[j]) ? NAN : (pa[j] <= alpha[j]);
        dec_out[j] = d;
        int k;
        if (isnan(psa[j])) k = 3;
        else if (isnan(alpha[j])) k = 5;
        else k = psa[j] <= alpha[j] ? 2 : 3;
        if (k == 3 && peqa && !isnan(peqa[j]) && !isnan(alpha[j]) &&
            peqa[j] <= alpha[j])
            k = 4;
        if (d == 1) k = 1;
        if (d < 0) k = 5;
        dir[j] = k;
        sig[j] = isnan(d) || d < 0 ? -1 : d == 1;
    }
}

/* The positions (0-based) of the benchmarks whose interval level
 * ci_level is below the 1 - 2 alpha asked for (both known, alpha < 0.5;
 * by more than 1e-9, as R computes 1 - 2 * alpha - 1e-9): the exact rank
 * intervals these sizes cannot reach.  Returns their number. */
size_t st_suite_short(size_t n, const double *ci_level, const double *alpha,
                      size_t *at)
{
    size_t k = 0;
    for (size_t j = 0; j < n; j++) {
        double a = alpha[j], l = ci_level[j];
        if (!isnan(l) && !isnan(a) && a < 0.5 && l < 1 - 2 * a - 1e-9) at[k++] = j;
    }
    return k;
}

/*
 * The mean protocol's detectable speedup of k benchmarks, as
 * detectable_mean_at() in R/tolerance.R computes it on vectors (the same
 * operations in the same order, so the same values): mean(x) - s0 mean(y)
 * = mu_x (1 - s0 / theta) against its standard error se = sqrt(v_x / n +
 * s0^2 v_y / m), Student quantiles with n + m - 2 degrees of freedom:
 * declared when theta >= s0 / (1 - r), r = (t_{1-alpha} + t_power) se /
 * mean(x); infinite when r >= 1.  missing[j] = 1 where n or m is below 2
 * or se is not finite and positive (the caller's NA).
 */
void st_suite_detectable_mean(size_t k, const double *vx, const double *vy,
                              const double *n, const double *m,
                              const double *mx, const double *alpha,
                              double power, double s0, double *out,
                              int *missing)
{
    /* the quantiles of the last level and size, kept: a suite repeats a
     * few (each costs about a microsecond) */
    double last_p = NAN, last_df = NAN, q_level = NAN, q_power = NAN;
    for (size_t j = 0; j < k; j++) {
        double se = sqrt(vx[j] / n[j] + s0 * s0 * vy[j] / m[j]);
        double df = n[j] + m[j] - 2;
        double p = 1 - alpha[j];
        if (!(p == last_p && df == last_df)) {
            q_level = qt(p, df, 1, 0);
            if (!(df == last_df)) q_power = qt(power, df, 1, 0);
            last_p = p;
            last_df = df;
        }
        double r = (q_level + q_power) * se / mx[j];
        double d = s0 / (1 - r);
        if (r >= 1) d = INFINITY;
        out[j] = d;
        missing[j] = n[j] < 2 || m[j] < 2 || !isfinite(se) || se <= 0;
    }
}

/* out[j * np + i] = v[i][j] for the np protocols i and the nb benchmarks
 * j (the long column of the protocols' columns v[i]); sz the size of a
 * value in bytes. */
void st_suite_interleave(const void *const *v, size_t nb, size_t np,
                         size_t sz, void *out)
{
    /* (a loop per size: a copy of a known size is one move) */
    if (sz == sizeof(double)) {
        double *o = out;
        for (size_t i = 0; i < np; i++) {
            const double *x = v[i];
            for (size_t j = 0; j < nb; j++) o[j * np + i] = x[j];
        }
    } else if (sz == sizeof(int)) {
        int *o = out;
        for (size_t i = 0; i < np; i++) {
            const int *x = v[i];
            for (size_t j = 0; j < nb; j++) o[j * np + i] = x[j];
        }
    } else {
        unsigned char *o = out;
        for (size_t i = 0; i < np; i++) {
            const unsigned char *x = v[i];
            for (size_t j = 0; j < nb; j++)
                memcpy(o + (j * np + i) * sz, x + j * sz, sz);
        }
    }
}

/* cols: the core's long columns (doubles, np values per benchmark);
 * nan_na: for each, whether its NaN are made NA.  The columns of protocol
 * i (1-based), named as cols. */
SEXP ffi_suite_split(SEXP cols, SEXP np_, SEXP i_, SEXP nan_na)
{
    if (TYPEOF(cols) != VECSXP || TYPEOF(nan_na) != LGLSXP ||
        XLENGTH(nan_na) != XLENGTH(cols))
        Rf_error("`cols` must be a list and `nan_na` one flag per column.");
    int np = ffi_int(np_, "np"), i = ffi_int(i_, "i");
    if (np < 1 || i < 1 || i > np) Rf_error("`i` is out of range.");
    R_xlen_t k = XLENGTH(cols);
    SEXP out = PROTECT(Rf_allocVector(VECSXP, k));
    for (R_xlen_t c = 0; c < k; c++) {
        size_t n;
        const double *v = ffi_doubles(VECTOR_ELT(cols, c), &n, "cols");
        if (n % (size_t) np) Rf_error("a column's length is not a multiple of `np`.");
        size_t nb = n / (size_t) np;
        SEXP col = Rf_allocVector(REALSXP, (R_xlen_t) nb);
        SET_VECTOR_ELT(out, c, col);
        double *o = REAL(col);
        st_suite_column(v, nb, (size_t) np, (size_t) (i - 1), o);
        if (LOGICAL(nan_na)[c] == 1) {
            for (size_t j = 0; j < nb; j++)
                if (ISNAN(o[j]) && !R_IsNA(o[j])) o[j] = NA_REAL;
        }
    }
    Rf_setAttrib(out, R_NamesSymbol, Rf_getAttrib(cols, R_NamesSymbol));
    UNPROTECT(1);
    return out;
}

/* list(decision, direction, significant) of st_suite_decide(); peqa NULL
 * when there is no equivalence test. */
SEXP ffi_suite_decide(SEXP dec, SEXP alpha, SEXP pa, SEXP psa, SEXP peqa)
{
    size_t n, m;
    const double *d = ffi_doubles(dec, &n, "dec");
    const double *a = ffi_doubles(alpha, &m, "alpha");
    if (m != n) Rf_error("`alpha` has the wrong length.");
    const double *p = ffi_doubles(pa, &m, "pa");
    if (m != n) Rf_error("`pa` has the wrong length.");
    const double *ps = ffi_doubles(psa, &m, "psa");
    if (m != n) Rf_error("`psa` has the wrong length.");
    const double *pe = NULL;
    if (!Rf_isNull(peqa)) {
        pe = ffi_doubles(peqa, &m, "peqa");
        if (m != n) Rf_error("`peqa` has the wrong length.");
    }
    SEXP dec_out = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) n));
    SEXP dir = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) n));
    SEXP sig = PROTECT(Rf_allocVector(LGLSXP, (R_xlen_t) n));
    double *dv = REAL(dec_out);
    int *sv = LOGICAL(sig);
    st_suite_decide(n, d, a, p, ps, pe, dv, INTEGER(dir), sv);
    for (size_t j = 0; j < n; j++) {
        if (isnan(dv[j])) dv[j] = NA_REAL;
        if (sv[j] < 0) sv[j] = NA_LOGICAL;
    }
    SEXP vals[3] = {dec_out, dir, sig};
    const char *names[3] = {"decision", "direction", "significant"};
    SEXP out = ffi_named_list(3, names, vals);
    UNPROTECT(3);
    return out;
}

/* st_suite_detectable_mean(), NA where missing. */
SEXP ffi_suite_detectable_mean(SEXP vx, SEXP vy, SEXP n, SEXP m, SEXP mx,
                               SEXP alpha, SEXP power, SEXP s0)
{
    size_t k, l;
    const double *x = ffi_doubles(vx, &k, "vx");
    const double *cols[5];
    SEXP args[5] = {vy, n, m, mx, alpha};
    const char *names[5] = {"vy", "n", "m", "mx", "alpha"};
    for (int c = 0; c < 5; c++) {
        cols[c] = ffi_doubles(args[c], &l, names[c]);
        if (l != k) Rf_error("`%s` has the wrong length.", names[c]);
    }
    double pw = ffi_double(power, "power"), s = ffi_double(s0, "s0");
    SEXP out = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) k));
    int *missing = (int *) R_alloc(k ? k : 1, sizeof(int));
    double *o = REAL(out);
    st_suite_detectable_mean(k, x, cols[0], cols[1], cols[2], cols[3], cols[4],
                             pw, s, o, missing);
    for (size_t j = 0; j < k; j++)
        if (missing[j]) o[j] = NA_REAL;
    UNPROTECT(1);
    return out;
}

/* The 1-based positions of st_suite_short(). */
SEXP ffi_suite_short(SEXP ci_level, SEXP alpha)
{
    size_t n, m;
    const double *l = ffi_doubles(ci_level, &n, "ci_level");
    const double *a = ffi_doubles(alpha, &m, "alpha");
    if (m != n) Rf_error("`alpha` has the wrong length.");
    size_t *at = (size_t *) R_alloc(n ? n : 1, sizeof(size_t));
    size_t k = st_suite_short(n, l, a, at);
    SEXP out = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) k));
    int *o = INTEGER(out);
    for (size_t j = 0; j < k; j++) o[j] = (int) at[j] + 1;
    UNPROTECT(1);
    return out;
}

/* cols: a list of np vectors of one type (logical, integer, double or
 * character), nb values each (the caller checks that none has
 * attributes); their long column, or NULL when they are not such
 * vectors. */
SEXP ffi_suite_interleave(SEXP cols)
{
    if (TYPEOF(cols) != VECSXP || XLENGTH(cols) < 1) return R_NilValue;
    R_xlen_t np = XLENGTH(cols);
    SEXP first = VECTOR_ELT(cols, 0);
    int type = TYPEOF(first);
    R_xlen_t nb = XLENGTH(first);
    if (type != LGLSXP && type != INTSXP && type != REALSXP && type != STRSXP)
        return R_NilValue;
    for (R_xlen_t i = 0; i < np; i++) {
        SEXP v = VECTOR_ELT(cols, i);
        if (TYPEOF(v) != type || XLENGTH(v) != nb)
            return R_NilValue;
    }
    if (nb > R_XLEN_T_MAX / np) return R_NilValue;
    SEXP out = PROTECT(Rf_allocVector(type, nb * np));
    if (type == STRSXP) {
        for (R_xlen_t i = 0; i < np; i++) {
            SEXP v = VECTOR_ELT(cols, i);
            for (R_xlen_t j = 0; j < nb; j++)
                SET_STRING_ELT(out, j * np + i, STRING_ELT(v, j));
        }
    } else {
        const void **v = (const void **) R_alloc((size_t) np, sizeof(void *));
        size_t sz = type == REALSXP ? sizeof(double) : sizeof(int);
        for (R_xlen_t i = 0; i < np; i++) {
            SEXP c = VECTOR_ELT(cols, i);
            v[i] = type == REALSXP ? (const void *) REAL(c)
                 : type == INTSXP ? (const void *) INTEGER(c)
                 : (const void *) LOGICAL(c);
        }
        void *o = type == REALSXP ? (void *) REAL(out)
                : type == INTSXP ? (void *) INTEGER(out) : (void *) LOGICAL(out);
        st_suite_interleave(v, (size_t) nb, (size_t) np, sz, o);
    }
    UNPROTECT(1);
    return out;
}
