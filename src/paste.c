/*
 * paste.c -- rows of text joined from pieces, as paste0() joins them, in
 * one pass: each row's pieces are copied into one buffer and the row made
 * a string once (paste0() measures, copies and converts every piece of
 * every row through its generic path; on the long sentences of a suite's
 * notes this pass costs about two thirds of it).  Only text that needs no
 * translation is joined here: ASCII, or marked UTF-8 (a row with a UTF-8
 * piece is marked UTF-8, as paste0() marks it; missing text is "NA");
 * otherwise the caller is told to use paste0().
 * R's API only (Writing R Extensions, "Handling character data").
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "ffi.h"

/* pieces: a list of character vectors, each of length 1 or n; returns the
 * n rows, or NULL when a piece is not a character vector of such a length
 * or its text would need a translation. */
SEXP ffi_paste_rows(SEXP pieces, SEXP n_rows)
{
    if (TYPEOF(pieces) != VECSXP) return R_NilValue;
    /* a whole number of rows R can hold (NaN, Inf and fractions refused
     * before the conversion, which would be undefined for them) */
    double dn = Rf_asReal(n_rows);
    if (!(dn >= 0 && dn <= (double) R_XLEN_T_MAX) || dn != floor(dn))
        return R_NilValue;
    R_xlen_t n = (R_xlen_t) dn;
    R_xlen_t k = XLENGTH(pieces);
    for (R_xlen_t j = 0; j < k; j++) {
        SEXP v = VECTOR_ELT(pieces, j);
        if (TYPEOF(v) != STRSXP || (XLENGTH(v) != 1 && XLENGTH(v) != n))
            return R_NilValue;
    }
    SEXP out = PROTECT(Rf_allocVector(STRSXP, n));
    size_t cap = 1024;
    char *buf = R_alloc(cap, 1);
    /* the string of each piece last found to need no translation: the
     * rows repeat a few strings (a piece of length 1, a suite's caveats),
     * which are scanned once */
    SEXP *checked = (SEXP *) R_alloc(k ? (size_t) k : 1, sizeof(SEXP));
    for (R_xlen_t j = 0; j < k; j++) checked[j] = NULL;
    for (R_xlen_t i = 0; i < n; i++) {
        size_t len = 0;
        int utf8 = 0;
        for (R_xlen_t j = 0; j < k; j++) {
            SEXP v = VECTOR_ELT(pieces, j);
            SEXP s = STRING_ELT(v, XLENGTH(v) == 1 ? 0 : i);
            const char *c;
            size_t l;
            if (s == NA_STRING) {
                c = "NA";
                l = 2;
            } else {
                c = CHAR(s);
                l = (size_t) LENGTH(s);
                if (Rf_getCharCE(s) == CE_UTF8) {
                    utf8 = 1;
                } else if (s != checked[j]) {
                    /* text in another encoding: ASCII only */
                    for (size_t b = 0; b < l; b++) {
                        if ((unsigned char) c[b] >= 0x80) {
                            UNPROTECT(1);
                            return R_NilValue;
                        }
                    }
                    checked[j] = s;
                }
            }
            if (len + l + 1 > cap) {
                size_t want = 2 * (len + l + 1);
                char *nb = R_alloc(want, 1);
                memcpy(nb, buf, len);
                buf = nb;
                cap = want;
            }
            memcpy(buf + len, c, l);
            len += l;
        }
        if (len > INT_MAX) {
            UNPROTECT(1);
            return R_NilValue;
        }
        SET_STRING_ELT(out, i, Rf_mkCharLenCE(buf, (int) len,
                                              utf8 ? CE_UTF8 : CE_NATIVE));
    }
    UNPROTECT(1);
    return out;
}
