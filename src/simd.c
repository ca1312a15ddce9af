/*
 * simd.c -- the package's only vector code: AVX-512 kernels for the
 * short samples of a suite's benchmarks, each giving exactly the result of
 * the scalar code it stands in for.
 *
 *   - st_simd_sort: a stable sort of 8 to 48 values: the sorting network
 *     below when no two values can be equal without being the same bits
 *     (no zero, no NaN), else a stable counting sort (util.c's insertion
 *     sort otherwise);
 *   - st_simd_split: one pass of the two-buffer selection of select.c
 *     (the values below a pivot to one end, the others to the other);
 *   - st_simd_kendall: Kendall's S and its tie sums from all pairs of a
 *     sample of 16 to 64 values (run-order.c's merge count otherwise);
 *   - st_simd_pair_window: the counting and gathering pass of select.c's
 *     small matrices (pair_window there otherwise);
 *   - st_simd_sort_net: a sorting network for up to 64 values, whose
 *     order statistics select.c reads (multi_select otherwise).
 *
 * One guard, ST_SIMD_AVX512, holds all of it: GCC or Clang on x86-64
 * outside Windows (where GCC does not align 64-byte vectors kept on the
 * stack), unless ST_NO_AVX512 is defined; the processor is asked at run
 * time.  Each kernel returns 0 when it does not apply (no AVX-512, a size
 * outside its range, a NaN), and the caller runs its scalar code.  The
 * ranges are where the kernels were measured faster than the scalar code
 * (bench/README.md): at 8 values the scalar code wins.  CI builds and
 * tests the package with and without -DST_NO_AVX512.
 *
 * References: the counting sort and the pair count compare every value
 * with the whole sample held in registers (Knuth, TAOCP vol. 3, 5.2,
 * "sorting by counting"; Kendall, Rank Correlation Methods, 1970, for S
 * and the tie sums); the network is Batcher's bitonic sorter (Batcher,
 * "Sorting networks and their applications", AFIPS SJCC 1968).
 */
#include <stdint.h>
#include <string.h>
#include "speeduptest.h"

#if defined(__GNUC__) && defined(__x86_64__) && !defined(_WIN32) && \
    !defined(ST_NO_AVX512)
#define ST_SIMD_AVX512 1
#include <immintrin.h>
#endif

/* The measured ranges (bench/README.md; bench/simd.c measures them). */
#ifndef SIMD_SORT_MIN
#define SIMD_SORT_MIN 8
#endif
#define SIMD_SORT_MAX 48      /* st_sort's insertion sort goes to 48 */
#ifndef SIMD_KENDALL_MIN
#define SIMD_KENDALL_MIN 8
#endif
#define SIMD_KENDALL_MAX 64
#ifndef SIMD_SPLIT_MIN
#define SIMD_SPLIT_MIN 16
#endif

#ifdef ST_SIMD_AVX512

static int cpu_avx512(void)
{
    static int has = -1;
    if (has < 0) {
        __builtin_cpu_init();
        has = __builtin_cpu_supports("avx512f") != 0;
    }
    return has;
}

/*
 * The stable counting sort: the value at i goes to place
 * #{j : x[j] < x[i]} + #{j < i : x[j] == x[i]}, the place a stable sort
 * gives it (-0 and +0 compare equal and keep their order, as in the
 * insertion sort), each count being a few vector comparisons of x[i]
 * against the whole sample held in registers.
 */
__attribute__((target("avx512f")))
static int sort_avx512(double *x, size_t n)
{
    double in[64];
    memcpy(in, x, n * sizeof(double));
    size_t nv = (n + 7) / 8;
    for (size_t i = n; i < nv * 8; i++) in[i] = 0.0;
    __m512d v[8];
    __mmask8 nan = 0;
    for (size_t k = 0; k < nv; k++) {
        v[k] = _mm512_loadu_pd(in + 8 * k);
        nan |= _mm512_cmp_pd_mask(v[k], v[k], _CMP_UNORD_Q);
    }
    if (nan) return 0;
    uint64_t valid = n >= 64 ? ~(uint64_t) 0 : (((uint64_t) 1 << n) - 1u);
    for (size_t i = 0; i < n; i++) {
        __m512d b = _mm512_set1_pd(in[i]);
        uint64_t lt = 0, eq = 0;
        for (size_t k = 0; k < nv; k++) {
            lt |= (uint64_t) _mm512_cmp_pd_mask(v[k], b, _CMP_LT_OQ) << (8 * k);
            eq |= (uint64_t) _mm512_cmp_pd_mask(v[k], b, _CMP_EQ_OQ) << (8 * k);
        }
        uint64_t before = ((uint64_t) 1 << i) - 1u;
        x[__builtin_popcountll((lt | (eq & before)) & valid)] = in[i];
    }
    return 1;
}

/*
 * The split, eight values at a time.  Each eight are permuted so that the
 * values below come first (in their order), then the others: perm_below[b]
 * lists the lanes for the mask b of the values below (one byte a lane).
 * The permuted eight are stored once ending at the free end above (where
 * its last lanes, the values above, belong) and once starting at the free
 * end below (its first lanes): while at least sixteen places are free,
 * the lanes that do not belong at either end fall on free places the other
 * store does not need.  The last sixteen values or fewer go through the
 * compress of each side and a masked store above, then one at a time.
 */
static uint64_t perm_below[256];
static int perm_ready = 0;

static void perm_init(void)
{
    for (unsigned b = 0; b < 256; b++) {
        uint64_t v = 0;
        unsigned k = 0;
        for (unsigned pass = 0; pass < 2; pass++)
            for (unsigned lane = 0; lane < 8; lane++)
                if (((b >> lane) & 1u) == (pass == 0))
                    v |= (uint64_t) lane << (8 * k++);
        perm_below[b] = v;
    }
    perm_ready = 1;
}

__attribute__((target("avx512f")))
static size_t split_avx512(const double *src, double *dst, size_t lo,
                           size_t hi, double piv, int or_equal)
{
    size_t l = lo, r = hi;                 /* free places: [l, r) */
    size_t i = lo;
    __m512d p = _mm512_set1_pd(piv);
    if (!perm_ready) perm_init();
    for (; i + 16 <= hi; i += 8) {         /* r - l = hi - i >= 16 */
        __m512d v = _mm512_loadu_pd(src + i);
        __mmask8 b = or_equal ? _mm512_cmp_pd_mask(v, p, _CMP_LE_OQ)
                              : _mm512_cmp_pd_mask(v, p, _CMP_LT_OQ);
        unsigned c = (unsigned) __builtin_popcount((unsigned) b);
        __m512i idx = _mm512_cvtepu8_epi64(
            _mm_cvtsi64_si128((long long) perm_below[b]));
        __m512d w = _mm512_permutexvar_pd(idx, v);
        _mm512_storeu_pd(dst + r - 8, w);
        _mm512_storeu_pd(dst + l, w);
        l += c;
        r -= 8 - c;
    }
    for (; i + 8 <= hi; i += 8) {
        __m512d v = _mm512_loadu_pd(src + i);
        __mmask8 b = or_equal ? _mm512_cmp_pd_mask(v, p, _CMP_LE_OQ)
                              : _mm512_cmp_pd_mask(v, p, _CMP_LT_OQ);
        unsigned c = (unsigned) __builtin_popcount((unsigned) b);
        _mm512_storeu_pd(dst + l, _mm512_maskz_compress_pd(b, v));
        _mm512_mask_storeu_pd(dst + r - (8 - c),
                              (__mmask8) ((1u << (8 - c)) - 1u),
                              _mm512_maskz_compress_pd((__mmask8) ~b, v));
        l += c;
        r -= 8 - c;
    }
    for (; i < hi; i++) {
        double v = src[i];
        size_t below = or_equal ? v <= piv : v < piv;
        dst[l] = v;
        dst[r - 1] = v;
        l += below;
        r -= 1 - below;
    }
    return l;
}

/*
 * Every pair compared at once.  For each x[i] one comparison per register
 * gives the mask of the values below it; those after position i are its
 * inversions (D sums them).  Summed over all i, the values below x[i]
 * count each pair of distinct values once,
 *   sum_i #{j : x_j < x_i} = N - T,     N = n (n - 1) / 2,
 * so the sum tells whether there is a tie at all (T > 0) without a second
 * comparison per register.  Only then (run times rarely tie) a second pass
 * counts c_i, the values equal to x[i] (itself included), which gives the
 * tie sums by value instead of by group: a group of t equal values has t
 * members with c_i = t, so
 *   sum_i (c_i - 1) / 2            = sum t (t - 1) / 2       = T,
 *   sum_i (c_i - 1) (2 c_i + 5)    = sum t (t - 1) (2t + 5)  = tv,
 * the same integers as from the sorted keys.  Comparisons of doubles read
 * -0 and +0 as equal, as the keys do.
 */
/* x[0..n) into the registers v[0..nv), n <= 8 nv, the lanes past n zero
 * (a masked load reads nothing there); returns the mask of the n valid
 * positions. */
__attribute__((target("avx512f"), always_inline))
static inline uint64_t kendall_load(const double *x, size_t n, size_t nv,
                                    __m512d *v)
{
#pragma GCC unroll 8
    for (size_t k = 0; k < nv; k++) {
        size_t left = n - 8 * k;
        __mmask8 m = left >= 8 ? (__mmask8) 0xFF : (__mmask8) ((1u << left) - 1u);
        v[k] = _mm512_maskz_loadu_pd(m, x + 8 * k);
    }
    return n >= 64 ? ~(uint64_t) 0 : (((uint64_t) 1 << n) - 1u);
}

/* The inversions and the pairs of distinct values (N - T) of x[0..n),
 * n <= 8 nv: a copy per register count nv (always inlined with nv a
 * constant, so that the values stay in registers and the loop over them
 * is unrolled). */
__attribute__((target("avx512f"), always_inline))
static inline void kendall_below(const double *x, size_t n, size_t nv,
                                 uint64_t *inv_out, uint64_t *below_out)
{
    __m512d v[SIMD_KENDALL_MAX / 8];
    uint64_t valid = kendall_load(x, n, nv, v);
    uint64_t inv = 0, below = 0;
    for (size_t i = 0; i < n; i++) {
        __m512d b = _mm512_set1_pd(x[i]);
        uint64_t lt = 0;
#pragma GCC unroll 8
        for (size_t k = 0; k < nv; k++)
            lt |= (uint64_t) _mm512_cmp_pd_mask(v[k], b, _CMP_LT_OQ) << (8 * k);
        lt &= valid;
        /* positions after i (i < 64, so the shift is defined) */
        uint64_t after = ~((((uint64_t) 1 << i) << 1) - 1u);
        inv += (uint64_t) __builtin_popcountll(lt & after);
        below += (uint64_t) __builtin_popcountll(lt);
    }
    *inv_out = inv;
    *below_out = below;
}

__attribute__((target("avx512f")))
static void kendall_avx512(const double *x, size_t n, double *D, double *T,
                           double *tv, int *ties)
{
    size_t nv = (n + 7) / 8;
    uint64_t inv = 0, below = 0;
    switch (nv) {
    case 1: kendall_below(x, n, 1, &inv, &below); break;
    case 2: kendall_below(x, n, 2, &inv, &below); break;
    case 3: kendall_below(x, n, 3, &inv, &below); break;
    case 4: kendall_below(x, n, 4, &inv, &below); break;
    case 5: kendall_below(x, n, 5, &inv, &below); break;
    case 6: kendall_below(x, n, 6, &inv, &below); break;
    case 7: kendall_below(x, n, 7, &inv, &below); break;
    default: kendall_below(x, n, 8, &inv, &below); break;
    }
    *D = (double) inv;
    *T = *tv = 0;
    *ties = 0;
    if (below == (uint64_t) n * (n - 1) / 2) return;
    __m512d v[SIMD_KENDALL_MAX / 8];
    uint64_t valid = kendall_load(x, n, nv, v);
    uint64_t t2 = 0, tvs = 0;
    for (size_t i = 0; i < n; i++) {
        __m512d b = _mm512_set1_pd(x[i]);
        uint64_t eq = 0;
        for (size_t k = 0; k < nv; k++)
            eq |= (uint64_t) _mm512_cmp_pd_mask(v[k], b, _CMP_EQ_OQ) << (8 * k);
        uint64_t c = (uint64_t) __builtin_popcountll(eq & valid);
        t2 += c - 1;
        tvs += (c - 1) * (2 * c + 5);
    }
    *T = (double) (t2 / 2);
    *tv = (double) tvs;
    *ties = t2 > 0;
}

/*
 * The window pass of select.c's small matrices, eight cells at a time:
 * each row's cells a[i] - b[j] (or (a[i] + a[j]) / 2, j >= i, formed as
 * (a[i] + a[j]) * 0.5, which rounds the same real) are compared with each
 * group's two pivots; the cells above the low pivot are counted in vector
 * lanes (a masked add of one per lane) and those also below the high
 * pivot compressed to the group's buffer by a register compress and a
 * full store (the lanes past the kept ones fall on free places: the
 * buffers have cap + 8).  NG, the number of groups, is a constant in each
 * instance, so the groups' registers stay in registers.  Without a (a
 * NULL) the cells are the nb values of b themselves.
 */
__attribute__((target("avx512f"), always_inline))
static inline int window_avx512_body(const double *a, size_t na,
                                     const double *b, size_t nb, int NG,
                                     const double *piv, uint64_t *le_lo,
                                     double *const *win, size_t cap,
                                     size_t *len)
{
    const int walsh = b == NULL, plain = a == NULL;
    const double *src = walsh ? a : b;
    size_t ncol = walsh ? na : nb;
    if (plain) na = 1;
    __m512d lo[4], hi[4];
    __m512i c_gt[4];
    size_t l[4];
    double *w[4];
    const __m512i one = _mm512_set1_epi64(1);
    const __m512d half = _mm512_set1_pd(0.5);
#pragma GCC unroll 4
    for (int g = 0; g < NG; g++) {
        lo[g] = _mm512_set1_pd(piv[2 * g]);
        hi[g] = _mm512_set1_pd(piv[2 * g + 1]);
        c_gt[g] = _mm512_setzero_si512();
        l[g] = 0;
        w[g] = win[g];
    }
    uint64_t cells = 0;
    for (size_t i = 0; i < na; i++) {
        size_t j = walsh ? i : 0, rowc = ncol - j;
        int full = 0;
#pragma GCC unroll 4
        for (int g = 0; g < NG; g++) full |= l[g] + rowc > cap;
        if (full) return -1;
        __m512d ai = _mm512_set1_pd(plain ? 0.0 : a[i]);
        for (; j < ncol; j += 8) {
            __mmask8 valid = ncol - j >= 8 ? (__mmask8) 0xFF
                           : (__mmask8) ((1u << (ncol - j)) - 1u);
            __m512d v = _mm512_maskz_loadu_pd(valid, src + j);
            __m512d d = plain ? v
                      : walsh ? _mm512_mul_pd(_mm512_add_pd(ai, v), half)
                              : _mm512_sub_pd(ai, v);
#pragma GCC unroll 4
            for (int g = 0; g < NG; g++) {
                __mmask8 gt = _mm512_mask_cmp_pd_mask(valid, d, lo[g], _CMP_GT_OQ);
                __mmask8 in = _mm512_mask_cmp_pd_mask(gt, d, hi[g], _CMP_LT_OQ);
                c_gt[g] = _mm512_mask_add_epi64(c_gt[g], gt, c_gt[g], one);
                _mm512_storeu_pd(w[g] + l[g], _mm512_maskz_compress_pd(in, d));
                l[g] += (size_t) __builtin_popcount((unsigned) in);
            }
        }
        cells += rowc;
    }
#pragma GCC unroll 4
    for (int g = 0; g < NG; g++) {
        le_lo[g] = cells - (uint64_t) _mm512_reduce_add_epi64(c_gt[g]);
        len[g] = l[g];
    }
    return 1;
}

__attribute__((target("avx512f")))
static int window_avx512(const double *a, size_t na, const double *b,
                         size_t nb, int ng, const double *piv, uint64_t *le_lo,
                         double *const *win, size_t cap, size_t *len)
{
    switch (ng) {
    case 1: return window_avx512_body(a, na, b, nb, 1, piv, le_lo, win, cap, len);
    case 2: return window_avx512_body(a, na, b, nb, 2, piv, le_lo, win, cap, len);
    case 3: return window_avx512_body(a, na, b, nb, 3, piv, le_lo, win, cap, len);
    default: return window_avx512_body(a, na, b, nb, 4, piv, le_lo, win, cap, len);
    }
}

/*
 * A bitonic sorting network (Batcher 1968) for up to 64 values held in R
 * registers of eight (the places past n hold +Inf, which sort last; a
 * value that is itself +Inf equals them).  Each compare-exchange swaps
 * the two values only when they are out of order, so the result is a
 * permutation of the input whatever the ties (-0 and +0 stay as they
 * are).  Pairs eight or more places apart are two registers, lane by
 * lane; closer pairs are lanes of one register, its partner lanes
 * brought by a permutation.  R is a constant in each instance.
 */
/* one compare-exchange of lanes j apart (j = 1, 2, 4: perm brings the
 * partners), the lanes of wmin taking the smaller of their pair */
__attribute__((target("avx512f"), always_inline))
static inline __m512d cx_lanes(__m512d v, __m512i perm, __mmask8 wmin)
{
    __m512d p = _mm512_permutexvar_pd(perm, v);
    __mmask8 sw = (__mmask8) (_mm512_mask_cmp_pd_mask(wmin, p, v, _CMP_LT_OQ) |
                              _mm512_mask_cmp_pd_mask((__mmask8) ~wmin, p, v,
                                                      _CMP_GT_OQ));
    return _mm512_mask_blend_pd(sw, v, p);
}

__attribute__((target("avx512f"), always_inline))
static inline int bitonic_body(double *x, size_t n, int R, int LOGN,
                               int stable)
{
    __m512d v[8];
    const __m512d inf = _mm512_set1_pd(__builtin_inf());
    const __m512d zero = _mm512_setzero_pd();
    __mmask8 bad = 0;
#pragma GCC unroll 8
    for (int r = 0; r < R; r++) {
        size_t at = 8 * (size_t) r;
        __mmask8 m = at >= n ? 0 : n - at >= 8 ? (__mmask8) 0xFF
                   : (__mmask8) ((1u << (n - at)) - 1u);
        v[r] = _mm512_mask_loadu_pd(inf, m, x + at);
        if (stable)
            bad |= _mm512_cmp_pd_mask(v[r], zero, _CMP_EQ_UQ);
    }
    /* for a stable sort: equal values are then the same bits (no NaN,
     * no -0 and +0), so their order cannot show */
    if (bad) return 0;
    const __m512i perm[3] = {_mm512_set_epi64(6, 7, 4, 5, 2, 3, 0, 1),
                             _mm512_set_epi64(5, 4, 7, 6, 1, 0, 3, 2),
                             _mm512_set_epi64(3, 2, 1, 0, 7, 6, 5, 4)};
    /* the lower lane of each pair j = 1, 2, 4 apart; the lanes sorted
     * ascending in the blocks of k = 2, 4 */
    const unsigned lower[3] = {0x55, 0x33, 0x0F}, up[2] = {0x33, 0x0F};
#pragma GCC unroll 6
    for (int ke = 1; ke <= LOGN; ke++) {
#pragma GCC unroll 6
        for (int je = ke - 1; je >= 0; je--) {
            int k = 1 << ke, j = 1 << je;
            if (je >= 3) {
                int jr = j / 8;
#pragma GCC unroll 8
                for (int r = 0; r < R; r++) {
                    if (r & jr) continue;
                    int rr = r | jr;
                    int asc = ((8 * r) & k) == 0;
                    __mmask8 sw = asc ? _mm512_cmp_pd_mask(v[rr], v[r], _CMP_LT_OQ)
                                      : _mm512_cmp_pd_mask(v[rr], v[r], _CMP_GT_OQ);
                    __m512d lo = _mm512_mask_blend_pd(sw, v[r], v[rr]);
                    v[rr] = _mm512_mask_blend_pd(sw, v[rr], v[r]);
                    v[r] = lo;
                }
            } else {
#pragma GCC unroll 8
                for (int r = 0; r < R; r++) {
                    unsigned ascm = ke <= 2 ? up[ke - 1]
                                  : ((8 * r) & k) == 0 ? 0xFFu : 0u;
                    unsigned wmin = ~(lower[je] ^ ascm) & 0xFFu;
                    v[r] = cx_lanes(v[r], perm[je], (__mmask8) wmin);
                }
            }
        }
    }
    double out[64];
#pragma GCC unroll 8
    for (int r = 0; r < R; r++) _mm512_storeu_pd(out + 8 * r, v[r]);
    memcpy(x, out, n * sizeof(double));
    return 1;
}

__attribute__((target("avx512f")))
static int bitonic_avx512(double *x, size_t n, int stable)
{
    if (n <= 8) return bitonic_body(x, n, 1, 3, stable);
    if (n <= 16) return bitonic_body(x, n, 2, 4, stable);
    if (n <= 32) return bitonic_body(x, n, 4, 5, stable);
    return bitonic_body(x, n, 8, 6, stable);
}

#endif /* ST_SIMD_AVX512 */

int st_simd_sort(double *x, size_t n)
{
#ifdef ST_SIMD_AVX512
    if (n >= SIMD_SORT_MIN && n <= SIMD_SORT_MAX && cpu_avx512())
        return bitonic_avx512(x, n, 1) || sort_avx512(x, n);
#endif
    (void) x;
    (void) n;
    return 0;
}

int st_simd_split(const double *src, double *dst, size_t lo, size_t hi,
                  double piv, int or_equal, size_t *split)
{
#ifdef ST_SIMD_AVX512
    if (hi - lo >= SIMD_SPLIT_MIN && cpu_avx512()) {
        *split = split_avx512(src, dst, lo, hi, piv, or_equal);
        return 1;
    }
#endif
    (void) src;
    (void) dst;
    (void) lo;
    (void) hi;
    (void) piv;
    (void) or_equal;
    (void) split;
    return 0;
}

int st_simd_kendall(const double *x, size_t n, double *D, double *T,
                    double *tv, int *ties)
{
#ifdef ST_SIMD_AVX512
    if (n >= SIMD_KENDALL_MIN && n <= SIMD_KENDALL_MAX && cpu_avx512()) {
        kendall_avx512(x, n, D, T, tv, ties);
        return 1;
    }
#endif
    (void) x;
    (void) n;
    (void) D;
    (void) T;
    (void) tv;
    (void) ties;
    return 0;
}

int st_simd_pair_window(const double *a, size_t na, const double *b,
                        size_t nb, int ng, const double *piv, uint64_t *le_lo,
                        double *const *win, size_t cap, size_t *len)
{
#ifdef ST_SIMD_AVX512
    if (ng >= 1 && ng <= 4 && cpu_avx512())
        return window_avx512(a, na, b, nb, ng, piv, le_lo, win, cap, len);
#endif
    (void) a;
    (void) na;
    (void) b;
    (void) nb;
    (void) ng;
    (void) piv;
    (void) le_lo;
    (void) win;
    (void) cap;
    (void) len;
    return 0;
}

int st_simd_sort_net(double *x, size_t n)
{
#ifdef ST_SIMD_AVX512
    if (n >= 2 && n <= 64 && cpu_avx512()) return bitonic_avx512(x, n, 0);
#endif
    (void) x;
    (void) n;
    return 0;
}

int st_simd_available(void)
{
#ifdef ST_SIMD_AVX512
    return cpu_avx512();
#else
    return 0;
#endif
}
