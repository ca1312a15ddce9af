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
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ffi.h"

/* ---- the order of the runs of a Google Benchmark file ------------------ */

typedef struct {
    double rep; /* the repetition_index of the run */
    size_t at;  /* its position among the runs of its benchmark, 0-based */
} rep_at;

static int cmp_rep_at(const void *a, const void *b)
{
    const rep_at *x = a, *y = b;
    if (x->rep != y->rep) return x->rep < y->rep ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

/* The n runs of a file, of benchmarks code[i] in 1..k, with repetition
 * indices rep[i] (NaN where missing): run[i] is the position of run i
 * among the runs of its benchmark in the file's order (1-based), and
 * iteration[i] its rank by repetition_index among them when every run of
 * the benchmark has one and they are distinct, else run[i] (the order in
 * which the repetitions ran in the process).  A counting sort by
 * benchmark, then a sort of each benchmark's indices.  ST_ERR_DOMAIN for a
 * code outside 1..k, ST_ERR_ALLOC. */
int st_gbench_order(const int *code, const double *rep, size_t n, int k, int *run,
                    int *iteration)
{
    if (k < 0) return ST_ERR_DOMAIN;
    for (size_t i = 0; i < n; i++)
        if (code[i] < 1 || code[i] > k) return ST_ERR_DOMAIN;
    if (n == 0) return ST_OK;
    size_t *start = st_malloc((size_t) k + 1, sizeof(size_t));
    size_t *rows = st_malloc(n, sizeof(size_t));
    rep_at *work = st_malloc(n, sizeof(rep_at));
    if (!start || !rows || !work) {
        free(start);
        free(rows);
        free(work);
        return ST_ERR_ALLOC;
    }
    for (size_t g = 0; g <= (size_t) k; g++) start[g] = 0;
    for (size_t i = 0; i < n; i++) start[code[i]]++;
    for (size_t g = 1; g <= (size_t) k; g++) start[g] += start[g - 1];
    /* the rows of benchmark g in file order, in rows[start[g] ..
     * start[g + 1]) (n for the last one) */
    for (size_t i = n; i-- > 0;) rows[--start[code[i]]] = i;
    for (size_t g = 1; g <= (size_t) k; g++) {
        size_t lo = start[g], hi = g < (size_t) k ? start[g + 1] : n;
        int ok = 1;
        for (size_t j = lo; j < hi; j++) {
            size_t i = rows[j];
            run[i] = (int) (j - lo + 1);
            work[j].rep = rep[i];
            work[j].at = j - lo;
            if (isnan(rep[i])) ok = 0;
        }
        if (ok && hi - lo > 1) {
            qsort(work + lo, hi - lo, sizeof(rep_at), cmp_rep_at);
            for (size_t j = lo + 1; j < hi && ok; j++)
                if (work[j].rep == work[j - 1].rep) ok = 0;
        }
        for (size_t j = lo; j < hi; j++) {
            if (ok) iteration[rows[lo + work[j].at]] = (int) (j - lo + 1);
            else iteration[rows[j]] = run[rows[j]];
        }
    }
    free(start);
    free(rows);
    free(work);
    return ST_OK;
}

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

/* The value of each of the nk keys kchar (of byte lengths klen) in the
 * record r: found[k] is the first element of r named kchar[k], NULL where
 * r is not a list or has no such name. */
static void record_find(SEXP r, int nk, const SEXP *kchar, const size_t *klen,
                        SEXP *found)
{
    SEXP nm = TYPEOF(r) == VECSXP ? Rf_getAttrib(r, R_NamesSymbol) : R_NilValue;
    int left = nk;
    for (int k = 0; k < nk; k++) found[k] = NULL;
    if (TYPEOF(nm) != STRSXP) return;
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
        record_find(VECTOR_ELT(records, i), nk, kchar, klen, found);
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

/* The value of a numeric field as json_fields() reads it: the number of a
 * scalar double or integer, NA for anything else. */
static double field_number(SEXP v)
{
    if (v == NULL || field_kind(v, REALSXP) != FIELD_SCALAR) return NA_REAL;
    if (TYPEOF(v) == INTSXP) {
        int x = INTEGER(v)[0];
        return x == NA_INTEGER ? NA_REAL : (double) x;
    }
    return REAL(v)[0];
}

/* Whether the string field v (found, a scalar string) is the C string s. */
static int field_is(SEXP v, const char *s)
{
    SEXP c = STRING_ELT(v, 0);
    return c != NA_STRING && strcmp(CHAR(c), s) == 0;
}

/* The runs of a Google Benchmark file's "benchmarks" (records: the list
 * jsonlite parses) in one pass, when the file is clean: every entry an
 * object, none reporting an error (error_occurred true), and every
 * iteration run (run_type "iteration" or none) named by a string
 * run_name or name, with a time_unit among unit_names (or none: the
 * first unit) and the metric a finite number.  The other runs (the
 * aggregates) are left out, as the R reader leaves them out.  Returns
 * list(name, time, iterations, repetition_index) of the iteration runs
 * in the file's order (time in seconds: the metric times the unit's
 * factor among unit_values; iterations and repetition_index NA where
 * they are not numbers), or NULL when the file is not clean or (unless
 * empty_ok, for a block of a file's records) has no iteration run: the R
 * reader (R/import-gbench.R) then reads it with its checks and reports.
 * The values are those the R reader gives a clean file, bit for bit.
 * With `rows` TRUE, each record is instead the array of the values of the
 * keys run_type, error_occurred, run_name, name, time_unit, the metric,
 * iterations and repetition_index, in this order, null where the key is
 * missing (ffi_json_block_text() with `rows`): a missing key and a null
 * value are read alike here. */
SEXP ffi_gbench_runs(SEXP records, SEXP metric, SEXP unit_names, SEXP unit_values,
                     SEXP empty_ok, SEXP rows)
{
    int keep_empty = ffi_flag(empty_ok, "empty_ok");
    int as_rows = ffi_flag(rows, "rows");
    if (TYPEOF(records) != VECSXP) Rf_error("`records` must be a list");
    (void) ffi_string(metric, "metric");
    if (TYPEOF(unit_names) != STRSXP || TYPEOF(unit_values) != REALSXP ||
        XLENGTH(unit_names) != XLENGTH(unit_values) || XLENGTH(unit_names) < 1 ||
        XLENGTH(unit_names) > 16)
        Rf_error("`unit_names` and `unit_values` must be 1 to 16 names and numbers");
    enum { RUN_TYPE, ERROR, RUN_NAME, NAME, UNIT, METRIC, ITERS, REP, NK };
    const char *keys[NK] = {"run_type", "error_occurred", "run_name", "name",
                            "time_unit", NULL, "iterations", "repetition_index"};
    SEXP kvec = PROTECT(Rf_allocVector(STRSXP, NK));
    SEXP kchar[NK];
    size_t klen[NK];
    for (int k = 0; k < NK; k++) {
        SET_STRING_ELT(kvec, k, k == METRIC ? STRING_ELT(metric, 0) : Rf_mkChar(keys[k]));
        kchar[k] = STRING_ELT(kvec, k);
        klen[k] = strlen(CHAR(kchar[k]));
    }
    int nu = (int) XLENGTH(unit_names);
    R_xlen_t n = XLENGTH(records);
    SEXP found[NK];
    PROTECT_INDEX ix[4];
    SEXP name, time, iters, rep;
    PROTECT_WITH_INDEX(name = Rf_allocVector(STRSXP, n), &ix[0]);
    PROTECT_WITH_INDEX(time = Rf_allocVector(REALSXP, n), &ix[1]);
    PROTECT_WITH_INDEX(iters = Rf_allocVector(REALSXP, n), &ix[2]);
    PROTECT_WITH_INDEX(rep = Rf_allocVector(REALSXP, n), &ix[3]);
    double *pt = REAL(time), *pi = REAL(iters), *pr = REAL(rep);
    const double *factor = REAL(unit_values);
    /* one pass: the runs, until a record shows that the file is not clean */
    R_xlen_t runs = 0;
    int clean = 1;
    for (R_xlen_t i = 0; i < n && clean; i++) {
        if (i % 65536 == 65535) R_CheckUserInterrupt();
        SEXP r = VECTOR_ELT(records, i);
        if (TYPEOF(r) != VECSXP || (as_rows && XLENGTH(r) != NK)) {
            clean = 0;
            break;
        }
        if (as_rows) {
            /* null (NULL) reads as a missing member does */
            for (int k = 0; k < NK; k++) found[k] = VECTOR_ELT(r, k);
        } else {
            record_find(r, NK, kchar, klen, found);
        }
        SEXP e = found[ERROR];
        if (e != NULL && field_kind(e, LGLSXP) == FIELD_SCALAR && LOGICAL(e)[0] == TRUE) {
            clean = 0;
            break;
        }
        SEXP t = found[RUN_TYPE];
        int kt = t == NULL ? FIELD_ABSENT : field_kind(t, STRSXP);
        if (kt == FIELD_OTHER || (kt == FIELD_SCALAR && !field_is(t, "iteration"))) continue;
        /* the name: run_name, else name */
        SEXP v = NULL;
        for (int k = RUN_NAME; k <= NAME && v == NULL; k++) {
            SEXP f = found[k];
            if (f != NULL && field_kind(f, STRSXP) == FIELD_SCALAR &&
                STRING_ELT(f, 0) != NA_STRING)
                v = f;
        }
        if (v == NULL) {
            clean = 0;
            break;
        }
        /* the unit: none (the first), else one of unit_names */
        SEXP u = found[UNIT];
        int ku = u == NULL ? FIELD_ABSENT : field_kind(u, STRSXP);
        int q = 0;
        if (ku == FIELD_OTHER) {
            clean = 0;
            break;
        }
        if (ku == FIELD_SCALAR) {
            while (q < nu && !field_is(u, CHAR(STRING_ELT(unit_names, q)))) q++;
            if (q == nu) {
                clean = 0;
                break;
            }
        }
        double x = field_number(found[METRIC]);
        if (!R_FINITE(x)) {
            clean = 0;
            break;
        }
        SET_STRING_ELT(name, runs, STRING_ELT(v, 0));
        pt[runs] = x * factor[q];
        pi[runs] = field_number(found[ITERS]);
        pr[runs] = field_number(found[REP]);
        runs++;
    }
    if (!clean || (runs == 0 && !keep_empty)) {
        UNPROTECT(5);
        return R_NilValue;
    }
    if (runs < n) {
        /* the aggregates left out */
        REPROTECT(name = Rf_xlengthgets(name, runs), ix[0]);
        REPROTECT(time = Rf_xlengthgets(time, runs), ix[1]);
        REPROTECT(iters = Rf_xlengthgets(iters, runs), ix[2]);
        REPROTECT(rep = Rf_xlengthgets(rep, runs), ix[3]);
    }
    const char *names[] = {"name", "time", "iterations", "repetition_index"};
    SEXP vals[] = {name, time, iters, rep};
    SEXP out = ffi_named_list(4, names, vals);
    UNPROTECT(5);
    return out;
}

/* st_gbench_order() of codes (integers in 1..k) and repetition indices
 * (doubles, NA where missing): list(run, iteration). */
SEXP ffi_gbench_order(SEXP code, SEXP rep, SEXP k)
{
    if (TYPEOF(code) != INTSXP) Rf_error("`code` must be integer codes");
    size_t nr;
    const double *r = ffi_doubles(rep, &nr, "rep");
    size_t n = (size_t) XLENGTH(code);
    if (nr != n) Rf_error("`code` and `rep` must have the same length");
    if (n > (size_t) INT_MAX) Rf_error("too many runs");
    int kk = ffi_int(k, "k");
    SEXP run = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) n));
    SEXP it = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) n));
    int status = st_gbench_order(INTEGER(code), r, n, kk, INTEGER(run), INTEGER(it));
    if (status == ST_ERR_ALLOC) Rf_error("out of memory");
    if (status != ST_OK) Rf_error("`code` must hold codes in 1..k");
    const char *names[] = {"run", "iteration"};
    SEXP vals[] = {run, it};
    SEXP out = ffi_named_list(2, names, vals);
    UNPROTECT(2);
    return out;
}
