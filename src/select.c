/*
 * select.c -- order statistics of the pairwise differences a[i] - b[j]
 * (X + Y with Y negated) and of the Walsh averages (a[i] + a[j]) / 2 of
 * sorted samples, without forming them: the Hodges-Lehmann estimates and
 * the ends of their intervals.
 *
 * The n m values sit in an implicit matrix whose rows (a ascending) and
 * columns (b descending, or a ascending for Walsh averages, row i owning
 * the columns j >= i) are both monotone.  Floating-point rounding is
 * monotone, so the computed values keep these orders and equal the ones R
 * forms with outer().  For a pivot p, the cells < p (and <= p) of a row
 * form a prefix whose end moves left as the row index grows, so both
 * counts over the whole matrix come from one staircase walk in
 * O(rows + columns) (Johnson and Mizoguchi 1978; Frederickson and Johnson
 * 1982).
 *
 * Selection keeps two pivot VALUES lo < answer < hi and the numbers of
 * cells <= lo and < hi; the candidates are the cells strictly between.
 * Nothing is kept per row: a row's window is found again in each walk
 * from the two staircases, so the memory is O(1) beyond one buffer of
 * `cap` values (at most 2^22; Monahan 1984 keeps two arrays of row bounds
 * instead).  Each round
 *   1. takes two order statistics of a sample of the candidates that
 *      bracket the target's relative rank with a margin of 2.5 standard
 *      deviations of a sample quantile (Floyd and Rivest 1975),
 *   2. walks the matrix once, counting the cells below and at both pivots
 *      and, in the same walk, drawing the next sample: a systematic sample
 *      (every 1/q-th cell from a random start) of the cells strictly
 *      between the new pivots, or all of them when they are expected to be
 *      fewer than `thr` (about what a walk costs),
 *   3. moves lo and hi to the pivots that fell on the expected side.
 * A pivot on the wrong side still bounds the answer from the other side,
 * and is itself a candidate, so every round removes at least one
 * candidate: the loop ends.  With a sample of s cells a round keeps about
 * 2.5 / sqrt(s) of the candidates.  The ranks of one interval (its ends
 * and the one or two middle ranks) are bracketed together while that
 * keeps less than a quarter of the window, then each goes on alone from
 * the common window and a copy of its sample: at n = m = 1e6 (1e12
 * differences) an interval takes 8 walks, the last of each rank gathering
 * its remaining candidates, among which the ranks are selected in linear
 * expected time.  When a bracket missed, or the gathered cells overflow
 * the buffer, one extra walk draws a fresh sample of the current
 * candidates.  The answer is the k-th smallest of a multiset, so it does
 * not depend on the draws.
 *
 * A staircase step compares the four cells left of its column at once
 * (their comparisons are a monotone 0/1 sequence, so their sum is the
 * move), which leaves the processor one loop exit to predict per row
 * instead of one per column.
 *
 * References
 *   Johnson, D. B. and Mizoguchi, T. (1978). Selecting the Kth element in
 *     X + Y and X1 + X2 + ... + Xm. SIAM J. Comput. 7, 147-153.
 *   Frederickson, G. N. and Johnson, D. B. (1982). The complexity of
 *     selection and ranking in X + Y and matrices with sorted columns.
 *     J. Comput. System Sci. 24, 197-208.
 *   Monahan, J. F. (1984). Algorithm 616: fast computation of the Hodges-
 *     Lehmann location estimator. ACM TOMS 10, 265-270.
 *   Floyd, R. W. and Rivest, R. L. (1975). Expected time bounds for
 *     selection. CACM 18, 165-172.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "speeduptest.h"

/* ---- selection in an array ------------------------------------------------ */

/* Selection (Hoare's FIND) around the median of three.  Each pass splits
 * the range into values < pivot and values >= pivot (and, only when no
 * value fell below the pivot, the latter into values == pivot and
 * > pivot), each split by a branch-free Lomuto partition: the element is
 * always swapped and the boundary moves by the comparison's 0 or 1, so
 * the processor never mispredicts which side a value goes to.  Every pass
 * removes at least one value (one below the pivot, or the pivot's
 * copies) from the range, so it ends after at most c passes; expected
 * O(c).  On
 * return buf is partitioned at k: buf[i] <= buf[k] for i < k and
 * buf[i] >= buf[k] for i > k. */
static size_t partition_below(double *buf, size_t lo, size_t hi, double piv,
                              int or_equal)
{
    size_t store = lo;
    for (size_t i = lo; i < hi; i++) {
        double v = buf[i];
        size_t below = or_equal ? v <= piv : v < piv;
        buf[i] = buf[store];
        buf[store] = v;
        store += below;
    }
    return store;
}

static double select_kth(double *buf, size_t c, size_t k)
{
    size_t lo = 0, hi = c;                 /* answer in buf[lo .. hi-1] */
    while (hi - lo > 1) {
        double a = buf[lo], b = buf[lo + (hi - lo) / 2], d = buf[hi - 1];
        double piv = a < b ? (b < d ? b : (a < d ? d : a))
                           : (a < d ? a : (b < d ? d : b));
        size_t lt = partition_below(buf, lo, hi, piv, 0);
        if (k < lt) {
            hi = lt;
            continue;
        }
        if (lt > lo) {                     /* the range shrank */
            lo = lt;
            continue;
        }
        /* piv is the least value: its copies set apart */
        size_t le = partition_below(buf, lt, hi, piv, 1);
        if (k < le) return piv;            /* [lt, le) == piv */
        lo = le;
    }
    return buf[lo];
}

/* The k-th smallest (0-based) of buf[0..c-1], c <= SELECT_SMALL, leaving
 * buf in no particular order.  The same selection as select_kth, with
 * each pass copying the range into the other of two buffers (buf and one
 * on the stack) from both ends: a value is written at both the next free
 * place below and the next free place above and only one of the two
 * places is kept, so a pass has no branch to mispredict and, unlike the
 * in-place swap, no store that the next element's load must wait for. */
#define SELECT_SMALL 2048

/* One such pass: src[lo..hi-1] copied to dst[lo..hi-1], the values below
 * piv (or_equal: at most piv) from dst[lo] up, the others from dst[hi-1]
 * down; returns the end of the first part.  Only the split matters to
 * the selection, not the order within each part (the vector code of
 * simd.c, when it applies, orders them otherwise). */
static size_t split_copy(const double *src, double *dst, size_t lo,
                         size_t hi, double piv, int or_equal)
{
    size_t l = lo, r = hi - 1;
    if (st_simd_split(src, dst, lo, hi, piv, or_equal, &l)) return l;
    for (size_t i = lo; i < hi; i++) {
        double v = src[i];
        size_t below = or_equal ? v <= piv : v < piv;
        dst[l] = v;
        dst[r] = v;
        l += below;
        r -= 1 - below;
    }
    return l;
}

/* The k-th smallest of v[0..c-1], c <= SELECT_TINY: an insertion sort,
 * whose few well-predicted moves cost less than the passes of a
 * selection on so few values. */
#define SELECT_TINY 12
static double select_tiny(double *v, size_t c, size_t k)
{
    for (size_t i = 1; i < c; i++) {
        double x = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1] > x; j--) v[j] = v[j - 1];
        v[j] = x;
    }
    return v[k];
}

static double select_small(double *buf, size_t c, size_t k)
{
    double tmp[SELECT_SMALL];
    double *src = buf, *dst = tmp;
    size_t lo = 0, hi = c;                 /* answer in src[lo .. hi-1] */
    while (hi - lo > 1) {
        if (hi - lo <= SELECT_TINY)
            return select_tiny(src + lo, hi - lo, k - lo);
        double a = src[lo], b = src[lo + (hi - lo) / 2], d = src[hi - 1];
        double piv = a < b ? (b < d ? b : (a < d ? d : a))
                           : (a < d ? a : (b < d ? d : b));
        /* values < piv to dst[lo ..), the others to dst[.. hi - 1] */
        size_t l = split_copy(src, dst, lo, hi, piv, 0);
        double *t = src;
        src = dst;
        dst = t;
        if (k < l) {
            hi = l;
            continue;
        }
        if (l > lo) {                      /* the range shrank */
            lo = l;
            continue;
        }
        /* piv is the least value: its copies set apart (which a range of
         * equal values needs to end) */
        size_t e = split_copy(src, dst, l, hi, piv, 1);
        if (k < e) return piv;             /* [l, e) == piv */
        t = src;
        src = dst;
        dst = t;
        lo = e;
    }
    return src[lo];
}

/* partition_below for at most SELECT_SMALL values, by split_copy into a
 * buffer on the stack and back. */
static size_t partition_small(double *buf, size_t lo, size_t hi, double piv,
                              int or_equal)
{
    double tmp[SELECT_SMALL];
    size_t l = split_copy(buf + lo, tmp, 0, hi - lo, piv, or_equal);
    memcpy(buf + lo, tmp, (hi - lo) * sizeof(double));
    return lo + l;
}

/* Several order statistics (0-based ranks ks[0..cnt-1], ascending) of
 * buf[lo..hi-1]: one partition around the median of three serves every
 * rank, then each side is searched for its own ranks only (a single rank
 * by select_small or select_kth). */
static void multi_select(double *buf, size_t lo, size_t hi, const uint64_t *ks,
                         int cnt, double *vals)
{
    while (cnt > 0) {
        if (cnt == 1 && hi - lo <= SELECT_SMALL) {
            /* (the order the buffer is left in is not used) */
            vals[0] = select_small(buf + lo, hi - lo, (size_t) ks[0] - lo);
            return;
        }
        if (cnt == 1 || hi - lo <= 1) {
            for (int r = 0; r < cnt; r++)
                vals[r] = select_kth(buf + lo, hi - lo, (size_t) ks[r] - lo);
            return;
        }
        double a = buf[lo], b = buf[lo + (hi - lo) / 2], d = buf[hi - 1];
        double piv = a < b ? (b < d ? b : (a < d ? d : a))
                           : (a < d ? a : (b < d ? d : b));
        int small = hi - lo <= SELECT_SMALL;
        size_t lt = small ? partition_small(buf, lo, hi, piv, 0)
                          : partition_below(buf, lo, hi, piv, 0);
        /* the copies of piv are set apart only when nothing fell below it
         * (a range of equal values needs that to end); otherwise the
         * ranks from lt on are searched among the values >= piv */
        size_t le = lt > lo ? lt
                  : small ? partition_small(buf, lt, hi, piv, 1)
                          : partition_below(buf, lt, hi, piv, 1);
        int nl = 0, nm = 0;
        while (nl < cnt && ks[nl] < lt) nl++;
        while (nl + nm < cnt && ks[nl + nm] < le) nm++;
        if (nl) multi_select(buf, lo, lt, ks, nl, vals);
        for (int r = nl; r < nl + nm; r++) vals[r] = piv;
        ks += nl + nm;
        vals += nl + nm;
        cnt -= nl + nm;
        lo = le;
    }
}

static void select_ranks(double *buf, size_t c, const uint64_t *ks, int cnt,
                         double *vals)
{
    multi_select(buf, 0, c, ks, cnt, vals);
}

/*
 * Ranks ks[0..cnt-1] (0-based, ascending, cnt <= 4) of buf[0..c-1],
 * c <= SELECT_WINDOW, whose values all lie between lo and hi (buf is left
 * as it is): values close together (a window of the pairwise differences
 * between two of their order statistics) are spread about evenly between
 * the bounds, so the targets' values are guessed by linear interpolation
 * between them, 2.5 standard deviations of a sample quantile (plus two
 * values) either side, and one split at each guess (split_copy) keeps the
 * values between (Floyd and Rivest 1975 take the guesses from a sample
 * instead; here the bounds are the sample).  A split's counts are exact,
 * so a guess only decides how much is kept: targets outside the guesses
 * go on in the part they are in, with the guess as its bound.  After at
 * most three rounds (fewer when a round keeps more than half, or the
 * targets fall in different parts) the remaining values are sorted by a
 * network (SELECT_NET values or fewer, with vector code) or searched by
 * multi_select.  Infinite bounds, or guesses that are not ordered
 * numbers, end the rounds.
 */
#define SELECT_NET 64
#define SELECT_WINDOW 512
static void select_between(const double *buf, size_t c, double lo, double hi,
                           const uint64_t *ks, int cnt, double *vals)
{
    double scratch[2][SELECT_WINDOW];
    const double *src = buf;
    int in = -1;                       /* the scratch holding src, or -1 */
    uint64_t rk[4];
    for (int r = 0; r < cnt; r++) rk[r] = ks[r];
    for (int round = 0; round < 3 && c > SELECT_NET; round++) {
        double dc = (double) c;
        double fa = ((double) rk[0] + 0.5) / dc;
        double fb = ((double) rk[cnt - 1] + 0.5) / dc;
        double ga = fa - (2.5 * sqrt(dc * fa * (1 - fa)) + 2) / dc;
        double gb = fb + (2.5 * sqrt(dc * fb * (1 - fb)) + 2) / dc;
        double w = hi - lo;
        if ((ga <= 0 && gb >= 1) || isnan(w) || isinf(w)) break;
        double vl = ga <= 0 ? -INFINITY : lo + w * ga;
        double vh = gb >= 1 ? INFINITY : lo + w * gb;
        if (!(vl < vh)) break;
        /* d[0 .. a): the values <= vl; d[a .. c): the others */
        int di = in == 0 ? 1 : 0;
        double *d = scratch[di];
        size_t a = split_copy(src, d, 0, c, vl, 1), keep;
        src = d;
        in = di;
        if (rk[0] < a) {
            if (rk[cnt - 1] >= a) break;
            keep = a;
            hi = vl;
        } else {
            /* e[0 .. b): the values in (vl, vh); e[b .. c - a): >= vh */
            double *e = scratch[1 - di];
            size_t b = split_copy(d + a, e, 0, c - a, vh, 0);
            for (int r = 0; r < cnt; r++) rk[r] -= a;
            c -= a;
            src = e;
            in = 1 - di;
            if (rk[0] < b) {
                if (rk[cnt - 1] >= b) break;
                keep = b;
                lo = vl;
                hi = vh;
            } else {
                for (int r = 0; r < cnt; r++) rk[r] -= b;
                src = e + b;
                keep = c - b;
                lo = vh;
            }
        }
        int progress = keep <= c / 2;
        c = keep;
        if (!progress) break;
    }
    /* the last values sorted by a sorting network where there is one,
     * else multi_select (both in place: on a copy while the values are
     * still the caller's) */
    if (in < 0) {
        memcpy(scratch[0], buf, c * sizeof(double));
        src = scratch[0];
    }
    if (c <= SELECT_NET && st_simd_sort_net((double *) src, c)) {
        for (int r = 0; r < cnt; r++) vals[r] = src[rk[r]];
        return;
    }
    multi_select((double *) src, 0, c, rk, cnt, vals);
}

/* ---- the implicit matrix --------------------------------------------------- */

#define PM_ALWAYS_INLINE inline __attribute__((always_inline))

typedef struct {
    const double *a;          /* rows, ascending                          */
    const double *b0;         /* column j is b0[step * j]                 */
    ptrdiff_t step;
    size_t nrow, ncol;
    int walsh;
} pair_matrix;

static inline double pm_value(const pair_matrix *M, size_t i, size_t j)
{
    return M->walsh ? (M->a[i] + M->a[j]) / 2.0
                    : M->a[i] - M->b0[M->step * (ptrdiff_t) j];
}

static inline size_t pm_first(const pair_matrix *M, size_t i)
{
    return M->walsh ? i : 0;
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

/* uniform on (0, 1] */
static double unif(uint64_t *rng)
{
    return ((double) (xorshift(rng) >> 11) + 1.0) * (1.0 / 9007199254740992.0);
}

/* Cells gathered by a walk: all of them (q >= 1) or a systematic sample
 * of about q of them: every (1 / q)-th cell of the walk's order (row by
 * row, along each row) from a random start.  Along a row the cells are
 * sorted, so the sample is spread over every row and every part of each
 * row's window, which keeps its quantiles at least as close to the
 * population's as a simple random sample; a bracket that misses costs
 * one more walk, never a wrong answer.  `overflow` when the buffer filled
 * up. */
typedef struct {
    double *buf;
    size_t cap, len;
    size_t thr;               /* windows up to thr cells are gathered whole */
    double q, stride, next;   /* next: offset of the next draw            */
    int overflow;
    uint64_t rng;
} pm_gather;

static void gather_start(pm_gather *G, double q)
{
    G->len = 0;
    G->overflow = 0;
    G->q = q;
    if (q < 1) {
        G->stride = 1.0 / q;
        G->next = floor(unif(&G->rng) * G->stride);
    }
}

/* One staircase: J = first column with value >= p, K = first with > p,
 * carried from row to row (both only move left). */
typedef struct {
    double p;
    size_t J, K;
    uint64_t lt, le;          /* cells < p and <= p so far               */
} staircase;

/*
 * K moves left by a few columns per row on average ((columns) / (rows)).
 * The loop exit of a plain walk is a branch the processor cannot predict;
 * instead four cells left of K are compared at once: along a row the
 * values grow, so the comparisons "value > p" are true for a suffix of
 * the four, and their sum is how far K moves (the four loads and
 * comparisons are independent).  Only a move of four or more continues
 * (columns clamped at 0, where the comparisons are forced false).
 */
/* four doubles and four comparison masks (GCC/Clang vector extensions;
 * element-wise IEEE arithmetic, the same values as the scalar code) */
typedef double pm_v4 __attribute__((vector_size(32)));
typedef long long pm_m4 __attribute__((vector_size(32)));

/* the value of cell (i, j), with the kind of matrix and the direction
 * of b as constants the compiler specialises on */
static PM_ALWAYS_INLINE double cell(const pair_matrix *M, int walsh,
                                    ptrdiff_t dir, size_t i, size_t j)
{
    return walsh ? (M->a[i] + M->a[j]) / 2.0
                 : M->a[i] - M->b0[dir * (ptrdiff_t) j];
}

static PM_ALWAYS_INLINE void gather_row(const pair_matrix *M, int walsh,
                                        ptrdiff_t dir, pm_gather *G,
                                        size_t i, size_t start, size_t end)
{
    if (end <= start || G->overflow) return;
    if (G->q >= 1) {
        if (end - start > G->cap - G->len) {
            G->overflow = 1;
            return;
        }
        /* The cells of columns start .. end-1 are those of a run of
         * consecutive values of a or b (read forwards: the order of the
         * gathered cells does not matter), two at a time. */
        double *out = G->buf + G->len;
        size_t len = end - start, t = 0;
        const double *src = walsh ? M->a + start
                          : dir > 0 ? M->b0 + start
                                    : M->b0 - (ptrdiff_t) (end - 1);
        const double ai = M->a[i];
#ifdef __SSE2__
        __m128d va = _mm_set1_pd(ai), h = _mm_set1_pd(0.5);
        for (; t + 2 <= len; t += 2) {
            __m128d v = _mm_loadu_pd(src + t);
            /* (x / 2 and x * 0.5 round the same real) */
            _mm_storeu_pd(out + t, walsh ? _mm_mul_pd(_mm_add_pd(va, v), h)
                                         : _mm_sub_pd(va, v));
        }
#endif
        for (; t < len; t++)
            out[t] = walsh ? (ai + src[t]) / 2.0 : ai - src[t];
        G->len += len;
        return;
    }
    double w = (double) (end - start), pos = G->next;
    while (pos < w) {
        if (G->len == G->cap) {
            G->overflow = 1;
            return;
        }
        G->buf[G->len++] = pm_value(M, i, start + (size_t) pos);
        pos += G->stride;
    }
    G->next = pos - w;
}

static PM_ALWAYS_INLINE void stair_row(const pair_matrix *M, int walsh,
                                       ptrdiff_t dir, staircase *s, size_t i,
                                       size_t f, size_t *lt_col,
                                       size_t *le_col)
{
    const double p = s->p;
    size_t K = s->K, step, ge;
    for (;;) {
        if (K >= 4) {
            /* the four cells left of K are four consecutive doubles of a
             * or b (in one order or the other: only counts are taken) */
            const double *base = walsh ? M->a + (K - 4)
                               : dir > 0 ? M->b0 + (K - 4)
                                         : M->b0 - (ptrdiff_t) (K - 1);
#ifdef __SSE2__
            __m128d ai = _mm_set1_pd(M->a[i]), pv = _mm_set1_pd(p);
            __m128d c0 = _mm_loadu_pd(base), c1 = _mm_loadu_pd(base + 2);
            __m128d v0, v1;
            if (walsh) {     /* x / 2 and x * 0.5 round the same real */
                __m128d h = _mm_set1_pd(0.5);
                v0 = _mm_mul_pd(_mm_add_pd(ai, c0), h);
                v1 = _mm_mul_pd(_mm_add_pd(ai, c1), h);
            } else {
                v0 = _mm_sub_pd(ai, c0);
                v1 = _mm_sub_pd(ai, c1);
            }
            /* each true comparison is a lane of all ones (-1 as an
             * integer): the sum of the four lanes is minus the count,
             * formed in the vector unit (shorter than a movemask and a
             * table look-up on the chain from one row's K to the next) */
            __m128i g = _mm_add_epi64(_mm_castpd_si128(_mm_cmpgt_pd(v0, pv)),
                                      _mm_castpd_si128(_mm_cmpgt_pd(v1, pv)));
            g = _mm_add_epi64(g, _mm_unpackhi_epi64(g, g));
            step = (size_t) -_mm_cvtsi128_si64(g);
            __m128i e = _mm_add_epi64(_mm_castpd_si128(_mm_cmpge_pd(v0, pv)),
                                      _mm_castpd_si128(_mm_cmpge_pd(v1, pv)));
            e = _mm_add_epi64(e, _mm_unpackhi_epi64(e, e));
            ge = (size_t) -_mm_cvtsi128_si64(e);
#else
            pm_v4 c;
            memcpy(&c, base, sizeof c);
            pm_v4 v = walsh ? (M->a[i] + c) / 2.0 : M->a[i] - c;
            pm_m4 gt = v > p, gq = v >= p;
            step = (size_t) -(gt[0] + gt[1] + gt[2] + gt[3]);
            ge = (size_t) -(gq[0] + gq[1] + gq[2] + gq[3]);
#endif
        } else {
            size_t c1 = K >= 1 ? K - 1 : 0, c2 = K >= 2 ? K - 2 : 0;
            size_t c3 = K >= 3 ? K - 3 : 0;
            double v1 = cell(M, walsh, dir, i, c1);
            double v2 = cell(M, walsh, dir, i, c2);
            double v3 = cell(M, walsh, dir, i, c3);
            step = (size_t) ((K >= 1) & (v1 > p)) + (size_t) ((K >= 2) & (v2 > p))
                 + (size_t) ((K >= 3) & (v3 > p));
            ge = (size_t) ((K >= 1) & (v1 >= p)) + (size_t) ((K >= 2) & (v2 >= p))
               + (size_t) ((K >= 3) & (v3 >= p));
            K -= step;
            break;
        }
        K -= step;
        if (step < 4) break;
    }
    s->K = K;
    /* J: the first column >= p.  When no cell of the last block equals p
     * the cell left of K is below p, so J = K unless the row above
     * already had cells equal to p left of K (then so does this one). */
    size_t J;
    if (ge == step && s->J >= K) J = K;
    else {
        J = s->J > K ? K : s->J;
        while (J > 0 && cell(M, walsh, dir, i, J - 1) >= p) J--;
    }
    s->J = J;
    size_t lt = J > f ? J : f, le = K > f ? K : f;
    s->lt += lt - f;
    s->le += le - f;
    *lt_col = lt;
    *le_col = le;
}

/*
 * One walk.  With has_lo (has_hi) the cells <= lo and < lo (< hi and
 * <= hi) are counted; G (may be NULL) gathers the cells strictly between
 * lo and hi (no bound when the flag is 0).
 */
static PM_ALWAYS_INLINE void pm_walk_body(const pair_matrix *M, int walsh,
                                          ptrdiff_t dir, int has_lo,
                                          double lo, int has_hi, double hi,
                                          staircase *slo, staircase *shi,
                                          pm_gather *G)
{
    /* the state lives in locals (registers): the stores of gathered
     * cells could otherwise alias it and serialise the rows */
    staircase L = {lo, M->ncol, M->ncol, 0, 0};
    staircase H = {hi, M->ncol, M->ncol, 0, 0};
    pm_gather g;
    if (G) g = *G;
    for (size_t i = 0; i < M->nrow; i++) {
        size_t f = walsh ? i : 0, start = f, end = M->ncol, c1;
        if (has_lo) stair_row(M, walsh, dir, &L, i, f, &c1, &start);
        if (has_hi) stair_row(M, walsh, dir, &H, i, f, &end, &c1);
        if (G) gather_row(M, walsh, dir, &g, i, start, end);
    }
    if (G) *G = g;
    *slo = L;
    *shi = H;
}

static void pm_walk(const pair_matrix *M, int has_lo, double lo, int has_hi,
                    double hi, staircase *slo, staircase *shi, pm_gather *G)
{
    if (M->walsh)
        pm_walk_body(M, 1, 0, has_lo, lo, has_hi, hi, slo, shi, G);
    else if (M->step < 0)
        pm_walk_body(M, 0, -1, has_lo, lo, has_hi, hi, slo, shi, G);
    else
        pm_walk_body(M, 0, 1, has_lo, lo, has_hi, hi, slo, shi, G);
}

/* Random cells of the whole matrix (Walsh: a cell of the square folded
 * onto the owned triangle; the diagonal is drawn half as often, which
 * only widens the bracket a little). */
static void pm_sample_all(const pair_matrix *M, pm_gather *G, size_t s)
{
    G->len = 0;
    G->overflow = 0;
    for (size_t t = 0; t < s && t < G->cap; t++) {
        size_t i = (size_t) (xorshift(&G->rng) % M->nrow);
        size_t j = (size_t) (xorshift(&G->rng) % M->ncol);
        if (M->walsh && j < i) {
            size_t u = i;
            i = j;
            j = u;
        }
        G->buf[G->len++] = pm_value(M, i, j);
    }
}

/* Tuning, measured at n = m = 1e6 and on suites of 31 x 31 (bench/):
 * several ranks are bracketed together while the bracket keeps at most
 * PM_SPLIT_FRAC of the window; windows below (rows + cols) / PM_THR cells
 * (at least PM_THR_MIN) are gathered whole; samples hold at most
 * 2^PM_SBITS cells. */
#define PM_SPLIT_FRAC 0.25
#define PM_THR_MIN 4096
#define PM_THR 4
#define PM_SBITS 17
#define PM_LOCAL_CAP 2048
#define PM_INTERRUPT_CELLS 65536.0
enum { PM_FOUND = 0, PM_SPLIT = -1 };

/* A search window: the candidates are the cells strictly between lo and
 * hi (no bound when the flag is 0); c_lo cells are <= lo, c_hi are < hi.
 * `complete` when the gather buffer holds all the candidates, otherwise
 * it holds a sample of them (none when its length is 0). */
typedef struct {
    int has_lo, has_hi, complete;
    double lo, hi;
    uint64_t c_lo, c_hi;
} pm_window;

/*
 * The order statistics ks[0] <= ... <= ks[cnt-1] (1-based, cnt <= 4) of
 * the owned cells, from the window *w whose candidates (or a sample of
 * them) are in G.  Several targets are searched in one bracket while that
 * bracket still shrinks the window well; then PM_SPLIT returns with *w
 * and G holding the last window containing them all and its sample, from
 * which the caller searches each target (or pair of neighbouring
 * targets) alone.  G->buf has G->cap >= 2 s places.
 */
static int pm_select(const pair_matrix *M, const uint64_t *ks, int cnt,
                     double *vals, pm_gather *G, size_t s, pm_window *w)
{
    uint64_t ka = ks[0], kb = ks[cnt - 1];
    staircase S1, S2;
    /* each round walks every row once: a place to honour an interrupt,
     * asked once the rounds have walked PM_INTERRUPT_CELLS rows and
     * columns (a small matrix, such as a suite's benchmark, is done long
     * before: asking R costs more than its whole selection) */
    double walked = 0.0;
    for (int round = 0; round < 10000; round++) {
        walked += (double) M->nrow + (double) M->ncol;
        if (walked >= PM_INTERRUPT_CELLS) {
            walked = 0.0;
            if (st_check_interrupt()) return ST_ERR_INTERRUPTED;
        }
        uint64_t W = w->c_hi - w->c_lo;
        if (w->complete) {
            uint64_t rel[4];
            if (G->len != W) return ST_ERR_DOMAIN;   /* cannot happen */
            for (int r = 0; r < cnt; r++) rel[r] = ks[r] - w->c_lo - 1;
            select_ranks(G->buf, G->len, rel, cnt, vals);
            return PM_FOUND;
        }
        if (G->len == 0) {
            if (W <= G->thr) {         /* gather them all */
                gather_start(G, 1.0);
                pm_walk(M, w->has_lo, w->lo, w->has_hi, w->hi, &S1, &S2, G);
                w->complete = !G->overflow;
                if (G->overflow) G->len = 0;
            } else if (!w->has_lo && !w->has_hi) {
                pm_sample_all(M, G, s < 65536 ? s : 65536);
            } else {                   /* a fresh sample of the window */
                gather_start(G, (double) s / (double) W);
                pm_walk(M, w->has_lo, w->lo, w->has_hi, w->hi, &S1, &S2, G);
                if (G->overflow) G->len = 0;
            }
            continue;
        }
        /* 1. pivots bracketing the targets in the sample */
        size_t L = G->len;
        double fa = ((double) (ka - w->c_lo) - 0.5) / (double) W;
        double fb = ((double) (kb - w->c_lo) - 0.5) / (double) W;
        double ta = fa * L - 2.5 * sqrt(L * fa * (1 - fa)) - 2.0;
        double tb = fb * L + 2.5 * sqrt(L * fb * (1 - fb)) + 2.0;
        size_t il = ta <= 0 ? 0 : (size_t) ta;
        size_t ih = tb >= (double) (L - 1) ? L - 1 : (size_t) ceil(tb);
        if (ih < il) ih = il;
        double west = (double) W * ((double) (ih - il) + 1.0) / (double) L;
        /* several targets: stop searching them together once the bracket
         * would keep more than a quarter of the window */
        if (cnt > 1 && ka != kb && west > PM_SPLIT_FRAC * (double) W) return PM_SPLIT;
        double pl = select_kth(G->buf, L, il);
        double ph = ih > il ? select_kth(G->buf + il + 1, L - il - 1,
                                            ih - il - 1)
                            : pl;
        double q = west <= (double) G->thr ? 1.0 : (double) s / west;
        /* 2. count at both pivots, gathering the cells between them */
        gather_start(G, q < 1 ? q : 1.0);
        pm_walk(M, 1, pl, 1, ph, &S1, &S2, G);
        /* 3. move the bounds (the pivots are candidates: strictly inside) */
        int expected = 1, split = 0;
        if (S1.le < ka) {
            w->lo = pl;
            w->c_lo = S1.le;
            w->has_lo = 1;
        } else if (kb <= S1.lt) {
            expected = 0;
            w->hi = pl;
            w->c_hi = S1.lt;
            w->has_hi = 1;
        } else if (cnt == 1) {
            vals[0] = pl;
            return PM_FOUND;
        } else split = 1;
        if (kb <= S2.lt) {
            if (!w->has_hi || ph < w->hi) {
                w->hi = ph;
                w->c_hi = S2.lt;
                w->has_hi = 1;
            }
        } else if (S2.le < ka) {
            expected = 0;
            if (!w->has_lo || ph > w->lo) {
                w->lo = ph;
                w->c_lo = S2.le;
                w->has_lo = 1;
            }
        } else if (cnt == 1) {
            vals[0] = ph;
            return PM_FOUND;
        } else split = 1;
        if (split || !expected || G->overflow) {
            G->len = 0;                /* the draw was of other cells */
            w->complete = 0;
            if (split) return PM_SPLIT;
        } else {
            w->complete = G->q >= 1;
        }
    }
    return ST_ERR_DOMAIN;              /* cannot happen */
}

/* Sample size for rows + columns values: drawing and selecting in a
 * sample costs O(s), a walk O(rows + cols); a round keeps about
 * 3 / sqrt(s) of the candidates. */
static size_t pm_sample_size(size_t rows, size_t cols, uint64_t total)
{
    size_t s = (rows + cols) / 8;
    (void) total;
    return s < 1024 ? 1024 : (s > ((size_t) 1 << PM_SBITS) ? (size_t) 1 << PM_SBITS : s);
}

/* Windows of at most thr cells are gathered whole; the buffer holds
 * those or a sample. */
static size_t pm_threshold(size_t rows, size_t cols)
{
    size_t thr = (rows + cols) / PM_THR;
    if (thr < PM_THR_MIN) thr = PM_THR_MIN;
    if (thr > ((size_t) 1 << 21)) thr = (size_t) 1 << 21;
    return thr;
}

static size_t pm_cap(size_t thr, size_t s, uint64_t total)
{
    size_t cap = 2 * thr > 2 * s ? 2 * thr : 2 * s;
    if (total < cap) cap = total > 2 * s ? (size_t) total : 2 * s;
    return cap;
}

/*
 * The targets ks (ascending, cnt <= 4): first searched together; once
 * their common window stops shrinking, each group of neighbouring ranks
 * goes on alone from that window and a copy of its sample (the ends of a
 * Hodges-Lehmann interval lie close to its middle, so the first walks
 * serve all of them).
 */
static int pm_kths(const pair_matrix *M, uint64_t total, const uint64_t *ks,
                   int cnt, double *vals)
{
    for (int r = 0; r < cnt; r++)
        if (ks[r] < 1 || ks[r] > total || (r > 0 && ks[r] < ks[r - 1]))
            return ST_ERR_DOMAIN;
    size_t s = pm_sample_size(M->nrow, M->ncol, total);
    pm_gather G;
    /* gathering and selecting a cell costs about as much as a walk's
     * work on PM_THR cells; a window of fewer cells than a walk would do
     * is gathered whole */
    G.thr = pm_threshold(M->nrow, M->ncol);
    G.cap = pm_cap(G.thr, s, total);
    /* (a small matrix's buffer lives on the stack) */
    double local[PM_LOCAL_CAP];
    G.buf = G.cap <= PM_LOCAL_CAP ? local : st_malloc(G.cap, sizeof(double));
    if (!G.buf) return ST_ERR_ALLOC;
    G.len = 0;
    G.rng = 0x9E3779B97F4A7C15ULL;     /* fixed seed: reproducible work */
    pm_window w = {0, 0, 0, 0.0, 0.0, 0, total};
    int status = pm_select(M, ks, cnt, vals, &G, s, &w);
    double *saved = NULL;
    if (status == PM_SPLIT) {
        /* (a split window is never complete: it holds a sample) */
        pm_window w0 = w;
        size_t len = G.len;
        if (len > 0 && (saved = st_malloc(len, sizeof(double))) != NULL)
            for (size_t t = 0; t < len; t++) saved[t] = G.buf[t];
        if (!saved) len = 0;
        status = PM_FOUND;
        for (int g0 = 0, g1; g0 < cnt && status == PM_FOUND; g0 = g1) {
            g1 = g0 + 1;
            while (g1 < cnt && ks[g1] - ks[g1 - 1] <= 1) g1++;
            /* the group together, then (if a pivot fell among its ranks)
             * each rank alone; a single rank never splits */
            for (int single = 0; single <= 1; single++) {
                int st = PM_FOUND;
                int step = single ? 1 : g1 - g0;
                for (int r = g0; r < g1 && st == PM_FOUND; r += step) {
                    w = w0;
                    G.len = len;
                    for (size_t t = 0; t < len; t++) G.buf[t] = saved[t];
                    st = pm_select(M, ks + r, step, vals + r, &G, s, &w);
                }
                if (st == PM_SPLIT && !single) continue;
                if (st != PM_FOUND) status = st == PM_SPLIT ? ST_ERR_DOMAIN : st;
                break;
            }
        }
    }
    free(saved);
    if (G.buf != local) free(G.buf);
    return status == PM_FOUND ? ST_OK : status;
}

/* ---- small matrices ----------------------------------------------------- */

/*
 * A matrix of at most PM_LOCAL_CAP cells of finite values (a suite's
 * benchmark: 10 x 10 to 31 x 31 differences), where the processor has
 * vector code (simd.c).  There one staircase walk, whose row steps the
 * processor cannot predict, costs about as much as a vector pass over
 * every cell, and the ranks of an interval are spread over a quarter to
 * a half of the cells, so neither the rounds of pm_select nor gathering
 * every cell and selecting there pay.  Instead:
 *   1. pivots from the matrix's structure: the cells of a g x g sub-grid
 *      (the differences of the same g quantiles of each sample: rows and
 *      columns at the middles of g equal slices) follow the matrix's
 *      order statistics closely: on suites of log times the rank of the
 *      j-th of them is within 20 cells (one standard deviation) of j's
 *      share of the 31 x 31 cells with g = 6 (32 with g = 4), against 80
 *      cells for a simple random sample of 36 cells; g = 5 (25 cells,
 *      one register set of the network) was the fastest at 31 x 31.  The
 *      sample is sorted by a sorting network; ties in it announce ties
 *      among the cells, where targets often equal pivots, and leave the
 *      search to pm_kths;
 *   2. one vector pass over the cells counts those at or below the
 *      sample value PM_SMALL_MARGIN places below the first target's share
 *      and gathers those strictly between it and the one as far above
 *      the last target's share (about 60 of 100 cells, 340 of 961);
 *   3. a window of at most SELECT_NET values is sorted by the network and
 *      the targets read off; a larger one gets a second pass of the same
 *      kind over the window, with one pair of guesses for each run of
 *      neighbouring targets by linear interpolation between the pivots
 *      (the window's values are close together, hence spread about
 *      evenly), PM_INTERP_Z standard deviations of a sample quantile
 *      either side; each run whose values fit a network is sorted there,
 *      the others go to select_between.
 * A target outside the first bracket (a bad sub-grid) or a window over
 * the buffer leaves the search to pm_kths.  The answer is the k-th
 * smallest of a multiset, so it does not depend on the pivots.  Finite
 * values keep every cell a number (no NaN from Inf - Inf), so the rows
 * and columns stay monotone and a missing pivot can be -Inf or +Inf,
 * which the counts treat as exactly as any other.
 */
#define PM_SMALL_GRID 5       /* g for 400 cells or more (25 in the sample) */
#define PM_SMALL_GRID_LO 4    /* g below (16 in the sample)             */
#define PM_SMALL_MARGIN 1.5   /* sample places either side of the targets */
#define PM_INTERP_Z 2.0
#define PM_SMALL_WIN SELECT_WINDOW  /* cells a window may hold         */

/* The pass in plain C, as st_simd_pair_window (simd.c). */
static int pair_window(const double *a, size_t na, const double *b,
                       size_t nb, int ng, const double *piv, uint64_t *le_lo,
                       double *const *win, size_t cap, size_t *len)
{
    const double *src = b ? b : a;
    size_t ncol = b ? nb : na;
    int plain = a == NULL;
    if (plain) na = 1;
    for (int g = 0; g < ng; g++) {
        le_lo[g] = 0;
        len[g] = 0;
    }
    for (size_t i = 0; i < na; i++) {
        size_t j0 = b ? 0 : i;
        for (int g = 0; g < ng; g++)
            if (len[g] + (ncol - j0) > cap) return -1;
        for (int g = 0; g < ng; g++) {
            double lo = piv[2 * g], hi = piv[2 * g + 1];
            uint64_t le = 0;
            size_t l = len[g];
            double *w = win[g];
            for (size_t j = j0; j < ncol; j++) {
                double d = plain ? src[j]
                         : b ? a[i] - src[j] : (a[i] + src[j]) / 2.0;
                le += d <= lo;
                w[l] = d;
                l += (d > lo) & (d < hi);
            }
            len[g] = l;
            le_lo[g] += le;
        }
    }
    return 1;
}

static int window_pass(const double *a, size_t na, const double *b,
                       size_t nb, int ng, const double *piv, uint64_t *le_lo,
                       double *const *win, size_t cap, size_t *len)
{
    int st = st_simd_pair_window(a, na, b, nb, ng, piv, le_lo, win, cap, len);
    return st ? st : pair_window(a, na, b, nb, ng, piv, le_lo, win, cap, len);
}

static int pm_small(const pair_matrix *M, const double *b, size_t nb,
                    uint64_t total, const uint64_t *ks, int cnt, double *vals)
{
    /* the sub-grid: the same quantile places of a and of b (the rounding
     * down of both places cancels in their differences) */
    double sample[PM_SMALL_GRID * PM_SMALL_GRID];
    size_t na = M->nrow, ncol = b ? nb : na;
    size_t g = total < 400 ? PM_SMALL_GRID_LO : PM_SMALL_GRID;
    size_t gr = na < g ? na : g;
    size_t gc = ncol < g ? ncol : g;
    double col[PM_SMALL_GRID];
    const double *cv = b ? b : M->a;
    for (size_t u = 0; u < gc; u++) col[u] = cv[(2 * u + 1) * ncol / (2 * gc)];
    size_t S = 0;
    for (size_t t = 0; t < gr; t++) {
        double ai = M->a[(2 * t + 1) * na / (2 * gr)];
        for (size_t u = 0; u < gc; u++) {
            sample[S++] = b ? ai - col[u] : (ai + col[u]) / 2.0;
        }
    }
    if (!st_simd_sort_net(sample, S)) st_sort(sample, S);
    /* tied sample values announce ties among the cells, where a target
     * often equals a pivot: the general search handles those */
    for (size_t t = 1; t < S; t++)
        if (!(sample[t - 1] < sample[t])) return pm_kths(M, total, ks, cnt, vals);
    /* one bracket for all the targets: PM_SMALL_MARGIN places below the
     * first one's share of the cells and above the last one's (-1 and S:
     * no pivot on that side) */
    double pos0 = ((double) ks[0] - 0.5) / (double) total * (double) S - 0.5;
    double pos1 = ((double) ks[cnt - 1] - 0.5) / (double) total * (double) S - 0.5;
    double fl = floor(pos0 - PM_SMALL_MARGIN), fh = ceil(pos1 + PM_SMALL_MARGIN);
    double piv[10];        /* the bracket, then up to four runs' guesses */
    piv[0] = fl < 0 ? -INFINITY : sample[(size_t) fl];
    piv[1] = fh > (double) (S - 1) ? INFINITY : sample[(size_t) fh];
    double win0[PM_SMALL_WIN + 8];
    double *win[4] = {win0};
    uint64_t le_lo[4];
    size_t len[4];
    if (window_pass(M->a, na, b, nb, 1, piv, le_lo, win, PM_SMALL_WIN, len) < 0 ||
        ks[0] <= le_lo[0] || ks[cnt - 1] - le_lo[0] > len[0])
        return pm_kths(M, total, ks, cnt, vals);
    /* the targets' ranks among the window's cells */
    uint64_t rel[4];
    for (int r = 0; r < cnt; r++) rel[r] = ks[r] - le_lo[0] - 1;
    if (len[0] <= SELECT_NET && st_simd_sort_net(win0, len[0])) {
        for (int r = 0; r < cnt; r++) vals[r] = win0[rel[r]];
        return ST_OK;
    }
    /* Each run of neighbouring targets has its own guesses, by linear
     * interpolation between the pivots (see select_between), and one pass
     * over the window gathers the values between each run's guesses; a
     * run whose gathered values hold its targets and fit a sorting
     * network is done there, the others are searched by select_between
     * from the whole window. */
    int first[5], nr = 0;
    for (int t1 = 0; t1 < cnt; nr++) {
        int t0 = t1;
        for (t1 = t0 + 1; t1 < cnt && rel[t1] - rel[t1 - 1] <= 1; t1++) {}
        first[nr] = t0;
        double dc = (double) len[0];
        double fa = ((double) rel[t0] + 0.5) / dc;
        double fb = ((double) rel[t1 - 1] + 0.5) / dc;
        double ga = fa - (PM_INTERP_Z * sqrt(dc * fa * (1 - fa)) + 2) / dc;
        double gb = fb + (PM_INTERP_Z * sqrt(dc * fb * (1 - fb)) + 2) / dc;
        double w = piv[1] - piv[0];
        int ok = !isnan(w) && !isinf(w);
        piv[2 * nr + 2] = ga <= 0 || !ok ? -INFINITY : piv[0] + w * ga;
        piv[2 * nr + 3] = gb >= 1 || !ok ? INFINITY : piv[0] + w * gb;
    }
    first[nr] = cnt;
    double store[3][PM_SMALL_WIN + 8];
    double *sub[3] = {store[0], store[1], store[2]};
    uint64_t sle[3];
    size_t slen[3];
    int st = nr <= 3 ? window_pass(NULL, 0, win0, len[0], nr, piv + 2, sle,
                                   sub, PM_SMALL_WIN, slen)
                     : -1;
    for (int g = 0; g < nr; g++) {
        int t0 = first[g], t1 = first[g + 1];
        if (st > 0 && rel[t0] >= sle[g] && rel[t1 - 1] - sle[g] < slen[g] &&
            slen[g] <= SELECT_NET && st_simd_sort_net(sub[g], slen[g])) {
            for (int t = t0; t < t1; t++) vals[t] = sub[g][rel[t] - sle[g]];
            continue;
        }
        select_between(win0, len[0], piv[0], piv[1], rel + t0, t1 - t0,
                       vals + t0);
    }
    return ST_OK;
}

static int pm_finite(const double *x, size_t n)
{
    double z = 0.0;
    for (size_t i = 0; i < n; i++) z += x[i] * 0.0;   /* NaN unless finite */
    return z == 0.0;
}

/* pm_small on a small matrix of finite values when the vector code
 * runs (its plain C twins are slower than pm_kths), else pm_kths */
static int pm_kths_any(const pair_matrix *M, uint64_t total,
                       const uint64_t *ks, int cnt, double *vals,
                       const double *b, size_t nb)
{
    if (total <= PM_LOCAL_CAP && st_simd_available() &&
        pm_finite(M->a, M->nrow) && (!b || pm_finite(b, nb))) {
        for (int r = 0; r < cnt; r++)
            if (ks[r] < 1 || ks[r] > total || (r > 0 && ks[r] < ks[r - 1]))
                return ST_ERR_DOMAIN;
        return pm_small(M, b, nb, total, ks, cnt, vals);
    }
    return pm_kths(M, total, ks, cnt, vals);
}

int st_pairwise_kths(const double *a, size_t na, const double *b, size_t nb,
                     const uint64_t *ks, int cnt, double *vals)
{
    for (int r = 0; r < cnt && r < 4; r++) vals[r] = NAN;
    if (na == 0 || (b && nb == 0) || cnt < 1 || cnt > 4) return ST_ERR_DOMAIN;
    if (!b) {
        /* the Walsh averages: row i holds the columns j >= i */
        if (na > (SIZE_MAX - 1) / na) return ST_ERR_TOO_MANY;
        pair_matrix M = {a, a, 1, na, na, 1};
        return pm_kths_any(&M, (uint64_t) na * (na + 1) / 2, ks, cnt, vals,
                           NULL, 0);
    }
    if (na > SIZE_MAX / nb) return ST_ERR_TOO_MANY;
    /* columns are b read backwards: a[i] - b[nb - 1 - j] grows along j */
    pair_matrix M = {a, b + (nb - 1), -1, na, nb, 0};
    return pm_kths_any(&M, (uint64_t) na * nb, ks, cnt, vals, b, nb);
}
