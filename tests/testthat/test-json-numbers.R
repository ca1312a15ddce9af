# The one-pass helpers of src/json-numbers.c and src/fileread.c that the
# readers use on large files, each against the R expression it replaces.

test_that("the 0-or-1 test agrees with any(x == 0 | x == 1)", {
  set.seed(41)
  maybe <- speeduptest:::json_maybe_boolean
  ref <- function(x) is.numeric(x) && is.null(names(x)) && any(x == 0 | x == 1, na.rm = TRUE)
  cases <- list(double(), integer(), c(0.5, 2), c(0.5, 1), c(0, 3), c(NA, 1), c(NA, 2),
                c(NaN, Inf, -Inf), -0, 1L, c(2L, NA), c(NA_integer_, 0L), c(a = 1),
                "1", TRUE, list(1), 1 + 1e-16, 1 - 1e-16)
  for (i in 1:200) {
    x <- sample(c(0, 1, 0.25, 2, NA, -1), sample(0:6, 1), replace = TRUE)
    cases[[length(cases) + 1L]] <- if (i %% 2) x else suppressWarnings(as.integer(x))
  }
  for (x in cases) expect_identical(maybe(x), ref(x), info = deparse(x))
})

test_that("factor codes in order are told as tabulate() and is.unsorted() tell them", {
  set.seed(42)
  in_order <- speeduptest:::factor_in_order
  ref <- function(f) {
    k <- length(levels(f))
    codes <- unclass(f)
    attributes(codes) <- NULL
    k >= 1L && length(f) > 0L && !anyNA(codes) && all(tabulate(codes, k) > 0L) &&
      !is.unsorted(codes) && codes[1L] == 1L
  }
  for (i in 1:300) {
    lev <- letters[seq_len(sample(1:4, 1))]
    x <- switch(i %% 3 + 1,
                sample(lev, sample(0:8, 1), replace = TRUE),
                sort(sample(lev, sample(1:8, 1), replace = TRUE)),
                rep(lev, sample(1:3, length(lev), replace = TRUE)))
    if (i %% 7 == 0 && length(x)) x[sample(length(x), 1)] <- NA
    f <- factor(x, levels = lev)
    expect_identical(in_order(f), ref(f), info = paste(x, collapse = " "))
  }
  expect_false(in_order(factor(character())))
})

test_that("JMH's forks are flattened as unlist() does, and only plain ones", {
  flat <- function(x) .Call(speeduptest:::ffi_json_flat_numbers, x)
  forks <- list(list(150.5, 151, 149.25), list(2L, 3.5), list(-4, 7))
  r <- flat(forks)
  expect_identical(r$values, as.double(unlist(forks)))
  expect_identical(r$nonpos, c(FALSE, FALSE, TRUE))
  # what the R reader must look at: not plain, so NULL
  for (bad in list(list(list()), list(list(1.5, NULL)), list(list(1.5, "2")),
                   list(list(1.5, 1)), list(list(0, 2)), list(list(TRUE, 2)),
                   list(list(2, NA_real_)), list(list(2, Inf)), list(list(2, list(3))),
                   list(list(a = 2)), list(c(2, 3)), list(list(c(2, 3))),
                   list(list(2, NA_integer_)))) {
    expect_null(flat(bad), label = deparse(bad))
  }
  expect_identical(flat(list())$values, double())
})

test_that("plain ASCII text is told as the readers' sniffing tells it", {
  plain <- function(x) .Call(speeduptest:::ffi_plain_ascii, x)
  ref <- function(raw) {
    if (is.null(raw) || !length(raw) || any(raw > as.raw(0x7f))) return(FALSE)
    speeduptest:::sniff_bytes(raw)$encoding == "UTF-8"
  }
  set.seed(43)
  cases <- list(NULL, raw(), charToRaw("{\"a\": 1}\n"), charToRaw("a\tb\r\n\f\v\033"),
                as.raw(c(0x7b, 0x00)), as.raw(c(0x7b, 0x7f)), as.raw(c(0x7b, 0x80)),
                charToRaw("caf\u00e9"), as.raw(c(0xef, 0xbb, 0xbf, 0x7b)))
  for (i in 1:300) cases[[length(cases) + 1L]] <- as.raw(sample(c(0:40, 120:130), sample(1:5, 1)))
  got <- plain(cases)
  for (i in seq_along(cases)) expect_identical(got[i], ref(cases[[i]]), info = i)
})

test_that("small JSON files read in one pass parse as they do one by one", {
  dir <- tempfile("small-json-")
  dir.create(dir)
  texts <- c('{"iters": [1, 2], "times": [10.5, 20]}', '{"full_id": "g/f"}', "[1, 2",
             "null", '{"a": "caf\u00e9"}', "", strrep(" ", 5000), '{"b": [true, 0]}')
  paths <- file.path(dir, sprintf("f%d.json", seq_along(texts)))
  for (i in seq_along(texts)) writeBin(charToRaw(enc2utf8(texts[i])), paths[i])
  paths <- c(paths, file.path(dir, "missing.json"))
  for (simplify in c(FALSE, TRUE)) {
    got <- speeduptest:::json_small_files(paths, simplify = simplify)
    expect_length(got, length(paths))
    for (i in seq_along(paths)) {
      if (is.null(got[[i]])) next
      expect_identical(got[[i]], speeduptest:::timings_json_small(paths[i], simplify = simplify))
    }
    # the plain, valid files are parsed here; the others are left to the caller
    expect_identical(!vapply(got, is.null, NA), c(TRUE, TRUE, FALSE, FALSE, FALSE, FALSE,
                                                   FALSE, TRUE, FALSE))
  }
})

test_that("a JMH file with a null score skips that benchmark only", {
  f <- timings_tempfile(paste0(
    '[{"benchmark": "a.B.ok", "mode": "avgt", "primaryMetric": {"scoreUnit": "ns/op",',
    ' "rawData": [[150.5, 151.25], [149.5]]}},',
    ' {"benchmark": "a.B.bad", "mode": "avgt", "primaryMetric": {"scoreUnit": "ns/op",',
    ' "rawData": [[150.5, null]]}}]'), ext = ".json")
  expect_warning(t <- read_timings(f), class = "speeduptest_warning_skipped")
  expect_identical(unique(t$benchmark), "a.B.ok")
  expect_equal(t$time, c(150.5, 151.25, 149.5) * 1e-9)
  expect_identical(t$process, c(1L, 1L, 2L))
  expect_match(attr(t, "problems")$message, "null")
})
