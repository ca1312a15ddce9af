/*
 * plan-rank.c -- the runs of each version at which the rank-sum test
 * reaches a power, by Noether's normal approximation on the law a plan's
 * simulation draws from, averaged over the law of the spread (the
 * assurance).
 *
 * Noether, G. E. (1987). Sample size determination for some common
 * nonparametric tests. JASA 82(398), 645-647: the rank-sum test of k runs
 * of each version at level alpha rejects with probability about
 *   Phi((p - 1/2) sqrt(12 k^2 / (2 k + 1)) - z_{1-alpha}),
 * p = P[X > Y] (12 k^2 / (2 k + 1) is the inverse of the null variance of
 * U / k^2).  O'Hagan, A., Stevens, J. W. and Campbell, M. J. (2005).
 * Assurance in clinical trial design. Pharmaceutical Statistics 4(3),
 * 187-201: the power averaged over the law of the unknown spread.
 *
 * The law (plan_samples_median() in R/plan-runs.R) is, for each version,
 * a mixture of normals of the log times with means mu_i and one kernel
 * sd; the difference of a run of each has the means d_ij = mu_x_i - mu_y_j
 * and the sd s_d, so at the change t (a log ratio) and the spread factor
 * w
 *   p(t / w) = mean_ij Phi((d_ij + t / w) / s_d)
 * exactly.  The spread factors w are given (the midpoint quantiles of the
 * law of the spread); p is computed at `nodes` equally spaced points of
 * t / w between its extremes and interpolated at every t / w by the
 * monotone cubic Hermite spline of Fritsch and Carlson (1980), SIAM J.
 * Numer. Anal. 17(2), 238-246, as R's splinefun(method = "monoH.FC")
 * makes and evaluates it (linear beyond the end nodes).  The assurance
 * at k runs is the mean over the w of Noether's power; the smallest k
 * that reaches the power is found by doubling from 2, then bisection on
 * whole numbers.  Means are taken as R's mean() takes them (r_mean()), and
 * Phi within a unit or two in the last place of Rmath's pnorm
 * (phi_lower()), so the plans are the integers of the same arithmetic in R
 * (tests/testthat/test-plan-runs.R holds that arithmetic in R).
 */
#include <math.h>
#include <stdlib.h>
#include <Rmath.h>

#include "speeduptest.h"

/* Beyond this many runs the doubling stops: the power is not reached. */
#define PLAN_RANK_MAX_RUNS 1e9

/* Phi(x) by tables and a Taylor series: at the points a of step 1/128 on
 * [-9, 8.5] (and of step 1/32 on [-38.5, -9]), Phi(a) (Rmath's pnorm)
 * and the coefficients of
 *   Phi(a + e) = Phi(a) + sum_{n >= 0} phi(a) He_n(a) (-1)^n e^(n+1) / (n + 1)!
 * (He the Hermite polynomials, He_n = a He_{n-1} - (n - 1) He_{n-2}: the
 * n-th derivative of phi is (-1)^n He_n phi), summed by Horner's rule to
 * n = 7.  On [-9, 8.5], |e| <= 1/256 and |a e| < 0.036: the terms beyond
 * stay below 1e-19, and the value is within a unit or two in the last
 * place of pnorm's (2.2e-16 at most on a grid of 2e6 points of [-12, 9]),
 * at a fifth of its cost.  Below -9 (Phi < 1.2e-19) the relative error
 * stays below 1e-7, far below what a mean of such terms with others can
 * see; below -38.5, 0 (pnorm underflows there); from 8.5 on, 1 (as
 * pnorm rounds it). */
#define PHI_DEG 8
typedef struct {
    double lo, step;
    int n;
    double (*c)[PHI_DEG + 1];
} phi_table;
static double phi_main_c[2241][PHI_DEG + 1];  /* [-9, 8.5] by 1/128 */
static double phi_tail_c[945][PHI_DEG + 1];   /* [-38.5, -9] by 1/32 */
static phi_table phi_main = {-9.0, 128.0, 2241, phi_main_c};
static phi_table phi_tail = {-38.5, 32.0, 945, phi_tail_c};
static int phi_tab_ready = 0;

static void phi_fill(phi_table *t)
{
    for (int k = 0; k < t->n; k++) {
        double a = t->lo + (double) k / t->step;
        double ph = dnorm(a, 0.0, 1.0, 0);
        double he0 = 1.0, he1 = a, fact = 1.0;
        t->c[k][0] = pnorm(a, 0.0, 1.0, 1, 0);
        for (int n = 0; n < PHI_DEG; n++) {
            double he;
            if (n == 0) {
                he = 1.0;
            } else if (n == 1) {
                he = a;
            } else {
                he = a * he1 - (n - 1) * he0;
                he0 = he1;
                he1 = he;
            }
            fact *= n + 1;
            t->c[k][n + 1] = ph * he * ((n % 2) ? -1.0 : 1.0) / fact;
        }
    }
}

static void phi_tab_init(void)
{
    if (phi_tab_ready) return;
    phi_fill(&phi_main);
    phi_fill(&phi_tail);
    phi_tab_ready = 1;
}

static double phi_series(const phi_table *t, double x)
{
    int k = (int) ((x - t->lo) * t->step + 0.5);
    if (k >= t->n) k = t->n - 1;
    const double *c = t->c[k];
    double e = x - (t->lo + (double) k / t->step);
    double s = c[8];
    s = s * e + c[7];
    s = s * e + c[6];
    s = s * e + c[5];
    s = s * e + c[4];
    s = s * e + c[3];
    s = s * e + c[2];
    s = s * e + c[1];
    return c[0] + s * e;
}

static double phi_lower(double x)
{
    if (x >= -9.0) return x >= 8.5 ? 1.0 : phi_series(&phi_main, x);
    if (x >= -38.5) return phi_series(&phi_tail, x);
    return isnan(x) ? x : 0.0;
}

/* The mean of v[0..n-1] as R's mean() of a double vector computes it (a
 * long double sum, divided by n, then corrected by the long double sum of
 * the deviations from it), each sum in four interleaved partial sums
 * (a single chain of long double additions took half of a plan's time):
 * the result is R's but where the mean lies within about 1e-19 of a
 * rounding boundary of the double, a unit in the last place at most. */
static double r_mean(const double *v, size_t n)
{
    long double a0 = 0.0L, a1 = 0.0L, a2 = 0.0L, a3 = 0.0L;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        a0 += v[i];
        a1 += v[i + 1];
        a2 += v[i + 2];
        a3 += v[i + 3];
    }
    for (; i < n; i++) a0 += v[i];
    long double s = ((a0 + a1) + (a2 + a3)) / (long double) n;
    if (isfinite((double) s)) {
        a0 = a1 = a2 = a3 = 0.0L;
        for (i = 0; i + 4 <= n; i += 4) {
            a0 += v[i] - s;
            a1 += v[i + 1] - s;
            a2 += v[i + 2] - s;
            a3 += v[i + 3] - s;
        }
        for (; i < n; i++) a0 += v[i] - s;
        s += ((a0 + a1) + (a2 + a3)) / (long double) n;
    }
    return (double) s;
}

/* p at u: the mean over the pairs of Phi((d + u) / sd), d in the order
 * of the pairs; buf holds the terms. */
static double p_at(const double *d, size_t nd, double u, double sd,
                   double *buf)
{
    for (size_t i = 0; i < nd; i++) buf[i] = phi_lower((d[i] + u) / sd);
    return r_mean(buf, nd);
}

/* The monotone spline through (x0, y0) (n >= 2 increasing nodes, slopes m
 * out, dx the n - 1 steps), as splinefun(method = "monoH.FC"). */
static void mono_slopes(const double *x0, const double *y0, size_t n,
                        double *dx, double *sx, double *m)
{
    size_t n1 = n - 1;
    for (size_t k = 0; k < n1; k++) {
        dx[k] = x0[k + 1] - x0[k];
        sx[k] = (y0[k + 1] - y0[k]) / dx[k];
    }
    m[0] = sx[0];
    for (size_t k = 1; k < n1; k++) m[k] = (sx[k] + sx[k - 1]) / 2;
    m[n1] = sx[n1 - 1];
    for (size_t k = 0; k < n1; k++) {
        double sk = sx[k];
        if (sk == 0.) {
            m[k] = m[k + 1] = 0.;
        } else {
            double a = m[k] / sk, b = m[k + 1] / sk, a2b3, ab23;
            if ((a2b3 = 2 * a + b - 3) > 0 && (ab23 = a + 2 * b - 3) > 0 &&
                a * (a2b3 + ab23) < a2b3 * a2b3) {
                double tau = 3 * sk / sqrt(a * a + b * b);
                m[k] = tau * a;
                m[k + 1] = tau * b;
            }
        }
    }
}

/* The spline at x: findInterval's interval (the count of nodes <= x),
 * linear beyond the ends, Hermite cubic inside. */
static double mono_eval(const double *x0, const double *y0, const double *m,
                        const double *dx, size_t n, double x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x0[mid] <= x) lo = mid + 1; else hi = mid;
    }
    size_t i = lo;
    if (i == 0) return y0[0] + m[0] * (x - x0[0]);
    if (i == n) return y0[n - 1] + m[n - 1] * (x - x0[n - 1]);
    i--;
    double h = dx[i];
    double t = (x - x0[i]) / h;
    double t1 = t - 1;
    double h01 = t * t * (3 - 2 * t);
    double h00 = 1 - h01;
    double tt1 = t * t1;
    double h10 = tt1 * t1;
    double h11 = tt1 * t;
    return y0[i] * h00 + h * m[i] * h10 + y0[i + 1] * h01 +
        h * m[i + 1] * h11;
}

static double assurance(const double *p, size_t nw, double k, double z,
                        double *buf)
{
    double s = sqrt(12 * (k * k) / (2 * k + 1));
    for (size_t i = 0; i < nw; i++) buf[i] = phi_lower((p[i] - 0.5) * s - z);
    return r_mean(buf, nw);
}

int st_plan_rank(const double *mu_x, size_t nx, const double *mu_y,
                 size_t ny, double sd_d, double t, int slowdown,
                 const double *w, size_t nw, double z, double power,
                 int nodes, double *runs)
{
    *runs = NAN;
    phi_tab_init();
    if (nx == 0 || ny == 0 || nw == 0 || nodes < 2 || !(sd_d > 0) ||
        !isfinite(sd_d) || !(t > 0) || !isfinite(t) || !isfinite(z) ||
        !(power > 0) || !(power < 1)) return ST_ERR_DOMAIN;
    for (size_t i = 0; i < nx; i++) if (!isfinite(mu_x[i])) return ST_ERR_DOMAIN;
    for (size_t j = 0; j < ny; j++) if (!isfinite(mu_y[j])) return ST_ERR_DOMAIN;
    for (size_t i = 0; i < nw; i++)
        if (!isfinite(w[i]) || !(w[i] > 0)) return ST_ERR_DOMAIN;
    if (nx > ((size_t) -1) / sizeof(double) / ny) return ST_ERR_TOO_MANY;
    size_t nd = nx * ny, nn = (size_t) nodes;
    size_t nbuf = nd > nw ? nd : nw;
    double *d = malloc(nd * sizeof(double));
    double *buf = malloc(nbuf * sizeof(double));
    double *p = malloc(nw * sizeof(double));
    double *spl = malloc(5 * nn * sizeof(double));
    if (!d || !buf || !p || !spl) {
        free(d); free(buf); free(p); free(spl);
        return ST_ERR_ALLOC;
    }
    /* the pairs in the order of as.vector(outer(mu_x, mu_y, "-")) */
    for (size_t j = 0; j < ny; j++)
        for (size_t i = 0; i < nx; i++) {
            double v = mu_x[i] - mu_y[j];
            d[j * nx + i] = slowdown ? -v : v;
        }
    int status = ST_OK;
    if (nw == 1) {
        p[0] = p_at(d, nd, t / w[0], sd_d, buf);
    } else {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < nw; i++) {
            double tw = t / w[i];
            p[i] = tw;
            if (tw < lo) lo = tw;
            if (tw > hi) hi = tw;
        }
        double *x0 = spl, *y0 = spl + nn, *m = spl + 2 * nn;
        double *dx = spl + 3 * nn, *sx = spl + 4 * nn;
        /* seq(lo, hi, length.out = nodes) */
        double del = hi - lo;
        if (!(del > 0) || !isfinite(del)) {
            status = ST_ERR_DOMAIN;
        } else {
            double step = del / (double) (nodes - 1);
            x0[0] = lo;
            for (size_t i = 1; i + 1 < nn; i++) x0[i] = lo + (double) i * step;
            x0[nn - 1] = hi;
            for (size_t i = 1; i < nn && status == ST_OK; i++)
                if (!(x0[i] > x0[i - 1])) status = ST_ERR_DOMAIN;
        }
        if (status == ST_OK) {
            for (size_t i = 0; i < nn; i++) y0[i] = p_at(d, nd, x0[i], sd_d, buf);
            mono_slopes(x0, y0, nn, dx, sx, m);
            for (size_t i = 0; i < nw; i++)
                p[i] = mono_eval(x0, y0, m, dx, nn, p[i]);
        }
    }
    if (status == ST_OK) {
        double lo = 1, hi = 2;
        int reached = 1;
        while (assurance(p, nw, hi, z, buf) < power) {
            lo = hi;
            hi = 2 * hi;
            if (hi > PLAN_RANK_MAX_RUNS) {
                reached = 0;
                break;
            }
        }
        if (reached) {
            while (hi - lo > 1) {
                double mid = floor((lo + hi) / 2);
                if (assurance(p, nw, mid, z, buf) >= power) hi = mid;
                else lo = mid;
            }
            *runs = hi;
        } else {
            *runs = INFINITY;
        }
    }
    free(d); free(buf); free(p); free(spl);
    return status;
}

#include "ffi.h"

/* Many plans in one call.  mu_x, mu_y, w: lists of double vectors, one a
 * plan; sd_d, t, slowdown, z, power: one a plan.  The runs of each plan:
 * Inf when the doubling passes 1e9 runs, NA when its inputs are outside
 * the domain. */
SEXP ffi_plan_rank(SEXP mu_x, SEXP mu_y, SEXP sd_d, SEXP t, SEXP slowdown,
                   SEXP w, SEXP z, SEXP power, SEXP nodes)
{
    if (TYPEOF(mu_x) != VECSXP || TYPEOF(mu_y) != VECSXP ||
        TYPEOF(w) != VECSXP || TYPEOF(sd_d) != REALSXP ||
        TYPEOF(t) != REALSXP || TYPEOF(slowdown) != LGLSXP ||
        TYPEOF(z) != REALSXP || TYPEOF(power) != REALSXP)
        Rf_error("ffi_plan_rank: arguments of the wrong type");
    R_xlen_t n = XLENGTH(mu_x);
    if (XLENGTH(mu_y) != n || XLENGTH(w) != n || XLENGTH(sd_d) != n ||
        XLENGTH(t) != n || XLENGTH(slowdown) != n || XLENGTH(z) != n ||
        XLENGTH(power) != n)
        Rf_error("ffi_plan_rank: arguments of different lengths");
    int nn = Rf_asInteger(nodes);
    for (R_xlen_t i = 0; i < n; i++) {
        if (TYPEOF(VECTOR_ELT(mu_x, i)) != REALSXP ||
            TYPEOF(VECTOR_ELT(mu_y, i)) != REALSXP ||
            TYPEOF(VECTOR_ELT(w, i)) != REALSXP)
            Rf_error("ffi_plan_rank: a sample is not a double vector");
    }
    SEXP out = PROTECT(Rf_allocVector(REALSXP, n));
    double *o = REAL(out);
    for (R_xlen_t i = 0; i < n; i++) {
        SEXP a = VECTOR_ELT(mu_x, i), b = VECTOR_ELT(mu_y, i);
        SEXP wi = VECTOR_ELT(w, i);
        double r;
        int s = st_plan_rank(REAL(a), (size_t) XLENGTH(a), REAL(b),
                             (size_t) XLENGTH(b), REAL(sd_d)[i], REAL(t)[i],
                             LOGICAL(slowdown)[i] == TRUE, REAL(wi),
                             (size_t) XLENGTH(wi), REAL(z)[i], REAL(power)[i],
                             nn, &r);
        if (s == ST_ERR_ALLOC) {
            UNPROTECT(1);
            Rf_error("ffi_plan_rank: out of memory");
        }
        o[i] = s == ST_OK ? r : NA_REAL;
        if ((i & 63) == 63) R_CheckUserInterrupt();
    }
    UNPROTECT(1);
    return out;
}
