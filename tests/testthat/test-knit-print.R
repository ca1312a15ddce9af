# knit_print(): markdown tables for R Markdown, p-values never shown as 0.

norm_s <- function(n, mean, sd) mean + sd * stats::qnorm(stats::ppoints(n))

test_that("md_pval() never prints 0", {
  expect_identical(speeduptest:::md_pval(c(0.5, 1e-12, 0, NA)),
                   c("0.5", "1e-12", "< 2.2e-308", "NA"))
  expect_identical(speeduptest:::md_pval(0.0123456), "0.0123")
})

test_that("verdicts, suites and HPT results knit as markdown tables", {
  skip_if_not_installed("knitr")
  v <- median_test(norm_s(30, 10, 0.2), norm_s(30, 5, 0.2))
  out <- knitr::knit_print(v)
  expect_s3_class(out, "knit_asis")
  lines <- strsplit(out, "\n")[[1L]]
  expect_true(any(grepl("^\\| quantity \\| value \\|$", lines)))
  expect_false(any(grepl("p-value \\| 0 ", lines)))
  two <- cpu_runs[cpu_runs$version %in% c("O1", "O3") &
                    cpu_runs$benchmark %in% c("fft", "matmul"), ]
  two$version <- droplevels(two$version)
  two$benchmark <- droplevels(two$benchmark)
  h <- hpt(splash2_hpt, higher_is_better = TRUE)
  expect_snapshot({
    cat(knitr::knit_print(v))
    cat(knitr::knit_print(speedup_suite(two)))
    cat(knitr::knit_print(h))
  })
})

test_that("tidy() and glance() results knit with readable p-values", {
  skip_if_not_installed("knitr")
  v <- median_test(norm_s(30, 10, 0.2), norm_s(30, 5, 0.2))
  td <- tidy(v)
  expect_s3_class(td, "data.frame")
  expect_lt(td$p.value, 1e-8)
  out <- knitr::knit_print(td)
  expect_match(out, "| p.value |", fixed = TRUE)
  expect_match(out, sprintf("| %s |", speeduptest:::md_pval(td$p.value)), fixed = TRUE)
  expect_false(grepl("| 0 |", out, fixed = TRUE))
  expect_s3_class(knitr::knit_print(glance(v)), "knit_asis")
})
