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
#include <float.h>
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
        if ((g & 1023) == 1023 && st_check_interrupt()) {
            status = ST_ERR_INTERRUPTED;
            break;
        }
    }
    free(tmp);
    free(next);
    return status;
}

/* The runs of timings grouped by benchmark and version: row i of benchmark
 * bench[i] (1..nb) and version version[i] (1 or 2) goes to group
 * 2 (bench[i] - 1) + version[i]; st_group_order() of those groups by run
 * (run may be NULL).  *clean tells whether every time is finite and
 * positive (time may be NULL: not checked, *clean 1). */
int st_timings_group(const int *bench, const int *version, const double *run,
                     const double *time, size_t n, size_t nb, int *order,
                     int *count, int *clean)
{
    if (nb > (size_t) INT_MAX / 2) return ST_ERR_TOO_MANY;
    int *group = st_malloc(n, sizeof(int));
    if (!group) return ST_ERR_ALLOC;
    *clean = 1;
    for (size_t i = 0; i < n; i++) {
        int b = bench[i], v = version[i];
        if (b < 1 || (size_t) b > nb || (v != 1 && v != 2)) {
            free(group);
            return ST_ERR_DOMAIN;
        }
        group[i] = 2 * (b - 1) + v;
        if (time && !(time[i] > 0 && time[i] <= DBL_MAX)) *clean = 0;
    }
    int status = st_group_order(group, run, n, 2 * nb, order, count);
    free(group);
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

/* bench, version: integer codes (1..nb, 1..2); run: NULL, or integer or
 * double run numbers (no NA); time: the double times.  Returns the status,
 * the order of the rows (1-based), the rows of each (benchmark, version)
 * group and whether every time is finite and positive. */
SEXP ffi_timings_group(SEXP bench, SEXP version, SEXP run, SEXP time, SEXP nb)
{
    if (TYPEOF(bench) != INTSXP || TYPEOF(version) != INTSXP)
        Rf_error("`bench` and `version` must be integer codes.");
    size_t n = (size_t) XLENGTH(bench);
    if ((size_t) XLENGTH(version) != n)
        Rf_error("`bench` and `version` must have the same length.");
    if (n > (size_t) INT_MAX)
        Rf_error("`bench` must have at most %d rows.", INT_MAX);
    size_t nt;
    const double *pt = ffi_doubles(time, &nt, "time");
    if (nt != n) Rf_error("`time` must be as long as `bench`.");
    const double *pr = NULL;
    if (TYPEOF(run) == INTSXP) {
        if ((size_t) XLENGTH(run) != n) Rf_error("`run` must be as long as `bench`.");
        double *d = (double *) R_alloc(n ? n : 1, sizeof(double));
        const int *ri = INTEGER(run);
        for (size_t i = 0; i < n; i++) d[i] = (double) ri[i];
        pr = d;
    } else if (!Rf_isNull(run)) {
        size_t nr;
        pr = ffi_doubles(run, &nr, "run");
        if (nr != n) Rf_error("`run` must be as long as `bench`.");
    }
    int k = ffi_int(nb, "nb");
    if (k < 0 || k > INT_MAX / 2) Rf_error("`nb` must be a count of benchmarks.");
    SEXP order = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) n));
    SEXP count = PROTECT(Rf_allocVector(INTSXP, 2 * (R_xlen_t) k));
    int clean = 0;
    int s = st_timings_group(INTEGER(bench), INTEGER(version), pr, pt, n,
                             (size_t) k, INTEGER(order), INTEGER(count),
                             &clean);
    if (s == ST_OK) {
        int *o = INTEGER(order);
        for (size_t i = 0; i < n; i++) o[i]++;
    }
    static const char *names[] = {"status", "order", "count", "clean"};
    SEXP values[4];
    values[0] = PROTECT(Rf_ScalarInteger(s));
    values[1] = order;
    values[2] = count;
    values[3] = PROTECT(Rf_ScalarLogical(clean));
    SEXP res = ffi_named_list(4, names, values);
    UNPROTECT(4);
    return res;
}

/* The rows (1-based) where a new run of equal values of the text vector x
 * starts: a row whose string is not the one of the row before (compared
 * as R's string cache holds them, so one text in two encodings starts a
 * run, which the caller's match() of the run starts then joins). */
SEXP ffi_run_starts(SEXP x)
{
    if (TYPEOF(x) != STRSXP) Rf_error("`x` must be a character vector.");
    R_xlen_t n = XLENGTH(x), k = 0;
    for (R_xlen_t i = 0; i < n; i++)
        if (i == 0 || STRING_ELT(x, i) != STRING_ELT(x, i - 1)) k++;
    SEXP out = PROTECT(Rf_allocVector(INTSXP, k));
    int *o = INTEGER(out);
    k = 0;
    for (R_xlen_t i = 0; i < n; i++)
        if (i == 0 || STRING_ELT(x, i) != STRING_ELT(x, i - 1)) o[k++] = (int) (i + 1);
    UNPROTECT(1);
    return out;
}
