# Comparison helpers shared by the test files (testthat sources helper-*.R
# before the tests).

# Largest relative difference between two numeric vectors, relative to
# |b| + scale (0 where the two are equal, including equal infinities; NA
# when either holds NA, so that a comparison with it fails).
rel_diff <- function(a, b, scale = 0) {
  a <- unname(a)
  b <- unname(b)
  max(ifelse(a == b, 0, abs(a - b) / pmax(abs(b) + scale, .Machine$double.xmin)))
}

# Value of expr and whether it warned that the confidence level is not
# achievable (as wilcox.test and our rank tests do).
with_level_warning <- function(expr) {
  warned <- FALSE
  value <- withCallingHandlers(expr, warning = function(w) {
    if (grepl("not achievable", conditionMessage(w), ignore.case = TRUE)) {
      warned <<- TRUE
    }
    invokeRestart("muffleWarning")
  })
  list(value = value, warned = warned)
}

# The three p-values of an observed statistic from its enumerated null
# distribution (every split or sign pattern equally likely): the lower and
# upper tails and twice the smaller one, as the rank tests define them.
null_tails <- function(null, observed, eps = 1e-9) {
  le <- mean(null <= observed + eps)
  ge <- mean(null >= observed - eps)
  c(less = le, greater = ge, two.sided = min(1, 2 * min(le, ge)))
}

# The Speedup-Test's own three outcomes of a verdict (the question "is the
# speedup significant?"), from the fields the verdicts keep: "significant",
# "not significant" (a slowdown included) or "insufficient data".  The
# verdict's `decision` says more (the direction, in words).
outcome <- function(v) {
  s <- if (is.list(v)) v$significant else v
  ifelse(is.na(s), "insufficient data",
         ifelse(s, "significant", "not significant"))
}

# The summary of a `speeduptest compare` text output, its wrapped lines
# joined: from the line "N benchmark(s): ..." to the line before the last.
compare_summary <- function(out) {
  i <- grep("^[0-9]+ benchmarks?: ", out)
  i <- i[length(i)]
  paste(trimws(out[i:(length(out) - 1L)]), collapse = " ")
}
