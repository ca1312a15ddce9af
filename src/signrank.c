/* PLACEHOLDER: replaced by the real implementation. */
#include "ffi.h"

SEXP ffi_signed_rank_test(SEXP d, SEXP alternative, SEXP mu, SEXP exact, SEXP correct, SEXP conf_int, SEXP conf_level)
{
    Rf_error("not implemented yet");
    return R_NilValue;
}

