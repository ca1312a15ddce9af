/*
 * wilcoxon.c -- the Wilcoxon-Mann-Whitney rank-sum test (Wilcoxon 1945;
 * Mann and Whitney 1947) with the Hodges-Lehmann shift estimate and its
 * confidence interval (Hodges and Lehmann 1963; Bauer 1972), computed as
 * R's stats::wilcox.test computes them, plus
 *   - the exact null distribution without ties from the Gaussian binomial
 *     generating function, updated in place (Harding 1984), shared by the
 *     p-value and the interval,
 *   - the exact permutation (conditional) distribution of the mid-rank sum
 *     when there are ties (Streitberg and Roehmel 1986 style counting),
 *     restricted to the tail the p-value needs,
 *   - selection of the k-th smallest pairwise difference or Walsh average
 *     in the implicit sorted matrix without forming it (Johnson and
 *     Mizoguchi 1978; Monahan 1984), so that the interval needs O(n + m)
 *     memory instead of the n m differences R materialises.
 *
 * References
 *   Hodges, J. L. and Lehmann, E. L. (1963). Estimates of location based on
 *     rank tests. Ann. Math. Statist. 34, 598-611.
 *   Bauer, D. F. (1972). Constructing confidence sets using rank
 *     statistics. JASA 67, 687-690.
 *   Noether, G. E. (1967). Wilcoxon confidence intervals for location
 *     parameters in the discrete case. JASA 62, 184-188.
 *   Johnson, D. B. and Mizoguchi, T. (1978). Selecting the Kth element in
 *     X + Y and X1 + X2 + ... + Xm. SIAM J. Comput. 7, 147-153.
 *   Monahan, J. F. (1984). Algorithm 616: fast computation of the Hodges-
 *     Lehmann location estimator. ACM TOMS 10, 265-270.
 *   Floyd, R. W. and Rivest, R. L. (1975). Expected time bounds for
 *     selection. CACM 18, 165-172.
 *   Harding, E. F. (1984). An efficient, minimal-storage procedure for
 *     calculating the Mann-Whitney U, generalized U and similar
 *     distributions. Applied Statistics 33, 1-6.
 *   Streitberg, B. and Roehmel, J. (1986). Exact distributions for
 *     permutation and rank tests. Statistical Software Newsletter 12, 10-17.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <Rmath.h>
#include "speeduptest.h"
#include "cache.h"

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
    long double *lg = tabled ? malloc((N + 1) * sizeof(long double)) : NULL;
    long double *lscale = malloc((k + 1) * sizeof(long double));
    double *ratio = malloc((k + 1) * sizeof(double));
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
    int64_t *P = malloc((N + 1) * sizeof(int64_t));
    int64_t *base = malloc((k + 1) * sizeof(int64_t));
    size_t *cap = malloc((k + 1) * sizeof(size_t));
    size_t *off = malloc((k + 1) * sizeof(size_t));
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
    uint64_t *b = malloc(N * sizeof(uint64_t));
    if (!b) return ST_ERR_ALLOC;
    uint64_t c = a[0] + a[N - 1];
    for (size_t i = 0; i < N; i++) b[i] = c - a[N - 1 - i];
    int status = lower_tail(b, N, k, (uint64_t) k * c - s, ge, eq);
    free(b);
    return status;
}

int st_ranksum_exact_tails(const double *rank2, size_t N, size_t n,
                           double s2, double *p_le, double *p_ge)
{
    *p_le = *p_ge = NAN;
    if (N == 0 || n > N || !isfinite(s2)) return ST_ERR_DOMAIN;
    uint64_t *a, g;
    int status = st_rank_units(rank2, N, &a, &g);
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
    int64_t *P = malloc((N + 1) * sizeof(int64_t));
    int64_t *base = malloc((k + 1) * sizeof(int64_t));
    size_t *cap = malloc((k + 1) * sizeof(size_t));
    size_t *off = malloc((k + 1) * sizeof(size_t));
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
    double *p = malloc((D + 1) * sizeof(double));
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

int st_ranksum_null_probs(size_t n, size_t m, double **prob, size_t *len)
{
    return wilcox_null_probs(n, m, prob, len);
}

/* P[W <= w] and P[W >= w] from the probabilities, each summed over its own
 * tail so that small tails keep their relative accuracy. */
static void prob_tails(const double *prob, size_t len, double w,
                       double *p_le, double *p_ge)
{
    long double le = 0.0L, ge = 0.0L;
    /* i <= w and i >= w as index ranges, each summed upwards */
    double fl = floor(w) + 1, ce = ceil(w);
    /* first i with i > w, first i with i >= w (w is finite) */
    size_t split = !(fl > 0) ? 0 : fl >= (double) len ? len : (size_t) fl;
    size_t from = !(ce > 0) ? 0 : ce >= (double) len ? len : (size_t) ce;
    for (size_t i = 0; i < split; i++) le += prob[i];
    for (size_t i = from; i < len; i++) ge += prob[i];
    *p_le = (double) (le < 1.0L ? le : 1.0L);
    *p_ge = (double) (ge < 1.0L ? ge : 1.0L);
}

/* The no-ties table for (n, m): the one held in cache when it is for the
 * same sizes (the table is symmetric in n and m), else a new one, kept in
 * cache (replacing its old table) or, without cache, returned in *owned for
 * the caller to free. */
static int null_table(size_t n, size_t m, st_cache *cache,
                      const double **prob, size_t *len, double **owned)
{
    size_t k = n < m ? n : m, r = n < m ? m : n;
    *owned = NULL;
    if (cache && cache->ranksum.prob && cache->ranksum.n == k && cache->ranksum.m == r) {
        *prob = cache->ranksum.prob;
        *len = cache->ranksum.len;
        return ST_OK;
    }
    double *p;
    int status = wilcox_null_probs(n, m, &p, len);
    if (status != ST_OK) return status;
    if (cache) {
        free(cache->ranksum.prob);
        free(cache->ranksum.tails);
        cache->ranksum.tails = NULL;
        cache->ranksum.q_set = 0;
        cache->ranksum.prob = p;
        cache->ranksum.n = k;
        cache->ranksum.m = r;
        cache->ranksum.len = *len;
    } else *owned = p;
    *prob = p;
    return ST_OK;
}

/* prob_tails, remembered in cache for each integer w when prob is cache's
 * table (a suite's benchmarks of equal sizes meet the same few hundred
 * values of W): the same sums, computed once.  P[W <= w] for every w
 * comes from one pass of running sums, which are the sums prob_tails
 * forms (from i = 0 upwards, in long double); P[W >= w], summed from w
 * upwards, is formed the first time w is met. */
static void table_tails(st_cache *cache, const double *prob, size_t len,
                        double w, double *p_le, double *p_ge)
{
    if (!cache || prob != cache->ranksum.prob || !(w >= 0) || w >= (double) len ||
        w != floor(w)) {
        prob_tails(prob, len, w, p_le, p_ge);
        return;
    }
    if (!cache->ranksum.tails) {
        cache->ranksum.tails = malloc(2 * len * sizeof(double));
        if (cache->ranksum.tails) {
            long double le = 0.0L;
            for (size_t i = 0; i < len; i++) {
                le += prob[i];
                cache->ranksum.tails[2 * i] = (double) (le < 1.0L ? le : 1.0L);
                cache->ranksum.tails[2 * i + 1] = NAN;
            }
        }
    }
    size_t i = (size_t) w;
    if (!cache->ranksum.tails) {
        prob_tails(prob, len, w, p_le, p_ge);
        return;
    }
    if (isnan(cache->ranksum.tails[2 * i + 1])) {
        long double ge = 0.0L;
        for (size_t k = i; k < len; k++) ge += prob[k];
        cache->ranksum.tails[2 * i + 1] = (double) (ge < 1.0L ? ge : 1.0L);
    }
    *p_le = cache->ranksum.tails[2 * i];
    *p_ge = cache->ranksum.tails[2 * i + 1];
}

/* R's qwilcox / qsignrank: the first q whose cumulated probability
 * reaches x - 10 DBL_EPSILON (lower half), or the mirrored search from the
 * top for x > 1/2. */
double st_rank_quantile(const double *prob, size_t len, double x)
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

double st_rank_cdf(const double *prob, size_t len, double q)
{
    double p = 0.0;     /* summed in double, in R's order */
    for (size_t i = 0; i < len && (double) i <= q; i++) p += prob[i];
    return p;
}

/* ------------------------------------------------------------------------
 * The test, on the two samples sorted once (st_sorted_pair, sorted.c):
 * the rank sum and the tie term come from a merge of the sorted samples,
 * the Hodges-Lehmann estimate and interval from selections among the
 * pairwise differences of the same sorted samples (select.c).
 * ---------------------------------------------------------------------- */

/* R's standardised statistic W(d) of the asymptotic interval: mid-ranks
 * of c(x - d, y) and the tie-corrected variance, from the merge of the
 * sorted x - d (x - d keeps the order of x) and y.  ST_ERR_DOMAIN for a
 * non-finite d or value. */
static int wmw_standardised(const double *xs, size_t n, const double *ys,
                            size_t m, double d, st_alternative alt,
                            int correct, double *z)
{
    long double sr;
    double ties;
    *z = NAN;
    int status = st_merge_ranks(xs, n, d, ys, m, &sr, &ties, NULL);
    if (status != ST_OK) return status;
    double dn = (double) n, dm = (double) m;
    double dz = (double) sr - dn * (dn + 1) / 2 - dn * dm / 2;
    double sigma = sqrt((dn * dm / 12) *
                        ((dn + dm + 1) - ties / ((dn + dm) * (dn + dm - 1))));
    *z = (dz - st_continuity(alt, correct, dz)) / sigma;
    return isnan(*z) ? ST_ERR_DOMAIN : ST_OK;
}

/* Generic-position standardised statistic as a function of the integer
 * count U = #{x_i - y_j > d}; non-decreasing in U. */
static double wmw_generic(double U, double dn, double dm, double sigma0,
                          st_alternative alt, int correct)
{
    double dz = U - dn * dm / 2;
    return (dz - st_continuity(alt, correct, dz)) / sigma0;
}

/*
 * The asymptotic interval.  R finds roots of W(d) = zq with uniroot on
 * [min(x) - max(y), max(x) - min(y)].  Between consecutive distinct
 * pairwise differences no value of x - d ties with a value of y, so
 * W(d) = g(U(d)) with U(d) = #{x_i - y_j > d}, g non-decreasing and the
 * variance fixed by the ties within x and within y alone.  U(d) >= c
 * exactly when d < D(nm - c + 1), the (nm - c + 1)-th smallest difference,
 * so with c the smallest integer such that g(c) >= zq the sign change --
 * the root uniroot approaches to within its tolerance -- is exactly at
 * D(nm - c + 1).  The end-point rules of R (return the end when W there
 * is already on the far side of zq) are applied with W evaluated exactly
 * as R does at the two ends.  wmw_rank gives the rank of the difference
 * (0: an end point, in *root).
 */
typedef struct {
    size_t n, m;
    double mumin, mumax, wmin, wmax, sigma0;
    st_alternative alt;
    int correct;
} wmw_ci_ctx;

static uint64_t wmw_rank(const wmw_ci_ctx *C, double zq, double *root)
{
    if (C->wmin - zq <= 0) {
        *root = C->mumin;
        return 0;
    }
    if (C->wmax - zq >= 0) {
        *root = C->mumax;
        return 0;
    }
    uint64_t nm = (uint64_t) C->n * C->m;
    double dn = (double) C->n, dm = (double) C->m;
    if (wmw_generic((double) nm, dn, dm, C->sigma0, C->alt, C->correct) < zq) {
        *root = C->mumin;
        return 0;
    }
    uint64_t lo = 0, hi = nm;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (wmw_generic((double) mid, dn, dm, C->sigma0, C->alt,
                        C->correct) >= zq) hi = mid;
        else lo = mid + 1;
    }
    if (lo == 0) {
        *root = C->mumax;
        return 0;
    }
    return nm - lo + 1;
}

/* The tie term of an ascending sample summed from its largest value down
 * (the order in which the interval has always summed it: the terms are
 * not exact in a double beyond ties of about 2e5 values). */
static double tie_term_desc(const double *s, size_t n)
{
    double ties = 0.0;
    size_t j = n;
    while (j > 0) {
        size_t i = j - 1;
        while (i > 0 && s[i - 1] == s[j - 1]) i--;
        double t = (double) (j - i);
        ties += t * t * t - t;
        j = i;
    }
    return ties;
}

/*
 * Hodges-Lehmann estimate and interval from x and y sorted ascending.
 * All the order statistics of the differences one interval needs (the
 * one or two middle ones and the ends) are selected in one call, which
 * searches the ones close together in one bracket.
 */
static int wmw_conf_int(const double *xs, size_t n, const double *ys,
                        size_t m, st_alternative alt, int exact,
                        int correct, double conf_level,
                        const double *null_prob, size_t null_len,
                        st_cache *cache, int estimate, st_result *out,
                        double *ci_level, int *ci_warn)
{
    if (n > SIZE_MAX / m) return ST_ERR_TOO_MANY;
    uint64_t nm = (uint64_t) n * m;
    double *prob = NULL;
    int status = ST_OK;
    double lo_v = NAN, hi_v = NAN, est = NAN;
    /* Hodges-Lehmann: the median of the n m differences. */
    uint64_t ks[4] = {(nm + 1) / 2, nm / 2 + 1, 0, 0};
    int nks = !estimate ? 0 : nm % 2 == 0 ? 2 : 1;
    double vals[4];
    double alpha = 1 - conf_level, level = conf_level;
    int at_lo = -1, at_hi = -1;        /* where the ends are in ks */
    if (exact) {
        /* R's exact interval: order statistics at qwilcox positions.  With
         * ties the same closed interval is kept; Noether (1967) shows its
         * coverage is then at least the nominal one. */
        size_t len = null_len;
        if (!null_prob) {
            status = null_table(n, m, cache, &null_prob, &len, &prob);
            if (status != ST_OK) goto done;
        }
        double a = alt == ST_TWO_SIDED ? alpha / 2 : alpha;
        double qu, achieved;
        /* (kept in cache for its table: a suite asks the same level of the
         * same sizes again and again) */
        int cached = cache && null_prob == cache->ranksum.prob;
        if (cached && cache->ranksum.q_set && cache->ranksum.q_a == a) {
            qu = cache->ranksum.q_q;
            achieved = cache->ranksum.q_cdf;
        } else {
            qu = st_rank_quantile(null_prob, len, a);
            if (qu == 0) qu = 1;
            achieved = st_rank_cdf(null_prob, len, qu - 1);
            if (cached) {
                cache->ranksum.q_set = 1;
                cache->ranksum.q_a = a;
                cache->ranksum.q_q = qu;
                cache->ranksum.q_cdf = achieved;
            }
        }
        if (alt == ST_TWO_SIDED) achieved *= 2;
        uint64_t iq = (uint64_t) qu;
        lo_v = -INFINITY;
        hi_v = INFINITY;
        if (alt != ST_LESS) {
            at_lo = nks;
            ks[nks++] = iq;
        }
        if (alt != ST_GREATER) {
            at_hi = nks;
            ks[nks++] = nm - iq + 1;
        }
        if (achieved - alpha > alpha / 2) {
            *ci_warn = 1;
            level = 1 - achieved;
        }
    } else {
        wmw_ci_ctx C;
        C.n = n;
        C.m = m;
        C.alt = alt;
        C.correct = correct;
        C.mumin = xs[0] - ys[m - 1];
        C.mumax = xs[n - 1] - ys[0];
        double dn = (double) n, dm = (double) m;
        double t0 = st_sorted_tie_term(xs, n) + tie_term_desc(ys, m);
        C.sigma0 = sqrt((dn * dm / 12) *
                        ((dn + dm + 1) - t0 / ((dn + dm) * (dn + dm - 1))));
        if (C.mumin == C.mumax) {
            /* every difference is the same: R stops ("all observations are
             * tied"); the interval of the differences is that point. */
            lo_v = alt == ST_LESS ? -INFINITY : C.mumin;
            hi_v = alt == ST_GREATER ? INFINITY : C.mumin;
        } else {
            status = wmw_standardised(xs, n, ys, m, C.mumin, alt, correct,
                                      &C.wmin);
            if (status == ST_OK)
                status = wmw_standardised(xs, n, ys, m, C.mumax, alt,
                                          correct, &C.wmax);
            if (status != ST_OK) goto done;
            lo_v = -INFINITY;
            hi_v = INFINITY;
            double zl = NAN, zh = NAN;
            if (alt == ST_TWO_SIDED) {
                zl = qnorm(alpha / 2, 0, 1, 0, 0);
                zh = qnorm(alpha / 2, 0, 1, 1, 0);
            } else if (alt == ST_GREATER) {
                zl = qnorm(alpha, 0, 1, 0, 0);
            } else {
                zh = qnorm(alpha, 0, 1, 1, 0);
            }
            if (!isnan(zl)) {
                uint64_t k = wmw_rank(&C, zl, &lo_v);
                if (k) {
                    at_lo = nks;
                    ks[nks++] = k;
                }
            }
            if (!isnan(zh)) {
                uint64_t k = wmw_rank(&C, zh, &hi_v);
                if (k) {
                    at_hi = nks;
                    ks[nks++] = k;
                }
            }
        }
    }
    /* select in ascending order of rank, then put the values back */
    int order[4] = {0, 1, 2, 3};
    for (int i = 1; i < nks; i++)
        for (int p = i; p > 0 && ks[order[p - 1]] > ks[order[p]]; p--) {
            int t = order[p];
            order[p] = order[p - 1];
            order[p - 1] = t;
        }
    uint64_t sorted_ks[4];
    double sorted_vals[4];
    for (int i = 0; i < nks; i++) sorted_ks[i] = ks[order[i]];
    /* one call: the ranks are searched together while they share a
     * bracket, then apart (select.c) */
    if (nks > 0) {
        status = st_pairwise_diff_kths(xs, n, ys, m, sorted_ks, nks,
                                       sorted_vals);
        if (status != ST_OK) goto done;
    }
    for (int i = 0; i < nks; i++) vals[order[i]] = sorted_vals[i];
    if (at_lo >= 0) lo_v = vals[at_lo];
    if (at_hi >= 0) hi_v = vals[at_hi];
    if (estimate)
        est = nm % 2 == 0
              ? (double) (((long double) vals[0] + vals[1]) / 2.0L) : vals[0];
    out->conf_int[0] = lo_v;
    out->conf_int[1] = hi_v;
    out->estimate[0] = est;
    *ci_level = level;
done:
    free(prob);
    return status;
}

/*
 * The test of x - mu against y on the sorted pair P (holding x - mu and
 * y).  On success *null_prob (with *null_len) is the exact no-ties table
 * when one was used, for the interval to reuse; *owned is that table when
 * the caller must free it.  less (may be NULL) also receives the test with
 * the alternative ST_LESS, from the same statistic and tails.
 */
static int wmw_test_sorted(const st_sorted_pair *P, st_alternative alt,
                           int exact, int correct, st_result *out,
                           st_cache *cache, const double **null_prob,
                           size_t *null_len, double **owned,
                           st_result *less)
{
    size_t n = P->n, m = P->m, N = n + m;
    *null_prob = NULL;
    *null_len = 0;
    *owned = NULL;
    int use_exact = exact < 0 ? (n < 50 && m < 50) : exact;
    /* one tie group: all n + m values equal */
    int all_tied = P->xs[0] == P->xs[n - 1] && P->ys[0] == P->ys[m - 1] &&
                   P->xs[0] == P->ys[0];
    double dn = (double) n, dm = (double) m;
    long double sr;
    double ties, p;
    double *rank2 = NULL;
    int status = st_merge_ranks(P->xs, n, 0.0, P->ys, m, &sr, &ties, NULL);
    if (status != ST_OK) return status;
    if (use_exact && !all_tied && ties != 0.0) {
        /* the exact distribution with ties needs every doubled mid-rank */
        rank2 = malloc(N * sizeof(double));
        if (!rank2) return ST_ERR_ALLOC;
        status = st_merge_ranks(P->xs, n, 0.0, P->ys, m, &sr, &ties, rank2);
        if (status != ST_OK) {
            free(rank2);
            return status;
        }
    }
    double W = (double) sr - dn * (dn + 1) / 2;
    double p_less = NAN;
    if (all_tied) {
        /* One tie group: given the ties W is always n m / 2, so every
         * alternative has p = 1 exactly (R's normal formula gives 0/0). */
        p = p_less = 1.0;
        use_exact = 1;
    } else if (use_exact) {
        double ple, pge;
        if (ties == 0.0) {
            /* W is an integer; one table serves the p-value and the
             * interval's quantiles */
            status = null_table(n, m, cache, null_prob, null_len, owned);
            if (status == ST_OK)
                table_tails(cache, *null_prob, *null_len, W, &ple, &pge);
        } else {
            status = st_ranksum_exact_tails(rank2, N, n, (double) (2.0L * sr),
                                            &ple, &pge);
        }
        free(rank2);
        if (status != ST_OK) return status;
        /* Two-sided: twice the smaller tail.  Without ties the null
         * distribution is symmetric and this is R's choice of tail. */
        p = alt == ST_LESS ? ple : alt == ST_GREATER ? pge
            : 2.0 * (ple < pge ? ple : pge);
        if (p > 1.0) p = 1.0;
        p_less = ple > 1.0 ? 1.0 : ple;
    } else {
        double z0 = W - dn * dm / 2;
        double sigma = sqrt((dn * dm / 12) *
                            ((dn + dm + 1) - ties / ((dn + dm) * (dn + dm - 1))));
        double z = (z0 - st_continuity(alt, correct, z0)) / sigma;
        p = st_normal_p(alt, z);
        if (less)
            p_less = st_normal_p(ST_LESS,
                                 (z0 - st_continuity(ST_LESS, correct, z0)) /
                                 sigma);
    }
    out->statistic = W;
    out->p_value = p;
    out->exact = use_exact;
    if (less) {
        less->statistic = W;
        less->p_value = p_less;
        less->exact = use_exact;
    }
    return ST_OK;
}

static int check_args(size_t n, size_t m, st_alternative alt, double mu,
                      int exact, int conf_int, double conf_level)
{
    if (n < 1 || m < 1) return ST_ERR_TOO_FEW;
    if (!isfinite(mu) || exact < -1 || exact > 1 ||
        (alt != ST_TWO_SIDED && alt != ST_LESS && alt != ST_GREATER) ||
        (conf_int && !(conf_level > 0 && conf_level < 1)))
        return ST_ERR_DOMAIN;
    return ST_OK;
}

int st_wilcoxon_sorted(const st_sorted_pair *P, st_alternative alt,
                       int exact, int correct, int conf_int,
                       double conf_level, st_result *out, double *ci_level,
                       int *ci_warn, st_cache *cache)
{
    double level_dummy;
    int warn_dummy;
    if (!ci_level) ci_level = &level_dummy;
    if (!ci_warn) ci_warn = &warn_dummy;
    *ci_level = NAN;
    *ci_warn = 0;
    st_result_init(out);
    int status = check_args(P->n, P->m, alt, 0.0, exact, conf_int,
                            conf_level);
    if (status != ST_OK) return st_result_fail(out, status);
    const double *null_prob;
    size_t null_len;
    double *owned;
    status = wmw_test_sorted(P, alt, exact, correct, out, cache, &null_prob,
                             &null_len, &owned, NULL);
    if (status == ST_OK && conf_int)
        status = wmw_conf_int(P->xs, P->n, P->ys, P->m, alt, out->exact,
                              correct, conf_level, null_prob, null_len, cache,
                              1, out, ci_level, ci_warn);
    free(owned);
    if (status != ST_OK) return st_result_fail(out, status);
    return ST_OK;
}

int st_wilcoxon_sorted_both(const st_sorted_pair *P, int exact, int correct,
                            st_result *greater, st_result *less,
                            st_cache *cache)
{
    st_result_init(greater);
    st_result_init(less);
    int status = check_args(P->n, P->m, ST_GREATER, 0.0, exact, 0, 0.95);
    if (status != ST_OK) {
        st_result_fail(less, status);
        return st_result_fail(greater, status);
    }
    const double *null_prob;
    size_t null_len;
    double *owned;
    status = wmw_test_sorted(P, ST_GREATER, exact, correct, greater, cache,
                             &null_prob, &null_len, &owned, less);
    free(owned);
    if (status != ST_OK) {
        st_result_fail(less, status);
        return st_result_fail(greater, status);
    }
    return ST_OK;
}

static int hodges_lehmann_sorted(const st_sorted_pair *P,
                                 st_alternative alt, int exact, int correct,
                                 double conf_level, int estimate,
                                 st_result *out, double *ci_level,
                                 int *ci_warn, st_cache *cache)
{
    double level_dummy;
    int warn_dummy;
    if (!ci_level) ci_level = &level_dummy;
    if (!ci_warn) ci_warn = &warn_dummy;
    *ci_level = NAN;
    *ci_warn = 0;
    st_result_init(out);
    size_t n = P->n, m = P->m;
    int status = check_args(n, m, alt, 0.0, exact, 1, conf_level);
    if (status != ST_OK) return st_result_fail(out, status);
    /* exact or not as the test would choose (one tie group: exact) */
    int use_exact = exact < 0 ? (n < 50 && m < 50) : exact;
    if (P->xs[0] == P->xs[n - 1] && P->ys[0] == P->ys[m - 1] &&
        P->xs[0] == P->ys[0])
        use_exact = 1;
    status = wmw_conf_int(P->xs, n, P->ys, m, alt, use_exact, correct,
                          conf_level, NULL, 0, cache, estimate, out, ci_level,
                          ci_warn);
    if (status != ST_OK) return st_result_fail(out, status);
    return ST_OK;
}

int st_hodges_lehmann_sorted(const st_sorted_pair *P, st_alternative alt,
                             int exact, int correct, double conf_level,
                             st_result *out, double *ci_level, int *ci_warn,
                             st_cache *cache)
{
    return hodges_lehmann_sorted(P, alt, exact, correct, conf_level, 1, out,
                                 ci_level, ci_warn, cache);
}

int st_hodges_lehmann_ci_sorted(const st_sorted_pair *P, st_alternative alt,
                                int exact, int correct, double conf_level,
                                st_result *out, st_cache *cache)
{
    return hodges_lehmann_sorted(P, alt, exact, correct, conf_level, 0, out,
                                 NULL, NULL, cache);
}

static int wilcoxon_impl(const double *x, size_t n, const double *y,
                         size_t m, st_alternative alt, double mu, int exact,
                         int correct, int conf_int, double conf_level,
                         st_result *out, double *ci_level, int *ci_warn,
                         st_cache *cache)
{
    double level_dummy;
    int warn_dummy;
    if (!ci_level) ci_level = &level_dummy;
    if (!ci_warn) ci_warn = &warn_dummy;
    *ci_level = NAN;
    *ci_warn = 0;
    st_result_init(out);
    int status = check_args(n, m, alt, mu, exact, conf_int, conf_level);
    if (status != ST_OK) return st_result_fail(out, status);
    st_sorted_pair P, P0 = {NULL, NULL, 0, 0};
    status = st_sorted_pair_init(&P, x, n, mu, y, m);
    if (status != ST_OK) return st_result_fail(out, status);
    const double *null_prob;
    size_t null_len;
    double *owned;
    status = wmw_test_sorted(&P, alt, exact, correct, out, cache, &null_prob,
                             &null_len, &owned, NULL);
    if (status == ST_OK && conf_int) {
        /* the interval is for the shift of x itself, not of x - mu */
        const st_sorted_pair *Q = &P;
        if (mu != 0.0) {
            st_sorted_pair_free(&P);
            status = st_sorted_pair_init(&P0, x, n, 0.0, y, m);
            Q = &P0;
        }
        if (status == ST_OK)
            status = wmw_conf_int(Q->xs, n, Q->ys, m, alt, out->exact,
                                  correct, conf_level, null_prob, null_len,
                                  cache, 1, out, ci_level, ci_warn);
    }
    free(owned);
    st_sorted_pair_free(&P);
    st_sorted_pair_free(&P0);
    if (status != ST_OK) return st_result_fail(out, status);
    return ST_OK;
}

int st_wilcoxon_test_ci(const double *x, size_t n, const double *y,
                        size_t m, st_alternative alt, double mu, int exact,
                        int correct, int conf_int, double conf_level,
                        st_result *out, double *ci_level, int *ci_warn)
{
    return wilcoxon_impl(x, n, y, m, alt, mu, exact, correct, conf_int,
                         conf_level, out, ci_level, ci_warn, NULL);
}

int st_wilcoxon_test_tab(const double *x, size_t n, const double *y,
                         size_t m, st_alternative alt, double mu, int exact,
                         int correct, int conf_int, double conf_level,
                         st_result *out, st_cache *cache)
{
    return wilcoxon_impl(x, n, y, m, alt, mu, exact, correct, conf_int,
                         conf_level, out, NULL, NULL, cache);
}

int st_wilcoxon_test(const double *x, size_t n, const double *y, size_t m,
                     st_alternative alt, double mu, int exact, int correct,
                     int conf_int, double conf_level, st_result *out)
{
    return st_wilcoxon_test_ci(x, n, y, m, alt, mu, exact, correct, conf_int,
                               conf_level, out, NULL, NULL);
}

/* ---- R entry point ------------------------------------------------------ */
#include "ffi.h"

/* ffi_result() plus the interval's confidence level and whether it had to
 * be lowered (R's "requested conf.level not achievable"). */
SEXP rank_result_sexp(const st_result *r, double ci_level, int ci_warn)
{
    SEXP base = PROTECT(ffi_result(r));
    R_xlen_t nb = XLENGTH(base);
    SEXP out = PROTECT(Rf_allocVector(VECSXP, nb + 2));
    SEXP names = PROTECT(Rf_allocVector(STRSXP, nb + 2));
    SEXP bnames = Rf_getAttrib(base, R_NamesSymbol);
    for (R_xlen_t i = 0; i < nb; i++) {
        SET_VECTOR_ELT(out, i, VECTOR_ELT(base, i));
        SET_STRING_ELT(names, i, STRING_ELT(bnames, i));
    }
    SET_VECTOR_ELT(out, nb, Rf_ScalarReal(ci_level));
    SET_STRING_ELT(names, nb, Rf_mkChar("ci_level"));
    SET_VECTOR_ELT(out, nb + 1, Rf_ScalarLogical(ci_warn));
    SET_STRING_ELT(names, nb + 1, Rf_mkChar("ci_warning"));
    Rf_setAttrib(out, R_NamesSymbol, names);
    UNPROTECT(3);
    return out;
}

SEXP ffi_wilcoxon_test(SEXP x, SEXP y, SEXP alternative, SEXP mu, SEXP exact,
                       SEXP correct, SEXP conf_int, SEXP conf_level)
{
    size_t n, m;
    const double *px = ffi_doubles(x, &n, "x");
    const double *py = ffi_doubles(y, &m, "y");
    int alt = ffi_int(alternative, "alternative");
    double dmu = ffi_double(mu, "mu");
    int ex = ffi_int(exact, "exact");
    int corr = ffi_flag(correct, "correct");
    int ci = ffi_flag(conf_int, "conf_int");
    double cl = ffi_double(conf_level, "conf_level");
    st_result r;
    double level;
    int warn;
    st_wilcoxon_test_ci(px, n, py, m, (st_alternative) alt, dmu, ex, corr, ci,
                        cl, &r, &level, &warn);
    return rank_result_sexp(&r, level, warn);
}

/* Internal entry points for the tests: the exact null distributions
 * themselves.  ffi_ranksum_null(n, m): the probabilities of W = 0 .. n m
 * without ties, or the status (an integer) on failure.
 * ffi_exact_tails(rank2, n, s2): c(status, P[S2 <= s2], P[S2 >= s2]) of
 * st_ranksum_exact_tails (n >= 0) or st_signrank_exact_tails (n < 0). */
SEXP ffi_ranksum_null(SEXP n, SEXP m)
{
    int in = ffi_int(n, "n"), im = ffi_int(m, "m");
    if (in < 1 || im < 1) return Rf_ScalarInteger(ST_ERR_DOMAIN);
    double *prob;
    size_t len;
    int status = st_ranksum_null_probs((size_t) in, (size_t) im, &prob, &len);
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
                 : st_ranksum_exact_tails(r2, N, (size_t) in, s, &le, &ge);
    } else {
        status = st_signrank_exact_tails(r2, N, s, &le, &ge);
    }
    SEXP out = Rf_allocVector(REALSXP, 3);
    REAL(out)[0] = status;
    REAL(out)[1] = le;
    REAL(out)[2] = ge;
    return out;
}
