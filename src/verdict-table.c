/*
 * verdict-table.c -- the verdicts of many benchmarks in one call: for each
 * pair of samples, the protocol's verdict exactly as ffi_run_protocol
 * makes it for one pair (st_protocol, unpaired, with the Mann-Kendall
 * trend tests the median protocol makes on the way), and, at a tolerance
 * s0 != 1, the four final tests of st_tolerance_tests on the branch the
 * verdict took.  Returned column by column, one row per benchmark, so
 * that the words of every verdict (its caveats, advice and printed
 * lines) can be written for all the benchmarks at once in R
 * (R/verdict-table.R).
 *
 * References: S.-A.-A. Touati, J. Worms, S. Briais, "The Speedup-Test: a
 * statistical methodology for programme speedup analysis and
 * computation", Concurrency and Computation: Practice and Experience
 * 25(10), 2013 (the protocols); D. J. Schuirmann (1987), the two one-sided
 * tests of the tolerance (src/tolerance.c).
 */
#include <limits.h>
#include <math.h>
#include <string.h>
#include "speeduptest.h"
#include "cache.h"
#include "ffi.h"

static double na_nan(double v)
{
    return isnan(v) ? NA_REAL : v;
}

/* values, x_start, x_len, y_start, y_len: the samples packed as
 * ffi_read_samples reads them (x of benchmark j at x_start[j], 0-based);
 * test: a protocol code; alpha: one level per benchmark; trend_min: as
 * ffi_run_protocol (0: no trend tests); s0: the tolerance (1: none). */
SEXP ffi_verdict_table(SEXP values, SEXP x_start, SEXP x_len, SEXP y_start,
                       SEXP y_len, SEXP test, SEXP alpha, SEXP rigorous,
                       SEXP trend_min, SEXP s0)
{
    ffi_samples sx = ffi_read_samples(values, x_start, x_len);
    ffi_samples sy = ffi_read_samples(values, y_start, y_len);
    if (sx.k != sy.k) Rf_error("`x_start` and `y_start` must have the same length.");
    size_t nb = sx.k;
    if (nb > (size_t) INT_MAX) Rf_error("too many benchmarks.");
    size_t ka;
    const double *al = ffi_doubles(alpha, &ka, "alpha");
    if (ka != nb) Rf_error("`alpha` has the wrong length.");
    int t = ffi_int(test, "test");
    int rig = ffi_flag(rigorous, "rigorous");
    int tmin = ffi_int(trend_min, "trend_min");
    double f = ffi_double(s0, "s0");
    const st_protocol_def *def = st_protocol_find(t);
    if (!def) Rf_error("`test` is not a protocol code.");
    if (tmin != 0 && (tmin < 3 || !def->trend))
        Rf_error("`trend_min` must be 0, or at least 3 for a protocol that makes the trend tests.");
    if (f != 1.0 && !def->tolerance)
        Rf_error("the protocol has no tolerance tests.");
    int k = (int) nb;

    enum { STATUS, DECISION, BRANCH, GUARANTEED, CAVEATS, NSTEPS, N_INT };
    static const char *int_names[] = {"status", "decision", "branch",
                                      "guaranteed", "caveats", "n_steps"};
    enum { P, P_SLOW, SPEEDUP, S_MIN, S_MEAN, S_MEDIAN, CI_LO, CI_HI, CI_EST,
           CI_LEVEL, PROB, PROB_LO, PROB_HI, SHIFT, SHIFT_LO, SHIFT_HI,
           N_REAL };
    static const char *real_names[] = {
        "p_value", "p_value_slowdown", "speedup", "speedup_min",
        "speedup_mean", "speedup_median", "ci_low", "ci_high",
        "speedup_estimate", "speedup_ci_level", "prob_greater", "prob_ci_low",
        "prob_ci_high", "shift", "shift_ci_low", "shift_ci_high"};
    /* the columns, then: step kinds and p-values (k x ST_MAX_STEPS), the
     * trend tests (k x 2: status, p-value, tau), the tolerance (status, k
     * x 4 p-values) */
    int n_cols = N_INT + N_REAL + 7;
    SEXP cols = PROTECT(Rf_allocVector(VECSXP, n_cols));
    SEXP names = PROTECT(Rf_allocVector(STRSXP, n_cols));
    int *ic[N_INT];
    double *rc[N_REAL];
    for (int i = 0; i < N_INT; i++) {
        SEXP c = Rf_allocVector(INTSXP, k);
        SET_VECTOR_ELT(cols, i, c);
        SET_STRING_ELT(names, i, Rf_mkChar(int_names[i]));
        ic[i] = INTEGER(c);
    }
    for (int i = 0; i < N_REAL; i++) {
        SEXP c = Rf_allocVector(REALSXP, k);
        SET_VECTOR_ELT(cols, N_INT + i, c);
        SET_STRING_ELT(names, N_INT + i, Rf_mkChar(real_names[i]));
        rc[i] = REAL(c);
    }
    static const char *more_names[] = {"step_kind", "step_p", "trend_status",
                                       "trend_p", "trend_tau",
                                       "tolerance_status", "tolerance_p"};
    int more_type[] = {INTSXP, REALSXP, INTSXP, REALSXP, REALSXP, INTSXP,
                       REALSXP};
    int more_ncol[] = {ST_MAX_STEPS, ST_MAX_STEPS, 2, 2, 2, 1, 4};
    void *more[7];
    for (int i = 0; i < 7; i++) {
        SEXP c = more_ncol[i] == 1 ? Rf_allocVector(more_type[i], k)
                                   : Rf_allocMatrix(more_type[i], k, more_ncol[i]);
        SET_VECTOR_ELT(cols, N_INT + N_REAL + i, c);
        SET_STRING_ELT(names, N_INT + N_REAL + i, Rf_mkChar(more_names[i]));
        more[i] = more_type[i] == INTSXP ? (void *) INTEGER(c) : (void *) REAL(c);
    }
    int *step_kind = (int *) more[0], *trend_status = (int *) more[2],
        *tol_status = (int *) more[5];
    double *step_p = (double *) more[1], *trend_p = (double *) more[3],
           *trend_tau = (double *) more[4], *tol_p = (double *) more[6];

    /* the tables the tests compute once for many benchmarks (the exact
     * null distributions of equal sizes), as a suite keeps them */
    st_cache cache;
    st_cache_init(&cache);
    for (size_t j = 0; j < nb; j++) {
        if (j % 1024 == 1023 && st_check_interrupt()) {
            st_cache_free(&cache);
            Rf_error("interrupted.");
        }
        const double *x = sx.values + (size_t) sx.start[j];
        const double *y = sy.values + (size_t) sy.start[j];
        size_t n = (size_t) sx.len[j], m = (size_t) sy.len[j];
        st_verdict v;
        memset(&v, 0, sizeof v);
        st_result trend[2];
        st_protocol_options opt = {0};
        opt.trend_min = (size_t) tmin;
        opt.trend = trend;
        opt.cache = &cache;
        int s = st_protocol(t, x, n, y, m, al[j], rig, &opt, &v);
        if (s == ST_ERR_ALLOC || s == ST_ERR_INTERRUPTED) {
            st_cache_free(&cache);
            Rf_error(s == ST_ERR_ALLOC ? "out of memory." : "interrupted.");
        }
        ic[STATUS][j] = s;
        ic[DECISION][j] = (int) v.decision;
        ic[BRANCH][j] = v.branch;
        ic[GUARANTEED][j] = v.guaranteed;
        ic[CAVEATS][j] = (int) v.caveats;
        int ns = s == ST_OK ? v.n_steps : 0;
        ic[NSTEPS][j] = ns;
        double r[N_REAL] = {v.p_value, v.p_value_slowdown, v.speedup,
                            v.speedup_min, v.speedup_mean, v.speedup_median,
                            v.speedup_ci[0], v.speedup_ci[1],
                            v.speedup_estimate, v.speedup_ci_level,
                            v.prob_greater, v.prob_ci[0], v.prob_ci[1],
                            v.shift, v.shift_ci[0], v.shift_ci[1]};
        for (int i = 0; i < N_REAL; i++) rc[i][j] = r[i];
        for (int i = 0; i < ST_MAX_STEPS; i++) {
            size_t at = (size_t) i * nb + j;
            step_kind[at] = i < ns ? (int) v.step_kind[i] : NA_INTEGER;
            step_p[at] = i < ns ? na_nan(v.steps[i].p_value) : NA_REAL;
        }
        for (int i = 0; i < 2; i++) {
            size_t at = (size_t) i * nb + j;
            size_t len = i == 0 ? n : m;
            int ok = tmin > 0 && s == ST_OK && len >= (size_t) tmin &&
                     trend[i].status == ST_OK;
            trend_status[at] = tmin > 0 && s == ST_OK ? trend[i].status
                                                      : ST_ERR_TOO_FEW;
            trend_p[at] = ok ? trend[i].p_value : NA_REAL;
            trend_tau[at] = ok && !isnan(trend[i].estimate[0])
                                ? trend[i].estimate[0] : NA_REAL;
        }
        /* the tolerance, where the final test was reached (apply_tolerance) */
        double p4[4] = {NAN, NAN, NAN, NAN};
        int ts = ST_ERR_DOMAIN;
        if (f != 1.0 && s == ST_OK && v.decision != ST_INSUFFICIENT) {
            int pooled = v.branch == ST_BRANCH_STUDENT_NORMAL ||
                         v.branch == ST_BRANCH_STUDENT_NOT_NORMAL;
            ts = st_tolerance_tests(t, x, n, y, m, pooled, f, p4);
        }
        tol_status[j] = ts;
        for (int i = 0; i < 4; i++) tol_p[(size_t) i * nb + j] = p4[i];
    }
    st_cache_free(&cache);
    Rf_setAttrib(cols, R_NamesSymbol, names);
    UNPROTECT(2);
    return cols;
}
