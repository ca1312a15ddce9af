# The vectorised writers of `speeduptest compare` against the one-value
# helpers they replace (fmt_ci(), fmt_estimate_ci(), compare_words(),
# fmt_time_spread()), against stats::median()/mad() and against jsonlite.

test_that("compare_times_all() gives stats::median() and stats::mad() of each sample", {
  set.seed(11)
  pairs <- lapply(1:60, function(j) {
    n <- j %% 9
    m <- (j * 7) %% 11
    x <- round(rlnorm(n, 0, 0.5), if (j %% 2) 2 else 8)
    y <- rlnorm(m, 1, 0.2)
    if (j %% 5 == 0 && n) x[1] <- NA
    if (j %% 7 == 0 && m) y[m] <- Inf
    list(x = x, y = y)
  })
  got <- speeduptest:::compare_times_all(pairs)
  ref <- lapply(pairs, function(p) speeduptest:::compare_times(p$x, p$y))
  for (f in names(got)) {
    expect_identical(got[[f]], vapply(ref, `[[`, 0, f), info = f)
  }
  # against stats directly, on the finite runs
  fx <- lapply(pairs, function(p) p$x[is.finite(p$x)])
  expect_identical(got$old_median, vapply(fx, function(v) if (length(v)) median(v) else NA_real_, 0))
  expect_identical(got$old_spread, vapply(fx, function(v) if (length(v) > 1) mad(v) else NA_real_, 0))
})

test_that("the interval, estimate and words of many lines read as the one-line helpers", {
  v <- c(NA, 0, 1, 0.99949, 1.00051, 123.456, 1e-7, 2.5e10, Inf, 0.000999951, 1.23449999)
  g <- expand.grid(lo = v, hi = v)
  ns <- asNamespace("speeduptest")
  expect_identical(ns$fmt_ci_all(g$lo, g$hi),
                   mapply(function(a, b) ns$fmt_ci(c(a, b)), g$lo, g$hi, USE.NAMES = FALSE))
  est <- rev(rep_len(v, nrow(g)))
  expect_identical(ns$fmt_estimate_ci_all(est, g$lo, g$hi),
                   mapply(function(e, a, b) ns$fmt_estimate_ci(e, c(a, b)), est, g$lo, g$hi,
                          USE.NAMES = FALSE))
  dirs <- c("speedup", "slowdown", "none", "equivalent", NA)
  for (s0 in c(1, 1.01, 1.05)) {
    expect_identical(ns$compare_words_all(dirs, s0),
                     vapply(dirs, ns$compare_words, "", s0 = s0, USE.NAMES = FALSE))
  }
  med <- c(NA, 1.5e-9, 2e-5, 0.3, 12, NA)
  spr <- c(1, NA, 3e-7, 0.01, NA, NA)
  expect_identical(ns$fmt_time_spread_all(med, spr),
                   mapply(ns$fmt_time_spread, med, spr, USE.NAMES = FALSE))
  s <- c(a = NA, b = -1, c = 0, d = 0.5, e = 0.999, f = 1, g = 1.004, h = 3, i = Inf)
  ref <- vapply(s, function(v) {
    if (is.na(v) || v <= 0) return("NA")
    if (is.infinite(v)) return("Inf x faster")
    f <- if (v >= 1) v else 1 / v
    if (ns$fmt_num(f) == "1.00") return("1.00x")
    sprintf("%sx %s", ns$fmt_num(f), if (v >= 1) "faster" else "slower")
  }, "")
  expect_identical(ns$fmt_factor_change(s), ref)
  expect_identical(ns$fmt_factor_change(unname(s)), unname(ref))
})

test_that("json_strings() and json_numbers() write what jsonlite writes", {
  x <- c("plain", "q\"uote", "back\\slash", "ctl\001x\033[31m\037", "tab\tnl\nx\r\b\f",
         "bidi\u202eevil", "del\177x", "emoji \U0001f600 \u00e9", "a/b", "", "sep\u2028x")
  ns <- asNamespace("speeduptest")
  expect_identical(ns$json_strings(x),
                   vapply(x, function(s) as.character(jsonlite::toJSON(s, auto_unbox = TRUE)), "",
                          USE.NAMES = FALSE))
  set.seed(3)
  v <- c(rlnorm(200, 0, 5), -rlnorm(100, 0, 30), 0, 1, 35, 1e15, 1e-300, 5e-324, 0.1, 1 / 3,
         Inf, -Inf, 123456789012, 2^53, 1e16, -1, 1.7976931348623157e308, round(runif(50) * 1e6))
  expect_identical(ns$json_numbers(v),
                   vapply(v, function(s) as.character(jsonlite::toJSON(s, auto_unbox = TRUE, digits = NA)),
                          "", USE.NAMES = FALSE))
  expect_identical(ns$json_numbers(c(NA, 2, NaN)), c("null", "2", "null"))
})

# The JSON of compare as jsonlite writes the list of comparisons (the
# writer before the comparisons were written column by column).
json_by_jsonlite <- function(res, opts, status, notes) {
  ns <- asNamespace("speeduptest")
  rows <- res$rows
  risk <- ns$compare_risk(res, opts)
  n <- ns$compare_counts(rows)
  na <- function(v) if (length(v) == 0L || is.na(v)) NULL else v
  verdicts <- ns$compare_verdicts(rows)
  comparisons <- lapply(seq_len(nrow(rows)), function(i) {
    r <- rows[i, ]
    v <- verdicts[[i]]
    list(benchmark = r$benchmark, version = r$version, baseline = res$baseline,
         n = r$n, m = r$m, speedup = na(r$speedup), estimate = na(r$estimate),
         change = ns$fmt_factor_change(if (is.na(r$estimate)) r$speedup else r$estimate),
         interval = if (is.na(r$ci_low)) NULL else c(r$ci_low, r$ci_high),
         decision = if (is.na(r$direction)) "insufficient data" else r$direction,
         words = ns$compare_words(r$direction, opts$s0),
         guaranteed = if (is.na(r$guaranteed)) NULL else r$guaranteed,
         caveats = if (is.null(v)) list() else as.list(v$caveats),
         advice = if (is.null(v)) list() else as.list(v$advice),
         old = list(median = na(r$old_median), spread = na(r$old_spread)),
         new = list(median = na(r$new_median), spread = na(r$new_spread)),
         p_speedup = na(r$p_speedup), p_slowdown = na(r$p_slowdown),
         p_equivalence = na(r$p_equivalence),
         p_speedup_adjusted = na(r$p_speedup_adj),
         p_slowdown_adjusted = na(r$p_slowdown_adj),
         p_equivalence_adjusted = na(r$p_equivalence_adj),
         detectable = if (is.na(r$detectable)) NULL else
           if (is.finite(r$detectable)) r$detectable else "Inf",
         min_alpha = if (is.null(r$min_alpha)) NULL else na(r$min_alpha),
         interval_open = if (is.null(v) || is.null(attr(v$speedup_ci, "open"))) NULL
           else attr(v$speedup_ci, "open"),
         note = if (nzchar(r$note)) r$note else NULL)
  })
  out <- list(
    tool = "speeduptest compare",
    test = opts$test, alpha = opts$alpha, tolerance_percent = 100 * (opts$s0 - 1),
    min_speedup = opts$s0, p_adjust = opts$p_adjust, fail_on = opts$fail_on,
    interval_level = ns$interval_level(opts$alpha), time_unit = "s",
    baseline = res$baseline, versions = res$versions,
    comparisons = comparisons,
    skipped = lapply(seq_len(nrow(res$skipped)), function(i) {
      list(benchmark = res$skipped$benchmark[i], version = res$skipped$version[i],
           message = res$skipped$message[i])
    }),
    summary = list(benchmarks = nrow(rows), faster = n[["faster"]],
                   slower = n[["slower"]], equivalent = n[["equivalent"]],
                   no_significant_change = n[["none"]],
                   insufficient_data = n[["insufficient"]],
                   not_guaranteed = n[["not_guaranteed"]],
                   skipped = nrow(res$skipped), tested = risk$tested,
                   risk = if (is.na(risk$risk)) NULL else risk$risk,
                   risk_bounded = risk$bounded,
                   risk_text = ns$compare_risk_line(res, opts),
                   result = ns$compare_result_word(status),
                   exit_status = status,
                   exit_text = ns$compare_exit_line(opts, status)),
    notes = as.list(notes))
  ns$json_text(out, auto_unbox = TRUE, digits = NA, pretty = TRUE, null = "null")
}

test_that("the JSON of compare is the document jsonlite writes, hostile names included", {
  ns <- asNamespace("speeduptest")
  set.seed(7)
  nm <- c("plain", "q\"uote", "back\\slash", "ctl\001x\033[31m", "tab\tnl\nx",
          "bidi\u202eevil", "del\177x", "emoji \u00e9", "few", "flat")
  runs <- function(f) {
    do.call(rbind, lapply(seq_along(nm), function(j) {
      k <- if (nm[j] == "few") 2 else 12
      tm <- (1 + j) * 1e-3 / (if (j %% 3 == 0) f else 1) * exp(rnorm(k, 0, 0.02))
      if (nm[j] == "flat") tm[] <- 1e-3
      data.frame(benchmark = nm[j], time = tm, process = 1L)
    }))
  }
  a <- runs(1)
  b <- runs(1.05)
  a$version <- "old"
  b$version <- "new"
  t <- as_timings(rbind(a, b))
  for (args in list(character(), c("--test", "mean", "--tolerance", "0"),
                    c("--p-adjust", "none", "--fail-on", "change"))) {
    opts <- ns$compare_parse_args(c("a", "b", args))
    run <- suppressWarnings(ns$compare_run(t, opts))
    status <- ns$compare_status(run$rows, opts$fail_on)
    notes <- ns$compare_notes(run, opts, status)
    got <- ns$compare_json(run, opts, status, notes)
    expect_identical(got, json_by_jsonlite(run, opts, status, notes))
    back <- jsonlite::fromJSON(got, simplifyVector = FALSE)
    expect_identical(vapply(back$comparisons, `[[`, "", "benchmark"), nm)
  }
})

test_that("compare_times_all() of no pairs is four empty columns", {
  got <- speeduptest:::compare_times_all(list())
  expect_identical(got, list(old_median = double(), old_spread = double(),
                             new_median = double(), new_spread = double()))
})

test_that("the vectorised intervals open the ends the decision rejects, as fmt_estimate_ci() does", {
  ns <- asNamespace("speeduptest")
  lo <- c(1.02, 0.98, 1.1, NA)
  hi <- c(1.07, 1.01, Inf, NA)
  ol <- c(TRUE, FALSE, FALSE, FALSE)
  oh <- c(FALSE, TRUE, FALSE, FALSE)
  est <- c(1.04, 0.99, 1.2, 1)
  got <- ns$fmt_estimate_ci_all(est, lo, hi, open_low = ol, open_high = oh)
  ref <- vapply(seq_along(lo), function(i) {
    ci <- c(lo[i], hi[i])
    if (ol[i] || oh[i]) attr(ci, "open") <- c(ol[i], oh[i])
    ns$fmt_estimate_ci(est[i], ci)
  }, "")
  expect_identical(got, ref)
  expect_identical(got[1:2], c("1.04 (1.02, 1.07]", "0.990 [0.980, 1.01)"))
})
