/*
 * json-fields.c -- the fields of many JSON records in one pass.
 *
 * A Google Benchmark file parsed by jsonlite (without simplification) is a
 * list of records, one named list per run, tens of thousands of them.
 * Taking one field of every record in R (lapply(records, `[[`, key), then
 * a type check per element) costs a function call per record and field.
 * Here each record's names are scanned once per wanted key, as `[[` with
 * exact matching does (the first element of that name), and the value is
 * classified as R code would see it.  This works on R objects (the parse
 * of jsonlite), so it is an entry point only, with no core part.
 */
#include <string.h>
#include "ffi.h"

/* The kinds of a field's value, the same codes as the R side uses. */
enum {
    FIELD_ABSENT = 0, /* the record is not a list, or has no such name */
    FIELD_EMPTY = 1,  /* null, [] or {}: length 0 */
    FIELD_SCALAR = 2, /* one value of the wanted type */
    FIELD_OTHER = 3   /* another type, or several values */
};

/* For records (a list) and keys (a character vector) with the wanted type
 * of each ("s" a string, "n" a number, "b" a logical): a list with, per
 * key, list(kind = integer codes above, value = the value where the kind is
 * FIELD_SCALAR, NA elsewhere; a double for "n", text for "s", logical for
 * "b"). */
SEXP ffi_json_fields(SEXP records, SEXP keys, SEXP types)
{
    if (TYPEOF(records) != VECSXP) Rf_error("`records` must be a list");
    if (TYPEOF(keys) != STRSXP || TYPEOF(types) != STRSXP ||
        XLENGTH(types) != XLENGTH(keys))
        Rf_error("`keys` and `types` must be character vectors of one length");
    R_xlen_t n = XLENGTH(records), nk = XLENGTH(keys);
    SEXP out = PROTECT(Rf_allocVector(VECSXP, nk));
    for (R_xlen_t k = 0; k < nk; k++) {
        const char *key = CHAR(STRING_ELT(keys, k));
        char type = CHAR(STRING_ELT(types, k))[0];
        SEXPTYPE vt = type == 's' ? STRSXP : type == 'b' ? LGLSXP : REALSXP;
        SEXP kind = PROTECT(Rf_allocVector(INTSXP, n));
        SEXP value = PROTECT(Rf_allocVector(vt, n));
        int *kd = INTEGER(kind);
        for (R_xlen_t i = 0; i < n; i++) {
            if (i % 65536 == 65535) R_CheckUserInterrupt();
            SEXP r = VECTOR_ELT(records, i);
            SEXP nm = TYPEOF(r) == VECSXP ? Rf_getAttrib(r, R_NamesSymbol) : R_NilValue;
            SEXP v = R_NilValue;
            int found = 0;
            if (TYPEOF(nm) == STRSXP) {
                R_xlen_t m = XLENGTH(nm);
                for (R_xlen_t j = 0; j < m; j++) {
                    SEXP s = STRING_ELT(nm, j);
                    if (s != NA_STRING && strcmp(CHAR(s), key) == 0) {
                        v = VECTOR_ELT(r, j);
                        found = 1;
                        break;
                    }
                }
            }
            int kd_i;
            if (!found) kd_i = FIELD_ABSENT;
            else if (Rf_length(v) == 0) kd_i = FIELD_EMPTY;
            else if (Rf_length(v) != 1) kd_i = FIELD_OTHER;
            else if (vt == STRSXP) kd_i = TYPEOF(v) == STRSXP ? FIELD_SCALAR : FIELD_OTHER;
            else if (vt == LGLSXP) kd_i = TYPEOF(v) == LGLSXP ? FIELD_SCALAR : FIELD_OTHER;
            else kd_i = TYPEOF(v) == REALSXP || TYPEOF(v) == INTSXP ? FIELD_SCALAR : FIELD_OTHER;
            kd[i] = kd_i;
            if (vt == STRSXP) {
                SET_STRING_ELT(value, i, kd_i == FIELD_SCALAR ? STRING_ELT(v, 0) : NA_STRING);
            } else if (vt == LGLSXP) {
                LOGICAL(value)[i] = kd_i == FIELD_SCALAR ? LOGICAL(v)[0] : NA_LOGICAL;
            } else if (kd_i != FIELD_SCALAR) {
                REAL(value)[i] = NA_REAL;
            } else if (TYPEOF(v) == INTSXP) {
                int x = INTEGER(v)[0];
                REAL(value)[i] = x == NA_INTEGER ? NA_REAL : (double) x;
            } else {
                REAL(value)[i] = REAL(v)[0];
            }
        }
        const char *names[] = {"kind", "value"};
        SEXP values[] = {kind, value};
        SET_VECTOR_ELT(out, k, ffi_named_list(2, names, values));
        UNPROTECT(2);
    }
    Rf_setAttrib(out, R_NamesSymbol, keys);
    UNPROTECT(1);
    return out;
}
