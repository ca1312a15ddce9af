/*
 * harness.h: common timing and reporting code for the speeduptest case-study
 * kernels. Every kernel does its set-up (allocation, input generation) first,
 * then times only its computational section with CLOCK_MONOTONIC, then
 * computes a checksum of the result outside the timed section and prints
 *
 *     checksum <value>
 *     time <seconds>
 *
 * on standard output. Printing a checksum that depends on every result keeps
 * the optimiser from removing the work; the collection script checks that
 * every build of a kernel prints the same checksum.
 *
 * The first command-line argument, when given, is the number of repetitions
 * of the timed work (the default is written in each kernel).
 */
#ifndef SPEEDUPTEST_HARNESS_H
#define SPEEDUPTEST_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double harness_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static inline long harness_reps(int argc, char **argv, long def)
{
    long r = argc > 1 ? atol(argv[1]) : def;
    return r > 0 ? r : def;
}

static inline void harness_report(double seconds, double checksum)
{
    printf("checksum %.10g\ntime %.9f\n", checksum, seconds);
}

/* Small deterministic generator (xorshift64*) for the kernels' inputs. */
static uint64_t harness_state = 88172645463325252ULL;

static inline uint64_t harness_rand(void)
{
    harness_state ^= harness_state >> 12;
    harness_state ^= harness_state << 25;
    harness_state ^= harness_state >> 27;
    return harness_state * 2685821657736338717ULL;
}

static inline double harness_unif(void)
{
    return (double) (harness_rand() >> 11) * (1.0 / 9007199254740992.0);
}

static inline void *harness_alloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

#endif
