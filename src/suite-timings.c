/*
 * suite-timings.c -- the runs of timings grouped by benchmark and version
 * in one pass, for a suite read from real files: a stable counting sort of
 * the rows by their group code (benchmark and version), then, within each
 * group whose runs are not already in recorded order, a stable merge sort
 * by the recorded run number (Knuth, The Art of Computer Programming,
 * vol. 3, sections 5.2 (counting sort, algorithm D) and 5.2.4 (merging)).
 * The result is the row order R's order(group, run) gives (ties kept in
 * row order), found in O(n) when each group is already in run order, as
 * the files of every tool write it.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "speeduptest.h"

/* Stable merge sort of the row indices idx[0..n) by run[idx[.]]; tmp
 * holds n indices. */
static void merge_by_run(int *idx, int *tmp, size_t n, const double *run)
{
    if (n < 2) return;
    /* bottom-up: runs of width w merged into tmp, then swapped back */
    int *a = idx, *b = tmp;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n;
            size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                b[k++] = run[a[j]] < run[a[i]] ? a[j++] : a[i++];
            while (i < mid) b[k++] = a[i++];
            while (j < hi) b[k++] = a[j++];
        }
        int *t = a;
        a = b;
        b = t;
    }
    if (a != idx) memcpy(idx, a, n * sizeof(int));
}

int st_group_order(const int *group, const double *run, size_t n, size_t ng,
                   int *order, int *count)
{
    size_t *next = st_malloc(ng + 1, sizeof(size_t));
    if (!next) return ST_ERR_ALLOC;
    for (size_t g = 0; g < ng; g++) count[g] = 0;
    for (size_t i = 0; i < n; i++) {
        if (group[i] < 1 || (size_t) group[i] > ng) {
            free(next);
            return ST_ERR_DOMAIN;
        }
        count[group[i] - 1]++;
    }
    next[0] = 0;
    for (size_t g = 0; g < ng; g++) next[g + 1] = next[g] + (size_t) count[g];
    for (size_t i = 0; i < n; i++) order[next[group[i] - 1]++] = (int) i;
    /* next[g] is now the end of group g: its start is next[g] - count[g] */
    int *tmp = NULL;
    int status = ST_OK;
    for (size_t g = 0; g < ng && run; g++) {
        size_t m = (size_t) count[g], from = next[g] - m;
        int *idx = order + from;
        size_t i = 1;
        while (i < m && !(run[idx[i]] < run[idx[i - 1]])) i++;
        if (i >= m) continue;
        if (!tmp && !(tmp = st_malloc(n, sizeof(int)))) {
            status = ST_ERR_ALLOC;
            break;
        }
        merge_by_run(idx, tmp, m, run);
    }
    free(tmp);
    free(next);
    return status;
}

/* ---- R entry points ----------------------------------------------------------- */
#include "ffi.h"

/* group: integer codes 1..ng of the rows; run: NULL or the doubles the
 * rows of a group are ordered by (no NA).  Returns the status, the order
 * of the rows (1-based) and the rows of each group. */
SEXP ffi_group_order(SEXP group, SEXP run, SEXP ng)
{
    if (TYPEOF(group) != INTSXP)
        Rf_error("`group` must be an integer vector of group codes.");
    size_t n = (size_t) XLENGTH(group);
    if (n > (size_t) INT_MAX)
        Rf_error("`group` must have at most %d rows.", INT_MAX);
    const double *pr = NULL;
    if (!Rf_isNull(run)) {
        size_t nr;
        pr = ffi_doubles(run, &nr, "run");
        if (nr != n) Rf_error("`run` must be NULL or as long as `group`.");
    }
    int k = ffi_int(ng, "ng");
    if (k < 0) Rf_error("`ng` must be a count of groups.");
    SEXP order = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) n));
    SEXP count = PROTECT(Rf_allocVector(INTSXP, k));
    int s = st_group_order(INTEGER(group), pr, n, (size_t) k, INTEGER(order),
                           INTEGER(count));
    if (s == ST_OK) {
        int *o = INTEGER(order);
        for (size_t i = 0; i < n; i++) o[i]++;
    }
    static const char *names[] = {"status", "order", "count"};
    SEXP values[3];
    values[0] = PROTECT(Rf_ScalarInteger(s));
    values[1] = order;
    values[2] = count;
    SEXP res = ffi_named_list(3, names, values);
    UNPROTECT(3);
    return res;
}
