/*
 * simd.c -- the package's only vector code: three AVX-512 kernels for the
 * short samples of a suite's benchmarks, each giving exactly the result of
 * the scalar code it stands in for.
 *
 *   - st_simd_sort: a stable counting sort of 16 to 48 values (util.c's
 *     insertion sort otherwise);
 *   - st_simd_split: one pass of the two-buffer selection of select.c
 *     (the values below a pivot to one end, the others to the other);
 *   - st_simd_kendall: Kendall's S and its tie sums from all pairs of a
 *     sample of 16 to 64 values (run-order.c's merge count otherwise).
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
 * and the tie sums).
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
/* The inversions and the pairs of distinct values (N - T) of x[0..n),
 * n <= 8 nv: a copy per register count nv (always inlined with nv a
 * constant, so that the values stay in registers and the loop over them
 * is unrolled). */
__attribute__((target("avx512f"), always_inline))
static inline void kendall_below(const double *x, size_t n, size_t nv,
                                 uint64_t *inv_out, uint64_t *below_out)
{
    /* the values in registers, the lanes past n zero (a masked load reads
     * nothing there) */
    __m512d v[SIMD_KENDALL_MAX / 8];
#pragma GCC unroll 8
    for (size_t k = 0; k < nv; k++) {
        size_t left = n - 8 * k;
        __mmask8 m = left >= 8 ? (__mmask8) 0xFF : (__mmask8) ((1u << left) - 1u);
        v[k] = _mm512_maskz_loadu_pd(m, x + 8 * k);
    }
    uint64_t valid = n >= 64 ? ~(uint64_t) 0 : (((uint64_t) 1 << n) - 1u);
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
    for (size_t k = 0; k < nv; k++) {
        size_t left = n - 8 * k;
        __mmask8 m = left >= 8 ? (__mmask8) 0xFF : (__mmask8) ((1u << left) - 1u);
        v[k] = _mm512_maskz_loadu_pd(m, x + 8 * k);
    }
    uint64_t valid = n >= 64 ? ~(uint64_t) 0 : (((uint64_t) 1 << n) - 1u);
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

#endif /* ST_SIMD_AVX512 */

int st_simd_sort(double *x, size_t n)
{
#ifdef ST_SIMD_AVX512
    if (n >= SIMD_SORT_MIN && n <= SIMD_SORT_MAX && cpu_avx512())
        return sort_avx512(x, n);
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
