/* PLACEHOLDER: replaced by the real implementation. */
#include "ffi.h"

SEXP ffi_wilcoxon_test(SEXP x, SEXP y, SEXP alternative, SEXP mu, SEXP exact, SEXP correct, SEXP conf_int, SEXP conf_level)
{
    Rf_error("not implemented yet");
    return R_NilValue;
}

