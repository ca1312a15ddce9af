#' speeduptest: rigorous statistical tests for program speedups
#'
#' Decides whether an observed speedup is statistically significant with the
#' Speedup-Test protocols of Touati, Worms and Briais (2013) for the mean
#' ([mean_test()]) and the median ([median_test()]) execution time, analyses
#' whole benchmark suites ([speedup_suite()]) and compares two computers with
#' the Hierarchical Performance Test of Chen et al. (2012) ([hpt()]).
#'
#' The component tests ([shapiro_wilk()], [f_test()], [t_test()],
#' [ks_test()], [wilcoxon_test()], [signed_rank_test()], [proportion_ci()])
#' are written in C and agree with their twins in `stats`; the rank and
#' Smirnov tests also give exact p-values when there are ties.
#'
#' @references
#' Touati, S.-A.-A., Worms, J. and Briais, S. (2013). The Speedup-Test: a
#' statistical methodology for programme speedup analysis and computation.
#' *Concurrency and Computation: Practice and Experience*, 25(10), 1410-1426.
#'
#' Chen, T., Chen, Y., Guo, Q., Temam, O., Wu, Y. and Hu, W. (2012).
#' Statistical performance comparisons of computers. *HPCA 2012*.
#'
#' @keywords internal
#' @useDynLib speeduptest, .registration = TRUE
"_PACKAGE"
