/* sieve: sieve of Eratosthenes up to 20,000,000 on a byte array, repeated. */
#include "harness.h"

#define LIMIT 20000000L

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 1);
    unsigned char *comp = harness_alloc(LIMIT + 1, 1);
    double check = 0.0;
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        for (long i = 0; i <= LIMIT; i++) comp[i] = 0;
        for (long p = 2; p * p <= LIMIT; p++)
            if (!comp[p])
                for (long q = p * p; q <= LIMIT; q += p) comp[q] = 1;
        long count = 0;
        for (long i = 2; i <= LIMIT; i++) count += !comp[i];
        check += (double) count;
    }
    double t1 = harness_now();
    harness_report(t1 - t0, check);
    free(comp);
    return 0;
}
