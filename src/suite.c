/*
 * suite.c -- the Speedup-Test on a whole suite of benchmarks in one pass:
 * the protocols asked for (the paper's two by default) on every benchmark, the overall gain and speedup of the
 * suite, and the proportion of accelerated benchmarks with its confidence
 * interval and the minimal number of benchmarks for a given precision.
 *
 * References: S.-A.-A. Touati, J. Worms, S. Briais, "The Speedup-Test: a
 * statistical methodology for programme speedup analysis and computation",
 * Concurrency and Computation: Practice and Experience 25(10), 2013,
 * sections 2 (overall speedup, equations 1-2) and 4 (proportion of
 * accelerated benchmarks); S.-A.-A. Touati, J. Worms, S. Briais, "The
 * Speedup Test", INRIA report inria-00443839, 2009/2010, section 3
 * (weights, time-proportional weights, significant benchmarks only).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "speeduptest.h"
#include "cache.h"

static void bench_init(st_bench_result *r)
{
    r->status = ST_OK;
    for (int c = 0; c < 3; c++) {
        r->centre_x[c] = r->centre_y[c] = r->speedup[c] = NAN;
    }
    r->searched = 0;
    r->prob_greater = NAN;
    r->prob_ci[0] = r->prob_ci[1] = NAN;
    r->k = 0;
    for (int p = 0; p < ST_N_PROTOCOLS; p++) {
        st_bench_protocol *b = &r->proto[p];
        b->highest = b->alpha = b->p_value = NAN;
        b->p_value_slowdown = NAN;
        b->decision = ST_INSUFFICIENT;
        b->guaranteed = 0;
        b->caveats = 0;
        b->speedup_ci[0] = b->speedup_ci[1] = NAN;
        b->speedup_estimate = NAN;
        b->speedup_ci_level = NAN;
    }
}

/* Minimum, mean and median of a sample from its sorted copy xs (the
 * mean from the values as given, summed in their order). */
static void centres(const double *x, const double *xs, size_t n, double *c)
{
    c[ST_CENTRE_MIN] = xs[0];
    c[ST_CENTRE_MEAN] = st_mean(x, n);
    c[ST_CENTRE_MEDIAN] = st_median_sorted(xs, n);
}

/* The sorted copies of both samples of a benchmark (x then y), sorted
 * once for the centres and the median protocol; up to SORTED_STACK runs
 * in all (most benchmarks) live on the stack. */
#define SORTED_STACK 512

/* cache (may be NULL): the tables kept across benchmarks; sorted: xs then
 * ys, ascending; means: of x and of y (st_mean) */
static int run_protocol(int proto, const double *x, size_t n, const double *y,
                        size_t m, const double *sorted, const double *means,
                        double alpha, int rigorous, st_verdict *v,
                        st_cache *cache)
{
    st_protocol_options opt = {0};
    opt.sorted = sorted;
    opt.means = means;
    opt.cache = cache;
    opt.suite = 1;
    return st_protocol(proto, x, n, y, m, alpha, rigorous, &opt, v);
}

/*
 * The level of a benchmark without a level of its own.  The original
 * SpeedupTest tool tried the risks 0.01, 0.02, ..., 0.50 and kept the
 * first at which the speedup was declared, so it reported 1 - alpha with
 * alpha rounded up to the 0.01 grid within [0.01, 0.5].  The exact search
 * (st_highest_alpha) gives the smallest significant risk alpha*; no
 * grid point below alpha* can be significant, so the answer is the first
 * significant grid point from ceil(100 alpha*) on.  The flowchart is not
 * monotone in alpha in general (the normality and location checks get
 * stricter as alpha grows), hence the walk up the grid rather than a
 * single rounding; it stops after at most 50 steps.  Without any
 * significant level the verdict is the one at alpha = 0.5, the loosest
 * level searched.
 */
static int searched_verdict(int proto, const double *x, size_t n,
                            const double *y, size_t m, const double *sorted,
                            const double *means, int rigorous,
                            double *highest, st_verdict *v,
                            st_cache *cache)
{
    double a = NAN;
    int st = st_highest_alpha(proto, x, n, y, m, rigorous, cache, &a);
    double conf = isnan(a) ? NAN : 1 - a;
    if (st != ST_OK) return st;
    *highest = conf;
    if (isnan(conf)) return run_protocol(proto, x, n, y, m, sorted, means, 0.5,
                                         rigorous, v, cache);
    double k0 = ceil(100.0 * (1.0 - conf) - 1e-7);
    int k = k0 < 1.0 ? 1 : (k0 > 50.0 ? 50 : (int) k0);
    for (; k <= 50; k++) {
        st = run_protocol(proto, x, n, y, m, sorted, means, k / 100.0,
                          rigorous, v, cache);
        if (st != ST_OK) return st;
        if (v->decision == ST_SIGNIFICANT) return ST_OK;
    }
    return ST_OK;   /* the verdict at 0.5, not significant */
}

int st_suite_bench(const double *x, size_t n, const double *y, size_t m,
                   double alpha, int rigorous, const int *protos, size_t k,
                   st_bench_result *out, st_cache *cache)
{
    bench_init(out);
    if (k > ST_N_PROTOCOLS) {
        out->status = ST_ERR_DOMAIN;
        return out->status;
    }
    for (size_t i = 0; i < k; i++) {
        if (!st_protocol_find(protos[i])) {
            out->status = ST_ERR_DOMAIN;
            return out->status;
        }
    }
    out->k = k;
    if (n == 0 || m == 0) {
        out->status = ST_ERR_TOO_FEW;
        return out->status;
    }
    double local[SORTED_STACK];
    double *sorted = n + m <= SORTED_STACK ? local
                                           : st_malloc(n + m, sizeof(double));
    if (!sorted) {
        out->status = ST_ERR_ALLOC;
        return out->status;
    }
    memcpy(sorted, x, n * sizeof(double));
    memcpy(sorted + n, y, m * sizeof(double));
    st_sort(sorted, n);
    st_sort(sorted + n, m);
    centres(x, sorted, n, out->centre_x);
    centres(y, sorted + n, m, out->centre_y);
    for (int c = 0; c < 3; c++)
        out->speedup[c] = out->centre_x[c] / out->centre_y[c];
    out->searched = isnan(alpha);
    double means[2] = {out->centre_x[ST_CENTRE_MEAN],
                       out->centre_y[ST_CENTRE_MEAN]};
    int st = ST_OK;
    for (size_t i = 0; i < k; i++) {
        int p = protos[i];
        st_bench_protocol *b = &out->proto[i];
        st_verdict v;
        if (out->searched)
            st = searched_verdict(p, x, n, y, m, sorted, means, rigorous,
                                  &b->highest, &v, cache);
        else
            st = run_protocol(p, x, n, y, m, sorted, means, alpha, rigorous,
                              &v, cache);
        if (st != ST_OK) {
            out->status = st;
            break;
        }
        b->alpha = v.alpha;
        b->decision = v.decision;
        b->guaranteed = v.guaranteed;
        b->caveats = v.caveats;
        b->p_value = v.p_value;
        b->p_value_slowdown = v.p_value_slowdown;
        b->speedup_ci[0] = v.speedup_ci[0];
        b->speedup_ci[1] = v.speedup_ci[1];
        b->speedup_estimate = v.speedup_estimate;
        b->speedup_ci_level = v.speedup_ci_level;
        if (isnan(out->prob_greater)) out->prob_greater = v.prob_greater;
        if (!isnan(v.prob_ci[0]) && isnan(out->prob_ci[0])) {
            /* the interval goes with its own estimate */
            out->prob_greater = v.prob_greater;
            out->prob_ci[0] = v.prob_ci[0];
            out->prob_ci[1] = v.prob_ci[1];
        }
    }
    if (sorted != local) free(sorted);
    return st;
}

/*
 * Proportion of accelerated benchmarks (section 4 of the 2013 paper):
 * a[p] of the nok analysed benchmarks have a significant speedup under
 * the p-th protocol of the columns.  The normal approximation behind the interval is trusted
 * when a - a^2/b = a (1 - a/b) > 5; the minimal number of benchmarks for
 * a precision r is ceil(z^2 C (1 - C) / r^2) with C = a / b.
 */
static int summarise_proportions(const size_t *a, size_t k, size_t nok,
                                 const st_suite_options *opt,
                                 st_suite_summary *out)
{
    out->b = (double) nok;
    for (size_t p = 0; p < k; p++) {
        out->a[p] = (double) a[p];
        st_result_init(&out->prop[p]);
        out->valid[p] = 0;
        out->min_benchmarks[p] = NAN;
        if (nok == 0) continue;
        int st = st_proportion_ci(out->a[p], out->b, opt->prop_conf_level,
                                  opt->prop_method, &out->prop[p]);
        if (st == ST_ERR_ALLOC) return st;
        double C = out->a[p] / out->b;
        out->valid[p] = out->a[p] * (1.0 - C) > 5.0;
        out->min_benchmarks[p] = st_min_benchmarks(C, opt->precision,
                                                   opt->prop_conf_level);
    }
    return ST_OK;
}

/* ---- the summary of a suite ---------------------------------------------- */

/*
 * Overall gain over the benchmarks with include[j] != 0 (eq. 2 of the
 * 2013 paper with weights W):  G = sum W (c(x) - c(y)) / sum W c(x), and
 * the overall speedup S = 1 / (1 - G) = sum W c(x) / sum W c(y).  G does
 * not change when every weight is multiplied by the same factor, so the
 * weights need not be normalised over the subset.  NAN when the subset is
 * empty or carries no weight.  The suite is streamed through
 * st_suite_bench in chunks, which keep per benchmark only the columns
 * read here.
 */
static void overall_columns(const st_suite_columns *cl, const double *w,
                            int centre, const int *include, double *gain,
                            double *speedup, size_t *used)
{
    long double num = 0.0L, den = 0.0L, rest = 0.0L;
    size_t k = 0;
    for (size_t j = 0; j < cl->nb; j++) {
        if (!include[j]) continue;
        double cx = cl->centre_x[centre][j], cy = cl->centre_y[centre][j];
        num += (long double) w[j] * (cx - cy);
        den += (long double) w[j] * cx;
        rest += (long double) w[j] * cy;
        k++;
    }
    *used = k;
    if (k == 0 || !(den > 0.0L)) {
        *gain = *speedup = NAN;
        return;
    }
    *gain = (double) (num / den);
    /* S = 1 / (1 - G) = sum W c(x) / sum W c(y), formed from the sums
     * themselves: den - num would lose sum W c(y) when it is below the
     * rounding of den */
    *speedup = (double) (den / rest);
}

/*
 * Weights.  "equal": W = 1.  "custom": the user's, when every analysed
 * benchmark has a finite non-negative weight and they do not all vanish;
 * otherwise equal weights (the original tool's fallback; out->weights
 * tells the caller).  "fraction": the 2009 report's time-proportional
 * weights W_j = c(x_j) / sum_i c(x_i), under each centre c.  Each column
 * is normalised to sum 1 over the analysed benchmarks (skipped ones get
 * NAN).  The significant-only gain of the mean (median) keeps the
 * benchmarks declared by the protocol of the columns with that centre
 * that comes first in the protocol table; the minimum has no test of its own: its gain keeps the
 * benchmarks declared by both.
 */
int st_suite_summarise(const st_suite_columns *cl, const double *custom,
                       const st_suite_options *opt, double *weights,
                       st_suite_summary *out)
{
    size_t nb = cl->nb;
    st_weights mode = opt->weights;
    if (mode == ST_WEIGHTS_CUSTOM) {
        int legal = custom != NULL;
        double total = 0.0;
        for (size_t j = 0; legal && j < nb; j++) {
            if (cl->status[j] != ST_OK) continue;
            if (!isfinite(custom[j]) || custom[j] < 0.0) legal = 0;
            else total += custom[j];
        }
        if (!(legal && total > 0.0 && isfinite(total))) mode = ST_WEIGHTS_EQUAL;
    }
    out->weights = mode;
    if (cl->k > ST_N_PROTOCOLS) return ST_ERR_DOMAIN;
    /* the decisions of each centre's protocol: of the columns' protocols
     * with that centre (st_protocol_def.centre), the first in the table */
    const double *primary[3] = {NULL, NULL, NULL};
    int code[3] = {ST_N_PROTOCOLS, ST_N_PROTOCOLS, ST_N_PROTOCOLS};
    for (size_t i = 0; i < cl->k; i++) {
        const st_protocol_def *def = st_protocol_find(cl->protos[i]);
        if (!def) return ST_ERR_DOMAIN;
        int c = def->centre;
        if (c >= 0 && c < 3 && cl->protos[i] < code[c]) {
            primary[c] = cl->decision[i];
            code[c] = cl->protos[i];
        }
    }
    size_t nok = 0;
    for (size_t j = 0; j < nb; j++) nok += cl->status[j] == ST_OK;
    out->n_used = nok;
    int *include = st_malloc(nb, sizeof(int));
    if (!include) return ST_ERR_ALLOC;
    for (int c = 0; c < 3; c++) {
        double *w = weights + (size_t) c * nb;
        long double total = 0.0L;
        for (size_t j = 0; j < nb; j++) {
            if (cl->status[j] != ST_OK) {
                w[j] = NAN;
                continue;
            }
            w[j] = mode == ST_WEIGHTS_CUSTOM ? custom[j]
                 : mode == ST_WEIGHTS_FRACTION ? cl->centre_x[c][j] : 1.0;
            total += w[j];
        }
        for (size_t j = 0; j < nb; j++)
            if (cl->status[j] == ST_OK) w[j] = (double) (w[j] / total);
        size_t used;
        for (size_t j = 0; j < nb; j++) include[j] = cl->status[j] == ST_OK;
        overall_columns(cl, w, c, include, &out->gain[c], &out->speedup[c],
                        &used);
        /* the protocols whose decisions choose the benchmarks: the
         * centre's own (the minimum: those of the mean and the median) */
        const double *dec[2] = {NULL, NULL};
        int nd = 0;
        if (c == ST_CENTRE_MIN) {
            if (primary[ST_CENTRE_MEAN]) dec[nd++] = primary[ST_CENTRE_MEAN];
            if (primary[ST_CENTRE_MEDIAN])
                dec[nd++] = primary[ST_CENTRE_MEDIAN];
        } else if (primary[c]) {
            dec[nd++] = primary[c];
        }
        for (size_t j = 0; j < nb; j++) {
            int in = cl->status[j] == ST_OK && nd > 0;
            for (int q = 0; q < nd && in; q++)
                in = dec[q][j] == ST_SIGNIFICANT;
            include[j] = in;
        }
        overall_columns(cl, w, c, include, &out->gain_sig[c],
                        &out->speedup_sig[c], &out->n_sig[c]);
    }
    free(include);
    size_t a[ST_N_PROTOCOLS] = {0};
    for (size_t p = 0; p < cl->k; p++)
        for (size_t j = 0; j < nb; j++)
            a[p] += cl->status[j] == ST_OK && cl->decision[p][j] == ST_SIGNIFICANT;
    return summarise_proportions(a, cl->k, nok, opt, out);
}

/* ---- R entry point -------------------------------------------------------- */
#include "ffi.h"

static size_t index_value(double v, size_t limit, const char *arg)
{
    if (!(v >= 0.0) || v != floor(v) || v > (double) limit)
        Rf_error("`%s` holds an invalid index or length.", arg);
    return (size_t) v;
}

/* The per-benchmark columns (a named list): the benchmark's own, then
 * `protocols`, the columns of each benchmark and protocol (k rows per
 * benchmark, benchmark after benchmark, the protocols in the order
 * asked). */
#define ST_BENCH_NCOL 14
static const char *bench_names[ST_BENCH_NCOL] = {
    "status", "min_x", "mean_x", "median_x", "min_y", "mean_y",
    "median_y", "speedup_min", "speedup_mean", "speedup_median",
    "searched", "prob_greater", "prob_greater_low", "prob_greater_high"
};

static double bench_field(const st_bench_result *r, int c)
{
    switch (c) {
    case 0: return r->status;
    case 1: case 2: case 3: return r->centre_x[c - 1];
    case 4: case 5: case 6: return r->centre_y[c - 4];
    case 7: case 8: case 9: return r->speedup[c - 7];
    case 10: return r->searched;
    case 12: return r->prob_ci[0];
    case 13: return r->prob_ci[1];
    default: return r->prob_greater;
    }
}

#define ST_PROTO_NCOL 11
static const char *proto_names[ST_PROTO_NCOL] = {
    "highest", "alpha", "decision", "guaranteed", "caveats", "p_value",
    "ci_low", "ci_high", "p_value_slowdown", "ci_estimate", "ci_level"
};

static double proto_field(const st_bench_protocol *b, int c)
{
    switch (c) {
    case 0: return b->highest;
    case 1: return b->alpha;
    case 2: return b->decision;
    case 3: return b->guaranteed;
    case 4: return b->caveats;
    case 5: return b->p_value;
    case 6: return b->speedup_ci[0];
    case 7: return b->speedup_ci[1];
    case 8: return b->p_value_slowdown;
    case 9: return b->speedup_estimate;
    default: return b->speedup_ci_level;
    }
}

/* The per-benchmark columns, allocated before the benchmarks are run;
 * bench_columns_fill() writes the results of benchmarks from .. from +
 * len - 1 into them, and bench_columns_list() names them. */
typedef struct {
    SEXP cols[ST_BENCH_NCOL];
    SEXP pc[ST_PROTO_NCOL];
} bench_cols;

/* (each column is kept in `hold`, a protected list of
 * ST_BENCH_NCOL + ST_PROTO_NCOL elements) */
static void bench_columns_alloc(bench_cols *bc, SEXP hold, size_t nb, size_t k)
{
    for (int c = 0; c < ST_BENCH_NCOL; c++) {
        bc->cols[c] = Rf_allocVector(REALSXP, (R_xlen_t) nb);
        SET_VECTOR_ELT(hold, c, bc->cols[c]);
    }
    for (int c = 0; c < ST_PROTO_NCOL; c++) {
        bc->pc[c] = Rf_allocVector(REALSXP, (R_xlen_t) (nb * k));
        SET_VECTOR_ELT(hold, ST_BENCH_NCOL + c, bc->pc[c]);
    }
}

static void bench_columns_fill(const bench_cols *bc,
                               const st_bench_result *res, size_t from,
                               size_t len, size_t k)
{
    for (int c = 0; c < ST_BENCH_NCOL; c++) {
        double *out = REAL(bc->cols[c]) + from;
        for (size_t j = 0; j < len; j++) out[j] = bench_field(&res[j], c);
    }
    for (int c = 0; c < ST_PROTO_NCOL; c++) {
        double *out = REAL(bc->pc[c]) + from * k;
        for (size_t j = 0; j < len; j++)
            for (size_t i = 0; i < k; i++)
                out[j * k + i] = proto_field(&res[j].proto[i], c);
    }
}

/* (the columns protected by the caller's `hold`) */
static SEXP bench_columns_list(bench_cols *bc)
{
    SEXP cols[ST_BENCH_NCOL + 1];
    for (int c = 0; c < ST_BENCH_NCOL; c++) cols[c] = bc->cols[c];
    cols[ST_BENCH_NCOL] = PROTECT(ffi_named_list(ST_PROTO_NCOL, proto_names, bc->pc));
    const char *names[ST_BENCH_NCOL + 1];
    for (int c = 0; c < ST_BENCH_NCOL; c++) names[c] = bench_names[c];
    names[ST_BENCH_NCOL] = "protocols";
    SEXP list = ffi_named_list(ST_BENCH_NCOL + 1, names, cols);
    UNPROTECT(1);
    return list;
}

static SEXP summary_sexp(const st_suite_summary *sum, size_t k)
{
    static const char *snames[] = {
        "weights", "gain", "speedup", "gain_sig", "speedup_sig", "n_used",
        "n_sig", "a", "b", "estimate", "conf_low", "conf_high", "valid",
        "min_benchmarks", "prop_status"
    };
    SEXP sv[15];
    sv[0] = PROTECT(Rf_ScalarInteger((int) sum->weights));
    sv[1] = PROTECT(Rf_allocVector(REALSXP, 3));
    sv[2] = PROTECT(Rf_allocVector(REALSXP, 3));
    sv[3] = PROTECT(Rf_allocVector(REALSXP, 3));
    sv[4] = PROTECT(Rf_allocVector(REALSXP, 3));
    sv[5] = PROTECT(Rf_ScalarReal((double) sum->n_used));
    sv[6] = PROTECT(Rf_allocVector(REALSXP, 3));
    for (int c = 0; c < 3; c++) {
        REAL(sv[1])[c] = sum->gain[c];
        REAL(sv[2])[c] = sum->speedup[c];
        REAL(sv[3])[c] = sum->gain_sig[c];
        REAL(sv[4])[c] = sum->speedup_sig[c];
        REAL(sv[6])[c] = (double) sum->n_sig[c];
    }
    for (int i = 7; i < 15; i++)
        sv[i] = PROTECT(Rf_allocVector((i == 12 || i == 14) ? INTSXP : REALSXP,
                                       i == 8 ? 1 : (R_xlen_t) k));
    REAL(sv[8])[0] = sum->b;
    for (size_t p = 0; p < k; p++) {
        REAL(sv[7])[p] = sum->a[p];
        REAL(sv[9])[p] = sum->b > 0 ? sum->a[p] / sum->b : NAN;
        REAL(sv[10])[p] = sum->prop[p].conf_int[0];
        REAL(sv[11])[p] = sum->prop[p].conf_int[1];
        INTEGER(sv[12])[p] = sum->valid[p];
        REAL(sv[13])[p] = sum->min_benchmarks[p];
        INTEGER(sv[14])[p] = sum->prop[p].status;
    }
    SEXP out = ffi_named_list(15, snames, sv);
    UNPROTECT(15);
    return out;
}

/* The packed samples of a suite as the R layer hands them over: all run
 * times in `values`, benchmark j's x at values[x_start[j] + 0..x_len[j]),
 * its y likewise, its risk alpha[j].  Checked here (lengths agree, every
 * slice lies inside `values`). */
typedef struct {
    const double *v, *xs, *xl, *ys, *yl, *al;
    size_t nv, nb;
    int rig;
} suite_input;

static suite_input read_suite_input(SEXP values, SEXP x_start, SEXP x_len,
                                    SEXP y_start, SEXP y_len, SEXP alpha,
                                    SEXP rigorous)
{
    suite_input in;
    size_t k;
    in.v = ffi_doubles(values, &in.nv, "values");
    in.xs = ffi_doubles(x_start, &in.nb, "x_start");
    in.xl = ffi_doubles(x_len, &k, "x_len");
    if (k != in.nb) Rf_error("`x_len` has the wrong length.");
    in.ys = ffi_doubles(y_start, &k, "y_start");
    if (k != in.nb) Rf_error("`y_start` has the wrong length.");
    in.yl = ffi_doubles(y_len, &k, "y_len");
    if (k != in.nb) Rf_error("`y_len` has the wrong length.");
    in.al = ffi_doubles(alpha, &k, "alpha");
    if (k != in.nb) Rf_error("`alpha` has the wrong length.");
    in.rig = ffi_flag(rigorous, "rigorous");
    for (size_t j = 0; j < in.nb; j++) {
        size_t s0 = index_value(in.xs[j], in.nv, "x_start");
        index_value(in.xl[j], in.nv - s0, "x_len");
        s0 = index_value(in.ys[j], in.nv, "y_start");
        index_value(in.yl[j], in.nv - s0, "y_len");
    }
    return in;
}

/* The protocol codes of an integer vector into protos: distinct codes of
 * the table, at most ST_N_PROTOCOLS of them; returns their number. */
static size_t read_protocols(SEXP protocols, int *protos)
{
    if (!Rf_isInteger(protocols))
        Rf_error("`protocols` must be an integer vector of protocol codes.");
    R_xlen_t k = XLENGTH(protocols);
    if (k > ST_N_PROTOCOLS) Rf_error("`protocols` names a protocol twice.");
    for (R_xlen_t i = 0; i < k; i++) {
        int p = INTEGER(protocols)[i];
        if (!st_protocol_find(p))
            Rf_error("`protocols` holds an unknown protocol code.");
        for (R_xlen_t j = 0; j < i; j++)
            if (protos[j] == p) Rf_error("`protocols` names a protocol twice.");
        protos[i] = p;
    }
    return (size_t) k;
}

/* One chunk of a suite: the per-benchmark columns of bench_cols for the
 * protocols `protocols` (codes).  The exact rank-sum table is kept across
 * the chunk. */
SEXP ffi_suite_benchmarks(SEXP values, SEXP x_start, SEXP x_len,
                          SEXP y_start, SEXP y_len, SEXP alpha,
                          SEXP rigorous, SEXP protocols)
{
    int protos[ST_N_PROTOCOLS];
    size_t k = read_protocols(protocols, protos);
    suite_input in = read_suite_input(values, x_start, x_len, y_start, y_len,
                                      alpha, rigorous);
    const double *v = in.v, *xs = in.xs, *xl = in.xl, *ys = in.ys,
                 *yl = in.yl, *al = in.al;
    size_t nb = in.nb;
    int rig = in.rig;
    /* the results of a block of benchmarks at a time, written into the
     * columns after each block (a buffer that stays in the cache instead
     * of a result per benchmark of the whole chunk) */
    bench_cols bc;
    SEXP hold = PROTECT(Rf_allocVector(VECSXP, ST_BENCH_NCOL + ST_PROTO_NCOL));
    bench_columns_alloc(&bc, hold, nb, k);
    enum { BLOCK = 64 };
    st_bench_result res[BLOCK];
    st_cache cache;
    st_cache_init(&cache);
    int oom = 0;
    for (size_t from = 0; from < nb && !oom; from += BLOCK) {
        size_t len = nb - from < BLOCK ? nb - from : BLOCK;
        for (size_t b = 0; b < len && !oom; b++) {
            size_t j = from + b;
            st_suite_bench(v + (size_t) xs[j], (size_t) xl[j],
                           v + (size_t) ys[j], (size_t) yl[j], al[j], rig,
                           protos, k, &res[b], &cache);
            oom = res[b].status == ST_ERR_ALLOC;
        }
        if (!oom) bench_columns_fill(&bc, res, from, len, k);
    }
    st_cache_free(&cache);
    if (oom) Rf_error("out of memory.");
    SEXP out = bench_columns_list(&bc);
    UNPROTECT(1);
    return out;
}

/* The variance of each sample values[start[j]] .. values[start[j] +
 * len[j] - 1], as R's var() computes it (st_var about st_mean; NA below 2
 * values): the spread the mean protocol's `detectable` speedup reads
 * (R/tolerance.R), for every benchmark in one call. */
SEXP ffi_suite_variances(SEXP values, SEXP start, SEXP len)
{
    ffi_samples s = ffi_read_samples(values, start, len);
    SEXP out = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) s.k));
    double *o = REAL(out);
    for (size_t j = 0; j < s.k; j++) {
        const double *x = s.values + (size_t) s.start[j];
        size_t n = (size_t) s.len[j];
        o[j] = n < 2 ? NA_REAL : st_var(x, n, st_mean(x, n));
    }
    UNPROTECT(1);
    return out;
}

/* The summary of a suite from its per-benchmark columns; decision: an
 * nb x k matrix (column-major) of the decisions of the protocols
 * `protocols` (codes). */
SEXP ffi_suite_summary(SEXP status, SEXP centre_x, SEXP centre_y,
                       SEXP decision, SEXP protocols, SEXP weights,
                       SEXP custom, SEXP prop_conf_level, SEXP prop_method,
                       SEXP precision)
{
    size_t nb, k;
    st_suite_columns cl;
    cl.status = ffi_doubles(status, &nb, "status");
    cl.nb = nb;
    const double *cx = ffi_doubles(centre_x, &k, "centre_x");
    if (k != 3 * nb) Rf_error("`centre_x` has the wrong length.");
    const double *cy = ffi_doubles(centre_y, &k, "centre_y");
    if (k != 3 * nb) Rf_error("`centre_y` has the wrong length.");
    cl.k = read_protocols(protocols, cl.protos);
    const double *dc = ffi_doubles(decision, &k, "decision");
    if (k != cl.k * nb) Rf_error("`decision` has the wrong length.");
    for (int c = 0; c < 3; c++) {
        cl.centre_x[c] = cx + (size_t) c * nb;
        cl.centre_y[c] = cy + (size_t) c * nb;
    }
    for (size_t i = 0; i < cl.k; i++) cl.decision[i] = dc + i * nb;
    int wmode = ffi_int(weights, "weights");
    if (wmode < 0 || wmode > 2) Rf_error("`weights` must be 0, 1 or 2.");
    const double *cw = ffi_doubles(custom, &k, "custom");
    if (k != nb && k != 0) Rf_error("`custom` has the wrong length.");
    st_suite_options opt;
    opt.weights = (st_weights) wmode;
    opt.prop_conf_level = ffi_double(prop_conf_level, "prop_conf_level");
    int pm = ffi_int(prop_method, "prop_method");
    if (pm < 0 || pm > 4) Rf_error("`prop_method` must be between 0 and 4.");
    opt.prop_method = (st_prop_method) pm;
    opt.precision = ffi_double(precision, "precision");
    if (nb > (size_t) INT_MAX) Rf_error("too many benchmarks.");
    SEXP w = PROTECT(Rf_allocMatrix(REALSXP, (int) nb, 3));
    st_suite_summary sum;
    int st = st_suite_summarise(&cl, k ? cw : NULL, &opt, REAL(w), &sum);
    if (st == ST_ERR_ALLOC) Rf_error("out of memory.");
    if (st != ST_OK) Rf_error("the suite's summary failed (status %d).", st);
    SEXP summ = PROTECT(summary_sexp(&sum, cl.k));
    static const char *onames[] = {"weights", "summary"};
    SEXP ov[2] = {w, summ};
    SEXP out = ffi_named_list(2, onames, ov);
    UNPROTECT(2);
    return out;
}

/* ---- reading a suite given as a list --------------------------------------- */

/*
 * A suite given as a list of benchmarks, list(x = , y = ) each, is read
 * here in one pass instead of R-level loops over the elements (at 10,000
 * benchmarks such loops take as long as the core).  ffi_suite_list_read
 * counts the run times kept of the benchmarks that need no check message
 * (-1 for the others): a plain list (VECSXP) of at
 * least two elements, none named "conf_level" or "weight", whose x (the
 * element named "x", else the first) and y (named "y", else the second)
 * are double vectors without a class, non-empty once NA/NaN are dropped
 * (na_rm) and otherwise finite and positive.  Anything else, including
 * every doubtful case, goes through the R checks one benchmark at a time,
 * which accept the clean benchmarks too: the reading only decides which
 * path is taken, never the result.  When every benchmark is clean (the
 * usual case) the same pass has copied their run times into one vector
 * (x then y, benchmark after benchmark).  Otherwise ffi_suite_list_pack
 * packs them, the clean ones straight from the list (sized by their
 * counts) and the others from the samples the R checks returned.
 */

/* The element of list el named `name` (the first such), R_NilValue when
 * none. */
static SEXP list_elt_named(SEXP el, SEXP names, const char *name)
{
    if (names == R_NilValue) return R_NilValue;
    R_xlen_t len = XLENGTH(el);
    for (R_xlen_t i = 0; i < len; i++)
        if (strcmp(CHAR(STRING_ELT(names, i)), name) == 0)
            return VECTOR_ELT(el, i);
    return R_NilValue;
}

static int list_has_name(SEXP names, const char *name)
{
    if (names == R_NilValue) return 0;
    R_xlen_t len = XLENGTH(names);
    for (R_xlen_t i = 0; i < len; i++)
        if (strcmp(CHAR(STRING_ELT(names, i)), name) == 0) return 1;
    return 0;
}

/* x and y of a benchmark element (R_NilValue when el is no plain list of
 * two or more elements, or names a level or weight). */
static int list_samples(SEXP el, SEXP *x, SEXP *y)
{
    if (TYPEOF(el) != VECSXP || XLENGTH(el) < 2) return 0;
    SEXP nm = Rf_getAttrib(el, R_NamesSymbol);
    if (list_has_name(nm, "conf_level") || list_has_name(nm, "weight"))
        return 0;
    *x = list_elt_named(el, nm, "x");
    *y = list_elt_named(el, nm, "y");
    if (*x == R_NilValue) *x = VECTOR_ELT(el, 0);
    if (*y == R_NilValue) *y = VECTOR_ELT(el, 1);
    return 1;
}

/* The number of run times kept from v (NA/NaN dropped when na_rm), or -1
 * when v is not a plain double vector of finite positive values; the
 * kept values are copied to out + *pos (out has room for all of v) and
 * *pos is left after them, whatever the answer. */
static R_xlen_t clean_copy(SEXP v, int na_rm, double *out, R_xlen_t *pos)
{
    if (TYPEOF(v) != REALSXP || Rf_isObject(v)) return -1;
    const double *p = REAL(v);
    R_xlen_t len = XLENGTH(v), k = *pos;
    int ok = 1;
    for (R_xlen_t i = 0; i < len; i++) {
        double t = p[i];
        if (isnan(t)) {
            ok &= na_rm;
            continue;
        }
        ok &= (t > 0) & (t < HUGE_VAL);
        out[k++] = t;
    }
    R_xlen_t kept = k - *pos;
    *pos = k;
    return ok && kept > 0 ? kept : -1;
}

/* One pass over the suite's list: the number of run times each benchmark
 * keeps (x and y together) when it is clean, -1 otherwise, and, when
 * every benchmark is clean, the packed samples of ffi_suite_list_pack
 * (read while they are checked; NULL otherwise).  A first walk over the
 * elements (not their values) sizes the packed vector. */
SEXP ffi_suite_list_read(SEXP data, SEXP na_rm)
{
    if (TYPEOF(data) != VECSXP) Rf_error("`data` must be a list.");
    int rm = ffi_flag(na_rm, "na_rm");
    R_xlen_t nb = XLENGTH(data), room = 0;
    for (R_xlen_t j = 0; j < nb; j++) {
        SEXP x, y;
        if (list_samples(VECTOR_ELT(data, j), &x, &y) &&
            TYPEOF(x) == REALSXP && TYPEOF(y) == REALSXP)
            room += XLENGTH(x) + XLENGTH(y);
    }
    if (nb > INT_MAX) Rf_error("too many benchmarks.");
    SEXP count = PROTECT(Rf_allocVector(REALSXP, nb));
    SEXP values = PROTECT(Rf_allocVector(REALSXP, room));
    SEXP xst = PROTECT(Rf_allocVector(REALSXP, nb));
    SEXP xln = PROTECT(Rf_allocVector(INTSXP, nb));
    SEXP yst = PROTECT(Rf_allocVector(REALSXP, nb));
    SEXP yln = PROTECT(Rf_allocVector(INTSXP, nb));
    double *out = REAL(values);
    R_xlen_t pos = 0;
    int all_clean = 1;
    for (R_xlen_t j = 0; j < nb; j++) {
        SEXP x, y;
        R_xlen_t p0 = pos, cx = -1, cy = -1;
        if (list_samples(VECTOR_ELT(data, j), &x, &y) &&
            TYPEOF(x) == REALSXP && TYPEOF(y) == REALSXP &&
            XLENGTH(x) + XLENGTH(y) <= room - pos) {
            cx = clean_copy(x, rm, out, &pos);
            if (cx >= 0) cy = clean_copy(y, rm, out, &pos);
        }
        if (cx < 0 || cy < 0 || cx > INT_MAX || cy > INT_MAX) {
            pos = p0;
            REAL(count)[j] = -1.0;
            all_clean = 0;
            continue;
        }
        REAL(count)[j] = (double) (cx + cy);
        REAL(xst)[j] = (double) p0;
        INTEGER(xln)[j] = (int) cx;
        REAL(yst)[j] = (double) (p0 + cx);
        INTEGER(yln)[j] = (int) cy;
    }
    SEXP packed = R_NilValue;
    if (all_clean) {
        if (pos < room) {              /* missing values dropped */
            SEXP v = PROTECT(Rf_allocVector(REALSXP, pos));
            if (pos) memcpy(REAL(v), out, (size_t) pos * sizeof(double));
            values = v;
        } else {
            PROTECT(values);
        }
        static const char *names[] = {"values", "x_start", "x_len",
                                      "y_start", "y_len"};
        SEXP vals[5] = {values, xst, xln, yst, yln};
        packed = ffi_named_list(5, names, vals);
        UNPROTECT(1);
    }
    PROTECT(packed);
    static const char *onames[] = {"count", "packed"};
    SEXP ov[2] = {count, packed};
    SEXP res = ffi_named_list(2, onames, ov);
    UNPROTECT(7);
    return res;
}

/* Appends the values of v (NA/NaN dropped when na_rm) at out + *pos,
 * out holding `size` values. */
static void pack_sample(SEXP v, int na_rm, double *out, R_xlen_t *pos,
                        R_xlen_t size)
{
    const double *p = REAL(v);
    R_xlen_t len = XLENGTH(v), k = *pos;
    for (R_xlen_t i = 0; i < len; i++) {
        if (na_rm && isnan(p[i])) continue;
        if (k == size) Rf_error("invalid suite list.");
        out[k++] = p[i];
    }
    *pos = k;
}

/* list(values, x_start, x_len, y_start, y_len) of the benchmarks j with
 * keep[j]: from data[[j]] when count[j] >= 0 (clean: count[j] run times
 * kept, as ffi_suite_list_read found), else from xs[[j]], ys[[j]] (double
 * vectors already checked).  Starts are 0-based doubles, lengths
 * integers.  The clean samples' values are only read to be copied (and
 * checked against their counts there). */
SEXP ffi_suite_list_pack(SEXP data, SEXP count, SEXP xs, SEXP ys,
                         SEXP keep, SEXP na_rm)
{
    R_xlen_t nb = XLENGTH(data);
    if (TYPEOF(data) != VECSXP || TYPEOF(xs) != VECSXP ||
        TYPEOF(ys) != VECSXP || TYPEOF(count) != REALSXP ||
        TYPEOF(keep) != LGLSXP || XLENGTH(xs) != nb || XLENGTH(ys) != nb ||
        XLENGTH(count) != nb || XLENGTH(keep) != nb)
        Rf_error("invalid suite list.");
    int rm = ffi_flag(na_rm, "na_rm");
    const double *cnt = REAL(count);
    R_xlen_t nk = 0, total = 0;
    for (R_xlen_t j = 0; j < nb; j++) {
        if (LOGICAL(keep)[j] != 1) continue;
        SEXP x, y;
        if (cnt[j] >= 0) {
            if (!(cnt[j] <= (double) R_XLEN_T_MAX))
                Rf_error("invalid suite list.");
            total += (R_xlen_t) cnt[j];
        } else {
            x = VECTOR_ELT(xs, j);
            y = VECTOR_ELT(ys, j);
            if (TYPEOF(x) != REALSXP || TYPEOF(y) != REALSXP)
                Rf_error("invalid suite list.");
            total += XLENGTH(x) + XLENGTH(y);
        }
        nk++;
    }
    if (nk > INT_MAX) Rf_error("too many benchmarks.");
    SEXP values = PROTECT(Rf_allocVector(REALSXP, total));
    SEXP xst = PROTECT(Rf_allocVector(REALSXP, nk));
    SEXP xln = PROTECT(Rf_allocVector(INTSXP, nk));
    SEXP yst = PROTECT(Rf_allocVector(REALSXP, nk));
    SEXP yln = PROTECT(Rf_allocVector(INTSXP, nk));
    R_xlen_t pos = 0, b = 0;
    for (R_xlen_t j = 0; j < nb; j++) {
        if (LOGICAL(keep)[j] != 1) continue;
        SEXP x, y;
        int cl = cnt[j] >= 0;
        if (cl) {
            if (!list_samples(VECTOR_ELT(data, j), &x, &y) ||
                TYPEOF(x) != REALSXP || TYPEOF(y) != REALSXP)
                Rf_error("invalid suite list.");
        } else {
            x = VECTOR_ELT(xs, j);
            y = VECTOR_ELT(ys, j);
        }
        R_xlen_t p0 = pos, b0 = pos;
        REAL(xst)[b] = (double) pos;
        pack_sample(x, cl && rm, REAL(values), &pos, total);
        if (pos - p0 > INT_MAX) Rf_error("too many run times in a sample.");
        INTEGER(xln)[b] = (int) (pos - p0);
        p0 = pos;
        REAL(yst)[b] = (double) pos;
        pack_sample(y, cl && rm, REAL(values), &pos, total);
        if (pos - p0 > INT_MAX) Rf_error("too many run times in a sample.");
        INTEGER(yln)[b] = (int) (pos - p0);
        if (cl && (double) (pos - b0) != cnt[j])
            Rf_error("invalid suite list.");
        b++;
    }
    static const char *names[] = {"values", "x_start", "x_len", "y_start",
                                  "y_len"};
    SEXP vals[5] = {values, xst, xln, yst, yln};
    SEXP out = ffi_named_list(5, names, vals);
    UNPROTECT(5);
    return out;
}
