/*
 * ttest.c -- Student's and Welch's t tests of a difference in means.
 *
 * Student (1908), The probable error of a mean, Biometrika 6, 1-25: with
 * equal variances, t = (mean_x - mean_y - mu) / (s_p sqrt(1/n + 1/m)),
 * s_p^2 the pooled variance, has n + m - 2 degrees of freedom.
 * Welch (1947), The generalization of "Student's" problem when several
 * different population variances are involved, Biometrika 34, 28-35:
 * with unequal variances, t = (mean_x - mean_y - mu) / sqrt(s_x^2/n +
 * s_y^2/m) is approximately t-distributed with the Welch-Satterthwaite
 * degrees of freedom.  The one-sample test (no y) uses s_x / sqrt(n) and
 * n - 1 degrees of freedom.  stats::t.test is the twin; the summary-figure
 * form matches scipy.stats.ttest_ind_from_stats.
 */
#include <float.h>
#include <math.h>
#include <Rmath.h>
#include "speeduptest.h"

/*
 * The test from the moments.  two_sample = 0 ignores (my, vy, ny).
 * nx, ny are the sample sizes; vx, vy variances (n - 1 divisor).
 */
static int t_from_moments(double mx, double vx, double nx, double my,
                          double vy, double ny, int two_sample,
                          st_alternative alt, double mu, int var_equal,
                          double conf_level, int with_ci, st_result *out,
                          double *std_err, int with_p)
{
    if (std_err) *std_err = NAN;
    if (!isfinite(mu) || !(conf_level > 0.0 && conf_level < 1.0) ||
        (alt != ST_TWO_SIDED && alt != ST_LESS && alt != ST_GREATER))
        return out->status = ST_ERR_DOMAIN;

    double se, df, scale;
    if (!two_sample) {
        if (nx < 2.0) return out->status = ST_ERR_TOO_FEW;
        df = nx - 1.0;
        se = sqrt(vx / nx);
        scale = fabs(mx);
    } else {
        if (var_equal) {
            if (nx < 1.0 || ny < 1.0 || nx + ny < 3.0)
                return out->status = ST_ERR_TOO_FEW;
            /* A sample of one value adds nothing to the pooled sum of
             * squares (and has no variance). */
            df = nx + ny - 2.0;
            double v = 0.0;
            if (nx > 1.0) v += (nx - 1.0) * vx;
            if (ny > 1.0) v += (ny - 1.0) * vy;
            v /= df;
            se = sqrt(v * (1.0 / nx + 1.0 / ny));
        } else {
            if (nx < 2.0 || ny < 2.0) return out->status = ST_ERR_TOO_FEW;
            /* Welch-Satterthwaite: df = se^4 / sum (se_i^4 / (n_i - 1)). */
            double sex = sqrt(vx / nx), sey = sqrt(vy / ny);
            se = sqrt(sex * sex + sey * sey);
            df = R_pow(se, 4.0) /
                 (R_pow(sex, 4.0) / (nx - 1.0) + R_pow(sey, 4.0) / (ny - 1.0));
        }
        scale = fmax(fabs(mx), fabs(my));
    }
    if (!isfinite(se)) return out->status = ST_ERR_DOMAIN;
    /* As R: a standard error below 10 ulps of the means means the data
     * carry no usable variability (the t statistic would be rounding
     * noise, or 0 / 0). */
    if (se == 0.0 || se < 10.0 * DBL_EPSILON * scale)
        return out->status = ST_ERR_CONSTANT;

    double t = (mx - (two_sample ? my : 0.0) - mu) / se;
    double lo = NAN, hi = NAN;
    out->statistic = t;
    out->df[0] = df;
    out->estimate[0] = mx;
    if (two_sample) out->estimate[1] = my;
    if (!with_p) return ST_OK;      /* (the statistic only: the caller's) */
    switch (alt) {
    case ST_LESS:
        out->p_value = pt(t, df, 1, 0);
        if (!with_ci) break;
        lo = -INFINITY;
        hi = t + qt(conf_level, df, 1, 0);
        break;
    case ST_GREATER:
        out->p_value = pt(t, df, 0, 0);
        if (!with_ci) break;
        lo = t - qt(conf_level, df, 1, 0);
        hi = INFINITY;
        break;
    default: {
        out->p_value = 2.0 * pt(-fabs(t), df, 1, 0);
        if (!with_ci) break;
        double q = qt(1.0 - (1.0 - conf_level) / 2.0, df, 1, 0);
        lo = t - q;
        hi = t + q;
        break;
    }
    }
    /* The interval of the difference: {mu0 : |t(mu0)| within the quantile},
     * i.e. mu + (t -+ q) se. */
    if (with_ci) {
        out->conf_int[0] = mu + lo * se;
        out->conf_int[1] = mu + hi * se;
    }
    if (std_err) *std_err = se;
    return ST_OK;
}

static int all_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

/* The test of the data (y NULL: the one-sample test). */
static int t_data(const double *x, size_t n, const double *y, size_t m,
                  st_alternative alt, double mu, int var_equal,
                  double conf_level, int with_ci, st_result *out,
                  double *std_err)
{
    st_result_init(out);
    if (std_err) *std_err = NAN;
    if (!all_finite(x, n) || (y && !all_finite(y, m)))
        return out->status = ST_ERR_DOMAIN;
    if (n == 0 || (y && m == 0)) return out->status = ST_ERR_TOO_FEW;
    double mx = st_mean(x, n);
    double vx = n > 1 ? st_var(x, n, mx) : NAN;
    double my = NAN, vy = NAN;
    if (y) {
        my = st_mean(y, m);
        vy = m > 1 ? st_var(y, m, my) : NAN;
    }
    return t_from_moments(mx, vx, (double) n, my, vy, (double) m, y != NULL,
                          alt, mu, var_equal, conf_level, with_ci, out,
                          std_err, 1);
}

/* The two-sample test from means, standard deviations and sizes (any
 * positive real sizes, as scipy's ttest_ind_from_stats). */
static int t_from_sd(const st_t_figures *f, st_alternative alt, double mu,
                     int var_equal, double conf_level, int with_ci,
                     st_result *out, double *std_err)
{
    st_result_init(out);
    if (std_err) *std_err = NAN;
    if (!isfinite(f->mean[0]) || !isfinite(f->mean[1]) ||
        !isfinite(f->spread[0]) || !isfinite(f->spread[1]) ||
        f->spread[0] < 0.0 || f->spread[1] < 0.0 || !isfinite(f->size[0]) ||
        !isfinite(f->size[1]))
        return out->status = ST_ERR_DOMAIN;
    return t_from_moments(f->mean[0], f->spread[0] * f->spread[0], f->size[0],
                          f->mean[1], f->spread[1] * f->spread[1], f->size[1],
                          1, alt, mu, var_equal, conf_level, with_ci, out,
                          std_err, 1);
}

/* Figures given as variances: sizes of at least 2 and finite moments. */
static int var_figures_status(const st_t_figures *f)
{
    if (!(f->size[0] >= 2) || !(f->size[1] >= 2)) return ST_ERR_TOO_FEW;
    if (!isfinite(f->mean[0]) || !isfinite(f->mean[1]) ||
        !isfinite(f->spread[0]) || !isfinite(f->spread[1]))
        return ST_ERR_DOMAIN;
    return ST_OK;
}

/* The two-sample test from means, variances and sizes. */
static int t_from_var(const st_t_figures *f, st_alternative alt, double mu,
                      int var_equal, double conf_level, int with_ci,
                      st_result *out, double *std_err)
{
    st_result_init(out);
    if (std_err) *std_err = NAN;
    int s = var_figures_status(f);
    if (s != ST_OK) return out->status = s;
    return t_from_moments(f->mean[0], f->spread[0], f->size[0], f->mean[1],
                          f->spread[1], f->size[1], 1, alt, mu, var_equal,
                          conf_level, with_ci, out, std_err, 1);
}

/*
 * Both one-sided tests without intervals.  pt() computes the upper and
 * the lower tail from one incomplete beta value v: the tail on the side
 * of 0 away from t is v / 2 and the other 0.5 - v / 2 + 0.5 (the two
 * tails of R's pt() for a finite t and finite df; for df above 4e5 or not
 * finite R may take another route, so both are asked of pt() there).
 * The far tail is asked of pt() and the near one formed from it, as pt()
 * forms it: the p-values of the two one-sided tests, with one evaluation
 * of the incomplete beta function.
 */
static int t_both_tails(const st_t_figures *f, double mu, int var_equal,
                        st_result *greater, st_result *less)
{
    st_result_init(greater);
    int s = var_figures_status(f);
    if (s != ST_OK)
        greater->status = s;
    else    /* (the statistic only: ST_TWO_SIDED computes no p-value here) */
        s = t_from_moments(f->mean[0], f->spread[0], f->size[0], f->mean[1],
                           f->spread[1], f->size[1], 1, ST_TWO_SIDED, mu,
                           var_equal, 0.95, 0, greater, NULL, 0);
    *less = *greater;
    if (s != ST_OK) return s;
    double t = greater->statistic, df = greater->df[0];
    if (isfinite(t) && isfinite(df) && df > 0.0 && df <= 4e5) {
        if (t > 0.0) {                 /* the upper tail is v / 2 */
            greater->p_value = pt(t, df, 0, 0);
            less->p_value = 0.5 - greater->p_value + 0.5;
        } else {                       /* the lower tail is */
            less->p_value = pt(t, df, 1, 0);
            greater->p_value = 0.5 - less->p_value + 0.5;
        }
    } else {
        greater->p_value = pt(t, df, 0, 0);
        less->p_value = pt(t, df, 1, 0);
    }
    return ST_OK;
}

int st_t_test(const double *x, size_t n, const double *y, size_t m,
              st_alternative alt, double mu, int var_equal,
              double conf_level, const st_t_test_options *opt,
              st_result *out)
{
    const st_t_figures *f = opt ? opt->figures : NULL;
    int with_ci = !(opt && opt->no_interval);
    double *std_err = opt ? opt->std_err : NULL;
    if (opt && opt->less) {
        if (std_err) *std_err = NAN;
        if (!f || !f->variances || alt != ST_GREATER) {
            st_result_fail(opt->less, ST_ERR_DOMAIN);
            return st_result_fail(out, ST_ERR_DOMAIN);
        }
        return t_both_tails(f, mu, var_equal, out, opt->less);
    }
    if (!f)
        return t_data(x, n, y, m, alt, mu, var_equal, conf_level, with_ci,
                      out, std_err);
    return f->variances
        ? t_from_var(f, alt, mu, var_equal, conf_level, with_ci, out, std_err)
        : t_from_sd(f, alt, mu, var_equal, conf_level, with_ci, out, std_err);
}

/* ---- R entry points -------------------------------------------------- */
#include "ffi.h"

/* ffi_result() plus the standard error, as t.test reports it. */
static SEXP t_result(const st_result *r, double std_err)
{
    SEXP base = PROTECT(ffi_result(r));
    R_xlen_t k = XLENGTH(base);
    SEXP out = PROTECT(Rf_allocVector(VECSXP, k + 1));
    SEXP names = PROTECT(Rf_allocVector(STRSXP, k + 1));
    SEXP base_names = Rf_getAttrib(base, R_NamesSymbol);
    for (R_xlen_t i = 0; i < k; i++) {
        SET_VECTOR_ELT(out, i, VECTOR_ELT(base, i));
        SET_STRING_ELT(names, i, STRING_ELT(base_names, i));
    }
    SET_VECTOR_ELT(out, k, Rf_ScalarReal(std_err));
    SET_STRING_ELT(names, k, Rf_mkChar("stderr"));
    Rf_setAttrib(out, R_NamesSymbol, names);
    UNPROTECT(3);
    return out;
}

SEXP ffi_t_test(SEXP x, SEXP y, SEXP alternative, SEXP mu, SEXP var_equal,
                SEXP conf_level)
{
    size_t n, m = 0;
    const double *px = ffi_doubles(x, &n, "x");
    const double *py = Rf_isNull(y) ? NULL : ffi_doubles(y, &m, "y");
    int alt = ffi_int(alternative, "alternative");
    double mu0 = ffi_double(mu, "mu");
    int veq = ffi_flag(var_equal, "var_equal");
    double conf = ffi_double(conf_level, "conf_level");
    st_result r;
    double se;
    st_t_test_options opt = {0};
    opt.std_err = &se;
    st_t_test(px, n, py, m, (st_alternative) alt, mu0, veq, conf, &opt, &r);
    return t_result(&r, se);
}

SEXP ffi_t_test_summary(SEXP mean_x, SEXP sd_x, SEXP n_x, SEXP mean_y,
                        SEXP sd_y, SEXP n_y, SEXP alternative, SEXP mu,
                        SEXP var_equal, SEXP conf_level)
{
    double mx = ffi_double(mean_x, "mean_x"), sx = ffi_double(sd_x, "sd_x");
    double nx = ffi_double(n_x, "n_x");
    double my = ffi_double(mean_y, "mean_y"), sy = ffi_double(sd_y, "sd_y");
    double ny = ffi_double(n_y, "n_y");
    int alt = ffi_int(alternative, "alternative");
    double mu0 = ffi_double(mu, "mu");
    int veq = ffi_flag(var_equal, "var_equal");
    double conf = ffi_double(conf_level, "conf_level");
    st_result r;
    double se;
    st_t_figures fig = {{mx, my}, {sx, sy}, {nx, ny}, 0};
    st_t_test_options opt = {0};
    opt.figures = &fig;
    opt.std_err = &se;
    st_t_test(NULL, 0, NULL, 0, (st_alternative) alt, mu0, veq, conf, &opt,
              &r);
    return t_result(&r, se);
}
