/* PLACEHOLDER: replaced by the real implementation. */
#include "ffi.h"

SEXP ffi_var_test(SEXP x, SEXP y, SEXP alternative, SEXP ratio, SEXP conf_level)
{
    Rf_error("not implemented yet");
    return R_NilValue;
}

