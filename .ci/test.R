# Runs the test suite against the installed package and prints the closing
# line "N passed, N failed" (counting expectations; an error inside a test
# counts as a failure).  Exits non-zero on any failure.
#
# On a terminal the usual progress display is used; when the output goes to
# a file or a CI log, a compact reporter prints one line per test file and
# then the details of every failure, so the log stays short.
library(testthat)

# One line per file ("ok    test-hpt.R    120 passed  (1.2 s)"), then the
# failures, errors and skips in full.
LineReporter <- R6::R6Class("LineReporter", inherit = testthat::Reporter,
  public = list(
    file = NULL, counts = NULL, started = NULL, problems = list(),
    start_file = function(filename) {
      self$file <- filename
      self$counts <- c(passed = 0L, failed = 0L, skipped = 0L, warnings = 0L)
      self$started <- proc.time()[["elapsed"]]
    },
    add_result = function(context, test, result) {
      kind <- if (inherits(result, "expectation_success")) "passed"
        else if (inherits(result, "expectation_skip")) "skipped"
        else if (inherits(result, "expectation_warning")) "warnings"
        else "failed"
      self$counts[[kind]] <- self$counts[[kind]] + 1L
      if (kind != "passed") {
        self$problems[[length(self$problems) + 1L]] <- list(
          file = self$file, test = test, kind = kind,
          message = conditionMessage(result))
      }
    },
    end_file = function() {
      n <- self$counts
      extra <- c(if (n[["failed"]]) sprintf("%d failed", n[["failed"]]),
                 if (n[["skipped"]]) sprintf("%d skipped", n[["skipped"]]),
                 if (n[["warnings"]]) sprintf("%d warnings", n[["warnings"]]))
      self$cat_line(sprintf("%-5s %-28s %5d passed%s  (%.1f s)",
                            if (n[["failed"]]) "FAIL" else "ok", self$file,
                            n[["passed"]],
                            if (length(extra)) paste0(", ", paste(extra, collapse = ", ")) else "",
                            proc.time()[["elapsed"]] - self$started))
    },
    end_reporter = function() {
      if (!length(self$problems)) return(invisible())
      self$cat_line("")
      for (p in self$problems) {
        self$cat_line(sprintf("---- %s: %s (%s)", toupper(p$kind), p$test, p$file))
        self$cat_line(p$message)
      }
    }
  )
)

reporter <- if (isatty(stdout()) && !nzchar(Sys.getenv("CI"))) {
  testthat::ProgressReporter$new(show_praise = FALSE)
} else {
  LineReporter$new()
}
res <- testthat::test_dir("tests/testthat", package = "speeduptest",
                          load_package = "installed",
                          reporter = reporter,
                          stop_on_failure = FALSE, stop_on_warning = FALSE)
df <- as.data.frame(res)
passed <- sum(df$passed)
failed <- sum(df$failed) + sum(df$error)
skipped <- sum(df$skipped)
cat(sprintf("\n%d skipped\n%d passed, %d failed\n", skipped, passed, failed))
quit(status = if (failed > 0) 1L else 0L)
