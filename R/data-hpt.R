#' SPLASH-2 runs of two computers: Table 1 of Chen et al. (2012)
#'
#' The performance scores printed in Table 1 of Chen et al. (2012, section
#' 4.3): the 14 SPLASH-2 benchmarks (8 threads, default workloads), each run
#' 5 times on computer X (Linux, 4-core 8-thread Intel i7 920, 6 GB DDR2) and
#' on computer Y (Linux, 8-core AMD Opteron 8220, 64 GB DDR2).  Scores are
#' performance (higher is better) normalised to Y's first run of each
#' benchmark, rounded to two decimals as printed.
#'
#' The paper prints X's runs already divided by the speedup under test,
#' 1.76 (its reduced matrix S_X~), and they are stored exactly as printed:
#' the rows of machine `"X"` hold X's scores divided by 1.76.  So
#' `hpt(splash2_hpt, higher_is_better = TRUE)` tests the paper's claim "X is
#' more than 1.76 times faster than Y", and multiplying X's rows by 1.76
#' recovers X's own scores (to the printed precision) for
#' `hpt(..., speedup = 1.76)` and [hpt_speedup()].  The paper concludes that
#' X is more than 1.76 times faster than Y with confidence 0.95: X~ wins 8
#' benchmarks, ties 2 (fmm, radiosity) and loses 4 (barnes, cholesky, fft,
#' volrend), R_A = 80, R_B = 25.  The medians, winners, differences and
#' ranks of the table are not stored; [hpt()] recomputes them.
#'
#' @format A data frame with 140 rows and 4 columns:
#' \describe{
#'   \item{benchmark}{factor, the 14 benchmarks in the paper's order
#'     (barnes, cholesky, fft, fmm, lu-con, lu-ucon, ocean-con, ocean-ucon,
#'     radiosity, radix, raytrace, volrend, water-ns, water-sp).}
#'   \item{machine}{factor with levels `"X"` (scores divided by 1.76) and
#'     `"Y"`.}
#'   \item{run}{integer, run number 1 to 5 in the order printed.}
#'   \item{score}{numeric, normalised performance score (higher is better).}
#' }
#' @source Table 1 of Chen, T., Chen, Y., Guo, Q., Temam, O., Wu, Y. and Hu,
#'   W. (2012). Statistical performance comparisons of computers.
#'   *Proceedings of the 18th IEEE International Symposium on High
#'   Performance Computer Architecture (HPCA 2012)*.  Typed in from the
#'   printed table by `data-raw/splash2_hpt.R`.
#' @seealso [hpt()], [hpt_speedup()]
#' @examples
#' hpt(splash2_hpt, higher_is_better = TRUE)
#' @name splash2_hpt
#' @docType data
#' @keywords datasets
NULL
