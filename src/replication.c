/*
 * replication.c -- the structure of the replicates of timings (SPEC
 * section 9): the complete interleaved rounds of two samples, and the
 * per-process summaries of runs grouped by process, from integer codes.
 *
 * Rounds.  A round is complete when it holds exactly one unit of each
 * version (the paired design of the Speedup-Test's successors: Kalibera
 * and Jones 2013, section 5).  Each sample is a segment of an array of
 * round codes; the rounds of a pair of segments are found with a dense
 * table per sample over their range when the range is at most a few times
 * the number of units (the common case: rounds 1..k), each slot holding
 * the one unit of its round (or none, or a mark for several), else after
 * sorting the units by round.  Reading the rounds in increasing order
 * then gives the pairs of units of the complete rounds in that order (and
 * each such unit the rank of its round; the other units get 0), with
 * every unit visited once.
 *
 * Processes.  Runs grouped by process codes 1..k (in order of the first
 * run of each process) are summarised by the mean or the median of each
 * process, as R's mean() and median() compute them (st_mean: the sum in
 * long double with R's refinement pass; the median of an even count is
 * st_mean of the two middle values), with each process's number of runs,
 * its round when all its runs share one, and the excess of its first run
 * over the mean of its others (Kalibera and Jones 2013, section 4: the
 * cost of starting a process).  With `take` > 0 a process is summarised
 * by its first `take` runs only: when processes have different numbers of
 * runs, the median of m runs of a skewed law has an expectation that
 * depends on m, so comparing medians of 3 runs with medians of 30 would
 * find a difference where there is none; the medians of the first r runs
 * of every process (r the fewest runs of any process) are identically
 * distributed across processes when the processes are, warm-up included,
 * since each is taken at the same points of its process's life.
 *
 * Kalibera, T. and Jones, R. (2013). Rigorous benchmarking in reasonable
 * time. ISMM 2013, 63-74.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "speeduptest.h"

/* ---- rounds ------------------------------------------------------------------- */

typedef struct {
    int round;
    int side;       /* 0: x, 1: y */
    size_t index;   /* position in its side's array */
} round_unit;

static int cmp_round_unit(const void *a, const void *b)
{
    const round_unit *u = a, *v = b;
    if (u->round != v->round) return u->round < v->round ? -1 : 1;
    if (u->side != v->side) return u->side - v->side;
    return u->index < v->index ? -1 : u->index > v->index;
}

/* One pair of segments through the dense tables over their range: slot
 * tx[r] holds 0 (no unit of x in round lo + r), i + 1 (unit i alone) or
 * -1 (two or more), likewise ty; one scan of the range in increasing
 * round then counts the rounds and writes the units of each complete one
 * (their indices, and their ranks when pos_x is given), so that the units
 * are visited once each.  The tables are left zeroed for the next pair. */
static void rounds_dense(const int *rx, size_t nx, const int *ry, size_t ny,
                         int na, int lo, size_t range, int *tx, int *ty,
                         int *complete, int *rounds, int *shared, int *pos_x,
                         int *pos_y, int *index_x, int *index_y)
{
    for (size_t i = 0; i < nx; i++)
        if (rx[i] != na) {
            int *c = tx + ((int64_t) rx[i] - lo);
            *c = *c ? -1 : (int) (i + 1);
        }
    for (size_t i = 0; i < ny; i++)
        if (ry[i] != na) {
            int *c = ty + ((int64_t) ry[i] - lo);
            *c = *c ? -1 : (int) (i + 1);
        }
    if (pos_x) {
        memset(pos_x, 0, nx * sizeof(int));
        memset(pos_y, 0, ny * sizeof(int));
    }
    int k = 0, all = 0, both = 0;
    for (size_t r = 0; r < range; r++) {
        int a = tx[r], b = ty[r];
        if (!(a | b)) continue;
        all++;
        if (a && b) {
            both++;
            if (a > 0 && b > 0) {
                if (index_x) {
                    index_x[k] = a;
                    index_y[k] = b;
                }
                k++;
                if (pos_x) {
                    pos_x[a - 1] = k;
                    pos_y[b - 1] = k;
                }
            }
        }
        tx[r] = ty[r] = 0;
    }
    *complete = k;
    *rounds = all;
    *shared = both;
}

/* A pair whose x units and y units each hold every round of [lo, lo + n)
 * once (rounds 1..k of an interleaved measurement, in any order): every
 * round is complete and its rank is round - lo + 1, so the units are
 * written straight to their places.  Checked with one bit per round for
 * each sample; 0 when the pair is not such (nothing written then). */
static int rounds_perfect(const int *rx, const int *ry, size_t n, int na,
                          int lo, uint64_t *bits, int *complete, int *rounds,
                          int *shared, int *pos_x, int *pos_y, int *index_x,
                          int *index_y)
{
    size_t words = (n + 63) / 64;
    int ok = 1;
    for (int side = 0; side < 2 && ok; side++) {
        const int *r = side ? ry : rx;
        memset(bits, 0, words * sizeof(uint64_t));
        for (size_t i = 0; i < n; i++) {
            if (r[i] == na) {
                ok = 0;
                break;
            }
            uint64_t b = (uint64_t) ((int64_t) r[i] - lo);
            uint64_t m = (uint64_t) 1 << (b & 63);
            if (bits[b >> 6] & m) {
                ok = 0;
                break;
            }
            bits[b >> 6] |= m;
        }
    }
    if (!ok) return 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = (size_t) ((int64_t) rx[i] - lo);
        if (index_x) index_x[k] = (int) (i + 1);
        if (pos_x) pos_x[i] = (int) (k + 1);
    }
    for (size_t i = 0; i < n; i++) {
        size_t k = (size_t) ((int64_t) ry[i] - lo);
        if (index_y) index_y[k] = (int) (i + 1);
        if (pos_y) pos_y[i] = (int) (k + 1);
    }
    *complete = *rounds = *shared = (int) n;
    return 1;
}

/* rounds_perfect() when the sizes allow it (n + n units over a range of
 * n rounds, n >= 64: below that the dense tables are as cheap), with the
 * bits grown as needed; 0 when not taken. */
static int pair_perfect(const int *sx, const int *sy, size_t nx, size_t ny,
                        int na, int64_t lo, int64_t hi, uint64_t **bits,
                        size_t *nbits, int *complete, int *rounds,
                        int *shared, int *px, int *py, int *ix, int *iy)
{
    if (nx != ny || nx < 64 || lo > hi || (uint64_t) (hi - lo) != nx - 1)
        return 0;
    if (*nbits < nx) {
        free(*bits);
        *bits = st_malloc((nx + 63) / 64, sizeof(uint64_t));
        *nbits = *bits ? nx : 0;
        if (!*bits) return 0;
    }
    return rounds_perfect(sx, sy, nx, na, (int) lo, *bits, complete, rounds,
                          shared, px, py, ix, iy);
}

/* The same after sorting the units by round (a wide range of codes). */
static int rounds_sorted(const int *rx, size_t nx, const int *ry, size_t ny,
                         int na, int *complete, int *rounds, int *shared,
                         int *pos_x, int *pos_y, int *index_x, int *index_y)
{
    round_unit *u = st_malloc(nx + ny, sizeof(round_unit));
    if (!u) return ST_ERR_ALLOC;
    size_t n = 0;
    for (size_t i = 0; i < nx; i++) {
        if (pos_x) pos_x[i] = 0;
        if (rx[i] != na) u[n++] = (round_unit) {rx[i], 0, i};
    }
    for (size_t i = 0; i < ny; i++) {
        if (pos_y) pos_y[i] = 0;
        if (ry[i] != na) u[n++] = (round_unit) {ry[i], 1, i};
    }
    qsort(u, n, sizeof(round_unit), cmp_round_unit);
    int k = 0, all = 0, both = 0;
    for (size_t a = 0; a < n;) {
        size_t b = a;
        size_t c[2] = {0, 0};
        while (b < n && u[b].round == u[a].round) c[u[b++].side]++;
        all++;
        if (c[0] && c[1]) both++;
        if (c[0] == 1 && c[1] == 1) {
            if (index_x) {
                index_x[k] = (int) (u[a].index + 1);
                index_y[k] = (int) (u[a + 1].index + 1);
            }
            k++;
            if (pos_x) {
                pos_x[u[a].index] = k;
                pos_y[u[a + 1].index] = k;
            }
        }
        a = b;
    }
    free(u);
    *complete = k;
    *rounds = all;
    *shared = both;
    return ST_OK;
}

/* The range of the round codes of one pair of segments: lo > hi when no
 * unit has a round. */
static void rounds_range(const int *sx, size_t nx, const int *sy, size_t ny,
                         int na, int64_t *lo_out, int64_t *hi_out)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < nx; i++)
        if (sx[i] != na) {
            if (sx[i] < lo) lo = sx[i];
            if (sx[i] > hi) hi = sx[i];
        }
    for (size_t i = 0; i < ny; i++)
        if (sy[i] != na) {
            if (sy[i] < lo) lo = sy[i];
            if (sy[i] > hi) hi = sy[i];
        }
    *lo_out = lo;
    *hi_out = hi;
}

/* A pair goes through the dense tables when its range is at most 2 (units)
 * + 64. */
static int rounds_is_dense(int64_t lo, int64_t hi, size_t nx, size_t ny)
{
    return lo <= hi && (uint64_t) (hi - lo) < 2 * (uint64_t) (nx + ny) + 64;
}

int st_round_pairs(const int *rx, const size_t *x_off, const int *ry,
                   const size_t *y_off, size_t nseg, int na, int *complete,
                   int *rounds, int *shared, int *pos_x, int *pos_y,
                   int *index_x, int *index_y)
{
    for (size_t s = 0; s < nseg; s++) {
        size_t nx = x_off[s + 1] - x_off[s], ny = y_off[s + 1] - y_off[s];
        if (nx >= INT_MAX || ny >= INT_MAX) return ST_ERR_TOO_MANY;
    }
    /* the ranges first, so that the tables are as long as the widest dense
     * range (zeroed once, and again by each pair as it leaves them) */
    int64_t *lo = st_malloc(nseg ? nseg : 1, sizeof(int64_t));
    int64_t *hi = st_malloc(nseg ? nseg : 1, sizeof(int64_t));
    if (!lo || !hi) {
        free(lo);
        free(hi);
        return ST_ERR_ALLOC;
    }
    size_t cap = 1;
    for (size_t s = 0; s < nseg; s++) {
        size_t nx = x_off[s + 1] - x_off[s], ny = y_off[s + 1] - y_off[s];
        rounds_range(rx + x_off[s], nx, ry + y_off[s], ny, na, lo + s, hi + s);
        if (rounds_is_dense(lo[s], hi[s], nx, ny) &&
            (size_t) (hi[s] - lo[s] + 1) > cap)
            cap = (size_t) (hi[s] - lo[s] + 1);
    }
    /* the tables are made when a pair needs them (not for pairs that hold
     * every round of their range once on each side) */
    int *tx = NULL, *ty = NULL;
    uint64_t *bits = NULL;
    size_t nbits = 0;
    int status = ST_OK;
    size_t base = 0;
    for (size_t s = 0; s < nseg && status == ST_OK; s++) {
        const int *sx = rx + x_off[s], *sy = ry + y_off[s];
        size_t nx = x_off[s + 1] - x_off[s], ny = y_off[s + 1] - y_off[s];
        int *px = pos_x ? pos_x + x_off[s] : NULL;
        int *py = pos_y ? pos_y + y_off[s] : NULL;
        int *ix = index_x ? index_x + base : NULL;
        int *iy = index_y ? index_y + base : NULL;
        if (lo[s] > hi[s]) {        /* no unit belongs to a round */
            if (px) memset(px, 0, nx * sizeof(int));
            if (py) memset(py, 0, ny * sizeof(int));
            complete[s] = 0;
            rounds[s] = 0;
            shared[s] = 0;
        } else if (pair_perfect(sx, sy, nx, ny, na, lo[s], hi[s], &bits,
                                &nbits, complete + s, rounds + s, shared + s,
                                px, py, ix, iy)) {
            /* every round once on each side: written */
        } else if (rounds_is_dense(lo[s], hi[s], nx, ny)) {
            if (!tx) {
                tx = st_malloc(cap, sizeof(int));
                ty = st_malloc(cap, sizeof(int));
                if (!tx || !ty) {
                    status = ST_ERR_ALLOC;
                    break;
                }
                memset(tx, 0, cap * sizeof(int));
                memset(ty, 0, cap * sizeof(int));
            }
            rounds_dense(sx, nx, sy, ny, na, (int) lo[s],
                         (size_t) (hi[s] - lo[s] + 1), tx, ty, complete + s,
                         rounds + s, shared + s, px, py, ix, iy);
        } else {
            status = rounds_sorted(sx, nx, sy, ny, na, complete + s,
                                   rounds + s, shared + s, px, py, ix, iy);
        }
        if (status == ST_OK) base += (size_t) complete[s];
        if (status == ST_OK && (s & 1023) == 1023 && st_check_interrupt())
            status = ST_ERR_INTERRUPTED;
    }
    free(lo);
    free(hi);
    free(tx);
    free(ty);
    free(bits);
    return status;
}

/* The values of the complete rounds of one pair of samples, in
 * increasing round: what st_round_pairs() gives for one pair, with the
 * units' values x[index_x - 1] and y[index_y - 1] written instead of the
 * indices.  When each sample holds every round of [lo, lo + n) once (an
 * interleaved measurement of n rounds, in any order), each value is
 * written straight to the place of its round (round - lo), one pass per
 * sample without tables or indices. */
int st_round_pair_values(const int *rx, size_t nx, const int *ry, size_t ny,
                         const double *x, const double *y, int na,
                         int *complete, int *rounds, int *shared,
                         double *out_x, double *out_y)
{
    if (nx >= INT_MAX || ny >= INT_MAX) return ST_ERR_TOO_MANY;
    int64_t lo, hi;
    rounds_range(rx, nx, ry, ny, na, &lo, &hi);
    if (nx == ny && nx > 0 && lo <= hi && (uint64_t) (hi - lo) == nx - 1) {
        uint64_t *bits = st_malloc((nx + 63) / 64, sizeof(uint64_t));
        if (!bits) return ST_ERR_ALLOC;
        int once = rounds_perfect(rx, ry, nx, na, (int) lo, bits, complete,
                                  rounds, shared, NULL, NULL, NULL, NULL);
        free(bits);
        if (once) {
            for (size_t i = 0; i < nx; i++)
                out_x[(size_t) ((int64_t) rx[i] - lo)] = x[i];
            for (size_t i = 0; i < ny; i++)
                out_y[(size_t) ((int64_t) ry[i] - lo)] = y[i];
            return ST_OK;
        }
    }
    size_t cap = nx < ny ? nx : ny;
    int *ix = st_malloc(cap ? cap : 1, sizeof(int));
    int *iy = st_malloc(cap ? cap : 1, sizeof(int));
    if (!ix || !iy) {
        free(ix);
        free(iy);
        return ST_ERR_ALLOC;
    }
    size_t xo[2] = {0, nx}, yo[2] = {0, ny};
    int status = st_round_pairs(rx, xo, ry, yo, 1, na, complete, rounds,
                                shared, NULL, NULL, ix, iy);
    if (status == ST_OK) {
        for (int k = 0; k < *complete; k++) {
            out_x[k] = x[ix[k] - 1];
            out_y[k] = y[iy[k] - 1];
        }
    }
    free(ix);
    free(iy);
    return status;
}

/* ---- processes ---------------------------------------------------------------- */

int st_process_units(const double *t, const int *group, const int *round,
                     size_t n, size_t k, int na, int median, size_t take,
                     double *value, int *runs, int *unit_round,
                     double *excess)
{
    size_t *start = calloc(k + 1, sizeof(size_t));
    size_t *fill = st_malloc(k, sizeof(size_t));
    size_t *order = st_malloc(n, sizeof(size_t));
    double *buf = st_malloc(n, sizeof(double));
    if (!start || !fill || !order || !buf) {
        free(start);
        free(fill);
        free(order);
        free(buf);
        return ST_ERR_ALLOC;
    }
    int status = ST_OK;
    for (size_t i = 0; i < n; i++) {
        if (group[i] < 1 || (size_t) group[i] > k) {
            status = ST_ERR_DOMAIN;
            goto done;
        }
        start[group[i]]++;
    }
    for (size_t g = 0; g < k; g++) start[g + 1] += start[g];
    memcpy(fill, start, k * sizeof(size_t));
    /* the runs of each process in their order */
    for (size_t i = 0; i < n; i++) order[fill[group[i] - 1]++] = i;
    for (size_t g = 0; g < k; g++) {
        size_t a = start[g], m = start[g + 1] - a;
        runs[g] = (int) m;
        if (m == 0) {
            value[g] = NAN;
            excess[g] = NAN;
            if (round) unit_round[g] = na;
            continue;
        }
        for (size_t j = 0; j < m; j++) buf[j] = t[order[a + j]];
        /* the first run's excess over the mean of the others */
        excess[g] = m < 2 ? NAN : buf[0] - st_mean(buf + 1, m - 1);
        if (round) {
            int r = round[order[a]];
            for (size_t j = 1; j < m; j++)
                if (round[order[a + j]] != r) {
                    r = na;
                    break;
                }
            unit_round[g] = r;
        }
        /* the summary of the first `take` runs (all when 0 or more) */
        size_t q = take && take < m ? take : m;
        if (!median) {
            value[g] = st_mean(buf, q);
        } else {
            st_sort(buf, q);
            size_t h = (q + 1) / 2;     /* R's half, 1-based */
            value[g] = q % 2 ? buf[h - 1] : st_mean(buf + h - 1, 2);
        }
    }
done:
    free(start);
    free(fill);
    free(order);
    free(buf);
    return status;
}

/* ---- processes of many benchmarks ----------------------------------------------- */

/* The span of process labels: integer labels ilab (`na` for none) or
 * double labels dlab (NaN for none).  *labelled: whether a label is
 * present; *lo, *hi: the smallest and largest present label (over every
 * present label, whole or not).  Returns 1 when every present label is
 * finite and whole (a missing double counts as not whole) and one is
 * present, else 0. */
int st_label_span(const int *ilab, const double *dlab, size_t n, int na,
                  double *lo, double *hi, int *labelled)
{
    if (ilab) {
        /* integer labels, all whole: their span in integers, without a
         * branch per label */
        int li = INT_MAX, hi_i = INT_MIN, present = 0;
        if (na == INT_MIN) {
            /* (R's NA_integer_, below every label: the largest label is
             * the largest code, and a missing one is read as INT_MAX for
             * the smallest) */
            for (size_t i = 0; i < n; i++) {
                int v = ilab[i], w = v == INT_MIN ? INT_MAX : v;
                hi_i = v > hi_i ? v : hi_i;
                li = w < li ? w : li;
            }
            present = hi_i != INT_MIN;
        } else {
            for (size_t i = 0; i < n; i++) {
                int v = ilab[i], p = v != na;
                present |= p;
                li = p && v < li ? v : li;
                hi_i = p && v > hi_i ? v : hi_i;
            }
        }
        *lo = present ? (double) li : INFINITY;
        *hi = present ? (double) hi_i : -INFINITY;
        *labelled = present;
        return present;
    }
    double l = INFINITY, h = -INFINITY;
    int whole = 1, any = 0;
    for (size_t i = 0; i < n; i++) {
        double v = dlab[i];
        if (isnan(v)) {
            whole = 0;
            continue;
        }
        if (!isfinite(v) || v != trunc(v)) whole = 0;
        any = 1;
        if (v < l) l = v;
        if (v > h) h = v;
    }
    *lo = l;
    *hi = h;
    *labelled = any;
    return whole && any;
}

/* Codes of whole-number labels that only need telling apart: code[i] =
 * label[i] - min + 1 over a span of at most 4 n + 64 values (no hashing),
 * `na` where a label is missing (integer labels only: is_na[i]).  The
 * labels are integers (ilab) or doubles (dlab, every one finite and whole,
 * none missing).  Returns 1 with the codes and their largest in *u, 0 when
 * the labels are not such (then nothing is written): a double that is
 * missing, infinite or not whole, no label, or a wider span (the span of
 * st_label_span()). */
int st_offset_codes(const int *ilab, const double *dlab, size_t n, int na,
                    int *code, int *u)
{
    double lo, hi;
    int labelled;
    if (!st_label_span(ilab, dlab, n, na, &lo, &hi, &labelled) ||
        hi - lo > 4.0 * (double) n + 64.0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (ilab) code[i] = ilab[i] == na ? na : (int) ((double) ilab[i] - lo) + 1;
        else code[i] = (int) (dlab[i] - lo) + 1;
    }
    *u = (int) (hi - lo) + 1;
    return 1;
}

/* The process labels of the runs of many benchmarks: run i belongs to
 * benchmark bench[i] (1..nb, the runs of a benchmark together, those of x
 * before those of y: side[i] 1 or 2) and has label code[i] (1..u, `na`
 * for none).  Per benchmark: has_na[b], whether a run has no label;
 * kx[b], ky[b], the distinct labels of each side; shared[b], whether a
 * label is on both sides.  One pass, with the benchmark that last saw each
 * label on each side. */
int st_process_counts(const int *bench, const int *side, const int *code,
                      size_t n, size_t nb, size_t u, int na, int *has_na,
                      int *kx, int *ky, int *shared)
{
    int *seen_x = calloc(u ? u : 1, sizeof(int));
    int *seen_y = calloc(u ? u : 1, sizeof(int));
    if (!seen_x || !seen_y) {
        free(seen_x);
        free(seen_y);
        return ST_ERR_ALLOC;
    }
    for (size_t b = 0; b < nb; b++) has_na[b] = kx[b] = ky[b] = shared[b] = 0;
    int status = ST_OK;
    for (size_t i = 0; i < n; i++) {
        int b = bench[i];
        if (b < 1 || (size_t) b > nb || (side[i] != 1 && side[i] != 2)) {
            status = ST_ERR_DOMAIN;
            break;
        }
        if (code[i] == na) {
            has_na[b - 1] = 1;
            continue;
        }
        if (code[i] < 1 || (size_t) code[i] > u) {
            status = ST_ERR_DOMAIN;
            break;
        }
        size_t c = (size_t) code[i] - 1;
        if (side[i] == 1) {
            if (seen_x[c] != b) {
                seen_x[c] = b;
                kx[b - 1]++;
            }
        } else {
            if (seen_y[c] != b) {
                seen_y[c] = b;
                ky[b - 1]++;
            }
            if (seen_x[c] == b) shared[b - 1] = 1;
        }
    }
    free(seen_x);
    free(seen_y);
    return status;
}

/*
 * What the structure columns change for each benchmark of a suite when no
 * rounds are paired (structure_actions(), replication.R, which holds the
 * rules with rounds): from the runs of each version (nx, ny), the process
 * counts (kx, ky, shared, has_na, as st_process_counts(); kx NULL: no
 * labels) and bad (a time not finite and positive), first the kind of the
 * processes, the first rule that holds of
 *   unknown      no labels, a run without one, or a version without runs;
 *   shared       a label on both sides;
 *   one per run  as many labels as runs on each side;
 *   single       one label on a side;
 *   processes    otherwise;
 * then the unit: the run with replication "run", else the process when it
 * is asked for ("process") or the kind is "processes" (under "auto"); and
 * the action, the first that holds of
 *   full    (3) the process as the unit, a refused input (bad, or the
 *               process asked for where the kind is unknown or shared), or
 *               shared labels with several on a side and fewer than the
 *               runs on one (structured_samples() decides);
 *   single  (2) rule 2: the run as the unit, one label on a side, "auto";
 *   none    (1) the runs as the suite analysed them.
 * replication: 0 auto, 1 process, 2 run.  O(nb), one pass.
 */
enum { KIND_UNKNOWN, KIND_SHARED, KIND_ONE_PER_RUN, KIND_SINGLE, KIND_PROCESSES };

int st_structure_actions(size_t nb, const int *nx, const int *ny,
                         const int *kx, const int *ky, const int *shared,
                         const int *has_na, const int *bad, int replication,
                         int *act)
{
    if (replication < 0 || replication > 2) return ST_ERR_DOMAIN;
    for (size_t j = 0; j < nb; j++) {
        int kind;
        if (!kx || has_na[j] || nx[j] == 0 || ny[j] == 0) kind = KIND_UNKNOWN;
        else if (shared[j]) kind = KIND_SHARED;
        else if (kx[j] == nx[j] && ky[j] == ny[j]) kind = KIND_ONE_PER_RUN;
        else if (kx[j] == 1 || ky[j] == 1) kind = KIND_SINGLE;
        else kind = KIND_PROCESSES;
        int process = replication != 2 &&
                      (replication == 1 || kind == KIND_PROCESSES);
        int refused = bad[j] || (replication == 1 && (kind == KIND_UNKNOWN ||
                                                      kind == KIND_SHARED));
        int several = kind == KIND_SHARED && (kx[j] > 1 || ky[j] > 1) &&
                      (kx[j] < nx[j] || ky[j] < ny[j]);
        if (process || refused || several) act[j] = 3;
        else if (kind == KIND_SINGLE && replication == 0) act[j] = 2;
        else act[j] = 1;
    }
    return ST_OK;
}

/* ---- R entry points ----------------------------------------------------------- */
#include "ffi.h"

/* Segment offsets from an integer vector of nseg + 1 non-decreasing
 * whole numbers within [0, n]. */
static size_t *read_offsets(SEXP off, size_t n, const char *arg)
{
    if (TYPEOF(off) != INTSXP || XLENGTH(off) < 1)
        Rf_error("`%s` must be an integer vector of segment offsets.", arg);
    size_t len = (size_t) XLENGTH(off);
    const int *p = INTEGER(off);
    size_t *out = (size_t *) R_alloc(len, sizeof(size_t));
    for (size_t i = 0; i < len; i++) {
        if (p[i] == NA_INTEGER || p[i] < 0 || (size_t) p[i] > n ||
            (i && p[i] < p[i - 1]))
            Rf_error("`%s` must be non-decreasing offsets within the rounds.", arg);
        out[i] = (size_t) p[i];
    }
    if (out[len - 1] != n)
        Rf_error("`%s` must end at the number of rounds.", arg);
    return out;
}

SEXP ffi_round_pairs(SEXP rx, SEXP x_off, SEXP ry, SEXP y_off)
{
    if (TYPEOF(rx) != INTSXP || TYPEOF(ry) != INTSXP)
        Rf_error("`rx` and `ry` must be integer vectors of rounds.");
    size_t nx = (size_t) XLENGTH(rx), ny = (size_t) XLENGTH(ry);
    size_t *xo = read_offsets(x_off, nx, "x_off");
    size_t *yo = read_offsets(y_off, ny, "y_off");
    size_t nseg = (size_t) XLENGTH(x_off) - 1;
    if ((size_t) XLENGTH(y_off) - 1 != nseg)
        Rf_error("`x_off` and `y_off` must have the same length.");
    /* at most min(x units, y units) complete rounds per pair */
    size_t cap = 0;
    for (size_t g = 0; g < nseg; g++) {
        size_t a = xo[g + 1] - xo[g], b = yo[g + 1] - yo[g];
        cap += a < b ? a : b;
    }
    SEXP complete = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) nseg));
    SEXP rounds = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) nseg));
    SEXP shared = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) nseg));
    SEXP ix = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) cap));
    SEXP iy = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) cap));
    /* the units of the complete rounds of each pair, in increasing round
     * (1-based within the pair's sample), pairs one after the other */
    int s = st_round_pairs(INTEGER(rx), xo, INTEGER(ry), yo, nseg,
                           NA_INTEGER, INTEGER(complete), INTEGER(rounds),
                           INTEGER(shared), NULL, NULL, INTEGER(ix),
                           INTEGER(iy));
    if (s == ST_ERR_INTERRUPTED) R_CheckUserInterrupt();
    size_t total = 0;
    for (size_t g = 0; s == ST_OK && g < nseg; g++)
        total += (size_t) INTEGER(complete)[g];
    if (total != cap) {
        SEXP jx = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) total));
        SEXP jy = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) total));
        if (total) {
            memcpy(INTEGER(jx), INTEGER(ix), total * sizeof(int));
            memcpy(INTEGER(jy), INTEGER(iy), total * sizeof(int));
        }
        ix = jx;
        iy = jy;
    }
    static const char *names[] = {"status", "complete", "rounds", "shared",
                                  "x_index", "y_index"};
    SEXP values[6];
    values[0] = PROTECT(Rf_ScalarInteger(s));
    values[1] = complete;
    values[2] = rounds;
    values[3] = shared;
    values[4] = ix;
    values[5] = iy;
    SEXP res = ffi_named_list(6, names, values);
    UNPROTECT(total != cap ? 8 : 6);
    return res;
}

/* list(status, complete, rounds, shared, x, y): the complete rounds of
 * one pair of samples with rounds rx, ry (as ffi_round_pairs() on one
 * pair) and the values of their units, x and y in increasing round. */
SEXP ffi_round_pair_values(SEXP rx, SEXP ry, SEXP x, SEXP y)
{
    if (TYPEOF(rx) != INTSXP || TYPEOF(ry) != INTSXP)
        Rf_error("`rx` and `ry` must be integer vectors of rounds.");
    if (TYPEOF(x) != REALSXP || TYPEOF(y) != REALSXP ||
        XLENGTH(x) != XLENGTH(rx) || XLENGTH(y) != XLENGTH(ry))
        Rf_error("`x` and `y` must be double vectors of one value per round.");
    size_t nx = (size_t) XLENGTH(rx), ny = (size_t) XLENGTH(ry);
    size_t cap = nx < ny ? nx : ny;
    SEXP vx = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) cap));
    SEXP vy = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) cap));
    int complete = 0, rounds = 0, shared = 0;
    int s = st_round_pair_values(INTEGER(rx), nx, INTEGER(ry), ny, REAL(x),
                                 REAL(y), NA_INTEGER, &complete, &rounds,
                                 &shared, REAL(vx), REAL(vy));
    if (s == ST_OK && (size_t) complete != cap) {
        SEXP wx = PROTECT(Rf_allocVector(REALSXP, complete));
        SEXP wy = PROTECT(Rf_allocVector(REALSXP, complete));
        if (complete) {
            memcpy(REAL(wx), REAL(vx), (size_t) complete * sizeof(double));
            memcpy(REAL(wy), REAL(vy), (size_t) complete * sizeof(double));
        }
        UNPROTECT(4);
        vx = PROTECT(wx);
        vy = PROTECT(wy);
    }
    static const char *names[] = {"status", "complete", "rounds", "shared",
                                  "x", "y"};
    SEXP values[6];
    values[0] = PROTECT(Rf_ScalarInteger(s));
    values[1] = PROTECT(Rf_ScalarInteger(complete));
    values[2] = PROTECT(Rf_ScalarInteger(rounds));
    values[3] = PROTECT(Rf_ScalarInteger(shared));
    values[4] = s == ST_OK ? vx : R_NilValue;
    values[5] = s == ST_OK ? vy : R_NilValue;
    SEXP res = ffi_named_list(6, names, values);
    UNPROTECT(6);
    return res;
}

SEXP ffi_process_units(SEXP t, SEXP group, SEXP k, SEXP round, SEXP median,
                       SEXP take)
{
    size_t n;
    const double *pt = ffi_doubles(t, &n, "t");
    if (TYPEOF(group) != INTSXP || (size_t) XLENGTH(group) != n)
        Rf_error("`group` must be an integer vector as long as `t`.");
    int kk = ffi_int(k, "k");
    if (kk < 0) Rf_error("`k` must be a count of processes.");
    int has_round = !Rf_isNull(round);
    if (has_round && (TYPEOF(round) != INTSXP || (size_t) XLENGTH(round) != n))
        Rf_error("`round` must be NULL or an integer vector as long as `t`.");
    int med = ffi_flag(median, "median");
    int tk = ffi_int(take, "take");
    if (tk < 0) Rf_error("`take` must be a count of runs (0: all).");
    SEXP value = PROTECT(Rf_allocVector(REALSXP, kk));
    SEXP runs = PROTECT(Rf_allocVector(INTSXP, kk));
    SEXP rnd = PROTECT(has_round ? Rf_allocVector(INTSXP, kk) : R_NilValue);
    SEXP excess = PROTECT(Rf_allocVector(REALSXP, kk));
    int s = st_process_units(pt, INTEGER(group),
                             has_round ? INTEGER(round) : NULL, n,
                             (size_t) kk, NA_INTEGER, med, (size_t) tk,
                             REAL(value),
                             INTEGER(runs), has_round ? INTEGER(rnd) : NULL,
                             REAL(excess));
    /* a process of one run has no excess: R's NA */
    for (int g = 0; g < kk; g++)
        if (isnan(REAL(excess)[g])) REAL(excess)[g] = NA_REAL;
    static const char *names[] = {"status", "value", "runs", "round",
                                  "excess"};
    SEXP values[5];
    values[0] = PROTECT(Rf_ScalarInteger(s));
    values[1] = value;
    values[2] = runs;
    values[3] = rnd;
    values[4] = excess;
    SEXP res = ffi_named_list(5, names, values);
    UNPROTECT(5);
    return res;
}

SEXP ffi_offset_codes(SEXP labels)
{
    size_t n = (size_t) XLENGTH(labels);
    if (TYPEOF(labels) != INTSXP && TYPEOF(labels) != REALSXP)
        return R_NilValue;
    if (n > INT_MAX) return R_NilValue;
    SEXP code = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) n));
    int u = 0;
    int ok = st_offset_codes(TYPEOF(labels) == INTSXP ? INTEGER(labels) : NULL,
                             TYPEOF(labels) == REALSXP ? REAL(labels) : NULL,
                             n, NA_INTEGER, INTEGER(code), &u);
    UNPROTECT(1);
    return ok ? code : R_NilValue;
}

SEXP ffi_process_counts(SEXP bench, SEXP side, SEXP code, SEXP nb, SEXP u)
{
    size_t n = (size_t) XLENGTH(bench);
    if (TYPEOF(bench) != INTSXP || TYPEOF(side) != INTSXP ||
        TYPEOF(code) != INTSXP || (size_t) XLENGTH(side) != n ||
        (size_t) XLENGTH(code) != n)
        Rf_error("`bench`, `side` and `code` must be integer vectors of one length.");
    int k = ffi_int(nb, "nb"), uu = ffi_int(u, "u");
    if (k < 0 || uu < 0) Rf_error("`nb` and `u` must be counts.");
    SEXP has_na = PROTECT(Rf_allocVector(LGLSXP, k));
    SEXP kx = PROTECT(Rf_allocVector(INTSXP, k));
    SEXP ky = PROTECT(Rf_allocVector(INTSXP, k));
    SEXP shared = PROTECT(Rf_allocVector(LGLSXP, k));
    int s = st_process_counts(INTEGER(bench), INTEGER(side), INTEGER(code),
                              n, (size_t) k, (size_t) uu, NA_INTEGER,
                              LOGICAL(has_na), INTEGER(kx), INTEGER(ky),
                              LOGICAL(shared));
    static const char *names[] = {"status", "has_na", "kx", "ky", "shared"};
    SEXP values[5];
    values[0] = PROTECT(Rf_ScalarInteger(s));
    values[1] = has_na;
    values[2] = kx;
    values[3] = ky;
    values[4] = shared;
    SEXP res = ffi_named_list(5, names, values);
    UNPROTECT(5);
    return res;
}

/* The element `name` of the list x (R_NilValue when it has none). */
static SEXP named_elt(SEXP x, const char *name)
{
    SEXP nms = Rf_getAttrib(x, R_NamesSymbol);
    for (R_xlen_t i = 0; i < XLENGTH(x) && !Rf_isNull(nms); i++)
        if (strcmp(CHAR(STRING_ELT(nms, i)), name) == 0) return VECTOR_ELT(x, i);
    return R_NilValue;
}

/* nx, ny: runs of each version per benchmark; counts: NULL or
 * ffi_process_counts()'s list (has_na, kx, ky, shared); bad: logical per
 * benchmark; replication: 0 auto, 1 process, 2 run.  Returns the action
 * codes of st_structure_actions() (1 none, 2 single, 3 full). */
SEXP ffi_structure_actions(SEXP nx, SEXP ny, SEXP counts, SEXP bad,
                           SEXP replication)
{
    R_xlen_t k = XLENGTH(nx);
    if (TYPEOF(nx) != INTSXP || TYPEOF(ny) != INTSXP || XLENGTH(ny) != k ||
        TYPEOF(bad) != LGLSXP || XLENGTH(bad) != k)
        Rf_error("`nx`, `ny` and `bad` must be integer and logical vectors of one length.");
    const int *kx = NULL, *ky = NULL, *sh = NULL, *na = NULL;
    if (!Rf_isNull(counts)) {
        if (TYPEOF(counts) != VECSXP)
            Rf_error("`counts` must be NULL or a list of the process counts.");
        SEXP c[4];
        for (int i = 0; i < 4; i++) {
            c[i] = named_elt(counts, i == 0 ? "has_na" : i == 1 ? "kx"
                                     : i == 2 ? "ky" : "shared");
            if (TYPEOF(c[i]) != (i == 1 || i == 2 ? INTSXP : LGLSXP) ||
                XLENGTH(c[i]) != k)
                Rf_error("`counts` must hold the process counts of every benchmark.");
        }
        na = LOGICAL(c[0]);
        kx = INTEGER(c[1]);
        ky = INTEGER(c[2]);
        sh = LOGICAL(c[3]);
    }
    int rep = ffi_int(replication, "replication");
    SEXP out = PROTECT(Rf_allocVector(INTSXP, k));
    if (st_structure_actions((size_t) k, INTEGER(nx), INTEGER(ny), kx, ky, sh,
                             na, LOGICAL(bad), rep, INTEGER(out)) != ST_OK)
        Rf_error("`replication` must be a code 0 to 2.");
    UNPROTECT(1);
    return out;
}
