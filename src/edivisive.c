/*
 * edivisive.c -- E-divisive change points (Matteson and James 2014): a
 * series is split where the energy distance between the two sides is
 * largest, one change at a time, each kept when a permutation test
 * rejects.
 *
 * For a segment y_0 .. y_{L-1} of the series, d(i, j) = |y_i - y_j|^a
 * (0 < a <= 2), and a split tau with a right end kappa (the right cluster
 * is tau .. kappa - 1, kappa <= L, each cluster at least min_size long):
 *
 *   Q(tau, kappa) = tau (kappa - tau) / kappa * [ 2 AB / (tau (kappa - tau))
 *                   - B / C(kappa - tau, 2) - A / C(tau, 2) ]
 *
 * where A sums d over the pairs inside 0 .. tau - 1, B over the pairs
 * inside tau .. kappa - 1 and AB over the pairs across.  The segment's
 * best (tau, kappa) is found in O(L^2): for the first tau every kappa's
 * B and AB grow by one row each; moving tau up by one moves the value
 * y_tau from the right cluster to the left one, so A gains its distances
 * to the left, and for each kappa B loses (and AB gains) its distances to
 * y_{tau+1} .. y_{kappa-1} while AB loses its distances to the left.  The
 * first maximum in the order (tau, kappa) ascending is kept, as the
 * reference implementation (R package ecp, e.divisive()) keeps it.
 *
 * The procedure: among the current segments, the one whose best split
 * has the largest Q is split there if the permutation test rejects: R
 * times, the values are permuted within each current segment and the
 * largest Q over the segments recomputed; the p-value is (1 + the number
 * of permutations whose largest Q reaches the observed one) / (R + 1).  It
 * stops at the first split whose p-value exceeds sig_level, or, with a
 * fixed number of changes, after that many splits (no test).  The
 * permutations use the package's own generator (xoshiro256**, seeded by
 * splitmix64), so a seed gives the same answer on every platform; they
 * are not R's sample() draws, so the p-values agree with ecp's in law, not
 * draw for draw.
 *
 * References
 *   Matteson, D. S. and James, N. A. (2014). A nonparametric approach for
 *     multiple change point analysis of multivariate data. Journal of the
 *     American Statistical Association 109(505), 334-345.
 *   Szekely, G. J. and Rizzo, M. L. (2005). Hierarchical clustering via
 *     joint between-within distances: extending Ward's minimum variance
 *     method. Journal of Classification 22, 151-183.
 *   Blackman, D. and Vigna, S. (2021). Scrambled linear pseudorandom
 *     number generators. ACM Transactions on Mathematical Software 47(4).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "speeduptest.h"

/* ---- the generator of the permutations ------------------------------------ */

typedef struct { uint64_t s[4]; } ed_rng;

static uint64_t ed_splitmix64(uint64_t *z)
{
    uint64_t x = (*z += 0x9e3779b97f4a7c15ULL);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t ed_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t ed_next(ed_rng *g)
{
    uint64_t *s = g->s;
    uint64_t r = ed_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ed_rotl(s[3], 45);
    return r;
}

/* A uniform index in 0 .. k - 1 (k < 2^32), by rejection: no bias. */
static size_t ed_index(ed_rng *g, size_t k)
{
    uint64_t lim = (UINT64_MAX / k) * k;
    uint64_t u;
    do u = ed_next(g); while (u >= lim);
    return (size_t) (u % k);
}

/* ---- the best split of one segment ---------------------------------------- */

static double ed_dist(double a, double b, double expo)
{
    double d = fabs(a - b);
    return expo == 1.0 ? d : pow(d, expo);
}

/* The best split of y[0 .. L-1]: *tau (its offset, or -1 when the segment
 * is shorter than 2 min_size) and *q (-INFINITY then).  B and AB:
 * buffers of L + 1 doubles. */
static void ed_split(const double *y, size_t L, size_t min_size,
                     double expo, double *B, double *AB, long *tau,
                     double *q)
{
    *tau = -1;
    *q = -INFINITY;
    if (L < 2 * min_size) return;
    size_t t1 = min_size;
    double A = 0.0;
    for (size_t i = 0; i < t1; i++)
        for (size_t j = i + 1; j < t1; j++) A += ed_dist(y[i], y[j], expo);
    /* kappa = t2 from 2 t1 up: B[t2], AB[t2] for the right cluster t1 .. t2-1 */
    double b = 0.0, ab = 0.0;
    for (size_t i = t1; i < 2 * t1; i++) {
        for (size_t j = i + 1; j < 2 * t1; j++) b += ed_dist(y[i], y[j], expo);
        for (size_t j = 0; j < t1; j++) ab += ed_dist(y[j], y[i], expo);
    }
    B[2 * t1] = b;
    AB[2 * t1] = ab;
    for (size_t t2 = 2 * t1 + 1; t2 <= L; t2++) {
        double rb = 0.0, rab = 0.0, v = y[t2 - 1];
        for (size_t i = t1; i < t2 - 1; i++) rb += ed_dist(y[i], v, expo);
        for (size_t i = 0; i < t1; i++) rab += ed_dist(y[i], v, expo);
        B[t2] = B[t2 - 1] + rb;
        AB[t2] = AB[t2 - 1] + rab;
    }
    for (;;) {
        for (size_t t2 = t1 + min_size; t2 <= L; t2++) {
            double n1 = (double) t1, n2 = (double) (t2 - t1);
            double v = 2.0 * AB[t2] / (n1 * n2) -
                       2.0 * B[t2] / (n2 * (n2 - 1.0)) -
                       2.0 * A / (n1 * (n1 - 1.0));
            v *= n1 * n2 / (double) t2;
            if (v > *q) {
                *q = v;
                *tau = (long) t1;
            }
        }
        /* y[t1] moves to the left cluster */
        if (t1 + 1 + min_size > L) break;
        double v = y[t1], add_a = 0.0;
        for (size_t i = 0; i < t1; i++) add_a += ed_dist(y[i], v, expo);
        A += add_a;
        double add_b = 0.0;
        for (size_t j = t1 + 1; j < t1 + 1 + min_size - 1; j++)
            add_b += ed_dist(v, y[j], expo);
        for (size_t t2 = t1 + 1 + min_size; t2 <= L; t2++) {
            add_b += ed_dist(v, y[t2 - 1], expo);
            B[t2] -= add_b;
            AB[t2] += add_b - add_a;
        }
        t1++;
    }
}

/* ---- the procedure --------------------------------------------------------- */

typedef struct {
    size_t a, b;          /* the segment a .. b - 1 */
    long tau;             /* its best split (absolute), -1: none */
    double q;
} ed_segment;

/* The segment with the largest Q (the first on a tie), or -1. */
static long ed_best(const ed_segment *seg, size_t ns)
{
    long best = -1;
    double q = -INFINITY;
    for (size_t i = 0; i < ns; i++)
        if (seg[i].tau >= 0 && seg[i].q > q) {
            q = seg[i].q;
            best = (long) i;
        }
    return best;
}

int st_edivisive(const double *x, size_t n, const st_edivisive_options *opt,
                 st_edivisive_result *out)
{
    out->n_changes = 0;
    out->change = NULL;
    out->p_value = NULL;
    size_t min_size = opt->min_size, R = opt->permutations;
    double expo = opt->exponent;
    if (min_size < 2 || !(expo > 0 && expo <= 2) ||
        (!opt->max_changes && !(opt->sig_level > 0 && opt->sig_level < 1)))
        return ST_ERR_DOMAIN;
    if (n > ST_EDIVISIVE_MAX_N) return ST_ERR_TOO_MANY;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return ST_ERR_DOMAIN;
    size_t cap = n / min_size + 2;
    ed_segment *seg = st_malloc(cap, sizeof(ed_segment));
    double *buf = st_malloc(3 * (n + 1), sizeof(double));
    size_t *chg = st_malloc(cap, sizeof(size_t));
    double *pv = st_malloc(cap, sizeof(double));
    if (!seg || !buf || !chg || !pv) {
        free(seg);
        free(buf);
        free(chg);
        free(pv);
        return ST_ERR_ALLOC;
    }
    double *B = buf, *AB = buf + (n + 1), *perm = buf + 2 * (n + 1);
    ed_rng g;
    uint64_t z = opt->seed;
    for (int i = 0; i < 4; i++) g.s[i] = ed_splitmix64(&z);
    size_t ns = 1, nc = 0;
    int status = ST_OK;
    seg[0].a = 0;
    seg[0].b = n;
    ed_split(x, n, min_size, expo, B, AB, &seg[0].tau, &seg[0].q);
    size_t limit = opt->max_changes ? opt->max_changes : (size_t) -1;
    while (nc < limit) {
        long bi = ed_best(seg, ns);
        if (bi < 0) break;
        double obs = seg[bi].q, p = 0.0;
        if (!opt->max_changes) {
            size_t reach = 0;
            for (size_t r = 0; r < R; r++) {
                if (st_check_interrupt()) {
                    status = ST_ERR_INTERRUPTED;
                    break;
                }
                double top = -INFINITY;
                for (size_t i = 0; i < ns; i++) {
                    size_t a = seg[i].a, L = seg[i].b - a;
                    memcpy(perm + a, x + a, L * sizeof(double));
                    for (size_t j = L; j > 1; j--) {
                        size_t u = ed_index(&g, j);
                        double t = perm[a + j - 1];
                        perm[a + j - 1] = perm[a + u];
                        perm[a + u] = t;
                    }
                    long tau;
                    double q;
                    ed_split(perm + a, L, min_size, expo, B, AB, &tau, &q);
                    if (q > top) top = q;
                }
                if (top >= obs) reach++;
            }
            if (status != ST_OK) break;
            p = (1.0 + (double) reach) / ((double) R + 1.0);
            if (p > opt->sig_level) break;
        }
        /* split segment bi at its tau */
        size_t a = seg[bi].a, b = seg[bi].b, t = a + (size_t) seg[bi].tau;
        chg[nc] = t;
        pv[nc] = p;
        nc++;
        memmove(seg + bi + 2, seg + bi + 1, (ns - (size_t) bi - 1) *
                sizeof(ed_segment));
        ns++;
        seg[bi].b = t;
        seg[bi + 1].a = t;
        seg[bi + 1].b = b;
        for (long i = bi; i <= bi + 1; i++) {
            ed_split(x + seg[i].a, seg[i].b - seg[i].a, min_size, expo, B, AB,
                     &seg[i].tau, &seg[i].q);
        }
        if (st_check_interrupt()) {
            status = ST_ERR_INTERRUPTED;
            break;
        }
    }
    free(seg);
    free(buf);
    if (status != ST_OK) {
        free(chg);
        free(pv);
        return status;
    }
    out->n_changes = nc;
    out->change = chg;
    out->p_value = pv;
    return ST_OK;
}

/* ---- R entry point ----------------------------------------------------------- */
#include "ffi.h"

/* ffi_edivisive(x, sig_level, R, min_size, exponent, k, seed):
 * list(status, change (0-based first index of each new segment, in the
 * order found), p_value). */
SEXP ffi_edivisive(SEXP x, SEXP sig_level, SEXP R, SEXP min_size,
                   SEXP exponent, SEXP k, SEXP seed)
{
    size_t n;
    const double *px = ffi_doubles(x, &n, "x");
    st_edivisive_options o;
    o.sig_level = ffi_double(sig_level, "sig_level");
    o.permutations = (size_t) ffi_double(R, "R");
    o.min_size = (size_t) ffi_double(min_size, "min_size");
    o.exponent = ffi_double(exponent, "exponent");
    o.max_changes = (size_t) ffi_double(k, "k");
    o.seed = (uint64_t) ffi_double(seed, "seed");
    st_edivisive_result r;
    int s = st_edivisive(px, n, &o, &r);
    static const char *names[] = {"status", "change", "p_value"};
    SEXP vals[3];
    vals[0] = PROTECT(Rf_ScalarInteger(s));
    vals[1] = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) r.n_changes));
    vals[2] = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) r.n_changes));
    for (size_t i = 0; i < r.n_changes; i++) {
        REAL(vals[1])[i] = (double) r.change[i];
        REAL(vals[2])[i] = r.p_value[i];
    }
    free(r.change);
    free(r.p_value);
    SEXP out = ffi_named_list(3, names, vals);
    UNPROTECT(3);
    return out;
}
