/*
 * json-fields.c -- the fields of many JSON records in one pass.
 *
 * A Google Benchmark file parsed by jsonlite (without simplification) is a
 * list of records, one named list per run, tens of thousands of them.
 * Taking one field of every record in R (lapply(records, `[[`, key), then
 * a type check per element) costs a function call per record and field.
 * Here each record is visited once: its names are scanned once for all the
 * wanted keys, the value of each key being the first element of that name,
 * as `[[` with exact matching finds it, and the value is classified as R
 * code would see it.  A name is compared with a key first by identity (R
 * keeps one copy of each ASCII string, so equal ASCII strings are one
 * object), then by its bytes.  This works on R objects (the parse of
 * jsonlite), so it is an entry point only, with no core part.
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

/* The kind of value v of a found field for the wanted type vt. */
static int field_kind(SEXP v, SEXPTYPE vt)
{
    R_xlen_t len = Rf_xlength(v);
    if (len == 0) return FIELD_EMPTY;
    if (len != 1) return FIELD_OTHER;
    if (vt == STRSXP) return TYPEOF(v) == STRSXP ? FIELD_SCALAR : FIELD_OTHER;
    if (vt == LGLSXP) return TYPEOF(v) == LGLSXP ? FIELD_SCALAR : FIELD_OTHER;
    return TYPEOF(v) == REALSXP || TYPEOF(v) == INTSXP ? FIELD_SCALAR : FIELD_OTHER;
}

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
    R_xlen_t n = XLENGTH(records);
    int nk = (int) XLENGTH(keys);
    if (XLENGTH(keys) > 64) Rf_error("`keys` must hold at most 64 keys");
    SEXP out = PROTECT(Rf_allocVector(VECSXP, nk));
    SEXP kinds = PROTECT(Rf_allocVector(VECSXP, nk));
    SEXP values = PROTECT(Rf_allocVector(VECSXP, nk));
    SEXP kchar[64];
    size_t klen[64];
    SEXPTYPE vtype[64];
    int *kd[64];
    for (int k = 0; k < nk; k++) {
        kchar[k] = STRING_ELT(keys, k);
        klen[k] = strlen(CHAR(kchar[k]));
        char type = CHAR(STRING_ELT(types, k))[0];
        vtype[k] = type == 's' ? STRSXP : type == 'b' ? LGLSXP : REALSXP;
        SET_VECTOR_ELT(kinds, k, Rf_allocVector(INTSXP, n));
        SET_VECTOR_ELT(values, k, Rf_allocVector(vtype[k], n));
        kd[k] = INTEGER(VECTOR_ELT(kinds, k));
    }
    SEXP found[64];
    for (R_xlen_t i = 0; i < n; i++) {
        if (i % 65536 == 65535) R_CheckUserInterrupt();
        SEXP r = VECTOR_ELT(records, i);
        SEXP nm = TYPEOF(r) == VECSXP ? Rf_getAttrib(r, R_NamesSymbol) : R_NilValue;
        int left = nk;
        for (int k = 0; k < nk; k++) found[k] = NULL;
        if (TYPEOF(nm) == STRSXP) {
            R_xlen_t m = XLENGTH(nm);
            for (R_xlen_t j = 0; j < m && left > 0; j++) {
                SEXP s = STRING_ELT(nm, j);
                if (s == NA_STRING) continue;
                for (int k = 0; k < nk; k++) {
                    if (found[k] != NULL) continue;
                    if (s == kchar[k] ||
                        ((size_t) LENGTH(s) == klen[k] &&
                         memcmp(CHAR(s), CHAR(kchar[k]), klen[k]) == 0)) {
                        found[k] = VECTOR_ELT(r, j);
                        left--;
                    }
                }
            }
        }
        for (int k = 0; k < nk; k++) {
            SEXP v = found[k];
            SEXPTYPE vt = vtype[k];
            int kd_i = v == NULL ? FIELD_ABSENT : field_kind(v, vt);
            kd[k][i] = kd_i;
            SEXP value = VECTOR_ELT(values, k);
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
    }
    const char *names[] = {"kind", "value"};
    for (int k = 0; k < nk; k++) {
        SEXP vals[] = {VECTOR_ELT(kinds, k), VECTOR_ELT(values, k)};
        SET_VECTOR_ELT(out, k, ffi_named_list(2, names, vals));
    }
    Rf_setAttrib(out, R_NamesSymbol, keys);
    UNPROTECT(3);
    return out;
}
