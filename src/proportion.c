/*
 * proportion.c -- confidence intervals for a binomial proportion a / b and
 * the minimal number of benchmarks for a wanted precision.
 *
 * Intervals (z = qnorm((1 + conf_level) / 2), C = a / b):
 *   prop.test        Wilson's score interval with Yates' continuity
 *                    correction, computed as R's prop.test(a, b) does
 *                    (Wilson 1927; Newcombe 1998, method 4).
 *   wilson           the score interval without correction (Wilson 1927).
 *   clopper-pearson  the exact interval from beta quantiles, as R's
 *                    binom.test (Clopper and Pearson 1934).
 *   agresti-coull    Wald interval around (a + z^2/2) / (b + z^2) with
 *                    b + z^2 trials (Agresti and Coull 1998).
 *   normal           the Wald interval C -+ z sqrt(C (1 - C) / b) of the
 *                    Speedup-Test paper (Touati et al. 2013, section 4),
 *                    clipped to [0, 1].
 * Minimal number of benchmarks (Touati et al. 2013, section 4, after
 * Jain 1991): the smallest b with z sqrt(C (1 - C) / b) <= r, that is
 * ceiling(z^2 C (1 - C) / r^2).
 *
 * References:
 *   Wilson, E. B. (1927). Probable inference, the law of succession, and
 *     statistical inference. JASA 22, 209-212.
 *   Newcombe, R. G. (1998). Two-sided confidence intervals for the single
 *     proportion: comparison of seven methods. Stat. Med. 17, 857-872.
 *   Clopper, C. J. and Pearson, E. S. (1934). The use of confidence or
 *     fiducial limits illustrated in the case of the binomial.
 *     Biometrika 26, 404-413.
 *   Agresti, A. and Coull, B. A. (1998). Approximate is better than
 *     "exact" for interval estimation of binomial proportions. The
 *     American Statistician 52, 119-126.
 *   Touati, S.-A.-A., Worms, J. and Briais, S. (2013). The Speedup-Test.
 *     Concurrency and Computation: Practice and Experience 25(10).
 */
#include <math.h>
#include <Rmath.h>
#include "speeduptest.h"

static double clip01(double v)
{
    return v < 0 ? 0 : (v > 1 ? 1 : v);
}

/*
 * Score interval with continuity correction `yates` (0 for plain Wilson).
 * The bounds are the roots in p of |C -+ yates/b - p| = z sqrt(p(1-p)/b):
 *   (c + z^2/(2b) -+ z sqrt(c(1-c)/b + z^2/(4b^2))) / (1 + z^2/b),
 * with c = C + yates/b for the upper and C - yates/b for the lower bound;
 * a corrected centre beyond 1 (or below 0) gives the bound 1 (or 0).
 * The operations follow R's prop.test so that the results agree to the
 * last bits.  Like prop.test(a, b) (null p = 0.5), the correction is
 * min(0.5, |a - b/2|), which is 0 when a = b/2.
 */
static void score_interval(double a, double b, double z, double yates,
                           double *lo, double *hi)
{
    const double est = a / b;
    const double z22n = z * z / (2 * b);
    double pc = est + yates / b;
    double pu = pc >= 1 ? 1
        : (pc + z22n + z * sqrt(pc * (1 - pc) / b + z22n / (2 * b))) /
          (1 + 2 * z22n);
    pc = est - yates / b;
    double pl = pc <= 0 ? 0
        : (pc + z22n - z * sqrt(pc * (1 - pc) / b + z22n / (2 * b))) /
          (1 + 2 * z22n);
    *lo = pl < 0 ? 0 : pl;
    *hi = pu > 1 ? 1 : pu;
}

int st_proportion_ci(double a, double b, double conf_level,
                     st_prop_method method, st_result *out)
{
    st_result_init(out);
    /* counts: beyond 2^53 they are not exact and Rmath's beta quantiles
     * lose their way (Clopper-Pearson bounds above 1 at b ~ 1e40) */
    if (!(b >= 1) || !(a >= 0) || !(a <= b) || !(b <= 9007199254740992.0) ||
        !(conf_level > 0 && conf_level < 1)) {
        out->status = ST_ERR_DOMAIN;
        return out->status;
    }
    const double z = qnorm((1 + conf_level) / 2, 0, 1, 1, 0);
    const double est = a / b;
    double lo, hi;
    switch (method) {
    case ST_PROP_TEST: {
        double yates = fabs(a - b * 0.5);
        if (yates > 0.5)
            yates = 0.5;
        score_interval(a, b, z, yates, &lo, &hi);
        break;
    }
    case ST_PROP_WILSON:
        score_interval(a, b, z, 0, &lo, &hi);
        break;
    case ST_PROP_CLOPPER_PEARSON: {
        /* Lower bound: the p with P(Bin(b, p) >= a) = alpha/2, i.e. the
         * alpha/2 quantile of Beta(a, b - a + 1); upper bound: the
         * 1 - alpha/2 quantile of Beta(a + 1, b - a). */
        const double alpha = (1 - conf_level) / 2;
        lo = a == 0 ? 0 : qbeta(alpha, a, b - a + 1, 1, 0);
        hi = a == b ? 1 : qbeta(1 - alpha, a + 1, b - a, 1, 0);
        break;
    }
    case ST_PROP_AGRESTI_COULL: {
        const double nt = b + z * z;
        const double pt = (a + z * z / 2) / nt;
        const double h = z * sqrt(pt * (1 - pt) / nt);
        lo = clip01(pt - h);
        hi = clip01(pt + h);
        break;
    }
    case ST_PROP_NORMAL: {
        const double h = z * sqrt(est * (1 - est) / b);
        lo = clip01(est - h);
        hi = clip01(est + h);
        break;
    }
    default:
        out->status = ST_ERR_DOMAIN;
        return out->status;
    }
    out->estimate[0] = est;
    out->conf_int[0] = lo;
    out->conf_int[1] = hi;
    out->exact = method == ST_PROP_CLOPPER_PEARSON;
    out->status = ST_OK;
    return ST_OK;
}

/*
 * ceiling(z^2 C (1 - C) / r^2).  z, C and r are rounded doubles, so a
 * value that is mathematically an integer N can come out as N + 1e-13
 * and a plain ceiling would answer N + 1.  A value within a relative
 * 1e-9 of an integer is therefore taken as that integer (no real input
 * of interest lies that close to an integer without being one: the
 * precision of the inputs themselves is far coarser).  Returns NAN
 * outside the domain 0 <= C <= 1, r > 0, 0 < conf_level < 1.
 */
double st_min_benchmarks(double proportion, double precision,
                         double conf_level)
{
    if (!(proportion >= 0 && proportion <= 1) || !(precision > 0) ||
        !isfinite(precision) || !(conf_level > 0 && conf_level < 1))
        return NAN;
    const double z = qnorm((1 + conf_level) / 2, 0, 1, 1, 0);
    const double v = z * z * proportion * (1 - proportion) /
                     (precision * precision);
    if (!isfinite(v))
        return v;
    const double k = nearbyint(v);
    if (fabs(v - k) <= 1e-9 * (k > 1 ? k : 1))
        return k;
    return ceil(v);
}

/* ---- R entry points ----------------------------------------------------- */
#include "ffi.h"

SEXP ffi_proportion_ci(SEXP a, SEXP b, SEXP conf_level, SEXP method)
{
    double av = ffi_double(a, "a");
    double bv = ffi_double(b, "b");
    double conf = ffi_double(conf_level, "conf_level");
    int meth = ffi_int(method, "method");
    st_result r;
    st_proportion_ci(av, bv, conf, (st_prop_method) meth, &r);
    return ffi_result(&r);
}

SEXP ffi_min_benchmarks(SEXP proportion, SEXP precision, SEXP conf_level)
{
    size_t n;
    const double *p = ffi_doubles(proportion, &n, "proportion");
    double r = ffi_double(precision, "precision");
    double conf = ffi_double(conf_level, "conf_level");
    SEXP out = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) n));
    double *o = REAL(out);
    for (size_t i = 0; i < n; i++)
        o[i] = st_min_benchmarks(p[i], r, conf);
    UNPROTECT(1);
    return out;
}
