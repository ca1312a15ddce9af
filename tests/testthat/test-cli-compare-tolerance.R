# `speeduptest compare` as a CI gate: the tolerance, the adjustment, the
# baseline, the outputs, the launcher and the vignette's recipes.

compare_run_cli <- function(...) {
  err <- character()
  status <- NULL
  err_con <- textConnection("err", "w", local = TRUE)
  sink(err_con, type = "message")
  out <- tryCatch(utils::capture.output(status <- speeduptest:::cli_compare(c(...))),
                  finally = { sink(type = "message"); close(err_con) })
  list(status = status, out = out, err = err)
}

test_that("the decisions are the protocol's at the tolerance, adjusted by Holm", {
  g <- timings_fixture(c("gbench-base.json", "gbench-slower.json"))
  t <- read_timings(g)
  r <- compare_run_cli(g[1], g[2])
  vers <- levels(t$version)
  bs <- unique(t$benchmark)
  vs <- lapply(bs, function(b) {
    median_test(t$time[t$benchmark == b & t$version == vers[1]],
                t$time[t$benchmark == b & t$version == vers[2]], min_speedup = 1.01)
  })
  ps <- p.adjust(vapply(vs, `[[`, 0, "p_value"), "holm")
  pl <- p.adjust(vapply(vs, `[[`, 0, "p_value_slowdown"), "holm")
  for (i in seq_along(bs)) {
    word <- if (ps[i] <= 0.05) "significant speedup beyond 1 %" else if (pl[i] <= 0.05)
      "significant slowdown beyond 1 %" else "(within|at) 1 %"
    line <- grep(paste0("^", bs[i], " "), r$out, value = TRUE)
    expect_match(line, word)
  }
  # one process per version: no verdict is guaranteed, a slowdown is
  # inconclusive and no risk is stated
  expect_identical(r$status, if (any(pl <= 0.05)) 3L else 0L)
  expect_true(any(grepl("^risk: none stated: no verdict is guaranteed", r$out)))
  expect_false(any(grepl("probability at most", r$out)))
})

test_that("a slowdown inside the tolerance does not fail the job; beyond it, it does", {
  set.seed(31)
  f <- function(change) {
    d <- data.frame(benchmark = "b", version = rep(c("old", "new"), each = 200),
                    time = c(1 + 0.01 * rnorm(200), (1 + 0.01 * rnorm(200)) / change))
    p <- tempfile(fileext = ".csv")
    utils::write.csv(d, p, row.names = FALSE)
    p
  }
  small <- f(1 / 1.003)
  expect_identical(compare_run_cli(small)$status, 0L)
  # the paper's test (no tolerance) calls the same 0.3 % a slowdown
  expect_identical(compare_run_cli(small, "--tolerance", "0", "--p-adjust", "none")$status, 1L)
  big <- f(1 / 1.03)
  r <- compare_run_cli(big, "--tolerance", "1")
  expect_identical(r$status, 1L)
  expect_match(grep("^b ", r$out, value = TRUE), "significant slowdown beyond 1 %")
  r <- compare_run_cli(big, "--tolerance", "5")
  expect_identical(r$status, 0L)
  expect_match(grep("^b ", r$out, value = TRUE), "equivalent within 5 %")
  expect_match(compare_summary(r$out), "1 equivalent", fixed = TRUE)
})

test_that("a file with three versions compares each with the baseline", {
  h <- timings_fixture("hyperfine-three.json")
  r <- compare_run_cli(h)
  expect_identical(r$status, 3L)          # "double" is slower than "base" (blocks)
  expect_match(r$out[1], "^base \\(initial\\) -> same:")
  expect_true(any(grepl("^base \\(initial\\) -> double:", r$out)))
  expect_true(any(grepl("baseline: base (the first version; choose another with --baseline)",
                        r$out, fixed = TRUE)))
  expect_match(compare_summary(r$out), "^2 benchmarks: ")
  r <- compare_run_cli(h, "--baseline", "double")
  expect_identical(r$status, 0L)          # both others are faster
  expect_match(compare_summary(r$out), "2 significant speedup, 0 significant slowdown", fixed = TRUE)
  r <- compare_run_cli(h, "--baseline", "nope")
  expect_identical(r$status, 2L)
  expect_match(r$err[1], "--baseline must be one of", fixed = TRUE)
})

test_that("bad new options exit 2", {
  h <- timings_fixture("hyperfine-slowdown.json")
  for (args in list(c("--p-adjust", "bonferroni"), c("--tolerance", "-1"),
                    c("--tolerance", "x"), c("--output", "xml"), "--baseline")) {
    r <- compare_run_cli(h, args)
    expect_identical(r$status, 2L, label = paste(args, collapse = " "))
  }
  expect_identical(compare_run_cli(h, "--tolerance=2%")$status, 3L)
})

test_that("the Markdown output renders as a table (pandoc)", {
  pandoc <- Sys.which("pandoc")
  skip_if(!nzchar(pandoc), "pandoc is missing")
  g <- timings_fixture(c("gbench-base.json", "gbench-slower.json"))
  r <- compare_run_cli(g[1], g[2], "--output", "markdown")
  expect_identical(r$status, 3L)
  md <- tempfile(fileext = ".md")
  writeLines(r$out, md)
  html <- system2(pandoc, c("-f", "gfm", "-t", "html", md), stdout = TRUE)
  html <- paste(html, collapse = "\n")
  expect_match(html, "<table>", fixed = TRUE)
  rows <- gregexpr("<tr", html, fixed = TRUE)[[1]]
  expect_length(rows, 1L + 3L)   # the header and the three benchmarks
  expect_match(html, "significant slowdown beyond 1\\s+%\\s+\\(not\\s+guaranteed\\)")
  expect_match(html, "speeduptest compare:\\s+INCONCLUSIVE")
})

test_that("the JSON output parses and holds every figure of the text output", {
  g <- timings_fixture(c("gbench-base.json", "gbench-faster.json"))
  txt <- compare_run_cli(g[1], g[2])
  js <- compare_run_cli(g[1], g[2], "--output", "json")
  expect_identical(js$status, txt$status)
  j <- jsonlite::fromJSON(paste(js$out, collapse = "\n"), simplifyVector = FALSE)
  expect_identical(j$summary$exit_status, txt$status)
  expect_identical(j$min_speedup, 1.01)
  expect_identical(j$p_adjust, "holm")
  num <- function(v) formatC(v, digits = 3L, format = "f")
  for (cmp in j$comparisons) {
    line <- grep(paste0("^", cmp$benchmark, " "), txt$out, value = TRUE)
    expect_match(line, sprintf("speedup %s  ", speeduptest:::fmt_estimate_ci(
      cmp$estimate, c(cmp$interval[[1]], cmp$interval[[2]]))), fixed = TRUE)
    expect_match(line, cmp$words, fixed = TRUE)
    if (!is.null(cmp$detectable)) {
      expect_match(line, sprintf("could detect a speedup of %s",
                                 speeduptest:::fmt_change(cmp$detectable)), fixed = TRUE)
    }
  }
  s <- j$summary
  expect_true(any(grepl(sprintf("%d benchmarks: %d significant speedup, %d significant slowdown, %d equivalent, %d no significant difference",
                                s$benchmarks, s$faster, s$slower, s$equivalent,
                                s$no_significant_change), compare_summary(txt$out), fixed = TRUE)))
  srow <- grep("^[0-9]+ benchmarks?: ", txt$out)
  risk <- paste(txt$out[grep("^risk:", txt$out):(srow[length(srow)] - 1L)], collapse = " ")
  expect_identical(gsub("\\s+", " ", risk), s$risk_text)
  if (isTRUE(s$risk_bounded)) {
    expect_match(s$risk_text, speeduptest:::fmt_num(s$risk, 2L), fixed = TRUE)
  } else {
    expect_null(s$risk)
    expect_false(grepl("probability at most", s$risk_text))
  }
  expect_identical(txt$out[length(txt$out)], sprintf("%s (--fail-on %s): exit %d", s$result,
                                                     j$fail_on, s$exit_status))
})

test_that("the job's risk: an unchanged suite fails at most alpha with the defaults", {
  set.seed(32)
  ns <- asNamespace("speeduptest")
  opts <- ns$compare_parse_args(c("a", "b"))
  fails <- replicate(60, {
    d <- data.frame(benchmark = rep(sprintf("b%02d", 1:30), each = 62),
                    version = factor(rep(rep(c("old", "new"), each = 31), 30),
                                     levels = c("old", "new")),
                    time = 1 + 0.01 * rnorm(30 * 62), run = rep(1:31, 60))
    ns$compare_fails(ns$compare_run(d, opts)$rows, "slowdown")
  })
  expect_lte(mean(fails), 0.05)
})

test_that("install_cli() puts a working `speeduptest` on the PATH", {
  skip_on_cran()
  skip_on_os("windows")
  dir <- tempfile("bin")
  expect_message(path <- install_cli(dir), "Wrote")
  expect_identical(basename(path), "speeduptest")
  expect_true(file.access(path, 1) == 0)
  expect_error(install_cli(dir, overwrite = FALSE), class = "speeduptest_error_file")
  expect_error(install_cli(), class = "speeduptest_error_input")
  # a fresh shell: no R on the PATH, no R library settings
  run <- function(...) {
    suppressWarnings(system2("env", c("-i", paste0("HOME=", tempdir()),
                                      paste0("PATH=", dir, ":/usr/bin:/bin"),
                                      "sh", "-c", shQuote(paste("speeduptest", ...))),
                             stdout = TRUE, stderr = TRUE))
  }
  out <- run("compare", shQuote(timings_fixture("hyperfine-slowdown.json")))
  expect_identical(attr(out, "status"), 3L)
  expect_true(any(grepl("significant slowdown beyond 1 %", out, fixed = TRUE)))
  out <- run("compare", shQuote(timings_fixture("hyperfine-speedup.json")))
  expect_null(attr(out, "status"))
  out <- run("compare", "--help")
  expect_true(any(grepl("--tolerance", out, fixed = TRUE)))
})

# The recipes of vignette("from-your-tool") are the files in inst/ci, shown
# there as they are; here they run as written, in a fresh shell, on
# programs timed by the real hyperfine and Google Benchmark.
run_recipe <- function(recipe, env) {
  home <- tempfile("home")
  dir.create(home)
  work <- tempfile("job")
  dir.create(work)
  lib <- dirname(system.file(package = "speeduptest"))
  old <- setwd(work)
  on.exit(setwd(old))
  out <- suppressWarnings(system2("env", c("-i", paste0("HOME=", home),
                                           "PATH=/usr/bin:/bin:/usr/local/bin",
                                           paste0("R_LIBS=", shQuote(lib)), env, "sh",
                                           shQuote(recipe)),
                                  stdout = TRUE, stderr = TRUE))
  list(status = if (is.null(attr(out, "status"))) 0L else attr(out, "status"),
       out = out, files = list.files(work, full.names = TRUE))
}

test_that("the vignette's recipe with speeduptest measure runs as written", {
  skip_on_cran()
  skip_on_os("windows")
  skip_if(!nzchar(Sys.which("cc")), "no C compiler")
  recipe <- system.file("ci", "ci-measure.sh", package = "speeduptest")
  exe <- tempfile("busy")
  skip_if(system2("cc", c("-O2", "-o", exe, shQuote(timings_fixture("busy.c"))),
                  stdout = FALSE, stderr = FALSE) != 0, "cannot build busy.c")
  # three times the work: measured interleaved, the slowdown is guaranteed
  # and the job fails (31 rounds instead of the recipe's 501, to be quick).
  # A job whose runs drift with the machine's load (a trend in the run
  # order) is rightly inconclusive (exit 3, with its reason); such a job is
  # measured again, at most twice, as a person would rerun it.
  slow_job <- function() {
    run_recipe(recipe, c(paste0("BASE_CMD=", shQuote(paste(exe, "2000000"))),
                         paste0("CHANGE_CMD=", shQuote(paste(exe, "6000000"))),
                         "SPEEDUP_RUNS=31"))
  }
  r <- slow_job()
  for (again in 1:2) {
    if (!identical(r$status, 3L)) break
    expect_true(any(grepl("INCONCLUSIVE (--fail-on slowdown): exit 3", r$out,
                          fixed = TRUE)))
    r <- slow_job()
  }
  if (!identical(r$status, 1L)) cat(r$out, sep = "\n")
  expect_identical(r$status, 1L)
  expect_true(any(grepl("significant slowdown beyond 1 % (paired by round, 31 rounds)",
                        r$out, fixed = TRUE)))
  expect_true(any(grepl("FAIL (--fail-on slowdown): exit 1", r$out, fixed = TRUE)))
  csv <- grep("times.csv$", r$files, value = TRUE)
  expect_length(csv, 1L)
  t <- read_timings(csv)
  expect_identical(levels(t$version), c("base", "change"))
  expect_setequal(t$round, 1:31)
  md <- grep("speedup-report.md$", r$files, value = TRUE)
  expect_length(md, 1L)
  lines <- readLines(md, encoding = "UTF-8")
  expect_identical(lines[1], "### speeduptest compare: FAIL")
  row <- grep("^\\| ", lines, value = TRUE)[2]
  expect_match(row, "^\\| [^|]+ \\| [0-9.]+ ms \\S+ [0-9.]+ [mu]?s \\| [0-9.]+ ms \\S+ [0-9.]+ [mu]?s \\| [0-9.]+x slower \\|")
  # a third of the work, with the recipe's own number of rounds: the job
  # passes (work large enough that the program's start, about 4 ms of CPU
  # here, does not hide the change: 600,000 against 200,000 steps read
  # only 1.13x faster and failed now and then on a loaded machine)
  # (runs that drift with the machine's load make the speedup "not
  # guaranteed": still significant, and the job still passes)
  r <- run_recipe(recipe, c(paste0("BASE_CMD=", shQuote(paste(exe, "6000000"))),
                            paste0("CHANGE_CMD=", shQuote(paste(exe, "2000000")))))
  if (!identical(r$status, 0L)) cat(r$out, sep = "\n")
  expect_identical(r$status, 0L)
  expect_true(any(grepl(paste0("significant speedup beyond 1 % ",
                               "\\((not guaranteed; )?paired by round, 501 rounds\\)"),
                        r$out)))
  expect_true(any(grepl("pass (--fail-on slowdown): exit 0", r$out, fixed = TRUE)))
})

test_that("the GitHub Actions workflow installs from source, runs the recipe and posts the comment", {
  yml <- readLines(system.file("ci", "speedup.yml", package = "speeduptest"))
  run <- paste(yml, collapse = "\n")
  expect_match(run, "R CMD INSTALL", fixed = TRUE)
  expect_false(grepl("install.packages(\"speeduptest\")", run, fixed = TRUE))
  expect_match(run, "ci-measure.sh", fixed = TRUE)
  expect_match(run, "gh pr comment", fixed = TRUE)
  expect_match(run, "--body-file speedup-report.md", fixed = TRUE)
  expect_match(run, "pull-requests: write", fixed = TRUE)
  # the vignette shows the recipes and the workflow as they are installed
  vig <- readLines(test_path("..", "..", "vignettes", "from-your-tool.Rmd"))
  skip_if(!length(vig), "vignette source not found")
  for (f in c("ci-measure.sh", "ci-gbench.sh", "speedup.yml")) {
    expect_true(any(grepl(sprintf('system.file("ci", "%s"', f), vig, fixed = TRUE)), label = f)
  }
})

test_that("the vignette's Google Benchmark recipe runs as written", {
  skip_on_cran()
  skip_on_os("windows")
  cxx <- Sys.which("g++")
  skip_if(!nzchar(cxx), "no C++ compiler")
  src <- timings_fixture("loop_bench.cc")
  build <- function(work) {
    exe <- tempfile("bench")
    st <- system2(cxx, c("-O2", paste0("-DWORK=", work), "-o", exe, shQuote(src),
                         "-lbenchmark", "-lpthread"), stdout = FALSE, stderr = FALSE)
    skip_if(st != 0, "cannot build loop_bench.cc (libbenchmark-dev missing?)")
    exe
  }
  base <- build(100)
  slower <- build(300)
  recipe <- system.file("ci", "ci-gbench.sh", package = "speeduptest")
  # each build in 15 interleaved processes (the recipe's 60 by default):
  # paired by round, guaranteed
  r <- run_recipe(recipe, c(paste0("BASE_BENCH=", base), paste0("CHANGE_BENCH=", slower),
                            "SPEEDUP_RUNS=15"))
  expect_identical(r$status, 1L)
  expect_gte(length(grep("significant slowdown beyond 1 % (paired by round, 15 rounds)",
                         r$out, fixed = TRUE)), 2L)
  js <- grep("speedup-report.json$", r$files, value = TRUE)
  expect_length(js, 1L)
  j <- jsonlite::fromJSON(js)
  expect_identical(j$summary$exit_status, 1L)
  expect_true(all(j$comparisons$guaranteed))
  expect_length(grep("speedup-report.md$", r$files), 1L)
})
