/* blackscholes (OpenMP): Black-Scholes prices of 400,000 European call and
 * put options (log, exp, sqrt and the normal distribution function through
 * erfc), options shared among the threads; repeated. */
#include "../harness.h"
#include <math.h>

#define NOPT 400000

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 6);
    double *s = harness_alloc(NOPT, sizeof *s), *k = harness_alloc(NOPT, sizeof *k);
    double *t = harness_alloc(NOPT, sizeof *t), *vol = harness_alloc(NOPT, sizeof *vol);
    double *call = harness_alloc(NOPT, sizeof *call), *put = harness_alloc(NOPT, sizeof *put);
    for (long i = 0; i < NOPT; i++) {
        s[i] = 50.0 + 100.0 * harness_unif(); k[i] = 50.0 + 100.0 * harness_unif();
        t[i] = 0.1 + 2.0 * harness_unif(); vol[i] = 0.05 + 0.5 * harness_unif();
    }
    const double rate = 0.02;
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        #pragma omp parallel for schedule(static)
        for (long i = 0; i < NOPT; i++) {
            double sq = vol[i] * sqrt(t[i]);
            double d1 = (log(s[i] / k[i]) + (rate + 0.5 * vol[i] * vol[i]) * t[i]) / sq;
            double d2 = d1 - sq;
            double n1 = 0.5 * erfc(-d1 / sqrt(2.0)), n2 = 0.5 * erfc(-d2 / sqrt(2.0));
            double disc = k[i] * exp(-rate * t[i]);
            call[i] = s[i] * n1 - disc * n2;
            put[i] = call[i] - s[i] + disc;
        }
        s[r % NOPT] *= 1.0001;
    }
    double t1 = harness_now();
    double check = 0.0;
    for (long i = 0; i < NOPT; i++) check += call[i] + 0.5 * put[i];
    harness_report(t1 - t0, check);
    free(s); free(k); free(t); free(vol); free(call); free(put);
    return 0;
}
