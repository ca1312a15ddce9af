/*
 * codes.c -- the names of the codes the core returns.
 *
 * The protocols report which exit of the flowchart they took (st_branch),
 * which component test each step ran (st_step_kind), the caveats that
 * apply (ST_CAVEAT_* bits), the decision and the status of a call; a
 * verdict with a tolerance, the direction it declares (st_direction).  The R
 * side reads these tables once, through ffi_codes(), and finds each code
 * by its name, never by its position, so that a code added here reaches
 * every surface through the protocol descriptors (R/protocol-descriptor.R),
 * and the test that each code has its words there fails until it does.
 */
#include "ffi.h"

typedef struct {
    const char *name;
    int code;
} st_code_name;

#define CODE(name, code) {name, code}

static const st_code_name branch_names[] = {
    CODE("too_few_values", ST_BRANCH_TOO_FEW_VALUES),
    CODE("constant_samples", ST_BRANCH_CONSTANT),
    CODE("need_more_runs", ST_BRANCH_NEED_MORE_RUNS),
    CODE("student_normal", ST_BRANCH_STUDENT_NORMAL),
    CODE("welch_normal", ST_BRANCH_WELCH_NORMAL),
    CODE("student_not_normal", ST_BRANCH_STUDENT_NOT_NORMAL),
    CODE("welch_not_normal", ST_BRANCH_WELCH_NOT_NORMAL),
    CODE("wilcoxon_model_holds", ST_BRANCH_WILCOXON_MODEL),
    CODE("wilcoxon_model_rejected", ST_BRANCH_WILCOXON_NO_MODEL),
    CODE("paired_signed_rank", ST_BRANCH_PAIRED_SIGNED_RANK),
    CODE("paired_t_normal", ST_BRANCH_PAIRED_T_NORMAL),
    CODE("paired_t_not_normal", ST_BRANCH_PAIRED_T_NOT_NORMAL),
    CODE("prob_permutation", ST_BRANCH_PROB_PERMUTATION),
    CODE("prob_t", ST_BRANCH_PROB_T),
    CODE("paired_sign", ST_BRANCH_PAIRED_SIGN)
};

static const st_code_name step_names[] = {
    CODE("shapiro_x", ST_STEP_SHAPIRO_X),
    CODE("shapiro_y", ST_STEP_SHAPIRO_Y),
    CODE("f_test", ST_STEP_F_TEST),
    CODE("t_test", ST_STEP_T_TEST),
    CODE("ks_test", ST_STEP_KS_TEST),
    CODE("wilcoxon", ST_STEP_WILCOXON),
    CODE("shapiro_d", ST_STEP_SHAPIRO_D),
    CODE("paired_t", ST_STEP_PAIRED_T),
    CODE("signed_rank", ST_STEP_SIGNED_RANK),
    CODE("brunner_munzel", ST_STEP_BRUNNER_MUNZEL),
    CODE("sign_test", ST_STEP_SIGN_TEST)
};

static const st_code_name caveat_names[] = {
    CODE("x_not_normal", ST_CAVEAT_X_NOT_NORMAL),
    CODE("y_not_normal", ST_CAVEAT_Y_NOT_NORMAL),
    CODE("x_few_runs", ST_CAVEAT_X_FEW_RUNS),
    CODE("y_few_runs", ST_CAVEAT_Y_FEW_RUNS),
    CODE("no_location_model", ST_CAVEAT_NO_LOCATION_MODEL),
    CODE("constant", ST_CAVEAT_CONSTANT),
    CODE("too_few_values", ST_CAVEAT_TOO_FEW_VALUES),
    CODE("x_uncheckable", ST_CAVEAT_X_UNCHECKABLE),
    CODE("y_uncheckable", ST_CAVEAT_Y_UNCHECKABLE)
};

static const st_code_name decision_names[] = {
    CODE("insufficient", ST_INSUFFICIENT),
    CODE("not_significant", ST_NOT_SIGNIFICANT),
    CODE("significant", ST_SIGNIFICANT)
};

static const st_code_name status_names[] = {
    CODE("ok", ST_OK),
    CODE("too_few", ST_ERR_TOO_FEW),
    CODE("too_many", ST_ERR_TOO_MANY),
    CODE("constant", ST_ERR_CONSTANT),
    CODE("alloc", ST_ERR_ALLOC),
    CODE("domain", ST_ERR_DOMAIN),
    CODE("interrupted", ST_ERR_INTERRUPTED),
    CODE("unsupported", ST_ERR_UNSUPPORTED)
};

static const st_code_name protocol_names[] = {
    CODE("mean", ST_PROTO_MEAN),
    CODE("median", ST_PROTO_MEDIAN),
    CODE("prob", ST_PROTO_PROB)
};

static const st_code_name direction_names[] = {
    CODE("na", ST_DIRECTION_NA),
    CODE("none", ST_DIRECTION_NONE),
    CODE("speedup", ST_DIRECTION_SPEEDUP),
    CODE("slowdown", ST_DIRECTION_SLOWDOWN),
    CODE("equivalent", ST_DIRECTION_EQUIVALENT)
};

#define COUNT(a) ((int) (sizeof(a) / sizeof((a)[0])))

static SEXP code_vector(const st_code_name *t, int n)
{
    SEXP out = PROTECT(Rf_allocVector(INTSXP, n));
    SEXP nms = PROTECT(Rf_allocVector(STRSXP, n));
    for (int i = 0; i < n; i++) {
        INTEGER(out)[i] = t[i].code;
        SET_STRING_ELT(nms, i, Rf_mkChar(t[i].name));
    }
    Rf_setAttrib(out, R_NamesSymbol, nms);
    UNPROTECT(2);
    return out;
}

SEXP ffi_codes(void)
{
    static const char *names[] = {
        "branch", "step", "caveat", "decision", "status", "protocol",
        "direction"
    };
    SEXP values[7];
    values[0] = PROTECT(code_vector(branch_names, COUNT(branch_names)));
    values[1] = PROTECT(code_vector(step_names, COUNT(step_names)));
    values[2] = PROTECT(code_vector(caveat_names, COUNT(caveat_names)));
    values[3] = PROTECT(code_vector(decision_names, COUNT(decision_names)));
    values[4] = PROTECT(code_vector(status_names, COUNT(status_names)));
    values[5] = PROTECT(code_vector(protocol_names, COUNT(protocol_names)));
    values[6] = PROTECT(code_vector(direction_names, COUNT(direction_names)));
    SEXP out = ffi_named_list(7, names, values);
    UNPROTECT(7);
    return out;
}
