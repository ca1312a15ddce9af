/* PLACEHOLDER: replaced by the real implementation. */
#include "ffi.h"

SEXP ffi_t_test(SEXP x, SEXP y, SEXP alternative, SEXP mu, SEXP var_equal, SEXP conf_level)
{
    Rf_error("not implemented yet");
    return R_NilValue;
}

SEXP ffi_t_test_summary(SEXP mean_x, SEXP sd_x, SEXP n_x, SEXP mean_y, SEXP sd_y, SEXP n_y, SEXP alternative, SEXP mu, SEXP var_equal, SEXP conf_level)
{
    Rf_error("not implemented yet");
    return R_NilValue;
}

