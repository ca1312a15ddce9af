# The shared input checks behind every wrapper (R/errors.R).

test_that("abort() raises a classed condition that carries its message", {
  cnd <- tryCatch(speeduptest:::abort("`x` is wrong.", class = "input"),
                  error = identity)
  expect_s3_class(cnd, c("speeduptest_error_input", "speeduptest_error", "error"))
  expect_equal(conditionMessage(cnd), "`x` is wrong.")
})

test_that("check_sample() accepts numbers and coerces integers to double", {
  expect_identical(speeduptest:::check_sample(1:3, "x"), c(1, 2, 3))
  expect_identical(speeduptest:::check_sample(c(2.5, 1), "x"), c(2.5, 1))
})

test_that("check_sample() names the argument for each kind of bad input", {
  cs <- speeduptest:::check_sample
  expect_error(cs("a", "times"), class = "speeduptest_error_input", regexp = "`times`")
  expect_error(cs(factor(1:3), "times"), class = "speeduptest_error_input", regexp = "numeric")
  expect_error(cs(list(1, 2), "times"), class = "speeduptest_error_input")
  expect_error(cs(c(1, NA), "times"), class = "speeduptest_error_input", regexp = "na_rm")
  expect_identical(cs(c(1, NA, 3), "times", na_rm = TRUE), c(1, 3))
  expect_error(cs(c(1, Inf), "times"), class = "speeduptest_error_input", regexp = "finite")
  expect_error(cs(c(1, NaN), "times"), class = "speeduptest_error_input", regexp = "missing")
  expect_error(cs(c(1, 0), "times", positive = TRUE),
               class = "speeduptest_error_input", regexp = "positive")
  expect_error(cs(1:2, "times", min_n = 3), class = "speeduptest_error_data",
               regexp = "at least 3")
})

test_that("check_conf_level() wants one number strictly inside (0, 1)", {
  ccl <- speeduptest:::check_conf_level
  expect_identical(ccl(0.9), 0.9)
  for (bad in list(0, 1, -0.1, 1.5, NA_real_, c(0.9, 0.95), "0.9", NULL)) {
    expect_error(ccl(bad), class = "speeduptest_error_input", regexp = "`conf_level`")
  }
  expect_error(speeduptest:::check_alpha(2), regexp = "`alpha`")
})

test_that("the alternative is picked by check_choice() and coded for the C core", {
  alts <- speeduptest:::alternatives
  ca <- function(x) match(speeduptest:::check_choice(x, alts, "alternative"), alts) - 1L
  expect_identical(ca(c("two.sided", "less", "greater")), 0L)
  expect_identical(ca("less"), 1L)
  expect_identical(ca("g"), 2L)
  expect_identical(speeduptest:::alternative_name(2L), "greater")
  expect_error(ca("bigger"), class = "speeduptest_error_input", regexp = "`alternative`")
  expect_error(ca(1), class = "speeduptest_error_input")
  expect_error(ca(c("less", "greater")), class = "speeduptest_error_input")
})

test_that("check_flag(), check_exact() and check_number() validate scalars", {
  expect_true(speeduptest:::check_flag(TRUE, "correct"))
  expect_error(speeduptest:::check_flag(NA, "correct"), regexp = "`correct`")
  expect_error(speeduptest:::check_flag(1, "correct"), class = "speeduptest_error_input")
  expect_identical(speeduptest:::check_exact(NULL), -1L)
  expect_identical(speeduptest:::check_exact(FALSE), 0L)
  expect_identical(speeduptest:::check_number(2L, "mu"), 2)
  expect_error(speeduptest:::check_number(Inf, "mu"), regexp = "`mu`")
})

test_that("check_status() turns a core status into a classed error", {
  ok <- list(status = 0L)
  expect_identical(speeduptest:::check_status(ok, "test"), ok)
  expect_error(speeduptest:::check_status(list(status = 3L), "ks_test()"),
               class = "speeduptest_error_data", regexp = "all values are equal")
  expect_error(speeduptest:::check_status(list(status = 4L), "ks_test()"),
               class = "speeduptest_error_memory")
  # a user interrupt the core stopped on: an interrupt condition for
  # handlers, else a classed error
  expect_error(speeduptest:::check_status(list(status = 6L), "hpt_speedup()"),
               class = "speeduptest_error_interrupted", regexp = "interrupted")
  caught <- tryCatch(speeduptest:::check_status(list(status = 6L), "x"),
                     interrupt = function(e) "interrupt")
  expect_identical(caught, "interrupt")
})

# ---- arguments spelled the base R way -------------------------------------------

test_that("base R spellings get the package's spelling in a classed error", {
  x <- c(3, 4, 5, 6, 7)
  y <- c(1, 2, 3, 2, 1)
  expect_error(median_test(x, y, na.rm = TRUE), "use `na_rm`",
               class = "speeduptest_error_argument")
  expect_error(mean_test(x, y, conf.level = 0.9), "alpha = 1 - conf.level",
               class = "speeduptest_error_argument")
  expect_error(mean_test(x, y, var.equal = TRUE), "Student's or Welch's",
               class = "speeduptest_error_argument")
  expect_error(median_test(x, y, paired = TRUE), "signed_rank_test",
               class = "speeduptest_error_argument")
  expect_error(median_test(x, y, alternative = "less"), "swap x and y",
               class = "speeduptest_error_argument")
  expect_error(ks_test(x, y, na.rm = TRUE), "ks_test\\(\\); use `na_rm`",
               class = "speeduptest_error_argument")
  expect_error(t_test(x, y, var.equal = TRUE), "use `var_equal`",
               class = "speeduptest_error_argument")
  expect_error(f_test(x, y, conf.level = 0.9), "use `conf_level`",
               class = "speeduptest_error_argument")
  expect_error(wilcoxon_test(x, y, conf.int = TRUE), "use `conf_int`",
               class = "speeduptest_error_argument")
  expect_error(signed_rank_test(x - y, conf.int = TRUE), "use `conf_int`",
               class = "speeduptest_error_argument")
  expect_error(shapiro_wilk(x, na.rm = TRUE), "use `na_rm`",
               class = "speeduptest_error_argument")
  expect_error(proportion_ci(3, 10, conf.level = 0.9), "use `conf_level`",
               class = "speeduptest_error_argument")
  expect_error(min_benchmarks(0.3, conf.level = 0.9), "use `conf_level`",
               class = "speeduptest_error_argument")
  expect_error(t_test_summary(1, 1, 10, 2, 1, 10, var.equal = TRUE),
               "use `var_equal`", class = "speeduptest_error_argument")
  expect_error(hpt(splash2_hpt, higher.is.better = TRUE),
               "use `higher_is_better`", class = "speeduptest_error_argument")
  expect_error(hpt_speedup(splash2_hpt, na.rm = TRUE), "use `na_rm`",
               class = "speeduptest_error_argument")
  expect_error(speedup_suite(list(a = list(x, y)), na.rm = TRUE), "use `na_rm`",
               class = "speeduptest_error_argument")
  # two misspellings: both reported
  cnd <- tryCatch(t_test(x, y, var.equal = TRUE, conf.level = 0.9),
                  error = identity)
  expect_identical(cnd$arguments, c("var.equal", "conf.level"))
  # an unknown argument, and an unnamed extra one
  expect_error(median_test(x, y, foo = 1), "Unused argument\\(s\\) to median_test\\(\\): `foo`",
               class = "speeduptest_error_argument")
  expect_error(median_test(x, y, 0.05, TRUE, FALSE, 3), "1 unnamed argument",
               class = "speeduptest_error_argument")
  # the formula method too
  runs <- data.frame(t = c(x, y), v = rep(c("a", "b"), each = 5))
  expect_error(median_test(t ~ v, data = runs, na.rm = TRUE), "median_test\\(\\); use `na_rm`",
               class = "speeduptest_error_argument")
})

test_that("messages show strings byte-safe and cut, and name non-vectors", {
  e <- tryCatch(t_test(1:5, alternative = "tw\xffo"), error = identity)
  expect_s3_class(e, "speeduptest_error_input")
  expect_true(validUTF8(conditionMessage(e)))
  expect_match(conditionMessage(e), "tw<ff>o", fixed = TRUE)
  e <- tryCatch(t_test(1:5, alternative = strrep("x", 1e6)), error = identity)
  expect_lt(nchar(conditionMessage(e)), 200)
  expect_match(conditionMessage(e), "...\"", fixed = TRUE)
  expect_error(t_test(sum), "`x` must be a numeric vector, not a function",
               class = "speeduptest_error_input")
  expect_error(t_test(quote(a)), "not an R expression", class = "speeduptest_error_input")
  expect_error(t_test(new.env()), "not an environment", class = "speeduptest_error_input")
})
