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
