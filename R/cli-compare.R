# `speeduptest compare`: the command line that gates continuous integration
# on slowdowns (SPEC section 7).  cli_compare() parses the arguments after
# "compare", prints a verdict per benchmark and returns the exit status;
# speeduptest_cli() and the installed script dispatch to it.

#' Compare two versions on the command line (for continuous integration)
#'
#' `speeduptest compare OLD NEW [options]` reads the run times of the initial
#' code (`OLD`) and of the new code (`NEW`) with [read_timings()], decides for
#' every benchmark with the Speedup-Test whether the new code is faster,
#' slower or not significantly different, prints one line per benchmark and a
#' summary, and exits with a status a CI job can act on.
#'
#' ```
#' speeduptest compare OLD NEW [--format F] [--metric M] [--alpha A]
#'                     [--test median|mean] [--fail-on slowdown|change|never]
#'                     [--replication auto|process|run] [--design auto|unpaired|paired]
#' speeduptest compare FILE [options]
#' ```
#'
#' With one `FILE`, the file holds both versions (a hyperfine export with two
#' commands, a criterion.rs benchmark folder with `base` and `new`, a CSV
#' with a `version` column, a SpeedupTest configuration); the first is the
#' initial code. With `OLD NEW`, each file holds one version, and the
#' benchmarks are matched by name: a benchmark found in only one file is
#' reported as skipped.
#'
#' Options:
#' * `--format F`: the format of the files, as in [read_timings()]
#'   (default `auto`).
#' * `--metric M`: the measurement, as in [read_timings()] (e.g. `cpu_time`
#'   for Google Benchmark).
#' * `--alpha A`: the risk of each decision (default 0.05).
#' * `--test median|mean`: the protocol, [median_test()] (default) or
#'   [mean_test()].
#' * `--fail-on slowdown|change|never`: when to exit with status 1: a
#'   significant slowdown of any benchmark (the default), any significant
#'   change (faster or slower), or never.
#' * `--replication auto|process|run` and `--design auto|unpaired|paired`:
#'   the unit of replication and the design, as in [median_test()] (see
#'   [replication]): by default the processes are the unit where runs share
#'   them, and interleaved rounds are paired.
#'
#' Each line gives the speedup (initial time / new time: above 1 is faster)
#' as the estimate of its interval (the ratio of the means for the mean,
#' the Hodges-Lehmann estimate on log times for the median) with the
#' two-sided `1 - 2 alpha` interval, each end a one-sided `1 - alpha` bound,
#' printed with the same digits as in R, and the decision in the words every
#' print of the package uses: "significant speedup" when the protocol
#' declares the speedup at level alpha, "significant slowdown" when it
#' declares the mirrored claim (the new code's times tend to be larger), "no
#' significant difference" otherwise, and "insufficient data" when the
#' protocol asks for more runs (this never fails the job; the line says what
#' to run).
#'
#' @param args The arguments after `compare` (a character vector).
#' @return The exit status, invisibly: 0 (the `--fail-on` condition is not
#'   met), 1 (it is met) or 2 (bad input: the message is written to the
#'   standard error). The function never quits R; `speeduptest_cli()` and the
#'   installed `speeduptest` script exit with this status.
#' @seealso [read_timings()], [speedup_suite()]
#' @examples
#' dir <- system.file("extdata", "timings", package = "speeduptest")
#' status <- speeduptest:::cli_compare(file.path(dir, "hyperfine-slowdown.json"))
#' status
#' @keywords internal
cli_compare <- function(args = character()) {
  opts <- tryCatch(compare_parse_args(args), speeduptest_error = function(e) e)
  if (inherits(opts, "error")) return(compare_fail(conditionMessage(opts)))
  if (isTRUE(opts$help)) {
    cat(compare_usage(), sep = "\n")
    return(invisible(0L))
  }
  problems <- character()
  res <- tryCatch(
    withCallingHandlers({
      t <- if (length(opts$files) == 1L) {
        read_timings(opts$files, format = opts$format, metric = opts$metric)
      } else {
        read_timings(compare_labels(opts$files), format = opts$format,
                     metric = opts$metric)
      }
      pairs <- timings_pairs(t, arg = "the files")
      list(t = t, pairs = pairs)
    }, warning = function(w) {
      problems <<- c(problems, conditionMessage(w))
      invokeRestart("muffleWarning")
    }),
    error = function(e) e)
  if (inherits(res, "error")) return(compare_fail(conditionMessage(res)))
  pairs <- res$pairs$pairs
  versions <- res$pairs$versions
  if (!length(pairs)) {
    for (p in problems) cat(p, "\n", sep = "", file = stderr())
    return(compare_fail(sprintf("no benchmark has runs of both \"%s\" and \"%s\".",
                                versions[1L], versions[2L])))
  }
  test_fun <- if (opts$test == "mean") mean_test else median_test
  rows <- lapply(names(pairs), function(b) {
    p <- pairs[[b]]
    r <- tryCatch(compare_one(compare_structured(test_fun, res$t, b, versions, opts),
                              p$x, p$y, opts$alpha),
                  error = function(e) e)
    if (inherits(r, "error")) {
      return(list(benchmark = b, direction = NA_character_, speedup = NA_real_,
                  ci = c(NA_real_, NA_real_), note = conditionMessage(r)))
    }
    r$note <- paste(c(if (nzchar(r$note)) r$note, replicates_note(r$verdict)),
                    collapse = "; ")
    c(list(benchmark = b), r)
  })
  cat(sprintf("%s (initial) -> %s: Speedup-Test for the %s, alpha = %s\n",
              versions[1L], versions[2L], opts$test, format(opts$alpha)))
  cat(sprintf("speedup: %s [%s, %s]\n", interval_estimator(opts$test),
              interval_words(opts$test, interval_level(opts$alpha)),
              interval_note(opts$alpha)))
  width <- min(40L, max(nchar(c(names(pairs), "benchmark"))))
  for (r in rows) cat(compare_line(r, width), "\n", sep = "")
  single <- compare_single_note(rows)
  if (length(single)) cat(strwrap(single, width = 79, exdent = 6), sep = "\n")
  skipped <- res$pairs$problems
  skipped <- skipped[skipped$severity == "error", , drop = FALSE]
  for (i in seq_len(nrow(skipped))) {
    cat(sprintf("%-*s  skipped: %s\n", width,
                trunc_text(if (is.na(skipped$benchmark[i])) "-" else skipped$benchmark[i], width),
                sub("^benchmark \"[^\"]*\" skipped: ", "", skipped$message[i])))
  }
  other <- setdiff(problems, skipped$message)
  for (p in other) cat("note: ", p, "\n", sep = "", file = stderr())
  dir <- vapply(rows, function(r) r$direction, character(1))
  n_fast <- sum(dir %in% "speedup")
  n_slow <- sum(dir %in% "slowdown")
  n_none <- sum(dir %in% "none")
  n_na <- sum(is.na(dir))
  fail <- switch(opts$fail_on,
                 slowdown = n_slow > 0L,
                 change = n_slow + n_fast > 0L,
                 never = FALSE)
  status <- if (fail) 1L else 0L
  cat(sprintf("%d benchmark%s: %d %s, %d %s, %d %s%s%s\n",
              length(rows), if (length(rows) == 1L) "" else "s",
              n_fast, decision_words("speedup"), n_slow, decision_words("slowdown"),
              n_none, decision_words("none"),
              if (n_na) sprintf(", %d %s", n_na, decision_words(NA)) else "",
              if (nrow(skipped)) sprintf(", %d skipped", nrow(skipped)) else ""))
  cat(sprintf("%s (--fail-on %s): exit %d\n", if (fail) "FAIL" else "pass",
              opts$fail_on, status))
  invisible(status)
}

# The verdict on one benchmark: the protocol's speedup with its interval and
# the direction.  A verdict that carries `direction` (both one-sided claims
# decided on the same flowchart path) is used as it is; otherwise the
# protocol is run a second time with the versions swapped: a significant
# result there is a slowdown.
compare_one <- function(test_fun, x, y, alpha) {
  v <- test_fun(x, y, alpha = alpha)
  dir <- v$direction
  if (is.null(dir)) {
    dir <- if (is.na(v$significant)) NA_character_ else if (isTRUE(v$significant)) {
      "speedup"
    } else {
      w <- test_fun(y, x, alpha = alpha)
      if (isTRUE(w$significant)) "slowdown" else "none"
    }
  }
  note <- if (is.na(dir)) paste(v$advice, collapse = "; ") else ""
  list(direction = as.character(dir), speedup = v$speedup,
       estimate = or_na(attr(v$speedup_ci, "estimate"), NA_real_),
       ci = as.double(v$speedup_ci), note = note, verdict = v)
}

# The protocol on benchmark b of the timings, with the processes and rounds
# the timings carry, in the form compare_one() calls (x, y, alpha); its
# verdicts carry their direction, so it is never called with the versions
# swapped.
compare_structured <- function(test_fun, t, b, versions, opts) {
  force(b)
  function(x, y, alpha) {
    test_fun(t, benchmark = b, versions = versions, alpha = alpha,
             replication = opts$replication, design = opts$design)
  }
}

compare_choice <- function(val, choices, key) {
  if (!(val %in% choices)) {
    abort(sprintf("%s must be %s, not \"%s\".", key,
                  paste(choices, collapse = ", "), val))
  }
  val
}

compare_line <- function(r, width) {
  verdict <- decision_words(r$direction)
  # the figures as R prints them (fmt_estimate_ci: the interval rounded
  # outwards, its estimate inside it)
  est <- if (anyNA(r$ci) || is.na(r$estimate %||% NA)) r$speedup else r$estimate
  line <- sprintf("%-*s  speedup %s  %s", width, trunc_text(r$benchmark, width),
                  fmt_estimate_ci(est, r$ci), verdict)
  if (nzchar(r$note %||% "")) line <- paste0(line, " (", r$note, ")")
  line
}

# Two files: the versions are named after the files (their folders when the
# names are the same), "old" and "new" when both are the same.
compare_labels <- function(files) {
  lab <- timings_file_labels(files)
  if (lab[1L] == lab[2L]) lab <- c("old", "new")
  stats::setNames(files, lab)
}

compare_fail <- function(message) {
  cat("speeduptest compare: ", message, "\n", sep = "", file = stderr())
  cat("Usage: speeduptest compare OLD NEW [--format F] [--metric M] [--alpha A] [--test median|mean] [--fail-on slowdown|change|never]\n",
      file = stderr())
  invisible(2L)
}

compare_usage <- function() {
  c("Usage: speeduptest compare OLD NEW [options]",
    "       speeduptest compare FILE [options]   (a file holding both versions)",
    "",
    "Decides for every benchmark whether NEW is faster or slower than OLD",
    "(the Speedup-Test), prints one line per benchmark and a summary.",
    "",
    "Options:",
    "  --format F     auto (default), hyperfine, google-benchmark, pyperf,",
    "                 criterion, speeduptest, csv",
    "  --metric M     e.g. cpu_time for Google Benchmark (default real_time)",
    "  --alpha A      risk of each decision (default 0.05)",
    "  --test T       median (default) or mean",
    "  --fail-on F    slowdown (default), change or never",
    "  --replication R  auto (default: processes when runs share them), process",
    "                 or run (every run an independent replicate)",
    "  --design D     auto (default: paired by round when rounds are complete),",
    "                 unpaired or paired",
    "",
    "Exit status: 1 when --fail-on is met, 0 otherwise, 2 on bad input.")
}

compare_parse_args <- function(args) {
  if (!is.character(args)) {
    abort(sprintf("the arguments must be strings, not %s.", describe_type(args)))
  }
  opts <- list(format = "auto", metric = NULL, alpha = 0.05, test = "median",
               fail_on = "slowdown", files = character(), help = FALSE,
               replication = "auto", design = "auto")
  with_value <- c("--format", "--metric", "--alpha", "--test", "--fail-on",
                  "--replication", "--design")
  i <- 1L
  while (i <= length(args)) {
    a <- args[i]
    if (a %in% c("-h", "--help")) {
      opts$help <- TRUE
      return(opts)
    }
    if (startsWith(a, "--")) {
      key <- sub("=.*$", "", a)
      if (!(key %in% with_value)) {
        abort(sprintf("unknown option \"%s\".", a))
      }
      if (grepl("=", a, fixed = TRUE)) {
        val <- sub("^[^=]*=", "", a)
      } else {
        if (i == length(args)) abort(sprintf("option %s needs a value.", key))
        i <- i + 1L
        val <- args[i]
      }
      switch(key,
        "--format" = opts$format <- val,
        "--metric" = opts$metric <- val,
        "--alpha" = {
          alpha <- suppressWarnings(as.numeric(val))
          if (is.na(alpha) || alpha <= 0 || alpha >= 1) {
            abort(sprintf("--alpha must be a number strictly between 0 and 1, not \"%s\".", val))
          }
          opts$alpha <- alpha
        },
        "--test" = {
          if (!(val %in% c("median", "mean"))) {
            abort(sprintf("--test must be median or mean, not \"%s\".", val))
          }
          opts$test <- val
        },
        "--fail-on" = {
          if (!(val %in% c("slowdown", "change", "never"))) {
            abort(sprintf("--fail-on must be slowdown, change or never, not \"%s\".", val))
          }
          opts$fail_on <- val
        },
        "--replication" = opts$replication <- compare_choice(val, replication_choices, key),
        "--design" = opts$design <- compare_choice(val, design_choices, key))
    } else {
      opts$files <- c(opts$files, a)
    }
    i <- i + 1L
  }
  if (!length(opts$files) || length(opts$files) > 2L) {
    abort(sprintf("give OLD NEW (two files) or one file holding both versions, not %d file(s).",
                  length(opts$files)))
  }
  opts
}
