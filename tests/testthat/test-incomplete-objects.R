# Methods given an object whose class promises parts it lacks (built by
# hand or cut down) refuse it with a classed error naming the argument.

test_that("methods refuse incomplete result objects with a classed error", {
  broken <- list(
    structure(list(), class = "speedup_suite"),
    structure(list(), class = "speeduptest_hpt"),
    structure(list(a = 1), class = "speedup_verdict"))
  f <- tempfile(fileext = ".pdf")
  on.exit(unlink(f))
  grDevices::pdf(f)
  on.exit(grDevices::dev.off(), add = TRUE)
  for (x in broken) {
    cl <- class(x)[1L]
    msg <- sprintf("`x` is not a complete `%s` object: it lacks the part", cl)
    expect_error(format(x), msg, class = "speeduptest_error_input")
    expect_error(print(x), msg, class = "speeduptest_error_input")
    expect_error(summary(x), "`object` is not a complete",
                 class = "speeduptest_error_input")
    expect_error(plot(x), msg, class = "speeduptest_error_input")
    expect_error(glance(x), msg, class = "speeduptest_error_input")
    if (cl != "speeduptest_hpt") {
      expect_error(tidy(x), msg, class = "speeduptest_error_input")
    }
  }
  expect_error(as.data.frame(broken[[3]]), class = "speeduptest_error_input")
})

test_that("timings without their columns are refused by methods and analyses", {
  t <- structure(data.frame(), class = c("speedup_timings", "data.frame"))
  msg <- "is not a complete `speedup_timings` object: it lacks the columns `benchmark`"
  expect_error(print(t), msg, class = "speeduptest_error_input")
  expect_error(summary(t), msg, class = "speeduptest_error_input")
  expect_error(hpt(t), paste0("`a` ", msg), class = "speeduptest_error_input")
  expect_error(speedup_suite(t), paste0("`data` ", msg), class = "speeduptest_error_input")
})

test_that("complete objects still print", {
  set.seed(3)
  s <- speedup_suite(data.frame(benchmark = rep(c("a", "b"), each = 20),
                                version = rep(rep(c("old", "new"), each = 10), 2),
                                time = stats::rexp(40) + 1))
  expect_no_error(capture.output(print(s), print(summary(s))))
  v <- mean_test(c(1.1, 1.2, 1.3, 1.25, 1.15), c(1, 1.05, 1.1, 1.02, 0.99))
  expect_no_error(capture.output(print(v), print(summary(v)), tidy(v), glance(v)))
})

test_that("as.data.frame() of an r-Speedup is its one-row summary", {
  x <- splash2_hpt
  x$score[x$machine == "X"] <- 1.76 * x$score[x$machine == "X"]
  hs <- hpt_speedup(x, higher_is_better = TRUE)
  d <- as.data.frame(hs)
  expect_equal(nrow(d), 1L)
  expect_equal(d$speedup, hs$speedup)
  expect_equal(d$supremum, hs$supremum)
  expect_equal(d$n, hs$n)
  expect_error(as.data.frame(structure(list(), class = "speeduptest_hpt_speedup")),
               "lacks `speedup`", class = "speeduptest_error_input")
})
