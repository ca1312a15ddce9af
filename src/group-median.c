/*
 * group-median.c -- the even medians of many groups of values, as
 * stats::median() gives each.
 *
 * The caller sorts the values by group, then by value (one order() of all
 * the groups), so that the median of a group of n values is its middle
 * value when n is odd and, when n is even, the mean of the two middle ones
 * as R's mean() computes it, made here for all the groups at once: the
 * sum in a long double divided by 2, then the correction pass that adds
 * the mean of the residuals (R's summary.c, real_mean), so that the result
 * is the same double bit for bit.
 *
 * Reference: Hyndman, R. J. and Fan, Y. (1996). Sample quantiles in
 * statistical packages. The American Statistician 50, 361-365 (the median
 * of an even sample as the mean of the two middle order statistics).
 */
#include <math.h>
#include <stddef.h>
#include "speeduptest.h"

/* R's mean() of the two values a and b (also the site's medians,
 * report-site.c). */
double st_mean2(double a, double b)
{
    long double s = 0.0;
    s += a;
    s += b;
    int finite_s = isfinite((double) s);
    if (finite_s) {
        s /= 2;
    } else {
        /* an infinite sum may have overflowed: the halves summed */
        s = 0.0;
        s += a / 2;
        s += b / 2;
        finite_s = isfinite((double) s);
    }
    if (finite_s && isfinite((double) s)) {
        long double t = 0.0;
        t += (a - s);
        t += (b - s);
        s += t / 2;
    }
    return (double) s;
}

/* R's mean() of each pair a[i], b[i], i < k. */
void st_mean_pairs(const double *a, const double *b, size_t k, double *out)
{
    for (size_t i = 0; i < k; i++) out[i] = st_mean2(a[i], b[i]);
}

/* ---- .Call entry points ------------------------------------------------ */

#include "ffi.h"

/* mean(c(a[i], b[i])) of each i, for finite a and b of one length. */
SEXP ffi_mean_pairs(SEXP a, SEXP b)
{
    size_t na, nb;
    const double *pa = ffi_doubles(a, &na, "a");
    const double *pb = ffi_doubles(b, &nb, "b");
    if (na != nb) Rf_error("`a` and `b` must have the same length.");
    for (size_t i = 0; i < na; i++)
        if (!isfinite(pa[i]) || !isfinite(pb[i])) Rf_error("`a` and `b` must be finite.");
    SEXP out = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) na));
    st_mean_pairs(pa, pb, na, REAL(out));
    UNPROTECT(1);
    return out;
}
