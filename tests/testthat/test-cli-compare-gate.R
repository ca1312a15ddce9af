# `speeduptest compare` keeps its promise (SPEC section 10b): a verdict the
# data cannot guarantee fails no job and states no risk, on every output;
# several files per version are several processes.

gate_cli <- function(...) {
  err <- character()
  status <- NULL
  err_con <- textConnection("err", "w", local = TRUE)
  sink(err_con, type = "message")
  out <- tryCatch(utils::capture.output(status <- speeduptest:::cli_compare(c(...))),
                  finally = { sink(type = "message"); close(err_con) })
  list(status = status, out = out, err = err)
}

# Interleaved rounds (each run its own process), as `speeduptest measure`
# writes them: the paired design, whose verdicts are guaranteed.
interleaved_csv <- function(change, rounds = 31, benchmarks = c("alpha", "beta"),
                            seed = 1) {
  set.seed(seed)
  d <- do.call(rbind, lapply(benchmarks, function(b) {
    drift <- 1 + 0.05 * sin(seq_len(rounds) / 3)
    data.frame(benchmark = b, version = rep(c("base", "head"), rounds),
               time = rep(drift, each = 2) * exp(0.01 * rnorm(2 * rounds)) *
                 rep(c(1, if (b == benchmarks[1]) 1 / change else 1), rounds),
               run = seq_len(2 * rounds), round = rep(seq_len(rounds), each = 2),
               process = seq_len(2 * rounds))
  }))
  p <- tempfile(fileext = ".csv")
  utils::write.csv(d, p, row.names = FALSE)
  p
}

# One file per version of one process each (as two Google Benchmark runs).
one_process_files <- function(change, n = 40, seed = 2) {
  set.seed(seed)
  f <- function(v, s) {
    d <- data.frame(benchmark = rep(c("alpha", "beta"), each = n), time = 1e-3 *
                      exp(0.01 * rnorm(2 * n)) / s, run = rep(seq_len(n), 2),
                    process = 1L)
    p <- tempfile(v, fileext = ".csv")
    utils::write.csv(d, p, row.names = FALSE)
    p
  }
  c(f("base", 1), f("head", change))
}

test_that("a guaranteed slowdown fails the job and states its risk", {
  p <- interleaved_csv(1 / 1.05)
  r <- gate_cli(p)
  expect_identical(r$status, 1L)
  expect_match(grep("^alpha", r$out, value = TRUE),
               "significant slowdown beyond 1 % (paired by round, 31 rounds)", fixed = TRUE)
  expect_true(any(grepl("probability at most 0.050", r$out, fixed = TRUE)))
  expect_identical(r$out[length(r$out)], "FAIL (--fail-on slowdown): exit 1")
})

test_that("an unguaranteed slowdown is inconclusive (exit 3) and states no risk anywhere", {
  f <- one_process_files(1 / 1.05)
  txt <- gate_cli(f[1], f[2])
  md <- gate_cli(f[1], f[2], "--output", "markdown")
  js <- gate_cli(f[1], f[2], "--output", "json")
  for (r in list(txt, md, js)) {
    expect_identical(r$status, 3L)
    expect_false(any(grepl("probability at most", r$out)))
  }
  expect_identical(txt$out[length(txt$out)], "INCONCLUSIVE (--fail-on slowdown): exit 3")
  expect_match(grep("^alpha", txt$out, value = TRUE),
               "significant slowdown beyond 1 % (not guaranteed)", fixed = TRUE)
  # the cure is named
  all_txt <- gsub("\\s+", " ", paste(txt$out, collapse = " "))
  expect_match(all_txt, "speeduptest measure", fixed = TRUE)
  expect_match(all_txt, "--base", fixed = TRUE)
  # the same notes in the three outputs: the JSON holds each note of the
  # text (unwrapped), the Markdown lists each
  j <- jsonlite::fromJSON(paste(js$out, collapse = "\n"), simplifyVector = FALSE)
  notes <- unlist(j$notes)
  expect_gte(length(notes), 3L)
  starts <- grep("^note: ", txt$out)
  ends <- c(starts[-1L] - 1L, grep("^risk: ", txt$out) - 1L)
  text_notes <- vapply(seq_along(starts), function(i) {
    sub("^note: ", "", paste(trimws(txt$out[starts[i]:ends[i]]), collapse = " "))
  }, "")
  expect_identical(gsub("\\s+", " ", notes), text_notes)
  md_items <- sub("^- ", "", grep("^- ", md$out, value = TRUE))
  unescape <- function(s) gsub("\\\\(.)", "\\1", s)
  expect_identical(unescape(md_items), notes)
  expect_true(any(grepl("one process per version", notes)))
  expect_false(j$summary$risk_bounded)
  expect_null(j$summary$risk)
  expect_identical(j$summary$result, "INCONCLUSIVE")
  expect_false(j$comparisons[[1]]$guaranteed)
  expect_gte(length(j$comparisons[[1]]$caveats), 1L)
  # asked for, the job fails on it, and says the risk is not bounded
  r <- gate_cli(f[1], f[2], "--fail-on", "unguaranteed-slowdown")
  expect_identical(r$status, 1L)
  expect_true(any(grepl("^risk: not bounded", r$out)))
  # with nothing significant, the job passes
  f0 <- one_process_files(1)
  expect_identical(gate_cli(f0[1], f0[2])$status, 0L)
})

test_that("a guaranteed slowdown fails the job even beside unguaranteed ones", {
  rows <- data.frame(direction = c("slowdown", "slowdown", "speedup", NA),
                     guaranteed = c(FALSE, TRUE, FALSE, NA))
  st <- speeduptest:::compare_status
  expect_identical(st(rows, "slowdown"), 1L)
  expect_identical(st(rows[c(1, 3, 4), ], "slowdown"), 3L)
  expect_identical(st(rows[c(1, 3, 4), ], "unguaranteed-slowdown"), 1L)
  expect_identical(st(rows[c(3, 4), ], "slowdown"), 0L)
  expect_identical(st(rows[c(3, 4), ], "change"), 3L)
  expect_identical(st(rows, "never"), 0L)
})

test_that("a bad --alpha is refused with R's words; R warns about a swapped conf_level", {
  h <- timings_fixture("hyperfine-slowdown.json")
  for (a in c("0.95", "0.5", "1", "0", "-0.1", "x")) {
    r <- gate_cli(h, "--alpha", a)
    expect_identical(r$status, 2L, label = a)
    expect_length(r$out, 0L)
  }
  r <- gate_cli(h, "--alpha", "0.95")
  expect_match(r$err[1], "for a 95% confidence, use --alpha 0.05", fixed = TRUE)
  expect_identical(gate_cli(h, "--alpha", "0.1")$status, 3L)
  # in R: alpha = 0.95 warns, and so does conf_level = 0.05
  set.seed(3)
  x <- rlnorm(35)
  y <- rlnorm(35)
  expect_warning(median_test(x, y, alpha = 0.95), class = "speeduptest_warning_alpha")
  expect_warning(s <- speedup_suite(list(a = list(x, y)), conf_level = 0.05),
                 class = "speeduptest_warning_alpha")
  expect_warning(speedup_suite(list(a = list(x, y)), conf_level = 0.05),
                 "use `conf_level = 0.95`", fixed = TRUE)
  expect_silent(speedup_suite(list(a = list(x, y)), conf_level = 0.95))
})

test_that("knit_print() of a suite carries the same flags as its print", {
  skip_if_not_installed("knitr")
  g <- timings_fixture(c("gbench-base.json", "gbench-slower.json"))
  s <- speedup_suite(read_timings(g))
  md <- as.character(knitr::knit_print(s))
  expect_match(md, "(not guaranteed)", fixed = TRUE)
  expect_match(md, "**Notes**", fixed = TRUE)
  expect_match(md, "one process", fixed = TRUE)
  expect_match(md, "Multiplicity", fixed = TRUE)
  # every note of summary() is in the Markdown
  for (m in s$notes$message) {
    expect_match(gsub("\\\\(.)", "\\1", md), m, fixed = TRUE)
  }
  # a benchmark of unguaranteed verdicts shows it; guaranteed ones do not
  bm <- s$benchmarks
  expect_equal(lengths(regmatches(md, gregexpr("(not guaranteed)", md, fixed = TRUE))),
               sum(!bm$mean_guaranteed & !is.na(bm$mean_direction)) +
                 sum(!bm$median_guaranteed & !is.na(bm$median_direction)))
})

test_that("several files per version are several processes (read_timings and compare)", {
  set.seed(5)
  dir <- tempfile("procs")
  dir.create(dir)
  write_proc <- function(v, i, s) {
    # each process has its own level: the variation between processes
    lvl <- exp(0.02 * rnorm(1))
    d <- data.frame(benchmark = "alpha", time = lvl * exp(0.002 * rnorm(4)) / s)
    p <- file.path(dir, sprintf("%s-%02d.csv", v, i))
    utils::write.csv(d, p, row.names = FALSE)
    p
  }
  b <- vapply(1:32, function(i) write_proc("base", i, 1), "")
  h <- vapply(1:32, function(i) write_proc("head", i, 1), "")
  t <- read_timings(c(stats::setNames(b, rep("base", 32)), stats::setNames(h, rep("head", 32))))
  expect_identical(levels(t$version), c("base", "head"))
  expect_identical(length(unique(t$process[t$version == "base"])), 32L)
  expect_identical(length(unique(t$process)), 64L)
  expect_identical(as.integer(table(t$process)), rep(4L, 64))
  expect_identical(t$run[t$version == "head"], 1:128)
  v <- median_test(t, min_speedup = 1.01)
  expect_identical(v$replication$unit, "process")
  expect_identical(v$n, 32L)
  # the same verdict through compare, with globs the shell did not expand
  r <- gate_cli("--base", file.path(dir, "base-*.csv"), "--head", file.path(dir, "head-*.csv"))
  line <- grep("^alpha", r$out, value = TRUE)
  expect_match(line, "32 and 32 processes", fixed = TRUE)
  expect_match(line, v$decision, fixed = TRUE)
  expect_match(line, speeduptest:::fmt_estimate_ci(attr(v$speedup_ci, "estimate"),
                                                   v$speedup_ci), fixed = TRUE)
  r2 <- gate_cli("--base", b, "--head", h)
  expect_identical(r2$out, r$out)
  # a pattern matching nothing, a missing --head, and files both ways are
  # bad input
  expect_identical(gate_cli("--base", file.path(dir, "none-*.csv"), "--head", h)$status, 2L)
  expect_identical(gate_cli("--base", b)$status, 2L)
  expect_identical(gate_cli(b[1], "--base", b[2], "--head", h[1])$status, 2L)
})

test_that("the comment renders (pandoc), with both times, the change, and names kept as text", {
  pandoc <- Sys.which("pandoc")
  skip_if(!nzchar(pandoc), "pandoc is missing")
  set.seed(6)
  rounds <- 31
  nm <- c("**bold** <b>x</b> | pipe", "plain")
  d <- do.call(rbind, lapply(nm, function(b) {
    data.frame(benchmark = b, version = rep(c("base", "head"), rounds),
               time = 2e-3 * exp(0.01 * rnorm(2 * rounds)) *
                 rep(c(1, if (b == "plain") 1 else 1.1), rounds),
               run = seq_len(2 * rounds), round = rep(seq_len(rounds), each = 2),
               process = seq_len(2 * rounds))
  }))
  p <- tempfile(fileext = ".csv")
  utils::write.csv(d, p, row.names = FALSE)
  r <- gate_cli(p, "--output", "markdown")
  expect_identical(r$status, 1L)
  md <- tempfile(fileext = ".md")
  writeLines(enc2utf8(r$out), md, useBytes = TRUE)
  html <- paste(system2(pandoc, c("-f", "gfm", "-t", "html", md), stdout = TRUE),
                collapse = "\n")
  # one table, a header and two rows of six cells: the pipe in the name
  # did not split its row, and no name became markup
  expect_length(gregexpr("<table>", html, fixed = TRUE)[[1]], 1L)
  rows <- regmatches(html, gregexpr("<tr[^>]*>.*?</tr>", gsub("\n", " ", html), perl = TRUE))[[1]]
  expect_length(rows, 3L)
  for (row in rows) {
    expect_length(gregexpr("<t[dh][ >]", row)[[1]], 6L)
  }
  expect_false(grepl("<strong>bold</strong>", html, fixed = TRUE))
  expect_false(grepl("<b>x</b>", html, fixed = TRUE))
  expect_match(html, "**bold** &lt;b&gt;x&lt;/b&gt; | pipe", fixed = TRUE)
  # the slower row: both times with units, the change as a factor, in bold
  slow <- rows[grepl("bold", rows)]
  expect_match(slow, "[0-9.]+ ms \\S+ [0-9.]+ [mu]s</td>")
  expect_match(slow, "1\\.1[0-9]x slower")
  expect_match(slow, "<strong>significant slowdown beyond 1\\s+%</strong>")
  # the unchanged row: what the runs could have detected, not a p-value
  plain <- rows[grepl(">plain<", rows)]
  expect_match(plain, "(equivalent within 1\\s+%|could have detected [0-9.]+x faster)")
  expect_false(any(grepl("p-value|p = ", rows)))
  expect_match(html, "Result: FAIL \\(--fail-on slowdown\\): exit 1")
})
