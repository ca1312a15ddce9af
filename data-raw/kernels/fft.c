/* fft: iterative radix-2 complex FFT of length 2^16 (bit reversal plus
 * butterflies, twiddle factors precomputed), forward then inverse, repeated. */
#include "harness.h"
#include <math.h>

#define LOGN 16
#define N (1L << LOGN)

static void fft(double *re, double *im, const double *wr, const double *wi, int inverse)
{
    for (long i = 0, j = 0; i < N; i++) {
        if (i < j) { double t = re[i]; re[i] = re[j]; re[j] = t; t = im[i]; im[i] = im[j]; im[j] = t; }
        long bit = N >> 1;
        while (j & bit) { j ^= bit; bit >>= 1; }
        j |= bit;
    }
    for (long len = 2; len <= N; len <<= 1) {
        long half = len >> 1, step = N / len;
        for (long s = 0; s < N; s += len)
            for (long k = 0; k < half; k++) {
                double c = wr[k * step], d = inverse ? -wi[k * step] : wi[k * step];
                long a = s + k, b = a + half;
                double tr = re[b] * c - im[b] * d, ti = re[b] * d + im[b] * c;
                re[b] = re[a] - tr; im[b] = im[a] - ti;
                re[a] += tr; im[a] += ti;
            }
    }
}

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 48);
    double *re = harness_alloc(N, sizeof *re), *im = harness_alloc(N, sizeof *im);
    double *wr = harness_alloc(N / 2, sizeof *wr), *wi = harness_alloc(N / 2, sizeof *wi);
    const double pi = 3.14159265358979323846;
    for (long k = 0; k < N / 2; k++) { wr[k] = cos(-2.0 * pi * k / N); wi[k] = sin(-2.0 * pi * k / N); }
    for (long i = 0; i < N; i++) { re[i] = harness_unif() - 0.5; im[i] = 0.0; }
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        fft(re, im, wr, wi, 0);
        fft(re, im, wr, wi, 1);
        for (long i = 0; i < N; i++) { re[i] /= (double) N; im[i] /= (double) N; }
    }
    double t1 = harness_now();
    double check = 0.0;
    for (long i = 0; i < N; i++) check += re[i] * (double) (i % 11 + 1) + im[i];
    harness_report(t1 - t0, check);
    free(re); free(im); free(wr); free(wi);
    return 0;
}
