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

/* ------------------------------------------------------------------------
 * Selection in the implicit sorted matrix.
 *
 * Rows are indexed by a (ascending).  For differences the columns are b in
 * DESCENDING order, so value(i, j) = a[i] - b[j] increases along a row and
 * down a column.  For Walsh averages value(i, j) = (a[i] + a[j]) / 2, which
 * is monotone in i and in j over the whole square; row i only owns the
 * columns j >= i.  Floating-point rounding is monotone, so the computed
 * values keep these orders and equal the ones R forms with outer().
 *
 * Each row keeps a window [lo, hi) of columns that may still hold the
 * answer; every owned column left of lo holds a value known to be below
 * the answer and every column right of hi one known to be above it.  The
 * rank of any value p (how many cells are < p and <= p, and where each row
 * crosses p) is found in O(rows + columns) by one monotone staircase walk
 * (Johnson and Mizoguchi 1978).  Each round draws a random sample of the
 * candidate cells, takes two sample quantiles bracketing the answer's
 * relative position (Floyd and Rivest 1975; with a sample of s cells and a
 * margin of 2 sqrt(s) the bracket misses with tiny probability and keeps
 * about 4 / sqrt(s) of the candidates), ranks both and narrows the windows
 * to the cells between them.  A pivot that turns out to be on the wrong
 * side still leaves its window, so every round strictly shrinks the
 * candidates: the loop cannot cycle.  When the candidates fit in a buffer
 * of rows + columns values they are sorted and the answer read off.
 * Memory: five arrays of rows indices and the buffer, O(na + nb).
 * ---------------------------------------------------------------------- */

typedef struct {
    const double *a, *b;
    size_t nrow, ncol;
    int walsh;
} pair_matrix;

static double pm_value(const pair_matrix *M, size_t i, size_t j)
{
    return M->walsh ? (M->a[i] + M->a[j]) / 2.0 : M->a[i] - M->b[j];
}

static size_t pm_first(const pair_matrix *M, size_t i)
{
    return M->walsh ? i : 0;
}

/* lt[i] (le[i]) = first column >= pm_first(i) whose value is >= p (> p);
 * *n_lt, *n_le = numbers of owned cells < p and <= p. */
static void pm_rank(const pair_matrix *M, double p, size_t *lt, size_t *le,
                    size_t *n_lt, size_t *n_le)
{
    size_t J = M->ncol, K = M->ncol, tl = 0, te = 0;
    for (size_t i = 0; i < M->nrow; i++) {
        while (K > 0 && pm_value(M, i, K - 1) > p) K--;
        if (J > K) J = K;
        while (J > 0 && pm_value(M, i, J - 1) >= p) J--;
        size_t f = pm_first(M, i);
        lt[i] = J > f ? J : f;
        le[i] = K > f ? K : f;
        tl += lt[i] - f;
        te += le[i] - f;
    }
    *n_lt = tl;
    *n_le = te;
}

static int cmp_dbl(const void *a, const void *b)
{
    double u = *(const double *) a, v = *(const double *) b;
    return (u > v) - (u < v);
}

static uint64_t xorshift(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* The k-th smallest (0-based) of buf[0..c-1], rearranging buf: Hoare
 * selection with a three-way partition around the median of three, so
 * runs of equal values cost nothing extra.  Every pass removes at least
 * the pivot's copies from the range, so it ends after at most c passes;
 * expected O(c) work instead of the O(c log c) of sorting. */
static double select_kth(double *buf, size_t c, size_t k)
{
    size_t lo = 0, hi = c;                 /* answer in buf[lo .. hi-1] */
    while (hi - lo > 1) {
        double a = buf[lo], b = buf[lo + (hi - lo) / 2], d = buf[hi - 1];
        double piv = a < b ? (b < d ? b : (a < d ? d : a))
                           : (a < d ? a : (b < d ? d : b));
        /* [lo, lt) < piv, [lt, i) == piv, (gt, hi) > piv */
        size_t lt = lo, i = lo, gt = hi;
        while (i < gt) {
            double v = buf[i];
            if (v < piv) {
                buf[i++] = buf[lt];
                buf[lt++] = v;
            } else if (v > piv) {
                buf[i] = buf[--gt];
                buf[gt] = v;
            } else i++;
        }
        if (k < lt) hi = lt;
        else if (k >= gt) lo = gt;
        else return piv;
    }
    return buf[lo];
}

#define PM_SAMPLE 2048

int st_pairwise_kth(const double *a, size_t na, const double *b, size_t nb,
                    int walsh, size_t k, double *value)
{
    *value = NAN;
    pair_matrix M = {a, b, na, walsh ? na : nb, walsh};
    size_t total;
    if (na == 0 || M.ncol == 0) return ST_ERR_DOMAIN;
    if (walsh) {
        if (na > (SIZE_MAX - 1) / na) return ST_ERR_TOO_MANY;
        total = na * (na + 1) / 2;
    } else {
        if (na > SIZE_MAX / nb) return ST_ERR_TOO_MANY;
        total = na * nb;
    }
    if (k < 1 || k > total) return ST_ERR_DOMAIN;
    if (na > SIZE_MAX / 8 / sizeof(size_t) || M.ncol > SIZE_MAX / 8 / sizeof(double))
        return ST_ERR_TOO_MANY;

    size_t cap = na + M.ncol;
    if (cap < PM_SAMPLE) cap = PM_SAMPLE;
    size_t *lo = malloc(na * sizeof(size_t)), *hi = malloc(na * sizeof(size_t));
    size_t *lt = malloc(na * sizeof(size_t)), *le = malloc(na * sizeof(size_t));
    size_t *cum = malloc(na * sizeof(size_t));
    double *buf = malloc(cap * sizeof(double));
    int status = ST_ERR_DOMAIN;
    if (!lo || !hi || !lt || !le || !cum || !buf) {
        status = ST_ERR_ALLOC;
        goto done;
    }
    for (size_t i = 0; i < na; i++) {
        lo[i] = pm_first(&M, i);
        hi[i] = M.ncol;
    }
    uint64_t rng = 0x9E3779B97F4A7C15ULL;   /* fixed seed: reproducible */
    size_t below = 0;                       /* owned cells left of lo */
    for (int round = 0; round < 100000; round++) {
        size_t active = 0;
        for (size_t i = 0; i < na; i++) {
            active += hi[i] - lo[i];
            cum[i] = active;
        }
        if (k <= below || k - below > active) break;      /* cannot happen */
        if (active <= cap) {
            size_t c = 0;
            for (size_t i = 0; i < na; i++)
                for (size_t j = lo[i]; j < hi[i]; j++)
                    buf[c++] = pm_value(&M, i, j);
            *value = select_kth(buf, c, k - below - 1);
            status = ST_OK;
            goto done;
        }
        /* sample candidates uniformly (row found by bisection on cum) */
        size_t s = PM_SAMPLE;
        for (size_t t = 0; t < s; t++) {
            size_t r = (size_t) (xorshift(&rng) % (uint64_t) active);
            size_t l = 0, h = na - 1;
            while (l < h) {
                size_t mid = l + (h - l) / 2;
                if (cum[mid] > r) h = mid;
                else l = mid + 1;
            }
            size_t before = l ? cum[l - 1] : 0;
            buf[t] = pm_value(&M, l, lo[l] + (r - before));
        }
        qsort(buf, s, sizeof(double), cmp_dbl);
        double frac = (double) (k - below) / (double) active;
        double centre = frac * (double) s, margin = 2.0 * sqrt((double) s);
        double il = floor(centre - margin), ih = ceil(centre + margin);
        double pl = buf[il < 0 ? 0 : (size_t) il];
        double ph = buf[ih > (double) (s - 1) ? s - 1 : (size_t) ih];
        double piv[2] = {pl, ph};
        for (int w = 0; w < 2; w++) {
            size_t n_lt, n_le;
            pm_rank(&M, piv[w], lt, le, &n_lt, &n_le);
            if (k <= n_lt) {                 /* answer < pivot */
                for (size_t i = 0; i < na; i++) {
                    if (lt[i] < hi[i]) hi[i] = lt[i];
                    if (hi[i] < lo[i]) hi[i] = lo[i];
                }
            } else if (k > n_le) {           /* answer > pivot */
                below = 0;
                for (size_t i = 0; i < na; i++) {
                    if (le[i] > lo[i]) lo[i] = le[i];
                    if (lo[i] > hi[i]) lo[i] = hi[i];
                    below += lo[i] - pm_first(&M, i);
                }
            } else {
                *value = piv[w];
                status = ST_OK;
                goto done;
            }
            if (pl == ph) break;
        }
    }
done:
    free(lo);
    free(hi);
    free(lt);
    free(le);
    free(cum);
    free(buf);
    return status;
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
 * Exact null distribution without ties (Harding 1984).
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
 * the symmetry G_{i,r}[j] = G_{i,r}[D_i - j]: the subtractions then stay
 * in the lower half, where the running sum being reduced is at most a
 * few times the result, so no cancellation spoils the relative accuracy
 * of the small tail counts (which are exact integers below 2^53; the
 * tail j < r + i never subtracts at all).  The counts stay below
 * choose(n + m, k), finite for every size the limits below admit.
 *
 *   Harding, E. F. (1984). An efficient, minimal-storage procedure for
 *     calculating the Mann-Whitney U, generalized U and similar
 *     distributions. Applied Statistics 33, 1-6.
 * ---------------------------------------------------------------------- */

/* The size limits of the tied count (band_size_ok) for the units 1 .. N
 * and a k-subset, so that exact = TRUE fails with ST_ERR_TOO_MANY in the
 * same cases whichever algorithm runs. */
static int noties_size_ok(size_t N, size_t k)
{
    if ((double) N * (double) (k + 1) > ST_RANKSUM_MAX_SCAN) return 0;
    int64_t *P = malloc((N + 1) * sizeof(int64_t));
    int64_t *base = malloc((k + 1) * sizeof(int64_t));
    size_t *cap = malloc((k + 1) * sizeof(size_t));
    size_t *off = malloc((k + 1) * sizeof(size_t));
    int ok = 0;
    /* Harding's table has k (N - k) + 1 cells */
    if ((double) k * (double) (N - k) > (double) ST_RANKSUM_MAX_CELLS) ok = -1;
    if (!ok && P && base && cap && off) {
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

/* Null probabilities of W = 0 .. n m without ties (what dwilcox gives):
 * the counts above divided by their sum. */
static int wilcox_null_probs(size_t n, size_t m, double **prob, size_t *len)
{
    *prob = NULL;
    *len = 0;
    if (n == 0 || m == 0 || n > SIZE_MAX - m) return ST_ERR_DOMAIN;
    size_t k = n < m ? n : m, r = n < m ? m : n;
    if (!noties_size_ok(n + m, k)) return ST_ERR_TOO_MANY;
    /* k r <= k (N - k) <= ST_EXACT_MAX_CELLS: no overflow below */
    size_t D = k * r;
    double *c = calloc(D + 1, sizeof(double));
    if (!c) return ST_ERR_ALLOC;
    c[0] = 1.0;
    for (size_t i = 1; i <= k; i++) {
        size_t Di = i * r, Hi = Di / 2;
        for (size_t j = i; j <= Hi; j++) c[j] += c[j - i];
        for (size_t j = Hi; j >= r + i && j <= Hi; j--) c[j] -= c[j - r - i];
        /* upper half by symmetry, as far as the next step reads it */
        size_t top = i == k ? D : (Di + r) / 2;
        if (top > Di) top = Di;
        for (size_t j = Hi + 1; j <= top; j++) c[j] = c[Di - j];
    }
    long double tot = 0.0L;
    for (size_t j = 0; j <= D; j++) tot += c[j];
    double dtot = (double) tot;
    for (size_t j = 0; j <= D; j++) c[j] /= dtot;
    *prob = c;
    *len = D + 1;
    return ST_OK;
}

/* P[W <= w] and P[W >= w] from the probabilities, each summed over its own
 * tail so that small tails keep their relative accuracy. */
static void prob_tails(const double *prob, size_t len, double w,
                       double *p_le, double *p_ge)
{
    long double le = 0.0L, ge = 0.0L;
    for (size_t i = 0; i < len; i++) {
        if ((double) i <= w) le += prob[i];
        if ((double) i >= w) ge += prob[i];
    }
    *p_le = (double) (le < 1.0L ? le : 1.0L);
    *p_ge = (double) (ge < 1.0L ? ge : 1.0L);
}

/* The no-ties table for (n, m): the one held in tab when it is for the
 * same sizes (the table is symmetric in n and m), else a new one, kept in
 * tab (replacing its old table) or, without tab, returned in *owned for
 * the caller to free. */
static int null_table(size_t n, size_t m, st_rank_table *tab,
                      const double **prob, size_t *len, double **owned)
{
    size_t k = n < m ? n : m, r = n < m ? m : n;
    *owned = NULL;
    if (tab && tab->prob && tab->n == k && tab->m == r) {
        *prob = tab->prob;
        *len = tab->len;
        return ST_OK;
    }
    double *p;
    int status = wilcox_null_probs(n, m, &p, len);
    if (status != ST_OK) return status;
    if (tab) {
        free(tab->prob);
        tab->prob = p;
        tab->n = k;
        tab->m = r;
        tab->len = *len;
    } else *owned = p;
    *prob = p;
    return ST_OK;
}

void st_rank_table_free(st_rank_table *tab)
{
    if (!tab) return;
    free(tab->prob);
    tab->prob = NULL;
    tab->n = tab->m = tab->len = 0;
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
 * The test.
 * ---------------------------------------------------------------------- */

/* R's standardised statistic W(d) of the asymptotic interval: mid-ranks
 * of c(x - d, y) and the tie-corrected variance.  xs is x ascending and yd
 * y descending; x - d keeps the order of x (rounding is monotone), so the
 * pooled order is a merge of the two sorted runs, O(n + m). */
static double wmw_standardised(const double *xs, size_t n, const double *yd,
                               size_t m, double d, st_alternative alt,
                               int correct)
{
    size_t i = 0, j = 0, pos = 0;
    long double sr = 0.0L;
    double ties = 0.0;
    while (i < n || j < m) {
        double vx = i < n ? xs[i] - d : INFINITY;
        double vy = j < m ? yd[m - 1 - j] : INFINITY;
        double v = vx < vy ? vx : vy;
        size_t cx = 0, cy = 0;
        while (i < n && xs[i] - d == v) {
            i++;
            cx++;
        }
        while (j < m && yd[m - 1 - j] == v) {
            j++;
            cy++;
        }
        double t = (double) (cx + cy);
        sr += (long double) cx * ((long double) pos + (t + 1) / 2);
        ties += t * t * t - t;
        pos += cx + cy;
    }
    double dn = (double) n, dm = (double) m;
    double dz = (double) sr - dn * (dn + 1) / 2 - dn * dm / 2;
    double sigma = sqrt((dn * dm / 12) *
                        ((dn + dm + 1) - ties / ((dn + dm) * (dn + dm - 1))));
    return (dz - st_continuity(alt, correct, dz)) / sigma;
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
 * as R does at the two ends.
 */
typedef struct {
    const double *xs, *yd;        /* x ascending, y descending */
    size_t n, m;
    double mumin, mumax, wmin, wmax, sigma0;
    st_alternative alt;
    int correct;
} wmw_ci_ctx;

static int wmw_root(const wmw_ci_ctx *C, double zq, double *root)
{
    if (C->wmin - zq <= 0) {
        *root = C->mumin;
        return ST_OK;
    }
    if (C->wmax - zq >= 0) {
        *root = C->mumax;
        return ST_OK;
    }
    size_t nm = C->n * C->m;
    double dn = (double) C->n, dm = (double) C->m;
    if (wmw_generic((double) nm, dn, dm, C->sigma0, C->alt, C->correct) < zq) {
        *root = C->mumin;
        return ST_OK;
    }
    size_t lo = 0, hi = nm;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (wmw_generic((double) mid, dn, dm, C->sigma0, C->alt,
                        C->correct) >= zq) hi = mid;
        else lo = mid + 1;
    }
    if (lo == 0) {
        *root = C->mumax;
        return ST_OK;
    }
    return st_pairwise_kth(C->xs, C->n, C->yd, C->m, 0, nm - lo + 1, root);
}

/* Several order statistics (1-based ranks ks[0..cnt-1], cnt <= 4) of the
 * differences xs[i] - yd[j].  Up to PM_SMALL differences are formed once
 * in a fixed-size buffer and the ranks selected in increasing order, each
 * selection leaving the buffer split at its rank so that the next one
 * searches only the part above it; beyond that, one implicit-matrix
 * selection per rank (O(n + m) memory).  The values are the same either
 * way: the k-th smallest of a multiset is unique. */
#define PM_SMALL 4096
static int pairwise_diff_kths(const double *xs, size_t n, const double *yd,
                              size_t m, const size_t *ks, size_t cnt,
                              double *vals)
{
    size_t nm = n * m;               /* checked by the caller */
    if (cnt > 4) return ST_ERR_DOMAIN;
    if (nm > PM_SMALL) {
        for (size_t i = 0; i < cnt; i++) {
            int status = st_pairwise_kth(xs, n, yd, m, 0, ks[i], &vals[i]);
            if (status != ST_OK) return status;
        }
        return ST_OK;
    }
    size_t order[4];
    for (size_t i = 0; i < cnt; i++) {
        if (ks[i] < 1 || ks[i] > nm) return ST_ERR_DOMAIN;
        size_t p = i;                  /* insertion sort by rank */
        while (p > 0 && ks[order[p - 1]] > ks[i]) {
            order[p] = order[p - 1];
            p--;
        }
        order[p] = i;
    }
    double *buf = malloc((nm ? nm : 1) * sizeof(double));
    if (!buf) return ST_ERR_ALLOC;
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < m; j++) buf[c++] = xs[i] - yd[j];
    size_t base = 0;                   /* buf[0 .. base-1] are done */
    for (size_t r = 0; r < cnt; r++) {
        size_t k = ks[order[r]] - 1;   /* >= base */
        vals[order[r]] = select_kth(buf + base, nm - base, k - base);
        base = k;
    }
    free(buf);
    return ST_OK;
}

static int wmw_conf_int(const double *x, size_t n, const double *y,
                        size_t m, st_alternative alt, int exact,
                        int correct, double conf_level,
                        const double *null_prob, size_t null_len,
                        st_rank_table *tab, st_result *out,
                        double *ci_level, int *ci_warn)
{
    if (n > SIZE_MAX / m) return ST_ERR_TOO_MANY;
    size_t nm = n * m;
    double *xs = st_sorted_copy(x, n), *yd = st_sorted_copy(y, m);
    double *prob = NULL;
    int status = ST_OK;
    if (!xs || !yd) {
        status = ST_ERR_ALLOC;
        goto done;
    }
    for (size_t j = 0; j < m / 2; j++) {      /* y descending */
        double t = yd[j];
        yd[j] = yd[m - 1 - j];
        yd[m - 1 - j] = t;
    }
    double lo_v = NAN, hi_v = NAN, est = NAN;
    /* Hodges-Lehmann: the median of the n m differences. */
    size_t ks[4] = {(nm + 1) / 2, nm / 2 + 1, 0, 0};
    size_t nks = nm % 2 == 0 ? 2 : 1;
    double vals[4];
    double alpha = 1 - conf_level, level = conf_level;
    if (exact) {
        /* R's exact interval: order statistics at qwilcox positions.  With
         * ties the same closed interval is kept; Noether (1967) shows its
         * coverage is then at least the nominal one. */
        size_t len = null_len;
        if (!null_prob) {
            status = null_table(n, m, tab, &null_prob, &len, &prob);
            if (status != ST_OK) goto done;
        }
        double a = alt == ST_TWO_SIDED ? alpha / 2 : alpha;
        double qu = st_rank_quantile(null_prob, len, a);
        if (qu == 0) qu = 1;
        double achieved = st_rank_cdf(null_prob, len, qu - 1);
        if (alt == ST_TWO_SIDED) achieved *= 2;
        size_t iq = (size_t) qu;
        /* the estimate and both ends from one set of differences */
        size_t at_lo = nks, at_hi = nks;
        if (alt != ST_LESS) {
            at_lo = nks;
            ks[nks++] = iq;
        }
        if (alt != ST_GREATER) {
            at_hi = nks;
            ks[nks++] = nm - iq + 1;
        }
        status = pairwise_diff_kths(xs, n, yd, m, ks, nks, vals);
        if (status != ST_OK) goto done;
        lo_v = alt != ST_LESS ? vals[at_lo] : -INFINITY;
        hi_v = alt != ST_GREATER ? vals[at_hi] : INFINITY;
        if (achieved - alpha > alpha / 2) {
            *ci_warn = 1;
            level = 1 - achieved;
        }
    } else {
        status = pairwise_diff_kths(xs, n, yd, m, ks, nks, vals);
        if (status != ST_OK) goto done;
        wmw_ci_ctx C;
        C.xs = xs;
        C.yd = yd;
        C.n = n;
        C.m = m;
        C.alt = alt;
        C.correct = correct;
        C.mumin = xs[0] - yd[0];
        C.mumax = xs[n - 1] - yd[m - 1];
        double dn = (double) n, dm = (double) m;
        double t0 = st_sorted_tie_term(xs, n) + st_sorted_tie_term(yd, m);
        C.sigma0 = sqrt((dn * dm / 12) *
                        ((dn + dm + 1) - t0 / ((dn + dm) * (dn + dm - 1))));
        if (C.mumin == C.mumax) {
            /* every difference is the same: R stops ("all observations are
             * tied"); the interval of the differences is that point. */
            lo_v = alt == ST_LESS ? -INFINITY : C.mumin;
            hi_v = alt == ST_GREATER ? INFINITY : C.mumin;
        } else {
            C.wmin = wmw_standardised(xs, n, yd, m, C.mumin, alt, correct);
            C.wmax = wmw_standardised(xs, n, yd, m, C.mumax, alt, correct);
            lo_v = -INFINITY;
            hi_v = INFINITY;
            if (alt == ST_TWO_SIDED) {
                status = wmw_root(&C, qnorm(alpha / 2, 0, 1, 0, 0), &lo_v);
                if (status == ST_OK)
                    status = wmw_root(&C, qnorm(alpha / 2, 0, 1, 1, 0), &hi_v);
            } else if (alt == ST_GREATER) {
                status = wmw_root(&C, qnorm(alpha, 0, 1, 0, 0), &lo_v);
            } else {
                status = wmw_root(&C, qnorm(alpha, 0, 1, 1, 0), &hi_v);
            }
            if (status != ST_OK) goto done;
        }
    }
    est = nks >= 2 && nm % 2 == 0
          ? (double) (((long double) vals[0] + vals[1]) / 2.0L) : vals[0];
    out->conf_int[0] = lo_v;
    out->conf_int[1] = hi_v;
    out->estimate[0] = est;
    *ci_level = level;
done:
    free(xs);
    free(yd);
    free(prob);
    return status;
}

static int wilcoxon_impl(const double *x, size_t n, const double *y,
                         size_t m, st_alternative alt, double mu, int exact,
                         int correct, int conf_int, double conf_level,
                         st_result *out, double *ci_level, int *ci_warn,
                         st_rank_table *tab)
{
    double level_dummy;
    int warn_dummy;
    if (!ci_level) ci_level = &level_dummy;
    if (!ci_warn) ci_warn = &warn_dummy;
    *ci_level = NAN;
    *ci_warn = 0;
    st_result_init(out);
    if (n < 1 || m < 1) return st_result_fail(out, ST_ERR_TOO_FEW);
    if (!isfinite(mu) || exact < -1 || exact > 1 ||
        (alt != ST_TWO_SIDED && alt != ST_LESS && alt != ST_GREATER) ||
        (conf_int && !(conf_level > 0 && conf_level < 1)))
        return st_result_fail(out, ST_ERR_DOMAIN);
    if (n > SIZE_MAX / 4 / sizeof(double) - m) return st_result_fail(out, ST_ERR_TOO_MANY);
    /* non-finite values (or x - mu overflowing) have no rank */
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]) || !isfinite(x[i] - mu))
            return st_result_fail(out, ST_ERR_DOMAIN);
    for (size_t j = 0; j < m; j++)
        if (!isfinite(y[j])) return st_result_fail(out, ST_ERR_DOMAIN);
    size_t N = n + m;
    double *pooled = malloc(N * sizeof(double));
    double *rank = malloc(N * sizeof(double));
    if (!pooled || !rank) {
        free(pooled);
        free(rank);
        return st_result_fail(out, ST_ERR_ALLOC);
    }
    for (size_t i = 0; i < n; i++) pooled[i] = x[i] - mu;
    for (size_t j = 0; j < m; j++) pooled[n + j] = y[j];
    double ties;
    int status = st_midranks(pooled, N, rank, &ties);
    if (status != ST_OK) {
        free(pooled);
        free(rank);
        return st_result_fail(out, status);
    }
    long double sr = 0.0L;
    for (size_t i = 0; i < n; i++) sr += rank[i];
    double dn = (double) n, dm = (double) m;
    double W = (double) sr - dn * (dn + 1) / 2;
    int use_exact = exact < 0 ? (n < 50 && m < 50) : exact;
    int all_tied = st_is_constant(pooled, N);
    double p;
    const double *null_prob = NULL;   /* no-ties table, shared with the CI */
    double *owned = NULL;             /* null_prob when it is not in tab */
    size_t null_len = 0;
    if (all_tied) {
        /* One tie group: given the ties W is always n m / 2, so every
         * alternative has p = 1 exactly (R's normal formula gives 0/0). */
        p = 1.0;
        use_exact = 1;
    } else if (use_exact) {
        double ple, pge;
        if (ties == 0.0) {
            /* W is an integer; one table serves the p-value and the
             * interval's quantiles */
            status = null_table(n, m, tab, &null_prob, &null_len, &owned);
            if (status == ST_OK) prob_tails(null_prob, null_len, W, &ple, &pge);
        } else {
            for (size_t i = 0; i < N; i++) pooled[i] = 2.0 * rank[i];
            status = st_ranksum_exact_tails(pooled, N, n, (double) (2.0L * sr),
                                            &ple, &pge);
        }
        if (status != ST_OK) {
            free(pooled);
            free(rank);
            return st_result_fail(out, status);
        }
        /* Two-sided: twice the smaller tail.  Without ties the null
         * distribution is symmetric and this is R's choice of tail. */
        p = alt == ST_LESS ? ple : alt == ST_GREATER ? pge
            : 2.0 * (ple < pge ? ple : pge);
        if (p > 1.0) p = 1.0;
    } else {
        double z = W - dn * dm / 2;
        double sigma = sqrt((dn * dm / 12) *
                            ((dn + dm + 1) - ties / ((dn + dm) * (dn + dm - 1))));
        z = (z - st_continuity(alt, correct, z)) / sigma;
        p = st_normal_p(alt, z);
    }
    free(pooled);
    free(rank);
    out->statistic = W;
    out->p_value = p;
    out->exact = use_exact;
    if (conf_int) {
        status = wmw_conf_int(x, n, y, m, alt, use_exact, correct, conf_level,
                              null_prob, null_len, tab, out, ci_level,
                              ci_warn);
        if (status != ST_OK) {
            free(owned);
            return st_result_fail(out, status);
        }
    }
    free(owned);
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
                         st_result *out, st_rank_table *tab)
{
    return wilcoxon_impl(x, n, y, m, alt, mu, exact, correct, conf_int,
                         conf_level, out, NULL, NULL, tab);
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
