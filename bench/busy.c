/* busy N: a CPU-bound loop of N steps of a linear congruential generator
 * (fixed work, no memory traffic), the program the measuring benches time.
 * busy -c S prints the N that takes S seconds of CPU on this machine: the
 * fastest of 5 timed loops of a million steps (a busy machine only makes a
 * loop longer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned long spin(long n)
{
    volatile unsigned long x = 1;
    for (long i = 0; i < n; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    return x;
}

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "-c") == 0) {
        double want = atof(argv[2]), best = 1e9;
        long n = 1000000;
        for (int k = 0; k < 5; k++) {
            double t0 = cpu();
            spin(n);
            double t = cpu() - t0;
            if (t < best) best = t;
        }
        printf("%ld\n", (long) (n * want / best));
        return 0;
    }
    long n = argc > 1 ? atol(argv[1]) : 1000000L;
    return (int) (spin(n) & 0);
}
