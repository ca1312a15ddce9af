/*
 * json-numbers.c -- does an array of numbers hold a 0 or a 1?
 *
 * jsonlite's simplification turns an array mixing numbers with true and
 * false into numbers (true 1, false 0), so a reader that simplified the
 * arrays of run times parses the file again, as lists, when a simplified
 * array holds a 0 or a 1.  Testing that in R (`any(x == 0 | x == 1)`)
 * allocates three logical vectors the length of the array; this is one
 * pass over the values, with no allocation.
 *
 * The same file answers a question of the factors the readers build from
 * codes: are the codes 1, ..., k in order (each run of equal codes followed
 * by the next code), so that every level is used and the levels are in
 * the order the values first appear?  Answered in one pass, where R would
 * tabulate the codes and sort-check a copy stripped of its class.
 *
 * Last, JMH's raw scores parsed as lists (a list per fork of one number per
 * iteration, over a million numbers in a large file) are flattened here in
 * one pass, when every element is one plain finite number other than 0 and
 * 1 (what jsonlite makes of true and false); any other fork leaves the
 * reading to the R code that says what is wrong with it.
 */
#include <stddef.h>
#include "ffi.h"

/* 1 when some x[i] is 0 or 1 (NaN is neither), else 0. */
static int has_zero_one(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (x[i] == 0.0 || x[i] == 1.0) return 1;
    }
    return 0;
}

static int has_zero_one_int(const int *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (x[i] == 0 || x[i] == 1) return 1;
    }
    return 0;
}

/* 1 when x[0] is 1, each x[i] is x[i - 1] or x[i - 1] + 1, and the last
 * is k (so n >= k >= 1); else 0. */
static int codes_in_order(const int *x, size_t n, int k)
{
    if (n == 0 || x[0] != 1) return 0;
    for (size_t i = 1; i < n; i++) {
        if (x[i] != x[i - 1] && x[i] != x[i - 1] + 1) return 0;
    }
    return x[n - 1] == k;
}

/* 1 when x carries none of the attributes a parse can give (names, a
 * class, dimensions): read through R's API, not its attribute list. */
static int bare(SEXP x)
{
    return !Rf_isObject(x) && Rf_getAttrib(x, R_NamesSymbol) == R_NilValue &&
           Rf_getAttrib(x, R_DimSymbol) == R_NilValue;
}

/* 1 when the list `fork` is a non-empty list of plain numbers (length 1,
 * bare) that are finite and not 0 or 1; their count in *len. */
static int plain_fork(SEXP fork, R_xlen_t *len)
{
    if (TYPEOF(fork) != VECSXP || !bare(fork)) return 0;
    R_xlen_t n = XLENGTH(fork);
    if (n == 0) return 0;
    for (R_xlen_t i = 0; i < n; i++) {
        SEXP e = VECTOR_ELT(fork, i);
        if (Rf_xlength(e) != 1 || !bare(e)) return 0;
        double v;
        if (TYPEOF(e) == REALSXP) v = REAL(e)[0];
        else if (TYPEOF(e) == INTSXP && INTEGER(e)[0] != NA_INTEGER) v = INTEGER(e)[0];
        else return 0;
        if (!R_FINITE(v) || v == 0.0 || v == 1.0) return 0;
    }
    *len = n;
    return 1;
}

/* ---- .Call entry points ---------------------------------------------------- */

/* TRUE when the double or integer vector x holds a 0 or a 1; NA for any
 * other type (the caller tests that). */
SEXP ffi_has_zero_one(SEXP x)
{
    size_t n = (size_t) XLENGTH(x);
    if (TYPEOF(x) == REALSXP) return Rf_ScalarLogical(has_zero_one(REAL(x), n));
    if (TYPEOF(x) == INTSXP) return Rf_ScalarLogical(has_zero_one_int(INTEGER(x), n));
    return Rf_ScalarLogical(NA_LOGICAL);
}

/* TRUE when the integer vector x holds the codes 1..k in order (see
 * codes_in_order()); FALSE for any other type. */
SEXP ffi_codes_in_order(SEXP x, SEXP k)
{
    if (TYPEOF(x) != INTSXP) return Rf_ScalarLogical(0);
    int kk = Rf_asInteger(k);
    if (kk == NA_INTEGER || kk < 1) return Rf_ScalarLogical(0);
    return Rf_ScalarLogical(codes_in_order(INTEGER(x), (size_t) XLENGTH(x), kk));
}

/* The numbers of a list of forks (each a list of plain numbers, see
 * plain_fork()) as list(values = one double vector, nonpos = a logical per
 * fork, TRUE when it holds a number <= 0); NULL when some fork is not plain. */
SEXP ffi_json_flat_numbers(SEXP forks)
{
    if (TYPEOF(forks) != VECSXP) return R_NilValue;
    R_xlen_t nf = XLENGTH(forks), total = 0;
    for (R_xlen_t k = 0; k < nf; k++) {
        R_xlen_t len;
        if (!plain_fork(VECTOR_ELT(forks, k), &len)) return R_NilValue;
        if (len > R_XLEN_T_MAX - total) return R_NilValue;
        total += len;
    }
    SEXP values = PROTECT(Rf_allocVector(REALSXP, total));
    SEXP nonpos = PROTECT(Rf_allocVector(LGLSXP, nf));
    double *out = REAL(values);
    R_xlen_t at = 0;
    for (R_xlen_t k = 0; k < nf; k++) {
        SEXP fork = VECTOR_ELT(forks, k);
        int neg = 0;
        for (R_xlen_t i = 0; i < XLENGTH(fork); i++) {
            SEXP e = VECTOR_ELT(fork, i);
            double v = TYPEOF(e) == REALSXP ? REAL(e)[0] : (double) INTEGER(e)[0];
            out[at++] = v;
            if (v <= 0) neg = 1;
        }
        LOGICAL(nonpos)[k] = neg;
    }
    const char *names[] = {"values", "nonpos"};
    SEXP parts[] = {values, nonpos};
    SEXP res = ffi_named_list(2, names, parts);
    UNPROTECT(2);
    return res;
}
