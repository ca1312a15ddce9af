# The parts of a site made for all its pages at once (report-site-svg.R,
# report-site-html.R, src/report-site.c) against R's own functions applied
# one sample, one picture or one group at a time.

site_samples <- function(seed, k = 250L) {
  set.seed(seed)
  s <- lapply(seq_len(k), function(i) {
    n <- sample(c(2L, 3L, 4L, 5L, 20L, 21L, 100L, 333L), 1L)
    x <- switch(sample(5L, 1L),
                rlnorm(n, 0, 0.02),
                round(rnorm(n), 1),
                c(rexp(n - 1L), 50),
                sample(c(1, 2), n, TRUE),
                rnorm(n, 1e6, 1e-4))
    x * 10^runif(1L, -9, 3)
  })
  c(s, list(c(1, 1, 1, 1, 2), c(0, 0, 0, 0, 1e-300), c(3, 1), c(-5, 7, -5, 7, 0),
            c(1e-9, 2e-9), c(1e300, 1.5e300, 1.2e300)))
}

test_that("the densities of many samples are density()'s, bit for bit", {
  s <- site_samples(1)
  s <- s[vapply(s, function(x) diff(range(x)) > 0, TRUE)]
  d <- speeduptest:::site_densities(s, chunk = 37L)
  for (j in seq_along(s)) {
    ref <- stats::density(s[[j]], n = 64L, cut = 1)
    expect_identical(d$x[, j], ref$x)
    expect_identical(d$y[, j], ref$y)
  }
  expect_equal(dim(speeduptest:::site_densities(list())$y), c(64L, 0L))
})

test_that("the medians of many samples are median()'s, bit for bit", {
  s <- c(site_samples(2), list(numeric(), c(Inf, 1), c(-Inf, Inf), c(1.7e308, 1.7e308),
                                c(-1.7e308, 1.7e308), c(5, NA)))
  got <- speeduptest:::site_sample_medians(s)
  expect_identical(got, vapply(s, stats::median, 0))
  fin <- s[-length(s)]
  expect_identical(speeduptest:::site_medians(unlist(fin), lengths(fin)),
                   vapply(fin, stats::median, 0))
  expect_error(speeduptest:::site_medians(c(1, NA), 2L), "NA")
  # median() and mad() of the finite times of each sample
  s <- c(site_samples(3, 50L), list(c(1, NaN, Inf, 2, 4), 7, c(NA, Inf), numeric()))
  cen <- speeduptest:::site_centres(s)
  for (j in seq_along(s)) {
    t <- s[[j]][is.finite(s[[j]])]
    ref <- if (!length(t)) c(NA_real_, NA_real_) else
      c(stats::median(t), if (length(t) > 1L) stats::mad(t) else NA_real_)
    expect_identical(cen[, j], ref)
  }
})

test_that("groups of strings are pasted as paste() pastes each", {
  set.seed(4)
  x <- c(replicate(200, paste(sample(letters, 3), collapse = "")), NA, "\u00e9t\u00e9 \u2192",
         enc2native("caf\u00e9"), "")
  x <- sample(x)
  count <- c(0L, 1L, 5L, 0L, 100L, 3L, length(x) - 109L, 0L)
  g <- rep(seq_along(count), count)
  for (sep in c("", " ", ",\n")) {
    ref <- vapply(split(x, factor(g, levels = seq_along(count))), paste, "", collapse = sep,
                  USE.NAMES = FALSE)
    got <- speeduptest:::site_paste_groups(x, count, sep)
    expect_identical(enc2utf8(got), enc2utf8(ref))
  }
  expect_identical(speeduptest:::site_paste_groups(character(), integer()), character())
  expect_error(speeduptest:::site_paste_groups(c("a", "b"), 3L), "add up")
  expect_error(speeduptest:::site_paste_groups(c("a", "b"), c(-1L, 3L)), "counts")
  # the JSON arrays of groups, a group of one unboxed
  expect_identical(speeduptest:::site_json_groups(c("1", "2", "3", "4"), c(1L, 0L, 3L)),
                   c("1", "[]", "[2,3,4]"))
})

test_that("the pictures of many benchmarks are svg_runs()'s, picture by picture", {
  set.seed(5)
  m <- 60L
  xs <- lapply(seq_len(m), function(i) rlnorm(sample(c(1L, 2L, 7L, 20L), 1L), log(10^runif(1, -8, 1)), 0.05))
  ys <- lapply(seq_len(m), function(i) xs[[i]][1L] * rlnorm(sample(c(1L, 3L, 20L, 31L), 1L), 0, 0.05))
  xs[[2]] <- c(1e-3, 1e-3, 1e-3)               # constant: no violin
  ys[[3]] <- c(2e-3, Inf, NaN, 3e-3, 2.5e-3)   # times that are not finite
  xs[[4]] <- c(NA_real_, Inf)                  # no finite time
  ys[[4]] <- c(NA_real_)
  xs[[5]] <- ys[[5]] <- c(4, 4)                # one time in both
  lab1 <- rep(c("old", "base <b>", "a"), length.out = m)
  lab2 <- rep(c("new", "head & co", "a very long name of a version that has to be cut"), length.out = m)
  titles <- sprintf("Run times of bench %d <x>", seq_len(m))
  got <- speeduptest:::svg_runs_many(xs, ys, lab1, lab2, titles)
  for (k in seq_len(m)) {
    ref <- speeduptest:::svg_runs(stats::setNames(list(xs[[k]], ys[[k]]), c(lab1[k], lab2[k])),
                                  title = titles[k])
    expect_identical(got[k], ref)
  }
  expect_identical(speeduptest:::svg_runs_many(list(), list(), character(), character(), character()),
                   character())
})

test_that("the files of a site are written by one call, and a failure names its file", {
  dir <- withr::local_tempdir()
  paths <- file.path(dir, c("a.html", "b.csv"))
  speeduptest:::site_write_files(paths, c("<p>\u00e9</p>", "x,y\n1,2"))
  expect_identical(readBin(paths[1], "raw", 100L), c(charToRaw(enc2utf8("<p>\u00e9</p>")), as.raw(10L)))
  expect_identical(readLines(paths[2]), c("x,y", "1,2"))
  dir.create(file.path(dir, "d.html"))
  err <- expect_error(speeduptest:::site_write_files(c(paths[1], file.path(dir, "d.html")), c("a", "b")),
                      class = "speeduptest_error")
  expect_match(conditionMessage(err), "d.html", fixed = TRUE)
})

test_that("the points of many pictures are written as sprintf() writes them", {
  set.seed(6)
  x <- c(runif(300, -700, 700), 0.05, -0.05, -0.04, 0.25, 0.35, -0, 1e300, -1.7e308, NA, NaN,
         Inf, -Inf, 123.45, 2.5e-7)
  y <- rev(x)
  count <- c(2L, 0L, 100L, length(x) - 103L, 1L)
  ref <- vapply(split(sprintf('<c x="%.1f" y="%.1f"/>', x, y),
                      factor(rep(seq_along(count), count), levels = seq_along(count))),
                paste, "", collapse = " ", USE.NAMES = FALSE)
  expect_identical(speeduptest:::site_paste_points(x, y, count, '<c x="', '" y="', '"/>', " "), ref)
  expect_error(speeduptest:::site_paste_points(1, 2, 2L, "", ",", "", " "), "add up")
})
