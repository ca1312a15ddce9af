/* matmul: dense double-precision matrix product C = A B (n = 320) with the
 * i-k-j loop order, repeated. */
#include "harness.h"

#define N 320

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 16);
    double *a = harness_alloc((size_t) N * N, sizeof *a);
    double *b = harness_alloc((size_t) N * N, sizeof *b);
    double *c = harness_alloc((size_t) N * N, sizeof *c);
    for (long i = 0; i < N * N; i++) { a[i] = harness_unif() - 0.5; b[i] = harness_unif() - 0.5; }
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        for (long i = 0; i < N * N; i++) c[i] = 0.0;
        for (long i = 0; i < N; i++)
            for (long k = 0; k < N; k++) {
                double aik = a[i * N + k];
                for (long j = 0; j < N; j++) c[i * N + j] += aik * b[k * N + j];
            }
        a[r % (N * N)] += c[(r * 7) % (N * N)] * 1e-3;
    }
    double t1 = harness_now();
    double check = 0.0;
    for (long i = 0; i < N * N; i++) check += c[i] * (double) (i % 13 + 1);
    harness_report(t1 - t0, check);
    free(a); free(b); free(c);
    return 0;
}
