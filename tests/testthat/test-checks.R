# The argument checks (R/checks.R): one rule for choices among strings, and
# errors that name the exported function the user called and the argument.

choice_error <- function(expr) {
  tryCatch({
    expr
    NULL
  }, speeduptest_error = identity)
}

# ---- the matching rule ---------------------------------------------------------

test_that("check_choice() takes an exact or a unique partial match", {
  cc <- speeduptest:::check_choice
  ch <- c("median", "mean", "mode", "trimmed")
  expect_identical(cc("mean", ch, "m"), "mean")
  expect_identical(cc("tri", ch, "m"), "trimmed")
  expect_identical(cc("med", ch, "m"), "median")
  # an exact match wins over the choices it abbreviates
  expect_identical(cc("a", c("ab", "a"), "m"), "a")
  # the whole vector of choices, a function's default, means the first
  expect_identical(cc(ch, ch, "m"), "median")
})

test_that("check_choice() refuses what is ambiguous, absent, NA or not one string", {
  cc <- speeduptest:::check_choice
  ch <- c("median", "mean", "mode")
  bad <- list("me", "m", "", "average", "MEAN", NA, NA_character_, 1, TRUE, NULL,
              character(), c("median", "mean"), factor("mean"), list("mean"),
              ch[2:3], function() "mean")
  for (b in bad) {
    e <- choice_error(cc(b, ch, "stat"))
    expect_s3_class(e, "speeduptest_error_input")
    # the message lists the choices and shows the value given
    expect_match(conditionMessage(e),
                 '^`stat` must be one of "median", "mean", "mode", not ', info = deparse(b))
  }
  expect_match(conditionMessage(choice_error(cc("me", ch, "stat"))),
               'not "me", which could be "median" or "mean"', fixed = TRUE)
  expect_match(conditionMessage(choice_error(cc("average", ch, "stat"))),
               'not "average".', fixed = TRUE)
  expect_match(conditionMessage(choice_error(cc(NA, ch, "stat"))), "not NA.",
               fixed = TRUE)
  expect_match(conditionMessage(choice_error(cc(2, ch, "stat"))), "not 2.",
               fixed = TRUE)
  # an option of the command line is named as typed, without backquotes
  expect_match(conditionMessage(choice_error(cc("x", ch, "--test"))),
               '^--test must be one of')
  # bytes that are not UTF-8 are shown escaped
  expect_match(conditionMessage(choice_error(cc("\xff", ch, "stat"))), "<ff>",
               fixed = TRUE)
})

# The same rule for the choice arguments of the exports.  Each case: a call
# that returns the choice it was given as the function stored it, the
# choices (the first is the default), a partial match, and an ambiguous
# abbreviation when the choices allow one.
set.seed(11)
x <- rlnorm(35, log(2), 0.05)
y <- rlnorm(35, log(1.8), 0.05)
suite <- lapply(1:3, function(i) list(x = rlnorm(35, log(2), 0.05),
                                     y = rlnorm(35, log(1.8), 0.05)))
names(suite) <- paste0("b", 1:3)
alts <- c("two.sided", "less", "greater")
prop_methods <- c("prop.test", "wilson", "clopper-pearson", "agresti-coull", "normal")
choice_cases <- list(
  list(fn = "t_test", arg = "alternative", choices = alts, partial = c(g = "greater"),
       call = function(v) t_test(x, y, alternative = v)$alternative),
  list(fn = "wilcoxon_test", arg = "alternative", choices = alts,
       partial = c(le = "less"),
       call = function(v) wilcoxon_test(x, y, alternative = v)$alternative),
  list(fn = "f_test", arg = "alternative", choices = alts, partial = c(two = "two.sided"),
       call = function(v) f_test(x, y, alternative = v)$alternative),
  list(fn = "proportion_ci", arg = "method", choices = prop_methods,
       partial = c(wil = "wilson", clop = "clopper-pearson"),
       call = function(v) {
         m <- proportion_ci(17, 30, method = v)$method
         c(`Wilson score interval with continuity correction (prop.test)` = "prop.test",
           `Wilson score interval` = "wilson",
           `Clopper-Pearson exact interval` = "clopper-pearson",
           `Agresti-Coull interval` = "agresti-coull",
           `Normal approximation (Wald) interval` = "normal")[[
             sub("^Confidence interval for a proportion: ", "", m)]]
       }),
  list(fn = "speedup_suite", arg = "prop_method", choices = prop_methods,
       partial = c(wil = "wilson", agr = "agresti-coull"),
       call = function(v) speedup_suite(suite, prop_method = v)$proportion$method[[1L]]),
  list(fn = "speedup_suite", arg = "p_adjust", choices = c("none", "holm", "BH"),
       partial = c(ho = "holm", B = "BH"),
       call = function(v) speedup_suite(suite, p_adjust = v)$p_adjust),
  list(fn = "speedup_suite", arg = "weights", choices = c("custom", "equal", "fraction"),
       partial = c(eq = "equal", frac = "fraction"), default = FALSE,
       call = function(v) {
         suppressWarnings(speedup_suite(suite, weights = v))$weights_requested
       }),
  list(fn = "plan_runs", arg = "test", choices = c("median", "mean"),
       partial = c(med = "median"), ambiguous = "me",
       call = function(v) plan_runs(x, y, speedup = 1.2, test = v, reps = 20,
                                    max_runs = 40)$test),
  list(fn = "tidy", arg = "which", choices = c("median", "mean"),
       partial = c(mea = "mean"), ambiguous = "m",
       call = function(v) {
         sub("^speedup of the ", "", unique(tidy(speedup_suite(suite), which = v)$term))
       })
)

test_that("the choice arguments of the exports follow the one rule", {
  for (case in choice_cases) {
    info <- sprintf("%s(%s =)", case$fn, case$arg)
    ch <- case$choices
    for (v in ch) expect_identical(case$call(v), v, info = info)
    for (p in names(case$partial)) {
      expect_identical(case$call(p), case$partial[[p]], info = paste(info, p))
    }
    if (!isFALSE(case$default)) expect_identical(case$call(ch), ch[1L], info = info)
    bad <- c(list("nonesuch", NA, NA_character_, 1, rev(ch)),
             if (!is.null(case$ambiguous)) list(case$ambiguous))
    for (b in bad) {
      e <- choice_error(case$call(b))
      expect_true(inherits(e, "speeduptest_error_input"), info = paste(info, deparse(b)))
      expect_match(conditionMessage(e), sprintf("^`%s` must be one of", case$arg),
                   info = paste(info, deparse(b)))
      expect_identical(conditionCall(e), as.call(list(as.name(case$fn))),
                       info = paste(info, deparse(b)))
    }
  }
})

test_that("prop_method = \"wil\" is the Wilson interval, as method = \"wil\" is", {
  s <- speedup_suite(suite, prop_method = "wil")
  expect_identical(s$proportion$method, c("wilson", "wilson"))
  p <- s$proportion[s$proportion$protocol == "median", ]
  ref <- proportion_ci(p$a, p$b, method = "wilson")
  expect_equal(c(p$conf_low, p$conf_high), as.numeric(ref$conf.int))
  expect_identical(proportion_ci(1, 3, method = "wil")$conf.int,
                   proportion_ci(1, 3, method = "wilson")$conf.int)
})

test_that("measure(), read_timings() and the plots follow the rule too", {
  skip_on_cran()
  f <- function() NULL
  t <- suppressWarnings(measure(f = f, .runs = 2, .warmup = 0, .order = "rand",
                                .shell = "nev"))
  expect_identical(attr(t, "order"), "random")
  e <- choice_error(measure(f = f, .runs = 2, .shell = "a"))
  expect_match(conditionMessage(e), 'not "a", which could be "auto" or "always"',
               fixed = TRUE)
  expect_identical(conditionCall(e), quote(measure()))
  h <- timings_fixture("hyperfine-speedup.json")
  expect_identical(read_timings(h, format = "hyper")$time, read_timings(h)$time)
  e <- choice_error(read_timings(h, format = "c"))
  expect_match(conditionMessage(e), 'which could be "criterion" or "csv"', fixed = TRUE)
  g <- timings_fixture("gbench-base.json")
  expect_identical(read_timings(g, metric = "cpu")$time,
                   read_timings(g, metric = "cpu_time")$time)
  e <- choice_error(read_timings(g, metric = "wall"))
  expect_match(conditionMessage(e), "for the Google Benchmark file", fixed = TRUE)
  expect_identical(conditionCall(e), quote(read_timings()))
  e <- choice_error(plot(speedup_suite(suite), which = "avg"))
  expect_identical(conditionCall(e), quote(plot()))
})

# ---- the caller named ----------------------------------------------------------

# A bad argument to each function of a sample of the exports: the error
# names the exported function as a call holding its name only, is an input
# error and names the argument in its message.
caller_cases <- list(
  list(median_test = function() median_test(x, y, alpha = 2), arg = "alpha"),
  list(mean_test = function() mean_test(time ~ v, data = data.frame(
    time = c(x, y), v = rep(c("a", "b"), each = 35)), rigorous = NA), arg = "rigorous"),
  list(highest_confidence = function() highest_confidence(x, y, na_rm = "no"),
       arg = "na_rm"),
  list(t_test = function() t_test(x, y, conf_level = 95), arg = "conf_level"),
  list(ks_test = function() ks_test(x, y, exact = "yes"), arg = "exact"),
  list(signed_rank_test = function() signed_rank_test(x - y, mu = NA), arg = "mu"),
  list(shapiro_wilk = function() shapiro_wilk("a"), arg = "x"),
  list(proportion_ci = function() proportion_ci(3, 2.5), arg = "b"),
  list(min_benchmarks = function() min_benchmarks(0.5, precision = 2), arg = "precision"),
  list(speedup_suite = function() speedup_suite(suite, precision = -1), arg = "precision"),
  list(plan_runs = function() plan_runs(x, y, power = 2), arg = "power"),
  list(measure = function() measure(f = function() NULL, .runs = 0), arg = ".runs"),
  list(read_timings = function() read_timings(NA_character_), arg = "path"),
  list(read_speedup_config = function() read_speedup_config(1), arg = "file"),
  list(as_timings = function() as_timings(suite, versions = c("a", "a")),
       arg = "versions"),
  list(write_speedup_report = function() write_speedup_report(list(), "p"),
       arg = "suite"),
  list(install_cli = function() install_cli(NA_character_), arg = "dir"),
  list(speeduptest_cli = function() speeduptest_cli(c("a", NA)), arg = "args"),
  list(print = function() print(structure(list(), class = "speedup_verdict")), arg = "x"),
  list(summary = function() summary(structure(list(), class = "speedup_suite")),
       arg = "object"),
  list(tidy = function() tidy(speedup_suite(suite), which = 1), arg = "which"),
  list(plot = function() plot(as_timings(list(a = x, b = y)), ncol = 0), arg = "ncol")
)

test_that("an error names the exported function the user called and the argument", {
  for (case in caller_cases) {
    fn <- names(case)[1L]
    e <- choice_error(case[[1L]]())
    expect_s3_class(e, "speeduptest_error_input")
    expect_identical(conditionCall(e), as.call(list(as.name(fn))), info = fn)
    expect_match(conditionMessage(e), paste0("`", case$arg, "`"), fixed = TRUE,
                 info = fn)
  }
})

test_that("the caller is the outermost export, whatever the name it is called by", {
  # called by a function of the user's: still the export
  mine <- function(a) median_test(a, y, alpha = -1)
  expect_identical(conditionCall(choice_error(mine(x))), quote(median_test()))
  # under another name, or through do.call()
  g <- median_test
  expect_identical(conditionCall(choice_error(g(x, y, alpha = -1))), quote(median_test()))
  expect_identical(conditionCall(choice_error(do.call(median_test, list(x, y, alpha = -1)))),
                   quote(median_test()))
  expect_identical(conditionCall(choice_error(speeduptest::t_test(x, y, mu = "a"))),
                   quote(t_test()))
  # an error raised deep inside speedup_suite() names speedup_suite()
  t <- as_timings(suite)
  e <- choice_error(speedup_suite(t, replication = "sometimes"))
  expect_identical(conditionCall(e), quote(speedup_suite()))
  expect_match(conditionMessage(e), "`replication`", fixed = TRUE)
  # what R prints
  msg <- tryCatch(median_test(x, y, alpha = 2), error = function(e) {
    paste(utils::capture.output(print(e)), collapse = "\n")
  })
  expect_match(msg, "<speeduptest_error_input in median_test(): `alpha` must be",
               fixed = TRUE)
  # a call given by the code raising the error is kept
  e <- choice_error(hpt_speedup(x, y, precision = 2))
  expect_identical(conditionCall(e)[[1L]], quote(hpt_speedup))
})

test_that("warnings name the caller too", {
  w <- tryCatch(median_test(x, y, alpha = 0.9), warning = identity)
  expect_s3_class(w, "speeduptest_warning_alpha")
  expect_identical(conditionCall(w), quote(median_test()))
})

test_that("outside any export there is no caller to name", {
  e <- choice_error(speeduptest:::abort("`x` is wrong."))
  expect_null(conditionCall(e))
})

test_that("numbers on the command line are decimal numbers only", {
  pd <- speeduptest:::parse_decimal
  expect_identical(pd("0.05"), 0.05)
  expect_identical(pd("1"), 1)
  expect_identical(pd(".5"), 0.5)
  expect_identical(pd("5."), 5)
  expect_identical(pd("1e-3"), 1e-3)
  expect_identical(pd("2%", percent = TRUE), 2)
  for (v in c("0x10", "0x1p-4", "Inf", "NaN", "NA", " 1", "1 ", "", "1e", "e5", "1,5", "--1",
              "2%", "1.2.3", "\u0661")) {
    expect_identical(pd(v), NA_real_, info = v)
  }
  f <- timings_fixture("hyperfine-slowdown.json")
  for (a in list(c("--tolerance=0x10"), c("--tolerance", "Inf"), c("--alpha", "0x0.1p0"),
                 c("--alpha=NaN"))) {
    err <- utils::capture.output(st <- speeduptest:::cli_compare(c(f, a)), type = "message")
    expect_identical(st, 2L, info = paste(a, collapse = " "))
    expect_match(err[1L], "must be", info = paste(a, collapse = " "))
  }
  expect_error(speeduptest_cli(c("cfg.csv", "--precision", "0x0.1p0")), "--precision")
  expect_error(speeduptest_cli(c("cfg.csv", "--conf-level", "0x0.fp0")), "--conf-level")
})
