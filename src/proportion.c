/* PLACEHOLDER: replaced by the real implementation. */
#include "ffi.h"

SEXP ffi_proportion_ci(SEXP a, SEXP b, SEXP conf_level, SEXP method)
{
    Rf_error("not implemented yet");
    return R_NilValue;
}

SEXP ffi_min_benchmarks(SEXP proportion, SEXP precision, SEXP conf_level)
{
    Rf_error("not implemented yet");
    return R_NilValue;
}

