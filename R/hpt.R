# The Hierarchical Performance Test of Chen et al. (2012): hpt(),
# hpt_speedup() and their methods.  The statistics are in src/hpt.c.

#' Hierarchical Performance Test (HPT)
#'
#' Compares two computers (or two versions of a program) A and B over a suite
#' of benchmarks with the Hierarchical Performance Test of Chen et al. (2012,
#' section 4), and gives the confidence of the claim "A is more than `speedup`
#' times faster than B".
#'
#' @param a Performance of A: a numeric matrix (rows = benchmarks, columns =
#'   runs; use `NA` to pad benchmarks with fewer runs, together with
#'   `na_rm = TRUE`), a named list of numeric vectors (one per benchmark), or
#'   a long data frame holding both computers (then `b` is `NULL`): a column
#'   `benchmark`, a column `machine` (or `version`, `computer`, `group`) with
#'   exactly two values, the first level being A, and a numeric column
#'   `value` (or `time`, `score`).  Without these names the first three
#'   columns are taken in that order.
#' @param b Performance of B, in the same form as `a` (matrix or list), or
#'   `NULL` when `a` is a long data frame.  A and B may have different
#'   numbers of runs.  With row names (list names), the benchmark sets must
#'   be the same (B is reordered to A's order); without, the numbers of rows
#'   must agree.
#' @param higher_is_better `FALSE` (the default) for execution times or
#'   other costs, `TRUE` for scores such as SPEC ratios.
#' @param alpha_bench Level of the per-benchmark rank-sum tests; `NULL`
#'   chooses the paper's 0.05 when every benchmark has at least 5 runs of A
#'   and of B, else 0.10.
#' @param speedup The speedup under test, gamma > 0 (1 tests "A is faster
#'   than B").  With times A's times are multiplied by gamma, with scores A's
#'   scores are divided by gamma.
#' @param exact_ties `FALSE` (the default) follows the paper: on each
#'   benchmark the no-ties null distribution of the rank sum (Rmath
#'   `pwilcox()`) applied to the mid-rank sum when both samples have fewer
#'   than 12 runs, else its normal approximation; across benchmarks the
#'   no-ties signed-rank distribution (`psignrank()`) applied to
#'   `floor(R_B)` for fewer than 25 benchmarks, else its normal
#'   approximation.  `TRUE` uses instead, at both levels and for any size,
#'   the exact null distributions conditional on the ties observed: the
#'   permutation distribution of the mid-rank sum, and the distribution of
#'   `R_B` when each non-zero d is negative with probability 1/2 (zeros
#'   keep their half-ranks).  These are the package's exact rank-sum and
#'   signed-rank laws (those of [wilcoxon_test()] with `exact = TRUE`), with
#'   their size limits (about 500 runs a side per benchmark with ties, 1000
#'   benchmarks with a non-zero d); beyond them an error of class
#'   `speeduptest_error_data` asks for `exact_ties = FALSE`.
#' @param conf_level Confidence level used for the conclusion sentence.
#' @param na_rm With `TRUE`, `NA` values are dropped (they pad a matrix of
#'   ragged runs); with `FALSE` a benchmark holding an `NA` is skipped.
#' @param initial With run times read by [read_timings()] or [as_timings()]
#'   as `a` (a `speedup_timings` object with two versions), the version of
#'   the initial code (default: the first). A is then the other (the
#'   transformed code) and B the initial code, so that the confidence is
#'   that of "the transformed code is more than `speedup` times faster". A
#'   benchmark with runs of only one version is left out, with a warning of
#'   class `speeduptest_warning_unpaired`.  Any other `a` with `initial` is
#'   an error.
#'
#' @details
#' On benchmark i, two one-sided Wilcoxon rank-sum tests at level
#' `alpha_bench` (A better; B better) decide the statistical winner; a
#' p-value equal to the level is significant.  A significant benchmark gets
#' `d = median(A) - median(B)`, oriented so that a positive d favours A and
#' with A handicapped by `speedup` (for times, `d = median(B) -
#' speedup * median(A)`); a tie gets `d = 0`.  The `|d|` are ranked with
#' mid-ranks; `R_A` is the sum of the ranks of the positive d plus half the
#' ranks of the zero d, `R_B` likewise for the negative d, and the confidence
#' is `1 - P(W <= floor(R_B))`.  With fewer than 12 runs the paper reads
#' printed tables of the no-ties distribution, which is why the mid-rank sum
#' is compared with that distribution; `exact_ties = TRUE` is the exact
#' alternative.  The two sample sizes may differ; the normal approximations
#' then use the general means and variances (na (N + 1) / 2 and
#' na nb (N + 1) / 12), which are the paper's formulas when na = nb.
#'
#' **Bad benchmarks.** A benchmark that cannot be analysed -- a missing
#' value (without `na_rm = TRUE`), an infinite value or one <= 0, fewer
#' than 3 runs of a side, runs of one machine only, or (matrices or lists
#' with names) a name in only one of `a` and `b` -- is skipped with a
#' warning of class `speeduptest_warning_skipped` saying why, and a row in
#' the result's `problems`; the others are analysed as if it were absent.
#' Only when no benchmark is left is it an error (class
#' `speeduptest_error_data`, giving the reasons).
#'
#' The d's are differences of medians in the units of the data: like the
#' paper (which divides every benchmark by B's first run), normalise
#' benchmarks of very different scales before calling `hpt()` if the ranks
#' of `|d|` should not be dominated by the longest benchmarks.  Two `|d|`
#' that agree to a relative 1e-9, and a d within 1e-9 of zero relative to
#' the medians, are treated as equal (tied, zero), so that the rounding of
#' the handicap does not break ties that the data show.
#'
#' @return An object of class `speeduptest_hpt`: a list with `confidence`
#'   (that A is more than `speedup` times faster than B), `p_value`
#'   (`1 - confidence`), `R_A`, `R_B`, `n` (benchmarks), `speedup`,
#'   `conf_level`, `conclusion` (a sentence), `alpha_bench`,
#'   `higher_is_better`, `exact_ties`, `exact` (whether the per-benchmark
#'   p-values and the confidence come from exact distributions), `labels`
#'   (names of A and B) and `benchmarks`, a data frame with columns
#'   `benchmark`, `median_a` (A's median, handicapped), `median_b`, `winner`
#'   (`"A"`, `"B"` or `"tie"`), `d`, `rank`, `p_a`, `p_b` (one-sided
#'   p-values), `w_a` (A's Mann-Whitney count, mid-ranks), `runs_a`,
#'   `runs_b`; `problems`, one row per skipped benchmark (`benchmark`,
#'   `where`, `severity` "error", `message`), as in [speedup_suite()].  It
#'   prints in the layout of the paper's Table 1.
#'
#' @references
#' Chen, T., Chen, Y., Guo, Q., Temam, O., Wu, Y. and Hu, W. (2012).
#' Statistical performance comparisons of computers. *Proceedings of the
#' 18th IEEE International Symposium on High Performance Computer
#' Architecture (HPCA)*, section 4.
#'
#' @seealso [hpt_speedup()] for the largest speedup reaching a confidence;
#'   [splash2_hpt] for the paper's Table 1 data.
#' @examples
#' # Table 1 of Chen et al. (2012): X's scores divided by 1.76 against Y
#' hpt(splash2_hpt, higher_is_better = TRUE)
#'
#' # the same claim stated on X's own scores
#' x <- splash2_hpt
#' x$score[x$machine == "X"] <- 1.76 * x$score[x$machine == "X"]
#' hpt(x, higher_is_better = TRUE, speedup = 1.76)
#'
#' # run times, matrices
#' set.seed(1)
#' a <- matrix(rlnorm(40, 0), 8)
#' b <- matrix(rlnorm(40, 0.5), 8)
#' hpt(a, b)
#' @param ... Not used: an argument spelled the base R way (`na.rm`,
#'   `conf.level`, ...) is an error that gives this package's spelling.
#' @export
hpt <- function(a, b = NULL, higher_is_better = FALSE, alpha_bench = NULL,
                speedup = 1, exact_ties = FALSE, conf_level = 0.95,
                na_rm = FALSE, initial = NULL, ...) {
  check_dots_empty(...)
  call <- sys.call()
  na_rm <- check_flag(na_rm, "na_rm", call)
  higher_is_better <- check_flag(higher_is_better, "higher_is_better", call)
  exact_ties <- check_flag(exact_ties, "exact_ties", call)
  speedup <- check_positive(speedup, "speedup", call)
  conf_level <- check_conf_level(conf_level, call = call)
  if (!is.null(alpha_bench)) alpha_bench <- check_alpha(alpha_bench, "alpha_bench", call)
  data <- hpt_input(a, b, initial, na_rm, call)
  alpha_bench <- hpt_alpha(alpha_bench, data, call)
  hpt_run(data, higher_is_better, alpha_bench, speedup, exact_ties,
          conf_level, call)
}

# The data of hpt() and hpt_speedup(): with timings, A is the transformed
# code and B the initial one (the first version unless `initial` names
# another), so that both test "the new code is faster", as the rest of the
# package does.
hpt_input <- function(a, b, initial, na_rm, call) {
  tp <- NULL
  if (is_speedup_timings(a)) {
    tp <- timings_pairs(a, initial, arg = "a", require = TRUE)
    a <- data.frame(benchmark = tp$data$benchmark, time = tp$data$time,
                    machine = factor(tp$data$version, levels = rev(tp$versions)))
  } else if (!is.null(initial)) {
    abort("`initial` applies to run times read by read_timings() or as_timings() only; `a` is not such timings.",
          call = call)
  }
  data <- hpt_data(a, b, na_rm = na_rm, call = call)
  if (!is.null(tp) && nrow(tp$problems)) {
    data$problems <- rbind(tp$problems, data$problems)
  }
  data
}

hpt_run <- function(data, higher_is_better, alpha_bench, speedup, exact_ties,
                    conf_level, call = NULL) {
  res <- .Call(ffi_hpt, data$a, data$a_len, data$b, data$b_len,
               higher_is_better, alpha_bench, speedup, exact_ties)
  if (exact_ties && identical(st_code_name("status", res$status), "too_many")) {
    abort("hpt(): the exact conditional distributions are too large for these runs or benchmarks; use `exact_ties = FALSE`.",
          class = "data", call = call)
  }
  check_status(res, "hpt()", call = call)
  benchmarks <- data.frame(
    benchmark = data$benchmarks,
    median_a = res$median_a,
    median_b = res$median_b,
    winner = c("B", "tie", "A")[res$winner + 2L],
    d = res$d,
    rank = res$rank,
    p_a = res$p_a,
    p_b = res$p_b,
    w_a = res$w_a,
    runs_a = data$a_len,
    runs_b = data$b_len,
    stringsAsFactors = FALSE
  )
  out <- list(
    confidence = res$confidence,
    p_value = 1 - res$confidence,
    R_A = res$R_A,
    R_B = res$R_B,
    n = length(data$benchmarks),
    speedup = speedup,
    conf_level = conf_level,
    conclusion = NULL,
    alpha_bench = alpha_bench,
    higher_is_better = higher_is_better,
    exact_ties = exact_ties,
    exact = c(benchmarks = res$exact_bench, overall = res$exact_overall),
    labels = data$labels,
    benchmarks = benchmarks,
    problems = data$problems,
    data = data
  )
  out$conclusion <- hpt_conclusion(out)
  structure(out, class = "speeduptest_hpt")
}

hpt_claim <- function(labels, speedup) {
  if (speedup == 1) {
    sprintf("%s is faster than %s", labels[1L], labels[2L])
  } else {
    sprintf("%s is more than %s times faster than %s", labels[1L],
            format(speedup, digits = 15), labels[2L])
  }
}

hpt_conclusion <- function(x) {
  claim <- hpt_claim(x$labels, x$speedup)
  if (!is.na(x$confidence) && x$confidence >= x$conf_level) {
    sprintf("%s with confidence %s.", claim, format(x$conf_level))
  } else {
    sprintf("Cannot conclude with confidence %s that %s (confidence %s).",
            format(x$conf_level), claim, fmt_confidence(x$confidence))
  }
}

# alpha_bench: NULL -> 0.05 when every benchmark has >= 5 runs of each, else 0.10
hpt_alpha <- function(alpha_bench, data, call = NULL) {
  if (is.null(alpha_bench)) {
    return(if (all(data$a_len >= 5L & data$b_len >= 5L)) 0.05 else 0.10)
  }
  check_alpha(alpha_bench, "alpha_bench", call)
}

# ---- input ---------------------------------------------------------------

# Returns list(benchmarks, labels, a, a_len, b, b_len, problems): the runs
# of every benchmark that can be analysed concatenated, in the benchmarks'
# order.  A benchmark that cannot be (missing, infinite or non-positive
# values, fewer than 3 runs, runs of one side only) is skipped with a
# warning of class `speeduptest_warning_skipped` and a row in `problems`;
# an error only when none is left.
hpt_data <- function(a, b, na_rm, call = NULL) {
  if (is.data.frame(a) && !is.null(b)) {
    abort("`b` must be NULL when `a` is a long data frame.", call = call)
  }
  problems <- empty_problems()
  skip <- function(bench, why) {
    msg <- sprintf("benchmark \"%s\" skipped: %s.", bench, why)
    problems <<- add_problem(problems, bench, "data", "error", msg)
  }
  if (is.data.frame(a)) {
    parts <- hpt_long(a, call)
    la <- parts$a
    lb <- parts$b
    labels <- parts$labels
    where <- sprintf("of %s (in `a`)", labels)
    bench <- names(la)
    for (j in seq_along(parts$spoiled)) {
      skip(names(parts$spoiled)[j], parts$spoiled[[j]])
    }
    for (j in which(lengths(la) == 0L | lengths(lb) == 0L)) {
      skip(bench[j], sprintf("no runs of %s (in `a`)",
                             labels[if (length(la[[j]]) == 0L) 1L else 2L]))
    }
  } else {
    if (is.null(b)) {
      abort("`b` is missing: give B's runs, or a long data frame as `a`.",
            call = call)
    }
    la <- hpt_rows(a, "a", call)
    lb <- hpt_rows(b, "b", call)
    labels <- c("A", "B")
    where <- c("in `a`", "in `b`")
    na <- names(la)
    nb <- names(lb)
    if (!is.null(na) && !is.null(nb)) {
      if (anyDuplicated(na) || anyDuplicated(nb)) {
        abort("Benchmark names must be unique in `a` and `b`.", call = call)
      }
      for (x in setdiff(na, nb)) skip(x, "it is in `a` but not in `b`")
      for (x in setdiff(nb, na)) skip(x, "it is in `b` but not in `a`")
      na <- intersect(na, nb)
      la <- la[na]
      lb <- lb[na]
    } else if (length(la) != length(lb)) {
      abort(sprintf("`a` has %d benchmarks but `b` has %d.", length(la),
                    length(lb)), class = "mismatch", call = call)
    }
    if (is.null(na)) na <- if (is.null(nb)) as.character(seq_along(la)) else nb
    names(la) <- names(lb) <- na
    bench <- na
  }
  if (length(la) < 1L && nrow(problems) == 0L) {
    abort("There must be at least one benchmark.", class = "data", call = call)
  }
  # why the runs of one side of a benchmark cannot be analysed (NULL: they can)
  why <- function(v, side) {
    if (!length(v)) return(NULL)    # recorded above
    out <- NULL
    nmiss <- sum(is.na(v))
    if (nmiss && !na_rm) {
      out <- c(out, sprintf("%d missing value(s) %s (`na_rm = TRUE` drops them)",
                            nmiss, where[side]))
    }
    v <- v[!is.na(v)]
    if (any(!is.finite(v))) {
      out <- c(out, sprintf("%d infinite value(s) %s", sum(!is.finite(v)),
                            where[side]))
    }
    if (any(v <= 0, na.rm = TRUE)) {
      out <- c(out, sprintf("%d value(s) <= 0 %s", sum(v <= 0), where[side]))
    }
    if (length(v) < 3L) {
      out <- c(out, sprintf("%d run%s %s (at least 3 are needed)", length(v),
                            if (length(v) == 1L) "" else "s", where[side]))
    }
    out
  }
  keep <- logical(length(la))
  for (j in seq_along(la)) {
    bad <- c(attr(la[[j]], "bad"), attr(lb[[j]], "bad"))
    if (length(bad)) {
      skip(bench[j], paste(bad, collapse = "; "))
      next
    }
    if (!length(la[[j]]) || !length(lb[[j]])) next
    w <- c(why(la[[j]], 1L), why(lb[[j]], 2L))
    if (length(w)) {
      skip(bench[j], paste(w, collapse = "; "))
    } else {
      keep[j] <- TRUE
    }
  }
  if (!any(keep)) {
    shown <- utils::head(problems$message, 3L)
    abort(sprintf("No benchmark can be analysed: %s%s",
                  paste(sub("\\.$", "", shown), collapse = "; "),
                  if (nrow(problems) > 3L)
                    sprintf("; and %d more.", nrow(problems) - 3L) else "."),
          class = "data", call = call)
  }
  for (j in seq_len(nrow(problems))) {
    warn(problems$message[j], class = "skipped",
         benchmark = problems$benchmark[j], call = call)
  }
  drop_na <- function(v) v[!is.na(v)]
  la <- lapply(la[keep], drop_na)
  lb <- lapply(lb[keep], drop_na)
  list(
    benchmarks = bench[keep], labels = labels,
    a = as.double(unlist(la, use.names = FALSE)),
    a_len = as.integer(lengths(la)),
    b = as.double(unlist(lb, use.names = FALSE)),
    b_len = as.integer(lengths(lb)),
    problems = problems
  )
}

# A matrix (rows = benchmarks) or a list of vectors -> named list of vectors.
hpt_rows <- function(x, arg, call = NULL) {
  if (is.list(x) && !is.data.frame(x)) {
    ok <- vapply(x, function(v) {
      (is.numeric(v) || all(is.na(v))) && is.null(dim(v)) && !is.list(v)
    }, logical(1))
    if (!any(ok) && length(x)) {
      abort(sprintf("Every element of `%s` must be a numeric vector.", arg),
            call = call)
    }
    # an element that is not a numeric vector: its benchmark is skipped
    return(lapply(seq_along(x), function(i) {
      if (ok[i]) return(as.double(unclass(x[[i]])))
      structure(numeric(), bad = sprintf("its runs in `%s` are not a numeric vector but %s",
                                         arg, describe_type(x[[i]])))
    }) |> stats::setNames(names(x)))
  }
  if (is.data.frame(x)) x <- as.matrix(x)
  if (is.numeric(x) && is.null(dim(x))) x <- matrix(x, nrow = 1L)
  if (!is.matrix(x) || !(is.numeric(x) || all(is.na(x)))) {
    abort(sprintf("`%s` must be a numeric matrix (rows = benchmarks), a list of numeric vectors or a long data frame, not %s.",
                  arg, describe_type(x)), call = call)
  }
  storage.mode(x) <- "double"
  rows <- lapply(seq_len(nrow(x)), function(i) x[i, ])
  names(rows) <- rownames(x)
  rows
}

hpt_long <- function(df, call = NULL) {
  pick <- function(choices, pos) {
    hit <- intersect(choices, names(df))
    if (length(hit)) return(hit[1L])
    if (ncol(df) < pos) {
      abort("A long data frame needs a benchmark, a machine and a value column.",
            call = call)
    }
    names(df)[pos]
  }
  bcol <- pick("benchmark", 1L)
  gcol <- pick(c("machine", "version", "computer", "group"), 2L)
  vcol <- pick(c("value", "time", "score"), 3L)
  val <- df[[vcol]]
  if (!is.numeric(val)) {
    abort(sprintf("Column `%s` must be numeric, not %s.", vcol,
                  describe_type(val)), call = call)
  }
  grp <- df[[gcol]]
  grp <- if (is.factor(grp)) droplevels(grp) else factor(grp, levels = unique(grp[!is.na(grp)]))
  ben <- df[[bcol]]
  spoiled <- NULL
  if (nlevels(grp) > 2L) {
    # the two machines met in the most benchmarks; a benchmark with runs
    # of another one is skipped alone
    bf <- factor(ben, levels = unique(ben[!is.na(ben)]))
    two <- suite_frame_versions(grp[!is.na(grp) & !is.na(bf)],
                                bf[!is.na(grp) & !is.na(bf)], NULL)
    odd <- !is.na(grp) & !(grp %in% two) & !is.na(bf)
    names_odd <- unique(as.character(bf[odd]))
    if (length(names_odd) < nlevels(bf)) {
      spoiled <- vapply(names_odd, function(nm) {
        sprintf("runs of a %s other than %s: %s", gcol,
                paste0('"', two, '"', collapse = " and "),
                paste0('"', unique(as.character(grp[odd & bf == nm])), '"',
                       collapse = ", "))
      }, "")
      keep <- !(as.character(ben) %in% names_odd)
      df <- df[keep, , drop = FALSE]
      val <- val[keep]
      ben <- ben[keep]
      grp <- factor(as.character(grp[keep]), levels = two)
    }
  }
  if (nlevels(grp) != 2L) {
    abort(sprintf("Column `%s` must have exactly two values (A and B), not %d.",
                  gcol, nlevels(grp)), call = call)
  }
  lost <- is.na(ben) | is.na(grp)
  if (any(lost)) {
    # runs that belong to no benchmark or no machine cannot be analysed
    warn(sprintf("%d run%s with a missing benchmark or machine left out (column `%s` or `%s` of `a`).",
                 sum(lost), if (sum(lost) == 1L) "" else "s", bcol, gcol),
         class = "skipped", call = call)
  }
  lev <- if (is.factor(ben)) levels(droplevels(ben[!lost])) else
    unique(as.character(ben[!lost]))
  ben <- as.character(ben)
  split_one <- function(g) {
    keep <- which(grp == levels(grp)[g])
    out <- split(as.double(val[keep]), factor(ben[keep], levels = lev))
    out
  }
  a <- split_one(1L)
  b <- split_one(2L)
  list(a = a, b = b, labels = levels(grp), spoiled = spoiled)
}

# ---- methods: R/hpt-print.R, R/hpt-plot.R, R/tidy.R ----------------------------

#' @rdname hpt
#' @param row.names,optional Passed on by `as.data.frame()`; unused.
#' @export
as.data.frame.speeduptest_hpt <- function(x, row.names = NULL,
                                          optional = FALSE, ...) {
  x$benchmarks
}

# ---- r-Speedup ---------------------------------------------------------------

#' The r-Speedup of the Hierarchical Performance Test
#'
#' The largest speedup gamma such that the HPT ([hpt()]) concludes "A is more
#' than gamma times faster than B" with the confidence asked for:
#' `sup{gamma >= 1 : confidence(gamma) >= confidence}` (Chen et al. 2012,
#' section 4.2), computed exactly rather than by a grid search.
#'
#' @inheritParams hpt
#' @param confidence The confidence r, strictly between 0 and 1.
#' @param precision The reported speedup is the supremum floored to a
#'   multiple of `precision` (default 0.01, i.e. two decimals), so that the
#'   claim at the printed value holds.
#'
#' @details
#' The confidence is a step function of gamma: on a benchmark the rank-sum
#' decision changes only at the ratios where a handicapped run of A equals
#' a run of B (a_i / b_j for scores, b_j / a_i for times), and across
#' benchmarks the signs and ranks of the d's change only at these points,
#' where a d crosses zero, and where two |d| become equal.  `hpt_speedup()`
#' lists these finitely many points, evaluates the confidence at each and
#' inside each interval between them, and takes the supremum of the set
#' where the confidence reaches `confidence` exactly as the paper defines
#' it, without assuming that the confidence decreases with gamma (it does in
#' the classical test whenever every significant benchmark's medians agree
#' with its winner, but need not otherwise, nor with `exact_ties = TRUE`).
#' The value reported, `speedup`, is then the largest multiple of
#' `precision` not above the supremum at which `hpt(speedup = value)`
#' itself reaches the confidence; `supremum` is the exact value and
#' `attained` tells whether the confidence at the supremum itself reaches
#' the level (a supremum that is the open end of an interval is not).
#' `speedup` is `NA` when no gamma >= 1 reaches the confidence (in the
#' monotone case: when even gamma = 1 does not), and `Inf` when the
#' confidence stays above the level for every gamma (possible only when the
#' per-benchmark tests can never be significant).
#'
#' The points where the confidence can change are not listed (there are
#' about n^2 of them).  In the classical test (`exact_ties = FALSE`) the
#' decision on a benchmark changes at most twice as gamma grows, at two of
#' its ratios of runs, found by counting the ratios above a value on the
#' sorted runs (memory linear in the runs, however many pairs of runs
#' there are).  Between two such changes the winners are fixed and R_B is
#' the number of pairs of benchmarks whose d's sum below zero, which only
#' grows with gamma; it is counted at any gamma by sorting the d's.  The
#' search goes down the decision changes, skipping every stretch of gamma
#' where a lower bound of R_B already fails, and in the stretch holding the
#' supremum finds the pair of benchmarks where the confidence falls below
#' the level by bisection.  Memory is linear in the data and the time about
#' n log^2 n: 10,000 benchmarks of 31 runs take about 3 `hpt()` calls and
#' 100,000 a few seconds (see `bench/README.md`).  The answer is the one the
#' evaluation at every candidate point gives.  With `exact_ties = TRUE`
#' the conditional null law of R_B depends on the ties of the |d|
#' themselves, so every candidate point is evaluated (up to about 12,000
#' benchmarks) and every breakpoint above 1 needs its own exact conditional
#' distribution; when the total would exceed a fixed budget (about 7
#' benchmarks of 20 + 20 runs, or 400 of 10 + 10) an error of class
#' `speeduptest_error_data` asks for `exact_ties = FALSE`.  Benchmarks that
#' cannot be analysed are skipped as in [hpt()].
#'
#' @return An object of class `speeduptest_hpt_speedup`: a list with
#'   `speedup` (the r-Speedup floored to `precision`; `NA` when no gamma of
#'   at least 1 reaches the confidence), `confidence` (r), `supremum` (`NA` in
#'   the same case), `attained`, `precision`, `labels`, `n` (benchmarks
#'   analysed), `problems` (the skipped ones, as in [hpt()]) and `test`,
#'   the [hpt()] result at `speedup` (`NULL` when `speedup` is not
#'   finite).
#' @references
#' Chen, T., Chen, Y., Guo, Q., Temam, O., Wu, Y. and Hu, W. (2012).
#' Statistical performance comparisons of computers. *HPCA 2012*,
#' section 4.2.
#' @examples
#' x <- splash2_hpt
#' x$score[x$machine == "X"] <- 1.76 * x$score[x$machine == "X"]
#' hpt_speedup(x, higher_is_better = TRUE)
#' @param ... Not used: an argument spelled the base R way (`na.rm`,
#'   `conf.level`, ...) is an error that gives this package's spelling.
#' @export
hpt_speedup <- function(a, b = NULL, confidence = 0.95,
                        higher_is_better = FALSE, alpha_bench = NULL,
                        exact_ties = FALSE, precision = 0.01, na_rm = FALSE,
                        initial = NULL, ...) {
  check_dots_empty(...)
  call <- sys.call()
  na_rm <- check_flag(na_rm, "na_rm", call)
  higher_is_better <- check_flag(higher_is_better, "higher_is_better", call)
  exact_ties <- check_flag(exact_ties, "exact_ties", call)
  confidence <- check_conf_level(confidence, "confidence", call)
  if (!is.null(alpha_bench)) alpha_bench <- check_alpha(alpha_bench, "alpha_bench", call)
  precision <- check_between(precision, "precision", 0, 1, call, upper_ok = TRUE)
  data <- hpt_input(a, b, initial, na_rm, call)
  alpha_bench <- hpt_alpha(alpha_bench, data, call)
  res <- .Call(ffi_hpt_speedup, data$a, data$a_len, data$b, data$b_len,
               higher_is_better, alpha_bench, exact_ties, confidence,
               precision, FALSE)
  if (identical(st_code_name("status", res$status), "too_many")) {
    abort(paste0("hpt_speedup(): too many runs for ",
                 if (exact_ties) "the exact conditional distributions at every breakpoint; use `exact_ties = FALSE`."
                 else "an exact supremum."),
          class = "data", call = call)
  }
  check_status(res, "hpt_speedup()", call = call)
  # no gamma reaches the level: NA, not the C core's NaN
  if (is.nan(res$speedup)) res$speedup <- NA_real_
  if (is.nan(res$supremum)) res$supremum <- NA_real_
  test <- if (is.finite(res$speedup)) {
    hpt_run(data, higher_is_better, alpha_bench, res$speedup, exact_ties,
            confidence, call)
  }
  structure(list(
    speedup = res$speedup,
    confidence = confidence,
    supremum = res$supremum,
    attained = res$attained,
    precision = precision,
    labels = data$labels,
    n = length(data$benchmarks),
    problems = data$problems,
    test = test
  ), class = "speeduptest_hpt_speedup")
}

#' @rdname hpt_speedup
#' @param row.names,optional Passed on by `as.data.frame()`; unused.
#' @return `as.data.frame()`: one row with `speedup`, `confidence`,
#'   `supremum`, `attained`, `precision` and `n`.
#' @export
as.data.frame.speeduptest_hpt_speedup <- function(x, row.names = NULL,
                                                  optional = FALSE, ...) {
  need <- c("speedup", "confidence", "supremum", "attained", "precision", "n")
  one <- function(v) if (length(v) == 1L && is.atomic(v)) v else NA
  if (!is.list(x) || !all(need %in% names(x))) {
    abort(sprintf("`x` is not a complete `speeduptest_hpt_speedup` object: it lacks %s.",
                  paste0("`", setdiff(need, names(x)), "`", collapse = ", ")))
  }
  data.frame(speedup = one(x$speedup), confidence = one(x$confidence),
             supremum = one(x$supremum), attained = one(x$attained),
             precision = one(x$precision), n = one(x$n))
}
