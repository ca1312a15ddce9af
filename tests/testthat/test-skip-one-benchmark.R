# One bad benchmark among good ones is skipped with its reason recorded;
# the good ones give the same result as without it.

skip_one_frame <- function() {
  set.seed(42)
  data.frame(benchmark = rep(c("g1", "g2", "g3", "g4"), each = 20),
             version = rep(rep(c("old", "new"), each = 10), 4),
             time = stats::rexp(80) + 1)
}

test_that("hpt() skips a benchmark with runs of a third version", {
  d <- skip_one_frame()
  good <- d
  d <- rbind(d, data.frame(benchmark = "g4", version = "third", time = 1))
  expect_warning(h <- hpt(d), "\"g4\" skipped: runs of a version other",
                      class = "speeduptest_warning_skipped")
  ref <- suppressWarnings(hpt(good[good$benchmark != "g4", ]))
  expect_equal(h$benchmarks, ref$benchmarks)
  expect_equal(h$problems$benchmark, "g4")
  hs <- suppressWarnings(hpt_speedup(d))
  expect_equal(hs$speedup,
               suppressWarnings(hpt_speedup(good[good$benchmark != "g4", ]))$speedup)
  ht <- suppressWarnings(hpt(as_timings(d)))
  expect_equal(sort(as.character(ht$benchmarks$benchmark)), c("g1", "g2", "g3"))
  expect_true("g4" %in% ht$problems$benchmark)
  # a third version in every benchmark is still an error
  all3 <- rbind(good, data.frame(benchmark = c("g1", "g2", "g3", "g4"),
                                 version = "third", time = 1))
  expect_error(suppressWarnings(hpt(all3)), class = "speeduptest_error")
})

test_that("hpt() skips a benchmark whose runs are not numeric", {
  d <- skip_one_frame()
  a <- split(d$time[d$version == "old"], d$benchmark[d$version == "old"])
  b <- split(d$time[d$version == "new"], d$benchmark[d$version == "new"])
  ref <- hpt(a[1:3], b[1:3])
  a$g4 <- list(1, 2)
  b$g4 <- "x"
  expect_warning(h <- hpt(a, b), "\"g4\" skipped: its runs in `a` are not",
                      class = "speeduptest_warning_skipped")
  expect_equal(h$benchmarks, ref$benchmarks)
  expect_match(h$problems$message, "`b` are not a numeric vector")
  expect_error(hpt(list(x = "a"), list(x = "b")), class = "speeduptest_error")
})

test_that("as_timings() of a list skips an element that is not a pair", {
  p <- list(g1 = list(c(1, 2, 3), c(2, 3, 4)), g2 = list(c(5, 6), c(7, 8)))
  ref <- as_timings(p)
  for (bad in list(list(list(1), list(2)), list("a", "b"), list(1:3, 1:3, 1:3))) {
    q <- c(p, list(bad = bad))
    expect_warning(t <- as_timings(q), "\"bad\" skipped",
                        class = "speeduptest_warning_skipped")
    cols <- c("benchmark", "version", "time", "run")
    expect_equal(lapply(cols, function(k) t[[k]]), lapply(cols, function(k) ref[[k]]))
    expect_equal(attr(t, "problems")$benchmark, "bad")
  }
  expect_error(as_timings(list(a = list("a", "b"))), class = "speeduptest_error")
})

test_that("speedup_suite() reads a text level column benchmark by benchmark", {
  d <- skip_one_frame()
  d$conf_level <- "0.9"
  ref <- speedup_suite(d[d$benchmark != "g4", ])
  d$conf_level[d$benchmark == "g4"] <- "x"
  expect_warning(s <- speedup_suite(d), "\"g4\" skipped: its value in column `conf_level`",
                      class = "speeduptest_warning_skipped")
  expect_equal(s$benchmarks$conf_level, ref$benchmarks$conf_level)
  expect_equal(s$benchmarks$benchmark, c("g1", "g2", "g3"))
  expect_equal(s$problems$benchmark, "g4")
  # the level used is the text's number, as with a numeric column
  num <- d[d$benchmark != "g4", ]
  num$conf_level <- 0.9
  expect_equal(ref$benchmarks, speedup_suite(num)$benchmarks)
  # with a level given, the column is not used and nothing is skipped
  s2 <- speedup_suite(d, conf_level = 0.95)
  expect_equal(nrow(s2$benchmarks), 4L)
})

test_that("an `initial` that is not a version name is a classed error", {
  d <- skip_one_frame()
  for (data in list(d, as_timings(d))) {
    expect_error(speedup_suite(data, initial = function() 1),
                 "`initial` must be one of the versions \"old\", \"new\", not a function",
                 class = "speeduptest_error_input")
  }
  d3 <- rbind(d, data.frame(benchmark = "g1", version = "third", time = 1))
  expect_error(suppressWarnings(speedup_suite(d3, initial = list("old"))),
               "`initial` must be one of the versions", class = "speeduptest_error_input")
})
