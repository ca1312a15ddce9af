# warmup_classify(), trim_warmup() and warmup = "detect": the classes of
# simulated processes with known change points (fixed seeds), the outlier
# rule against a direct computation with R's quantile(), the equivalence
# of segments against the tolerance tests, and the hooks in the protocols,
# suites, compare and measure().

sim_process <- function(kind, n = 600, noise = 0.01, change = 0.2, at = 0.25,
                        tail = FALSE) {
  b <- rep(1, n)
  k <- round(at * n)
  if (kind == "warm-up") b[seq_len(k)] <- 1 + change
  if (kind == "slowdown") b[seq_len(k)] <- 1 - change / 2
  if (kind == "no steady state") b[(n - round(0.05 * n)):n] <- 1 + change
  e <- if (tail) noise * stats::rt(n, 3) / sqrt(3) else stats::rnorm(n, 0, noise)
  b * (1 + e)
}

test_that("warmup_classify() finds the class and the steady iteration of simulated processes", {
  set.seed(321)
  kinds <- rep(c("flat", "warm-up", "slowdown", "no steady state"), each = 10)
  xs <- lapply(seq_along(kinds), function(i) sim_process(kinds[i], tail = i %% 2 == 0))
  w <- warmup_classify(xs)
  expect_s3_class(w, "speedup_warmup")
  expect_identical(nrow(w), length(kinds))
  expect_gte(mean(as.character(w$class) == kinds), 0.9)
  wu <- kinds == "warm-up" & w$class == "warm-up"
  expect_true(all(abs(w$steady_iteration[wu] - 151) <= 0.05 * 600))
  sd <- kinds == "slowdown" & w$class == "slowdown"
  expect_true(all(abs(w$steady_iteration[sd] - 151) <= 0.05 * 600))
  fl <- w$class == "flat"
  expect_true(all(w$steady_iteration[fl] == 1L))
  expect_true(all(is.na(w$steady_iteration[w$class == "no steady state"])))
  # time to steady state: the sum of the times before the steady iteration
  i <- which(wu)[1L]
  expect_equal(w$steady_time[i], sum(xs[[i]][seq_len(w$steady_iteration[i] - 1L)]))
  expect_equal(w$steady_median[i],
               stats::median(xs[[i]][w$steady_iteration[i]:600]))
})

test_that("a change within the margin is flat; beyond it, it is not", {
  set.seed(8)
  small <- c(rep(1.004, 300), rep(1, 900)) * (1 + rnorm(1200, 0, 0.002))
  big <- c(rep(1.03, 300), rep(1, 900)) * (1 + rnorm(1200, 0, 0.002))
  w <- warmup_classify(list(small, big))
  expect_identical(as.character(w$class), c("flat", "warm-up"))
  # PELT sees the small change; the equivalence test merges it
  expect_gte(w$changes[1], 1L)
  expect_identical(as.character(warmup_classify(small, margin = 0.001)$class), "warm-up")
})

test_that("segments are equivalent exactly when the tolerance's two one-sided tests say so", {
  set.seed(10)
  seen <- character()
  for (shift in c(1.001, 1.004, 1.007, 1.01, 1.02)) {
    # a change of variance PELT cannot miss; the level decides the class
    a <- shift * (1 + rnorm(300, 0, 0.006))
    b <- 1 + rnorm(900, 0, 0.002)
    w <- warmup_classify(c(a, b))
    expect_identical(w$changepoints[[1]], 300L)
    p <- tolerance_p_values(a, b, "median", FALSE, 1.01)
    equiv <- p[3] <= 0.05 && p[4] <= 0.05
    expect_identical(as.character(w$class), if (equiv) "flat" else "warm-up")
    seen <- c(seen, as.character(w$class))
  }
  expect_setequal(seen, c("flat", "warm-up"))
})

test_that("the outlier rule marks what R's quantiles say", {
  set.seed(4)
  x <- exp(rnorm(500, 0, 0.05))
  x[c(20, 250, 480)] <- c(3, 0.2, 5)
  w <- warmup_classify(x, window = 101L)
  s <- warmup_series(w)
  n <- length(x)
  ref <- vapply(seq_len(n), function(i) {
    a <- min(max(i - 50L, 1L), n - 100L)
    v <- x[a:(a + 100L)]
    q <- stats::quantile(v, c(0.1, 0.5, 0.9), names = FALSE)
    x[i] < q[2] - 3 * (q[3] - q[1]) || x[i] > q[2] + 3 * (q[3] - q[1])
  }, NA)
  expect_identical(s$outlier, ref)
  expect_true(all(s$outlier[c(20, 250, 480)]))
  expect_identical(w$outliers, sum(ref))
  # the outliers do not make segments of their own
  expect_identical(as.character(w$class), "flat")
})

test_that("processes, iteration order and benchmarks come from the timings", {
  set.seed(12)
  d <- do.call(rbind, lapply(1:4, function(p) {
    x <- sim_process(if (p <= 3) "warm-up" else "flat", n = 400)
    data.frame(benchmark = "b1", version = "v", process = p, iteration = 400:1,
               time = rev(x))
  }))
  d <- d[sample(nrow(d)), ]
  t <- as_timings(d)
  w <- warmup_classify(t)
  expect_identical(as.character(w$class), c(rep("warm-up", 3), "flat"))
  b <- summary(w)
  expect_false(b$consistent)
  expect_identical(b$class, "inconsistent")
  expect_identical(b$warm_up, 3L)
  expect_identical(b$flat, 1L)
  expect_equal(b$steady_iteration, stats::median(w$steady_iteration))
  expect_equal(b$steady_iteration_max, max(w$steady_iteration))
  tt <- trim_warmup(t)
  expect_s3_class(tt, "speedup_timings")
  expect_identical(nrow(tt), nrow(t) - sum(w$steady_iteration - 1L))
  expect_true(all(tt$iteration >= w$steady_iteration[match(tt$process, w$process)]))
})

test_that("print, summary and plots of a classification", {
  set.seed(13)
  w <- warmup_classify(list(sim_process("warm-up"), sim_process("flat"),
                            sim_process("no steady state")))
  out <- capture.output(print(w))
  expect_true(all(nchar(out) <= 80))
  expect_true(any(grepl("inconsistent", out)))
  out <- capture.output(print(summary(w)))
  expect_true(all(nchar(out) <= 80))
  expect_true(any(grepl("Time to steady state", out)))
  draw_png(w)
  draw_png(w, processes = 2)
  expect_error(plot(w, processes = 9), class = "speeduptest_error_input")
  skip_if_not_installed("ggplot2")
  g <- ggplot2::autoplot(w)
  expect_s3_class(g, "ggplot")
  f <- tempfile(fileext = ".png")
  ggplot2::ggsave(f, g, width = 6, height = 4, dpi = 60)
  expect_gt(file.size(f), 1000)
})

test_that("warmup_classify() refuses bad input with classed errors", {
  expect_error(warmup_classify("a"), class = "speeduptest_error_input")
  expect_error(warmup_classify(c(1, -1, 2)), class = "speeduptest_error_data")
  expect_error(warmup_classify(c(1, NA, 2)), class = "speeduptest_error_data")
  expect_error(warmup_classify(1:50 + 0, minseg = 1), class = "speeduptest_error_input")
  expect_error(warmup_classify(1:50 + 0, margin = -1), class = "speeduptest_error_input")
  expect_error(warmup_classify(1:50 + 0, penalty = "nope"), class = "speeduptest_error_input")
  # too few iterations to hold a change
  w <- warmup_classify(c(1, 1.1, 1.2))
  expect_identical(as.character(w$class), "too short")
  expect_identical(w$steady_iteration, 1L)
})

warmup_pair_data <- function(seed, processes = 10, n = 400, old = 0.05, new = 0.30) {
  set.seed(seed)
  mk <- function(ver, p, frac) {
    b <- rep(1, n)
    b[seq_len(round(frac * n))] <- 1.1
    data.frame(benchmark = "fib", version = ver, process = paste0(ver, p),
               iteration = seq_len(n), time = b * exp(rnorm(n, 0, 0.01)))
  }
  as_timings(do.call(rbind, c(lapply(seq_len(processes), function(p) mk("old", p, old)),
                              lapply(seq_len(processes), function(p) mk("new", p, new)))))
}

test_that("warmup = \"detect\" compares the steady states and says what it dropped", {
  t <- warmup_pair_data(1)
  kept <- median_test(t)
  expect_identical(kept$direction, "slowdown")
  v <- median_test(t, warmup = "detect")
  expect_identical(nrow(v$warmup), 2L)
  expect_identical(v$warmup$dropped, c(200L, 1200L))
  expect_true(any(grepl("1,400 of 8,000 iterations dropped", v$notes)))
  expect_identical(v$replication$runs, c(3800L, 2800L))
  vm <- mean_test(t, warmup = "detect")
  expect_identical(vm$replication$runs, c(3800L, 2800L))
  expect_error(median_test(t, warmup = "drop"), class = "speeduptest_error_input")
})

test_that("processes that never settle are left out; none settled is insufficient data", {
  t <- warmup_pair_data(2, processes = 5)
  late <- t$version == "new" & t$process %in% c("new1", "new2") & t$iteration > 360
  t$time[late] <- t$time[late] * 1.3
  v <- median_test(t, warmup = "detect")
  expect_identical(v$warmup$left_out, c(0L, 2L))
  expect_true(any(grepl("2 of 5 processes of new never reached a steady state", v$caveats)))
  expect_identical(v$replication$processes, c(5L, 3L))
  all_late <- t$version == "new" & t$iteration > 360
  t2 <- warmup_pair_data(2, processes = 5)
  t2$time[all_late] <- t2$time[all_late] * 1.3
  v2 <- median_test(t2, warmup = "detect")
  expect_identical(v2$decision, "insufficient data")
  expect_true(any(grepl("no process of new reached a steady state", v2$caveats)))
  out <- capture.output(print(v2))
  expect_true(any(grepl("no process of new", out)))
})

test_that("speedup_suite() and compare take warmup = \"detect\"", {
  t <- warmup_pair_data(3, processes = 4)
  t2 <- t
  t2$benchmark <- "other"
  late <- t2$version == "new" & t2$iteration > 360
  t2$time[late] <- t2$time[late] * 1.3
  all <- as_timings(rbind(as.data.frame(unclass(t)), as.data.frame(unclass(t2))))
  s <- suppressWarnings(speedup_suite(all, warmup = "detect"))
  pr <- s$problems
  expect_true(any(pr$where == "warmup" & pr$benchmark == "fib"))
  expect_true(any(grepl("no process of new reached a steady state",
                        pr$message[pr$benchmark == "other"])))
  f <- tempfile(fileext = ".csv")
  utils::write.csv(as.data.frame(unclass(t)), f, row.names = FALSE)
  out <- capture.output(st <- cli_compare(c(f, "--warmup", "detect", "--output", "json")))
  js <- jsonlite::fromJSON(paste(out, collapse = "\n"))
  expect_true(any(grepl("warm-up detected", unlist(js$notes))))
  expect_identical(compare_parse_args(c(f, "--warmup", "detect"))$warmup, "detect")
  expect_error(compare_parse_args(c(f, "--warmup", "x")), class = "speeduptest_error")
})

test_that("measure(.until = \"steady\") runs until every version has settled, within its cap", {
  i <- 0L
  runner <- function(v, ctx) {
    i <<- i + 1L
    base <- if (v$name == "a" && i <= 60L) 2e-3 else 1e-3
    list(status = "ok", time = base * exp(stats::rnorm(1, 0, 0.01)), user = NA_real_,
         sys = NA_real_, max_rss = NA_real_, exit_status = 0L, start = as.double(i))
  }
  set.seed(5)
  versions <- list(list(name = "a", kind = "R", label = "a", launch = "R"),
                   list(name = "b", kind = "R", label = "b", launch = "R"))
  ctx <- list(versions = versions, setup = NULL, cleanup = NULL, server = NULL,
              timeout = Inf, output = NULL, env = globalenv(), name = "m",
              machine = list(), timer = list(), order = "interleaved", warmup = 0L,
              until = "steady")
  plan <- measure_plan(2L, 31L, 0L, "interleaved", "decided", 400L)
  rule <- steady_rule(plan$looks, 31L, 400L)
  t <- suppressWarnings(measure_loop(ctx, plan, rule, runner = runner))
  st <- attr(t, "steady")
  expect_true(st$settled)
  n <- sum(t$version == "a")
  expect_lt(n, 400L)
  w <- warmup_classify(t)
  expect_true(all(w$iterations - w$steady_iteration + 1L >= 31L))
  # a version that never settles runs to the cap
  # (a staircase: a step of 10 % every 15 runs of each version)
  i <- 0L
  runner2 <- function(v, ctx) {
    i <<- i + 1L
    step <- ((i + 1L) %/% 2L) %/% 15L
    list(status = "ok", time = 1e-3 * 1.1^step * exp(stats::rnorm(1, 0, 0.001)),
         user = NA_real_, sys = NA_real_, max_rss = NA_real_, exit_status = 0L,
         start = as.double(i))
  }
  plan <- measure_plan(2L, 31L, 0L, "interleaved", "decided", 100L)
  t2 <- suppressWarnings(measure_loop(ctx, plan, steady_rule(plan$looks, 31L, 100L),
                                     runner = runner2))
  expect_identical(sum(t2$version == "a"), 100L)
  expect_false(attr(t2, "steady")$settled)
  expect_error(measure(a = 1, .until = "steady", .runs = 50, .max_runs = 40),
               class = "speeduptest_error_input")
})
