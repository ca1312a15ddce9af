# The SpeedupTest tool compatibility: reading the configuration and the
# sample files, writing the four files (SPEC section 5). Every file is
# written under tempdir(), never in the package or the working directory.

example_cfg <- function() {
  system.file("extdata", "config.csv", package = "speeduptest", mustWork = TRUE)
}

new_dir <- function() {
  d <- tempfile("suite-io-")
  dir.create(d)
  d
}

# Writes a configuration and its sample files; `samples` is a named list of
# character vectors (file contents) or raw vectors (bytes).
write_config <- function(dir, lines, samples, name = "suite.csv") {
  for (nm in names(samples)) {
    s <- samples[[nm]]
    if (is.raw(s)) writeBin(s, file.path(dir, nm)) else writeLines(s, file.path(dir, nm))
  }
  cfg <- file.path(dir, name)
  if (is.raw(lines)) writeBin(lines, cfg) else writeLines(lines, cfg)
  cfg
}

runs <- function(n, mu, sd = 0.01 * mu) format(round(rnorm(n, mu, sd), 4), nsmall = 4)

collect_warnings <- function(expr) {
  ws <- list()
  val <- withCallingHandlers(expr, warning = function(w) {
    ws[[length(ws) + 1L]] <<- w
    invokeRestart("muffleWarning")
  })
  list(value = val, warnings = ws)
}

# The .warning file as blocks: list(general = <messages>, <name> = <messages>)
warning_blocks <- function(lines) {
  body <- lines[-c(1L, length(lines))]
  out <- list(general = character())
  current <- "general"
  for (l in body) {
    if (startsWith(l, "\t")) {
      out[[current]] <- c(out[[current]], substring(l, 2L))
    } else {
      expect_match(l, " :$")
      current <- sub(" :$", "", l)
      out[[current]] <- character()
    }
  }
  out
}

expected_names <- c("Name", "SpeedupMin", "SpeedupMean", "IsMeanSignificant",
                    "MeanConfLevel", "SpeedupMedian", "IsMedianSignificant",
                    "MedianConfLevel", "CoefMin", "CoefMean", "CoefMedian")

test_that("the shipped example configuration is read", {
  cfg <- read_speedup_config(example_cfg())
  expect_s3_class(cfg, "speedup_config")
  expect_identical(names(cfg), c("bzip2", "gcc", "mcf", "milc", "sjeng", "lbm"))
  expect_equal(nrow(attr(cfg, "problems")), 0)
  expect_equal(vapply(cfg, function(b) length(b$x), 1), rep(31, 6), ignore_attr = TRUE)
  expect_equal(unname(vapply(cfg, `[[`, 1, "conf_level")), c(0.95, 0.95, 0.95, NA, 0.9, NA))
  expect_equal(unname(vapply(cfg, `[[`, 1, "weight")), c(2, 1, 1, 3, 1, 2))
  x <- as.numeric(readLines(system.file("extdata", "example", "gcc-O1.txt",
                                        package = "speeduptest")))
  expect_equal(cfg$gcc$x, x)
  # whole-number weights are honoured (the original fell back to equal)
  res <- speedup_suite(cfg)
  expect_identical(res$weights, "custom")
  expect_equal(res$benchmarks$searched, c(FALSE, FALSE, FALSE, TRUE, FALSE, TRUE))
})

test_that("the .out is what write.csv() writes of the same table", {
  cfg <- read_speedup_config(example_cfg())
  res <- speedup_suite(cfg)
  prefix <- file.path(new_dir(), "ex")
  paths <- write_speedup_report(res, prefix)
  expect_identical(unname(paths), paste0(prefix, c(".out", ".report", ".warning", ".error")))
  expect_true(all(file.exists(paths)))
  # the same table built from the sample files themselves
  bm <- res$benchmarks
  sp <- function(f) vapply(cfg, function(b) round(1000 * f(b$x) / f(b$y)) / 1000, 1)
  table <- data.frame(
    Name = names(cfg), SpeedupMin = sp(min), SpeedupMean = sp(mean),
    IsMeanSignificant = outcome(bm$mean_significant) == "significant",
    MeanConfLevel = bm$mean_conf_level, SpeedupMedian = sp(stats::median),
    IsMedianSignificant = outcome(bm$median_significant) == "significant",
    MedianConfLevel = bm$median_conf_level,
    CoefMin = c(2, 1, 1, 3, 1, 2), CoefMean = c(2, 1, 1, 3, 1, 2),
    CoefMedian = c(2, 1, 1, 3, 1, 2), row.names = NULL)
  ref <- tempfile(fileext = ".csv")
  utils::write.csv(table, ref, row.names = FALSE)
  expect_identical(readBin(paths[["out"]], "raw", 1e5), readBin(ref, "raw", 1e5))
  txt <- readLines(paths[["out"]])
  expect_identical(txt[1], paste0('"', expected_names, '"', collapse = ","))
  expect_identical(txt[3], sprintf('"gcc",%s,%s,TRUE,0.95,%s,TRUE,0.95,1,1,1',
                                   sp(min)[[2]], sp(mean)[[2]], sp(stats::median)[[2]]))
  # searched levels are on the 0.01 grid
  expect_equal(bm$mean_conf_level[bm$searched], round(bm$mean_conf_level[bm$searched], 2))
  expect_identical(readLines(paths[["error"]]), character())
})

test_that("for every weighting mode the Coef columns are the weights used", {
  cfg <- read_speedup_config(example_cfg())
  dir <- new_dir()
  coef <- function(mode, config = cfg) {
    res <- suppressWarnings(speedup_suite(config, weights = mode))
    p <- write_speedup_report(res, file.path(dir, mode))
    out <- utils::read.csv(p[["out"]])
    unname(as.matrix(out[, c("CoefMin", "CoefMean", "CoefMedian")]))
  }
  w <- c(2, 1, 1, 3, 1, 2)
  expect_equal(coef("custom"), cbind(w, w, w), ignore_attr = TRUE)
  expect_equal(coef("equal"), matrix(1, 6, 3))
  own <- cbind(vapply(cfg, function(b) min(b$x), 1),
               vapply(cfg, function(b) mean(b$x), 1),
               vapply(cfg, function(b) stats::median(b$x), 1))
  expect_equal(coef("fraction"), unname(own), tolerance = 1e-14)
  # non-whole custom weights as given; a missing one falls back to 1 for all
  cfg2 <- cfg
  for (i in seq_along(cfg2)) cfg2[[i]]$weight <- i / 4
  expect_equal(coef("custom", cfg2)[, 2], (1:6) / 4)
  cfg2$gcc$weight <- NA
  expect_equal(coef("custom", cfg2), matrix(1, 6, 3))
  # the overall gain uses the same weights: G = sum W (c(x) - c(y)) / sum W c(x)
  res <- speedup_suite(cfg)
  mx <- vapply(cfg, function(b) mean(b$x), 1)
  my <- vapply(cfg, function(b) mean(b$y), 1)
  expect_equal(res$overall$gain[2], sum(w * (mx - my)) / sum(w * mx))
})

test_that("the .report and .warning have the tool's line structure", {
  res <- speedup_suite(read_speedup_config(example_cfg()))
  prefix <- file.path(new_dir(), "ex")
  write_speedup_report(res, prefix, config = "config.csv", conf_level = 0.95)
  rep <- readLines(paste0(prefix, ".report"))
  expect_identical(rep[1:2], c("Analysis report of config.csv",
                               "Default confidence level = 0.95"))
  expect_identical(sub(" = .*", "", rep[3:8]),
                   sprintf("Overall %s (ExecutionTime=%s)", c("gain", "speedup"),
                           rep(c("min", "mean", "median"), each = 2)))
  expect_identical(rep[10], "a/b = 4/6 = 0.667")
  expect_true("Proportion confidence interval (speedup of the median) = [0.365; 0.991]" %in% rep)
  expect_true("(in order to have a precision r=0.05)." %in% rep)
  write_speedup_report(res, prefix, config = "config.csv")
  rep <- readLines(paste0(prefix, ".report"))
  expect_match(rep[2], "^Overall gain \\(ExecutionTime=min\\) = ")
  w <- readLines(paste0(prefix, ".warning"))
  expect_identical(w[1], "Warnings of the analysis of config.csv")
  expect_identical(w[length(w)], "6 warning(s).")
  b <- warning_blocks(w)
  expect_identical(names(b), c("general", "bzip2", "gcc", "mcf", "milc", "sjeng"))
  expect_length(b$mcf, 2)
  expect_match(b$mcf[1], "^speedup of the mean = 0.999: no significant difference")
})

test_that("the report of the shipped example is stable", {
  res <- speedup_suite(read_speedup_config(example_cfg()))
  expect_snapshot(cat(suite_report_file_lines(res, "config.csv"), sep = "\n"))
  expect_snapshot(cat(suite_out_lines(res), sep = "\n"))
  expect_snapshot(cat(suite_warning_file_lines(res, "config.csv"), sep = "\n"))
})

test_that("a broken suite analyses every good benchmark and names every bad one", {
  set.seed(22)
  dir <- new_dir()
  samples <- list(
    "a1.txt" = runs(32, 10), "a2.txt" = runs(32, 8),
    "b1.txt" = runs(32, 5), "b2.txt" = runs(32, 4),
    "c1.txt" = runs(32, 3), "c2.txt" = runs(32, 2.5),
    "empty.txt" = character(),
    "text.txt" = c("1.2", "1.3", "oops", "1.1"),
    "binary.dat" = as.raw(c(0x7f, 0x45, 0x4c, 0x46, 0x02, 0x00, 0x00, 0x01, 0xff)),
    "latin1.txt" = as.raw(c(charToRaw("1.5\n1.6\n"), 0xe9, charToRaw("\n1.7\n"))),
    "two.txt" = c("1.5", "1.6"),
    "neg.txt" = c("1", "-2", "3")
  )
  dir.create(file.path(dir, "folder.txt"))
  lines <- c(
    "Name,Sample1,Sample2,ConfLevel,Coef,Comment",
    "good_a,a1.txt,a2.txt,0.95,1,first",
    "good_b,b1.txt,b2.txt,,2,",
    "missing,nothere.txt,a2.txt,0.95,1,",
    "unreadable,folder.txt,a2.txt,0.95,1,",
    "empty,empty.txt,a2.txt,0.95,1,",
    "text,a1.txt,text.txt,0.95,1,",
    "binary,binary.dat,a2.txt,0.95,1,",
    "badbytes,latin1.txt,a2.txt,0.95,1,",
    "two,two.txt,b2.txt,0.95,1,",
    "latin1 name (replaced below)",
    "badlevel,a1.txt,a2.txt,95,1,",
    "negative,neg.txt,a2.txt,0.95,1,",
    "good_c,c1.txt,c2.txt,0.95,3,last"
  )
  # line 11: the benchmark name "caf\xe9" in Latin-1, not valid UTF-8
  raw_lines <- lapply(paste0(lines, "\n"), charToRaw)
  raw_lines[[11]] <- c(charToRaw("caf"), as.raw(0xe9), charToRaw(",c1.txt,c2.txt,0.95,1,\n"))
  bytes <- unlist(raw_lines)
  cfg <- write_config(dir, bytes, samples)
  expect_false(validUTF8(rawToChar(readBin(cfg, "raw", 1e4))))

  # read: one classed warning per bad line or file; no error
  r <- collect_warnings(read_speedup_config(cfg))
  config <- r$value
  cls <- vapply(r$warnings, function(w) class(w)[1], "")
  expect_true(all(vapply(r$warnings, inherits, NA, "speeduptest_warning")))
  expect_equal(sum(cls == "speeduptest_warning_file"), 7)
  expect_equal(sum(cls == "speeduptest_warning_config"), 3)
  good <- c("good_a", "good_b", "two", "good_c")
  expect_identical(names(config), good)

  s <- collect_warnings(speedup_suite(config))
  res <- s$value
  expect_identical(res$benchmarks$benchmark, good)
  expect_identical(res$weights, "custom")
  expect_identical(outcome(res$benchmarks$mean_significant[c(1, 2, 4)]), rep("significant", 3))
  expect_identical(outcome(res$benchmarks$mean_significant[3]), "insufficient data")

  prefix <- file.path(dir, "suite")
  write_speedup_report(res, prefix, config = "suite.csv")
  out <- utils::read.csv(paste0(prefix, ".out"))
  expect_identical(out$Name, good)
  expect_identical(out$IsMeanSignificant, c(TRUE, TRUE, FALSE, TRUE))
  expect_equal(out$CoefMean, c(1, 2, 1, 3))
  expect_identical(readLines(paste0(prefix, ".error")), character())
  w <- readLines(paste0(prefix, ".warning"))
  expect_true(validUTF8(paste(w, collapse = "\n")))
  b <- warning_blocks(w)
  bad <- c("missing", "unreadable", "empty", "text", "binary", "badbytes",
           "caf<e9>", "badlevel", "negative")
  expect_true(all(bad %in% names(b)))
  expect_false(any(c("good_a", "good_b", "good_c") %in% names(b)))
  expect_match(b$general, "column\\(s\\) \"Comment\" of 'suite.csv' ignored")
  expect_match(b$missing, "Sample1 'nothere.txt' does not exist")
  expect_match(b$unreadable, "Sample1 'folder.txt' is a folder")
  expect_match(b$empty, "Sample1 'empty.txt' holds no run time")
  expect_match(b$text, "Sample2 'text.txt' holds 1 value\\(s\\) that are not numbers \\(e.g. \"oops\"\\)")
  expect_match(b$binary, "Sample1 'binary.dat' is a binary file")
  expect_match(b$badbytes, "Sample1 'latin1.txt' holds bytes that are not valid UTF-8")
  expect_match(b[["caf<e9>"]], "line 11 of 'suite.csv' holds bytes that are not valid UTF-8")
  expect_match(b$badlevel, "ConfLevel of benchmark \"badlevel\"")
  expect_match(b$negative, "Sample1 'neg.txt' holds 1 run time\\(s\\) that are not positive")
  expect_match(b$two, "only 2 run", all = FALSE)
  expect_match(b$two, "speedup of the mean: insufficient data", all = FALSE)
  n <- sum(startsWith(w, "\t"))
  expect_identical(w[length(w)], sprintf("%d warning(s).", n))
  rep <- readLines(paste0(prefix, ".report"))
  expect_true("Benchmarks analysed: 4 (skipped: 9)" %in% rep)
})

test_that("a file that cannot be opened skips its benchmark only", {
  skip_on_os("windows")
  set.seed(25)
  dir <- new_dir()
  cfg <- write_config(dir, c("Name,Sample1,Sample2,ConfLevel,Coef",
                             "locked,locked.txt,a2.txt,,", "ok,a1.txt,a2.txt,,"),
                      list("a1.txt" = runs(8, 2), "a2.txt" = runs(8, 1),
                           "locked.txt" = runs(8, 2)))
  Sys.chmod(file.path(dir, "locked.txt"), "0000")
  on.exit(Sys.chmod(file.path(dir, "locked.txt"), "0644"))
  if (file.access(file.path(dir, "locked.txt"), 4) == 0) {
    skip("the files of this user are always readable (root)")
  }
  config <- suppressWarnings(read_speedup_config(cfg))
  expect_identical(names(config), "ok")
  expect_match(attr(config, "problems")$message, "'locked.txt' cannot be read")
})

test_that("read.csv semantics: quotes, NA, empty fields, short lines, relative paths", {
  set.seed(24)
  dir <- new_dir()
  dir.create(file.path(dir, "data"))
  writeLines(runs(8, 2), file.path(dir, "data", "1.dat"))
  writeLines(c(runs(8, 1), "NA", "", "1.01,extra"), file.path(dir, "data", "2.dat"))
  cfg <- write_config(file.path(dir, "data"), c(
    '"Coef","Name","Sample1","Sample2","ConfLevel"',
    'NA,"a, quoted","./1.dat","./2.dat",NA',
    ',b,2.dat,1.dat,',
    '3,c,1.dat,2.dat'), list(), name = "runs.cfg")
  config <- read_speedup_config(cfg)
  expect_identical(names(config), c("a, quoted", "b", "c"))
  expect_equal(unname(vapply(config, `[[`, 1, "conf_level")), rep(NA_real_, 3))
  expect_equal(unname(vapply(config, `[[`, 1, "weight")), c(NA, NA, 3))
  # missing values and the other columns of the sample file are dropped
  expect_length(config$b$x, 9)
  expect_equal(config$b$x[9], 1.01)
  expect_equal(config[[1]]$x, as.numeric(readLines(file.path(dir, "data", "1.dat"))))
  # a missing Coef among custom weights: equal weights with a note
  r <- collect_warnings(speedup_suite(config))
  expect_identical(r$value$weights, "equal")
  expect_true(all(r$value$benchmarks$searched))
  prefix <- file.path(dir, "q")
  write_speedup_report(r$value, prefix)
  out <- utils::read.csv(paste0(prefix, ".out"))
  expect_identical(out$Name, c("a, quoted", "b", "c"))
  expect_equal(out$CoefMean, c(1, 1, 1))
  expect_match(warning_blocks(readLines(paste0(prefix, ".warning")))$general,
               "illegal custom weight.*equal weights")
  # a byte-order mark and CRLF line ends (a spreadsheet's export)
  bom <- file.path(dir, "data", "bom.csv")
  writeBin(c(as.raw(c(0xef, 0xbb, 0xbf)),
             charToRaw("Name,Sample1,Sample2,ConfLevel,Coef\r\nx,1.dat,2.dat,0.9,2\r\n")), bom)
  config <- read_speedup_config(bom)
  expect_identical(names(config), "x")
  expect_equal(c(config$x$conf_level, config$x$weight), c(0.9, 2))
  # relative paths: the configuration's folder first, then the working directory
  writeLines(runs(8, 3), file.path(dir, "wd.dat"))
  writeLines(c("Name,Sample1,Sample2,ConfLevel,Coef", "w,wd.dat,1.dat,,"),
             file.path(dir, "data", "wd.csv"))
  old <- setwd(dir)
  on.exit(setwd(old))
  config <- read_speedup_config(file.path("data", "wd.csv"))
  expect_identical(names(config), "w")
  expect_equal(config$w$x, as.numeric(readLines(file.path(dir, "wd.dat"))))
})

test_that("an all-zero or negative Coef falls back to equal weights", {
  set.seed(23)
  dir <- new_dir()
  cfg <- write_config(dir, c("Name,Sample1,Sample2,ConfLevel,Coef",
                             "a,a1.txt,a2.txt,,0", "b,a2.txt,a1.txt,,0"),
                      list("a1.txt" = runs(8, 2), "a2.txt" = runs(8, 1)))
  expect_warning(res <- speedup_suite(read_speedup_config(cfg)),
                 "all custom weights are zero", class = "speeduptest_warning_weights")
  expect_identical(res$weights, "equal")
  cfg <- write_config(dir, c("Name,Sample1,Sample2,ConfLevel,Coef",
                             "a,a1.txt,a2.txt,,-1", "b,a2.txt,a1.txt,,2"),
                      list())
  expect_warning(res <- speedup_suite(read_speedup_config(cfg)),
                 "illegal custom weight", class = "speeduptest_warning_weights")
  expect_identical(res$weights, "equal")
})

test_that("a configuration that cannot be used is a classed error", {
  dir <- new_dir()
  expect_error(read_speedup_config(file.path(dir, "none.csv")),
               "does not exist", class = "speeduptest_error_file")
  expect_error(read_speedup_config(dir), "folder", class = "speeduptest_error_file")
  bad <- file.path(dir, "bad.csv")
  writeLines(c("Benchmark,File1,File2", "a,b,c"), bad)
  expect_error(read_speedup_config(bad), "lacks the column\\(s\\) Name, Sample1, Sample2, ConfLevel, Coef",
               class = "speeduptest_error_file")
  writeLines(c("Name,Sample1,Sample2,Coef", "a,b,c,1"), bad)
  expect_error(read_speedup_config(bad), "lacks the column\\(s\\) ConfLevel",
               class = "speeduptest_error_file")
  writeLines(character(), bad)
  expect_error(read_speedup_config(bad), "empty", class = "speeduptest_error_file")
  writeBin(as.raw(c(1, 0, 2, 255)), bad)
  expect_error(read_speedup_config(bad), "binary", class = "speeduptest_error_file")
  writeBin(c(charToRaw("Na"), as.raw(0xef), charToRaw("e,Sample1\n")), bad)
  expect_error(read_speedup_config(bad), "header", class = "speeduptest_error_file")
  expect_error(read_speedup_config(1), class = "speeduptest_error_input")
  expect_error(read_speedup_config(NA_character_), class = "speeduptest_error_input")
  expect_error(read_speedup_config(c("a", "b")), class = "speeduptest_error_input")
  res <- speedup_suite(read_speedup_config(example_cfg()))
  expect_error(write_speedup_report(list(), "x"), class = "speeduptest_error_input")
  expect_error(write_speedup_report(res, NA_character_), class = "speeduptest_error_input")
  expect_error(write_speedup_report(res, "x", config = NA_character_),
               class = "speeduptest_error_input")
  expect_error(write_speedup_report(res, "x", conf_level = 2),
               class = "speeduptest_error_input")
  expect_error(write_speedup_report(res, file.path(dir, "no", "such", "x")),
               class = "speeduptest_error_file")
})

test_that("sample files read together give what each gives read alone", {
  # reference: read_sample_file() of each file by itself; the files mix the
  # usual one number a line with every shape that the one-pass reader hands
  # back to it
  dir <- withr::local_tempdir()
  bytes <- list(
    plain = charToRaw("1.5\n2.5\n3.5\n"),
    no_newline = charToRaw("1.25\n2.75"),
    crlf = charToRaw("1.5\r\n2\r\n"),
    blanks = charToRaw("  1.5 \n\t2.5\n"),
    blank_line = charToRaw("1.5\n\n2.5\n"),
    comment = charToRaw("# runs\n1.5\n2.5\n"),
    csv = charToRaw("1.5,a\n2.5,b\n"),
    quoted = charToRaw("\"1.5\"\n\"2.5\"\n"),
    bom = c(as.raw(c(0xef, 0xbb, 0xbf)), charToRaw("1.5\n2.5\n")),
    utf16 = c(as.raw(c(0xff, 0xfe)), as.raw(rbind(charToRaw("1.5\n2.5\n"), as.raw(0)))),
    nul_late = c(charToRaw("1.5\n2.5\n"), as.raw(0), charToRaw("\n3\n")),
    latin1 = c(charToRaw("1.5\n"), as.raw(0xe9), charToRaw("\n2.5\n")),
    text = charToRaw("1.5\noops\n"),
    zero = charToRaw("1.5\n0\n"),
    negative = charToRaw("1.5\n-2\n"),
    infinite = charToRaw("1.5\nInf\n"),
    empty = raw(0),
    newline_only = charToRaw("\n"),
    hex = charToRaw("0x10\n1e3\n"),
    plain2 = charToRaw("9\n8\n7\n6\n"))
  paths <- file.path(dir, paste0(names(bytes), ".txt"))
  for (i in seq_along(bytes)) writeBin(bytes[[i]], paths[i])
  paths <- c(paths, file.path(dir, "missing.txt"), dir)
  ref <- lapply(paths, speeduptest:::read_sample_file)
  got <- speeduptest:::read_sample_files(paths)
  expect_identical(got, ref)
  # in another order, and each file alone
  o <- rev(seq_along(paths))
  expect_identical(speeduptest:::read_sample_files(paths[o]), ref[o])
  for (i in seq_along(paths)) {
    expect_identical(speeduptest:::read_sample_files(paths[i]), ref[i])
  }
  expect_identical(speeduptest:::read_sample_files(character()), list())
  expect_type(ref[[1]], "double")
  expect_type(ref[[which(names(bytes) == "latin1")]], "character")
})
