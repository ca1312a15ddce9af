/* PLACEHOLDER: replaced by the real implementation. */
#include "ffi.h"

SEXP ffi_shapiro_wilk(SEXP x)
{
    Rf_error("not implemented yet");
    return R_NilValue;
}

