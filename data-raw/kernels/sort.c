/* sort: recursive quicksort (median of three, insertion sort below 16
 * elements) of 200,000 pseudo-random 32-bit integers, repeated. */
#include "harness.h"

#define N 200000

static void insertion(uint32_t *a, long lo, long hi)
{
    for (long i = lo + 1; i <= hi; i++) {
        uint32_t v = a[i];
        long j = i - 1;
        while (j >= lo && a[j] > v) { a[j + 1] = a[j]; j--; }
        a[j + 1] = v;
    }
}

static void quicksort(uint32_t *a, long lo, long hi)
{
    while (hi - lo > 16) {
        long mid = lo + (hi - lo) / 2;
        uint32_t x = a[lo], y = a[mid], z = a[hi], p;
        p = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        long i = lo, j = hi;
        while (i <= j) {
            while (a[i] < p) i++;
            while (a[j] > p) j--;
            if (i <= j) { uint32_t t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
        }
        if (j - lo < hi - i) { quicksort(a, lo, j); lo = i; }
        else { quicksort(a, i, hi); hi = j; }
    }
    insertion(a, lo, hi);
}

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 10);
    uint32_t *src = harness_alloc(N, sizeof *src), *a = harness_alloc(N, sizeof *a);
    for (long i = 0; i < N; i++) src[i] = (uint32_t) harness_rand();
    double check = 0.0;
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        for (long i = 0; i < N; i++) a[i] = src[i] ^ (uint32_t) r;
        quicksort(a, 0, N - 1);
        check += (double) a[N / 2 + r] + (double) a[r];
    }
    double t1 = harness_now();
    for (long i = 1; i < N; i++) if (a[i - 1] > a[i]) check = -1.0;
    harness_report(t1 - t0, check);
    free(src); free(a);
    return 0;
}
