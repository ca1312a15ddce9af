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
#'                     [--test P]
#'                     [--fail-on slowdown|change|never|unguaranteed-slowdown]
#'                     [--replication auto|process|run] [--design auto|unpaired|paired]
#'                     [--tolerance P] [--p-adjust holm|BH|none]
#'                     [--output text|markdown|json] [--baseline V]
#'                     [--warmup keep|detect] [--html DIR]
#' speeduptest compare FILE [options]
#' speeduptest compare --base B1 B2 ... --head H1 H2 ... [options]
#' ```
#'
#' With `--base` and `--head`, each version is several files (or glob
#' patterns, expanded in sorted order), each file one process of that
#' version (SPEC section 9): the processes are then the unit of replication,
#' and the variation between them is seen. This is how to gate on tools that
#' measure a version in one process (Google Benchmark, criterion.rs): run
#' the benchmark program several times per version, a file each.
#'
#' With one `FILE`, the file holds the versions (a hyperfine export with two
#' or more commands, a criterion.rs benchmark folder with `base` and `new`, a
#' CSV with a `version` column, a SpeedupTest configuration); the first is
#' the initial code (the baseline) unless `--baseline` names another, and
#' every other version is compared with it. With `OLD NEW`, each file holds
#' one version, and the benchmarks are matched by name: a benchmark found in
#' only one file is reported as skipped.
#'
#' Options:
#' * `--format F`: the format of the files, as in [read_timings()]
#'   (default `auto`).
#' * `--metric M`: the measurement, as in [read_timings()] (e.g. `cpu_time`
#'   for Google Benchmark).
#' * `--alpha A`: the risk level (default 0.05).
#' * `--test P`: the protocol, by name (see [speeduptest_protocols]):
#'   `median` ([median_test()], the default), `mean`, ....
#' * `--fail-on slowdown|change|never|unguaranteed-slowdown`: when to exit
#'   with status 1: a significant slowdown of any benchmark whose confidence
#'   is guaranteed (the default), any significant guaranteed change (faster
#'   or slower), never, or any significant slowdown, guaranteed or not.
#'
#' **Honest gating** (SPEC section 10b). A verdict whose decisive variation
#' the data cannot show -- each version in one process (two Google
#' Benchmark files), each version in one block of runs (hyperfine runs all
#' the runs of one command, then all of the next), a runs test that says
#' the versions were measured in blocks -- or whose protocol's conditions
#' fail is "not guaranteed": its line says so, every output names the cause
#' and the cure, and no output states a risk for it. Such a slowdown does
#' not fail the job: the job ends with exit status 3, "inconclusive",
#' unless `--fail-on unguaranteed-slowdown`. Measure the versions
#' interleaved (`speeduptest measure`) or each in
#' several processes (`--base`/`--head`) to get guaranteed verdicts.
#' * `--replication auto|process|run` and `--design auto|unpaired|paired`:
#'   the unit of replication and the design, as in [median_test()] (see
#'   [replication]): by default the processes are the unit where runs share
#'   them, and interleaved rounds are paired.
#' * `--tolerance P`: changes smaller than `P` percent do not matter
#'   (default 1, the noise threshold criterion.rs also uses): the protocol
#'   runs with `min_speedup = 1 + P/100` (see [tolerance]), so a speedup or
#'   a slowdown is declared only beyond it, and two versions within it may
#'   be declared equivalent. `--tolerance 0` is the paper's test.
#' * `--p-adjust holm|BH|none`: the adjustment of the p-values over all the
#'   comparisons of the job (the speedup, the slowdown and the equivalence
#'   p-values each adjusted separately, as [stats::p.adjust()]). With `holm`
#'   (the default) a job whose benchmarks did not change fails with
#'   probability at most alpha; `BH` controls the false discovery rate
#'   (and, when nothing changed, the same risk); `none` decides each
#'   benchmark at alpha (the paper's choice: a suite of 30 unchanged
#'   benchmarks then fails about 1 - 0.95^30 = 79 % of jobs).
#' * `--warmup keep|detect`: `detect` analyses each process's steady
#'   iterations only ([trim_warmup()]): the iterations dropped and the
#'   processes that never settled (left out) are reported as notes, and a
#'   benchmark where no process of a version settled has no runs of it
#'   left. `keep` (the default) takes the iterations as given.
#' * `--output text|markdown|json`: one line per benchmark and a summary
#'   (text); a Markdown table with the same figures for a pull-request
#'   comment; or a JSON document holding every figure (speedups, intervals,
#'   raw and adjusted p-values, detectable speedups, counts, the risk and
#'   the exit status) for other tools.
#' * `--html DIR`: also write the report site of the job ([report_site()])
#'   into the folder `DIR`: an index with filters and a page per benchmark,
#'   to upload as the job's artifact.
#' * `--baseline V`: with more than two versions, the version every other
#'   is compared with (default: the first).
#'
#' Each line gives the speedup (initial time / new time: above 1 is faster)
#' as the estimate of its interval (the ratio of the means for the mean,
#' the Hodges-Lehmann estimate on log times for the median) with the
#' two-sided `1 - 2 alpha` interval, each end a one-sided `1 - alpha` bound,
#' printed with the same digits as in R, and the decision in the words every
#' print of the package uses, against the tolerance: "significant speedup
#' beyond 1 %" when the protocol declares a speedup larger than the
#' tolerance (after the adjustment), "significant slowdown beyond 1 %" for a
#' slowdown larger than it, "equivalent within 1 %" when the two one-sided
#' tests place the change inside the tolerance, "no significant difference
#' at 1 %" otherwise, with the smallest speedup the data could have detected
#' (probability 0.8, at the level Holm asks of the first test), and
#' "insufficient data" when the protocol asks for more runs (this never
#' fails the job; the line says what to run). With `--tolerance 0` the
#' words carry no tolerance. The summary counts the verdicts and states the
#' job's risk: the probability that a job with no real change fails.
#'
#' @param args The arguments after `compare` (a character vector).
#' @return The exit status, invisibly: 0 (the `--fail-on` condition is not
#'   met), 1 (it is met by a guaranteed verdict, or by any with `--fail-on
#'   unguaranteed-slowdown`), 2 (bad input, or a report that cannot be
#'   written to the standard output, e.g. a full device or a closed
#'   descriptor: the message is written to the standard error) or 3
#'   (inconclusive: only verdicts that are not guaranteed meet the condition;
#'   the output says how to measure so that they are). The function never
#'   quits R; `speeduptest_cli()` and the
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
    wrote <- tryCatch(cli_write(compare_usage()), speeduptest_error = function(e) e)
    if (inherits(wrote, "error")) return(compare_fail(conditionMessage(wrote), usage = FALSE))
    return(invisible(0L))
  }
  problems <- character()
  res <- tryCatch(
    withCallingHandlers({
      t <- if (length(opts$base)) {
        read_timings(c(stats::setNames(opts$base, rep("base", length(opts$base))),
                       stats::setNames(opts$head, rep("head", length(opts$head)))),
                     format = opts$format, metric = opts$metric)
      } else if (length(opts$files) == 1L) {
        read_timings(opts$files, format = opts$format, metric = opts$metric)
      } else {
        read_timings(compare_labels(opts$files), format = opts$format,
                     metric = opts$metric)
      }
      wt <- warmup_timings(t, opts$warmup)
      for (m in wt$messages) warning(m, call. = FALSE)
      t <- wt$t
      list(t = t, run = compare_run(t, opts))
    }, warning = function(w) {
      problems <<- c(problems, conditionMessage(w))
      invokeRestart("muffleWarning")
    }),
    error = function(e) e)
  if (inherits(res, "error")) return(compare_fail(conditionMessage(res)))
  run <- res$run
  if (!nrow(run$rows)) {
    for (p in problems) cat(esc_text(p), "\n", sep = "", file = stderr())
    return(compare_fail(sprintf("no benchmark has runs of both \"%s\" and another version.",
                                run$baseline)))
  }
  broken <- compare_broken(run)
  if (!is.null(broken)) {
    for (p in problems) cat(esc_text(p), "\n", sep = "", file = stderr())
    return(compare_fail(broken, usage = FALSE))
  }
  status <- compare_status(run$rows, opts$fail_on)
  other <- setdiff(problems, run$skipped$message)
  for (p in other) cat("note: ", esc_text(p), "\n", sep = "", file = stderr())
  notes <- compare_notes(run, opts, status, other)
  out <- switch(opts$output,
                text = compare_text(run, opts, status, notes),
                markdown = compare_markdown(run, opts, status, notes),
                json = compare_json(run, opts, status, notes))
  # a report that cannot be written is an error (2), never a decision
  wrote <- tryCatch({
    cli_write(out)
    if (!is.null(opts$html)) compare_site(run, opts$html)
  }, speeduptest_error = function(e) e)
  if (inherits(wrote, "error")) return(compare_fail(conditionMessage(wrote), usage = FALSE))
  invisible(status)
}

# --html DIR: the report site of the job's verdicts (report_site()), one
# page per benchmark (and version, when several are compared with the
# baseline); a benchmark without a verdict keeps its row with its reason.
compare_site <- function(run, dir) {
  rows <- run$rows
  verdicts <- compare_verdicts(rows)
  names(verdicts) <- if (length(run$others) > 1L) {
    sprintf("%s (%s)", rows$benchmark, rows$version)
  } else rows$benchmark
  missing <- vapply(verdicts, is.null, TRUE)
  verdicts[missing] <- lapply(rows$note[missing], function(m) simpleError(m))
  report_site(verdicts, dir, title = sprintf("speeduptest compare: %s against %s",
                                            paste(run$others, collapse = ", "), run$baseline))
}

# The option at args[i] and its value, given as "--key=value" or as the
# next argument: list(key, value, i) with i the position of the value; an
# option not in `with_value` is an error.
cli_option_value <- function(args, i, with_value) {
  a <- args[i]
  key <- sub("=.*$", "", a)
  if (!(key %in% with_value)) abort(sprintf("unknown option \"%s\".", a))
  if (grepl("=", a, fixed = TRUE)) return(list(key = key, value = sub("^[^=]*=", "", a), i = i))
  if (i == length(args)) abort(sprintf("option %s needs a value.", key))
  list(key = key, value = args[i + 1L], i = i + 1L)
}

# --tolerance P: the percentage P (>= 0) as min_speedup = 1 + P/100.
cli_tolerance <- function(val) {
  tol <- parse_decimal(val, percent = TRUE)
  if (is.na(tol) || tol < 0 || !is.finite(tol)) {
    abort(sprintf("--tolerance must be a percentage >= 0 (1 for 1 %%), not \"%s\".", val))
  }
  1 + tol / 100
}

# Two files: the versions are named after the files (their folders when the
# names are the same), "old" and "new" when both are the same.
compare_labels <- function(files) {
  lab <- timings_file_labels(files)
  if (lab[1L] == lab[2L]) lab <- c("old", "new")
  stats::setNames(files, lab)
}

compare_fail <- function(message, usage = TRUE) {
  cat("speeduptest compare: ", esc_text(message), "\n", sep = "", file = stderr())
  if (usage) cat(sprintf("Usage: speeduptest compare OLD NEW | FILE | --base B1 B2 ... --head H1 H2 ... [--format F] [--metric M] [--alpha A] [--test %s] [--fail-on slowdown|change|never|unguaranteed-slowdown] [--tolerance P] [--p-adjust holm|BH|none] [--output text|markdown|json] [--baseline V] [--warmup keep|detect]\n",
                         paste(protocol_choices(), collapse = "|")),
      file = stderr())
  invisible(2L)
}

compare_usage <- function() {
  c("Usage: speeduptest compare OLD NEW [options]",
    "       speeduptest compare FILE [options]   (a file holding both versions)",
    "       speeduptest compare --base B1 B2 ... --head H1 H2 ... [options]",
    "                      (several files per version, each file a process)",
    "",
    "Decides for every benchmark whether NEW is faster or slower than OLD",
    "(the Speedup-Test), prints one line per benchmark and a summary.",
    "",
    "Options:",
    "  --format F     auto (default), hyperfine, google-benchmark, pyperf,",
    "                 criterion, speeduptest, csv",
    "  --metric M     e.g. cpu_time for Google Benchmark (default real_time)",
    "  --alpha A      risk of each decision (default 0.05)",
    sprintf("  --test T       %s", or_list(c(sprintf("%s (default)", protocol_choices()[1L]),
                                             protocol_choices()[-1L]))),
    "  --fail-on F    slowdown (default: a guaranteed slowdown), change,",
    "                 never or unguaranteed-slowdown (any slowdown)",
    "  --replication R  auto (default: processes when runs share them), process",
    "                 or run (every run an independent replicate)",
    "  --design D     auto (default: paired by round when rounds are complete),",
    "                 unpaired or paired",
    "  --tolerance P  changes smaller than P % do not count (default 1);",
    "                 within P % the versions may be declared equivalent",
    "  --p-adjust M   holm (default), BH or none: the adjustment of the",
    "                 p-values over all benchmarks, so that a job with no",
    "                 real change fails with probability at most alpha",
    "  --output O     text (default), markdown (a table for a pull-request",
    "                 comment) or json (every figure, for tools)",
    "  --baseline V   with more than two versions, the one every other",
    "                 version is compared with (default: the first)",
    "  --html DIR     also write the report site (report_site()) into DIR",
    "  --warmup W     keep (default) or detect: each process's steady",
    "                 iterations only, unsettled processes left out",
    "",
    "Exit status: 1 when --fail-on is met by a guaranteed verdict, 0 when it",
    "is not met, 2 on bad input or when the report cannot be written, 3",
    "(inconclusive) when only verdicts that are not guaranteed (one process",
    "or one block per version) meet it: measure interleaved (speeduptest",
    "measure) or in several processes per version.")
}

compare_parse_args <- function(args) {
  if (!is.character(args)) {
    abort(sprintf("the arguments must be strings, not %s.", describe_type(args)))
  }
  opts <- list(format = "auto", metric = NULL, alpha = 0.05, test = "median",
               fail_on = "slowdown", files = character(), base = character(),
               head = character(), help = FALSE,
               replication = "auto", design = "auto",
               p_adjust = "holm", s0 = 1.01, output = "text", baseline = NULL,
               warmup = "keep", html = NULL)
  with_value <- c("--format", "--metric", "--alpha", "--test", "--fail-on",
                  "--replication", "--design", "--p-adjust", "--tolerance", "--output",
                  "--baseline", "--warmup", "--html")
  i <- 1L
  while (i <= length(args)) {
    a <- args[i]
    if (a %in% c("-h", "--help")) {
      opts$help <- TRUE
      return(opts)
    }
    if (a %in% c("--base", "--head")) {
      # the files of one version, up to the next option: each a process
      j <- i + 1L
      while (j <= length(args) && !startsWith(args[j], "--")) j <- j + 1L
      files <- compare_glob(args[seq_len(j - i - 1L) + i], a)
      opts[[sub("^--", "", a)]] <- c(opts[[sub("^--", "", a)]], files)
      i <- j
      next
    }
    if (startsWith(a, "--")) {
      kv <- cli_option_value(args, i, with_value)
      key <- kv$key
      val <- kv$value
      i <- kv$i
      switch(key,
        "--format" = opts$format <- val,
        "--html" = opts$html <- val,
        "--metric" = opts$metric <- val,
        "--alpha" = {
          alpha <- parse_decimal(val)
          if (is.na(alpha) || alpha <= 0 || alpha >= 1) {
            abort(sprintf("--alpha must be a number strictly between 0 and 1, not \"%s\".", val))
          }
          # a confidence passed as the risk: R warns (check_alpha()); the
          # gate refuses, as its intervals of level 1 - 2 alpha would not exist
          if (alpha >= 0.5) {
            abort(sprintf("--alpha %s is a risk of %s (a confidence of %s), at least 0.5: for a %s confidence, use --alpha %s.",
                          val, fmt_pct(alpha), fmt_pct(1 - alpha), fmt_pct(alpha),
                          format(1 - alpha)))
          }
          opts$alpha <- alpha
        },
        "--test" = opts$test <- check_choice(val, protocol_choices(), key),
        "--fail-on" = opts$fail_on <- check_choice(val, compare_fail_choices, key),
        "--replication" = opts$replication <- check_choice(val, replication_choices, key),
        "--design" = opts$design <- check_choice(val, design_choices, key),
        "--p-adjust" = opts$p_adjust <- check_choice(val, c("holm", "BH", "none"), key),
        "--tolerance" = opts$s0 <- cli_tolerance(val),
        "--output" = opts$output <- check_choice(val, c("text", "markdown", "json"), key),
        "--baseline" = opts$baseline <- val,
        "--warmup" = opts$warmup <- check_choice(val, c("keep", "detect"), key))
    } else {
      opts$files <- c(opts$files, a)
    }
    i <- i + 1L
  }
  if (length(opts$base) || length(opts$head)) {
    if (!length(opts$base) || !length(opts$head)) {
      abort(sprintf("--base and --head each need one file or more; %s has none.",
                    if (!length(opts$base)) "--base" else "--head"))
    }
    if (length(opts$files)) {
      abort(sprintf("give the files with --base and --head, or as OLD NEW, not both (\"%s\").",
                    opts$files[1L]))
    }
    return(opts)
  }
  if (!length(opts$files) || length(opts$files) > 2L) {
    abort(sprintf("give OLD NEW (two files), one file holding both versions, or several files per version with --base B1 B2 ... --head H1 H2 ..., not %d file(s).",
                  length(opts$files)))
  }
  opts
}

# The files after --base or --head: a pattern the shell did not expand
# (quoted, or a CI step's string) is expanded here, in sorted order.
compare_glob <- function(files, option) {
  if (!length(files)) abort(sprintf("option %s needs one file or more.", option))
  out <- unlist(lapply(files, function(f) {
    if (file.exists(f) || !grepl("[*?[]", f)) return(f)
    g <- sort(Sys.glob(f))
    if (!length(g)) abort(sprintf("%s \"%s\" matches no file.", option, f))
    g
  }))
  out
}

compare_fail_choices <- c("slowdown", "change", "never", "unguaranteed-slowdown")
