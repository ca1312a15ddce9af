/*
 * suite-timings.c -- the runs of timings grouped by benchmark and version
 * in one pass, for a suite read from real files: a stable counting sort of
 * the rows by their group code (benchmark and version), then, within each
 * group whose runs are not already in recorded order, a stable merge sort
 * by the recorded run number (Knuth, The Art of Computer Programming,
 * vol. 3, sections 5.2 (counting sort, algorithm D) and 5.2.4 (merging)).
 * The result is the row order R's order(group, run) gives (ties kept in
 * row order), found in O(n) when each group is already in run order, as
 * the files of every tool write it.  For a suite, the same pass gathers
 * the times in that order (none to gather when the rows are in that order
 * already: the caller keeps its own vector) and counts, over the grouped
 * rows, the distinct process labels of each benchmark and version (as
 * st_process_counts(), replication.c).
 */
#include <float.h>
#include <math.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "speeduptest.h"

/* The run number of row i: integer (irun) or double (drun) run numbers. */
#define RUN_OF(i) (irun ? (double) irun[i] : drun[i])

/* Stable merge sort of the row indices idx[0..n) by their run numbers;
 * tmp holds n indices. */
static void merge_by_run(int *idx, int *tmp, size_t n, const int *irun,
                         const double *drun)
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
                b[k++] = RUN_OF(a[j]) < RUN_OF(a[i]) ? a[j++] : a[i++];
            while (i < mid) b[k++] = a[i++];
            while (j < hi) b[k++] = a[j++];
        }
        int *t = a;
        a = b;
        b = t;
    }
    if (a != idx) memcpy(idx, a, n * sizeof(int));
}

/* st_group_order() with integer (irun) or double (drun) run numbers, or
 * none (both NULL). */
static int group_order(const int *group, const int *irun, const double *drun,
                       size_t n, size_t ng, int *order, int *count)
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
    for (size_t g = 0; g < ng && (irun || drun); g++) {
        size_t m = (size_t) count[g], from = next[g] - m;
        int *idx = order + from;
        size_t i = 1;
        while (i < m && !(RUN_OF(idx[i]) < RUN_OF(idx[i - 1]))) i++;
        if (i >= m) continue;
        if (!tmp && !(tmp = st_malloc(n, sizeof(int)))) {
            status = ST_ERR_ALLOC;
            break;
        }
        merge_by_run(idx, tmp, m, irun, drun);
        if ((g & 1023) == 1023 && st_check_interrupt()) {
            status = ST_ERR_INTERRUPTED;
            break;
        }
    }
    free(tmp);
    free(next);
    return status;
}

int st_group_order(const int *group, const double *run, size_t n, size_t ng,
                   int *order, int *count)
{
    return group_order(group, NULL, run, n, ng, order, count);
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

/* The benchmark code of row i, rows being visited in increasing order:
 * bench[i], or with starts (the first row, 1-based, of each run of rows
 * of one benchmark; bench then one code per start) the code of the last
 * start at or before row i + 1; *k (the next start) and b (the code so
 * far) carry the walk from row to row. */
static inline int row_bench(size_t i, const int *bench, const int *starts,
                            size_t nstarts, size_t *k, int b)
{
    if (!starts) return bench[i];
    while (*k < nstarts && (size_t) starts[*k] <= i + 1) b = bench[(*k)++];
    return b;
}

/* One process label (code c, `na` for none) of benchmark j's rows on side
 * 0 (x) or 1 (y), mark = j + 1: counted in *kx or *ky the first time the
 * benchmark sees it on that side (seen_x, seen_y: the benchmark that last
 * saw each code), *shared set when a y label was seen on x, *has_na set
 * for none (as st_process_counts()).  Returns 0 when c is out of 1..u. */
static inline int tally_label(int c, int na, size_t u, int side, int mark,
                              int *seen_x, int *seen_y, int *has_na, int *kx,
                              int *ky, int *shared)
{
    if (c == na) {
        *has_na = 1;
        return 1;
    }
    if (c < 1 || (size_t) c > u) return 0;
    size_t l = (size_t) c - 1;
    if (side == 0) {
        if (seen_x[l] != mark) {
            seen_x[l] = mark;
            (*kx)++;
        }
    } else {
        if (seen_y[l] != mark) {
            seen_y[l] = mark;
            (*ky)++;
        }
        if (seen_x[l] == mark) *shared = 1;
    }
    return 1;
}

/* The runs of timings as a suite reads them, in one pass over the rows and
 * one over the groups: the rows grouped by benchmark and version as
 * st_timings_group() groups them (bench[i] per row, or, when starts is not
 * NULL, bench[k] for the rows from starts[k] (1-based, increasing) up to
 * the next start), the times in that order (values), and, when the
 * process labels have codes (code[i], 1..u, `na` for none; code NULL: no
 * labels), per benchmark what st_process_counts() gives for the grouped
 * rows: whether a run has no label, the distinct labels of each version
 * and whether a label is on both. */
int st_timings_suite(const int *bench, const int *starts, size_t nstarts,
                     const int *version, const int *irun, const double *drun,
                     const double *time, const int *code, size_t u, int na,
                     size_t n, size_t nb, int *order, int *count,
                     double *values, int *clean, int *has_na, int *kx,
                     int *ky, int *shared)
{
    if (nb > (size_t) INT_MAX / 2) return ST_ERR_TOO_MANY;
    int *group = st_malloc(n ? n : 1, sizeof(int));
    if (!group) return ST_ERR_ALLOC;
    *clean = 1;
    size_t k = 0;
    int b = 0;
    for (size_t i = 0; i < n; i++) {
        b = row_bench(i, bench, starts, nstarts, &k, b);
        int v = version[i];
        if (b < 1 || (size_t) b > nb || (v != 1 && v != 2)) {
            free(group);
            return ST_ERR_DOMAIN;
        }
        group[i] = 2 * (b - 1) + v;
        if (!(time[i] > 0 && time[i] <= DBL_MAX)) *clean = 0;
    }
    int status = group_order(group, irun, drun, n, 2 * nb, order, count);
    free(group);
    if (status != ST_OK) return status;
    for (size_t i = 0; i < n; i++) values[i] = time[order[i]];
    if (!code) return ST_OK;
    /* the labels of each benchmark's rows, x before y, with the benchmark
     * that last saw each label on each side (as st_process_counts()) */
    int *seen_x = calloc(u ? u : 1, sizeof(int));
    int *seen_y = calloc(u ? u : 1, sizeof(int));
    if (!seen_x || !seen_y) {
        free(seen_x);
        free(seen_y);
        return ST_ERR_ALLOC;
    }
    size_t at = 0;
    for (size_t j = 0; j < nb && status == ST_OK; j++) {
        int mark = (int) j + 1;
        has_na[j] = kx[j] = ky[j] = shared[j] = 0;
        for (int side = 0; side < 2; side++) {
            size_t m = (size_t) count[2 * j + (size_t) side];
            for (size_t q = 0; q < m; q++) {
                int c = code[order[at + q]];
                if (!tally_label(c, na, u, side, mark, seen_x, seen_y,
                                 has_na + j, kx + j, ky + j, shared + j)) {
                    status = ST_ERR_DOMAIN;
                    break;
                }
            }
            at += m;
        }
    }
    free(seen_x);
    free(seen_y);
    return status;
}

/*
 * st_timings_suite() for rows that come as contiguous blocks: every
 * (benchmark, version) group is one run of consecutive rows whose run
 * numbers never decrease (as every tool's files give them, one process or
 * one file after the other).  The stable order by group and run is then
 * the blocks in group order, each in row order, so the times are copied
 * block by block and nothing of the size of the rows is allocated: no
 * group code per row, no order (unless order is not NULL), no label code
 * per row.  In two steps: st_timings_blocks_scan() finds the blocks,
 * st_timings_blocks_gather() copies the times and counts the labels; a
 * caller whose rows the scan finds in group order already (*in_order)
 * may read the times in place and skip their copy (values NULL).
 */

/* The blocks of the rows: first[g] the first row of group g's block (n
 * for none; first holds 2 nb rows), count[g] its rows, *clean whether
 * every time is finite and positive, *in_order whether the blocks come in
 * group order (the grouped order is then the rows' own).  A block is read
 * in one tight loop (same version, and with per-row codes the same
 * benchmark, up to the next start row), its run numbers and times checked
 * without branches; a block starting with the group of the one before
 * (one benchmark over two start rows) goes on from it.  ST_ERR_DOMAIN,
 * having written nothing the caller may read, when the rows are not such
 * blocks or a code is out of range. */
int st_timings_blocks_scan(const int *bench, const int *starts, size_t nstarts,
                           const int *version, const int *irun,
                           const double *drun, const double *time, size_t n,
                           size_t nb, size_t *first, int *count, int *clean,
                           int *in_order)
{
    if (nb > (size_t) INT_MAX / 2) return ST_ERR_TOO_MANY;
    size_t ng = 2 * nb;
    for (size_t g = 0; g < ng; g++) {
        first[g] = n;
        count[g] = 0;
    }
    int down = 0, cl = 1;
    size_t k = 0, prev = 0;
    int b = 0;
    for (size_t i = 0; i < n;) {
        b = row_bench(i, bench, starts, nstarts, &k, b);
        int v = version[i];
        if (b < 1 || (size_t) b > nb || (v != 1 && v != 2)) return ST_ERR_DOMAIN;
        size_t g = 2 * (size_t) (b - 1) + (size_t) v - 1;
        if (i > 0 && g == prev) {
            /* the block goes on: its run numbers must not decrease */
            if ((irun || drun) && RUN_OF(i) < RUN_OF(i - 1)) return ST_ERR_DOMAIN;
        } else if (first[g] != n) {
            return ST_ERR_DOMAIN;          /* a second block of group g */
        } else {
            first[g] = i;
        }
        /* the rest of the block: rows of the same version up to the next
         * start row (with starts) or of the same benchmark code */
        size_t end = starts ? (k < nstarts ? (size_t) starts[k] - 1 : n) : n;
        size_t j = i + 1;
        if (starts) {
            while (j < end && version[j] == v) j++;
        } else {
            while (j < end && version[j] == v && bench[j] == b) j++;
        }
        if (irun) {
            for (size_t q = i + 1; q < j; q++) down |= irun[q] < irun[q - 1];
        } else if (drun) {
            for (size_t q = i + 1; q < j; q++) down |= drun[q] < drun[q - 1];
        }
        /* time > 0 and <= DBL_MAX, from the bits: those of the positive
         * finite doubles are 1 .. 0x7FEFFFFFFFFFFFFF (zero, the negative
         * numbers, infinities and NaN all fall outside), one comparison
         * of bits - 1 */
        uint64_t out = 0;
        for (size_t q = i; q < j; q++) {
            uint64_t u;
            memcpy(&u, time + q, sizeof u);
            out |= (uint64_t) (u - 1u >= UINT64_C(0x7FEFFFFFFFFFFFFF));
        }
        cl &= !out;
        if (down) return ST_ERR_DOMAIN;
        count[g] += (int) (j - i);
        prev = g;
        i = j;
    }
    size_t at = 0;
    int same = 1;
    for (size_t g = 0; g < ng && same; g++) {
        if (!count[g]) continue;
        same = first[g] == at;
        at += (size_t) count[g];
    }
    *clean = cl;
    *in_order = same;
    return ST_OK;
}

/* The times of the blocks found by st_timings_blocks_scan() in group
 * order (values; NULL: not copied), their rows (order, when not NULL) and
 * the process labels as they are: integer (ilab, `na` for none) or double
 * (dlab) labels, whose code is label - lab_lo + 1 (st_offset_codes(); u
 * its largest), or none (both NULL: has_na, kx, ky and shared are not
 * written).  A label equal to the one of the row before on the same side
 * of a benchmark is counted already (tally_label() would change nothing),
 * so a process's runs cost a comparison each.  ST_ERR_DOMAIN when a code
 * is out of range. */
int st_timings_blocks_gather(const size_t *first, const int *count, size_t nb,
                             const double *time, double *values, int *order,
                             const int *ilab, const double *dlab, double lab_lo,
                             size_t u, int na, int *has_na, int *kx, int *ky,
                             int *shared)
{
    size_t ng = 2 * nb;
    if (values || order) {
        size_t at = 0;
        for (size_t g = 0; g < ng; g++) {
            size_t m = (size_t) count[g], f = first[g];
            if (!m) continue;
            if (values) memcpy(values + at, time + f, m * sizeof(double));
            if (order)
                for (size_t q = 0; q < m; q++) order[at + q] = (int) (f + q);
            at += m;
        }
    }
    if (!ilab && !dlab) return ST_OK;
    /* the labels of each benchmark's rows, x before y, with the benchmark
     * that last saw each label on each side (as st_process_counts()) */
    int *seen_x = calloc(u ? u : 1, sizeof(int));
    int *seen_y = calloc(u ? u : 1, sizeof(int));
    int status = seen_x && seen_y ? ST_OK : ST_ERR_ALLOC;
    for (size_t j = 0; j < nb && status == ST_OK; j++) {
        int mark = (int) j + 1;
        has_na[j] = kx[j] = ky[j] = shared[j] = 0;
        for (int side = 0; side < 2 && status == ST_OK; side++) {
            size_t g = 2 * j + (size_t) side, m = (size_t) count[g];
            size_t f = first[g];
            for (size_t q = 0; q < m; q++) {
                int c;
                if (ilab) {
                    int l = ilab[f + q];
                    if (q && l == ilab[f + q - 1]) continue;
                    c = l == na ? na : (int) ((double) l - lab_lo) + 1;
                } else {
                    double l = dlab[f + q];
                    if (q && l == dlab[f + q - 1]) continue;
                    c = (int) (l - lab_lo) + 1;
                }
                if (!tally_label(c, na, u, side, mark, seen_x, seen_y,
                                 has_na + j, kx + j, ky + j, shared + j)) {
                    status = ST_ERR_DOMAIN;
                    break;
                }
            }
        }
    }
    free(seen_x);
    free(seen_y);
    return status;
}

/* Both steps: ST_OK with what st_timings_suite() gives, or ST_ERR_DOMAIN,
 * having written nothing the caller may read, when the rows are not such
 * blocks or a code is out of range (then st_timings_suite() decides). */
int st_timings_suite_blocks(const int *bench, const int *starts, size_t nstarts,
                            const int *version, const int *irun,
                            const double *drun, const double *time,
                            const int *ilab, const double *dlab, double lab_lo,
                            size_t u, int na, size_t n, size_t nb, int *order,
                            int *count, double *values, int *clean,
                            int *has_na, int *kx, int *ky, int *shared)
{
    if (nb > (size_t) INT_MAX / 2) return ST_ERR_TOO_MANY;
    size_t *first = st_malloc(nb ? 2 * nb : 1, sizeof(size_t));
    if (!first) return ST_ERR_ALLOC;
    int cl, same;
    int status = st_timings_blocks_scan(bench, starts, nstarts, version, irun,
                                        drun, time, n, nb, first, count, &cl,
                                        &same);
    if (status == ST_OK) {
        *clean = cl;
        status = st_timings_blocks_gather(first, count, nb, time, values, order,
                                          ilab, dlab, lab_lo, u, na, has_na,
                                          kx, ky, shared);
    }
    free(first);
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

/* bench: integer benchmark codes (1..nb) of the rows, or, with starts (the
 * 1-based rows where a benchmark's runs start, increasing, the first 1),
 * the code of each start; version: integer codes (1, 2); run: NULL, or
 * integer or double run numbers (no NA); time: the double times; process:
 * NULL or the process labels (their codes are taken when they are plain
 * integers, or doubles that are all whole, below 1e15 in absolute value
 * and within st_offset_codes()'s span).  Returns the status, the order of
 * the rows (1-based), the rows of each (benchmark, version) group, whether
 * every time is finite and positive, the times in that order, whether a
 * process label is present (NA without labels or when they are not plain
 * numbers) and, when the labels have codes, the per-benchmark counts of
 * st_process_counts() (else NULL).  The order is NULL when the counts are
 * given and rows is FALSE. */
SEXP ffi_timings_suite(SEXP bench, SEXP starts, SEXP version, SEXP run,
                       SEXP time, SEXP process, SEXP nb, SEXP rows)
{
    if (TYPEOF(bench) != INTSXP || TYPEOF(version) != INTSXP)
        Rf_error("`bench` and `version` must be integer codes.");
    size_t n = (size_t) XLENGTH(version);
    if (n > (size_t) INT_MAX)
        Rf_error("`version` must have at most %d rows.", INT_MAX);
    size_t ns = 0;
    const int *ps = NULL;
    if (!Rf_isNull(starts)) {
        if (TYPEOF(starts) != INTSXP || XLENGTH(starts) != XLENGTH(bench))
            Rf_error("`starts` must be NULL or integer rows as many as `bench`.");
        ns = (size_t) XLENGTH(starts);
        ps = INTEGER(starts);
        for (size_t k = 0; k < ns; k++) {
            if (ps[k] < 1 || (size_t) ps[k] > n || (k && ps[k] <= ps[k - 1]) ||
                (k == 0 && ps[k] != 1))
                Rf_error("`starts` must be increasing rows from 1.");
        }
    } else if ((size_t) XLENGTH(bench) != n) {
        Rf_error("`bench` and `version` must have the same length.");
    }
    size_t nt;
    const double *pt = ffi_doubles(time, &nt, "time");
    if (nt != n) Rf_error("`time` must be as long as `version`.");
    const int *ir = NULL;
    const double *dr = NULL;
    if (TYPEOF(run) == INTSXP) {
        if ((size_t) XLENGTH(run) != n) Rf_error("`run` must be as long as `version`.");
        ir = INTEGER(run);
    } else if (!Rf_isNull(run)) {
        size_t nr;
        dr = ffi_doubles(run, &nr, "run");
        if (nr != n) Rf_error("`run` must be as long as `version`.");
    }
    int k = ffi_int(nb, "nb");
    if (k < 0 || k > INT_MAX / 2) Rf_error("`nb` must be a count of benchmarks.");
    /* the process labels: coded when they are whole numbers within
     * st_offset_codes()'s span */
    int labelled = NA_LOGICAL, codable = 0;
    double lab_lo = 0.0, lab_hi = 0.0;
    const int *ip = NULL;
    const double *dp = NULL;
    if (!Rf_isNull(process) && !Rf_isObject(process) && (size_t) XLENGTH(process) == n &&
        (TYPEOF(process) == INTSXP || TYPEOF(process) == REALSXP)) {
        if (TYPEOF(process) == INTSXP) ip = INTEGER(process);
        else dp = REAL(process);
        /* the span of st_offset_codes(), labels of magnitude below 1e15 */
        int whole = st_label_span(ip, dp, n, NA_INTEGER, &lab_lo, &lab_hi,
                                  &labelled);
        codable = whole && fabs(lab_lo) < 1e15 && fabs(lab_hi) < 1e15 &&
                  lab_hi - lab_lo <= 4.0 * (double) n + 64.0;
    }
    /* the order goes back to R only when asked or when the labels are not
     * counted here (the caller then reads the rows in that order) */
    int want = ffi_flag(rows, "rows") || !codable;
    SEXP count = PROTECT(Rf_allocVector(INTSXP, 2 * (R_xlen_t) k));
    SEXP has_na = PROTECT(codable ? Rf_allocVector(LGLSXP, k) : R_NilValue);
    SEXP kx = PROTECT(codable ? Rf_allocVector(INTSXP, k) : R_NilValue);
    SEXP ky = PROTECT(codable ? Rf_allocVector(INTSXP, k) : R_NilValue);
    SEXP shared = PROTECT(codable ? Rf_allocVector(LGLSXP, k) : R_NilValue);
    SEXP order = PROTECT(want ? Rf_allocVector(INTSXP, (R_xlen_t) n) : R_NilValue);
    int clean = 0, in_order = 0;
    /* rows in contiguous blocks: read in place (no copy of the size of the
     * rows but the times, and not even those when the blocks come in group
     * order: the times are then `time` itself, which nothing writes to) */
    size_t *first = (size_t *) R_alloc(k ? 2 * (size_t) k : 1, sizeof(size_t));
    int s = st_timings_blocks_scan(INTEGER(bench), ps, ns, INTEGER(version), ir,
                                   dr, pt, n, (size_t) k, first, INTEGER(count),
                                   &clean, &in_order);
    int in_place = s == ST_OK && in_order;
    PROTECT_INDEX vi;
    SEXP values = in_place ? time : Rf_allocVector(REALSXP, (R_xlen_t) n);
    PROTECT_WITH_INDEX(values, &vi);
    if (s == ST_OK)
        s = st_timings_blocks_gather(first, INTEGER(count), (size_t) k, pt,
                                     in_place ? NULL : REAL(values),
                                     want ? INTEGER(order) : NULL,
                                     codable ? ip : NULL, codable ? dp : NULL,
                                     lab_lo,
                                     codable ? (size_t) (lab_hi - lab_lo) + 1 : 0,
                                     NA_INTEGER,
                                     codable ? LOGICAL(has_na) : NULL,
                                     codable ? INTEGER(kx) : NULL,
                                     codable ? INTEGER(ky) : NULL,
                                     codable ? LOGICAL(shared) : NULL);
    /* (the times of the fallback below are written: never into `time`) */
    if (s != ST_OK && in_place)
        REPROTECT(values = Rf_allocVector(REALSXP, (R_xlen_t) n), vi);
    /* (C heap from here on: no R allocation until both are freed) */
    int *code = NULL, u = 0;
    int *ord = NULL;
    if (s != ST_OK) {
        ord = want ? INTEGER(order) : st_malloc(n ? n : 1, sizeof(int));
        if (codable) code = st_malloc(n, sizeof(int));
        s = ST_ERR_ALLOC;
        if (ord && (code || !codable)) {
            s = ST_OK;
            if (codable && !st_offset_codes(ip, dp, n, NA_INTEGER, code, &u))
                s = ST_ERR_DOMAIN;
        }
        if (s == ST_OK)
            s = st_timings_suite(INTEGER(bench), ps, ns, INTEGER(version), ir, dr,
                                 pt, code, (size_t) u, NA_INTEGER, n, (size_t) k,
                                 ord, INTEGER(count), REAL(values), &clean,
                                 code ? LOGICAL(has_na) : NULL,
                                 code ? INTEGER(kx) : NULL,
                                 code ? INTEGER(ky) : NULL,
                                 code ? LOGICAL(shared) : NULL);
        free(code);
        if (!want) free(ord);
    }
    if (want && s == ST_OK) {
        int *o = INTEGER(order);
        for (size_t i = 0; i < n; i++) o[i]++;
    }
    if (s == ST_ERR_INTERRUPTED) R_CheckUserInterrupt();
    SEXP counts = R_NilValue;
    if (codable && s == ST_OK) {
        static const char *cn[] = {"has_na", "kx", "ky", "shared"};
        SEXP cv[4] = {has_na, kx, ky, shared};
        counts = ffi_named_list(4, cn, cv);
    }
    PROTECT(counts);
    /* the suite's samples: the runs of each version and where they start
     * in the values (doubles, as R's cumsum() gives them), and whether
     * every benchmark has runs of both */
    SEXP x_len = PROTECT(Rf_allocVector(INTSXP, k));
    SEXP y_len = PROTECT(Rf_allocVector(INTSXP, k));
    SEXP x_start = PROTECT(Rf_allocVector(REALSXP, k));
    SEXP y_start = PROTECT(Rf_allocVector(REALSXP, k));
    int both = 1;
    {
        const int *c = INTEGER(count);
        int *xl = INTEGER(x_len), *yl = INTEGER(y_len);
        double *xs = REAL(x_start), *ys = REAL(y_start), at = 0;
        for (int j = 0; j < k; j++) {
            xl[j] = c[2 * j];
            yl[j] = c[2 * j + 1];
            xs[j] = at;
            ys[j] = at + xl[j];
            at = ys[j] + yl[j];
            both &= xl[j] != 0 && yl[j] != 0;
        }
    }
    static const char *names[] = {"status", "order", "count", "clean", "values",
                                  "labelled", "process_counts", "x_len",
                                  "y_len", "x_start", "y_start", "both"};
    SEXP out[12];
    out[0] = PROTECT(Rf_ScalarInteger(s));
    out[1] = order;
    out[2] = count;
    out[3] = PROTECT(Rf_ScalarLogical(clean));
    out[4] = values;
    out[5] = PROTECT(Rf_ScalarLogical(labelled));
    out[6] = counts;
    out[7] = x_len;
    out[8] = y_len;
    out[9] = x_start;
    out[10] = y_start;
    out[11] = PROTECT(Rf_ScalarLogical(both));
    SEXP res = ffi_named_list(12, names, out);
    UNPROTECT(16);
    return res;
}

/* The rows (1-based) where a new run of equal values of the text vector x
 * starts: a row whose string is not the one of the row before (compared
 * as R's string cache holds them, so one text in two encodings starts a
 * run, which the caller's match() of the run starts then joins). */
SEXP ffi_run_starts(SEXP x)
{
    if (TYPEOF(x) != STRSXP) Rf_error("`x` must be a character vector.");
    R_xlen_t n = XLENGTH(x), k = 0, cap = 64;
    const SEXP *p = STRING_PTR_RO(x);
    /* one pass, the starts in a buffer doubled as they come (R_alloc:
     * freed on return, or on an error) */
    int *buf = (int *) R_alloc((size_t) cap, sizeof(int));
    for (R_xlen_t i = 0; i < n; i++) {
        if (i && p[i] == p[i - 1]) continue;
        if (k == cap) {
            int *more = (int *) R_alloc((size_t) (2 * cap), sizeof(int));
            memcpy(more, buf, (size_t) k * sizeof(int));
            buf = more;
            cap *= 2;
        }
        buf[k++] = (int) (i + 1);
    }
    SEXP out = PROTECT(Rf_allocVector(INTSXP, k));
    if (k) memcpy(INTEGER(out), buf, (size_t) k * sizeof(int));
    UNPROTECT(1);
    return out;
}
