/*
 * init.c -- registration of the .Call entry points (Writing R Extensions,
 * "Registering native routines").  Symbols are looked up only through this
 * table (no dynamic lookup) and R code refers to them as R objects
 * (useDynLib(speeduptest, .registration = TRUE)).
 */
#include <R_ext/Rdynload.h>
#include <Rinternals.h>
#include "ffi.h"
#include "speeduptest.h"

#define CALLDEF(name, n) {#name, (DL_FUNC) &name, n}

static const R_CallMethodDef call_methods[] = {
    CALLDEF(ffi_shapiro_wilk, 1),
    CALLDEF(ffi_var_test, 5),
    CALLDEF(ffi_t_test, 6),
    CALLDEF(ffi_t_test_summary, 10),
    CALLDEF(ffi_ks_test, 4),
    CALLDEF(ffi_wilcoxon_test, 8),
    CALLDEF(ffi_signed_rank_test, 7),
    CALLDEF(ffi_ranksum_null, 2),
    CALLDEF(ffi_exact_tails, 3),
    CALLDEF(ffi_proportion_ci, 4),
    CALLDEF(ffi_min_benchmarks, 3),
    CALLDEF(ffi_run_protocol, 7),
    CALLDEF(ffi_highest_confidence, 4),
    CALLDEF(ffi_observed_speedups, 2),
    CALLDEF(ffi_hpt, 8),
    CALLDEF(ffi_hpt_speedup, 10),
    CALLDEF(ffi_suite_benchmarks, 8),
    CALLDEF(ffi_suite_list_read, 2),
    CALLDEF(ffi_suite_list_pack, 6),
    CALLDEF(ffi_suite_summary, 10),
    CALLDEF(ffi_run_command, 5),
    CALLDEF(ffi_split_command, 1),
    CALLDEF(ffi_launcher_start, 1),
    CALLDEF(ffi_launcher_run, 5),
    CALLDEF(ffi_launcher_stop, 1),
    CALLDEF(ffi_launcher_batch, 6),
    CALLDEF(ffi_launcher_stop_byte, 1),
    CALLDEF(ffi_eval_runs, 8),
    CALLDEF(ffi_eval_overhead, 1),
    CALLDEF(ffi_monotonic_now, 0),
    CALLDEF(ffi_rounds_order, 2),
    CALLDEF(ffi_clock_info, 1),
    CALLDEF(ffi_mann_kendall, 3),
    CALLDEF(ffi_all_positive_finite, 1),
    CALLDEF(ffi_path_kind, 1),
    CALLDEF(ffi_read_files, 2),
    CALLDEF(ffi_plain_ascii, 1),
    CALLDEF(ffi_json_fields, 3),
    CALLDEF(ffi_gbench_runs, 6),
    CALLDEF(ffi_gbench_order, 3),
    CALLDEF(ffi_json_blocks, 3),
    CALLDEF(ffi_json_block_text, 5),
    CALLDEF(ffi_json_file, 2),
    CALLDEF(ffi_has_zero_one, 1),
    CALLDEF(ffi_codes_in_order, 2),
    CALLDEF(ffi_json_flat_numbers, 1),
    CALLDEF(ffi_mean_pairs, 2),
    CALLDEF(ffi_write_stdout, 1),
    CALLDEF(ffi_runs_test, 3),
    CALLDEF(ffi_trend_p, 4),
    CALLDEF(ffi_log_ratio, 2),
    CALLDEF(ffi_variance_components, 2),
    CALLDEF(ffi_round_pairs, 4),
    CALLDEF(ffi_round_pair_values, 4),
    CALLDEF(ffi_process_units, 6),
    CALLDEF(ffi_process_counts, 5),
    CALLDEF(ffi_structure_actions, 5),
    CALLDEF(ffi_offset_codes, 1),
    CALLDEF(ffi_pair_counts, 4),
    CALLDEF(ffi_pair_rows, 12),
    CALLDEF(ffi_pair_by_round, 9),
    CALLDEF(ffi_paste_rows, 2),
    CALLDEF(ffi_paste_rows_lazy, 4),
    CALLDEF(ffi_round_index, 2),
    CALLDEF(ffi_suite_split, 4),
    CALLDEF(ffi_suite_decide, 5),
    CALLDEF(ffi_suite_interleave, 1),
    CALLDEF(ffi_suite_short, 2),
    CALLDEF(ffi_suite_detectable_mean, 8),
    CALLDEF(ffi_group_order, 3),
    CALLDEF(ffi_timings_group, 5),
    CALLDEF(ffi_run_starts, 1),
    CALLDEF(ffi_timings_suite, 8),
    CALLDEF(ffi_tolerance_tests, 5),
    CALLDEF(ffi_tolerance_suite, 8),
    CALLDEF(ffi_verdict_table, 10),
    CALLDEF(ffi_decide, 6),
    CALLDEF(ffi_power_sim, 13),
    CALLDEF(ffi_codes, 0),
    CALLDEF(ffi_suite_variances, 3),
    CALLDEF(ffi_scan_changes, 4),
    CALLDEF(ffi_scan_grid, 2),
    CALLDEF(ffi_change_figures, 5),
    CALLDEF(ffi_edivisive, 7),
    CALLDEF(ffi_pelt, 8),
    CALLDEF(ffi_warmup_classify, 11),
    CALLDEF(ffi_site_bin, 5),
    CALLDEF(ffi_site_medians, 2),
    CALLDEF(ffi_site_points, 4),
    CALLDEF(ffi_site_collapse, 3),
    CALLDEF(ffi_site_write, 2),
    CALLDEF(ffi_plan_rank, 9),
    {NULL, NULL, 0}
};

/* The core's interrupt callback: R_CheckUserInterrupt() would jump out
 * of the C code (leaking what the core holds), so it runs inside
 * R_ToplevelExec, which returns FALSE when it jumped; the core then stops
 * cleanly with ST_ERR_INTERRUPTED and the R wrapper signals the interrupt
 * (check_status() in R/errors.R). */
static void check_interrupt_now(void *data)
{
    (void) data;
    R_CheckUserInterrupt();
}

static int r_interrupt_pending(void)
{
    return R_ToplevelExec(check_interrupt_now, NULL) ? 0 : 1;
}

void R_init_speeduptest(DllInfo *dll)
{
    st_set_interrupt(r_interrupt_pending);
    R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
    R_forceSymbols(dll, TRUE);
    st_paste_init(dll);
}
