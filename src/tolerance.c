/*
 * tolerance.c -- changes that matter: the Speedup-Test's final tests
 * against a factor s0 >= 1 (a speedup is declared only beyond s0, a
 * slowdown only beyond s0), the two one-sided tests of equivalence within
 * s0 (Schuirmann 1987), the decision of a whole protocol with a tolerance,
 * and the power of a protocol by simulation from observed samples (for the
 * number of runs needed to see a given change).
 *
 * The four one-sided tests at a factor s0 (theta = the true speedup, the
 * ratio of the protocol's centres of x and y):
 *   [0] speedup:   H0 theta <= s0,     Ha theta > s0
 *   [1] slowdown:  H0 1/theta <= s0,   Ha 1/theta > s0
 *   [2] not much faster:  H0 theta >= s0,   Ha theta < s0
 *   [3] not much slower:  H0 1/theta >= s0, Ha 1/theta < s0
 * Equivalence within s0 is declared when [2] and [3] are both rejected at
 * alpha: the interval theta in (1/s0, s0) then holds at confidence
 * 1 - alpha (the intersection-union test; each test at alpha, not alpha/2).
 *
 * Mean protocol: the t-test of mean(x) - s0 mean(y) (and of
 * mean(y) - s0 mean(x) for the mirrored tests).  On Student's branch (the
 * protocol's F-test found equal variances) the pooled variance s_p^2 of x
 * and y gives the standard error s_p sqrt(1/n + s0^2/m) with n + m - 2
 * degrees of freedom, exact for normal samples of one variance; on Welch's
 * branch sqrt(v_x/n + s0^2 v_y/m) with Satterthwaite's degrees of freedom,
 * which is Welch's test of x against s0 y.  s0 = 1 gives the protocol's
 * own t-tests.
 *
 * Median protocol: the Wilcoxon-Mann-Whitney rank-sum test of x against
 * s0 y (and of y against s0 x).  Under the scale model Y = X / theta that
 * the protocol's interval of the speedup assumes, s0 Y has the law of X
 * exactly when theta = s0, so the test keeps its exact level (the exact
 * conditional distribution with ties, as the protocol chooses it).
 *
 * The flowchart's path (normality, equal variances, the location model,
 * the rigorous stop) is the protocol's own, on the samples as given; only
 * the final tests change.
 *
 * Power: the samples are drawn by a smoothed bootstrap from the observed
 * relative run times (x / centre(x), y / centre(y)), y divided by the
 * speedup to detect, and the protocol decides each replicate; the share of
 * replicates declaring the change is the power.  Resampling the runs
 * themselves would repeat values: a resample of 30 from 30 holds about 11
 * ties, which Shapiro-Wilk rejects far more often than it rejects fresh
 * runs, so the simulated protocol would stop ("insufficient data") where
 * the real one goes on, and the rank tests would meet ties the real runs
 * do not have.  The smoothed bootstrap (Silverman 1986, section 6.4.1;
 * Silverman and Young 1987) draws a run r_i, then on the log scale
 *   log v = c0 + k (log r_i - c0 + h Z),   Z ~ N(0, 1),   v = a exp(...)
 * with the bandwidth h, the shrink k = s / sqrt(s_n^2 + h^2) that gives the
 * drawn log times the spread s of the observed ones (s_n^2: their mean
 * squared distance to c0), c0 the point it shrinks toward (set by the
 * caller) and a = 1, or the factor that makes the mean of the law drawn
 * from 1 (the mean protocol's centre): a = 1 / (mean_i exp(c0 + k (log r_i
 * - c0)) exp((k h)^2 / 2)).  The law drawn from is continuous, of the
 * observed centre, spread and, up to the kernel, shape.
 *
 * The observed spread is itself uncertain: a pilot of 10 runs misjudges
 * it by a third as often as not, and a plan made from it reaches the
 * power asked for only on average over the spreads the pilot could have
 * shown (the assurance of O'Hagan, Stevens and Campbell 2005).  Each
 * replicate therefore draws its spread, sigma = s sqrt(df / q) with q a
 * chi-square on df degrees of freedom (the pilot's n + m - 2, the law of
 * sigma given s under the uninformative prior; fewer for the mean protocol
 * when the pilot's tails are heavy, set by the caller), by Wilson and Hilferty's
 * (1931) cube-root normal approximation of q, and scales k by
 * sqrt(df / q) for both samples.  The random numbers are the
 * package's own (xoshiro256**, seeded by splitmix64 from a given seed), so
 * that R's random number stream is left untouched and every call with the
 * same seed sees the same replicates (common random numbers across the
 * sizes compared).
 *
 * References:
 *   Schuirmann, D. J. (1987). A comparison of the two one-sided tests
 *     procedure and the power approach for assessing the equivalence of
 *     average bioavailability. Journal of Pharmacokinetics and
 *     Biopharmaceutics 15(6), 657-680.
 *   Touati, S.-A.-A., Worms, J. and Briais, S. (2013). The Speedup-Test.
 *     Concurrency and Computation: Practice and Experience 25(10).
 *   Silverman, B. W. (1986). Density Estimation for Statistics and Data
 *     Analysis. Chapman and Hall, London.
 *   Silverman, B. W. and Young, G. A. (1987). The bootstrap: to smooth or
 *     not to smooth? Biometrika 74(3), 469-479.
 *   O'Hagan, A., Stevens, J. W. and Campbell, M. J. (2005). Assurance in
 *     clinical trial design. Pharmaceutical Statistics 4(3), 187-201.
 *   Wilson, E. B. and Hilferty, M. M. (1931). The distribution of
 *     chi-square. Proceedings of the National Academy of Sciences 17(12),
 *     684-688.
 *   Blackman, D. and Vigna, S. (2021). Scrambled linear pseudorandom
 *     number generators. ACM Transactions on Mathematical Software 47(4).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <Rmath.h>
#include "speeduptest.h"
#include "cache.h"

/* ---- the four tests -------------------------------------------------------- */

/* 1 when the protocol's F-test at alpha finds equal variances (Student's
 * branch), as the mean protocol decides it. */
static int tolerance_pooled(const double *x, size_t n, const double *y,
                            size_t m, double alpha)
{
    if (n < 2 || m < 2) return 0;
    double mx = st_mean(x, n), my = st_mean(y, m);
    double var[2] = {st_var(x, n, mx), st_var(y, m, my)};
    st_var_test_options opt = {var, 1};
    st_result f;
    st_var_test(NULL, n, NULL, m, ST_TWO_SIDED, 1.0, 0.95, &opt, &f);
    return f.status == ST_OK && f.p_value > alpha;
}

/* t statistic and degrees of freedom of mean(a) - s0 mean(b). */
static int t_scaled(double ma, double va, size_t na, double mb, double vb,
                    size_t nb, double s0, int pooled, double *t, double *df)
{
    double dn = (double) na, dm = (double) nb, se;
    if (pooled) {
        double sp2 = ((dn - 1) * va + (dm - 1) * vb) / (dn + dm - 2);
        se = sqrt(sp2 * (1 / dn + s0 * s0 / dm));
        *df = dn + dm - 2;
    } else {
        double a = va / dn, b = s0 * s0 * vb / dm;
        se = sqrt(a + b);
        double den = a * a / (dn - 1) + b * b / (dm - 1);
        *df = den > 0 ? (a + b) * (a + b) / den : INFINITY;
    }
    if (!(se > 0) || !isfinite(se)) return ST_ERR_CONSTANT;
    *t = (ma - s0 * mb) / se;
    return ST_OK;
}

int st_tolerance_mean(const double *x, size_t n, const double *y, size_t m,
                      int pooled, double alpha, double s0, double p[4])
{
    p[0] = p[1] = p[2] = p[3] = NAN;
    if (n < 2 || m < 2) return ST_ERR_TOO_FEW;
    if (!(s0 > 0) || !isfinite(s0)) return ST_ERR_DOMAIN;
    if (pooled < 0) pooled = tolerance_pooled(x, n, y, m, alpha);
    double mx = st_mean(x, n), my = st_mean(y, m);
    double vx = st_var(x, n, mx), vy = st_var(y, m, my);
    double t, df;
    int s = t_scaled(mx, vx, n, my, vy, m, s0, pooled, &t, &df);
    if (s != ST_OK) return s;
    p[0] = pt(t, df, 0, 0);
    p[2] = pt(t, df, 1, 0);
    s = t_scaled(my, vy, m, mx, vx, n, s0, pooled, &t, &df);
    if (s != ST_OK) return s;
    p[1] = pt(t, df, 0, 0);
    p[3] = pt(t, df, 1, 0);
    return ST_OK;
}

/* The rank-sum tests from the sorted samples xs, ys (ascending). */
static int tolerance_median_sorted(const double *xs, size_t n,
                                   const double *ys, size_t m, double s0,
                                   double p[4], st_cache *cache)
{
    p[0] = p[1] = p[2] = p[3] = NAN;
    double *buf = st_malloc(n + m, sizeof(double));
    if (!buf) return ST_ERR_ALLOC;
    /* both one-sided tests of each direction from one merge (s0 > 0
     * keeps the scaled samples sorted) */
    st_result g, l;
    st_wilcoxon_options opt = {0};
    opt.sorted = 1;
    opt.cache = cache;
    opt.less = &l;
    /* x against s0 y */
    for (size_t j = 0; j < m; j++) buf[j] = s0 * ys[j];
    int s = st_wilcoxon_test(xs, n, buf, m, ST_GREATER, 0.0, -1, 1, 0, 0.95,
                             &opt, &g);
    if (s == ST_OK) {
        p[0] = g.p_value;
        p[2] = l.p_value;
        /* y against s0 x */
        for (size_t i = 0; i < n; i++) buf[i] = s0 * xs[i];
        s = st_wilcoxon_test(ys, m, buf, n, ST_GREATER, 0.0, -1, 1, 0, 0.95,
                             &opt, &g);
        if (s == ST_OK) {
            p[1] = g.p_value;
            p[3] = l.p_value;
        }
    }
    free(buf);
    return s;
}

/* (pooled and alpha are unread: the rank-sum test has one branch) */
int st_tolerance_median(const double *x, size_t n, const double *y, size_t m,
                        int pooled, double alpha, double s0, double p[4])
{
    (void) pooled;
    (void) alpha;
    p[0] = p[1] = p[2] = p[3] = NAN;
    if (n < 1 || m < 1) return ST_ERR_TOO_FEW;
    if (!(s0 > 0) || !isfinite(s0)) return ST_ERR_DOMAIN;
    st_sorted_pair P;
    int s = st_sorted_pair_init(&P, x, n, 0.0, y, m, NULL);
    if (s != ST_OK) return s;
    st_cache cache;
    st_cache_init(&cache);
    s = tolerance_median_sorted(P.xs, n, P.ys, m, s0, p, &cache);
    st_cache_free(&cache);
    st_sorted_pair_free(&P);
    return s;
}

int st_tolerance_tests(int proto, const double *x, size_t n, const double *y,
                       size_t m, int pooled, double s0, double p[4])
{
    p[0] = p[1] = p[2] = p[3] = NAN;
    const st_protocol_def *def = st_protocol_find(proto);
    if (!def) return ST_ERR_DOMAIN;
    if (!def->tolerance) return ST_ERR_UNSUPPORTED;
    return def->tolerance(x, n, y, m, pooled ? 1 : 0, NAN, s0, p);
}

/* ---- the decision ------------------------------------------------------------ */

/* The direction from the four p-values of the final tests at alpha;
 * equivalence only with s0 > 1. */
static int tolerance_direction(const double p[4], double alpha, double s0)
{
    if (isnan(p[0])) return ST_DIRECTION_NA;
    if (p[0] <= alpha) return ST_DIRECTION_SPEEDUP;
    if (!isnan(p[1]) && p[1] <= alpha) return ST_DIRECTION_SLOWDOWN;
    if (s0 > 1 && !isnan(p[2]) && !isnan(p[3]) && p[2] <= alpha &&
        p[3] <= alpha)
        return ST_DIRECTION_EQUIVALENT;
    return ST_DIRECTION_NONE;
}

/* The whole protocol proto with the tolerance s0:
 * the flowchart's path, then the final tests at s0 (the protocol's own
 * final tests when s0 = 1, and no equivalence).  *direction: an
 * st_direction. */
int st_decide(const double *x, size_t n, const double *y, size_t m, int proto,
              double alpha, int rigorous, double s0, int *direction,
              st_cache *cache)
{
    *direction = ST_DIRECTION_NA;
    const st_protocol_def *def = st_protocol_find(proto);
    if (!def) return ST_ERR_DOMAIN;
    if (s0 != 1 && !def->tolerance) return ST_ERR_UNSUPPORTED;
    st_verdict v;
    st_protocol_options opt = {0};
    opt.cache = cache;
    opt.suite = 1;
    int s = st_protocol(proto, x, n, y, m, alpha, rigorous, &opt, &v);
    if (s != ST_OK) return s;
    if (v.decision == ST_INSUFFICIENT) return ST_OK;
    double p[4] = {v.p_value, v.p_value_slowdown, NAN, NAN};
    if (s0 != 1) {
        /* the branch the flowchart took (read by the mean) */
        int pooled = v.branch == ST_BRANCH_STUDENT_NORMAL ||
                     v.branch == ST_BRANCH_STUDENT_NOT_NORMAL;
        s = def->tolerance(x, n, y, m, pooled, alpha, s0, p);
        if (ST_FATAL(s)) return s;
        if (s != ST_OK) return ST_OK;   /* no variability: NA */
    }
    *direction = tolerance_direction(p, alpha, s0);
    return ST_OK;
}

/* ---- power by simulation --------------------------------------------------- */

typedef struct { uint64_t s[4]; } rng_t;

static uint64_t splitmix64(uint64_t *z)
{
    uint64_t r = (*z += 0x9e3779b97f4a7c15ULL);
    r = (r ^ (r >> 30)) * 0xbf58476d1ce4e5b9ULL;
    r = (r ^ (r >> 27)) * 0x94d049bb133111ebULL;
    return r ^ (r >> 31);
}

static void rng_seed(rng_t *g, uint64_t seed)
{
    for (int i = 0; i < 4; i++) g->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(rng_t *g)
{
    uint64_t *s = g->s;
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
}

/* A uniform index in [0, k) (Lemire's multiply-shift; the bias is below
 * k / 2^32 for the sample sizes of run times). */
static size_t rng_index(rng_t *g, size_t k)
{
    return (size_t) (((rng_next(g) >> 32) * (uint64_t) k) >> 32);
}

/* A uniform in (0, 1), 53 bits. */
static double rng_unif(rng_t *g)
{
    return ((double) (rng_next(g) >> 11) + 0.5) * 0x1p-53;
}

/* A standard normal (Box-Muller; the second value of each pair is kept in
 * *spare, NAN when there is none). */
static double rng_norm(rng_t *g, double *spare)
{
    if (!isnan(*spare)) {
        double z = *spare;
        *spare = NAN;
        return z;
    }
    double u = rng_unif(g), w = rng_unif(g);
    double r = sqrt(-2.0 * log(u)), t = 2.0 * M_PI * w;
    *spare = r * sin(t);
    return r * cos(t);
}

/* One drawn value of a sample: a run lr[i] (log scale) smoothed by
 * sm = {c0, k, h, keep} with the shrink k scaled by w and the factor a
 * (see the header), or the run itself when sm is NULL. */
static double draw_one(rng_t *g, const double *r, const double *lr, size_t nr,
                       const double *sm, double w, double a, double *spare)
{
    size_t i = rng_index(g, nr);
    if (!sm) return r[i];
    double z = rng_norm(g, spare);
    return a * exp(sm[0] + w * sm[1] * (lr[i] - sm[0] + sm[2] * z));
}

/* The factor a of a sample with the shrink k w: 1, or with keep (sm[3])
 * the one that makes the mean of the law drawn from 1. */
static double smooth_scale(const double *lr, size_t nr, const double *sm,
                           double w)
{
    if (!(sm[3] > 0)) return 1.0;
    double k = w * sm[1], t = 0;
    for (size_t i = 0; i < nr; i++) t += exp(sm[0] + k * (lr[i] - sm[0]));
    return 1.0 / (t / (double) nr * exp(0.5 * k * k * sm[2] * sm[2]));
}

/* sqrt(df / q), q a chi-square on df degrees of freedom (Wilson-Hilferty;
 * 1 when df is 0: the spread taken as known). */
static double spread_factor(rng_t *g, double df, double *spare)
{
    if (!(df > 0)) return 1.0;
    double c = 2.0 / (9.0 * df), q;
    do {
        double u = 1.0 - c + rng_norm(g, spare) * sqrt(c);
        q = df * u * u * u;
    } while (!(q > 0));
    return sqrt(df / q);
}

/*
 * Power of the protocol with tolerance s0 at alpha, for each of the k
 * sizes (n[i] runs of x, m[i] runs of y): reps replicates, each drawing
 * n[i] values from rx and m[i] from ry / speedup (with replacement; smoothed
 * by smooth = {c0, k, h, keep} of x then of y and the degrees of freedom
 * of the spread when it is not NULL).
 * want: the direction counted as a detection (an st_direction).  The
 * replicates of each size start from the same seed.
 */
int st_power_sim(const double *rx, size_t nx, const double *ry, size_t ny,
                 double speedup, int proto, double alpha, int rigorous,
                 double s0, int want, const double *n, const double *m,
                 size_t k, size_t reps, uint64_t seed, const double *smooth,
                 double *power)
{
    if (nx < 1 || ny < 1) return ST_ERR_TOO_FEW;
    if (!(speedup > 0) || !isfinite(speedup)) return ST_ERR_DOMAIN;
    if (smooth) {
        for (int j = 0; j < 9; j++)
            if (!isfinite(smooth[j])) return ST_ERR_DOMAIN;
        if (smooth[8] < 0) return ST_ERR_DOMAIN;
        for (size_t j = 0; j < nx; j++) if (!(rx[j] > 0)) return ST_ERR_DOMAIN;
        for (size_t j = 0; j < ny; j++) if (!(ry[j] > 0)) return ST_ERR_DOMAIN;
    }
    size_t most = 0;
    for (size_t i = 0; i < k; i++) {
        /* sizes of at least 1 and whose sum is a size_t (2^52 each at
         * most) */
        if (!(n[i] >= 1 && m[i] >= 1 && n[i] <= 0x1p52 && m[i] <= 0x1p52))
            return ST_ERR_DOMAIN;
        size_t t = (size_t) n[i] + (size_t) m[i];
        if (t > most) most = t;
    }
    double *buf = st_malloc(most, sizeof(double));
    if (!buf) return ST_ERR_ALLOC;
    double *lx = NULL;
    if (smooth) {
        lx = st_malloc(nx + ny, sizeof(double));
        if (!lx) {
            free(buf);
            return ST_ERR_ALLOC;
        }
        for (size_t j = 0; j < nx; j++) lx[j] = log(rx[j]);
        for (size_t j = 0; j < ny; j++) lx[nx + j] = log(ry[j]);
    }
    const double *ly = lx ? lx + nx : NULL;
    const double *smx = smooth, *smy = smooth ? smooth + 4 : NULL;
    st_cache cache;
    st_cache_init(&cache);
    int s = ST_OK;
    /* an interrupt is checked every 2^16 values drawn (and before the
     * first replicate of each size): about a millisecond of work */
    size_t drawn = 0;
    for (size_t i = 0; i < k && s == ST_OK; i++) {
        size_t a = (size_t) n[i], b = (size_t) m[i], hits = 0;
        rng_t g;
        rng_seed(&g, seed);
        double spare = NAN;
        for (size_t r = 0; r < reps; r++) {
            if ((r == 0 || drawn >= 65536) && st_check_interrupt()) {
                s = ST_ERR_INTERRUPTED;
                break;
            }
            if (drawn >= 65536) drawn = 0;
            drawn += a + b;
            double w = 1, ax = 1, ay = 1;
            if (smooth) {
                w = spread_factor(&g, smooth[8], &spare);
                ax = smooth_scale(lx, nx, smx, w);
                ay = smooth_scale(ly, ny, smy, w);
                drawn += nx + ny;
            }
            for (size_t j = 0; j < a; j++)
                buf[j] = draw_one(&g, rx, lx, nx, smx, w, ax, &spare);
            for (size_t j = 0; j < b; j++)
                buf[a + j] = draw_one(&g, ry, ly, ny, smy, w, ay, &spare) /
                             speedup;
            int dir;
            s = st_decide(buf, a, buf + a, b, proto, alpha, rigorous, s0, &dir,
                          &cache);
            if (s != ST_OK) break;
            hits += dir == want;
        }
        power[i] = (double) hits / (double) reps;
    }
    st_cache_free(&cache);
    free(lx);
    free(buf);
    return s;
}

/* ---- R entry points -------------------------------------------------------- */
#include "ffi.h"

static SEXP p4_list(const double p[4], int status)
{
    static const char *names[] = {"status", "p_values"};
    SEXP values[2];
    values[0] = PROTECT(Rf_ScalarInteger(status));
    values[1] = PROTECT(Rf_allocVector(REALSXP, 4));
    for (int i = 0; i < 4; i++) REAL(values[1])[i] = p[i];
    SEXP out = ffi_named_list(2, names, values);
    UNPROTECT(2);
    return out;
}

/* test: a protocol code; pooled: the mean's branch (1 Student, 0
 * Welch). */
SEXP ffi_tolerance_tests(SEXP x, SEXP y, SEXP test, SEXP pooled, SEXP s0)
{
    size_t n, m;
    const double *xp = ffi_doubles(x, &n, "x");
    const double *yp = ffi_doubles(y, &m, "y");
    int t = ffi_int(test, "test");
    int pool = ffi_flag(pooled, "pooled");
    double f = ffi_double(s0, "s0");
    double p[4];
    int s = st_tolerance_tests(t, xp, n, yp, m, pool, f, p);
    return p4_list(p, s);
}

/* The four p-values of every benchmark of a packed suite (as
 * ffi_suite_benchmarks takes it), for the protocol `test` (a code), with
 * the mean's branch from the F-test at each benchmark's alpha: a k x 4 matrix
 * (column-major), NA where the tests cannot run. */
SEXP ffi_tolerance_suite(SEXP values, SEXP x_start, SEXP x_len, SEXP y_start,
                         SEXP y_len, SEXP test, SEXP alpha, SEXP s0)
{
    size_t nv, k, k2, k3, k4, ka;
    const double *v = ffi_doubles(values, &nv, "values");
    const double *xs = ffi_doubles(x_start, &k, "x_start");
    const double *xl = ffi_doubles(x_len, &k2, "x_len");
    const double *ys = ffi_doubles(y_start, &k3, "y_start");
    const double *yl = ffi_doubles(y_len, &k4, "y_len");
    const double *al = ffi_doubles(alpha, &ka, "alpha");
    int t = ffi_int(test, "test");
    double f = ffi_double(s0, "s0");
    if (k2 != k || k3 != k || k4 != k || ka != k)
        Rf_error("the benchmark columns must have the same length.");
    if (k > (size_t) INT_MAX) Rf_error("too many benchmarks.");
    const st_protocol_def *def = st_protocol_find(t);
    if (!def) Rf_error("`test` is not a protocol code.");
    if (!def->tolerance) Rf_error("the protocol has no tolerance tests.");
    SEXP out = PROTECT(Rf_allocMatrix(REALSXP, (int) k, 4));
    double *o = REAL(out);
    for (size_t i = 0; i < k; i++) {
        size_t a = (size_t) xs[i], na = (size_t) xl[i];
        size_t b = (size_t) ys[i], nb = (size_t) yl[i];
        double p[4] = {NAN, NAN, NAN, NAN};
        if (a + na <= nv && b + nb <= nv) {
            /* the mean's branch from its F-test at the benchmark's alpha */
            int s = def->tolerance(v + a, na, v + b, nb, -1, al[i], f, p);
            if (ST_FATAL(s)) {
                UNPROTECT(1);
                Rf_error(s == ST_ERR_ALLOC ? "out of memory." : "interrupted.");
            }
        }
        for (int j = 0; j < 4; j++)
            o[i + j * k] = isnan(p[j]) ? NA_REAL : p[j];
        if ((i & 255) == 0 && st_check_interrupt()) {
            UNPROTECT(1);
            Rf_error("interrupted.");
        }
    }
    UNPROTECT(1);
    return out;
}

/* The direction code of the protocol with a tolerance (for tests). */
SEXP ffi_decide(SEXP x, SEXP y, SEXP test, SEXP alpha, SEXP rigorous,
                SEXP s0)
{
    size_t n, m;
    const double *xp = ffi_doubles(x, &n, "x");
    const double *yp = ffi_doubles(y, &m, "y");
    int dir;
    int s = st_decide(xp, n, yp, m, ffi_int(test, "test"),
                      ffi_double(alpha, "alpha"), ffi_flag(rigorous, "rigorous"),
                      ffi_double(s0, "s0"), &dir, NULL);
    if (s != ST_OK) Rf_error("the protocol failed (status %d).", s);
    return Rf_ScalarInteger(dir);
}

/* smooth: NULL (the runs themselves) or the 9 smoothing parameters. */
SEXP ffi_power_sim(SEXP rx, SEXP ry, SEXP speedup, SEXP test, SEXP alpha,
                   SEXP rigorous, SEXP s0, SEXP want, SEXP n, SEXP m,
                   SEXP reps, SEXP seed, SEXP smooth)
{
    const double *sm = NULL;
    if (!Rf_isNull(smooth)) {
        size_t ns;
        sm = ffi_doubles(smooth, &ns, "smooth");
        if (ns != 9) Rf_error("`smooth` must hold 9 numbers.");
    }
    size_t nx, ny, k, k2;
    const double *xp = ffi_doubles(rx, &nx, "rx");
    const double *yp = ffi_doubles(ry, &ny, "ry");
    const double *np = ffi_doubles(n, &k, "n");
    const double *mp = ffi_doubles(m, &k2, "m");
    if (k2 != k) Rf_error("`n` and `m` must have the same length.");
    double r = ffi_double(reps, "reps"), sd = ffi_double(seed, "seed");
    if (!(r >= 1)) Rf_error("`reps` must be at least 1.");
    if (r > 0x1p52) Rf_error("`reps` is too large.");
    SEXP power = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) k));
    int s = st_power_sim(xp, nx, yp, ny, ffi_double(speedup, "speedup"),
                         ffi_int(test, "test"), ffi_double(alpha, "alpha"),
                         ffi_flag(rigorous, "rigorous"), ffi_double(s0, "s0"),
                         ffi_int(want, "want"), np, mp, k, (size_t) r,
                         (uint64_t) (int64_t) sd, sm, REAL(power));
    /* list(status, power): the R side turns a status (an interrupt, out of
     * memory) into its classed error */
    static const char *names[] = {"status", "power"};
    SEXP st = PROTECT(Rf_ScalarInteger(s));
    SEXP values[] = {st, power};
    SEXP out = ffi_named_list(2, names, values);
    UNPROTECT(2);
    return out;
}
