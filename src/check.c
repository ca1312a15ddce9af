/*
 * check.c -- one pass over a sample for the input checks of the R
 * wrappers.
 *
 * The protocols need run times that are finite and positive.  Checking that
 * in R (anyNA, is.finite, x <= 0) makes a logical vector the length of the
 * sample for each test; at 1e7 runs that is 40 MB apiece, more than the
 * protocol's own scratch space.  Here the sample is read once, without
 * allocating: the R wrapper takes the fast path when every value passes
 * and falls back to its detailed checks (which count the faults and say
 * which) otherwise.  NaN and NA fail both comparisons, so they fail.
 */
#include <math.h>
#include <stddef.h>

/* 1 when every x[i] is finite and > 0 (NaN fails: comparisons are false). */
static int all_positive_finite(const double *x, size_t n)
{
    int ok = 1;
    for (size_t i = 0; i < n; i++)
        ok &= (x[i] > 0) & (x[i] < HUGE_VAL);
    return ok;
}

/* ---- R entry points -------------------------------------------------------- */
#include "ffi.h"

/* TRUE when `x` is a double vector whose values are all finite and > 0. */
SEXP ffi_all_positive_finite(SEXP x)
{
    if (TYPEOF(x) != REALSXP) return Rf_ScalarLogical(0);
    return Rf_ScalarLogical(all_positive_finite(REAL(x), (size_t) XLENGTH(x)));
}
