/*
 * cache.h -- the layout of st_cache: what the core keeps across calls so
 * that a suite's benchmarks, a simulation's replicates or the steps of one
 * protocol compute each table once (cache.c holds its one init/free pair).
 *
 * Every entry is a pure function of its key (sample sizes, an alternative,
 * a pattern of ties, a level), so an answer read from the cache is the
 * answer computed afresh, bit for bit.  Each test's file fills its own
 * entry; speeduptest.h declares the type and its init/free pair, and a
 * caller that keeps a cache on its stack includes this header.
 */
#ifndef SPEEDUPTEST_CACHE_H
#define SPEEDUPTEST_CACHE_H

#include <stddef.h>
#include "speeduptest.h"

/* Sample sizes 3 .. ST_CACHE_SHAPIRO_N - 1 keep their Shapiro-Wilk
 * constants (larger samples are rarer in suites and cost more in the rest
 * of the test). */
#define ST_CACHE_SHAPIRO_N 512
/* The Mann-Kendall test is exact without ties below this size. */
#define ST_CACHE_KENDALL_N 50

/* The Shapiro-Wilk constants of one sample size (shapiro.c). */
struct st_sw_consts;

struct st_cache {
    /* wilcoxon.c: the exact no-ties null distribution of the rank sum for
     * the sizes n <= m (prob[w] = P[W = w], len = n m + 1), its tails
     * P[W <= w], P[W >= w] by w (2 len values, NAN until asked), and the
     * interval's quantile at the level q_a: q_q, with P[W <= q_q - 1] =
     * q_cdf (valid when q_set). */
    struct {
        size_t n, m, len;
        double *prob;
        double *tails;
        int q_set;
        double q_a, q_q, q_cdf;
    } ranksum;
    /* ks.c: the exact Smirnov tails P[D >= d / (n m)], d = 0 .. n m (NAN
     * until computed), for the sizes n, m, the alternative alt and the
     * pattern of tie blocks `blocks` (n + m + 1 flags): the centred
     * samples of a suite's benchmarks mostly share them (odd sizes tie
     * only their two medians, at 0). */
    struct {
        size_t n, m;
        int alt;
        double *p;
        unsigned char *blocks;
    } smirnov;
    /* shapiro.c: the constants of each sample size (NULL until used; an
     * array of ST_CACHE_SHAPIRO_N pointers, each one allocation). */
    struct st_sw_consts **shapiro;
    /* protocol.c: the last quantile of the t distribution of the mean
     * protocol's interval, qt(p, df) = q (valid when set). */
    struct {
        int set;
        double p, df, q;
    } t_quantile;
    /* run-order.c: the exact null distributions of the inversion count,
     * cdf[n][d] = P(D <= d) for n = 2 .. built (< ST_CACHE_KENDALL_N),
     * and the density of size `built` they are extended from. */
    struct {
        size_t built;
        double *cdf[ST_CACHE_KENDALL_N];
        double *p;
    } kendall;
};

#endif
