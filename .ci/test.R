# Runs the test suite against the installed package and prints the closing
# line "N passed, N failed" (counting expectations; an error inside a test
# counts as a failure).  Exits non-zero on any failure.
library(testthat)
res <- testthat::test_dir("tests/testthat", package = "speeduptest",
                          load_package = "installed",
                          reporter = testthat::ProgressReporter$new(show_praise = FALSE),
                          stop_on_failure = FALSE, stop_on_warning = FALSE)
df <- as.data.frame(res)
passed <- sum(df$passed)
failed <- sum(df$failed) + sum(df$error)
skipped <- sum(df$skipped)
cat(sprintf("\n%d passed, %d failed, %d skipped\n", passed, failed, skipped))
quit(status = if (failed > 0) 1L else 0L)
