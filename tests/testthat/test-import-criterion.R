criterion_ref <- function(f) {
  j <- jsonlite::fromJSON(f)
  j$times / j$iters * 1e-9
}

test_that("a criterion.rs folder gives base and new, times / iters in seconds", {
  dir <- timings_fixture("criterion")
  t <- read_timings(dir)
  expect_identical(attr(t, "source"), "criterion")
  expect_identical(levels(t$version), c("base", "new"))
  expect_setequal(unique(t$benchmark), c("fibonacci", "sort/1000"))
  for (b in c("fibonacci", "sort/1000")) for (v in c("base", "new")) {
    rows <- t[t$benchmark == b & t$version == v, ]
    ref <- criterion_ref(file.path(dir, b, v, "sample.json"))
    expect_equal(rows$time, ref)
    expect_identical(rows$run, seq_along(ref))
    expect_equal(rows$iterations, 40 * seq_along(ref))
  }
})

test_that("one benchmark folder, one sample.json, and two sample.json files", {
  dir <- timings_fixture("criterion", "fibonacci")
  t <- read_timings(dir)
  expect_identical(unique(t$benchmark), "fibonacci")
  expect_identical(levels(t$version), c("base", "new"))
  s <- read_timings(file.path(dir, "new", "sample.json"), benchmark = "fib")
  expect_identical(unique(s$benchmark), "fib")
  expect_identical(levels(s$version), "new")
  expect_equal(s$time, criterion_ref(file.path(dir, "new", "sample.json")))
  two <- read_timings(file.path(dir, c("base", "new"), "sample.json"))
  expect_identical(levels(two$version), c("base", "new"))
  expect_equal(two$time, t$time)
})

test_that("a criterion sample with mismatched iters and times is refused", {
  f <- file.path(tempfile(), "new", "sample.json")
  dir.create(dirname(f), recursive = TRUE)
  writeLines('{"sampling_mode": "Linear", "iters": [1, 2], "times": [10]}', f)
  expect_error(read_timings(f), class = "speeduptest_error_format")
  expect_error(read_timings(f), "sample.json", fixed = TRUE)
})
