/*
 * speeduptest.h -- the contract of the C core.
 *
 * One entry point per concept: each test, the exact null distributions,
 * selection, sorting, the run-order tests, the protocols, the tolerance,
 * a suite, HPT and its r-Speedup.  What a caller may vary beyond the
 * statistical arguments (samples that come sorted or as summary figures,
 * both one-sided tails at once, an interval or none, the cache to use)
 * is an option in a small struct; a NULL options pointer, or options
 * zeroed with `= {0}`, make the plain call.  The last section lists the
 * low-level helpers the core's files share, which are not concepts.
 *
 * Everything declared here works on plain C types (double arrays, sizes,
 * result structs) and never touches an R object, so it can be called and
 * fuzzed from C alone.  Distribution functions come from Rmath.  The R
 * entry points (ffi_*) live in the same files, below the core, and are
 * declared in ffi.h.
 *
 * Conventions
 *   - x holds the times of the initial code, y those of the transformed
 *     code; a speedup means X tends to be larger than Y.
 *   - A function returns ST_OK or an ST_ERR_* status; on error the result
 *     struct is left with NAN fields.
 *   - Unused fields of st_result are NAN (never garbage).
 *   - Memory is malloc'ed and freed inside a call; only a caller's
 *     st_cache keeps anything between calls.
 */
#ifndef SPEEDUPTEST_H
#define SPEEDUPTEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ==== results ============================================================ */

/* Status codes. */
enum {
    ST_OK = 0,
    ST_ERR_TOO_FEW = 1,     /* not enough values for the test */
    ST_ERR_TOO_MANY = 2,    /* more values than the method supports */
    ST_ERR_CONSTANT = 3,    /* all values equal: statistic undefined */
    ST_ERR_ALLOC = 4,       /* out of memory */
    ST_ERR_DOMAIN = 5,      /* an argument outside its domain */
    ST_ERR_INTERRUPTED = 6, /* the interrupt callback asked to stop */
    ST_ERR_UNSUPPORTED = 7  /* the protocol has no such capability    */
};

/* A status a caller passes up rather than reading as "this sub-test gave
 * no result": out of memory, or an interrupt (read as a failed sub-test, it
 * would lose the user's Ctrl-C, which the interrupt check has consumed). */
#define ST_FATAL(s) ((s) == ST_ERR_ALLOC || (s) == ST_ERR_INTERRUPTED)

/* Alternatives (same order as R's c("two.sided", "less", "greater")). */
typedef enum {
    ST_TWO_SIDED = 0,
    ST_LESS = 1,
    ST_GREATER = 2
} st_alternative;

/* One hypothesis test. */
typedef struct {
    double statistic;     /* W, F, t, D, V, ...                         */
    double df[2];         /* degrees of freedom (NAN when unused)       */
    double p_value;
    double conf_int[2];   /* NAN when not computed                      */
    double estimate[2];   /* NAN when unused                            */
    int exact;            /* 1 when the p-value is exact, 0 otherwise   */
    int status;           /* ST_OK or ST_ERR_*                          */
} st_result;

/* ==== user interrupts (util.c) =========================================== */

/* Long loops (the exact distributions, the r-Speedup sweep, a power
 * simulation) ask the callback installed here (NULL: none, the default)
 * every so many iterations; a non-zero answer makes the computation stop,
 * free what it holds and return ST_ERR_INTERRUPTED.  The R layer installs
 * a callback that tests for a pending user interrupt without jumping out
 * of the C code. */
void st_set_interrupt(int (*check)(void));

/* ==== caches kept across calls (cache.c; layout in cache.h) ============== */

/* Tables and constants the tests compute once for many calls: the exact
 * rank-sum null distribution of given sizes, Smirnov tails, Shapiro-Wilk
 * constants, a t quantile, the Mann-Kendall null distributions.  A cache
 * passed to a test changes nothing in its answers, only their cost.
 * Declare one (its layout is in cache.h), st_cache_init it, pass it to any
 * number of calls, then st_cache_free it (which leaves it empty and
 * usable again). */
typedef struct st_cache st_cache;
void st_cache_init(st_cache *c);
void st_cache_free(st_cache *c);

/* ==== component tests ===================================================== */

/* Shapiro-Wilk W (Royston 1995, AS R94), 3 <= n <= 5000 (shapiro.c).
 * Status ST_ERR_TOO_FEW (n < 3), ST_ERR_TOO_MANY (n > 5000),
 * ST_ERR_CONSTANT (all values equal) or ST_ERR_DOMAIN (a non-finite
 * value). */
typedef struct {
    int sorted;           /* 1: x comes sorted ascending (read in place)  */
    st_cache *cache;      /* keeps the constants of each sample size      */
} st_shapiro_options;     /* NULL: x in any order, nothing kept           */
int st_shapiro_wilk(const double *x, size_t n, const st_shapiro_options *opt,
                    st_result *out);

/* F-test of var(x) / var(y) = ratio (ftest.c).  estimate[0] = the ratio
 * of the variances.  Both samples constant: ST_ERR_CONSTANT; one
 * constant: F = 0 or Inf. */
typedef struct {
    /* var[0], var[1]: the variances (n - 1 divisor) of the samples of
     * sizes n and m, used instead of x and y (then unread, may be NULL) */
    const double *var;
    int no_interval;      /* 1: conf_int left NAN (no quantiles)          */
} st_var_test_options;    /* NULL: from the data, with the interval       */
int st_var_test(const double *x, size_t n, const double *y, size_t m,
                st_alternative alt, double ratio, double conf_level,
                const st_var_test_options *opt, st_result *out);

/* Two-sample t-test, Student's pooled (var_equal) or Welch's (ttest.c);
 * H0: mean_x - mean_y = mu; estimate = (mean_x, mean_y).  y == NULL gives
 * the one-sample test of mean(x) = mu (estimate[1] = NAN).  A constant
 * sample (standard error 0 or below 10 ulps of the means, as R) is
 * ST_ERR_CONSTANT. */
typedef struct {
    double mean[2];       /* of x and of y                                */
    double spread[2];     /* their standard deviations, or with
                             `variances` their variances (n - 1 divisor) */
    double size[2];       /* their sizes: with standard deviations any
                             positive numbers (as scipy's
                             ttest_ind_from_stats), with variances >= 2   */
    int variances;
} st_t_figures;           /* two samples by their summary figures         */
typedef struct {
    /* the samples by their figures (x, n, y and m then unread) */
    const st_t_figures *figures;
    int no_interval;      /* 1: conf_int left NAN (no quantile)           */
    /* not NULL, with figures as variances and alt = ST_GREATER: the test
     * of ST_LESS too, both without interval, from one evaluation of the t
     * distribution (the answers of the two calls) */
    st_result *less;
    double *std_err;      /* not NULL: the standard error of the
                             difference, as t.test reports it (NAN on
                             error)                                       */
} st_t_test_options;      /* NULL: from the data, with the interval       */
int st_t_test(const double *x, size_t n, const double *y, size_t m,
              st_alternative alt, double mu, int var_equal,
              double conf_level, const st_t_test_options *opt,
              st_result *out);

/* Two-sample Kolmogorov-Smirnov (ks.c); exact: -1 = automatic
 * (n * m < 10000), 0 = asymptotic, 1 = exact (with ties: the conditional
 * distribution).  +-Inf are ordered like other values; a NaN is
 * ST_ERR_DOMAIN. */
typedef struct {
    int sorted;           /* 1: x and y come sorted ascending (read in
                             place)                                       */
    double centre[2];     /* x - centre[0] is compared with y - centre[1] */
    st_cache *cache;      /* keeps the exact tails of the last sizes,
                             alternative and pattern of ties              */
    int *ties;            /* not NULL: 1 when the compared values have
                             ties, else 0                                 */
} st_ks_options;          /* NULL: x and y in any order, not centred      */
int st_ks_test(const double *x, size_t n, const double *y, size_t m,
               st_alternative alt, int exact, const st_ks_options *opt,
               st_result *out);

/* Wilcoxon-Mann-Whitney rank-sum test of x - mu against y (wilcoxon.c).
 * statistic = W = sum of ranks of x - n(n+1)/2 (so W / (n m) estimates
 * P[X > Y] + P[X = Y] / 2 when mu = 0); exact: -1 = automatic
 * (n < 50 and m < 50), 0 = normal approximation, 1 = exact (with ties:
 * the conditional distribution of the mid-rank sum).  With conf_int,
 * estimate[0] is the Hodges-Lehmann shift of x (as wilcox.test reports
 * it) and conf_int its interval.  Non-finite values (or x - mu
 * overflowing) are ST_ERR_DOMAIN. */
typedef struct {
    int sorted;           /* 1: x and y come sorted ascending, without NaN
                             (read in place when mu = 0)                  */
    st_cache *cache;      /* keeps the exact no-ties null distribution of
                             the last sizes, its tails and its interval's
                             quantile                                     */
    /* not NULL: the test with alt = ST_LESS too (no interval), from the
     * same ranks: the answer of that call */
    st_result *less;
    /* 1: the Hodges-Lehmann estimate and interval alone (statistic and
     * p-value NAN; out->exact: the law the test would choose) */
    int interval_only;
    /* not NULL: the confidence level the interval really has (conf_level,
     * or the achieved level when the one asked cannot be reached, as
     * wilcox.test reports it), with 1 in *ci_warn in that case */
    double *ci_level;
    int *ci_warn;
    /* not NULL: the exact law's own level of the interval (below
     * conf_level when no order statistic reaches it, even within the
     * tolerance of wilcox.test's warning); NAN with the normal law */
    double *ci_achieved;
} st_wilcoxon_options;    /* NULL: x and y in any order, nothing kept     */
int st_wilcoxon_test(const double *x, size_t n, const double *y, size_t m,
                     st_alternative alt, double mu, int exact, int correct,
                     int conf_int, double conf_level,
                     const st_wilcoxon_options *opt, st_result *out);

/* Wilcoxon signed-rank test of d - mu, zeros dropped as R drops them
 * (signrank.c).  statistic = V; exact as above (automatic: n < 50).  With
 * conf_int, estimate[0] is the pseudo-median (the Hodges-Lehmann estimate)
 * of d and conf_int its interval. */
typedef struct {
    double *ci_level;     /* as in st_wilcoxon_options                    */
    int *ci_warn;
    double *ci_achieved;
} st_signed_rank_options; /* NULL: the interval's level not reported     */
int st_signed_rank_test(const double *d, size_t n, st_alternative alt,
                        double mu, int exact, int correct, int conf_int,
                        double conf_level, const st_signed_rank_options *opt,
                        st_result *out);

/* Confidence interval for the proportion a / b (proportion.c). */
typedef enum {
    ST_PROP_TEST = 0,        /* Wilson with continuity correction (prop.test) */
    ST_PROP_WILSON = 1,
    ST_PROP_CLOPPER_PEARSON = 2,
    ST_PROP_AGRESTI_COULL = 3,
    ST_PROP_NORMAL = 4       /* C +- z sqrt(C(1-C)/b) */
} st_prop_method;
int st_proportion_ci(double a, double b, double conf_level,
                     st_prop_method method, st_result *out);

/* The minimal number of benchmarks for a proportion C known to the
 * precision r (proportion.c): ceiling(z^2 C(1-C) / r^2),
 * z = qnorm((1 + conf_level) / 2). */
double st_min_benchmarks(double proportion, double precision,
                         double conf_level);

/* ==== the exact null distributions (exact.c) ============================== */

/* The rank statistics whose exact null distributions the core counts:
 *   ST_RANK_SUM: N pooled values, a random subset of n of them (x); S2 is
 *     the doubled sum of the subset's ranks;
 *   ST_SIGNED_RANK: N values, each positive or negative with probability
 *     1/2; S2 is the doubled sum of the ranks of the positive ones.
 * Two questions are asked of them: the two tails at an observed value
 * given the ties, and the whole law without ties. */
typedef enum {
    ST_RANK_SUM = 0,
    ST_SIGNED_RANK = 1
} st_rank_statistic;

/* The tails *p_le = P[S2 <= s2] and *p_ge = P[S2 >= s2] given the ties:
 * rank2 holds the DOUBLED mid-ranks of the N values (positive whole
 * numbers, any order; 2, 4, ..., 2N without ties); n is the subset's size
 * (rank sum only).  Returns ST_OK, ST_ERR_DOMAIN (rank2 not positive
 * whole numbers, n > N, s2 not finite), ST_ERR_ALLOC, ST_ERR_INTERRUPTED
 * or ST_ERR_TOO_MANY (the counting table would exceed ST_RANKSUM_MAX_* for
 * the rank sum, ST_EXACT_MAX_CELLS cells or ST_EXACT_MAX_WORK additions
 * for the signed rank).  The tests with exact = 1 return ST_ERR_TOO_MANY
 * in the same cases (never with the automatic choice, which stays below 50
 * values per sample).  Without ties the rank-sum counts match pwilcox and
 * the signed-rank ones psignrank; with ties the two-sided p-value of the
 * tests is twice the smaller tail, capped at 1. */
int st_exact_tails(st_rank_statistic stat, const double *rank2, size_t N,
                   size_t n, double s2, double *p_le, double *p_ge);
/* The whole law without ties, as a new array (free it): prob[w] =
 * P[W = w], w = 0 .. n m, for the rank sum of samples of sizes n, m >= 1
 * (what dwilcox gives; exact counts, so correctly rounded to a few ulps at
 * every size, below 2^-1074 as 0), or P[V = v], v = 0 .. n (n + 1) / 2,
 * for the signed rank of n values (what dsignrank gives; m unread).
 * Returns ST_OK, ST_ERR_ALLOC, ST_ERR_INTERRUPTED, ST_ERR_DOMAIN or
 * ST_ERR_TOO_MANY (the size limits of the tests' exact = 1). */
int st_exact_law(st_rank_statistic stat, size_t n, size_t m, double **prob,
                 size_t *len);
#define ST_EXACT_MAX_CELLS ((size_t) 1 << 23)
#define ST_EXACT_MAX_WORK 2.0e9
/* The rank-sum count keeps a band of each row (see exact.c): at most
 * ST_RANKSUM_MAX_CELLS cells (8 bytes each) and ST_RANKSUM_MAX_WORK cell
 * additions for the band around the mean sum, and N (k + 1) <=
 * ST_RANKSUM_MAX_SCAN for planning it (k = the smaller group).  These
 * admit n = m = 500 with ties in a few seconds. */
#define ST_RANKSUM_MAX_CELLS ((size_t) 1 << 26)
#define ST_RANKSUM_MAX_WORK 4.0e10
#define ST_RANKSUM_MAX_SCAN 1.0e8
/* The exact no-ties table holds about k (N - k) / 2 counts of
 * log2 choose(N, k) / 64 + 2 limbs (8 bytes each); at most this many. */
#define ST_RANKSUM_MAX_LIMBS 3.3554432e7

/* ==== selection (select.c) ================================================ */

/* The order statistics vals[q] = the ks[q]-th smallest (1-based,
 * ks[0] <= ... <= ks[cnt-1], 1 <= cnt <= 4) of the pairwise differences
 * a[i] - b[j] (a and b ASCENDING) or, with b NULL, of the Walsh averages
 * (a[i] + a[j]) / 2, i <= j (a ascending), without forming them: O(1)
 * memory beyond a buffer of at most 2^22 values, O((na + nb) log(na nb) /
 * log(na + nb)) expected time (sampled selection between two pivot values
 * counted by staircase walks; ranks close together are searched in one
 * bracket).  Returns ST_OK, ST_ERR_ALLOC, ST_ERR_TOO_MANY (the count of
 * values overflows) or ST_ERR_DOMAIN (an empty sample, cnt out of 1..4, a
 * rank out of range or out of order). */
int st_pairwise_kths(const double *a, size_t na, const double *b, size_t nb,
                     const uint64_t *ks, int cnt, double *vals);

/* ==== sorting (util.c) ==================================================== */

/* Sorts x ascending in place (no NaN: callers check).  Up to 48 values
 * the sort is stable (-0 and +0 keep their order); beyond, -0 comes
 * before +0. */
void st_sort(double *x, size_t n);

/* ==== run order (run-order.c) ============================================= */

/* Mann-Kendall trend test of x against its index: statistic = Kendall's
 * S, estimate[0] = tau-b, two-sided p-value, exact without ties for
 * n < 50.  ST_ERR_TOO_FEW below 3 values, ST_ERR_DOMAIN for a non-finite
 * value, ST_ERR_CONSTANT without variability. */
typedef struct {
    /* not NULL: storage for n doubles, not overlapping x, that receives
     * the values of x sorted ascending (-0 as +0) by the merge sort that
     * counts the inversions, whenever the status is ST_OK or
     * ST_ERR_CONSTANT */
    void *sorted;
    st_cache *cache;      /* keeps the exact null distributions by size   */
} st_mann_kendall_options; /* NULL: the test alone                        */
int st_mann_kendall(const double *x, size_t n,
                    const st_mann_kendall_options *opt, st_result *out);

/* Wald-Wolfowitz runs test: P(R <= r) for n1 and n2 labels in random
 * order (NAN when n1 or n2 is below 1 or r below 2). */
double st_runs_test_lower(double n1, double n2, double r);

/* ==== the Speedup-Test protocols (protocol.c) ============================= */

/* Protocols: their codes index the protocol table (st_protocol_find), in
 * this order everywhere; ST_N_PROTOCOLS sizes every per-protocol array. */
enum {
    ST_PROTO_MEAN = 0,
    ST_PROTO_MEDIAN = 1,
    ST_PROTO_PROB = 2,      /* P[X > Y] + P[X = Y] / 2 > 1/2 (prob.c)      */
    ST_N_PROTOCOLS = 3
};

/* Centres of a sample, in this order everywhere. */
enum { ST_CENTRE_MIN = 0, ST_CENTRE_MEAN = 1, ST_CENTRE_MEDIAN = 2 };

typedef enum {
    ST_INSUFFICIENT = -1,
    ST_NOT_SIGNIFICANT = 0,
    ST_SIGNIFICANT = 1
} st_decision;

/* Which component test a protocol step ran. */
typedef enum {
    ST_STEP_SHAPIRO_X = 0,
    ST_STEP_SHAPIRO_Y = 1,
    ST_STEP_F_TEST = 2,
    ST_STEP_T_TEST = 3,
    ST_STEP_KS_TEST = 4,
    ST_STEP_WILCOXON = 5,
    ST_STEP_SHAPIRO_D = 6,          /* paired: Shapiro-Wilk on x - y     */
    ST_STEP_PAIRED_T = 7,           /* paired: the paired t-test         */
    ST_STEP_SIGNED_RANK = 8,        /* paired: signed rank of log(x / y) */
    ST_STEP_BRUNNER_MUNZEL = 9,     /* prob: the Brunner-Munzel test     */
    ST_STEP_SIGN_TEST = 10          /* paired prob: the sign test        */
} st_step_kind;

/* Caveat and advice flags (bits of st_verdict.caveats). */
enum {
    ST_CAVEAT_X_NOT_NORMAL = 1 << 0,   /* x not shown normal           */
    ST_CAVEAT_Y_NOT_NORMAL = 1 << 1,
    ST_CAVEAT_X_FEW_RUNS = 1 << 2,     /* advice: run x more than 30x  */
    ST_CAVEAT_Y_FEW_RUNS = 1 << 3,
    ST_CAVEAT_NO_LOCATION_MODEL = 1 << 4,
    ST_CAVEAT_CONSTANT = 1 << 5,       /* both samples constant        */
    ST_CAVEAT_TOO_FEW_VALUES = 1 << 6, /* fewer than 3 values          */
    ST_CAVEAT_X_UNCHECKABLE = 1 << 7,  /* constant or n > 5000         */
    ST_CAVEAT_Y_UNCHECKABLE = 1 << 8
};

/* Which exit of a flowchart the verdict took (st_verdict.branch). */
typedef enum {
    ST_BRANCH_TOO_FEW_VALUES = 0,   /* a sample has fewer than 3 values  */
    ST_BRANCH_CONSTANT = 1,         /* no variability to test            */
    ST_BRANCH_NEED_MORE_RUNS = 2,   /* rigorous stop                     */
    ST_BRANCH_STUDENT_NORMAL = 3,   /* mean: both normal, equal var.     */
    ST_BRANCH_WELCH_NORMAL = 4,     /* mean: both normal, unequal var.   */
    ST_BRANCH_STUDENT_NOT_NORMAL = 5,
    ST_BRANCH_WELCH_NOT_NORMAL = 6,
    ST_BRANCH_WILCOXON_MODEL = 7,   /* median: location model holds      */
    ST_BRANCH_WILCOXON_NO_MODEL = 8, /* median: model rejected, go on    */
    ST_BRANCH_PAIRED_SIGNED_RANK = 9, /* paired median: signed rank      */
    ST_BRANCH_PAIRED_T_NORMAL = 10, /* paired mean: differences normal   */
    ST_BRANCH_PAIRED_T_NOT_NORMAL = 11, /* paired mean: not shown normal */
    ST_BRANCH_PROB_PERMUTATION = 12, /* prob: exact permutation law      */
    ST_BRANCH_PROB_T = 13,          /* prob: the t approximation         */
    ST_BRANCH_PAIRED_SIGN = 14      /* paired prob: the sign test        */
} st_branch;

#define ST_MAX_STEPS 4

typedef struct {
    st_decision decision;
    int branch;               /* an st_branch                             */
    int guaranteed;           /* 1 when 1 - alpha is guaranteed           */
    double alpha;
    double p_value;           /* of the final test; NAN if not reached    */
    double p_value_slowdown;  /* the mirrored one-sided final test on the
                                 same path (Ha: y tends to be larger)    */
    double speedup;           /* ratio of the protocol's centre           */
    double speedup_min, speedup_mean, speedup_median;
    double speedup_ci[2];     /* two-sided 1 - 2 alpha interval for the
                                 speedup itself, each end a one-sided
                                 1 - alpha bound (the decisions are
                                 one-sided at alpha): Fieller (mean), exp
                                 of the Hodges-Lehmann interval of the
                                 shift of log times (median); NAN if the
                                 final test was not reached or alpha is
                                 0.5 or more                              */
    double speedup_estimate;  /* the interval's own estimate: the ratio of
                                 the means (mean), exp of the Hodges-
                                 Lehmann shift of log times (median)     */
    double speedup_ci_level;  /* the level speedup_ci really has: 1 - 2
                                 alpha, or the exact rank intervals' own
                                 when 1 - 2 alpha cannot be reached with
                                 these sizes (the interval is then the
                                 widest one, at that lower level); NAN
                                 when there is no interval              */
    double prob_greater;      /* median and prob protocols: estimate of
                                 P[X > Y] + P[X = Y] / 2                 */
    double prob_ci[2];        /* prob protocol: its 1 - 2 alpha interval */
    double shift;             /* median protocol: Hodges-Lehmann shift    */
    double shift_ci[2];       /*   and its two-sided 1 - alpha interval   */
    int n_steps;
    st_step_kind step_kind[ST_MAX_STEPS];
    st_result steps[ST_MAX_STEPS];
    unsigned caveats;         /* ST_CAVEAT_* bits                         */
} st_verdict;

/* The level the exact rank intervals beside a decision at alpha are asked
 * (1 - 2 alpha, taking the law's atoms at alpha as p <= alpha does), and
 * the level they then have (protocol.c). */
double st_decision_conf(double alpha);
double st_attained_level(double achieved, double alpha);

/* The options of a protocol's verdict at level 1 - alpha. */
typedef struct {
    /* x ascending, then y ascending (n + m values), or NULL: sorted here */
    const double *sorted;
    /* st_mean(x, n) and st_mean(y, m), or NULL (read by the mean) */
    const double *means;
    st_cache *cache;          /* kept across the caller's calls           */
    /* 1: only the fields a suite reads (decision, branch, guaranteed,
     * caveats, p-values, the speedup's interval; no sub-test intervals,
     * no Hodges-Lehmann shift; the median protocol with `sorted` leaves
     * speedup_mean to the caller) */
    int suite;
    /* median protocol without `sorted`: when trend_min > 0, the
     * Mann-Kendall test of each sample of at least trend_min values in its
     * recorded order goes to trend[0] (x) and trend[1] (y) (ST_ERR_TOO_FEW
     * below), made by the merge sort that sorts the data */
    size_t trend_min;
    st_result *trend;
} st_protocol_options;        /* NULL: a verdict on x and y alone         */

/* A protocol as data: what the core does for it, one row of the protocol
 * table (protocol.c) per code.  A capability a protocol lacks is NULL;
 * asking for it gives ST_ERR_UNSUPPORTED, never another protocol's
 * answer. */
typedef struct {
    const char *name;
    /* the centre (ST_CENTRE_*) whose observed ratio is the verdict's
     * speedup, and whose significant-only gain of a suite its decisions
     * choose (of a suite's protocols with that centre, the first in the
     * table) */
    int centre;
    /* 1: run() makes the trend tests of st_protocol_options */
    int trend;
    /* the verdict at level 1 - alpha (st_protocol) */
    int (*run)(const double *x, size_t n, const double *y, size_t m,
               double alpha, int rigorous, const st_protocol_options *opt,
               st_verdict *out);
    /* the smallest alpha at which it declares significance, from the
     * exact candidates (st_highest_alpha) */
    int (*highest)(const double *x, size_t n, const double *y, size_t m,
                   int rigorous, st_cache *cache, double *alpha);
    /* its four final tests at the tolerance s0 (st_tolerance_tests);
     * pooled: the mean's branch (1 Student, 0 Welch, -1 from its F-test
     * at alpha), unread by the others */
    int (*tolerance)(const double *x, size_t n, const double *y, size_t m,
                     int pooled, double alpha, double s0, double p[4]);
    /* its paired twin on n complete rounds (st_paired_protocol) */
    int (*paired)(const double *x, const double *y, size_t n, double alpha,
                  int rigorous, st_verdict *out);
} st_protocol_def;

/* The row of protocol proto, NULL for a code outside the table. */
const st_protocol_def *st_protocol_find(int proto);
/* The verdict of protocol proto at level 1 - alpha (ST_ERR_DOMAIN for an
 * unknown protocol). */
int st_protocol(int proto, const double *x, size_t n, const double *y,
                size_t m, double alpha, int rigorous,
                const st_protocol_options *opt, st_verdict *out);

/* What every protocol does first: *v reset to "insufficient data" at
 * alpha, then alpha in (0, 1) and the run times (finite, positive; n + m
 * within what a protocol copies) checked: ST_OK, ST_ERR_DOMAIN or
 * ST_ERR_TOO_MANY.  st_verdict_observed: the observed speedups of the
 * minimum, mean and median into *v; st_verdict_observed_means the same
 * with st_mean() of x and of y already made (means, or NULL). */
int st_verdict_start(st_verdict *v, double alpha, const double *x, size_t n,
                     const double *y, size_t m);
int st_verdict_observed(st_verdict *v, const double *x, size_t n,
                        const double *y, size_t m);
int st_verdict_observed_means(st_verdict *v, const double *x, size_t n,
                              const double *y, size_t m,
                              const double *means);

/* The smallest alpha in (0, 0.5] at which protocol proto declares
 * significance (the highest confidence is 1 - alpha; alpha itself keeps
 * the exact breakpoint that rounding 1 - alpha would lose): 0 when
 * significance holds for every alpha > 0 (a p-value of 0), NAN if none.
 * cache (may be NULL): kept across the caller's calls. */
int st_highest_alpha(int proto, const double *x, size_t n, const double *y,
                     size_t m, int rigorous, st_cache *cache,
                     double *alpha);

/* Observed speedups c(x) / c(y) of the minimum, the mean and the median,
 * in that order (NAN when a sample is empty). */
int st_observed_speedups(const double *x, size_t n, const double *y,
                         size_t m, double speedups[3]);

/* ==== the probability protocol (prob.c) =================================== */

/* The rows of the protocol table for P[X > Y] + P[X = Y] / 2 > 1/2: the
 * Brunner-Munzel test (studentized permutation law when choose(n + m, n)
 * splits can be enumerated, the t law beyond), the smallest significant
 * alpha, the tests at the margin s0 - 1 on the probability, and the sign
 * test of the rounds (ties split).  rigorous is unread (no model). */
int st_prob_protocol(const double *x, size_t n, const double *y, size_t m,
                     double alpha, int rigorous,
                     const st_protocol_options *opt, st_verdict *out);
int st_prob_highest(const double *x, size_t n, const double *y, size_t m,
                    int rigorous, st_cache *cache, double *alpha);
int st_tolerance_prob(const double *x, size_t n, const double *y, size_t m,
                      int pooled, double alpha, double s0, double p[4]);
int st_paired_prob(const double *x, const double *y, size_t n, double alpha,
                   int rigorous, st_verdict *out);

/* ==== paired designs and variance components (paired.c) ================== */

/* The paired twin of protocol proto on n complete rounds (x[i] and y[i]
 * ran in round i) at level 1 - alpha (ST_ERR_UNSUPPORTED for a protocol
 * without one).  The mean protocol's not-normal and few-runs flags
 * concern the differences and use the X bits. */
int st_paired_protocol(int proto, const double *x, const double *y,
                       size_t n, double alpha, int rigorous, st_verdict *out);
/* The paired twins of the mean and of the median (rows of the table). */
int st_paired_mean(const double *x, const double *y, size_t n, double alpha,
                   int rigorous, st_verdict *out);
int st_paired_median(const double *x, const double *y, size_t n,
                     double alpha, int rigorous, st_verdict *out);

/* One-way random-effects ANOVA of v grouped by group (1-based codes):
 * out = s2_within, s2_between (truncated at 0), MSW, MSB, n0, groups. */
int st_variance_components(const double *v, const int *group, size_t n,
                           double out[6]);

/* ==== rounds and processes (replication.c) ================================= */

/* The complete rounds of nseg pairs of samples: the round codes of the
 * units of sample x of pair s are rx[x_off[s]] .. rx[x_off[s + 1] - 1]
 * (likewise y), `na` meaning no round.  complete[s]: the rounds holding
 * exactly one unit of each sample; rounds[s]: the distinct rounds;
 * shared[s]: the rounds holding units of both samples; each
 * unit of a complete round gets in pos_x / pos_y the rank of its round
 * among the complete rounds of its pair (1 = lowest round), the others 0;
 * index_x / index_y receive the units of the complete rounds (1-based
 * within their sample) in increasing round, the pairs one after the other
 * (room for the sum over the pairs of min(x units, y units)).  Each of the
 * four outputs may be NULL (pos_x with pos_y, index_x with index_y).
 * ST_ERR_TOO_MANY when a sample has INT_MAX units or more. */
int st_round_pairs(const int *rx, const size_t *x_off, const int *ry,
                   const size_t *y_off, size_t nseg, int na, int *complete,
                   int *rounds, int *shared, int *pos_x, int *pos_y,
                   int *index_x, int *index_y);

/* One pair of st_round_pairs(): the units' values x[index_x - 1] and
 * y[index_y - 1] of its complete rounds in out_x and out_y (room for
 * min(nx, ny)), in increasing round, instead of the indices. */
int st_round_pair_values(const int *rx, size_t nx, const int *ry, size_t ny,
                         const double *x, const double *y, int na,
                         int *complete, int *rounds, int *shared,
                         double *out_x, double *out_y);

/* Per-process summaries of the n runs t grouped by group (codes 1..k):
 * value (the mean, or the median when `median`, as R computes them, of
 * the first `take` runs of each process, of all its runs when take is 0), the
 * runs, the common round of the runs (round may be NULL; `na` when they
 * differ) and the first run's excess over the mean of the others (NaN for
 * one run). */
int st_process_units(const double *t, const int *group, const int *round,
                     size_t n, size_t k, int na, int median, size_t take,
                     double *value, int *runs, int *unit_round,
                     double *excess);

/* The process labels of the runs of nb benchmarks, the runs of each
 * benchmark together, x (side 1) before y (side 2); label codes 1..u or
 * `na`: per benchmark whether a run has no label, the distinct labels of
 * x and of y, and whether a label is on both sides. */
int st_process_counts(const int *bench, const int *side, const int *code,
                      size_t n, size_t nb, size_t u, int na, int *has_na,
                      int *kx, int *ky, int *shared);

/* What the structure columns change for each benchmark when no rounds
 * are paired (replication.R's structure_actions()): act[j] 1 none, 2
 * single (rule 2), 3 full, from the runs of each version, the process
 * counts (kx NULL: no labels), bad[j] and replication (0 auto, 1 process,
 * 2 run; ST_ERR_DOMAIN otherwise). */
int st_structure_actions(size_t nb, const int *nx, const int *ny,
                         const int *kx, const int *ky, const int *shared,
                         const int *has_na, const int *bad, int replication,
                         int *act);

/* The smallest and largest present label (ilab: `na` for none; dlab:
 * NaN for none) and whether one is present: 1 when every present label
 * is finite and whole and one is present. */
int st_label_span(const int *ilab, const double *dlab, size_t n, int na,
                  double *lo, double *hi, int *labelled);

/* Codes label - min + 1 of whole-number labels over a span of at most
 * 4 n + 64 (integer labels ilab, `na` kept; or double labels dlab, all
 * finite and whole): 1 with the codes and their largest in *u, else 0. */
int st_offset_codes(const int *ilab, const double *dlab, size_t n, int na,
                    int *code, int *u);

/* ==== one benchmark of timings (protocol-input.c) ======================== */

/* The rows of each version code 1..nlev (count[0..nlev)) among the n rows
 * with sel[i] == 1 (every row when sel is NULL) and marked[i] != 1 (or
 * marked NULL); codes equal to `na` are skipped.  ST_ERR_DOMAIN when a
 * code lies outside 1..nlev. */
int st_pair_counts(size_t n, const int *sel, const int *marked,
                   const int *vcode, int nlev, int na, size_t *count);

/* The same rows whose code maps to side[code - 1] 1 (x) or 2 (y): their
 * 1-based numbers in table order in rows_x (cap_x of them) and rows_y
 * (cap_y) when not NULL, their ranks among the rows of both sides in
 * pos_x and pos_y (when not NULL); *order_side 1 when the keys (ts,
 * then run; either may be NULL) of each side's rows are non-decreasing
 * with none missing,
 * *order_both the same over both sides, *ts_na 1 when a row's ts is NaN;
 * with g->time (g->round) the time (round) of each of those rows in
 * time_x and time_y (round_x and round_y), in the order of the rows.
 * ST_ERR_DOMAIN when a code lies outside 1..nlev or a side does not have
 * exactly its cap; ST_ERR_TOO_MANY when n exceeds INT_MAX. */
typedef struct {
    const double *time;         /* NULL: no times gathered */
    double *time_x, *time_y;
    const int *round;           /* NULL: no rounds gathered */
    int *round_x, *round_y;
    int plain;                  /* in: 1; out: 0 when a time gathered is
                                 * not finite and > 0 */
} st_pair_gather;
int st_pair_rows(size_t n, const int *sel, const int *marked,
                 const int *vcode, int nlev, const int *side, const int *run,
                 const double *ts, int na, size_t cap_x, size_t cap_y,
                 int *rows_x, int *rows_y, int *pos_x, int *pos_y,
                 st_pair_gather *g, int *order_side, int *order_both,
                 int *ts_na);

/* The same rows when each side holds every round of [lo, lo + m) once:
 * *done 1 with the times of side 1 in out_x and of side 2 in out_y, each
 * at the place round - lo of its round (room for m), and *lo_out, when
 * besides each side's rows are in order of `run` (over both sides too
 * when `global`; run may be NULL) and every time is finite and > 0;
 * *done 0 otherwise (out_x and out_y then hold nothing to read).
 * ST_ERR_DOMAIN when a code lies outside 1..nlev. */
int st_pair_by_round(size_t n, const int *sel, const int *marked,
                     const int *vcode, int nlev, const int *side,
                     const int *run, int na, int global, const double *time,
                     const int *round, size_t m, double *out_x,
                     double *out_y, int *lo_out, int *done);

/* ==== timings grouped (suite-timings.c) ================================== */

/* The n rows of timings, row i in group group[i] (1..ng): order[] receives
 * the rows (0-based) group after group, each group's rows in row order or,
 * when run is not NULL, by run[] (ties in row order); count[g] the rows of
 * group g + 1.  ST_ERR_DOMAIN for a code outside 1..ng. */
int st_group_order(const int *group, const double *run, size_t n, size_t ng,
                   int *order, int *count);

/* The rows of timings grouped by benchmark bench[i] (1..nb) and version
 * version[i] (1 or 2), group 2 (bench - 1) + version, as st_group_order();
 * *clean: every time[i] finite and positive (time NULL: 1). */
int st_timings_group(const int *bench, const int *version, const double *run,
                     const double *time, size_t n, size_t nb, int *order,
                     int *count, int *clean);

/* st_timings_group() for a suite, in one pass: the benchmark codes per row
 * (bench) or per start row (starts, 1-based, increasing), integer (irun)
 * or double (drun) run numbers or none; besides the order and counts, the
 * times in that order (values) and, when code is not NULL (label codes
 * 1..u, `na` for none), per benchmark the counts of st_process_counts()
 * over the grouped rows. */
int st_timings_suite(const int *bench, const int *starts, size_t nstarts,
                     const int *version, const int *irun, const double *drun,
                     const double *time, const int *code, size_t u, int na,
                     size_t n, size_t nb, int *order, int *count,
                     double *values, int *clean, int *has_na, int *kx,
                     int *ky, int *shared);

/* The two steps of st_timings_suite_blocks(): the scan of the blocks
 * (first[g], their first rows, 2 nb of them; count, *clean; *in_order when
 * they come in group order, the times then needing no copy) and the
 * gathering of the times (values; NULL: not copied), the rows (order; NULL:
 * none) and the labels' counts.  ST_ERR_DOMAIN when the rows are not such
 * blocks or a label code is out of range. */
int st_timings_blocks_scan(const int *bench, const int *starts, size_t nstarts,
                           const int *version, const int *irun,
                           const double *drun, const double *time, size_t n,
                           size_t nb, size_t *first, int *count, int *clean,
                           int *in_order);
int st_timings_blocks_gather(const size_t *first, const int *count, size_t nb,
                             const double *time, double *values, int *order,
                             const int *ilab, const double *dlab, double lab_lo,
                             size_t u, int na, int *has_na, int *kx, int *ky,
                             int *shared);

/* st_timings_suite() for rows in contiguous blocks, one per (benchmark,
 * version) group, in run order, read in place: the process labels as given
 * (integer ilab or double dlab, code label - lab_lo + 1, at most u; both
 * NULL: none) and order only when not NULL.  ST_ERR_DOMAIN when the rows
 * are not such blocks (st_timings_suite() then decides). */
int st_timings_suite_blocks(const int *bench, const int *starts, size_t nstarts,
                            const int *version, const int *irun,
                            const double *drun, const double *time,
                            const int *ilab, const double *dlab, double lab_lo,
                            size_t u, int na, size_t n, size_t nb, int *order,
                            int *count, double *values, int *clean,
                            int *has_na, int *kx, int *ky, int *shared);

/* ==== tolerance and equivalence (tolerance.c) ============================= */

/* The direction a verdict with a tolerance declares (as R's verdicts
 * name them; ffi_codes() names them for the R side). */
typedef enum {
    ST_DIRECTION_NA = -1,         /* no decision (insufficient data)     */
    ST_DIRECTION_NONE = 0,        /* nothing declared                    */
    ST_DIRECTION_SPEEDUP = 1,
    ST_DIRECTION_SLOWDOWN = 2,
    ST_DIRECTION_EQUIVALENT = 3   /* within the tolerance both ways      */
} st_direction;

/* The one-sided final tests of protocol proto at the factor s0 > 0, in
 * p[4]: speedup beyond s0, slowdown beyond s0, not more than s0 faster,
 * not more than s0 slower (the last two together: equivalence within
 * s0).  The mean protocol's t-tests are Student's (pooled = 1) or
 * Welch's. */
int st_tolerance_tests(int proto, const double *x, size_t n, const double *y,
                       size_t m, int pooled, double s0, double p[4]);
/* The rows of the table: the mean's t-tests (pooled as in
 * st_protocol_def.tolerance) and the median's rank-sum tests. */
int st_tolerance_mean(const double *x, size_t n, const double *y, size_t m,
                      int pooled, double alpha, double s0, double p[4]);
int st_tolerance_median(const double *x, size_t n, const double *y, size_t m,
                        int pooled, double alpha, double s0, double p[4]);

/* The decision of protocol proto with the tolerance s0: the flowchart's
 * path, then its final tests at s0 (the protocol's own when s0 = 1,
 * without equivalence); *direction: an st_direction.  cache (may be
 * NULL): kept across the caller's calls. */
int st_decide(const double *x, size_t n, const double *y, size_t m, int proto,
              double alpha, int rigorous, double s0, int *direction,
              st_cache *cache);

/* The power of that decision by simulation: for each of the k sizes
 * (n[i] runs of x, m[i] of y), the share of reps replicates, drawn with
 * replacement from the relative run times rx and ry / speedup, that
 * declare the direction `want`; the replicates of each size start from
 * the same seed.  smooth (may be NULL: the runs themselves): the smoothed
 * bootstrap's {c0, k, h, keep} of x then of y and the degrees of freedom
 * of the observed spread (9 values; see tolerance.c), which then needs
 * positive run times. */
int st_power_sim(const double *rx, size_t nx, const double *ry, size_t ny,
                 double speedup, int proto, double alpha, int rigorous,
                 double s0, int want, const double *n, const double *m,
                 size_t k, size_t reps, uint64_t seed, const double *smooth,
                 double *power);

/* ==== suites of benchmarks (suite.c) ====================================== */

/* A suite is analysed benchmark by benchmark (st_suite_bench, streamed in
 * chunks by the R layer), then summarised from the per-benchmark columns
 * kept (st_suite_summarise). */

typedef enum {
    ST_WEIGHTS_CUSTOM = 0,    /* user weights, one per benchmark        */
    ST_WEIGHTS_EQUAL = 1,
    ST_WEIGHTS_FRACTION = 2   /* the initial code's time under a centre */
} st_weights;

/* One protocol's verdict on one benchmark of a suite. */
typedef struct {
    double highest;             /* highest confidence (NAN: none/unused) */
    double alpha;               /* alpha the verdict was taken at        */
    st_decision decision;
    int guaranteed;
    unsigned caveats;
    double p_value;
    double p_value_slowdown;    /* mirrored final test (slowdown)       */
    double speedup_ci[2];
    double speedup_estimate;    /* the interval's own estimate           */
    double speedup_ci_level;    /* the level it really has (st_verdict)  */
} st_bench_protocol;

/* One benchmark of a suite: the protocols asked for and the observed
 * centres. */
typedef struct {
    int status;                 /* ST_OK, or why it could not be analysed */
    double centre_x[3], centre_y[3];   /* min, mean, median            */
    double speedup[3];          /* centre_x / centre_y                   */
    int searched;               /* 1 when alpha came from the search     */
    size_t k;                   /* protocols run                         */
    st_bench_protocol proto[ST_N_PROTOCOLS];   /* in the order asked     */
    double prob_greater;        /* estimate of P[X > Y] of the first
                                   protocol that reports one             */
    double prob_ci[2];          /* the probability protocol's interval of
                                   P[X > Y] (NAN when it was not run)    */
} st_bench_result;

/* The protocols protos[0 .. k-1] (distinct codes, k <= ST_N_PROTOCOLS) on
 * one benchmark at level alpha; alpha = NAN searches the highest
 * confidence and reports it on the 0.01 grid (see suite.c).  cache (may
 * be NULL): kept across the benchmarks. */
int st_suite_bench(const double *x, size_t n, const double *y, size_t m,
                   double alpha, int rigorous, const int *protos, size_t k,
                   st_bench_result *out, st_cache *cache);

typedef struct {
    st_weights weights;         /* weights asked for                     */
    double prop_conf_level;
    st_prop_method prop_method;
    double precision;           /* r of the minimal number of benchmarks */
} st_suite_options;

typedef struct {
    st_weights weights;         /* weights used (custom may fall back)   */
    double gain[3], speedup[3];          /* all analysed benchmarks      */
    double gain_sig[3], speedup_sig[3];  /* the significant ones only    */
    size_t n_used, n_sig[3];
    double b;                   /* analysed benchmarks                   */
    /* per protocol of the columns, in their order: accelerated
     * benchmarks, the proportion's estimate and interval, 1 when
     * a (1 - a/b) > 5, the minimal number of benchmarks */
    double a[ST_N_PROTOCOLS];
    st_result prop[ST_N_PROTOCOLS];
    int valid[ST_N_PROTOCOLS];
    double min_benchmarks[ST_N_PROTOCOLS];
} st_suite_summary;

/* The columns kept per benchmark (status, centres, decisions as
 * doubles): decision[i] of protocol protos[i], i < k. */
typedef struct {
    size_t nb;
    const double *status;
    const double *centre_x[3], *centre_y[3];
    size_t k;
    int protos[ST_N_PROTOCOLS];
    const double *decision[ST_N_PROTOCOLS];
} st_suite_columns;

/* Weights (nb x 3, column-major by centre, each column summing to 1 over
 * the analysed benchmarks), overall gains and speedups, proportions. */
int st_suite_summarise(const st_suite_columns *cols, const double *custom,
                       const st_suite_options *opt, double *weights,
                       st_suite_summary *out);

/* ==== HPT: the Hierarchical Performance Test (hpt.c) ====================== */

/* Two performance matrices, benchmark after benchmark: benchmark i has
 * a_len[i] runs of A and b_len[i] runs of B (each >= 3, values > 0). */
typedef struct {
    size_t n;                 /* benchmarks                                */
    const double *a;
    const size_t *a_len;
    const double *b;
    const size_t *b_len;
    int higher_is_better;     /* 1: scores, 0: times                       */
    double alpha_bench;       /* level of the per-benchmark tests          */
    int exact_ties;           /* 1: exact conditional null distributions  */
} st_hpt_input;

/* Arrays of length n are supplied by the caller.  median_a is A's median
 * handicapped by gamma; d is oriented (> 0: A better); winner 1 (A),
 * -1 (B), 0 (tie); w_a is A's Mann-Whitney count (mid-ranks). */
typedef struct {
    double *median_a, *median_b, *d, *rank, *w_a, *p_a, *p_b;
    int *winner;
    double r_a, r_b, confidence;
    int exact_bench, exact_overall;
} st_hpt_result;

/* Confidence that A is more than gamma times faster than B. */
int st_hpt(const st_hpt_input *in, double gamma, st_hpt_result *out);

/* The r-Speedup: *supremum = sup{gamma >= 1: confidence(gamma) >= level}
 * (INFINITY if unbounded, NAN if empty; *attained when the confidence at
 * the supremum itself reaches the level); *speedup = the largest multiple
 * of precision, <= the supremum, at which st_hpt reaches the level.  The
 * search is near-linear in the benchmarks. */
typedef struct {
    /* 1: every candidate point instead, about n^2 of them (the reference
     * the search is checked against; always so with exact_ties) */
    int every_candidate;
} st_hpt_speedup_options; /* NULL: the search                             */
int st_hpt_speedup(const st_hpt_input *in, double level, double precision,
                   const st_hpt_speedup_options *opt, double *speedup,
                   double *supremum, int *attained);

/* ==== change points along a series of a history (changes.c) ============== */

/* A series: k commits in first-parent order, commit c holding the
 * per-process values value[start[c]] .. value[start[c + 1] - 1] (start[0]
 * = 0, each commit at least one value, all finite).  A change at c (its
 * first bad commit) separates the commits before c from those from c on. */

/* One triplet of the Lean Bonferroni scan: the window of commits
 * [from, to) split at `split`, its scale (the level l of windows of 2^l
 * to 2^(l+1) - 1 commits), its Bonferroni block and the level alpha /
 * (H * block * |block|) its two-sided rank-sum test is made at. */
typedef struct {
    size_t from, to, split;
    int scale, block;
    double level;
} st_scan_triplet;

/* The triplets of a series of k commits at the overall level alpha, as a
 * new array (free it; none, and *len = 0, below 4 commits); their levels
 * add up to alpha.  With start (may be NULL) the triplets that cannot
 * reject at their level with the processes' counts (each half tested on
 * at most max_half processes) are left out and the levels shared among
 * the rest.  ST_OK, ST_ERR_DOMAIN (alpha outside (0, 1)) or
 * ST_ERR_ALLOC. */
int st_scan_grid(const size_t *start, size_t k, double alpha,
                 size_t max_half, st_scan_triplet **out, size_t *len);

typedef struct {
    size_t max_half;      /* a window's half is tested on at most this many
                             evenly spaced processes (0: 128)            */
    double margin;        /* >= 0: a window rejects only a shift beyond
                             +-margin between its halves (0: any change) */
} st_scan_options;        /* NULL: the defaults                           */

/* A change certified by the scan: the window of the triplet that rejected
 * (its first bad commit lies in from + 1 .. to - 1 with the scan's
 * guarantee), the estimated first bad commit (the window's split with the
 * largest standardised rank sum), the triplet's exact two-sided p-value
 * and the Bonferroni-adjusted one (p_local * alpha / level, <= alpha). */
typedef struct {
    size_t from, to, split, first_bad;
    double p_value, p_local;
} st_scan_change;

/* Lean Bonferroni changepoint detection (Jang and Walther 2024) with
 * exact rank-sum tests: with probability at least 1 - alpha every
 * reported range holds a change.  The changes come as a new array (free
 * it), ordered along the series, with disjoint ranges.  ST_OK,
 * ST_ERR_TOO_FEW (k = 0), ST_ERR_DOMAIN (a commit without values, a
 * non-finite value, alpha outside (0, 1)), ST_ERR_ALLOC or
 * ST_ERR_INTERRUPTED. */
int st_scan_changes(const double *value, const size_t *start, size_t k,
                    double alpha, const st_scan_options *opt,
                    st_scan_change **changes, size_t *n_changes);

/* The figures of a change from the processes either side of it, bounded
 * by the neighbouring changes: their counts, the ratio new / old (exp of
 * the Hodges-Lehmann shift of log times) with its two-sided 1 - 2 alpha
 * interval, and the tolerance's four one-sided rank-sum p-values of the
 * median protocol (old as x, new as y: p[0] the new code faster beyond
 * s0, p[1] slower beyond s0, p[2] not more than s0 faster, p[3] not more
 * than s0 slower; st_tolerance_tests). */
typedef struct {
    size_t n_before, n_after;
    double ratio, conf[2];
    double p[4];
} st_change_figure;

/* For r changes with first bad commits first_bad[0] < ... < first_bad[r -
 * 1] (each in 1 .. k - 1), out[r] filled.  ST_OK, ST_ERR_DOMAIN (a value
 * <= 0, changes out of range or order, alpha outside (0, 0.5), s0 < 1),
 * ST_ERR_ALLOC or ST_ERR_INTERRUPTED. */
int st_change_figures(const double *value, const size_t *start, size_t k,
                      const size_t *first_bad, size_t r, double alpha,
                      double s0, st_change_figure *out);

/* ==== E-divisive change points (edivisive.c) ============================= */

/* E-divisive (Matteson and James 2014) on a univariate series: splits at
 * the largest energy distance, each split kept when the permutation test
 * (permutations within the current segments) rejects at sig_level, or a
 * fixed number of splits without a test (max_changes > 0). */
typedef struct {
    double sig_level;     /* level of each permutation test               */
    size_t permutations;  /* R                                            */
    size_t min_size;      /* fewest values of a segment (>= 2)            */
    double exponent;      /* a of |x - y|^a, in (0, 2]                    */
    size_t max_changes;   /* > 0: exactly so many splits (while possible),
                             no test (p-values 0)                         */
    uint64_t seed;        /* of the permutations                          */
} st_edivisive_options;
typedef struct {
    size_t n_changes;
    size_t *change;       /* first index (0-based) of each new segment, in
                             the order found (malloc'ed: free it)        */
    double *p_value;      /* the permutation p-value of each             */
} st_edivisive_result;
/* ST_OK, ST_ERR_DOMAIN (an option out of range, a non-finite value),
 * ST_ERR_TOO_MANY (more than ST_EDIVISIVE_MAX_N values: each test costs
 * R n^2 distances), ST_ERR_ALLOC or ST_ERR_INTERRUPTED. */
#define ST_EDIVISIVE_MAX_N 20000
int st_edivisive(const double *x, size_t n, const st_edivisive_options *opt,
                 st_edivisive_result *out);

/* ==== change points in a series (pelt.c) ================================ */

/* PELT (Killick, Fearnhead and Eckley 2012) with a normal cost, as the
 * CRAN package changepoint's cpt.mean / cpt.meanvar (method "PELT"). */
typedef enum {
    ST_PELT_MEANVAR = 0,  /* normal mean and variance (MLE variance)       */
    ST_PELT_MEAN = 1      /* normal mean, variance 1                       */
} st_pelt_cost;
/* Scratch arrays for series of up to cap values, reused over many calls
 * (st_pelt_work_init: ST_OK or ST_ERR_ALLOC; free with st_pelt_work_free). */
typedef struct {
    size_t cap;
    double *s, *q, *f, *like;
    size_t *last, *cand, *pos;
} st_pelt_work;
int st_pelt_work_init(st_pelt_work *w, size_t n);
void st_pelt_work_free(st_pelt_work *w);
/* The change points of x[0 .. n-1] (each the 1-based last index of a
 * segment before a change, increasing) into cpts (room for n), their count
 * into *ncpts.  penalty >= 0 on each change; mbic adds log(length) to each
 * segment's cost (changepoint's MBIC); segments hold at least minseg >= 1
 * values (no change when n < 2 minseg).  step 1: the exact search; step
 * b > 1: changes searched on a grid of every b-th value, then again near
 * those found (pelt.c).  work may be NULL (allocated in
 * the call) or hold at least n.  ST_OK, ST_ERR_TOO_FEW (n = 0),
 * ST_ERR_DOMAIN (a non-finite value, a bad penalty or minseg),
 * ST_ERR_TOO_MANY, ST_ERR_ALLOC or ST_ERR_INTERRUPTED. */
int st_pelt(const double *x, size_t n, st_pelt_cost cost, double penalty,
            int mbic, size_t minseg, size_t step, st_pelt_work *work,
            size_t *cpts, size_t *ncpts);

/* ==== warm-up and steady state of a process (warmup.c) =================== */

/* Classes of a process (Barrett et al. 2017; SPEC section 13). */
enum {
    ST_WARMUP_FLAT = 0,
    ST_WARMUP_WARMUP = 1,
    ST_WARMUP_SLOWDOWN = 2,
    ST_WARMUP_NO_STEADY = 3,
    ST_WARMUP_TOO_SHORT = 4   /* fewer than 2 minseg iterations            */
};
typedef struct {
    double penalty;    /* PELT's penalty on each change (e.g. 15 log n)    */
    size_t minseg;     /* minimum segment length, >= 2                     */
    size_t step;       /* PELT's grid (1: exact)                           */
    size_t window;     /* iterations of the outlier rule's rolling window  */
    double outlier_k;  /* outliers beyond median +- k (q90 - q10)          */
    size_t steady;     /* no steady state: it starts in the last `steady`  */
    double margin;     /* segments equivalent within a factor 1 + margin   */
    double alpha;      /* level of the two one-sided tests                 */
} st_warmup_options;
typedef struct {
    int cls;                  /* ST_WARMUP_*                               */
    size_t steady_iteration;  /* 1-based first steady iteration, 0: none   */
    double steady_time;       /* sum of the times before it (NAN: none)    */
    double steady_median;     /* median of the steady iterations           */
    size_t changes, outliers;
} st_warmup_result;
/* The rolling outlier rule on x[0 .. n-1]: bounds lo[i], hi[i] =
 * median -+ k (q90 - q10) of the `window` values around i, and outlier[i]
 * = 1 outside them.  ST_OK, ST_ERR_DOMAIN (a non-finite value, window 0,
 * k < 0) or ST_ERR_ALLOC. */
int st_warmup_outliers(const double *x, size_t n, size_t window, double k,
                       double *lo, double *hi, int *outlier);
/* The class of one process's iterations x[0 .. n-1] (positive, in the
 * order they ran): change points into cpts (room for n), outlier flags
 * into outlier (n), each segment's median into seg_median (room for
 * n + 1).  work may be NULL.  ST_OK, ST_ERR_TOO_FEW, ST_ERR_DOMAIN,
 * ST_ERR_ALLOC or ST_ERR_INTERRUPTED. */
int st_warmup_classify(const double *x, size_t n,
                       const st_warmup_options *opt, st_pelt_work *work,
                       st_warmup_result *res, size_t *cpts, int *outlier,
                       double *seg_median);

/* ==== helpers shared by the core's files ================================== */

/* These are the pieces several of the core's files build on; they are not
 * concepts of their own and the R layer never calls them. */

/* Results (util.c): st_result_init sets every field NAN, exact 0, status
 * ST_OK; st_result_fail resets *r, records status in it and returns
 * status (for error exits). */
void st_result_init(st_result *r);
int st_result_fail(st_result *r, int status);

/* The installed interrupt callback's answer (util.c; 0 without one). */
int st_check_interrupt(void);

/* malloc for count objects of size bytes, NULL when count * size does not
 * fit in a size_t (or memory is short); a count of 0 still gets one
 * object, so that NULL always means a failure. */
static inline void *st_malloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) return NULL;
    return malloc((count ? count : 1) * size);
}

/* Moments as R computes them (util.c): mean() with its refinement pass,
 * var() with the n - 1 divisor. */
double st_mean(const double *x, size_t n);
double st_var(const double *x, size_t n, double mean);

/* Sorting and order (util.c).  st_sorted_copy: a sorted malloc'ed copy;
 * st_median_sorted: the median of an ascending vector; st_is_constant:
 * 1 when all values are equal. */
double *st_sorted_copy(const double *x, size_t n);
double st_median_sorted(const double *xs, size_t n);
/* The median of x (n values, no NaN) by selection, O(n) expected: in a
 * copy, or from 8192 values among those between two order statistics of
 * a sample of x (Floyd and Rivest); the value st_median_sorted() gives on
 * the sorted values; NaN when no copy can be allocated.  min (may be
 * NULL) receives the smallest value. */
/* The k-th smallest (0-based) of a[0..n-1] (n >= 1), which it reorders:
 * a[k] holds it, the values before it are not larger, those after not
 * smaller (quickselect, sorting a range that does not shrink). */
double st_select_kth(double *a, size_t n, size_t k);
double st_median_select(const double *x, size_t n, double *min);
int st_is_constant(const double *x, size_t n);
/* Order-preserving 64-bit keys of doubles (no NaN): the IEEE-754 bit
 * pattern with the sign bit set for non-negative values and every bit
 * flipped for negative ones, so unsigned order is numeric order (-0 just
 * below +0); st_sort_unkey is the inverse (util.c, run-order.c). */
static inline uint64_t st_sort_key(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return (u >> 63) ? ~u : (u | ((uint64_t) 1 << 63));
}
static inline double st_sort_unkey(uint64_t u)
{
    double v;
    u = (u >> 63) ? (u & ~((uint64_t) 1 << 63)) : ~u;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* Ranks (util.c).  Mid-ranks of the pooled values: rank[i] for value i
 * (1-based ranks); ST_OK, ST_ERR_ALLOC or ST_ERR_DOMAIN (a NaN; +-Inf are
 * ranked); *tie_term (may be NULL) receives the sum over tie groups of
 * (t^3 - t).  st_sorted_tie_term: the same tie term of an ascending
 * vector. */
int st_midranks(const double *v, size_t n, double *rank, double *tie_term);
double st_sorted_tie_term(const double *s, size_t n);

/* The rank tests' normal approximations (util.c): the continuity
 * correction of a centred statistic z (0 without correct; +-1/2 towards
 * the null on the alternative's side) and the p-value of a standard
 * normal statistic. */
double st_continuity(st_alternative alt, int correct, double z);
double st_normal_p(st_alternative alt, double z);

/* The ends of R's exact interval of a rank test (exact.c) from the no-ties
 * law prob[0 .. len-1] (st_exact_law) at the one-sided level a: the rank
 * qu = max(1, the quantile of qwilcox / qsignrank, with their
 * 10 DBL_EPSILON fuzz) of the lower end's order statistic, and
 * *achieved = P[W <= qu - 1], the tail the interval leaves out. */
double st_exact_interval_rank(const double *prob, size_t len, double a,
                              double *achieved);

/* Two samples sorted once (sorted.c): x - mu and y, each ascending, in one
 * allocation (xs owns it).  The tests that only look at order (rank sums,
 * Smirnov, Hodges-Lehmann) sort the data there once and read the pair. */
typedef struct {
    double *xs, *ys;
    size_t n, m;
} st_sorted_pair;
/* Run times sorted by their trend tests: each sample of at least `min`
 * (>= 3) values is sorted by the merge sort of its Mann-Kendall test
 * (st_mann_kendall), whose result goes to out[0] (x) and out[1] (y); a
 * shorter sample is sorted as usual and its result says ST_ERR_TOO_FEW. */
typedef struct {
    size_t min;
    st_result *out;
    st_cache *cache;      /* (may be NULL) for the trend tests            */
} st_pair_trend;
/* ST_OK, ST_ERR_ALLOC, ST_ERR_TOO_MANY or ST_ERR_DOMAIN (a non-finite
 * value or mu, or mu != 0 with trend); on error p holds nothing to free.
 * trend (NULL: none) sorts by the trend tests, into the same pair. */
int st_sorted_pair_init(st_sorted_pair *p, const double *x, size_t n,
                        double mu, const double *y, size_t m,
                        const st_pair_trend *trend);
void st_sorted_pair_free(st_sorted_pair *p);
/* Replaces the values by their logarithms, still sorted (ST_ERR_DOMAIN
 * for a value <= 0, the pair then partly transformed). */
int st_sorted_pair_log(st_sorted_pair *p);
/* Mid-ranks of the pooled c(xs - d, ys) by a merge of the ascending xs and
 * ys: *rank_sum = the sum of the x ranks, *tie_term = sum of (t^3 - t)
 * over tie groups; rank2 (may be NULL; length n + m) receives the doubled
 * mid-ranks, x's first.  ST_ERR_DOMAIN for a non-finite d or value. */
int st_merge_ranks(const double *xs, size_t n, double d, const double *ys,
                   size_t m, long double *rank_sum, double *tie_term,
                   double *rank2);

/* The vector code (simd.c, AVX-512; -DST_NO_AVX512 leaves it out): each
 * returns 0 when it does not apply (no AVX-512, a size outside
 * its measured range, a NaN) and the caller runs its scalar code;
 * otherwise the scalar code's result.  st_simd_sort: the stable sort of
 * x; st_simd_split: one split pass of select.c (*split: the end of the
 * values below piv, or at most piv with or_equal); st_simd_kendall:
 * Kendall's inversion count D, tie count T, tie term tv and whether there
 * are ties. */
int st_simd_sort(double *x, size_t n);
int st_simd_split(const double *src, double *dst, size_t lo, size_t hi,
                  double piv, int or_equal, size_t *split);
int st_simd_kendall(const double *x, size_t n, double *D, double *T,
                    double *tv, int *ties);
/* st_simd_pair_window: the window pass of select.c's small matrices (the
 * cells a[i] - b[j], the Walsh averages of a when b is NULL, or the
 * values of b when a is NULL, against
 * ng <= 4 pivot pairs piv[2g] < piv[2g + 1]): per group le_lo[g] = the
 * cells <= its low pivot, and the cells strictly between its pivots in
 * win[g] (len[g] of them; each buffer has cap + 8 places); -1 when a
 * window would exceed cap. */
/* st_simd_available: 1 when the vector code runs on this processor. */
int st_simd_available(void);
/* st_simd_sort_net: x (2 to 64 values, no NaN) sorted by a sorting
 * network (not stable: equal values, -0 and +0 among them, in any
 * order). */
int st_simd_sort_net(double *x, size_t n);
int st_simd_pair_window(const double *a, size_t na, const double *b,
                        size_t nb, int ng, const double *piv, uint64_t *le_lo,
                        double *const *win, size_t cap, size_t *len);

/* group-median.c: R's mean() of the two values a and b (the median of an
 * even sample, as stats::median() makes it), bit for bit: the long double
 * sum halved, then corrected by the mean of the residuals. */
double st_mean2(double a, double b);

/* json-fields.c: the position of each of n runs among the runs of its
 * benchmark (codes 1..k) in the file's order, and its rank by repetition
 * index when its benchmark's indices are all present and distinct (else
 * its position): the order of a Google Benchmark file's repetitions. */
int st_gbench_order(const int *code, const double *rep, size_t n, int k, int *run,
                    int *iteration);

/* json-blocks.c: where the elements of one array of a JSON text begin and
 * end, for a parse in blocks.  The text buf[0 .. len) is scanned once; it
 * is clean when it is one object (no byte order mark) with exactly one
 * member whose key is key[0 .. klen) byte for byte and whose value is an
 * array, no key of that object holding an escape, every byte valid UTF-8
 * and not 0, no control character in a string, only JSON's white space,
 * structural characters, number characters and lower-case letters outside
 * strings, and nesting at most 512 deep.  Then clean is 1, open and close
 * are the offsets of the array's brackets, n its number of elements and
 * comma[0 .. n - 1) the offsets of the commas between them (malloc'd; the
 * caller frees it); else clean is 0 and comma NULL.  Whether the text is
 * valid JSON is left to a parser.  ST_OK or ST_ERR_ALLOC. */
typedef struct {
    size_t open, close, n;
    size_t *comma;
    int clean;
} st_json_array;
int st_json_array_find(const unsigned char *buf, size_t len, const char *key,
                       size_t klen, st_json_array *out);

/* fileread.c: reads at most `size` bytes of the regular file `path`
 * into `buf` (open(2), fstat(2), read(2)).  Returns the number of bytes
 * read (fewer at end of file), or -1 when the path cannot be opened, is
 * not a regular file or a read fails; with `more` (not NULL), *more is 1
 * when the file holds a byte past the `size` read, else 0. */
ptrdiff_t st_read_file(const char *path, unsigned char *buf, size_t size, int *more);

/* json-blocks.c: the text "[" + the elements buf[from .. to) + "]" of a
 * block of such an array written to out (at least to - from + 2 bytes),
 * each element that is an object with only its members whose key is one
 * of keys[0 .. nk) (of byte lengths klen) where the others can be left out
 * without changing what a parser says of the text (see the file): plain
 * scalars under plain keys.  With *rows 1, each element is written as the
 * array of the values of the keys in their order (null for a missing one)
 * when every element of the block can be (an object whose other members
 * can be left out, no key with an escape, no wanted key twice); else *rows
 * is set to 0 and the block written as objects.  Returns the number of
 * bytes written. */
size_t st_json_block_keep(const unsigned char *buf, size_t from, size_t to,
                          const char *const *keys, const size_t *klen, int nk,
                          int *rows, unsigned char *out);

/* report-site.c: the bins of many samples for their kernel density
 * estimates, as stats::density() bins one (y: 2 ngrid doubles a sample);
 * a text and a newline written to a file. */
int st_site_bin(const double *x, const int *len, size_t m, const double *lo,
                const double *hi, int ngrid, double *y);
int st_site_medians(const double *x, const int *len, size_t m, double *out,
                    double *work);
int st_site_write(const char *path, const char *text, size_t n);

/* plan-rank.c: the smallest k (runs of each version) at which the
 * rank-sum test's power by Noether's approximation, averaged over the
 * spread factors w[0..nw-1], reaches `power`, on the law whose pairs of
 * runs differ in log time by a normal of mean mu_x[i] - mu_y[j] (negated
 * with slowdown) and sd sd_d, at the log change t, level quantile z, p
 * computed at `nodes` points and interpolated.  *runs: k, INFINITY when
 * more than 1e9 runs would be needed.  ST_ERR_DOMAIN (empty samples, a
 * mean not finite, a spread factor not positive and finite, sd_d or t not
 * positive and finite, power outside (0, 1), fewer than 2 nodes or spread
 * factors all equal), ST_ERR_TOO_MANY, ST_ERR_ALLOC. */
int st_plan_rank(const double *mu_x, size_t nx, const double *mu_y,
                 size_t ny, double sd_d, double t, int slowdown,
                 const double *w, size_t nw, double z, double power,
                 int nodes, double *runs);

/* round-text.c: the distinct values of fround(x[i], digits) (uniq, room
 * for n, in order of first appearance; compared by ==) and for each x[i]
 * its 1-based position among them, 0 for NaN (index); *n_uniq their
 * number.  ST_ERR_DOMAIN (n beyond INT32_MAX), ST_ERR_ALLOC. */
int st_round_index(const double *x, size_t n, double digits, double *uniq,
                   int *index, size_t *n_uniq);

/* suite-columns.c: out[j] = v[j * np + i] for j < nb (protocol i of np
 * in the core's long columns). */
void st_suite_column(const double *v, size_t nb, size_t np, size_t i,
                     double *out);
/* the decisions of n benchmarks of one protocol made again on the
 * (adjusted) p-values pa, their direction codes (1 speedup, 2 slowdown,
 * 3 none, 4 equivalent, 5 insufficient data) and whether significant (1,
 * 0, -1 missing); missing values NaN; peqa may be NULL. */
void st_suite_decide(size_t n, const double *dec, const double *alpha,
                     const double *pa, const double *psa, const double *peqa,
                     double *dec_out, int *dir, int *sig);

/* out[j * np + i] = v[i][j] (values of sz bytes): the long column of np
 * protocols' columns of nb values. */
void st_suite_interleave(const void *const *v, size_t nb, size_t np,
                         size_t sz, void *out);

/* the positions j < n where ci_level[j] < 1 - 2 alpha[j] - 1e-9 (both
 * known, alpha[j] < 0.5), in order, into at; their number. */
size_t st_suite_short(size_t n, const double *ci_level, const double *alpha,
                      size_t *at);

/* the mean protocol's detectable speedups of k benchmarks (R/tolerance.R
 * detectable_mean_at()): out[j], missing[j] = 1 where there is none. */
void st_suite_detectable_mean(size_t k, const double *vx, const double *vy,
                              const double *n, const double *m,
                              const double *mx, const double *alpha,
                              double power, double s0, double *out,
                              int *missing);

#endif
