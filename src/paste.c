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
#include <stdint.h>
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

/* ---- rows joined when read ---------------------------------------------- */

/*
 * The same rows made when first read: a character vector (an ALTREP
 * string vector, R_ext/Altrep.h) holding the pieces of several groups of
 * rows (each group a list of character pieces of length 1 or of the
 * group's size, as ffi_paste_rows takes them) and, for each row, its
 * group and its row in the group.  A row's string is made by the join of
 * ffi_paste_rows when an element is read and kept; the whole vector is
 * made when its data are asked for (sorting, most of R's vector code).
 * A suite's notes are such rows: thousands of sentences that most uses
 * never read.  Written out (saveRDS()) it is a plain character vector.
 * A piece may also be coded: an integer vector (of length 1 or the
 * group's size) with a character attribute "levels", row i's text being
 * levels[piece[i]] ("NA" for NA), as a factor's; a suite's pieces repeat a
 * few hundred strings over thousands of rows, which are then neither
 * copied into a vector per piece nor checked more than once.
 *
 * data1: list(groups, group, row, done), done a logical flag set once
 * every row is made; data2: the rows made so far (NA_STRING: not yet;
 * a joined row is never NA).
 */
#include <R_ext/Altrep.h>

static R_altrep_class_t lazy_rows_class;

/* the string of row i (0-based) of a piece, plain or coded */
static SEXP piece_elt(SEXP v, R_xlen_t i)
{
    R_xlen_t at = XLENGTH(v) == 1 ? 0 : i;
    if (TYPEOF(v) == STRSXP) return STRING_ELT(v, at);
    int code = INTEGER(v)[at];
    if (code == NA_INTEGER) return NA_STRING;
    return STRING_ELT(Rf_getAttrib(v, R_LevelsSymbol), code - 1);
}

/* row i (0-based) of group pieces `p` joined into buf (grown with
 * R_alloc); the string, marked UTF-8 when a piece is */
static SEXP lazy_join(SEXP p, R_xlen_t i)
{
    R_xlen_t k = XLENGTH(p);
    size_t len = 0;
    int utf8 = 0;
    for (R_xlen_t j = 0; j < k; j++) {
        SEXP s = piece_elt(VECTOR_ELT(p, j), i);
        if (s == NA_STRING) {
            len += 2;
        } else {
            len += (size_t) LENGTH(s);
            if (Rf_getCharCE(s) == CE_UTF8) utf8 = 1;
        }
    }
    if (len > INT_MAX) Rf_error("a row of text is too long.");
    const void *vmax = vmaxget();
    char *buf = R_alloc(len + 1, 1);
    size_t at = 0;
    for (R_xlen_t j = 0; j < k; j++) {
        SEXP s = piece_elt(VECTOR_ELT(p, j), i);
        const char *c = s == NA_STRING ? "NA" : CHAR(s);
        size_t l = s == NA_STRING ? 2 : (size_t) LENGTH(s);
        memcpy(buf + at, c, l);
        at += l;
    }
    SEXP out = Rf_mkCharLenCE(buf, (int) len, utf8 ? CE_UTF8 : CE_NATIVE);
    vmaxset(vmax);
    return out;
}

static R_xlen_t lazy_length(SEXP x)
{
    return XLENGTH(R_altrep_data2(x));
}

static SEXP lazy_elt(SEXP x, R_xlen_t i)
{
    SEXP made = R_altrep_data2(x);
    SEXP s = STRING_ELT(made, i);
    if (s != NA_STRING) return s;
    SEXP d = R_altrep_data1(x);
    int g = INTEGER(VECTOR_ELT(d, 1))[i] - 1;
    int r = INTEGER(VECTOR_ELT(d, 2))[i] - 1;
    s = lazy_join(VECTOR_ELT(VECTOR_ELT(d, 0), g), r);
    SET_STRING_ELT(made, i, s);
    return s;
}

/* every row made: the vector of rows itself */
static SEXP lazy_made(SEXP x)
{
    SEXP d = R_altrep_data1(x);
    SEXP made = R_altrep_data2(x);
    int *done = LOGICAL(VECTOR_ELT(d, 3));
    if (!*done) {
        R_xlen_t n = XLENGTH(made);
        for (R_xlen_t i = 0; i < n; i++) lazy_elt(x, i);
        *done = 1;
    }
    return made;
}

static void *lazy_dataptr(SEXP x, Rboolean writeable)
{
    return (void *) STRING_PTR_RO(lazy_made(x));
}

static const void *lazy_dataptr_or_null(SEXP x)
{
    SEXP d = R_altrep_data1(x);
    if (!LOGICAL(VECTOR_ELT(d, 3))[0]) return NULL;
    return (const void *) STRING_PTR_RO(R_altrep_data2(x));
}

/* a copy is a plain vector of the rows, made before the copy is
 * allocated (so that no row is made while R copies the data) */
static SEXP lazy_duplicate(SEXP x, Rboolean deep)
{
    return Rf_duplicate(lazy_made(x));
}

static void lazy_set_elt(SEXP x, R_xlen_t i, SEXP v)
{
    SET_STRING_ELT(lazy_made(x), i, v);
}

static Rboolean lazy_inspect(SEXP x, int pre, int deep, int pvec,
                             void (*inspect_subtree)(SEXP, int, int, int))
{
    Rprintf(" speeduptest rows joined when read\n");
    return TRUE;
}

void st_paste_init(DllInfo *dll)
{
    lazy_rows_class = R_make_altstring_class("lazy_rows", "speeduptest", dll);
    R_set_altrep_Length_method(lazy_rows_class, lazy_length);
    R_set_altrep_Inspect_method(lazy_rows_class, lazy_inspect);
    R_set_altrep_Duplicate_method(lazy_rows_class, lazy_duplicate);
    R_set_altvec_Dataptr_method(lazy_rows_class, lazy_dataptr);
    R_set_altvec_Dataptr_or_null_method(lazy_rows_class, lazy_dataptr_or_null);
    R_set_altstring_Elt_method(lazy_rows_class, lazy_elt);
    R_set_altstring_Set_elt_method(lazy_rows_class, lazy_set_elt);
}

/* groups: a list of groups, each a list of pieces (character or coded)
 * of length 1 or sizes[g]; group, row: for each row its group (1-based) and its row
 * in the group (1-based).  The rows as a vector made when read, or NULL
 * when a piece is not such a vector or its text would need a translation
 * (the caller then joins them with paste0()). */
SEXP ffi_paste_rows_lazy(SEXP groups, SEXP sizes, SEXP group, SEXP row)
{
    if (TYPEOF(groups) != VECSXP || TYPEOF(sizes) != INTSXP ||
        TYPEOF(group) != INTSXP || TYPEOF(row) != INTSXP ||
        XLENGTH(sizes) != XLENGTH(groups) || XLENGTH(group) != XLENGTH(row))
        return R_NilValue;
    R_xlen_t ng = XLENGTH(groups), n = XLENGTH(group);
    const int *sz = INTEGER(sizes);
    /* the pieces already checked (groups share pieces: each is checked
     * once), and the strings last found to be ASCII, by a hash of their
     * address (a piece repeats a few long strings, not always in a row) */
    R_xlen_t n_pieces = 0;
    for (R_xlen_t g = 0; g < ng; g++) {
        SEXP p = VECTOR_ELT(groups, g);
        if (TYPEOF(p) != VECSXP) return R_NilValue;
        n_pieces += XLENGTH(p);
    }
    SEXP *seen = (SEXP *) R_alloc(n_pieces ? (size_t) n_pieces : 1, sizeof(SEXP));
    R_xlen_t n_seen = 0;
    SEXP ascii[256];
    for (int c = 0; c < 256; c++) ascii[c] = NULL;
    for (R_xlen_t g = 0; g < ng; g++) {
        SEXP p = VECTOR_ELT(groups, g);
        if (sz[g] == NA_INTEGER || sz[g] < 0) return R_NilValue;
        for (R_xlen_t j = 0; j < XLENGTH(p); j++) {
            SEXP v = VECTOR_ELT(p, j);
            if ((TYPEOF(v) != STRSXP && TYPEOF(v) != INTSXP) ||
                (XLENGTH(v) != 1 && XLENGTH(v) != sz[g]))
                return R_NilValue;
            int known = 0;
            for (R_xlen_t k = 0; k < n_seen && !known; k++) known = seen[k] == v;
            if (known) continue;
            seen[n_seen++] = v;
            if (TYPEOF(v) == INTSXP) {
                /* coded: every code a level (or NA); the levels are checked */
                SEXP lev = Rf_getAttrib(v, R_LevelsSymbol);
                if (TYPEOF(lev) != STRSXP) return R_NilValue;
                const int *code = INTEGER(v);
                R_xlen_t nv = XLENGTH(v), nl = XLENGTH(lev);
                for (R_xlen_t i = 0; i < nv; i++) {
                    if (code[i] != NA_INTEGER && (code[i] < 1 || code[i] > nl))
                        return R_NilValue;
                }
                v = lev;
            }
            R_xlen_t nv = XLENGTH(v);
            for (R_xlen_t i = 0; i < nv; i++) {
                SEXP s = STRING_ELT(v, i);
                size_t h = ((size_t) (uintptr_t) s >> 4) & 255;
                if (s == NA_STRING || s == ascii[h] || Rf_getCharCE(s) == CE_UTF8)
                    continue;
                const char *c = CHAR(s);
                int len = LENGTH(s);
                for (int b = 0; b < len; b++)
                    if ((unsigned char) c[b] >= 0x80) return R_NilValue;
                ascii[h] = s;
            }
        }
    }
    const int *gi = INTEGER(group), *ri = INTEGER(row);
    for (R_xlen_t i = 0; i < n; i++) {
        if (gi[i] < 1 || gi[i] > ng || ri[i] < 1 || ri[i] > sz[gi[i] - 1])
            return R_NilValue;
    }
    SEXP d = PROTECT(Rf_allocVector(VECSXP, 4));
    SET_VECTOR_ELT(d, 0, groups);
    SET_VECTOR_ELT(d, 1, group);
    SET_VECTOR_ELT(d, 2, row);
    /* (a vector of its own: Rf_ScalarLogical() gives R's shared constants) */
    SEXP done = Rf_allocVector(LGLSXP, 1);
    LOGICAL(done)[0] = n == 0;
    SET_VECTOR_ELT(d, 3, done);
    SEXP made = PROTECT(Rf_allocVector(STRSXP, n));
    for (R_xlen_t i = 0; i < n; i++) SET_STRING_ELT(made, i, NA_STRING);
    SEXP out = R_new_altrep(lazy_rows_class, d, made);
    UNPROTECT(2);
    return out;
}
