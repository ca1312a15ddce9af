# The printed lines of many verdicts at once (R/verdict-lines.R) against
# format() of each benchmark's own verdict, byte for byte.

lines_cases <- function(seed = 1) {
  set.seed(seed)
  p <- function(x, y, px = NULL, py = NULL, labels = c("old", "new"), baseline = NULL) {
    list(x = x, y = y, labels = labels, data_name = "b: old vs new",
         baseline = baseline %||% sprintf("\"%s\" (first version in the timings)", labels[1L]),
         process = if (!is.null(px)) list(x = px, y = py))
  }
  long <- paste(rep("a_very_long_benchmark_version_name", 3), collapse = "-")
  list(
    plain = p(rlnorm(20, 0, 0.02), rlnorm(20, 0, 0.02)),
    faster = p(rlnorm(25, 0.2, 0.03), rlnorm(25, 0, 0.03)),
    slightly = p(rlnorm(40, 0.015, 0.01), rlnorm(40, 0, 0.01)),
    slower = p(rlnorm(25, 0, 0.03), rlnorm(25, 0.2, 0.03)),
    equiv = p(rlnorm(200, 0, 0.005), rlnorm(200, 0, 0.005)),
    one = p(1, c(1, 1.2)),
    two = p(c(1, 1.1), c(1, 1.2, 1.1)),
    three = p(c(1, 1.1, 1.05), c(1.3, 1.2, 1.25)),
    four = p(c(1, 1.1, 1.05, 1.02), c(1.3, 1.2, 1.25, 1.22)),
    five = p(rlnorm(5, 0.1, 0.02), rlnorm(5, 0, 0.02)),
    const = p(rep(1, 10), rep(1, 10)),
    constx = p(rep(1, 10), rlnorm(10)),
    ties = p(round(rlnorm(30, 0, 0.05), 2), round(rlnorm(30, 0.03, 0.05), 2)),
    allties = p(rep(c(1, 2), 10), rep(c(1, 2), 10)),
    trend = p(1 + (1:40) / 100 + rnorm(40, 0, 0.002), rlnorm(40, 0, 0.01)),
    trendy = p(rlnorm(40, 0, 0.01), 1 - (1:40) / 200 + rnorm(40, 0, 0.001)),
    skew = p(rexp(50) + 1, rexp(50) * 3 + 0.9),
    shape = p(c(rlnorm(30, 0, 0.01), rlnorm(30, 0.3, 0.01)), rlnorm(60, 0.15, 0.01)),
    big = p(rlnorm(300, 0, 0.1), rlnorm(300, 0.005, 0.1)),
    tiny = p(rlnorm(20, log(1e-9), 0.02), rlnorm(20, log(1e-9), 0.02)),
    single = p(rlnorm(15, 0, 0.02), rlnorm(15, 0.01, 0.02), rep(1L, 15), rep(2L, 15)),
    single_chr = p(rlnorm(12, 0, 0.02), rlnorm(12, 0, 0.02), rep("a", 12), rep("b", 12)),
    processes = p(rlnorm(16, 0, 0.02), rlnorm(16, 0, 0.02), rep(1:4, each = 4),
                  rep(5:8, each = 4)),
    huge = p(rlnorm(10, 5, 0.1), rlnorm(10, 0, 0.1)),
    negative = p(c(rlnorm(9), -1), rlnorm(10)),
    error = simpleError("no runs"),
    markup = p(rlnorm(8), rlnorm(8, 0.1), labels = c("<b>old</b>", "new & \"x\"")),
    control = p(rlnorm(12), rlnorm(12, 0.2), labels = c("o\033[31mld\n", "n\u200bew\t")),
    long = p(rlnorm(20, 0.1, 0.05), rlnorm(20, 0, 0.05), labels = c(long, paste0(long, "2"))),
    nobase = list(x = rlnorm(20, 0, 0.02), y = rlnorm(20, 0.02, 0.02), labels = c("a", "b"),
                  data_name = "x"))
}

# verdict_table_pages_lines() of the cases against format() of each
# benchmark's verdict made alone; the table's own rows are made from its
# columns (not from verdict objects) wherever the protocol allows.
expect_lines_match <- function(test, alpha, s0) {
  ns <- asNamespace("speeduptest")
  op <- options(speeduptest.plan_method = "normal")
  on.exit(options(op), add = TRUE)
  parts <- lines_cases()
  # (the probability protocol's plan of processes is simulated, whatever
  # the plan method: seconds per verdict)
  if (test == "prob") parts$processes <- NULL
  one <- function(j) {
    if (inherits(parts[[j]], "error")) return(parts[[j]])
    tryCatch(suppressWarnings(ns$run_structured(test, parts[[j]], alpha, TRUE, FALSE, NULL,
                                                "auto", "auto", min_speedup = s0)),
             error = function(e) e)
  }
  tab <- suppressWarnings(ns$verdict_table(test, parts, alpha, s0, analyse = one))
  fast <- stats::setNames(tab$fast, names(parts))
  expect_true(all(fast[c("plain", "faster", "slower", "two", "const", "ties", "single",
                        "markup", "control", "long")]))
  pages <- suppressWarnings(ns$verdict_table_pages_lines(tab))
  n_checked <- 0L
  for (j in seq_along(parts)) {
    v <- one(j)
    info <- sprintf("%s, %s, alpha %s, s0 %s", names(parts)[j], test, alpha, s0)
    if (inherits(v, "error")) {
      expect_identical(pages$error[j], conditionMessage(v), info = info)
      next
    }
    expect_identical(pages$lines[[j]], suppressWarnings(format(v)), info = info)
    n_checked <- n_checked + 1L
  }
  expect_gt(n_checked, 20L)
  tab
}

test_that("the lines of all the verdicts are format() of each, byte for byte", {
  # (the probability protocol's plans with a tolerance are simulated
  # whatever the plan method: tens of seconds for a verdict; it is run
  # without one)
  cfgs <- list(median = list(c(0.05, 1), c(0.01, 1), c(0.1, 1.01), c(0.025, 1.05)),
               mean = list(c(0.05, 1), c(0.1, 1.01), c(0.05, 1.02)),
               prob = list(c(0.05, 1), c(0.01, 1)))
  for (test in names(cfgs)) {
    for (cfg in cfgs[[test]]) expect_lines_match(test, cfg[1L], cfg[2L])
  }
})

test_that("the table's own rows are made from its columns", {
  ns <- asNamespace("speeduptest")
  op <- options(speeduptest.plan_method = "normal")
  on.exit(options(op), add = TRUE)
  parts <- lines_cases()[c("plain", "faster", "slower", "ties", "markup")]
  for (test in c("median", "mean")) {
    tab <- ns$verdict_table(test, parts, 0.05, 1)
    got <- ns$verdict_table_lines(tab, rep(NA_real_, length(tab$rows)),
                                  rep(list(character()), length(tab$rows)))
    expect_false(any(vapply(got, is.null, TRUE)))
    expect_true(all(startsWith(vapply(got, `[`, "", 1L), sprintf("Speedup-Test (%s): ", test))))
  }
  # the probability protocol prints P[X > Y] with its interval, which the
  # table does not hold: its lines come from the verdicts
  tab <- ns$verdict_table("prob", parts, 0.05, 1)
  got <- ns$verdict_table_lines(tab, rep(NA_real_, length(tab$rows)),
                                rep(list(character()), length(tab$rows)))
  expect_true(all(vapply(got, is.null, TRUE)))
})

test_that("every plan of the advice goes through site_advice()", {
  ns <- asNamespace("speeduptest")
  op <- options(speeduptest.plan_method = "normal")
  on.exit(options(op), add = TRUE)
  parts <- lines_cases()[c("plain", "equiv", "ties", "five", "processes", "negative")]
  one <- function(j) tryCatch(suppressWarnings(ns$run_structured(
    "median", parts[[j]], 0.05, TRUE, FALSE, NULL, "auto", "auto")), error = function(e) e)
  ref <- lapply(seq_along(parts), function(j) format(one(j)))
  planned <- vapply(ref, function(l) any(grepl("(plan_runs()", l, fixed = TRUE)), TRUE)
  expect_true(sum(planned) >= 2L)
  seen <- 0L
  # site_advice() replaced in the namespace for this test (testthat 3.1.6,
  # Debian's, has no local_mocked_bindings())
  orig <- ns$site_advice
  unlockBinding("site_advice", ns)
  assign("site_advice", function(vs) {
    seen <<- seen + length(vs)
    # a mark where plan_advice() states a plan (it states none where the
    # detectable change is already small enough)
    lapply(vs, function(v) if (length(orig(list(v))[[1L]])) "PLANNED HERE" else character())
  }, envir = ns)
  on.exit({
    assign("site_advice", orig, envir = ns)
    lockBinding("site_advice", ns)
  }, add = TRUE)
  tab <- ns$verdict_table("median", parts, 0.05, 1, analyse = one)
  expect_true(any(!tab$fast))
  pages <- ns$verdict_table_pages_lines(tab)
  for (j in seq_along(parts)) {
    expect_identical(any(grepl("PLANNED HERE", pages$lines[[j]], fixed = TRUE)), planned[j],
                     info = names(parts)[j])
    expect_false(any(grepl("(plan_runs()", pages$lines[[j]], fixed = TRUE)))
  }
  # the list of verdicts of a site
  # (report_site() gives verdict_lines_of() its verdicts, not the errors)
  vs <- lapply(seq_along(parts), one)
  ok <- which(vapply(vs, inherits, TRUE, "speedup_verdict"))
  expect_gte(length(ok), 4L)
  got <- ns$verdict_lines_of(vs[ok])
  for (i in seq_along(ok)) {
    expect_identical(any(grepl("PLANNED HERE", got[[i]], fixed = TRUE)), planned[ok[i]],
                     info = names(parts)[ok[i]])
  }
  expect_gt(seen, 0L)
})

test_that("the lines of a list of verdicts are format() of each", {
  ns <- asNamespace("speeduptest")
  op <- options(speeduptest.plan_method = "normal")
  on.exit(options(op), add = TRUE)
  set.seed(3)
  vs <- list(median_test(rlnorm(10), rlnorm(10, 0.3)),
             mean_test(rlnorm(20, 0, 0.01), rlnorm(20, 0, 0.01), min_speedup = 1.02),
             prob_test(rlnorm(15), rlnorm(15)),
             median_test(rlnorm(8), rlnorm(8), alpha = 0.01),
             median_test(c(x1 = 1, 2, 3), c(1, 2, 3)))
  got <- ns$verdict_lines_of(vs)
  for (i in seq_along(vs)) expect_identical(ns$esc_text(got[[i]]), format(vs[[i]]))
})

test_that("the vectorised formatters are the scalar ones", {
  ns <- asNamespace("speeduptest")
  p <- c(0, 1e-300, 3.2e-7, 9.99e-5, 1e-4, 0.00012345, 0.0312, 0.04999, 0.5, 0.9996, 1,
         NA, NaN)
  expect_identical(ns$fmt_p_all(p), vapply(p, ns$fmt_p, ""))
  s <- c(1, 1.0001, 1.004999, 1.01, 1.0234, 1.5, 2, 10, 123.456, Inf, NA, 0.99)
  expect_identical(ns$fmt_change_all(s), vapply(s, ns$fmt_change, ""))
  set.seed(2)
  words <- c("a", "bb", "-", "p", "=", "0.05", "1", "(x)", "speedup", "-", "caveat:")
  lines <- vapply(1:300, function(i) {
    paste0(strrep(" ", sample(0:4, 1)), paste(sample(words, sample(3:60, 1), TRUE),
                                              collapse = " "))
  }, "")
  lines <- c(lines, lines[1:20], strrep("x", 120), paste("  ", strrep("y", 95), "z"))
  w <- ns$wrap_lines_many(lines)
  expect_identical(w$lines, ns$wrap_lines(lines))
  expect_identical(unname(split(w$lines, w$from)), lapply(lines, ns$wrap_lines))
})

test_that("a table whose verdicts have no advice at all keeps each line in its place", {
  ns <- asNamespace("speeduptest")
  op <- options(speeduptest.plan_method = "normal")
  on.exit(options(op), add = TRUE)
  set.seed(11)
  p <- function(x, y) list(x = x, y = y, labels = c("old", "new"), data_name = "b",
                           baseline = "\"old\" (first version in the timings)")
  parts <- list(p(rlnorm(30, 0.1, 0.01), rlnorm(30, 0, 0.01)),
                p(rlnorm(30, 0, 0.01), rlnorm(30, 0.1, 0.01)),
                p(rlnorm(30, 0.2, 0.01), rlnorm(30, 0, 0.01)))
  for (test in c("median", "mean")) {
    one <- function(j) ns$run_structured(test, parts[[j]], 0.1, TRUE, FALSE, NULL, "auto",
                                         "auto", min_speedup = 1.01)
    tab <- ns$verdict_table(test, parts, 0.1, 1.01, analyse = one)
    expect_true(all(tab$fast))
    pages <- ns$verdict_table_pages_lines(tab)
    for (j in seq_along(parts)) expect_identical(pages$lines[[j]], format(one(j)))
  }
})
