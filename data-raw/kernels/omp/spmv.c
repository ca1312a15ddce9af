/* spmv (OpenMP): sparse matrix-vector products y = A x with a random
 * 100,000 x 100,000 matrix of 16 non-zeros per row (compressed sparse rows),
 * rows shared among the threads; repeated, feeding y back as x. */
#include "../harness.h"

#define NR 100000
#define NZ 16

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 110);
    long *col = harness_alloc((size_t) NR * NZ, sizeof *col);
    double *val = harness_alloc((size_t) NR * NZ, sizeof *val);
    double *x = harness_alloc(NR, sizeof *x), *y = harness_alloc(NR, sizeof *y);
    for (long i = 0; i < NR * NZ; i++) {
        col[i] = (long) (harness_rand() % NR);
        val[i] = (harness_unif() - 0.5) / NZ * 2.0;
    }
    for (long i = 0; i < NR; i++) x[i] = harness_unif();
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        #pragma omp parallel for schedule(static)
        for (long i = 0; i < NR; i++) {
            double s = 0.0;
            for (long k = i * NZ; k < (i + 1) * NZ; k++) s += val[k] * x[col[k]];
            y[i] = s + 0.5;
        }
        double *t = x; x = y; y = t;
    }
    double t1 = harness_now();
    double check = 0.0;
    for (long i = 0; i < NR; i++) check += x[i] * (double) (i % 3 + 1);
    harness_report(t1 - t0, check);
    free(col); free(val); free(x); free(y);
    return 0;
}
