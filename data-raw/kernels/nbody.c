/* nbody: direct O(n^2) gravitational n-body simulation (n = 600, softened
 * forces, leapfrog steps). */
#include "harness.h"
#include <math.h>

#define N 600

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 110);
    double *x = harness_alloc(3 * N, sizeof *x), *v = harness_alloc(3 * N, sizeof *v);
    double *f = harness_alloc(3 * N, sizeof *f), *m = harness_alloc(N, sizeof *m);
    for (long i = 0; i < N; i++) {
        for (int d = 0; d < 3; d++) { x[3 * i + d] = harness_unif() - 0.5; v[3 * i + d] = 0.0; }
        m[i] = 0.5 + harness_unif();
    }
    const double dt = 1e-4, eps2 = 1e-4;
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        for (long i = 0; i < 3 * N; i++) f[i] = 0.0;
        for (long i = 0; i < N; i++)
            for (long j = 0; j < N; j++) {
                double dx = x[3 * j] - x[3 * i], dy = x[3 * j + 1] - x[3 * i + 1],
                       dz = x[3 * j + 2] - x[3 * i + 2];
                double d2 = dx * dx + dy * dy + dz * dz + eps2;
                double s = m[j] / (d2 * sqrt(d2));
                f[3 * i] += s * dx; f[3 * i + 1] += s * dy; f[3 * i + 2] += s * dz;
            }
        for (long i = 0; i < 3 * N; i++) { v[i] += dt * f[i]; x[i] += dt * v[i]; }
    }
    double t1 = harness_now();
    double check = 0.0;
    for (long i = 0; i < 3 * N; i++) check += x[i] * (double) (i % 5 + 1);
    harness_report(t1 - t0, check);
    free(x); free(v); free(f); free(m);
    return 0;
}
