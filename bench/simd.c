/*
 * The vector code (src/simd.c) against the scalar code it stands in for,
 * at the sizes of a suite's samples: nanoseconds per call of st_sort, of
 * the Mann-Kendall test (its table of exact null distributions kept across
 * the samples, as in a suite) and of one split pass of the selection, on lognormal run times (one sample in four rounded, for
 * ties).  Build it twice, with the vector code taken at every size and
 * without it, and compare the columns (bench/simd.sh does both).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "speeduptest.h"
#include "cache.h"

#define SAMPLES 4096

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

static double unif(void)
{
    return ((double) rand() + 0.5) / ((double) RAND_MAX + 1.0);
}

/* select.c's scalar split pass (static there) */
static size_t split_scalar(const double *src, double *dst, size_t lo,
                           size_t hi, double piv, int or_equal)
{
    size_t l = lo, r = hi - 1;
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

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 5;
    static const size_t sizes[] = {3, 4, 5, 6, 8, 12, 16, 20, 24, 31, 40, 48, 64};
    static double data[SAMPLES][64], buf[64], dst[64];
    srand(7);
    printf("%4s %10s %10s %10s\n", "n", "sort_ns", "kendall_ns", "split_ns");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        for (int k = 0; k < SAMPLES; k++)
            for (size_t i = 0; i < n; i++) {
                double z = sqrt(-2 * log(unif())) * cos(6.283185307 * unif());
                double v = exp(2 + 0.05 * z);
                data[k][i] = k % 4 == 0 ? round(v * 10) / 10 : v;
            }
        double best[3] = {INFINITY, INFINITY, INFINITY}, sink = 0;
        /* the Mann-Kendall laws kept across the samples, as a suite keeps
         * them */
        st_cache cache;
        st_cache_init(&cache);
        st_mann_kendall_options mk = {NULL, &cache};
        for (int r = 0; r < reps; r++) {
            double t0 = cpu_seconds();
            for (int k = 0; k < SAMPLES; k++) {
                memcpy(buf, data[k], n * sizeof(double));
                st_sort(buf, n);
                sink += buf[n / 2];
            }
            double t1 = cpu_seconds();
            for (int k = 0; k < SAMPLES; k++) {
                st_result res;
                st_mann_kendall(data[k], n, &mk, &res);
                sink += res.statistic;
            }
            double t2 = cpu_seconds();
            for (int k = 0; k < SAMPLES; k++) {
                size_t l;
                double piv = data[k][n / 2];
                if (!st_simd_split(data[k], dst, 0, n, piv, k & 1, &l))
                    l = split_scalar(data[k], dst, 0, n, piv, k & 1);
                sink += dst[l ? l - 1 : 0];
            }
            double t3 = cpu_seconds();
            double t[3] = {t1 - t0, t2 - t1, t3 - t2};
            for (int j = 0; j < 3; j++) if (t[j] < best[j]) best[j] = t[j];
        }
        st_cache_free(&cache);
        printf("%4zu %10.1f %10.1f %10.1f\n", n, 1e9 * best[0] / SAMPLES,
               1e9 * best[1] / SAMPLES, 1e9 * best[2] / SAMPLES);
        if (sink == 42.4242) printf(" ");
    }
    return 0;
}
