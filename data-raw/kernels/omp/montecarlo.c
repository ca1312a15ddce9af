/* montecarlo (OpenMP): estimate of pi from 2^23 points whose coordinates come
 * from a counter-based hash (so each point is the same whatever thread draws
 * it); integer hit count reduced over the threads; repeated. */
#include "../harness.h"

#define NPTS (1L << 23)

static inline uint64_t splitmix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 6);
    long hits = 0;
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        #pragma omp parallel for schedule(static) reduction(+:hits)
        for (long i = 0; i < NPTS; i++) {
            uint64_t k = (uint64_t) r * (uint64_t) NPTS + (uint64_t) i;
            double u = (double) (splitmix(2 * k) >> 11) * (1.0 / 9007199254740992.0);
            double v = (double) (splitmix(2 * k + 1) >> 11) * (1.0 / 9007199254740992.0);
            hits += (u * u + v * v <= 1.0);
        }
    }
    double t1 = harness_now();
    harness_report(t1 - t0, 4.0 * (double) hits / ((double) NPTS * (double) reps));
    return 0;
}
