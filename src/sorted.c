/*
 * sorted.c -- two samples sorted once, and the rank statistics read off
 * them by merging.
 *
 * The median protocol and the rank-sum test look at a pair of samples
 * only through order: the observed medians and minima, the Smirnov
 * statistic of the centred samples, the mid-ranks of the pooled sample
 * and the order statistics of the pairwise differences.  All of them are
 * read off the two samples sorted separately, so the data are sorted once
 * where they enter (st_sorted_pair_init) and every later step merges or
 * walks the sorted runs in O(n + m).  The median protocol of one pair
 * sorts each sample with the merge sort that counts its inversions for the
 * run-order trend test (st_sorted_pair_init with a trend), so the check
 * of the recorded order and the protocol share one sort.
 *
 *   - mid-ranks: a value v shared by cx values of x and cy of y, with pos
 *     smaller pooled values, occupies the pooled positions pos + 1 ..
 *     pos + cx + cy, whose average is pos + (cx + cy + 1) / 2; the rank sum
 *     of x adds cx times that, the tie term (t^3 - t), t = cx + cy.  The
 *     blocks are visited in ascending order, as a sort of the pooled
 *     sample visits them, so the tie term is summed in the same order and
 *     rounds the same.  The rank sum is a multiple of 1/2 below 2^62 and
 *     is exact in a long double whatever the order of summation.
 *   - a shifted x - d keeps the order of x (rounding is monotone), so the
 *     mid-ranks of c(x - d, y) are the same merge with x[i] - d in place of
 *     x[i] (the asymptotic Hodges-Lehmann interval and the rank-sum test
 *     of x - mu use it).
 *
 * Reference: Hodges, J. L. and Lehmann, E. L. (1963). Estimates of
 * location based on rank tests. Ann. Math. Statist. 34, 598-611 (the rank
 * statistic as a function of the shift).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "speeduptest.h"

/* x - mu and y, each copied and sorted. */
static int pair_sorted(st_sorted_pair *p, const double *x, size_t n,
                       double mu, const double *y, size_t m)
{
    p->xs = p->ys = NULL;
    p->n = n;
    p->m = m;
    if ((n > 0 && !x) || (m > 0 && !y) || !isfinite(mu)) return ST_ERR_DOMAIN;
    if (n > SIZE_MAX / 2 / sizeof(double) - m) return ST_ERR_TOO_MANY;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return ST_ERR_DOMAIN;
    for (size_t j = 0; j < m; j++)
        if (!isfinite(y[j])) return ST_ERR_DOMAIN;
    double *buf = st_malloc(n + m, sizeof(double));
    if (!buf) return ST_ERR_ALLOC;
    for (size_t i = 0; i < n; i++) buf[i] = x[i] - mu;
    for (size_t j = 0; j < m; j++) buf[n + j] = y[j];
    for (size_t i = 0; i < n; i++)
        if (!isfinite(buf[i])) {            /* x - mu overflowed */
            free(buf);
            return ST_ERR_DOMAIN;
        }
    st_sort(buf, n);
    st_sort(buf + n, m);
    p->xs = buf;
    p->ys = buf + n;
    return ST_OK;
}

/* One sample into its place in the pair: by the trend test's merge sort,
 * or copied and sorted. */
static int sort_with_trend(const double *x, size_t n, double *dst,
                           size_t trend_min, st_result *trend,
                           st_cache *cache)
{
    if (n >= trend_min && n >= 3) {
        st_mann_kendall_options opt = {dst, cache};
        int s = st_mann_kendall(x, n, &opt, trend);
        if (s == ST_OK || s == ST_ERR_CONSTANT) return ST_OK;
        return s;
    }
    st_result_init(trend);
    st_result_fail(trend, ST_ERR_TOO_FEW);
    memcpy(dst, x, n * sizeof *dst);
    st_sort(dst, n);
    return ST_OK;
}

/* x and y sorted, each by the trend test when it is long enough. */
static int pair_sorted_trend(st_sorted_pair *p, const double *x, size_t n,
                             const double *y, size_t m,
                             const st_pair_trend *t)
{
    size_t trend_min = t->min;
    st_result *trend = t->out;
    p->xs = p->ys = NULL;
    p->n = n;
    p->m = m;
    st_result_init(&trend[0]);
    st_result_init(&trend[1]);
    if ((n > 0 && !x) || (m > 0 && !y)) return ST_ERR_DOMAIN;
    if (n > SIZE_MAX / 2 / sizeof(double) - m) return ST_ERR_TOO_MANY;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return ST_ERR_DOMAIN;
    for (size_t j = 0; j < m; j++)
        if (!isfinite(y[j])) return ST_ERR_DOMAIN;
    double *buf = st_malloc(n + m, sizeof(double));
    if (!buf) return ST_ERR_ALLOC;
    int s = sort_with_trend(x, n, buf, trend_min, &trend[0], t->cache);
    if (s == ST_OK)
        s = sort_with_trend(y, m, buf + n, trend_min, &trend[1], t->cache);
    if (s != ST_OK) {
        free(buf);
        return s;
    }
    p->xs = buf;
    p->ys = buf + n;
    return ST_OK;
}

int st_sorted_pair_init(st_sorted_pair *p, const double *x, size_t n,
                        double mu, const double *y, size_t m,
                        const st_pair_trend *trend)
{
    if (!trend) return pair_sorted(p, x, n, mu, y, m);
    if (mu != 0.0) {
        p->xs = p->ys = NULL;
        p->n = n;
        p->m = m;
        return ST_ERR_DOMAIN;
    }
    return pair_sorted_trend(p, x, n, y, m, trend);
}

void st_sorted_pair_free(st_sorted_pair *p)
{
    if (!p) return;
    free(p->xs);          /* ys lives in the same block */
    p->xs = p->ys = NULL;
}

int st_sorted_pair_log(st_sorted_pair *p)
{
    size_t N = p->n + p->m;
    for (size_t i = 0; i < N; i++) {
        if (!(p->xs[i] > 0)) return ST_ERR_DOMAIN;
        p->xs[i] = log(p->xs[i]);
    }
    /* log is monotone, so the logs stay sorted; a libm whose rounding
     * broke that somewhere would only cost a sort */
    for (size_t i = 1; i < p->n; i++)
        if (p->xs[i] < p->xs[i - 1]) {
            st_sort(p->xs, p->n);
            break;
        }
    for (size_t j = 1; j < p->m; j++)
        if (p->ys[j] < p->ys[j - 1]) {
            st_sort(p->ys, p->m);
            break;
        }
    return ST_OK;
}

/* Sum of (t^3 - t) over the blocks of equal values of r[0..len-1] - sh
 * (ascending), added to *ties block after block. */
static void add_run_ties(const double *r, size_t len, double sh, double *ties)
{
    size_t k = 0;
    while (k < len) {
        size_t k0 = k++;
        double v = r[k0] - sh;
        while (k < len && r[k] - sh == v) k++;
        if (k - k0 > 1) {
            double t = (double) (k - k0);
            *ties += t * t * t - t;
        }
    }
}

/* Number of leading r[k] - sh below v (r ascending; binary search). */
static size_t count_below(const double *r, size_t len, double sh, double v)
{
    size_t lo = 0, hi = len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r[mid] - sh < v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Sum of the positions pos + 1 .. pos + len: exact in a long double. */
static long double position_sum(size_t pos, size_t len)
{
    return (long double) (2 * (uint64_t) pos + 1 + len) * (long double) len / 2;
}

/*
 * The merge below on integer keys (st_sort_key of v + 0.0, which turns
 * -0 into +0: equal values get equal keys, and the keys' order is the
 * values'), without rank2: the same blocks in the same order, so the same
 * sums, with a chain of integer loads and comparisons about half as long
 * per step as on doubles.  0 (nothing done) for a NaN or more than
 * MERGE_KEYS values.
 */
#define MERGE_KEYS 512

static size_t count_below_keys(const uint64_t *k, size_t len, uint64_t v)
{
    size_t lo = 0, hi = len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k[mid] < v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static void add_run_ties_keys(const uint64_t *k, size_t len, double *ties)
{
    size_t a = 0;
    while (a < len) {
        size_t a0 = a++;
        while (a < len && k[a] == k[a0]) a++;
        if (a - a0 > 1) {
            double t = (double) (a - a0);
            *ties += t * t * t - t;
        }
    }
}

static int merge_ranks_keys(const double *xs, size_t n, double d,
                            const double *ys, size_t m,
                            long double *rank_sum, double *tie_term)
{
    uint64_t kx[MERGE_KEYS + 1], ky[MERGE_KEYS + 1];
    if (n + m > MERGE_KEYS) return 0;
    int nan = 0;
    for (size_t i = 0; i < n; i++) {
        double v = xs[i] - d + 0.0;
        nan |= isnan(v);
        kx[i] = st_sort_key(v);
    }
    for (size_t j = 0; j < m; j++) {
        double v = ys[j] + 0.0;
        nan |= isnan(v);
        ky[j] = st_sort_key(v);
    }
    if (nan) return 0;
    /* sentinels past the ends: key 0 is a NaN's, which no value here is */
    kx[n] = ky[m] = 0;
    size_t i = 0, j = 0, pos = 0;
    long double sr = 0.0L;
    uint64_t sr_fast = 0;
    double ties = 0.0;
    if (n > 0 && m > 0) {
        size_t jb = count_below_keys(ky, m, kx[0]);
        if (jb > 0) {
            add_run_ties_keys(ky, jb, &ties);
            j = pos = jb;
        } else {
            size_t ib = count_below_keys(kx, n, ky[0]);
            add_run_ties_keys(kx, ib, &ties);
            sr += position_sum(0, ib);
            i = pos = ib;
        }
    }
    while (i < n || j < m) {
        while (i < n && j < m) {
            uint64_t a = kx[i], b = ky[j];
            if (a == b || kx[i + 1] == a || ky[j + 1] == b) break;
            size_t tx = a < b;
            sr_fast += tx * (uint64_t) (pos + 1);
            i += tx;
            j += 1 - tx;
            pos++;
        }
        if (i >= n && j >= m) break;
        if (i >= n || j >= m) {
            const uint64_t *r = i < n ? kx + i : ky + j;
            size_t len = i < n ? n - i : m - j;
            if (i < n) sr += position_sum(pos, len);
            add_run_ties_keys(r, len, &ties);
            break;
        }
        uint64_t v = kx[i] <= ky[j] ? kx[i] : ky[j];
        size_t i0 = i, j0 = j;
        while (i < n && kx[i] == v) i++;
        while (j < m && ky[j] == v) j++;
        size_t cx = i - i0, cy = j - j0;
        double t = (double) (cx + cy);
        double r = (double) pos + (t + 1) / 2;
        sr += (long double) cx * (long double) r;
        ties += t * t * t - t;
        pos += cx + cy;
    }
    *rank_sum = sr + (long double) sr_fast;
    *tie_term = ties;
    return 1;
}

int st_merge_ranks(const double *xs, size_t n, double d, const double *ys,
                   size_t m, long double *rank_sum, double *tie_term,
                   double *rank2)
{
    *rank_sum = 0.0L;
    *tie_term = 0.0;
    if (!isfinite(d)) return ST_ERR_DOMAIN;
    if (!rank2 && merge_ranks_keys(xs, n, d, ys, m, rank_sum, tie_term))
        return ST_OK;
    size_t i = 0, j = 0, pos = 0;
    long double sr = 0.0L;
    uint64_t sr_fast = 0;      /* ranks of untied x values: whole numbers */
    double ties = 0.0;
    if (!rank2 && n > 0 && m > 0) {
        /* A run of one sample below the other's first value (the whole
         * merge at the ends of the range of shifts d) is found by binary
         * search; x's run takes the first positions. */
        size_t jb = count_below(ys, m, 0.0, xs[0] - d);
        if (jb > 0) {
            add_run_ties(ys, jb, 0.0, &ties);
            j = pos = jb;
        } else {
            size_t ib = count_below(xs, n, d, ys[0]);
            add_run_ties(xs, ib, d, &ties);
            sr += position_sum(0, ib);
            i = pos = ib;
        }
    }
    while (i < n || j < m) {
        /* Fast path: while the smaller head is tied with nothing (not
         * with the other head, not with its successor) it takes rank
         * pos + 1 alone; the choice of head is made without a branch. */
        if (!rank2)
            while (i < n && j < m) {
                double a = xs[i] - d, b = ys[j];
                if (a == b || (i + 1 < n && xs[i + 1] - d == a) ||
                    (j + 1 < m && ys[j + 1] == b))
                    break;
                size_t tx = a < b;
                sr_fast += tx * (uint64_t) (pos + 1);
                i += tx;
                j += 1 - tx;
                pos++;
            }
        if (i >= n && j >= m) break;
        if (!rank2 && (i >= n || j >= m)) {
            /* One sample is used up: the rest of the other follows in
             * order, its blocks being its own ties.  The x values left
             * take the positions pos + 1 .. pos + (n - i), whose sum is
             * that of their mid-ranks whatever their ties. */
            const double *r = i < n ? xs + i : ys + j;
            size_t len = i < n ? n - i : m - j;
            double sh = i < n ? d : 0.0;
            if (i < n) sr += position_sum(pos, len);
            add_run_ties(r, len, sh, &ties);
            break;
        }
        /* one block of equal values, all of them */
        double vx = i < n ? xs[i] - d : 0.0;
        double v = j >= m || (i < n && vx <= ys[j]) ? vx : ys[j];
        size_t i0 = i, j0 = j;
        while (i < n && xs[i] - d == v) i++;
        while (j < m && ys[j] == v) j++;
        size_t cx = i - i0, cy = j - j0;
        if (cx + cy == 0) return ST_ERR_DOMAIN;  /* not finite or unsorted */
        double t = (double) (cx + cy);
        double r = (double) pos + (t + 1) / 2;
        sr += (long double) cx * (long double) r;
        ties += t * t * t - t;
        if (rank2) {
            for (size_t k = i0; k < i; k++) rank2[k] = 2.0 * r;
            for (size_t k = j0; k < j; k++) rank2[n + k] = 2.0 * r;
        }
        pos += cx + cy;
    }
    *rank_sum = sr + (long double) sr_fast;
    *tie_term = ties;
    return ST_OK;
}
