/*
 * speeduptest.h -- the C core's types and functions.
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
 *   - Allocation is malloc/free inside a call; nothing is kept between calls.
 */
#ifndef SPEEDUPTEST_H
#define SPEEDUPTEST_H

#include <stddef.h>

/* ---- status codes ------------------------------------------------------ */
enum {
    ST_OK = 0,
    ST_ERR_TOO_FEW = 1,     /* not enough values for the test */
    ST_ERR_TOO_MANY = 2,    /* more values than the method supports */
    ST_ERR_CONSTANT = 3,    /* all values equal: statistic undefined */
    ST_ERR_ALLOC = 4,       /* out of memory */
    ST_ERR_DOMAIN = 5       /* an argument outside its domain */
};

/* ---- alternatives (same order as R's c("two.sided", "less", "greater")) */
typedef enum {
    ST_TWO_SIDED = 0,
    ST_LESS = 1,
    ST_GREATER = 2
} st_alternative;

/* ---- one hypothesis test ----------------------------------------------- */
typedef struct {
    double statistic;     /* W, F, t, D, V, ...                         */
    double df[2];         /* degrees of freedom (NAN when unused)       */
    double p_value;
    double conf_int[2];   /* NAN when not computed                      */
    double estimate[2];   /* NAN when unused                            */
    int exact;            /* 1 when the p-value is exact, 0 otherwise   */
    int status;           /* ST_OK or ST_ERR_*                          */
} st_result;

void st_result_init(st_result *r);

/* ---- shared helpers (util.c) -------------------------------------------- */
double st_mean(const double *x, size_t n);
double st_var(const double *x, size_t n, double mean);      /* n - 1 divisor */
double *st_sorted_copy(const double *x, size_t n);          /* malloc'ed      */
void st_sort(double *x, size_t n);                          /* in place       */
double st_median_sorted(const double *xs, size_t n);
/* Mid-ranks of the pooled values; rank[i] for value i (1-based ranks).
 * Returns ST_OK or ST_ERR_ALLOC.  *tie_term (may be NULL) receives
 * sum over tie groups of (t^3 - t). */
int st_midranks(const double *v, size_t n, double *rank, double *tie_term);
int st_is_constant(const double *x, size_t n);

/* ---- component tests ---------------------------------------------------- */

/* Shapiro-Wilk W (Royston 1995, AS R94), 3 <= n <= 5000. */
int st_shapiro_wilk(const double *x, size_t n, st_result *out);

/* F-test of var(x)/var(y) = ratio.  estimate[0] = ratio of variances. */
int st_var_test(const double *x, size_t n, const double *y, size_t m,
                st_alternative alt, double ratio, double conf_level,
                st_result *out);

/* Two-sample t-test (Student pooled or Welch) from summary figures;
 * H0: mean_x - mean_y = mu.  estimate = (mean_x, mean_y). */
int st_t_test_summary(double mean_x, double sd_x, double n_x,
                      double mean_y, double sd_y, double n_y,
                      st_alternative alt, double mu, int var_equal,
                      double conf_level, st_result *out);
int st_t_test(const double *x, size_t n, const double *y, size_t m,
              st_alternative alt, double mu, int var_equal,
              double conf_level, st_result *out);

/* Two-sample Kolmogorov-Smirnov; exact: -1 = automatic (n * m < 10000),
 * 0 = asymptotic, 1 = exact (with ties: the conditional distribution). */
int st_ks_test(const double *x, size_t n, const double *y, size_t m,
               st_alternative alt, int exact, st_result *out);

/* Wilcoxon-Mann-Whitney rank-sum test of x - mu against y.
 * statistic = W = sum of ranks of x - n(n+1)/2 (so W / (n m) estimates
 * P[X > Y] + P[X = Y] / 2 when mu = 0); exact: -1 = automatic
 * (n < 50 and m < 50), 0 = normal approximation, 1 = exact (with ties:
 * the conditional distribution of the mid-rank sum).  With conf_int,
 * estimate[0] is the Hodges-Lehmann shift and conf_int its interval. */
int st_wilcoxon_test(const double *x, size_t n, const double *y, size_t m,
                     st_alternative alt, double mu, int exact, int correct,
                     int conf_int, double conf_level, st_result *out);

/* Wilcoxon signed-rank test of d - mu (zeros dropped as R does).
 * statistic = V; exact as above (automatic: n < 50). */
int st_signed_rank_test(const double *d, size_t n, st_alternative alt,
                        double mu, int exact, int correct, int conf_int,
                        double conf_level, st_result *out);

/* Proportion confidence interval for a successes out of b. */
typedef enum {
    ST_PROP_TEST = 0,        /* Wilson with continuity correction (prop.test) */
    ST_PROP_WILSON = 1,
    ST_PROP_CLOPPER_PEARSON = 2,
    ST_PROP_AGRESTI_COULL = 3,
    ST_PROP_NORMAL = 4       /* C +- z sqrt(C(1-C)/b) */
} st_prop_method;
int st_proportion_ci(double a, double b, double conf_level,
                     st_prop_method method, st_result *out);

/* ceiling(z^2 C(1-C) / r^2), z = qnorm((1 + conf_level) / 2). */
double st_min_benchmarks(double proportion, double precision,
                         double conf_level);

/* ---- the Speedup-Test protocols (protocol.c) ----------------------------- */

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
    ST_STEP_WILCOXON = 5
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

#define ST_MAX_STEPS 4

typedef struct {
    st_decision decision;
    int branch;               /* which exit of the flowchart (protocol.c) */
    int guaranteed;           /* 1 when 1 - alpha is guaranteed           */
    double alpha;
    double p_value;           /* of the final test; NAN if not reached    */
    double speedup;           /* ratio of the protocol's centre           */
    double speedup_min, speedup_mean, speedup_median;
    double speedup_ci[2];     /* interval for the speedup itself          */
    double prob_greater;      /* median protocol: estimate of P[X > Y]    */
    int n_steps;
    st_step_kind step_kind[ST_MAX_STEPS];
    st_result steps[ST_MAX_STEPS];
    unsigned caveats;         /* ST_CAVEAT_* bits                         */
} st_verdict;

int st_mean_protocol(const double *x, size_t n, const double *y, size_t m,
                     double alpha, int rigorous, st_verdict *out);
int st_median_protocol(const double *x, size_t n, const double *y, size_t m,
                       double alpha, int rigorous, st_verdict *out);

/* Largest 1 - alpha, alpha in (0, 0.5], at which the protocol (test = 0:
 * mean, 1: median) declares significance; *confidence = NAN if none. */
int st_highest_confidence(const double *x, size_t n, const double *y,
                          size_t m, int test, int rigorous,
                          double *confidence);

#endif
