/*
 * round-text.c -- the distinct values of round(x, digits) and the position
 * of each x among them: what unique() and match() give on R's round() (the
 * figures of a suite's notes, R/format-utils.R round_text()), in one pass
 * through one hash table instead of R's two, so that each distinct value
 * is written once.  The rounding is Rmath's fround(), the function R's
 * round() calls.  Values are compared by ==, as unique() compares them: 0
 * and -0 are one value (the first seen is kept).  NA and NaN get no value:
 * their index is 0.
 * The table is open addressing with linear probing (Knuth, The Art of
 * Computer Programming, vol. 3, section 6.4, algorithm L), hashed by
 * Fibonacci hashing of the value's bits (ibid., multiplicative hashing).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <Rmath.h>

#include "ffi.h"

static size_t round_slot(double v, int bits)
{
    uint64_t u;
    if (v == 0) v = 0; /* -0 hashes as 0 */
    memcpy(&u, &v, sizeof u);
    return (size_t) ((u * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - bits));
}

int st_round_index(const double *x, size_t n, double digits, double *uniq,
                   int *index, size_t *n_uniq)
{
    *n_uniq = 0;
    if (n > (size_t) INT32_MAX) return ST_ERR_DOMAIN;
    /* at least twice as many slots as values: probes stay short */
    int bits = 4;
    while (((size_t) 1 << bits) < 2 * n) bits++;
    size_t size = (size_t) 1 << bits, mask = size - 1;
    int *table = malloc(size * sizeof *table);
    if (!table) return ST_ERR_ALLOC;
    for (size_t s = 0; s < size; s++) table[s] = -1;
    size_t nu = 0;
    for (size_t i = 0; i < n; i++) {
        double v = fround(x[i], digits);
        if (isnan(v)) {
            index[i] = 0;
            continue;
        }
        size_t s = round_slot(v, bits);
        while (table[s] >= 0 && uniq[table[s]] != v) s = (s + 1) & mask;
        if (table[s] < 0) {
            table[s] = (int) nu;
            uniq[nu++] = v;
        }
        index[i] = table[s] + 1;
    }
    free(table);
    *n_uniq = nu;
    return ST_OK;
}

/* list(values, index): the distinct rounded values, and for each x its
 * position among them (1-based), length(values) + 1 for NA and NaN. */
SEXP ffi_round_index(SEXP x, SEXP digits)
{
    size_t n, nu;
    const double *xv = ffi_doubles(x, &n, "x");
    double d = ffi_double(digits, "digits");
    double *uniq = (double *) R_alloc(n ? n : 1, sizeof(double));
    SEXP index = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) n));
    int *ix = INTEGER(index);
    int st = st_round_index(xv, n, d, uniq, ix, &nu);
    if (st != ST_OK) Rf_error("round_index failed (status %d).", st);
    for (size_t i = 0; i < n; i++)
        if (ix[i] == 0) ix[i] = (int) nu + 1;
    SEXP values = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) nu));
    if (nu) memcpy(REAL(values), uniq, nu * sizeof(double));
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 2));
    SET_VECTOR_ELT(out, 0, values);
    SET_VECTOR_ELT(out, 1, index);
    UNPROTECT(3);
    return out;
}
