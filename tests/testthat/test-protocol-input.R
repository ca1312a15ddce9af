# The pair of one benchmark of timings found from integer codes in the core
# (timings_pair()) against the subset and sort of the table
# (timings_pair_table(), the way every pair was found before).

pair_table <- function(t, benchmark, versions, initial) {
  tp <- speeduptest:::timings_pair(t, benchmark, versions, initial, FALSE)
  tp$plain <- NULL
  tp
}

test_that("the pair found from codes is the pair of the subset and sorted table", {
  set.seed(41)
  for (i in 1:150) {
    nb <- sample(c(1, 3), 1)
    nv <- sample(c(2, 3), 1)
    n <- sample(c(3, 8, 30), 1)
    d <- expand.grid(run = seq_len(n), version = c("old", "new", "mid")[seq_len(nv)],
                     benchmark = sprintf("b%d", seq_len(nb)), stringsAsFactors = FALSE)
    d$time <- rlnorm(nrow(d))
    if (i %% 3 == 0) d$round <- sample(d$run)
    if (i %% 4 == 0) d$process <- d$run %% 2
    if (i %% 5 == 0) d$warmup <- sample(c(TRUE, FALSE, NA), nrow(d), TRUE)
    if (i %% 6 == 0) {
      d$timestamp <- as.POSIXct("2026-01-01", tz = "UTC") + seq_len(nrow(d)) %/% 2
    }
    if (i %% 7 == 0) d$time[2] <- NA
    if (i %% 2 == 0) d <- d[sample(nrow(d)), ]
    t <- as_timings(d, run_order = if (i %% 3 == 1) "global" else "sample")
    b <- if (nb > 1) sample(unique(d$benchmark), 1) else NULL
    vv <- if (nv == 3) sample(c("old", "new", "mid"), 2) else NULL
    bm <- if (is.null(b)) unique(as.character(t$benchmark)) else b
    got <- pair_table(t, b, vv, NULL)
    want <- speeduptest:::timings_pair_table(t, bm, vv, NULL)
    expect_identical(got, want)
  }
})

test_that("the errors of a pair are those of the table", {
  t <- as_timings(data.frame(benchmark = rep(c("a", "b"), each = 6),
                             version = rep(c("x", "y", "z"), 4),
                             time = rlnorm(12)))
  expect_error(speeduptest:::timings_pair(t, NULL, NULL, NULL, FALSE),
               "The timings hold 2 benchmarks")
  expect_error(speeduptest:::timings_pair(t, "c", NULL, NULL, FALSE), "`benchmark` must be one of")
  expect_error(speeduptest:::timings_pair(t, "a", NULL, NULL, FALSE), "has 3 version")
  expect_error(speeduptest:::timings_pair(t, "a", c("x", "w"), NULL, FALSE),
               "`versions` must be two different versions")
  expect_error(speeduptest:::timings_pair(t, "a", NULL, "y", FALSE), "name both with `versions")
  one <- as_timings(data.frame(version = rep(c("x", "y"), each = 3), time = rlnorm(6)))
  expect_identical(pair_table(one, NULL, NULL, "y")$labels, c("y", "x"))
})
