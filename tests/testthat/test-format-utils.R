# The formatting helpers of the prints.

test_that("confidences never print as 1 unless they are 1", {
  f <- speeduptest:::fmt_confidence
  expect_identical(f(c(0.95, 0.9547119, 1 - 8e-12, 1, NA, 0.5, 0.99999)),
                   c("0.95", "0.9547", "1 - 8.0e-12", "1", "NA", "0.5",
                     "1 - 1.0e-05"))
  col <- speeduptest:::fmt_confidence_column
  expect_identical(col(c(0.5, 0.93, 0.99)), c("0.50", "0.93", "0.99"))
  expect_identical(col(c(0.5, 0.999, NA)), c("0.500", "0.999", "NA"))
})

test_that("highest_confidence() prints the digits that matter", {
  hc <- highest_confidence(10:40, 1:20)
  expect_s3_class(hc, "speeduptest_confidence")
  expect_lt(as.numeric(hc), 1)
  expect_output(print(hc), "1 - 7.5e-08", fixed = TRUE)
  expect_false(inherits(1 - hc, "speeduptest_confidence"))
  expect_equal(1 - hc, 1 - as.numeric(hc))
  expect_true(hc > 0.99)
  expect_identical(format(highest_confidence(c(1, 2), 1:5)), "NA")
})

test_that("wrap_lines() keeps lines within the width and 1 - alpha whole", {
  w <- speeduptest:::wrap_lines
  long <- paste("  caveat:", paste(rep("word", 30), collapse = " "),
                "so 1 - alpha stays")
  out <- w(long, width = 40L)
  expect_true(all(nchar(out) <= 40L))
  expect_true(any(grepl("1 - alpha", out, fixed = TRUE)))
  expect_true(all(startsWith(out[-1L], "      ")))
  expect_identical(w("short"), "short")
})
