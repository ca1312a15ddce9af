# A job that tested nothing, or whose requested analysis cannot be applied,
# is an error (exit status 2), never a pass.

broken_csv <- function(time, round = NULL) {
  set.seed(7)
  d <- do.call(rbind, lapply(c("g1", "g2"), function(b) data.frame(
    benchmark = b, version = rep(c("old", "new"), each = 10), time = time(20))))
  if (!is.null(round)) d$round <- round
  f <- tempfile(fileext = ".csv")
  utils::write.csv(d, f, row.names = FALSE)
  f
}

compare_status <- function(args) {
  err <- utils::capture.output(
    out <- utils::capture.output(st <- speeduptest:::cli_compare(args)), type = "message")
  list(status = st, out = out, err = err)
}

test_that("compare exits 2 when every benchmark is broken", {
  f <- broken_csv(function(n) -rlnorm(n))
  r <- compare_status(f)
  expect_identical(r$status, 2L)
  expect_length(r$out, 0L)
  expect_match(r$err[1L], "no benchmark could be analysed (2 failed)", fixed = TRUE)
  expect_match(r$err[1L], "positive values", fixed = TRUE)
  # one good benchmark is enough for a job
  set.seed(7)
  d <- utils::read.csv(f)
  d$time[d$benchmark == "g1"] <- rlnorm(20)
  utils::write.csv(d, f, row.names = FALSE)
  expect_identical(compare_status(f)$status, 0L)
})

test_that("compare exits 2 when the design asked for cannot be applied", {
  f <- broken_csv(function(n) rlnorm(n))
  r <- compare_status(c(f, "--design", "paired"))
  expect_identical(r$status, 2L)
  expect_match(r$err[1L], "cannot be applied to 2 benchmarks", fixed = TRUE)
  expect_match(r$err[1L], "`round` column", fixed = TRUE)
  # with the rounds, the same design applies
  g <- broken_csv(function(n) rlnorm(n), round = rep(1:10, 4))
  expect_identical(compare_status(c(g, "--design", "paired"))$status, 0L)
  expect_identical(compare_status(f)$status, 0L)
})

test_that("a skipped element of a list suite never changes another's answer", {
  set.seed(3)
  L <- lapply(1:4, function(i) list(x = rlnorm(20, 0, 0.1),
                                    y = rlnorm(20, c(0, -0.02, 0.03, -0.1)[i], 0.1)))
  names(L) <- paste0("b", 1:4)
  s0 <- speedup_suite(L)
  bad <- list(level = list(x = rlnorm(20), y = rlnorm(20), conf_level = 7),
              level_text = list(x = rlnorm(20), y = rlnorm(20), conf_level = "x"),
              level_two = list(x = rlnorm(20), y = rlnorm(20), conf_level = c(0.9, 0.95)),
              sample = list(x = -rlnorm(20), y = rlnorm(20), conf_level = 0.9),
              text = list(x = "a", y = rlnorm(20), conf_level = 0.9))
  for (k in names(bad)) {
    L2 <- c(L, list(bad = bad[[k]]))
    s1 <- suppressWarnings(speedup_suite(L2))
    expect_identical(s1$benchmarks$benchmark, s0$benchmarks$benchmark, info = k)
    expect_identical(s1$benchmarks, s0$benchmarks, info = k)
    expect_true("bad" %in% s1$problems$benchmark, info = k)
  }
})
