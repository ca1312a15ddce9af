/*
 * util.c -- the helpers the core's files share: the interrupt callback,
 * results, the mean and variance as R computes them, sorting (the one
 * concept here, st_sort: radix sorts of the doubles' bit patterns), the
 * median (by selection, in a bracket drawn from a sample when the sample
 * is large), mid-ranks and the normal approximation of the rank tests.
 *
 * References
 *   Floyd, R. W. and Rivest, R. L. (1975). Expected time bounds for
 *     selection. Communications of the ACM 18(3), 165-172.
 *   Knuth, D. E. (1998). The Art of Computer Programming, vol. 3: Sorting
 *     and Searching, 2nd ed., section 5.2.5 (radix sorting).
 *   McIlroy, P. M., Bostic, K. and McIlroy, M. D. (1993). Engineering
 *     radix sort. Computing Systems 6(1), 5-27.
 *   R Core Team. R's mean() and var() (src/main/summary.c, cov.c): the
 *     refined mean and the two-pass variance reproduced here.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <Rmath.h>
#include "speeduptest.h"

/* The interrupt callback (one per process; the R layer sets it once when
 * the package is loaded). */
static int (*interrupt_check)(void) = NULL;

void st_set_interrupt(int (*check)(void))
{
    interrupt_check = check;
}

int st_check_interrupt(void)
{
    return interrupt_check ? interrupt_check() != 0 : 0;
}

void st_result_init(st_result *r)
{
    r->statistic = NAN;
    r->df[0] = r->df[1] = NAN;
    r->p_value = NAN;
    r->conf_int[0] = r->conf_int[1] = NAN;
    r->estimate[0] = r->estimate[1] = NAN;
    r->exact = 0;
    r->status = ST_OK;
}

int st_result_fail(st_result *r, int status)
{
    st_result_init(r);
    r->status = status;
    return status;
}

/* R's mean(): a long double sum divided by n, then one refinement pass
 * adding the mean of the residuals, which removes most of the rounding
 * error of the first pass. */
double st_mean(const double *x, size_t n)
{
    if (n == 0) return NAN;
    long double s = 0.0L;
    for (size_t i = 0; i < n; i++) s += x[i];
    s /= (long double) n;
    long double t = 0.0L;
    for (size_t i = 0; i < n; i++) t += x[i] - s;
    s += t / (long double) n;
    return (double) s;
}

/* R's var(): the two-pass (corrected) variance with divisor n - 1. */
double st_var(const double *x, size_t n, double mean)
{
    if (n < 2) return NAN;
    long double ss = 0.0L;
    for (size_t i = 0; i < n; i++) {
        long double d = x[i] - (long double) mean;
        ss += d * d;
    }
    return (double) (ss / (long double) (n - 1));
}

/*
 * Sorting.  st_sort sorts the IEEE-754 bit patterns as unsigned 64-bit
 * keys: flipping all bits of a negative number and the sign bit of the
 * others makes the unsigned order the numeric order (-0 just before +0;
 * they compare equal, so the blocks of ties are the same).  NaN must not
 * be passed (callers check).
 *
 *   - at most ST_SORT_SMALL values: insertion sort on the values
 *     themselves, which is stable (-0 and +0 keep their order), or the
 *     vector code's counting sort with the same result (simd.c);
 *   - up to ST_SORT_LSD_MAX values: an LSD radix sort through a scratch
 *     array the size of the data (lsd_sort_keys);
 *   - beyond (or when the scratch array cannot be had): an in-place
 *     most-significant-digit radix sort ("American flag sort": McIlroy,
 *     Bostic and McIlroy 1993), so that the largest samples sort in O(n)
 *     passes without a copy.  Each level counts the values of one byte,
 *     skips the level when they all share it, moves every value to its
 *     bucket by following cycles, and recurses into the buckets; buckets
 *     of at most ST_SORT_SMALL keys are finished by insertion sort.
 */
#define ST_SORT_SMALL 48

static void insertion_sort_keys(uint64_t *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t v = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

static void radix_sort_keys(uint64_t *a, size_t n, int shift)
{
    while (n > ST_SORT_SMALL) {
        size_t count[256] = {0}, next[256], end[256];
        for (size_t i = 0; i < n; i++) count[(a[i] >> shift) & 255]++;
        if (count[(a[0] >> shift) & 255] == n) {   /* one bucket */
            if (shift == 0) return;
            shift -= 8;
            continue;
        }
        size_t total = 0;
        for (int d = 0; d < 256; d++) {
            next[d] = total;
            total += count[d];
            end[d] = total;
        }
        for (int d = 0; d < 256; d++) {
            while (next[d] < end[d]) {
                uint64_t v = a[next[d]];
                int dv = (int) ((v >> shift) & 255);
                while (dv != d) {                   /* follow the cycle */
                    uint64_t t = a[next[dv]];
                    a[next[dv]++] = v;
                    v = t;
                    dv = (int) ((v >> shift) & 255);
                }
                a[next[d]++] = v;
            }
        }
        if (shift == 0) return;
        size_t start = 0;
        for (int d = 0; d < 256; d++) {
            if (count[d] > 1) radix_sort_keys(a + start, count[d], shift - 8);
            start += count[d];
        }
        return;
    }
    insertion_sort_keys(a, n);
}

/*
 * LSD radix sort (Knuth, TAOCP vol. 3, 5.2.5) of the keys through a
 * scratch array: 11-bit digits, low to high, a stable counting pass each,
 * skipping a digit all keys share.  Sequential writes make it several
 * times faster than the in-place sort; it is used when its scratch array
 * (the size of the data) is small enough not to matter.
 */
#ifndef ST_SORT_LSD_MAX
#define ST_SORT_LSD_MAX ((size_t) 1 << 22)
#endif

static int lsd_sort_keys(uint64_t *keys, size_t n)
{
    uint64_t *a = keys, *b = st_malloc(n, sizeof(uint64_t)), *scratch = b;
    size_t *count = st_malloc(2048, sizeof(size_t));
    if (!b || !count) {
        free(b);
        free(count);
        return 0;
    }
    for (unsigned shift = 0; shift < 64; shift += 11) {
        memset(count, 0, 2048 * sizeof(size_t));
        for (size_t i = 0; i < n; i++) count[(a[i] >> shift) & 0x7FF]++;
        if (count[(a[0] >> shift) & 0x7FF] == n) continue;
        size_t total = 0;
        for (size_t d = 0; d < 2048; d++) {
            size_t c = count[d];
            count[d] = total;
            total += c;
        }
        for (size_t i = 0; i < n; i++) b[count[(a[i] >> shift) & 0x7FF]++] = a[i];
        uint64_t *t = a;            /* the sorted pass is in b now */
        a = b;
        b = t;
    }
    if (a != keys) memcpy(keys, a, n * sizeof(uint64_t));
    free(scratch);
    free(count);
    return 1;
}

void st_sort(double *x, size_t n)
{
    if (n < 2) return;
    if (n <= ST_SORT_SMALL) {
        if (st_simd_sort(x, n)) return;
        /* insertion sort on the values themselves (no NaN: callers check;
         * -0 and +0 compare equal and keep their order) */
        for (size_t i = 1; i < n; i++) {
            double v = x[i];
            size_t j = i;
            while (j > 0 && x[j - 1] > v) {
                x[j] = x[j - 1];
                j--;
            }
            x[j] = v;
        }
        return;
    }
    /* the keys are stored over the values (through memcpy: no aliasing) */
    uint64_t *k = (uint64_t *) (void *) x;
    for (size_t i = 0; i < n; i++) {
        double v;
        memcpy(&v, x + i, sizeof v);
        uint64_t u = st_sort_key(v);
        memcpy(k + i, &u, sizeof u);
    }
    if (n > ST_SORT_LSD_MAX || !lsd_sort_keys(k, n))
        radix_sort_keys(k, n, 56);
    for (size_t i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, k + i, sizeof u);
        double v = st_sort_unkey(u);
        memcpy(x + i, &v, sizeof v);
    }
}

double *st_sorted_copy(const double *x, size_t n)
{
    double *s = st_malloc(n, sizeof(double));
    if (!s) return NULL;
    for (size_t i = 0; i < n; i++) s[i] = x[i];
    st_sort(s, n);
    return s;
}

/* The k-th smallest (0-based) of a[0..n-1], moved to a[k], the smaller
 * values before it and the larger after it (Hoare's FIND with the median
 * of three as pivot; a range that has not halved after 2 log2(n) + 8
 * rounds is sorted instead, so the time stays O(n log n) at worst). */
double st_select_kth(double *a, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    int rounds = 8;
    for (size_t m = n; m > 1; m >>= 1) rounds += 2;
    while (hi > lo) {
        if (--rounds < 0 || hi - lo < 16) {
            st_sort(a + lo, hi - lo + 1);
            return a[k];
        }
        size_t mid = lo + (hi - lo) / 2;
        double p0 = a[lo], p1 = a[mid], p2 = a[hi];
        double pivot = p0 < p1 ? (p1 < p2 ? p1 : (p0 < p2 ? p2 : p0))
                               : (p0 < p2 ? p0 : (p1 < p2 ? p2 : p1));
        size_t i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot) i++;
            while (a[j] > pivot) j--;
            if (i <= j) {
                double t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                if (j == 0) break;
                j--;
            }
        }
        /* a[lo..j] <= pivot <= a[i..hi], and a[j+1..i-1] == pivot */
        if (k <= j && j != (size_t) -1) hi = j;
        else if (k >= i) lo = i;
        else return a[k];
    }
    return a[k];
}

/* The median of a[0..na) whose middle order statistics are those of the
 * whole sample at ranks k - 1 (an even sample) and k of a: a[k] selected,
 * and for an even sample the largest of a[0..k) (k >= 1), averaged as
 * st_median_sorted() does. */
static double middle_of(double *a, size_t na, size_t k, int even)
{
    double upper = st_select_kth(a, na, k);
    if (!even) return upper;
    /* the largest of the lower part: the rank k - 1 */
    double lower = a[0];
    for (size_t i = 1; i < k; i++) if (a[i] > lower) lower = a[i];
    double s = lower + upper;
    return isfinite(s) ? s / 2.0 : lower / 2.0 + upper / 2.0;
}

/*
 * Large samples: the middle by a bracket drawn from a sample (Floyd and
 * Rivest 1975).  A sample of s = n^(2/3) values at a regular stride gives
 * two of its order statistics lo <= hi, 2 sqrt(s) ranks either side of its
 * middle; one pass over x counts the values below lo and copies those in
 * [lo, hi] (about 4 n / sqrt(s) of them), and when the middle ranks of x
 * fall among the copied ones (below <= rank of the lower middle, and
 * below + copied > h) the median is selected among those.  The copied
 * values are exactly x's values of those ranks, so the result is the
 * value a sort gives.  A bracket that misses the middle (an order of the
 * values that fools the stride), or holds more values than its buffer,
 * returns 0 and the caller selects in a copy of the whole sample.  The
 * pass is written without branches on the data (the comparisons used as
 * 0/1 numbers) and also takes the minimum.
 */
#define ST_SELECT_BRACKET_MIN 8192

static int median_bracketed(const double *x, size_t n, double *min,
                            double *med)
{
    size_t s = (size_t) cbrt((double) n * (double) n);
    size_t stride = n / s, d = 2 * (size_t) sqrt((double) s);
    size_t half = s / 2;
    if (half < d + 1) return 0;
    size_t cap = 4 * d * (n / s) + 64;  /* twice the expected band */
    if (cap > n) cap = n;
    double *sample = st_malloc(s, sizeof(double));
    double *buf = sample ? st_malloc(cap, sizeof(double)) : NULL;
    if (!buf) {
        free(sample);
        return 0;
    }
    for (size_t i = 0; i < s; i++) sample[i] = x[i * stride];
    double hi = st_select_kth(sample, s, half + d);
    double lo = st_select_kth(sample, half + d, half - d);
    free(sample);
    double m = x[0];
    size_t below = 0, nb = 0;
    int full = 0;
    for (size_t i = 0; i < n; i++) {
        double v = x[i];
        m = v < m ? v : m;
        below += v < lo;
        buf[nb] = v;                      /* kept only when in [lo, hi] */
        nb += (v >= lo) & (v <= hi);
        if (nb == cap) {                  /* rare: the bracket is too wide */
            full = 1;
            break;
        }
    }
    size_t h = n / 2, klo = n % 2 ? h : h - 1;
    int ok = !full && below <= klo && h < below + nb;
    if (ok) {
        *med = middle_of(buf, nb, h - below, n % 2 == 0);
        if (min) *min = m;
    }
    free(buf);
    return ok;
}

double st_median_select(const double *x, size_t n, double *min)
{
    if (n == 0) {
        if (min) *min = NAN;
        return NAN;
    }
    double med;
    if (n >= ST_SELECT_BRACKET_MIN && median_bracketed(x, n, min, &med))
        return med;
    if (min) {
        double m = x[0];
        for (size_t i = 1; i < n; i++) if (x[i] < m) m = x[i];
        *min = m;
    }
    double *a = st_malloc(n, sizeof(double));
    if (!a) return NAN;
    memcpy(a, x, n * sizeof(double));
    med = middle_of(a, n, n / 2, n % 2 == 0);
    free(a);
    return med;
}

double st_median_sorted(const double *xs, size_t n)
{
    if (n == 0) return NAN;
    size_t h = n / 2;
    if (n % 2) return xs[h];
    /* the mean of the two middle values; halving first would lose the last
     * bit of subnormals, adding first overflows near DBL_MAX */
    double s = xs[h - 1] + xs[h];
    return isfinite(s) ? s / 2.0 : xs[h - 1] / 2.0 + xs[h] / 2.0;
}

int st_is_constant(const double *x, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (x[i] != x[0]) return 0;
    return 1;
}

double st_sorted_tie_term(const double *s, size_t n)
{
    double ties = 0.0;
    size_t i = 0;
    while (i < n) {
        size_t j = i + 1;
        while (j < n && s[j] == s[i]) j++;
        double t = (double) (j - i);
        ties += t * t * t - t;
        i = j;
    }
    return ties;
}

typedef struct {
    double v;
    size_t i;
} st_indexed;

static int cmp_indexed(const void *a, const void *b)
{
    const st_indexed *u = a, *v = b;
    if (u->v < v->v) return -1;
    if (u->v > v->v) return 1;
    return (u->i > v->i) - (u->i < v->i);
}

/*
 * A tie group occupying sorted positions i..j-1 (0-based) shares the
 * ranks i+1..j, whose average is (i + 1 + j) / 2.
 */
int st_midranks(const double *v, size_t n, double *rank, double *tie_term)
{
    for (size_t i = 0; i < n; i++)
        if (isnan(v[i])) return ST_ERR_DOMAIN;    /* no place in an order */
    st_indexed *w = st_malloc(n, sizeof(st_indexed));
    if (!w) return ST_ERR_ALLOC;
    for (size_t i = 0; i < n; i++) {
        w[i].v = v[i];
        w[i].i = i;
    }
    qsort(w, n, sizeof(st_indexed), cmp_indexed);
    double ties = 0.0;
    size_t i = 0;
    while (i < n) {
        size_t j = i + 1;
        while (j < n && w[j].v == w[i].v) j++;
        double r = (double) (i + 1 + j) / 2.0;
        for (size_t k = i; k < j; k++) rank[w[k].i] = r;
        double t = (double) (j - i);
        ties += t * t * t - t;
        i = j;
    }
    if (tie_term) *tie_term = ties;
    free(w);
    return ST_OK;
}

/* The normal approximations of the rank tests: the 1/2 correction
 * towards the null on the side the alternative looks at (either side for
 * the two-sided test, none at z = 0), and the p-value of a standard normal
 * statistic. */
double st_continuity(st_alternative alt, int correct, double z)
{
    if (!correct) return 0.0;
    switch (alt) {
    case ST_GREATER: return 0.5;
    case ST_LESS: return -0.5;
    default: return z > 0 ? 0.5 : (z < 0 ? -0.5 : 0.0);
    }
}

double st_normal_p(st_alternative alt, double z)
{
    double lower = pnorm(z, 0.0, 1.0, 1, 0), upper = pnorm(z, 0.0, 1.0, 0, 0);
    switch (alt) {
    case ST_LESS: return lower;
    case ST_GREATER: return upper;
    default: return 2.0 * (lower < upper ? lower : upper);
    }
}
