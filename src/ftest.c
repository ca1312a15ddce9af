/*
 * ftest.c -- the F test comparing the variances of two normal samples.
 *
 * Under H0: var(X) / var(Y) = ratio, with independent normal samples,
 * F = (s_x^2 / s_y^2) / ratio follows Fisher's F distribution with
 * (n - 1, m - 1) degrees of freedom (Snedecor and Cochran, Statistical
 * Methods, 8th ed., 1989, section 6.12).  stats::var.test is the twin.
 */
#include <math.h>
#include <Rmath.h>
#include "speeduptest.h"

static int all_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

/* The test from the variances (n - 1 divisor) of samples of sizes n, m;
 * with_ci = 0 leaves conf_int NAN (the quantiles are not computed). */
static int f_from_variances(double vx, size_t n, double vy, size_t m,
                            st_alternative alt, double ratio,
                            double conf_level, int with_ci, st_result *out)
{
    st_result_init(out);
    if (n < 2 || m < 2) return out->status = ST_ERR_TOO_FEW;
    if (!isfinite(vx) || !isfinite(vy) || !isfinite(ratio) ||
        !(ratio > 0.0) || !(conf_level > 0.0 && conf_level < 1.0) ||
        (alt != ST_TWO_SIDED && alt != ST_LESS && alt != ST_GREATER))
        return out->status = ST_ERR_DOMAIN;

    /* Both samples constant: 0 / 0, no information about the ratio.  One
     * constant sample gives F = 0 or F = Inf and the limiting p-values. */
    if (vx == 0.0 && vy == 0.0) return out->status = ST_ERR_CONSTANT;

    double dfx = (double) (n - 1), dfy = (double) (m - 1);
    double est = vx / vy;
    double f = est / ratio;
    out->statistic = f;
    out->df[0] = dfx;
    out->df[1] = dfy;
    out->estimate[0] = est;

    /* Each tail from its own call, so that a small upper tail keeps its
     * relative accuracy (R's var.test forms it as 1 - lower tail). */
    /* Only the tails the alternative reads: the two-sided test needs the
     * smaller, and a tail below 1/4 is the smaller one (the other is
     * above 3/4), so its partner is computed only when it is not. */
    double lower = NAN, upper = NAN;
    int only = 0;   /* 1: the lower tail alone, 2: the upper alone */
    if (alt == ST_TWO_SIDED) {
        if (f > 1.0) {
            upper = pf(f, dfx, dfy, 0, 0);
            if (upper < 0.25) only = 2;
            else lower = pf(f, dfx, dfy, 1, 0);
        } else {
            lower = pf(f, dfx, dfy, 1, 0);
            if (lower < 0.25) only = 1;
            else upper = pf(f, dfx, dfy, 0, 0);
        }
    } else if (alt == ST_GREATER) {
        upper = pf(f, dfx, dfy, 0, 0);
    } else {
        lower = pf(f, dfx, dfy, 1, 0);
    }
    /* The interval inverts the test: est / ratio0 is F-distributed, so
     * ratio0 lies in [est / F_(1-beta), est / F_(beta)]. */
    switch (alt) {
    case ST_TWO_SIDED: {
        double p = only == 1 ? 2.0 * lower
                   : only == 2 ? 2.0 * upper
                   : 2.0 * (lower < upper ? lower : upper);
        out->p_value = p > 1.0 ? 1.0 : p;
        if (!with_ci) break;
        double beta = (1.0 - conf_level) / 2.0;
        out->conf_int[0] = est / qf(1.0 - beta, dfx, dfy, 1, 0);
        out->conf_int[1] = est / qf(beta, dfx, dfy, 1, 0);
        break;
    }
    case ST_GREATER:
        out->p_value = upper;
        if (!with_ci) break;
        out->conf_int[0] = est / qf(conf_level, dfx, dfy, 1, 0);
        out->conf_int[1] = INFINITY;
        break;
    case ST_LESS:
        out->p_value = lower;
        if (!with_ci) break;
        out->conf_int[0] = 0.0;
        out->conf_int[1] = est / qf(1.0 - conf_level, dfx, dfy, 1, 0);
        break;
    }
    return ST_OK;
}

int st_var_test(const double *x, size_t n, const double *y, size_t m,
                st_alternative alt, double ratio, double conf_level,
                const st_var_test_options *opt, st_result *out)
{
    int with_ci = !(opt && opt->no_interval);
    if (opt && opt->var)
        return f_from_variances(opt->var[0], n, opt->var[1], m, alt, ratio,
                                conf_level, with_ci, out);
    st_result_init(out);
    if (n < 2 || m < 2) return out->status = ST_ERR_TOO_FEW;
    if (!all_finite(x, n) || !all_finite(y, m))
        return out->status = ST_ERR_DOMAIN;
    double vx = st_var(x, n, st_mean(x, n));
    double vy = st_var(y, m, st_mean(y, m));
    return f_from_variances(vx, n, vy, m, alt, ratio, conf_level, with_ci,
                            out);
}

/* ---- R entry point --------------------------------------------------- */
#include "ffi.h"

SEXP ffi_var_test(SEXP x, SEXP y, SEXP alternative, SEXP ratio,
                  SEXP conf_level)
{
    size_t n, m;
    const double *px = ffi_doubles(x, &n, "x");
    const double *py = ffi_doubles(y, &m, "y");
    int alt = ffi_int(alternative, "alternative");
    double rat = ffi_double(ratio, "ratio");
    double conf = ffi_double(conf_level, "conf_level");
    st_result r;
    st_var_test(px, n, py, m, (st_alternative) alt, rat, conf, NULL, &r);
    return ffi_result(&r);
}
