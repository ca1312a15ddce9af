/* PLACEHOLDER: replaced by the real implementation. */
#include "ffi.h"

SEXP ffi_mean_test(SEXP x, SEXP y, SEXP alpha, SEXP rigorous)
{
    Rf_error("not implemented yet");
    return R_NilValue;
}

SEXP ffi_median_test(SEXP x, SEXP y, SEXP alpha, SEXP rigorous)
{
    Rf_error("not implemented yet");
    return R_NilValue;
}

SEXP ffi_highest_confidence(SEXP x, SEXP y, SEXP test, SEXP rigorous)
{
    Rf_error("not implemented yet");
    return R_NilValue;
}

