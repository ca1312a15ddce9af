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

test_that("fmt_num() writes what formatC(format = \"fg\", flag = \"#\") writes", {
  # the reference: formatC() value by value, as fmt_num() was written
  ref <- function(v, digits) {
    out <- vapply(v, function(x) {
      if (is.na(x)) return("NA")
      if (is.infinite(x)) return(if (x > 0) "Inf" else "-Inf")
      sub("\\.$", "", trimws(formatC(x, digits = digits, format = "fg", flag = "#")))
    }, "", USE.NAMES = FALSE)
    out
  }
  set.seed(7)
  edges <- as.vector(outer(c(1, 9.95, 9.995, 9.9995, 9.99949999, 9.99950001, 0.99995,
                             4.9995, 9.5, 9.4999, 9.9996, 9.99999999), 10^(-9:9)))
  v <- c(exp(runif(20000, log(1e-9), log(1e9))), -exp(runif(2000, log(1e-9), log(1e9))),
         edges, -edges, 0, NA, NaN, Inf, -Inf, 1e-4, 9.9996e-5, 9.9994e-5,
         round(runif(500, 0, 2000)), 1:200 / 100)
  for (d in 1:6) expect_identical(speeduptest:::fmt_num(v, d), ref(v, d), info = d)
  # the attributes of the value stay, as formatC() keeps them
  expect_identical(speeduptest:::fmt_num(c(a = 1.5, b = NA)), c(a = "1.50", b = "NA"))
  expect_identical(speeduptest:::fmt_num(numeric()), character())
  expect_identical(speeduptest:::fmt_num(5L), "5.00")
})

test_that("fmt_time() writes a time in its unit with 3 significant digits", {
  ref <- function(s) {
    vapply(s, function(v) {
      if (is.na(v)) return("NA")
      a <- abs(v)
      u <- if (a >= 1 || a == 0) c(1, "s") else if (a >= 1e-3) c(1e-3, "ms") else
        if (a >= 1e-6) c(1e-6, "us") else c(1e-9, "ns")
      paste(formatC(v / as.double(u[1L]), digits = 3L, format = "fg"), u[2L])
    }, "")
  }
  set.seed(8)
  v <- c(exp(runif(5000, log(1e-12), log(1e5))), -exp(runif(500, log(1e-12), log(1e5))),
         0, NA, NaN, Inf, -Inf, 1, 1e-3, 1e-6, 1e-9, 0.999999, 9.995e-4, 999.5e-6)
  expect_identical(speeduptest:::fmt_time(v), ref(v))
  expect_identical(speeduptest:::fmt_time(c(a = 1e-3, b = NA)), ref(c(a = 1e-3, b = NA)))
  expect_named(speeduptest:::fmt_time(c(a = 1e-3, b = NA)), c("a", "b"))
  expect_identical(speeduptest:::fmt_time(numeric()), ref(numeric()))
  expect_identical(trimws(speeduptest:::fmt_time(2.5e-3)), "2.5 ms")
})
