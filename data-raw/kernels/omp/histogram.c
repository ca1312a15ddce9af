/* histogram (OpenMP): 1024-bin histogram of 2^22 hashed keys, each thread
 * filling a private histogram that is merged under a critical section;
 * repeated. Integer counts, so the result does not depend on the threads. */
#include "../harness.h"
#include <string.h>

#define NKEYS (1L << 22)
#define NBINS 1024

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 24);
    uint32_t *keys = harness_alloc(NKEYS, sizeof *keys);
    long *hist = harness_alloc(NBINS, sizeof *hist);
    for (long i = 0; i < NKEYS; i++) keys[i] = (uint32_t) harness_rand();
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        #pragma omp parallel
        {
            long local[NBINS];
            memset(local, 0, sizeof local);
            #pragma omp for schedule(static)
            for (long i = 0; i < NKEYS; i++) {
                uint32_t h = (keys[i] ^ (uint32_t) r) * 2654435761u;
                h ^= h >> 15; h *= 2246822519u; h ^= h >> 13;
                local[h % NBINS]++;
            }
            #pragma omp critical
            for (int b = 0; b < NBINS; b++) hist[b] += local[b];
        }
    }
    double t1 = harness_now();
    double check = 0.0;
    for (int b = 0; b < NBINS; b++) check += (double) hist[b] * (double) (b % 17 + 1);
    harness_report(t1 - t0, check);
    free(keys); free(hist);
    return 0;
}
