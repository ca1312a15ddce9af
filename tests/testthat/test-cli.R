# The command line, run the way scripts written for the original SpeedupTest
# tool run it: through the installed script, from the configuration's folder
# or from another one, with relative paths, checking the exit status and the
# files. Every file is written under tempdir().

cli_example_cfg <- function() {
  system.file("extdata", "config.csv", package = "speeduptest", mustWork = TRUE)
}

cli_dir <- function() {
  d <- tempfile("cli-")
  dir.create(d)
  normalizePath(d)
}

cli_runs <- function(n, mu) format(round(rnorm(n, mu, 0.01 * mu), 4), nsmall = 4)

# Runs the installed script as a program in `wd` with `args` (the shell
# starts this R's Rscript with the base package only; on Windows, Rscript
# runs the script); returns the output lines with attributes status (0 when
# the script succeeded) and stderr.
run_script <- function(args, wd) {
  script <- system.file("bin", "speeduptest", package = "speeduptest")
  err <- tempfile()
  old <- setwd(wd)
  on.exit(setwd(old))
  out <- suppressWarnings(system2(script_cmd(script), c(script_pre(script), shQuote(args)),
                                  stdout = TRUE, stderr = err, env = script_env()))
  status <- attr(out, "status")
  structure(as.character(out), status = if (is.null(status)) 0L else status,
            stderr = readLines(err))
}

# Runs a shell command in `wd`, returns its output lines.
run_sh <- function(cmd, wd) {
  old <- setwd(wd)
  on.exit(setwd(old))
  system2("sh", c("-c", shQuote(cmd)), stdout = TRUE)
}

test_that("the script runs from the configuration's folder and scripts read its .out", {
  skip_on_cran()
  skip_on_os("windows")
  set.seed(31)
  dir <- cli_dir()
  samples <- list(fast1 = cli_runs(35, 10), fast2 = cli_runs(35, 8),
                  name1 = cli_runs(35, 4), name2 = cli_runs(35, 4.2))
  for (nm in names(samples)) writeLines(samples[[nm]], file.path(dir, paste0(nm, ".txt")))
  writeLines(c('"Name","Sample1","Sample2","ConfLevel","Coef"',
               '"fast","fast1.txt","fast2.txt",0.95,',
               '"name","name1.txt","name2.txt",,'), file.path(dir, "config.csv"))
  out <- run_script(c("config.csv", "--weight", "equal"), dir)
  expect_identical(attr(out, "status"), 0L)
  expect_true(any(grepl("^Overall speedup \\(ExecutionTime=median\\) = ", out)))
  expect_true(all(file.exists(file.path(dir, paste0("config.csv", c(".out", ".report",
                                                                      ".warning", ".error"))))))
  expect_false(any(file.exists(file.path(dir, paste0("config", c(".out", ".report"))))))
  # cut -d, -f6: the header cell and the median speedups
  f6 <- run_sh("cut -d, -f6 config.csv.out", dir)
  med <- function(a, b) {
    x <- as.numeric(samples[[a]])
    y <- as.numeric(samples[[b]])
    as.character(round(1000 * stats::median(x) / stats::median(y)) / 1000)
  }
  expect_identical(f6, c('"SpeedupMedian"', med("fast1", "fast2"), med("name1", "name2")))
  # grep 'name"': the benchmark's own line
  g <- run_sh("grep 'name\"' config.csv.out", dir)
  expect_length(g, 1)
  expect_match(g, '^"name",')
  fields <- strsplit(g, ",")[[1]]
  expect_identical(fields[9:11], c("1", "1", "1"))
  expect_identical(readLines(file.path(dir, "config.csv.report"))[1],
                   "Analysis report of config.csv")
  expect_identical(readLines(file.path(dir, "config.csv.error")), character())
})

test_that("relative paths, NA levels and weights, and -o from another folder", {
  skip_on_cran()
  skip_on_os("windows")
  set.seed(32)
  dir <- cli_dir()
  dir.create(file.path(dir, "runs"))
  dir.create(file.path(dir, "results"))
  writeLines(cli_runs(20, 2), file.path(dir, "runs", "1.dat"))
  writeLines(cli_runs(20, 1.5), file.path(dir, "runs", "2.dat"))
  writeLines(cli_runs(20, 3), file.path(dir, "runs", "3.dat"))
  writeLines(c("Name,Sample1,Sample2,ConfLevel,Coef",
               "one,./1.dat,./2.dat,NA,NA",
               "two,./3.dat,./2.dat,NA,NA"), file.path(dir, "runs", "config.cfg"))
  out <- run_script(file.path("runs", "config.cfg"), dir)
  expect_identical(attr(out, "status"), 0L)
  res <- utils::read.csv(file.path(dir, "runs", "config.cfg.out"))
  expect_identical(res$Name, c("one", "two"))
  expect_identical(res$IsMeanSignificant, c(TRUE, TRUE))
  # NA levels: the highest level is searched (0.99 here, on the 0.01 grid)
  expect_equal(res$MeanConfLevel, c(0.99, 0.99))
  expect_equal(res$CoefMean, c(1, 1))
  expect_identical(readLines(file.path(dir, "runs", "config.cfg.report"))[1],
                   "Analysis report of runs/config.cfg")
  # -o PREFIX is still honoured, relative to the working directory
  out <- run_script(c(file.path("runs", "config.cfg"), "-o", file.path("results", "r"),
                      "--conf-level", "0.9", "-q"), dir)
  expect_identical(attr(out, "status"), 0L)
  expect_identical(as.character(out), character())
  expect_true(all(file.exists(file.path(dir, "results", paste0("r", c(".out", ".report",
                                                                    ".warning", ".error"))))))
  rep <- readLines(file.path(dir, "results", "r.report"))
  expect_identical(rep[2], "Default confidence level = 0.9")
  expect_equal(utils::read.csv(file.path(dir, "results", "r.out"))$MeanConfLevel, c(0.9, 0.9))
})

test_that("the script keeps every good benchmark of a broken suite and exits 0", {
  skip_on_cran()
  skip_on_os("windows")
  set.seed(33)
  dir <- cli_dir()
  writeLines(cli_runs(10, 2), file.path(dir, "a.txt"))
  writeLines(cli_runs(10, 1), file.path(dir, "b.txt"))
  writeLines(character(), file.path(dir, "empty.txt"))
  writeLines(c("time", "1.0"), file.path(dir, "text.txt"))
  writeBin(as.raw(c(0, 1, 2, 255, 0)), file.path(dir, "bin.dat"))
  cfg <- c(charToRaw("Name,Sample1,Sample2,ConfLevel,Coef,Machine\n"),
           charToRaw("good1,a.txt,b.txt,,,m1\n"),
           charToRaw("empty,empty.txt,b.txt,,,m1\n"),
           charToRaw("text,text.txt,b.txt,,,m1\n"),
           charToRaw("binary,a.txt,bin.dat,,,m1\n"),
           charToRaw("missing,gone.txt,b.txt,,,m1\n"),
           charToRaw("caf"), as.raw(0xe9), charToRaw(",a.txt,b.txt,,,m1\n"),
           charToRaw("good2,b.txt,a.txt,,,m1\n"))
  writeBin(cfg, file.path(dir, "broken.csv"))
  out <- run_script("broken.csv", dir)
  expect_identical(attr(out, "status"), 0L)
  expect_identical(utils::read.csv(file.path(dir, "broken.csv.out"))$Name, c("good1", "good2"))
  w <- readLines(file.path(dir, "broken.csv.warning"))
  for (nm in c("empty", "text", "binary", "missing", "caf<e9>")) {
    at <- match(paste(nm, ":"), w)
    expect_false(is.na(at))
    expect_match(w[at + 1L], "^\t")
  }
  expect_true(any(grepl("^\tcolumn\\(s\\) \"Machine\" .* ignored", w)))
  expect_match(w[length(w)], "^[0-9]+ warning\\(s\\)\\.$")
  expect_identical(readLines(file.path(dir, "broken.csv.error")), character())
})

test_that("errors go to stderr and .error with a non-zero exit status", {
  skip_on_cran()
  skip_on_os("windows")
  dir <- cli_dir()
  out <- run_script("--bogus", dir)
  expect_identical(attr(out, "status"), 2L)
  expect_true(any(grepl("^speeduptest: unknown option \"--bogus\"", attr(out, "stderr"))))
  writeLines("stale", file.path(dir, "none.csv.out"))
  out <- run_script("none.csv", dir)
  expect_identical(attr(out, "status"), 2L)
  expect_true(any(grepl("cannot read the configuration file 'none.csv'", attr(out, "stderr"))))
  expect_match(readLines(file.path(dir, "none.csv.error")), "does not exist")
  expect_false(file.exists(file.path(dir, "none.csv.out")))
  writeLines("Name,Sample1,Sample2", file.path(dir, "short.csv"))
  out <- run_script("short.csv", dir)
  expect_identical(attr(out, "status"), 2L)
  expect_match(readLines(file.path(dir, "short.csv.error")), "lacks the column\\(s\\) ConfLevel, Coef")
  out <- run_script("--help", dir)
  expect_identical(attr(out, "status"), 0L)
  expect_match(out[1], "^usage: speeduptest")
})

test_that("the command line takes the tool's options", {
  dir <- cli_dir()
  prefix <- file.path(dir, "run")
  expect_silent(st <- speeduptest_cli(c(cli_example_cfg(), "--conf-level", "0.9",
                                        "--weight", "fraction", "--precision",
                                        "0.1", "-o", prefix, "-q")))
  expect_identical(as.vector(st), 0L)
  res <- attr(st, "suite")
  expect_s3_class(res, "speedup_suite")
  expect_true(all(file.exists(paste0(prefix, c(".out", ".report", ".warning", ".error")))))
  expect_equal(res$benchmarks$mean_conf_level, rep(0.9, 6))
  expect_identical(res$weights, "fraction")
  expect_equal(res$proportion$conf_level, c(0.9, 0.9))
  expect_equal(res$proportion$precision, c(0.1, 0.1))
  rep <- readLines(paste0(prefix, ".report"))
  expect_true("(in order to have a precision r=0.1)." %in% rep)
  out <- utils::read.csv(paste0(prefix, ".out"))
  expect_equal(out$CoefMedian, res$benchmarks$median_x)
  # --name=value; NA searches every level
  st <- speeduptest_cli(c(cli_example_cfg(), "--conf-level=NA", "--weight=equal",
                          "-o", prefix, "--quiet"))
  expect_true(all(attr(st, "suite")$benchmarks$searched))
  expect_output(st <- speeduptest_cli("--help"), "usage: speeduptest")
  expect_identical(st, 0L)
  # the default prefix is the configuration's path as given
  cfg <- file.path(dir, "copy.csv")
  file.copy(cli_example_cfg(), cfg)
  file.copy(file.path(dirname(cli_example_cfg()), "example"), dir, recursive = TRUE)
  expect_output(speeduptest_cli(cfg), "Analysis report of")
  expect_true(all(file.exists(paste0(cfg, c(".out", ".report", ".warning", ".error")))))
})

test_that("malformed arguments are classed errors", {
  dir <- cli_dir()
  input <- "speeduptest_error_input"
  expect_error(speeduptest_cli(NA_character_), "missing values", class = input)
  expect_error(speeduptest_cli(c(cli_example_cfg(), NA)), class = input)
  expect_error(speeduptest_cli(1), "character vector", class = input)
  expect_error(speeduptest_cli(NULL), class = input)
  expect_error(speeduptest_cli(list("a")), class = input)
  expect_error(speeduptest_cli(""), "empty", class = input)
  expect_error(speeduptest_cli(character()), "no configuration", class = input)
  expect_error(speeduptest_cli(c("a.csv", "b.csv")), "only one configuration", class = input)
  expect_error(speeduptest_cli(c(cli_example_cfg(), "--weight", "heavy")),
               'one of "custom", "equal", "fraction"', fixed = TRUE, class = input)
  expect_error(speeduptest_cli(c(cli_example_cfg(), "--weight")), "needs a value", class = input)
  expect_error(speeduptest_cli(c(cli_example_cfg(), "--conf-level", "95")), class = input)
  expect_error(speeduptest_cli(c(cli_example_cfg(), "--conf-level", "abc")), class = input)
  expect_error(speeduptest_cli(c(cli_example_cfg(), "--precision", "0")), class = input)
  expect_error(speeduptest_cli(c(cli_example_cfg(), "-o", "")), "non-empty", class = input)
  expect_error(speeduptest_cli(c(cli_example_cfg(), "--bogus")), "unknown option", class = input)
  prefix <- file.path(dir, "p")
  expect_error(speeduptest_cli(c(file.path(dir, "none.csv"), "-o", prefix)),
               class = "speeduptest_error_file")
  expect_match(readLines(paste0(prefix, ".error")), "cannot read the configuration")
})

test_that("compare is dispatched and its exit status returned", {
  got <- NULL
  fake <- function(args) {
    got <<- args
    1L
  }
  expect_identical(speeduptest:::cli_dispatch_compare(c("a.json", "b.json"), fn = fake), 1L)
  expect_identical(got, c("a.json", "b.json"))
  expect_error(speeduptest:::cli_dispatch_compare("x", fn = function(args) "no"),
               class = "speeduptest_error_internal")
  expect_error(speeduptest:::cli_dispatch_compare("x", fn = NULL),
               "compare is not available", class = "speeduptest_error_unavailable")
  if (!exists("cli_compare", envir = asNamespace("speeduptest"), inherits = FALSE)) {
    expect_error(speeduptest_cli(c("compare", "a", "b")), "compare is not available",
                 class = "speeduptest_error_unavailable")
  }
})

test_that("Rscript -e 'speeduptest::speeduptest_cli()' exits with the command line's status", {
  skip_on_cran()
  skip_on_os("windows")
  ex <- system.file("extdata", "timings", package = "speeduptest")
  skip_if(!nzchar(ex), "timing fixtures not installed")
  rscript <- file.path(R.home("bin"), "Rscript")
  env <- paste0("R_LIBS=", paste(.libPaths(), collapse = .Platform$path.sep))
  status_of <- function(args) {
    out <- suppressWarnings(system2(rscript, c("-e", shQuote("speeduptest::speeduptest_cli()"),
                                               shQuote(args)),
                                    stdout = TRUE, stderr = TRUE, env = env))
    st <- attr(out, "status")
    if (is.null(st)) 0L else st
  }
  # a slowdown measured in blocks: inconclusive (3); asked for, a failure
  expect_identical(status_of(c("compare", file.path(ex, "hyperfine-slowdown.json"))), 3L)
  expect_identical(status_of(c("compare", file.path(ex, "hyperfine-slowdown.json"),
                               "--fail-on", "unguaranteed-slowdown")), 1L)
  expect_identical(status_of(c("compare", file.path(ex, "hyperfine-speedup.json"))), 0L)
  expect_identical(status_of(c("compare", file.path(tempdir(), "none.json"))), 2L)
  expect_identical(status_of("--no-such-option"), 2L)
})

test_that("speeduptest --version prints the package's version", {
  for (a in c("--version", "-V")) {
    expect_output(st <- speeduptest_cli(a),
                  paste0("^speeduptest ", gsub(".", "\\.", format(utils::packageVersion("speeduptest")),
                                               fixed = TRUE), "$"))
    expect_identical(st, 0L)
  }
  # the installed script answers it with status 0
  exe <- system.file("bin", "speeduptest", package = "speeduptest")
  skip_if(!nzchar(exe) || !file.exists(exe))
  out <- suppressWarnings(system2(script_cmd(exe), c(script_pre(exe), "--version"), stdout = TRUE,
                                  stderr = TRUE, env = script_env()))
  expect_identical(attr(out, "status") %||% 0L, 0L)
  expect_match(out[1], "^speeduptest [0-9]")
})

test_that("every command gives through the installed script what it gives in R", {
  skip_on_cran()
  skip_on_os("windows")
  ex <- system.file("extdata", "timings", package = "speeduptest")
  skip_if(!nzchar(ex), "timing fixtures not installed")
  dir <- cli_dir()
  # in R, with R's default packages attached (the test session)
  in_r <- function(args) {
    old <- setwd(dir)
    on.exit(setwd(old))
    status <- NULL
    err <- character()
    con <- textConnection("err", "w", local = TRUE)
    sink(con, type = "message")
    out <- tryCatch(utils::capture.output(status <- speeduptest:::cli_exit_status(args)),
                    finally = { sink(type = "message"); close(con) })
    structure(out, status = status, stderr = err)
  }
  same <- function(args, label = paste(args, collapse = " ")) {
    s <- run_script(args, dir)
    r <- in_r(args)
    expect_identical(as.character(s), as.character(r), label = label)
    expect_identical(attr(s, "status"), attr(r, "status"), label = label)
    invisible(s)
  }
  # compare, each output; a path with a space, quotes and a dollar sign
  odd <- file.path(dir, "a b'c\"$HOME.json")
  file.copy(file.path(ex, "gbench-slower.json"), odd)
  for (o in c("text", "markdown", "json")) {
    s <- same(c("compare", file.path(ex, "gbench-base.json"), odd, "--output", o))
    expect_identical(attr(s, "status"), 3L)
  }
  expect_identical(attr(same(c("compare", file.path(ex, "hyperfine-speedup.json"))), "status"), 0L)
  # the report site (plots drawn with no package attached)
  sites <- file.path(dir, c("site script", "site r"))
  base <- c("compare", file.path(ex, "gbench-base.json"), odd, "--html")
  s <- run_script(c(base, sites[1]), dir)
  r <- in_r(c(base, sites[2]))
  expect_identical(attr(s, "status"), attr(r, "status"))
  expect_identical(as.character(s), as.character(r))
  files <- list.files(sites[1], recursive = TRUE)
  expect_true(length(files) >= 5L)
  expect_identical(list.files(sites[2], recursive = TRUE), files)
  for (f in files) {
    expect_identical(readBin(file.path(sites[1], f), "raw", 1e7),
                     readBin(file.path(sites[2], f), "raw", 1e7), label = f)
  }
  s <- same(c("compare", file.path(dir, "none 'x'.json")))
  expect_identical(attr(s, "status"), 2L)
  expect_match(attr(s, "stderr")[1], "none 'x'.json", fixed = TRUE)
  same(c("compare", "--help"))
  same(c("--version"))
  # the classic analysis of a configuration
  file.copy(cli_example_cfg(), file.path(dir, "config.csv"))
  s <- same(c("config.csv", "--weight", "equal", "-q"))
  expect_identical(attr(s, "status"), 0L)
  expect_true(file.exists(file.path(dir, "config.csv.out")))
  # the history: add, changes in every output, then confirm and bisect
  skip_if_no_sqlite()
  t <- history_sim(commits = 40, benchmarks = 2, processes = 5, iterations = 1,
                   step_at = 30, step = 1.08, stepped = 2, seed = 1)
  f <- file.path(dir, "history.csv")
  utils::write.csv(as.data.frame(t)[c("benchmark", "commit", "time", "process")], f,
                   row.names = FALSE)
  st <- file.path(dir, "s 1.sqlite")
  s <- run_script(c("history", "add", st, f, "--machine", "ci"), dir)
  expect_identical(attr(s, "status"), 0L)
  expect_match(s[1], "added commit c001", fixed = TRUE)
  # (changes marks what it reported: each side reads its own copy of the store)
  for (o in c("text", "markdown", "json")) {
    args <- c("history", "changes", "STORE", "--output", o, "--fail-on", "regression")
    st2 <- file.path(dir, paste0(c("script ", "r "), o, ".sqlite"))
    file.copy(st, st2)
    s <- run_script(replace(args, 3L, st2[1]), dir)
    r <- in_r(replace(args, 3L, st2[2]))
    expect_identical(attr(s, "status"), 1L)
    expect_identical(attr(r, "status"), 1L)
    expect_identical(gsub(st2[1], "STORE", as.character(s), fixed = TRUE),
                     gsub(st2[2], "STORE", as.character(r), fixed = TRUE), label = o)
  }
  expect_identical(attr(run_script(c("history", "changes", st), dir), "status"), 0L)
  prog <- file.path(dir, "prog.sh")
  writeLines(c("#!/bin/sh", "n=300; case \"$1\" in c0[3-9]*) n=3000;; esac",
               "i=0; while [ $i -lt $n ]; do i=$((i+1)); done"), prog)
  Sys.chmod(prog, "0755")
  s <- run_script(c("history", "confirm", st, "1", "--run", paste(prog, "{commit}"),
                    "--max-runs", "30", "--output", "json"), dir)
  expect_identical(attr(s, "status"), 0L)
  expect_identical(jsonlite::fromJSON(paste(s, collapse = "\n"))$outcome, "different")
  s <- run_script(c("history", "bisect", st, "1", "--run", paste(prog, "{commit}"),
                    "--max-runs", "30", "--tolerance", "50"), dir)
  expect_identical(attr(s, "status"), 0L)
  expect_true(any(grepl("first bad c030", s, fixed = TRUE)))
  # measure, its CSV read back
  csv <- file.path(dir, "m.csv")
  s <- run_script(c("measure", "-r", "5", "--export", csv, "-q", "-n", "a", "sleep 0.001",
                    "-n", "b", "sleep 0.002"), dir)
  expect_identical(attr(s, "status"), 0L)
  expect_identical(levels(read_timings(csv)$version), c("a", "b"))
})
