/*
 * exact.c -- the exact null distributions of the rank statistics, given
 * the ties: the sum of the (mid-)ranks of a random subset of N values (the
 * Wilcoxon-Mann-Whitney rank sum) and the sum of the ranks that carry a
 * random sign + (the Wilcoxon signed rank), as their two tails at an
 * observed value, and without ties as whole tables.
 *
 *   - the rank sum with ties: the subset-sum recursion of Streitberg and
 *     Roehmel (1986), kept to the cells that can still decide the answer
 *     as in the network algorithm of Mehta and Patel (1983);
 *   - the rank sum without ties: the Gaussian binomial coefficient updated
 *     in place (Harding 1984), in exact integers;
 *   - the signed rank, with or without ties: the sign-flip recursion of
 *     the counts of each sum (Wilcoxon 1945);
 *   - on a table, the quantile search and distribution function of R's
 *     qwilcox / qsignrank and pwilcox / psignrank.
 *
 * Doubling mid-ranks makes them whole numbers; dividing them by their
 * greatest common divisor keeps the sums, and so the tables, small.
 *
 * References
 *   Wilcoxon, F. (1945). Individual comparisons by ranking methods.
 *     Biometrics Bulletin 1, 80-83.
 *   Streitberg, B. and Roehmel, J. (1986). Exact distributions for
 *     permutation and rank tests: an introduction to some recently
 *     published algorithms. Statistical Software Newsletter 12, 10-17.
 *   Mehta, C. R. and Patel, N. R. (1983). A network algorithm for
 *     performing Fisher's exact test in r x c contingency tables. JASA 78,
 *     427-434.
 *   Harding, E. F. (1984). An efficient, minimal-storage procedure for
 *     calculating the Mann-Whitney U, generalized U and similar
 *     distributions. Applied Statistics 33, 1-6.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <Rmath.h>
#include "speeduptest.h"

static uint64_t gcd_u64(uint64_t u, uint64_t v)
{
    while (v) {
        uint64_t t = u % v;
        u = v;
        v = t;
    }
    return u;
}

/*
 * Doubled mid-ranks are positive integers; dividing them by their greatest
 * common divisor g (2 without ties) gives the smallest integer "units" with
 * the same subset-sum structure, which keeps the exact distributions'
 * counting tables small.  Values must be whole numbers in [1, 4e15] (exact
 * in a double).
 */
static int rank_units(const double *rank2, size_t N, uint64_t **units,
                      uint64_t *g)
{
    *units = NULL;
    *g = 1;
    if (N > SIZE_MAX / sizeof(uint64_t)) return ST_ERR_TOO_MANY;
    uint64_t *u = st_malloc(N, sizeof(uint64_t));
    if (!u) return ST_ERR_ALLOC;
    uint64_t d = 0;
    for (size_t i = 0; i < N; i++) {
        double r = rank2[i];
        if (!(r >= 1.0 && r <= 4.0e15) || r != floor(r)) {
            free(u);
            return ST_ERR_DOMAIN;
        }
        u[i] = (uint64_t) r;
        d = gcd_u64(u[i], d);
    }
    if (d == 0) d = 1;
    /* sorted through doubles: the units are below 2^53, so exactly */
    double *tmp = st_malloc(N, sizeof(double));
    if (!tmp) {
        free(u);
        return ST_ERR_ALLOC;
    }
    for (size_t i = 0; i < N; i++) tmp[i] = (double) (u[i] / d);
    st_sort(tmp, N);
    for (size_t i = 0; i < N; i++) u[i] = (uint64_t) tmp[i];
    free(tmp);
    *units = u;
    *g = d;
    return ST_OK;
}

/* ------------------------------------------------------------------------
 * Exact permutation distribution of a rank sum (network algorithm).
 *
 * Doubling mid-ranks makes them integers; dividing them by their greatest
 * common divisor g keeps the sums small (g = 2 without ties).  Let
 * a(1) <= ... <= a(N) be these units, P(t) = a(1) + ... + a(t), and S the
 * sum of a random k-subset.  The number of j-subsets of the first t items
 * with sum s obeys
 *     c_t(j, s) = c_{t-1}(j, s) + c_{t-1}(j - 1, s - a(t)),
 * one vector addition of row j - 1, shifted by a(t), into row j (rows
 * updated with j descending, in place).  This is the two-sample shift
 * recursion of Streitberg and Roehmel (1986); what makes it fast here is
 * that only the cells that can still decide the answer are kept, as in the
 * network algorithm of Mehta and Patel (1983).
 *
 * We want the number of k-subsets with S <= T1 and with S <= T2 (T1 < T2,
 * usually T1 = s - 1 and T2 = s, giving P[S <= s] and P[S = s] without a
 * subtraction).  A partial sum s in row j after t items ends between
 * s + lo_rest and s + hi_rest, where lo_rest = P(t + k - j) - P(t) are the
 * k - j smallest remaining units and hi_rest = P(N) - P(N - k + j) the k - j
 * largest ones (the largest remaining ones are the largest of all as long as
 * row j can still be completed).  So
 *   - s > T2 - lo_rest: no completion counts; the cell is dropped;
 *   - s <= T1 - hi_rest: every one of the choose(N - t, k - j) completions
 *     counts for both thresholds; the cell is added, times that number, to
 *     the answer and dropped.
 * Only base(j) = max(T1 - hi_rest + 1, P(j)) <= s <= top(j, t) =
 * min(P(t) - P(t - j), T2 - lo_rest) is stored.  base(j) is the same for
 * the whole life of row j, and top(j, t) rises with the reach of the
 * first t items, then falls with the pruning bound, so each row is a
 * fixed array whose top end moves.  Row j holds at most about
 * min(reach, band) cells: 2 j (k - j) at the middle of a balanced
 * problem, so the whole table is about k^3 / 3 cells and the additions
 * about k^4 / 6 instead of the k^2 N^2 / 4 of the full table -- and far
 * less when the observed sum lies in a tail.  After the last item row k
 * holds the sums in (T1, T2]: the subsets with S = s.
 *
 * Counts are doubles: exact below 2^53, relative error ~ N eps beyond,
 * and every term is non-negative so the tail sums keep that relative
 * accuracy.  When choose(N, k) would overflow a double, row j is stored
 * scaled by choose(N, j)^(-1/2) (the shifted additions then carry the ratio
 * of consecutive scales), which keeps every cell between about 1e-300 and
 * 1e300 for the sizes the limits admit.
 *
 *   Streitberg, B. and Roehmel, J. (1986). Exact distributions for
 *     permutation and rank tests: an introduction to some recently
 *     published algorithms. Statistical Software Newsletter 12, 10-17.
 *   Mehta, C. R. and Patel, N. R. (1983). A network algorithm for
 *     performing Fisher's exact test in r x c contingency tables. JASA 78,
 *     427-434.
 * ---------------------------------------------------------------------- */

/* log choose(N, k) above which rows are scaled (choose(N, k) < e^650 ~
 * 1e282 keeps unscaled counts finite); a macro so that the scaled path can
 * be compiled in for every size when testing it. */
#ifndef ST_RANKSUM_SCALE_LOG
#define ST_RANKSUM_SCALE_LOG 650.0L
#endif
/* Most items for which log factorials are tabled (else lgammal). */
#ifndef ST_RANKSUM_LG_TABLE
#define ST_RANKSUM_LG_TABLE ((size_t) 1 << 20)
#endif

typedef struct {
    const int64_t *P;          /* prefix sums of the units, P[0] = 0     */
    size_t N, k;
    int64_t t1, t2;
    int64_t *base;             /* first stored sum of row j              */
    size_t *cap, *off;         /* cells and offset of row j              */
    size_t cells;
    double work;               /* cell additions of the whole count      */
} band_plan;

/* top(j, t): the last sum of row j worth keeping after t items (row j is
 * alive: j <= t and k - j <= N - t). */
static int64_t band_top(const band_plan *B, size_t j, size_t t)
{
    const int64_t *P = B->P;
    int64_t reach = P[t] - P[t - j];
    int64_t prune = B->t2 - (P[t + B->k - j] - P[t]);
    return reach < prune ? reach : prune;
}

/* The row bounds and sizes for thresholds t1 <= t2; returns 0 when the
 * table would exceed max_cells (then nothing is allocated). */
static int band_layout(band_plan *B, double max_cells)
{
    const int64_t *P = B->P;
    size_t N = B->N, k = B->k;
    double cells = 0.0, work = 0.0;
    for (size_t j = 0; j <= k; j++) {
        int64_t lo = B->t1 - (P[N] - P[N - (k - j)]) + 1;
        B->base[j] = lo > P[j] ? lo : P[j];
        int64_t widest = 0;
        for (size_t t = j; t + (k - j) <= N; t++) {
            int64_t w = band_top(B, j, t) - B->base[j] + 1;
            if (w > 0) {
                work += (double) w;
                if (w > widest) widest = w;
            }
        }
        B->cap[j] = (size_t) widest;
        cells += (double) widest;
        if (cells > max_cells) return 0;
    }
    B->cells = (size_t) cells;
    B->work = work;
    size_t o = 0;
    for (size_t j = 0; j <= k; j++) {
        B->off[j] = o;
        o += B->cap[j];
    }
    return 1;
}

/* log choose(a, b) from lg[i] = log(i!), or from lgammal when there is no
 * table (lg = NULL: many items and few chosen, where a table of N long
 * doubles would dwarf the counts) */
static long double lchoose_tab(const long double *lg, size_t a, size_t b)
{
    if (!lg)
        return lgammal((long double) a + 1.0L) - lgammal((long double) b + 1.0L)
               - lgammal((long double) (a - b) + 1.0L);
    return lg[a] - lg[b] - lg[a - b];
}

/* Number of k-subsets of the sorted units with sum <= t1 and with sum in
 * (t1, t2], as fractions of choose(N, k). */
static int band_count(band_plan *B, long double *p_le1, long double *p_mid)
{
    const int64_t *P = B->P;
    size_t N = B->N, k = B->k;
    *p_le1 = *p_mid = 0.0L;
    int tabled = N <= ST_RANKSUM_LG_TABLE;
    long double *lg = tabled ? st_malloc(N + 1, sizeof(long double)) : NULL;
    long double *lscale = st_malloc(k + 1, sizeof(long double));
    double *ratio = st_malloc(k + 1, sizeof(double));
    double *f = NULL;
    int status = ST_OK;
    if ((tabled && !lg) || !lscale || !ratio) {
        status = ST_ERR_ALLOC;
        goto done;
    }
    if (tabled) {
        lg[0] = 0.0L;
        for (size_t i = 1; i <= N; i++) lg[i] = lg[i - 1] + logl((long double) i);
    }
    long double ltotal = lchoose_tab(lg, N, k);
    /* row scales: 1, or choose(N, j)^(-1/2) when the counts could
     * overflow (log stored; ratio[j] = scale j / scale j - 1) */
    int scaled = ltotal > ST_RANKSUM_SCALE_LOG;
    for (size_t j = 0; j <= k; j++) {
        lscale[j] = scaled ? -0.5L * lchoose_tab(lg, N, j) : 0.0L;
        ratio[j] = j ? (double) expl(lscale[j] - lscale[j - 1]) : 1.0;
    }
    f = calloc(B->cells ? B->cells : 1, sizeof(double));
    if (!f) {
        status = ST_ERR_ALLOC;
        goto done;
    }
    long double in = 0.0L;        /* certainly <= t1, as a probability */
    /* the empty subset */
    if (0 < B->base[0]) {
        *p_le1 = 1.0L;
        goto done;
    }
    if (band_top(B, 0, 0) >= 0) f[B->off[0]] = 1.0;
    double since = 0.0;
    for (size_t t = 0; t < N; t++) {
        int64_t v = (int64_t) (P[t + 1] - P[t]);
        size_t jmax = t + 1 < k ? t + 1 : k;
        for (size_t j = jmax; j >= 1; j--) {
            if (k - j > N - t - 1) break;        /* rows below: dead too */
            /* source: row j - 1 after t items */
            int64_t sb = B->base[j - 1], st = band_top(B, j - 1, t);
            if (st < sb) continue;
            /* destination window after t + 1 items */
            int64_t db = B->base[j], dt = band_top(B, j, t + 1);
            const double *src = f + B->off[j - 1];
            /* sources landing below db are certainly in */
            int64_t s_in_end = db - v;             /* sources < this */
            if (s_in_end > sb) {
                int64_t e = s_in_end < st + 1 ? s_in_end : st + 1;
                long double acc = 0.0L;
                for (int64_t s = sb; s < e; s++) acc += src[s - sb];
                if (acc > 0) {
                    long double lw = lchoose_tab(lg, N - t - 1, k - j)
                                     - lscale[j] - ltotal;
                    in += acc * ratio[j] * expl(lw);
                }
            }
            int64_t from = sb > db - v ? sb : db - v;
            int64_t to = st < dt - v ? st : dt - v;
            if (to < from) continue;
            size_t w = (size_t) (to - from) + 1;
            const double *s0 = src + (from - sb);
            double *d0 = f + B->off[j] + (size_t) (from + v - db);
            double r = ratio[j];
            if (r == 1.0) {
                for (size_t u = 0; u < w; u++) d0[u] += s0[u];
            } else {
                for (size_t u = 0; u < w; u++) d0[u] += r * s0[u];
            }
            since += (double) w;
        }
        if (since > 3.0e7) {
            since = 0.0;
            if (st_check_interrupt()) {
                status = ST_ERR_INTERRUPTED;
                goto done;
            }
        }
    }
    /* row k after all items: the sums in (t1, t2] */
    {
        int64_t b = B->base[k], top = band_top(B, k, N);
        long double mid = 0.0L;
        for (int64_t s = b; s <= top; s++) {
            if (s <= B->t1) in += f[B->off[k] + (size_t) (s - b)] *
                                  expl(-lscale[k] - ltotal);
            else mid += f[B->off[k] + (size_t) (s - b)];
        }
        *p_mid = mid * expl(-lscale[k] - ltotal);
    }
    *p_le1 = in;
done:
    free(lg);
    free(lscale);
    free(ratio);
    free(f);
    return status;
}

/* Size limits of the count (see speeduptest.h), checked on the widest
 * band, the one around the mean sum, so that the same ranks fail or
 * succeed whatever the observed value. */
static int band_size_ok(const int64_t *P, size_t N, size_t k, int64_t *base,
                        size_t *cap, size_t *off)
{
    if ((double) N * (double) (k + 1) > ST_RANKSUM_MAX_SCAN) return 0;
    band_plan B = {P, N, k, 0, 0, base, cap, off, 0, 0.0};
    /* the mean sum k P(N) / N, rounded down */
    int64_t c = (int64_t) ((long double) P[N] * (long double) k /
                           (long double) N);
    B.t1 = c;
    B.t2 = c;
    if (!band_layout(&B, (double) ST_RANKSUM_MAX_CELLS)) return 0;
    return B.work <= ST_RANKSUM_MAX_WORK;
}

/* P[S <= s] and P[S = s] for the sum S of a random k-subset of the sorted
 * units a[0..N-1] (s an attainable sum, so P[k] <= s). */
static int lower_tail(const uint64_t *a, size_t N, size_t k, uint64_t s,
                      long double *le, long double *eq)
{
    int64_t *P = st_malloc(N + 1, sizeof(int64_t));
    int64_t *base = st_malloc(k + 1, sizeof(int64_t));
    size_t *cap = st_malloc(k + 1, sizeof(size_t));
    size_t *off = st_malloc(k + 1, sizeof(size_t));
    int status = ST_OK;
    if (!P || !base || !cap || !off) {
        status = ST_ERR_ALLOC;
        goto done;
    }
    P[0] = 0;
    for (size_t t = 0; t < N; t++) P[t + 1] = P[t] + (int64_t) a[t];
    if (!band_size_ok(P, N, k, base, cap, off)) {
        status = ST_ERR_TOO_MANY;
        goto done;
    }
    band_plan B = {P, N, k, (int64_t) s - 1, (int64_t) s, base, cap, off,
                   0, 0.0};
    if (!band_layout(&B, (double) ST_RANKSUM_MAX_CELLS)) {
        status = ST_ERR_TOO_MANY;
        goto done;
    }
    long double below, at;
    status = band_count(&B, &below, &at);
    *le = below + at;
    *eq = at;
done:
    free(P);
    free(base);
    free(cap);
    free(off);
    return status;
}

/* P[S >= s] as the lower tail of the reflected units
 * (a(1) + a(N)) - a(N + 1 - i), which keep the order and the counts. */
static int upper_tail(const uint64_t *a, size_t N, size_t k, uint64_t s,
                      long double *ge, long double *eq)
{
    uint64_t *b = st_malloc(N, sizeof(uint64_t));
    if (!b) return ST_ERR_ALLOC;
    uint64_t c = a[0] + a[N - 1];
    for (size_t i = 0; i < N; i++) b[i] = c - a[N - 1 - i];
    int status = lower_tail(b, N, k, (uint64_t) k * c - s, ge, eq);
    free(b);
    return status;
}

static int ranksum_exact_tails(const double *rank2, size_t N, size_t n,
                               double s2, double *p_le, double *p_ge)
{
    *p_le = *p_ge = NAN;
    if (N == 0 || n > N || !isfinite(s2)) return ST_ERR_DOMAIN;
    uint64_t *a, g;
    int status = rank_units(rank2, N, &a, &g);
    if (status != ST_OK) return status;
    long double total2 = 0.0L;       /* sum of the doubled ranks */
    for (size_t i = 0; i < N; i++) total2 += rank2[i];
    int swap = N - n < n;
    size_t k = swap ? N - n : n;
    /* sums of units must stay far inside int64 (units <= 4e15) */
    uint64_t usum = 0;
    for (size_t i = 0; i < N; i++) {
        usum += a[i];
        if (usum > ((uint64_t) 1 << 61)) {
            free(a);
            return ST_ERR_TOO_MANY;
        }
    }
    /* the smaller group's doubled sum is total2 - s2 when swapped; in units
     * it is an integer (an attained sum), up to rounding */
    double sk = swap ? (double) (total2 - s2) : s2;
    double q = floor(sk / (double) g + 0.5);
    uint64_t smin = 0, smaxk = 0;
    for (size_t i = 0; i < k; i++) {
        smin += a[i];
        smaxk += a[N - 1 - i];
    }
    if (!(q >= (double) smin && q <= (double) smaxk)) {
        free(a);
        return ST_ERR_DOMAIN;
    }
    uint64_t s = (uint64_t) q;
    /* Count the tail on the observed side of the mean k usum / N directly
     * (the pruned table is small when that tail is small); the other tail
     * is 1 - that tail + P[S = s], counted directly as well when it is
     * below 1/4, so that neither loses relative accuracy to cancellation. */
    long double le = 0.0L, ge = 0.0L, eq = 0.0L;
    if (k == 0) {
        le = ge = 1.0L;
    } else if ((long double) s * N <= (long double) k * usum) {
        status = lower_tail(a, N, k, s, &le, &eq);
        ge = 1.0L - le + eq;
        if (status == ST_OK && ge < 0.25L)
            status = upper_tail(a, N, k, s, &ge, &eq);
    } else {
        status = upper_tail(a, N, k, s, &ge, &eq);
        le = 1.0L - ge + eq;
        if (status == ST_OK && le < 0.25L)
            status = lower_tail(a, N, k, s, &le, &eq);
    }
    free(a);
    if (status != ST_OK) return status;
    if (le > 1.0L) le = 1.0L;
    if (ge > 1.0L) ge = 1.0L;
    *p_le = (double) (swap ? ge : le);
    *p_ge = (double) (swap ? le : ge);
    return ST_OK;
}
/* ------------------------------------------------------------------------
 * Exact null distribution without ties (Harding 1984), in exact integers.
 *
 * Without ties the counts of the Mann-Whitney statistic W = 0 .. n m over
 * the choose(n + m, n) splits are the coefficients of the Gaussian
 * binomial coefficient
 *     G_{n,m}(q) = prod_{i=1..k} (1 - q^(r+i)) / (1 - q^i),
 * k = min(n, m), r = max(n, m).  Starting from 1, step i divides by
 * (1 - q^i) -- the running sum c[j] += c[j - i], j ascending -- and
 * multiplies by (1 - q^(r+i)) -- c[j] -= c[j - r - i], j descending --
 * giving the polynomial G_{i,r} of degree D_i = i r, O(k n m) work in
 * all instead of the subset-sum table's O(k n m (n + m)).  Coefficient j
 * of the result only depends on coefficients <= j of the input, so each
 * step is computed on j <= D_i / 2 only, and the upper half is filled by
 * the symmetry G_{i,r}[j] = G_{i,r}[D_i - j] as far as the next step
 * reads it.
 *
 * The subtraction is what makes this recurrence fragile in floating point:
 * the running sums exceed the coefficients they reduce to, so relative
 * rounding errors are amplified at every step and, from about
 * n = m = 300, the small tail counts (and then every count) are lost, even
 * turning negative.  Here the counts are exact unsigned integers of as
 * many 64-bit limbs as choose(i + r, i) needs at step i (the running sums
 * are partial sums of G_{i-1,r}, whose total is below that bound), so
 * every subtraction is exact.  The probabilities are the counts divided
 * by their total, each correctly rounded to long double before the
 * division: relative error below 1e-18, or an underflow below 2^-1074 to
 * a subnormal or 0 (counts < choose(N, k) ~ 1e300 for N ~ 1000).  Work is
 * O(k^2 r L) limb additions, L ~ log2 choose(N, k) / 64; memory
 * (k r / 2 + r) L limbs.
 *
 *   Harding, E. F. (1984). An efficient, minimal-storage procedure for
 *     calculating the Mann-Whitney U, generalized U and similar
 *     distributions. Applied Statistics 33, 1-6.
 * ---------------------------------------------------------------------- */

/* The size limits of the tied count (band_size_ok) for the units 1 .. N
 * and a k-subset, so that exact = TRUE fails with ST_ERR_TOO_MANY in the
 * same cases whichever algorithm runs, and the limit of the exact-integer
 * table (ST_RANKSUM_MAX_LIMBS). */
static int noties_size_ok(size_t N, size_t k)
{
    if ((double) N * (double) (k + 1) > ST_RANKSUM_MAX_SCAN) return 0;
    /* Harding's table has k (N - k) + 1 cells */
    if ((double) k * (double) (N - k) > (double) ST_RANKSUM_MAX_CELLS)
        return 0;
    double limbs = ((double) k * (double) (N - k) / 2 + (double) (N - k) + 2)
                   * (lchoose((double) N, (double) k) / M_LN2 / 64 + 2);
    if (limbs > ST_RANKSUM_MAX_LIMBS) return 0;
    int64_t *P = st_malloc(N + 1, sizeof(int64_t));
    int64_t *base = st_malloc(k + 1, sizeof(int64_t));
    size_t *cap = st_malloc(k + 1, sizeof(size_t));
    size_t *off = st_malloc(k + 1, sizeof(size_t));
    int ok = 0;
    if (P && base && cap && off) {
        P[0] = 0;
        for (size_t t = 0; t < N; t++) P[t + 1] = P[t] + (int64_t) (t + 1);
        ok = band_size_ok(P, N, k, base, cap, off);
    }
    free(P);
    free(base);
    free(cap);
    free(off);
    return ok > 0;
}

/* a += b and a -= b on the lowest L limbs (little-endian, base 2^64); the
 * caller guarantees that the results fit in (and for -, are >= 0). */
static void big_add(uint64_t *restrict a, const uint64_t *restrict b,
                    size_t L)
{
    uint64_t carry = 0;
    for (size_t l = 0; l < L; l++) {
        uint64_t s = a[l] + carry;
        carry = s < carry;
        uint64_t t = s + b[l];
        carry += t < s;
        a[l] = t;
    }
}

static void big_sub(uint64_t *restrict a, const uint64_t *restrict b,
                    size_t L)
{
    uint64_t borrow = 0;
    for (size_t l = 0; l < L; l++) {
        uint64_t s = a[l] - borrow;
        borrow = a[l] < borrow;
        borrow += s < b[l];
        a[l] = s - b[l];
    }
}

/* The value of an L-limb integer as a long double: the top three
 * non-zero limbs, relative error below 2^-63. */
static long double big_ld(const uint64_t *a, size_t L)
{
    size_t t = L;
    while (t > 0 && a[t - 1] == 0) t--;
    long double v = 0.0L;
    for (size_t l = t; l-- > 0 && l + 3 >= t;)
        v = v * 18446744073709551616.0L + (long double) a[l];
    return t > 3 ? ldexpl(v, (int) (64 * (t - 3))) : v;
}

/* Limbs for integers up to choose(a, b) (a bit to spare for the rounding
 * of lchoose). */
static size_t big_limbs(size_t a, size_t b)
{
    return (size_t) ((lchoose((double) a, (double) b) / M_LN2 + 1.0) / 64.0)
           + 1;
}

/* Harding's steps for counts below 2^128 (samples of up to about 65 values
 * each, the automatic exact range): two limbs held in fixed positions. */
static void harding_two_limbs(uint64_t *c, size_t k, size_t r, size_t cells)
{
    for (size_t i = 1; i <= k; i++) {
        size_t Di = i * r, Hi = Di / 2;
        for (size_t j = i; j <= Hi; j++) {
            uint64_t *a = c + 2 * j;
            const uint64_t *b = c + 2 * (j - i);
            uint64_t lo = a[0] + b[0];
            a[1] += b[1] + (lo < b[0]);
            a[0] = lo;
        }
        for (size_t j = Hi; j >= r + i && j <= Hi; j--) {
            uint64_t *a = c + 2 * j;
            const uint64_t *b = c + 2 * (j - r - i);
            uint64_t borrow = a[0] < b[0];
            a[0] -= b[0];
            a[1] -= b[1] + borrow;
        }
        size_t top = (Di + r) / 2;
        if (top > Di) top = Di;
        if (top > cells - 1) top = cells - 1;
        for (size_t j = Hi + 1; j <= top; j++) {
            c[2 * j] = c[2 * (Di - j)];
            c[2 * j + 1] = c[2 * (Di - j) + 1];
        }
    }
}

/* Null probabilities of W = 0 .. n m without ties (what dwilcox gives):
 * the exact counts above divided by their sum. */
static int wilcox_null_probs(size_t n, size_t m, double **prob, size_t *len)
{
    *prob = NULL;
    *len = 0;
    if (n == 0 || m == 0 || n > SIZE_MAX - m) return ST_ERR_DOMAIN;
    size_t k = n < m ? n : m, r = n < m ? m : n;
    if (!noties_size_ok(n + m, k)) return ST_ERR_TOO_MANY;
    /* k r <= ST_RANKSUM_MAX_CELLS: no overflow below */
    size_t D = k * r, H = D / 2;
    size_t L = big_limbs(k + r, k);
    /* cells 0 .. H + r: the lower half of every step and what the next
     * step reads of its upper half */
    size_t cells = H + r + 1;
    uint64_t *c = calloc(cells * L, sizeof(uint64_t));
    double *p = st_malloc(D + 1, sizeof(double));
    if (!c || !p) {
        free(c);
        free(p);
        return ST_ERR_ALLOC;
    }
    c[0] = 1;
    double since = 0.0;
    if (L <= 2) {
        if (L == 1) {           /* (two limbs per cell in that layout) */
            uint64_t *c2 = calloc(cells * 2, sizeof(uint64_t));
            if (!c2) {
                free(c);
                free(p);
                return ST_ERR_ALLOC;
            }
            free(c);
            c = c2;
            c[0] = 1;
            L = 2;
        }
        harding_two_limbs(c, k, r, cells);
    }
    for (size_t i = 1; L > 2 && i <= k; i++) {
        size_t Di = i * r, Hi = Di / 2;
        size_t Li = big_limbs(i + r, i);
        if (Li > L) Li = L;
        for (size_t j = i; j <= Hi; j++)
            big_add(c + j * L, c + (j - i) * L, Li);
        for (size_t j = Hi; j >= r + i && j <= Hi; j--)
            big_sub(c + j * L, c + (j - r - i) * L, Li);
        /* upper half by symmetry, as far as the next step reads it */
        size_t top = (Di + r) / 2;
        if (top > Di) top = Di;
        if (top > cells - 1) top = cells - 1;
        for (size_t j = Hi + 1; j <= top; j++)
            memcpy(c + j * L, c + (Di - j) * L, Li * sizeof(uint64_t));
        since += (double) Di * (double) Li;
        if (since > 1.0e8) {
            since = 0.0;
            if (st_check_interrupt()) {
                free(c);
                free(p);
                return ST_ERR_INTERRUPTED;
            }
        }
    }
    /* the total, 2 sum_{j < D - j} c[j] (+ c[D / 2] when D is even), is
     * choose(n + m, k); summed in limbs as well */
    uint64_t *tot = calloc(L + 1, sizeof(uint64_t));
    if (!tot) {
        free(c);
        free(p);
        return ST_ERR_ALLOC;
    }
    for (size_t j = 0; 2 * j < D; j++) big_add(tot, c + j * L, L);
    for (size_t l = L; l-- > 0;)        /* doubled */
        tot[l] = (tot[l] << 1) | (l ? tot[l - 1] >> 63 : 0);
    if (D % 2 == 0) big_add(tot, c + H * L, L);
    long double ltot = big_ld(tot, L);
    for (size_t j = 0; j <= H; j++) {
        double v = (double) (big_ld(c + j * L, L) / ltot);
        p[j] = v;
        p[D - j] = v;
    }
    free(tot);
    free(c);
    *prob = p;
    *len = D + 1;
    return ST_OK;
}

/* ------------------------------------------------------------------------
 * Exact distribution of the doubled sum of positive mid-ranks.
 *
 * Under H0 each of the n values is positive or negative with probability
 * 1/2 independently, given |d| (so given the mid-ranks).  With integer
 * units a_i (doubled mid-ranks divided by their gcd) the number of sign
 * patterns with sum s obeys c_i(s) = c_{i-1}(s) + c_{i-1}(s - a_i),
 * updated in place with s descending; the table has sum(a) + 1 cells
 * (n (n + 1) / 2 + 1 without ties).  Every operation adds non-negative
 * numbers, so the relative error of any count or tail sum stays below
 * about n eps.  Counts stay below 2^n: up to n = 1000 they are kept as
 * counts (exact while n <= 53); beyond, each step also halves the table,
 * which then holds the probabilities c_i(s) / 2^i -- the same numbers
 * scaled by an exact power of two, finite at every size, with only the
 * probabilities below 2^-1074 (patterns of n > 1074 values with almost
 * all signs forced) underflowing to 0.  The size limits are those of
 * time and memory: ST_EXACT_MAX_CELLS cells and ST_EXACT_MAX_WORK
 * additions (about n = 2000 without ties).
 * ---------------------------------------------------------------------- */

/* Counts above 2^1000 would come near the end of the double range. */
#define ST_SIGNRANK_COUNT_MAX_N 1000

static int sign_sum_counts(const uint64_t *a, size_t n, double **counts,
                           size_t *len)
{
    *counts = NULL;
    uint64_t T = 0;
    for (size_t i = 0; i < n; i++) {
        T += a[i];
        if (T >= ST_EXACT_MAX_CELLS) return ST_ERR_TOO_MANY;
    }
    if ((double) T * (double) n / 2.0 > ST_EXACT_MAX_WORK)
        return ST_ERR_TOO_MANY;
    double *f = calloc((size_t) T + 1, sizeof(double));
    if (!f) return ST_ERR_ALLOC;
    f[0] = 1.0;
    size_t top = 0;
    int halve = n > ST_SIGNRANK_COUNT_MAX_N;
    for (size_t i = 0; i < n; i++) {
        size_t ai = (size_t) a[i];
        if (halve) {
            for (size_t s = top + 1; s-- > 0;) {
                f[s + ai] = 0.5 * (f[s + ai] + f[s]);
                if (s < ai) f[s] *= 0.5;
            }
            /* the cells between top + 1 and ai - 1 held 0 and stay 0 */
        } else {
            for (size_t s = top + 1; s-- > 0;) f[s + ai] += f[s];
        }
        top += ai;
        if (i % 64 == 63 && st_check_interrupt()) {
            free(f);
            return ST_ERR_INTERRUPTED;
        }
    }
    *counts = f;
    *len = (size_t) T + 1;
    return ST_OK;
}

static int signrank_exact_tails(const double *rank2, size_t n, double s2,
                                double *p_le, double *p_ge)
{
    *p_le = *p_ge = NAN;
    if (!isfinite(s2)) return ST_ERR_DOMAIN;
    uint64_t *a, g;
    int st = rank_units(rank2, n, &a, &g);
    if (st != ST_OK) return st;
    double *c;
    size_t len;
    int status = sign_sum_counts(a, n, &c, &len);
    free(a);
    if (status != ST_OK) return status;
    double q = s2 / (double) g;
    double qf = floor(q + 1e-7), qc = ceil(q - 1e-7);
    long double tot = 0.0L, le = 0.0L, ge = 0.0L;
    for (size_t i = 0; i < len; i++) {
        tot += c[i];
        if ((double) i <= qf) le += c[i];
        if ((double) i >= qc) ge += c[i];
    }
    free(c);
    *p_le = (double) (le / tot);
    *p_ge = (double) (ge / tot);
    return ST_OK;
}

/* Null probabilities of V = 0 .. n (n + 1) / 2 without ties (dsignrank). */
static int signrank_null_probs(size_t n, double **prob, size_t *len)
{
    *prob = NULL;
    uint64_t *a = st_malloc(n, sizeof(uint64_t));
    if (!a) return ST_ERR_ALLOC;
    for (size_t i = 0; i < n; i++) a[i] = i + 1;
    double *c;
    int status = sign_sum_counts(a, n, &c, len);
    free(a);
    if (status != ST_OK) return status;
    /* R's psignrank / qsignrank scale the counts by exp(-n log 2), which
     * is not always exactly 2^-n; the same factor keeps knife-edge cases
     * (R's signif() of an achieved level) identical. */
    if (n <= ST_SIGNRANK_COUNT_MAX_N) {
        double f = exp(-(double) n * M_LN2);
        for (size_t i = 0; i < *len; i++) c[i] *= f;
    }
    *prob = c;
    return ST_OK;
}

/* ---- the entry points ---------------------------------------------------- */

int st_exact_tails(st_rank_statistic stat, const double *rank2, size_t N,
                   size_t n, double s2, double *p_le, double *p_ge)
{
    if (stat == ST_RANK_SUM)
        return ranksum_exact_tails(rank2, N, n, s2, p_le, p_ge);
    if (stat == ST_SIGNED_RANK)
        return signrank_exact_tails(rank2, N, s2, p_le, p_ge);
    *p_le = *p_ge = NAN;
    return ST_ERR_DOMAIN;
}

int st_exact_law(st_rank_statistic stat, size_t n, size_t m, double **prob,
                 size_t *len)
{
    *prob = NULL;
    *len = 0;
    if (stat == ST_RANK_SUM) return wilcox_null_probs(n, m, prob, len);
    if (stat == ST_SIGNED_RANK) return signrank_null_probs(n, prob, len);
    return ST_ERR_DOMAIN;
}

/* R's qwilcox / qsignrank: the first q whose cumulated probability
 * reaches x - 10 DBL_EPSILON (lower half), or the mirrored search from the
 * top for x > 1/2. */
static double rank_quantile(const double *prob, size_t len, double x)
{
    double p = 0.0;
    size_t q;
    if (x <= 0.0) return 0.0;
    if (x >= 1.0) return (double) (len - 1);
    if (x <= 0.5) {
        x = x - 10 * DBL_EPSILON;
        for (q = 0; q + 1 < len; q++) {
            p += prob[q];
            if (p >= x) break;
        }
        return (double) q;
    }
    x = 1 - x + 10 * DBL_EPSILON;
    for (q = 0; q + 1 < len; q++) {
        p += prob[q];
        if (p > x) return (double) (len - 1 - q);
    }
    return 0.0;
}

/* P[W <= q], summed in double in R's order. */
static double rank_cdf(const double *prob, size_t len, double q)
{
    double p = 0.0;
    for (size_t i = 0; i < len && (double) i <= q; i++) p += prob[i];
    return p;
}

double st_exact_interval_rank(const double *prob, size_t len, double a,
                              double *achieved)
{
    double qu = rank_quantile(prob, len, a);
    if (qu == 0) qu = 1;
    *achieved = rank_cdf(prob, len, qu - 1);
    return qu;
}

/* ---- R entry points ---------------------------------------------------- */
#include "ffi.h"

/* Entry points for the tests: the exact null distributions themselves.
 * ffi_ranksum_null(n, m): the probabilities of W = 0 .. n m without ties,
 * or the status (an integer) on failure.  ffi_exact_tails(rank2, n, s2):
 * c(status, P[S2 <= s2], P[S2 >= s2]) of the rank sum of a subset of n
 * values (n >= 0) or of the signed rank (n < 0). */
SEXP ffi_ranksum_null(SEXP n, SEXP m)
{
    int in = ffi_int(n, "n"), im = ffi_int(m, "m");
    if (in < 1 || im < 1) return Rf_ScalarInteger(ST_ERR_DOMAIN);
    double *prob;
    size_t len;
    int status = st_exact_law(ST_RANK_SUM, (size_t) in, (size_t) im, &prob,
                              &len);
    if (status != ST_OK) return Rf_ScalarInteger(status);
    SEXP out = Rf_allocVector(REALSXP, (R_xlen_t) len);
    memcpy(REAL(out), prob, len * sizeof(double));
    free(prob);
    return out;
}

SEXP ffi_exact_tails(SEXP rank2, SEXP n, SEXP s2)
{
    size_t N;
    const double *r2 = ffi_doubles(rank2, &N, "rank2");
    int in = ffi_int(n, "n");
    double s = ffi_double(s2, "s2");
    double le = NAN, ge = NAN;
    int status;
    if (in >= 0) {
        status = (size_t) in > N ? ST_ERR_DOMAIN
                 : st_exact_tails(ST_RANK_SUM, r2, N, (size_t) in, s, &le,
                                  &ge);
    } else {
        status = st_exact_tails(ST_SIGNED_RANK, r2, N, 0, s, &le, &ge);
    }
    SEXP out = Rf_allocVector(REALSXP, 3);
    REAL(out)[0] = status;
    REAL(out)[1] = le;
    REAL(out)[2] = ge;
    return out;
}
