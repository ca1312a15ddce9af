# join_rows() (src/paste.c) against paste0(), the reference it replaces in
# the notes of a suite.

test_that("join_rows() gives paste0()'s strings, encodings and NA text", {
  ns <- asNamespace("speeduptest")
  set.seed(6)
  x <- as.character(round(runif(50, 0, 3), 3))
  y <- c(NA, x[-1L])
  u <- enc2utf8(c("caf\u00e9", "\u00fcber"))
  l <- iconv("caf\u00e9", "UTF-8", "latin1")
  cases <- list(
    list("a", " = ", x, "; ", y),
    list(x, "", y, NA_character_),
    list("speedup: ", rep(u, 25), " at ", x),
    list(character(0)),
    list(l, x),
    list(rep("plain ascii text that is rather long, as notes are", 50), x))
  for (pieces in cases) {
    n <- max(lengths(pieces))
    if (!all(lengths(pieces) %in% c(1L, n))) next
    got <- do.call(ns$join_rows, c(list(n), pieces))
    want <- do.call(paste0, pieces)
    expect_identical(got, want)
    expect_identical(Encoding(got), Encoding(want))
  }
  # pieces of other lengths or types go to paste0()
  expect_identical(ns$join_rows(3, c("a", "b"), "c"), paste0(c("a", "b"), "c"))
  expect_identical(ns$join_rows(2, 1:2, "c"), paste0(1:2, "c"))
  expect_null(.Call(ns$ffi_paste_rows, list(l, "x"), 1))
})

test_that("ffi_paste_rows() refuses a row count that is not a whole number", {
  # NaN, Inf and fractions were converted to an integer before any check
  # (undefined in C; found by tests/fuzz target paste): now refused, so
  # join_rows() would take paste0()
  ns <- asNamespace("speeduptest")
  for (n in list(NaN, NA_real_, Inf, -Inf, 1e300, 2.5, -1)) {
    expect_null(.Call(ns$ffi_paste_rows, list("a"), n))
  }
  expect_identical(.Call(ns$ffi_paste_rows, list("a", c("b", "c")), 2), c("ab", "ac"))
})

test_that("lazy_rows() gives paste0()'s rows, made when read, in any use", {
  ns <- asNamespace("speeduptest")
  set.seed(7)
  x <- as.character(round(runif(40, 0, 3), 3))
  u <- enc2utf8("caf\u00e9")
  groups <- list(list("a", " = ", x[1:10], "; ", c(NA, x[2:10])),
                 list(x[11:40], ": ", u),
                 list("one row"))
  sizes <- c(10L, 30L, 1L)
  # the rows of the groups by paste0(), then a mixed order of them
  rows <- list(paste0("a", " = ", x[1:10], "; ", c(NA, x[2:10])),
               paste0(x[11:40], ": ", u), "one row")
  g <- c(rep(1L, 10), rep(2L, 30), 3L)
  r <- c(1:10, 1:30, 1L)
  o <- sample(length(g))
  g <- g[o]
  r <- r[o]
  want <- mapply(function(a, b) rows[[a]][b], g, r, USE.NAMES = FALSE)
  make <- function() ns$lazy_rows(groups, sizes, g, r)
  # element by element, then whole
  v <- make()
  expect_identical(v[[3]], want[[3]])
  expect_identical(Encoding(v), Encoding(want))
  expect_identical(v, want)
  # whole at once: sorting, matching, copying, changing, writing out
  expect_identical(sort(make()), sort(want))
  expect_identical(order(make()), order(want))
  expect_identical(match(want, make()), seq_along(want))
  expect_identical(nchar(make()), nchar(want))
  v <- make()
  w <- v
  w[2] <- "changed"
  expect_identical(v, want)
  expect_identical(w, replace(want, 2, "changed"))
  f <- tempfile(fileext = ".rds")
  saveRDS(make(), f)
  expect_identical(readRDS(f), want)
  expect_identical(unserialize(serialize(make(), NULL)), want)
  expect_identical(make()[c(5, 1)], want[c(5, 1)])
  expect_false(anyNA(make()))
  expect_identical(paste(make(), collapse = "|"), paste(want, collapse = "|"))
  # no rows
  expect_identical(ns$lazy_rows(list(), integer(), integer(), integer()), character())
  # text that needs a translation is joined now, by join_rows()
  l <- iconv("caf\u00e9", "UTF-8", "latin1")
  got <- ns$lazy_rows(list(list(l, c("x", "y"))), 2L, c(1L, 1L), c(2L, 1L))
  expect_identical(got, paste0(l, c("y", "x")))
  expect_identical(Encoding(got), Encoding(paste0(l, c("y", "x"))))
  expect_null(.Call(ns$ffi_paste_rows_lazy, list(list(l, "x")), 1L, 1L, 1L))
  # rows out of their group, or pieces of the wrong length: refused
  expect_null(.Call(ns$ffi_paste_rows_lazy, list(list("a")), 1L, 1L, 2L))
  expect_null(.Call(ns$ffi_paste_rows_lazy, list(list("a")), 1L, 2L, 1L))
  expect_null(.Call(ns$ffi_paste_rows_lazy, list(list(c("a", "b"))), 3L, 1L, 1L))
})

test_that("a suite's notes read as the sentences made at once", {
  set.seed(8)
  suite <- lapply(1:30, function(i) {
    list(x = rlnorm(8, 1, 0.05), y = rlnorm(8, 1 - (i %% 3) * 0.05, 0.05))
  })
  names(suite) <- sprintf("b%02d", 1:30)
  s <- speedup_suite(suite)
  m <- s$notes$message
  expect_true(length(m) > 0)
  # the rows of join_rows() of the same pieces: the message of each note
  # rebuilt from the benchmarks table by paste0()
  bm <- s$benchmarks
  for (k in seq_len(nrow(s$notes))) {
    p <- s$notes$protocol[k]
    j <- match(s$notes$benchmark[k], bm$benchmark)
    expect_true(startsWith(m[k], speeduptest:::protocol_info(p)$what))
    expect_match(m[k], bm[[paste0(p, "_decision")]][j], fixed = TRUE)
  }
  expect_identical(unserialize(serialize(s, NULL))$notes, s$notes)
})
