/*
 * protocol-input.c -- the two samples of one benchmark of timings, picked
 * from integer codes in two passes over the table instead of copies and
 * subsets of it (the timings path of mean_test(), median_test() and the
 * other protocols: timings_pair() in R/protocol-input.R).
 *
 * A row belongs to the pair when its benchmark is the one chosen (sel,
 * R's logical TRUE; no sel: every row), it is not a warm-up the tool
 * marked (marked TRUE) and its version code maps to side 1 (x, the
 * initial code) or 2 (y).  The first pass counts the rows of each version
 * code, which gives the versions the benchmark has in the order of the
 * codes.  The second pass writes the rows of x and of y (1-based) in the
 * order of the table, with each row's rank among the rows of both sides
 * (its position in recorded order), and tells whether that order already
 * is the recorded one: R's order(run) (or order(timestamp, run)) is a
 * stable sort, so it leaves the rows as they are exactly when the keys
 * are non-decreasing and no key is missing (order() puts NA last).  Each
 * sample's runs need only their own side's keys in order; the positions
 * need them over both sides.  When the keys are not in order the caller
 * sorts them as before.
 *
 * Paired by round.  When each side holds every round of [lo, lo + m) once
 * (an interleaved measurement of m rounds, the rows in any order), the
 * complete rounds are all m of them and the paired samples are the times
 * in increasing round: each time is written straight to the place of its
 * round, from the table, in a second pass after a first one has checked
 * the keys' order, the times and the range of the rounds (one bit per
 * round and side then finds a repeat).  Nothing else of the pair is made.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "speeduptest.h"

int st_pair_counts(size_t n, const int *sel, const int *marked,
                   const int *vcode, int nlev, int na, size_t *count)
{
    for (int l = 0; l < nlev; l++) count[l] = 0;
    for (size_t i = 0; i < n; i++) {
        if (sel && sel[i] != 1) continue;
        if (marked && marked[i] == 1) continue;
        int v = vcode[i];
        if (v == na) continue;
        if (v < 1 || v > nlev) return ST_ERR_DOMAIN;
        count[v - 1]++;
    }
    return ST_OK;
}

/* The side of row i in the pair: 1 (x) or 2 (y); 0 when the row is not
 * the pair's (not selected, marked, no version or a version of neither
 * side); -1 when its version code is out of range. */
static inline int row_side(size_t i, const int *sel, const int *marked,
                           const int *vcode, int nlev, const int *side, int na)
{
    if (sel && sel[i] != 1) return 0;
    if (marked && marked[i] == 1) return 0;
    int v = vcode[i];
    if (v == na) return 0;
    if (v < 1 || v > nlev) return -1;
    int s = side[v - 1];
    return s == 1 || s == 2 ? s : 0;
}

/* Whether the run numbers keep their recorded order: [0] over both
 * sides, [1] on x, [2] on y.  A missing run counts as out of order (order()
 * puts it last, after the runs that follow it). */
typedef struct {
    int ok[3];
    int64_t prev[3];
} run_orders;

static inline void run_orders_init(run_orders *o)
{
    for (int q = 0; q < 3; q++) {
        o->ok[q] = 1;
        o->prev[q] = INT64_MIN;
    }
}

/* One step of an order: ok cleared when the run is missing or below the
 * previous one, which it becomes. */
static inline void run_step(run_orders *o, int q, int64_t r, int bad)
{
    if (bad || r < o->prev[q]) o->ok[q] = 0;
    o->prev[q] = r;
}

/* Row i of side s (1 or 2) in the orders over both sides and its side's. */
static inline void run_orders_step(run_orders *o, const int *run, int na,
                                   size_t i, int s)
{
    int64_t r = run ? run[i] : 0;
    int bad = run && run[i] == na;
    run_step(o, 0, r, bad);
    run_step(o, s, r, bad);
}

/* Key of row i against the previous key of its order: 1 when it keeps the
 * keys non-decreasing (ts first, then run), 0 when not. */
static int key_in_order(const double *ts, const int *run, int na, size_t i,
                        double *prev_ts, int64_t *prev_run, int *started)
{
    int ok = 1;
    double t = ts ? ts[i] : 0;
    int64_t r = run ? run[i] : 0;
    if (run && run[i] == na) ok = 0;
    if (ts && isnan(t)) ok = 0;
    if (ok && *started) {
        if (ts && t < *prev_ts) ok = 0;
        else if (!ts || t == *prev_ts) {
            if (r < *prev_run) ok = 0;
        }
    }
    *prev_ts = t;
    *prev_run = r;
    *started = 1;
    return ok;
}

/* Row i of the table written at place `at` of its side: its number
 * (1-based, when rows is not NULL), its rank among the rows of both sides
 * (when pos is not NULL), its time and round when gathered (*plain
 * cleared by a time not finite and > 0). */
static inline void put_row(const st_pair_gather *g, size_t i, size_t at,
                           size_t rank, int *rows, int *pos, double *time_out,
                           int *round_out, int *plain)
{
    if (pos) pos[at] = (int) rank;
    if (g->time) {
        double t = g->time[i];
        time_out[at] = t;
        *plain &= (t > 0) & (t < HUGE_VAL);
    }
    if (g->round) round_out[at] = g->round[i];
    if (rows) rows[at] = (int) (i + 1);
}

int st_pair_rows(size_t n, const int *sel, const int *marked,
                 const int *vcode, int nlev, const int *side, const int *run,
                 const double *ts, int na, size_t cap_x, size_t cap_y,
                 int *rows_x, int *rows_y, int *pos_x, int *pos_y,
                 st_pair_gather *g, int *order_side, int *order_both,
                 int *ts_na)
{
    if (n > INT_MAX) return ST_ERR_TOO_MANY;
    size_t kx = 0, ky = 0, k = 0;
    int tsna = 0, plain = g->plain;
    if (!ts) {
        /* run alone (the common case), or no key at all: one loop whose
         * checks are comparisons */
        run_orders o;
        run_orders_init(&o);
        for (size_t i = 0; i < n; i++) {
            int s = row_side(i, sel, marked, vcode, nlev, side, na);
            if (s < 0) return ST_ERR_DOMAIN;
            if (s == 0) continue;
            if ((s == 1 && kx == cap_x) || (s == 2 && ky == cap_y))
                return ST_ERR_DOMAIN;
            run_orders_step(&o, run, na, i, s);
            k++;
            if (s == 1) {
                put_row(g, i, kx++, k, rows_x, pos_x, g->time_x, g->round_x,
                        &plain);
            } else {
                put_row(g, i, ky++, k, rows_y, pos_y, g->time_y, g->round_y,
                        &plain);
            }
        }
        if (kx != cap_x || ky != cap_y) return ST_ERR_DOMAIN;
        g->plain = plain;
        *order_side = o.ok[1] && o.ok[2];
        *order_both = o.ok[0];
        *ts_na = 0;
        return ST_OK;
    }
    /* the keys: [0] both sides, [1] x, [2] y */
    double pt[3] = {0, 0, 0};
    int64_t pr[3] = {0, 0, 0};
    int st[3] = {0, 0, 0}, ok[3] = {1, 1, 1};
    for (size_t i = 0; i < n; i++) {
        int s = row_side(i, sel, marked, vcode, nlev, side, na);
        if (s < 0) return ST_ERR_DOMAIN;
        if (s == 0) continue;
        if ((s == 1 && kx == cap_x) || (s == 2 && ky == cap_y))
            return ST_ERR_DOMAIN;
        k++;
        if (isnan(ts[i])) tsna = 1;
        if (!key_in_order(ts, run, na, i, pt, pr, st)) ok[0] = 0;
        if (!key_in_order(ts, run, na, i, pt + s, pr + s, st + s)) ok[s] = 0;
        if (s == 1) {
            put_row(g, i, kx++, k, rows_x, pos_x, g->time_x, g->round_x,
                    &plain);
        } else {
            put_row(g, i, ky++, k, rows_y, pos_y, g->time_y, g->round_y,
                    &plain);
        }
    }
    if (kx != cap_x || ky != cap_y) return ST_ERR_DOMAIN;
    g->plain = plain;
    *order_side = ok[1] && ok[2];
    *order_both = ok[0];
    *ts_na = tsna;
    return ST_OK;
}

int st_pair_by_round(size_t n, const int *sel, const int *marked,
                     const int *vcode, int nlev, const int *side,
                     const int *run, int na, int global, const double *time,
                     const int *round, size_t m, double *out_x,
                     double *out_y, int *lo_out, int *done)
{
    *done = 0;
    if (n > INT_MAX || m < 1) return ST_OK;
    /* the keys' order (as st_pair_rows() without timestamps), the times
     * and the range of the rounds */
    int plain = 1;
    run_orders o;
    run_orders_init(&o);
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    size_t kx = 0, ky = 0;
    for (size_t i = 0; i < n; i++) {
        int s = row_side(i, sel, marked, vcode, nlev, side, na);
        if (s < 0) return ST_ERR_DOMAIN;
        if (s == 0) continue;
        run_orders_step(&o, run, na, i, s);
        if (s == 1) kx++;
        else ky++;
        double t = time[i];
        plain &= (t > 0) & (t < HUGE_VAL);
        int q = round[i];
        if (q == na) return ST_OK;
        if (q < lo) lo = q;
        if (q > hi) hi = q;
    }
    if (!o.ok[1] || !o.ok[2] || (global && !o.ok[0]) || !plain || kx != m || ky != m ||
        (uint64_t) (hi - lo) != m - 1)
        return ST_OK;
    size_t words = (m + 63) / 64;
    uint64_t *bits = st_malloc(2 * words, sizeof(uint64_t));
    if (!bits) return ST_ERR_ALLOC;
    memset(bits, 0, 2 * words * sizeof(uint64_t));
    for (size_t i = 0; i < n; i++) {
        /* every version code was checked by the first pass */
        int s = row_side(i, sel, marked, vcode, nlev, side, na);
        if (s <= 0) continue;
        uint64_t b = (uint64_t) ((int64_t) round[i] - lo);
        uint64_t *w = bits + (s - 1) * words + (b >> 6);
        uint64_t mask = (uint64_t) 1 << (b & 63);
        if (*w & mask) {        /* a round repeated: not every round once */
            free(bits);
            return ST_OK;
        }
        *w |= mask;
        (s == 1 ? out_x : out_y)[b] = time[i];
    }
    free(bits);
    *lo_out = (int) lo;
    *done = 1;
    return ST_OK;
}

/* ---- R entry points ----------------------------------------------------------- */
#include "ffi.h"

/* Optional logical (or integer) vector of n values: NULL for R's NULL. */
static const int *opt_flags(SEXP x, size_t n, const char *arg)
{
    if (Rf_isNull(x)) return NULL;
    if ((TYPEOF(x) != LGLSXP && TYPEOF(x) != INTSXP) ||
        (size_t) XLENGTH(x) != n)
        Rf_error("`%s` must be NULL or a logical vector of one value per row.", arg);
    return TYPEOF(x) == LGLSXP ? LOGICAL(x) : INTEGER(x);
}

/* The rows of each version code among the chosen rows: an integer vector
 * of nlev counts, or NULL when a code lies outside 1..nlev. */
SEXP ffi_pair_counts(SEXP sel, SEXP marked, SEXP vcode, SEXP nlev)
{
    if (TYPEOF(vcode) != INTSXP) Rf_error("`vcode` must be an integer vector.");
    size_t n = (size_t) XLENGTH(vcode);
    int nl = ffi_int(nlev, "nlev");
    if (nl < 0) Rf_error("`nlev` must be a count of versions.");
    const int *ps = opt_flags(sel, n, "sel");
    const int *pm = opt_flags(marked, n, "marked");
    size_t *count = (size_t *) R_alloc(nl ? (size_t) nl : 1, sizeof(size_t));
    int s = st_pair_counts(n, ps, pm, INTEGER(vcode), nl, NA_INTEGER, count);
    if (s != ST_OK) return R_NilValue;
    SEXP out = PROTECT(Rf_allocVector(REALSXP, nl));
    for (int l = 0; l < nl; l++) REAL(out)[l] = (double) count[l];
    UNPROTECT(1);
    return out;
}

/* The arguments ffi_pair_rows() and ffi_pair_by_round() share, checked:
 * the rows' version codes and their count, the sides of the versions, and
 * the optional row flags and run numbers (NULL when not given). */
typedef struct {
    size_t n;
    const int *sel, *marked, *run;
} pair_args;

static pair_args pair_args_read(SEXP sel, SEXP marked, SEXP vcode, SEXP side,
                                SEXP run)
{
    pair_args a;
    if (TYPEOF(vcode) != INTSXP) Rf_error("`vcode` must be an integer vector.");
    a.n = (size_t) XLENGTH(vcode);
    if (TYPEOF(side) != INTSXP) Rf_error("`side` must be an integer vector.");
    a.sel = opt_flags(sel, a.n, "sel");
    a.marked = opt_flags(marked, a.n, "marked");
    a.run = NULL;
    if (!Rf_isNull(run)) {
        if (TYPEOF(run) != INTSXP || (size_t) XLENGTH(run) != a.n)
            Rf_error("`run` must be NULL or an integer vector of one value per row.");
        a.run = INTEGER(run);
    }
    return a;
}

/* list(x, y: the rows of the two samples (NULL unless `rows`); pos_x, pos_y: their positions
 * among both when `positions`; in_order: whether the rows of each side
 * are in recorded order, in_order_both: the same over both sides, ts_na:
 * whether a chosen row has no timestamp; time_x, time_y, round_x,
 * round_y: the values of `time` and `round` at those rows, when given;
 * plain: whether those times were gathered and are all finite and > 0), or
 * NULL when a code lies
 * outside 1..nlev, the rows of a side are not nx and ny (the counts of
 * ffi_pair_counts() on the same rows) or the table is too long. */
SEXP ffi_pair_rows(SEXP sel, SEXP marked, SEXP vcode, SEXP side, SEXP run,
                   SEXP ts, SEXP nx, SEXP ny, SEXP positions, SEXP time,
                   SEXP round, SEXP rows)
{
    pair_args a = pair_args_read(sel, marked, vcode, side, run);
    size_t n = a.n;
    const int *ps = a.sel, *pm = a.marked, *pr = a.run;
    const double *pt = NULL;
    if (!Rf_isNull(ts)) {
        if (TYPEOF(ts) != REALSXP || (size_t) XLENGTH(ts) != n)
            Rf_error("`ts` must be NULL or a double vector of one value per row.");
        pt = REAL(ts);
    }
    int kx = ffi_int(nx, "nx"), ky = ffi_int(ny, "ny");
    if (kx < 0 || ky < 0) Rf_error("`nx` and `ny` must be counts of rows.");
    int want_pos = ffi_flag(positions, "positions");
    int want_rows = ffi_flag(rows, "rows");
    SEXP rx = PROTECT(want_rows ? Rf_allocVector(INTSXP, kx) : R_NilValue);
    SEXP ry = PROTECT(want_rows ? Rf_allocVector(INTSXP, ky) : R_NilValue);
    SEXP qx = PROTECT(want_pos ? Rf_allocVector(INTSXP, kx) : R_NilValue);
    SEXP qy = PROTECT(want_pos ? Rf_allocVector(INTSXP, ky) : R_NilValue);
    st_pair_gather g = {NULL, NULL, NULL, NULL, NULL, NULL, 1};
    int has_time = !Rf_isNull(time), has_round = !Rf_isNull(round);
    if (has_time && (TYPEOF(time) != REALSXP || (size_t) XLENGTH(time) != n))
        Rf_error("`time` must be NULL or a double vector of one value per row.");
    if (has_round && (TYPEOF(round) != INTSXP || (size_t) XLENGTH(round) != n))
        Rf_error("`round` must be NULL or an integer vector of one value per row.");
    SEXP tx = PROTECT(has_time ? Rf_allocVector(REALSXP, kx) : R_NilValue);
    SEXP ty = PROTECT(has_time ? Rf_allocVector(REALSXP, ky) : R_NilValue);
    SEXP ux = PROTECT(has_round ? Rf_allocVector(INTSXP, kx) : R_NilValue);
    SEXP uy = PROTECT(has_round ? Rf_allocVector(INTSXP, ky) : R_NilValue);
    if (has_time) {
        g.time = REAL(time);
        g.time_x = REAL(tx);
        g.time_y = REAL(ty);
    }
    if (has_round) {
        g.round = INTEGER(round);
        g.round_x = INTEGER(ux);
        g.round_y = INTEGER(uy);
    }
    int in_side = 0, in_both = 0, tsna = 0;
    int s = st_pair_rows(n, ps, pm, INTEGER(vcode), (int) XLENGTH(side),
                         INTEGER(side), pr, pt, NA_INTEGER, (size_t) kx,
                         (size_t) ky, want_rows ? INTEGER(rx) : NULL,
                         want_rows ? INTEGER(ry) : NULL, want_pos ? INTEGER(qx) : NULL,
                         want_pos ? INTEGER(qy) : NULL, &g, &in_side,
                         &in_both, &tsna);
    if (s != ST_OK) {
        UNPROTECT(8);
        return R_NilValue;
    }
    static const char *names[] = {"x", "y", "pos_x", "pos_y", "in_order",
                                  "in_order_both", "ts_na", "time_x",
                                  "time_y", "round_x", "round_y", "plain"};
    SEXP values[12];
    values[0] = rx;
    values[1] = ry;
    values[2] = qx;
    values[3] = qy;
    values[4] = PROTECT(Rf_ScalarLogical(in_side));
    values[5] = PROTECT(Rf_ScalarLogical(in_both));
    values[6] = PROTECT(Rf_ScalarLogical(tsna));
    values[7] = tx;
    values[8] = ty;
    values[9] = ux;
    values[10] = uy;
    values[11] = PROTECT(Rf_ScalarLogical(has_time && g.plain));
    SEXP res = ffi_named_list(12, names, values);
    UNPROTECT(12);
    return res;
}

/* list(x, y: the times of the two sides in increasing round, lo: the
 * first round) when the chosen rows of each side hold every round of
 * [lo, lo + m) once, in recorded order by `run` (over both sides when
 * `global`), with every time finite and > 0; else NULL (the pair is
 * found by ffi_pair_rows()). */
SEXP ffi_pair_by_round(SEXP sel, SEXP marked, SEXP vcode, SEXP side, SEXP run,
                       SEXP m, SEXP global, SEXP time, SEXP round)
{
    pair_args a = pair_args_read(sel, marked, vcode, side, run);
    size_t n = a.n;
    const int *ps = a.sel, *pm = a.marked, *pr = a.run;
    if (TYPEOF(time) != REALSXP || (size_t) XLENGTH(time) != n)
        Rf_error("`time` must be a double vector of one value per row.");
    if (TYPEOF(round) != INTSXP || (size_t) XLENGTH(round) != n)
        Rf_error("`round` must be an integer vector of one value per row.");
    int k = ffi_int(m, "m");
    if (k < 0) Rf_error("`m` must be a count of rows.");
    int glob = ffi_flag(global, "global");
    SEXP vx = PROTECT(Rf_allocVector(REALSXP, k));
    SEXP vy = PROTECT(Rf_allocVector(REALSXP, k));
    int lo = 0, done = 0;
    int s = st_pair_by_round(n, ps, pm, INTEGER(vcode), (int) XLENGTH(side),
                             INTEGER(side), pr, NA_INTEGER, glob, REAL(time),
                             INTEGER(round), (size_t) k, REAL(vx), REAL(vy),
                             &lo, &done);
    if (s != ST_OK || !done) {
        UNPROTECT(2);
        return R_NilValue;
    }
    static const char *names[] = {"x", "y", "lo"};
    SEXP values[3];
    values[0] = vx;
    values[1] = vy;
    values[2] = PROTECT(Rf_ScalarInteger(lo));
    SEXP res = ffi_named_list(3, names, values);
    UNPROTECT(3);
    return res;
}
