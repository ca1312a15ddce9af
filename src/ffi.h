/*
 * ffi.h -- the R side of the C core: converting R objects to plain C
 * values and core results back into R lists.  Only the ffi_* entry points
 * (declared here, registered in init.c) include Rinternals.h.
 */
#ifndef SPEEDUPTEST_FFI_H
#define SPEEDUPTEST_FFI_H

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>
#include <R_ext/Rdynload.h>
#include "speeduptest.h"

/* Conversions.  The R wrappers have already checked and coerced their
 * arguments; these only guard against a wrong type reaching C. */
const double *ffi_doubles(SEXP x, size_t *n, const char *arg);
double ffi_double(SEXP x, const char *arg);
int ffi_int(SEXP x, const char *arg);
int ffi_flag(SEXP x, const char *arg);
/* the text of one string (not NA) */
const char *ffi_string(SEXP x, const char *arg);
/* the bytes of a raw vector and their number */
const unsigned char *ffi_raw(SEXP x, size_t *n, const char *arg);

/* k samples packed in one vector: sample i is values[start[i]] ..
 * values[start[i] + len[i] - 1] (start and len doubles).  Reading them is
 * an error unless every start and length is a whole number and every
 * sample lies inside the vector. */
typedef struct {
    const double *values, *start, *len;
    size_t k;
} ffi_samples;
ffi_samples ffi_read_samples(SEXP values, SEXP start, SEXP len);

/* A named list from parallel arrays of names and SEXP values. */
SEXP ffi_named_list(int n, const char **names, SEXP *values);
/* list(statistic, df1, df2, p_value, conf_low, conf_high, estimate1,
 *      estimate2, exact, status) */
SEXP ffi_result(const st_result *r);
/* ffi_result() plus the confidence level the rank tests' interval really
 * has and whether it fell short of the one asked (wilcoxon.c). */
SEXP rank_result_sexp(const st_result *r, double ci_level, int ci_warn);
/* Mann-Kendall results of k samples: list(statistic, tau, p_value, exact,
 * status) (run-order.c). */
SEXP ffi_trend_list(const st_result *r, size_t k);

/* entry points */
SEXP ffi_codes(void);
SEXP ffi_scan_changes(SEXP value, SEXP start, SEXP alpha, SEXP margin);
SEXP ffi_scan_grid(SEXP start, SEXP alpha);
SEXP ffi_edivisive(SEXP x, SEXP sig_level, SEXP R, SEXP min_size,
                   SEXP exponent, SEXP k, SEXP seed);
SEXP ffi_change_figures(SEXP value, SEXP start, SEXP first_bad, SEXP alpha,
                        SEXP s0);

SEXP ffi_round_pairs(SEXP rx, SEXP x_off, SEXP ry, SEXP y_off);
SEXP ffi_round_pair_values(SEXP rx, SEXP ry, SEXP x, SEXP y);
SEXP ffi_process_units(SEXP t, SEXP group, SEXP k, SEXP round, SEXP median,
                       SEXP take);
SEXP ffi_process_counts(SEXP bench, SEXP side, SEXP code, SEXP nb, SEXP u);
SEXP ffi_structure_actions(SEXP nx, SEXP ny, SEXP counts, SEXP bad,
                           SEXP replication);
SEXP ffi_offset_codes(SEXP labels);
SEXP ffi_pair_counts(SEXP sel, SEXP marked, SEXP vcode, SEXP nlev);
SEXP ffi_pair_rows(SEXP sel, SEXP marked, SEXP vcode, SEXP side, SEXP run,
                   SEXP ts, SEXP nx, SEXP ny, SEXP positions, SEXP time,
                   SEXP round, SEXP rows);
SEXP ffi_pair_by_round(SEXP sel, SEXP marked, SEXP vcode, SEXP side, SEXP run,
                       SEXP m, SEXP global, SEXP time, SEXP round);
SEXP ffi_paste_rows(SEXP pieces, SEXP n_rows);
SEXP ffi_paste_rows_lazy(SEXP groups, SEXP sizes, SEXP group, SEXP row);
SEXP ffi_round_index(SEXP x, SEXP digits);
SEXP ffi_suite_split(SEXP cols, SEXP np, SEXP i, SEXP nan_na);
SEXP ffi_suite_decide(SEXP dec, SEXP alpha, SEXP pa, SEXP psa, SEXP peqa);
SEXP ffi_suite_interleave(SEXP cols);
SEXP ffi_suite_short(SEXP ci_level, SEXP alpha);
SEXP ffi_suite_detectable_mean(SEXP vx, SEXP vy, SEXP n, SEXP m, SEXP mx,
                               SEXP alpha, SEXP power, SEXP s0);
void st_paste_init(DllInfo *dll);
SEXP ffi_group_order(SEXP group, SEXP run, SEXP ng);
SEXP ffi_timings_group(SEXP bench, SEXP version, SEXP run, SEXP time, SEXP nb);
SEXP ffi_run_starts(SEXP x);
SEXP ffi_timings_suite(SEXP bench, SEXP starts, SEXP version, SEXP run,
                       SEXP time, SEXP process, SEXP nb, SEXP rows);
SEXP ffi_suite_variances(SEXP values, SEXP start, SEXP len);
SEXP ffi_shapiro_wilk(SEXP x);
SEXP ffi_var_test(SEXP x, SEXP y, SEXP alternative, SEXP ratio,
                  SEXP conf_level);
SEXP ffi_t_test(SEXP x, SEXP y, SEXP alternative, SEXP mu, SEXP var_equal,
                SEXP conf_level);
SEXP ffi_t_test_summary(SEXP mean_x, SEXP sd_x, SEXP n_x, SEXP mean_y,
                        SEXP sd_y, SEXP n_y, SEXP alternative, SEXP mu,
                        SEXP var_equal, SEXP conf_level);
SEXP ffi_ks_test(SEXP x, SEXP y, SEXP alternative, SEXP exact);
SEXP ffi_ranksum_null(SEXP n, SEXP m);
SEXP ffi_exact_tails(SEXP rank2, SEXP n, SEXP s2);
SEXP ffi_wilcoxon_test(SEXP x, SEXP y, SEXP alternative, SEXP mu,
                       SEXP exact, SEXP correct, SEXP conf_int,
                       SEXP conf_level);
SEXP ffi_signed_rank_test(SEXP d, SEXP alternative, SEXP mu, SEXP exact,
                          SEXP correct, SEXP conf_int, SEXP conf_level);
SEXP ffi_proportion_ci(SEXP a, SEXP b, SEXP conf_level, SEXP method);
SEXP ffi_min_benchmarks(SEXP proportion, SEXP precision, SEXP conf_level);
SEXP ffi_run_protocol(SEXP x, SEXP y, SEXP test, SEXP design, SEXP alpha,
                      SEXP rigorous, SEXP trend_min);
SEXP ffi_highest_confidence(SEXP x, SEXP y, SEXP test, SEXP rigorous);
SEXP ffi_observed_speedups(SEXP x, SEXP y);
SEXP ffi_hpt(SEXP a, SEXP a_len, SEXP b, SEXP b_len, SEXP higher,
             SEXP alpha_bench, SEXP gamma, SEXP exact_ties);
SEXP ffi_hpt_speedup(SEXP a, SEXP a_len, SEXP b, SEXP b_len, SEXP higher,
                     SEXP alpha_bench, SEXP exact_ties, SEXP level,
                     SEXP precision, SEXP method);
SEXP ffi_suite_list_read(SEXP data, SEXP na_rm);
SEXP ffi_suite_list_pack(SEXP data, SEXP count, SEXP xs, SEXP ys,
                         SEXP keep, SEXP na_rm);
SEXP ffi_suite_benchmarks(SEXP values, SEXP x_start, SEXP x_len,
                          SEXP y_start, SEXP y_len, SEXP alpha,
                          SEXP rigorous, SEXP protocols);
SEXP ffi_suite_summary(SEXP status, SEXP centre_x, SEXP centre_y,
                       SEXP decision, SEXP protocols, SEXP weights,
                       SEXP custom, SEXP prop_conf_level, SEXP prop_method,
                       SEXP precision);

SEXP ffi_run_command(SEXP path, SEXP args, SEXP output, SEXP timeout, SEXP launcher);
SEXP ffi_split_command(SEXP cmd);
SEXP ffi_launcher_start(SEXP launcher);
SEXP ffi_launcher_run(SEXP xp, SEXP path, SEXP args, SEXP output, SEXP timeout);
SEXP ffi_launcher_stop(SEXP xp);
SEXP ffi_launcher_batch(SEXP xp, SEXP paths, SEXP args, SEXP steps, SEXP output,
                        SEXP timeout);
SEXP ffi_launcher_stop_byte(SEXP xp);
SEXP ffi_eval_runs(SEXP calls, SEXP env, SEXP steps, SEXP batch, SEXP limit, SEXP reset,
                   SEXP out, SEXP count);
SEXP ffi_eval_overhead(SEXP reps);
SEXP ffi_monotonic_now(void);
SEXP ffi_rounds_order(SEXP k, SEXP rounds);
SEXP ffi_clock_info(SEXP tries);
SEXP ffi_all_positive_finite(SEXP x);
SEXP ffi_path_kind(SEXP paths);
SEXP ffi_read_files(SEXP paths, SEXP sizes);
SEXP ffi_plain_ascii(SEXP raws);
SEXP ffi_json_fields(SEXP records, SEXP keys, SEXP types);
SEXP ffi_gbench_runs(SEXP records, SEXP metric, SEXP unit_names, SEXP unit_values,
                     SEXP empty_ok, SEXP rows);
SEXP ffi_gbench_order(SEXP code, SEXP rep, SEXP k);
SEXP ffi_json_blocks(SEXP raw, SEXP key, SEXP block);
SEXP ffi_json_block_text(SEXP raw, SEXP from, SEXP to, SEXP keep, SEXP rows);
SEXP ffi_json_file(SEXP path, SEXP size);
SEXP ffi_has_zero_one(SEXP x);
SEXP ffi_codes_in_order(SEXP x, SEXP k);
SEXP ffi_json_flat_numbers(SEXP forks);
SEXP ffi_mean_pairs(SEXP a, SEXP b);
SEXP ffi_write_stdout(SEXP text);
SEXP ffi_mann_kendall(SEXP values, SEXP start, SEXP len);
SEXP ffi_runs_test(SEXP n1, SEXP n2, SEXP r);
SEXP ffi_trend_p(SEXP values, SEXP start, SEXP len, SEXP min_runs);
SEXP ffi_log_ratio(SEXP x, SEXP y);
SEXP ffi_variance_components(SEXP v, SEXP group);

SEXP ffi_tolerance_tests(SEXP x, SEXP y, SEXP test, SEXP pooled, SEXP s0);
SEXP ffi_tolerance_suite(SEXP values, SEXP x_start, SEXP x_len, SEXP y_start,
                         SEXP y_len, SEXP test, SEXP alpha, SEXP s0);
/* verdict-table.c */
SEXP ffi_verdict_table(SEXP values, SEXP x_start, SEXP x_len, SEXP y_start,
                       SEXP y_len, SEXP test, SEXP alpha, SEXP rigorous,
                       SEXP trend_min, SEXP s0);
SEXP ffi_decide(SEXP x, SEXP y, SEXP test, SEXP alpha, SEXP rigorous,
                SEXP s0);
SEXP ffi_power_sim(SEXP rx, SEXP ry, SEXP speedup, SEXP test, SEXP alpha,
                   SEXP rigorous, SEXP s0, SEXP want, SEXP n, SEXP m,
                   SEXP reps, SEXP seed, SEXP smooth);

SEXP ffi_pelt(SEXP values, SEXP start, SEXP len, SEXP cost, SEXP penalty,
              SEXP mbic, SEXP minseg, SEXP step);

SEXP ffi_warmup_classify(SEXP values, SEXP start, SEXP len, SEXP penalty,
                         SEXP minseg, SEXP step, SEXP window, SEXP outlier_k,
                         SEXP steady, SEXP margin, SEXP alpha);

/* protocol.c: a verdict as the list the R side reads */
SEXP ffi_verdict_list(const st_verdict *v, int status);

/* report-site.c */
SEXP ffi_site_bin(SEXP x, SEXP len, SEXP lo, SEXP hi, SEXP ngrid);
SEXP ffi_site_medians(SEXP x, SEXP len);
SEXP ffi_site_points(SEXP x, SEXP y, SEXP count, SEXP parts);
SEXP ffi_site_collapse(SEXP x, SEXP count, SEXP sep);
SEXP ffi_site_write(SEXP paths, SEXP texts);

/* plan-rank.c */
SEXP ffi_plan_rank(SEXP mu_x, SEXP mu_y, SEXP sd_d, SEXP t, SEXP slowdown,
                   SEXP w, SEXP z, SEXP power, SEXP nodes);

#endif
