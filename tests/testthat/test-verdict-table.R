# verdict_table() (R/verdict-table.R) against each benchmark's own verdict
# (run_structured(), the per-verdict path): the same numbers, caveats,
# advice, smallest attainable alpha, detectable speedup and printed lines.

table_cases <- function(seed = 1) {
  set.seed(seed)
  p <- function(x, y, px = NULL, py = NULL, labels = c("old", "new")) {
    list(x = x, y = y, labels = labels, data_name = "b: old vs new",
         baseline = "\"old\" (versions =)",
         process = if (!is.null(px)) list(x = px, y = py))
  }
  list(
    plain = p(rlnorm(20, 0, 0.02), rlnorm(20, 0, 0.02)),
    faster = p(rlnorm(25, 0.2, 0.03), rlnorm(25, 0, 0.03)),
    slower = p(rlnorm(25, 0, 0.03), rlnorm(25, 0.2, 0.03)),
    equiv = p(rlnorm(200, 0, 0.005), rlnorm(200, 0, 0.005)),
    two = p(c(1, 1.1), c(1, 1.2, 1.1)),
    three = p(c(1, 1.1, 1.05), c(1.3, 1.2, 1.25)),
    four = p(c(1, 1.1, 1.05, 1.02), c(1.3, 1.2, 1.25, 1.22)),
    const = p(rep(1, 10), rep(1, 10)),
    constx = p(rep(1, 10), rlnorm(10)),
    ties = p(round(rlnorm(30, 0, 0.05), 2), round(rlnorm(30, 0.03, 0.05), 2)),
    trend = p(1 + (1:40) / 100 + rnorm(40, 0, 0.002), rlnorm(40, 0, 0.01)),
    trendy = p(rlnorm(40, 0, 0.01), 1 - (1:40) / 200 + rnorm(40, 0, 0.001)),
    skew = p(rexp(50) + 1, rexp(50) * 3 + 0.9),
    shape = p(c(rlnorm(30, 0, 0.01), rlnorm(30, 0.3, 0.01)), rlnorm(60, 0.15, 0.01)),
    big = p(rlnorm(300, 0, 0.1), rlnorm(300, 0.005, 0.1)),
    single = p(rlnorm(15, 0, 0.02), rlnorm(15, 0.01, 0.02), rep(1L, 15), rep(2L, 15)),
    single_chr = p(rlnorm(12, 0, 0.02), rlnorm(12, 0, 0.02), rep("a", 12), rep("b", 12)),
    processes = p(rlnorm(16, 0, 0.02), rlnorm(16, 0, 0.02), rep(1:4, each = 4),
                  rep(5:8, each = 4)),
    shared = p(rlnorm(16, 0, 0.02), rlnorm(16, 0, 0.02), rep(1L, 16), rep(1L, 16)),
    huge = p(rlnorm(10, 5, 0.1), rlnorm(10, 0, 0.1)),
    negative = p(c(rlnorm(9), -1), rlnorm(10)),
    missing = p(c(rlnorm(9), NA), rlnorm(10)),
    empty = p(numeric(), rlnorm(10)),
    error = simpleError("no runs"),
    markup = p(rlnorm(8), rlnorm(8, 0.1), labels = c("<b>old</b>", "new & \"x\"")))
}

expect_table_matches <- function(test, alpha, s0, digits = 3L) {
  ns <- asNamespace("speeduptest")
  # the advice lines' plans by the normal approximation (as a site makes
  # them), not simulated, on both sides
  op <- options(speeduptest.plan_method = "normal")
  on.exit(options(op), add = TRUE)
  parts <- table_cases()
  one <- function(j) {
    if (inherits(parts[[j]], "error")) return(parts[[j]])
    tryCatch(suppressWarnings(ns$run_structured(test, parts[[j]], alpha, TRUE, FALSE, NULL,
                                                "auto", "auto", min_speedup = s0)),
             error = function(e) e)
  }
  tab <- suppressWarnings(ns$verdict_table(test, parts, alpha, s0, analyse = one))
  # the table makes the plain benchmarks itself
  fast <- stats::setNames(tab$fast, names(parts))
  expect_true(all(fast[c("plain", "faster", "slower", "two", "const", "ties", "trend",
                        "single", "single_chr", "markup")]))
  expect_false(any(fast[c("processes", "shared", "negative", "missing", "error",
                         "huge")]))
  pages <- ns$verdict_table_pages(tab, digits = digits)
  for (j in seq_along(parts)) {
    v <- one(j)
    info <- sprintf("%s, %s, alpha %s, s0 %s", names(parts)[j], test, alpha, s0)
    if (inherits(v, "error")) {
      expect_identical(pages$error[j], conditionMessage(v), info = info)
      next
    }
    expect_identical(pages$decision[j], v$decision, info = info)
    expect_identical(pages$direction[j], if (is.na(v$direction)) "none" else v$direction,
                     info = info)
    expect_identical(pages$significant[j], v$significant, info = info)
    expect_identical(pages$speedup[j], or_na(attr(v$speedup_ci, "estimate"), v$speedup),
                     info = info)
    expect_identical(c(pages$conf_low[j], pages$conf_high[j]), as.double(v$speedup_ci),
                     info = info)
    expect_identical(pages$caveats[[j]], v$caveats, info = info)
    expect_identical(pages$advice[[j]], v$advice, info = info)
    expect_identical(pages$lines[[j]], format(v, digits = digits), info = info)
    if (!tab$fast[j]) next
    i <- match(j, tab$rows)
    c2 <- tab$cols
    expect_identical(c2$p_value[i], v$p_value, info = info)
    expect_identical(c2$p_value_slowdown[i], v$p_value_slowdown, info = info)
    expect_identical(c2$p_value_equivalence[i], v$p_value_equivalence, info = info)
    expect_identical(c2$guaranteed[i], v$confidence_guaranteed, info = info)
    expect_identical(c(c2$open_low[i], c2$open_high[i]),
                     attr(v$speedup_ci, "open") %||% c(FALSE, FALSE), info = info)
    expect_identical(c2$single[i], identical(v$replication$kind, "single"), info = info)
    ma <- ns$verdict_table_min_alpha_more(tab, i)
    if (v$n >= 3L && v$m >= 3L) expect_identical(ma[1L, ], v$min_alpha, info = info)
    for (a in c(alpha, alpha / 10)) {
      expect_identical(ns$verdict_table_detectable(tab, i, a),
                       ns$verdict_detectable(v, alpha = a), info = info)
    }
  }
}

test_that("the verdict table gives each benchmark's own verdict (median)", {
  expect_table_matches("median", 0.05, 1)
  expect_table_matches("median", 0.05, 1.01)
  expect_table_matches("median", 0.01, 1.05)
})

test_that("the verdict table gives each benchmark's own verdict (mean, prob)", {
  expect_table_matches("mean", 0.05, 1)
  expect_table_matches("mean", 0.05, 1.02)
  expect_table_matches("prob", 0.05, 1)
  expect_table_matches("prob", 0.1, 1.01, digits = 4L)
})

test_that("verdict_table_verdict() makes the verdict a user asks for", {
  ns <- asNamespace("speeduptest")
  parts <- table_cases()[c("plain", "processes")]
  tab <- ns$verdict_table("median", parts, 0.05, 1)
  v <- ns$verdict_table_verdict(tab, 1L)
  expect_s3_class(v, "speedup_verdict")
  expect_identical(format(v), format(ns$run_structured("median", parts[[1L]], 0.05, TRUE,
                                                       FALSE, NULL, "auto", "auto")))
  expect_length(ns$verdict_table_verdicts(tab), 2L)
})
