/*
 * ffi.c -- conversion helpers for the .Call entry points: R vectors to
 * plain C values (the R wrappers have checked and coerced them; these
 * helpers only guard against a wrong type reaching C), and the core's
 * results to named lists, through R's C API alone (Writing R Extensions,
 * "Handling R objects in C").
 */
#include <math.h>

#include "ffi.h"

const double *ffi_doubles(SEXP x, size_t *n, const char *arg)
{
    if (TYPEOF(x) != REALSXP)
        Rf_error("`%s` must be a double vector.", arg);
    *n = (size_t) XLENGTH(x);
    return REAL(x);
}

double ffi_double(SEXP x, const char *arg)
{
    if (TYPEOF(x) != REALSXP || XLENGTH(x) != 1)
        Rf_error("`%s` must be a single double.", arg);
    return REAL(x)[0];
}

int ffi_int(SEXP x, const char *arg)
{
    if (TYPEOF(x) != INTSXP || XLENGTH(x) != 1 || INTEGER(x)[0] == NA_INTEGER)
        Rf_error("`%s` must be a single integer.", arg);
    return INTEGER(x)[0];
}

int ffi_flag(SEXP x, const char *arg)
{
    if (TYPEOF(x) != LGLSXP || XLENGTH(x) != 1 || LOGICAL(x)[0] == NA_LOGICAL)
        Rf_error("`%s` must be TRUE or FALSE.", arg);
    return LOGICAL(x)[0];
}

const char *ffi_string(SEXP x, const char *arg)
{
    if (TYPEOF(x) != STRSXP || XLENGTH(x) != 1 || STRING_ELT(x, 0) == NA_STRING)
        Rf_error("`%s` must be one string", arg);
    return CHAR(STRING_ELT(x, 0));
}

const unsigned char *ffi_raw(SEXP x, size_t *n, const char *arg)
{
    if (TYPEOF(x) != RAWSXP) Rf_error("`%s` must be a raw vector", arg);
    *n = (size_t) XLENGTH(x);
    return RAW(x);
}

ffi_samples ffi_read_samples(SEXP values, SEXP start, SEXP len)
{
    ffi_samples s;
    size_t nv, k2;
    s.values = ffi_doubles(values, &nv, "values");
    s.start = ffi_doubles(start, &s.k, "start");
    s.len = ffi_doubles(len, &k2, "len");
    if (s.k != k2) Rf_error("`start` and `len` must have the same length.");
    for (size_t i = 0; i < s.k; i++) {
        double a = s.start[i], l = s.len[i];
        if (!(a >= 0 && l >= 0) || a != floor(a) || l != floor(l) ||
            a + l > (double) nv)
            Rf_error("`start` or `len` is out of range.");
    }
    return s;
}

SEXP ffi_named_list(int n, const char **names, SEXP *values)
{
    SEXP out = PROTECT(Rf_allocVector(VECSXP, n));
    SEXP nms = PROTECT(Rf_allocVector(STRSXP, n));
    for (int i = 0; i < n; i++) {
        SET_VECTOR_ELT(out, i, values[i]);
        SET_STRING_ELT(nms, i, Rf_mkCharCE(names[i], CE_UTF8));
    }
    Rf_setAttrib(out, R_NamesSymbol, nms);
    UNPROTECT(2);
    return out;
}

SEXP ffi_result(const st_result *r)
{
    static const char *names[] = {
        "statistic", "df1", "df2", "p_value", "conf_low", "conf_high",
        "estimate1", "estimate2", "exact", "status"
    };
    const double num[] = {
        r->statistic, r->df[0], r->df[1], r->p_value, r->conf_int[0],
        r->conf_int[1], r->estimate[0], r->estimate[1]
    };
    SEXP values[10];
    int np = 0;
    for (int i = 0; i < 8; i++) {
        values[i] = PROTECT(Rf_ScalarReal(num[i]));
        np++;
    }
    values[8] = PROTECT(Rf_ScalarLogical(r->exact));
    values[9] = PROTECT(Rf_ScalarInteger(r->status));
    np += 2;
    SEXP out = ffi_named_list(10, names, values);
    UNPROTECT(np);
    return out;
}
