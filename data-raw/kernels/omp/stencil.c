/* stencil (OpenMP): Jacobi iterations of the 5-point Laplace stencil on a
 * 512 x 512 grid, grid rows shared among the threads (one parallel loop and
 * one implicit barrier per iteration). */
#include "../harness.h"

#define N 512

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 800);
    double *u = harness_alloc((size_t) N * N, sizeof *u);
    double *v = harness_alloc((size_t) N * N, sizeof *v);
    for (long j = 0; j < N; j++) { u[j] = v[j] = 1.0; u[(N - 1) * N + j] = v[(N - 1) * N + j] = -1.0; }
    for (long i = 0; i < N; i++) { u[i * N] = v[i * N] = 0.5; }
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        #pragma omp parallel for schedule(static)
        for (long i = 1; i < N - 1; i++)
            for (long j = 1; j < N - 1; j++)
                v[i * N + j] = 0.25 * (u[(i - 1) * N + j] + u[(i + 1) * N + j] +
                                       u[i * N + j - 1] + u[i * N + j + 1]);
        double *t = u; u = v; v = t;
    }
    double t1 = harness_now();
    double check = 0.0;
    for (long i = 0; i < N * N; i++) check += u[i] * (double) (i % 7 + 1);
    harness_report(t1 - t0, check);
    free(u); free(v);
    return 0;
}
