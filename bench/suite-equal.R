# Equality of whole speedup_suite() results against a reference build (bit
# for bit, identical(), without `call`): a large suite with and without
# adjustment, searched levels, sizes 1 to 600 with ties and constant runs,
# custom and time-proportional weights, chunks, data frames and timings,
# and the printed summary and the four report files.
#
# usage (from the package root):
#   R_LIBS=<old lib> Rscript bench/suite-equal.R record /tmp/old-suites.rds
#   R_LIBS=<new lib> Rscript bench/suite-equal.R check  /tmp/old-suites.rds
args <- commandArgs(trailingOnly = TRUE)
mode <- args[1]
file <- args[2]
suppressPackageStartupMessages(library(speeduptest))
out <- list()
add <- function(name, expr) {
  v <- tryCatch(suppressWarnings(expr), error = function(e) {
    structure(list(class = class(e), message = conditionMessage(e)),
              class = "recorded_error")
  })
  if (inherits(v, "speedup_suite")) {
    v$call <- NULL
    txt <- utils::capture.output(print(v))
    dir <- tempfile()
    dir.create(dir)
    # (a suite without the mean's or the median's protocol has no files:
    # its error is what is compared)
    files <- tryCatch({
      write_speedup_report(v, file.path(dir, "s"), config = "suite.csv")
      lapply(c("out", "report", "warning"), function(e) {
        readLines(file.path(dir, paste0("s.", e)))
      })
    }, error = function(e) conditionMessage(e))
    v <- list(result = v, print = txt, files = files)
  }
  out[[name]] <<- v
}

big <- function(nb, n, seed) {
  set.seed(seed)
  s <- lapply(seq_len(nb), function(j) {
    base <- runif(1, 1, 20)
    f <- sample(c(1, 1.02, 1.1, 1.5), 1)
    list(x = rlnorm(n, log(base), 0.03), y = rlnorm(n, log(base / f), 0.03))
  })
  names(s) <- sprintf("bench%05d", seq_len(nb))
  s
}
mixed <- function(nb, seed) {
  set.seed(seed)
  s <- lapply(seq_len(nb), function(j) {
    n <- sample(c(1:6, 10, 31, 49, 50, 120, 600), 1)
    m <- if (runif(1) < 0.6) n else sample(c(2:6, 12, 31, 50, 300), 1)
    x <- rlnorm(n, log(10), runif(1, 0.01, 0.3))
    y <- rlnorm(m, log(10 / sample(c(1, 1.03, 1.2, 0.9), 1)), runif(1, 0.01, 0.3))
    if (j %% 4 == 0) {
      x <- round(x, 1)
      y <- round(y, 1)
    }
    if (j %% 37 == 0) y <- rep(y[1], m)
    list(x = x, y = y, weight = sample(c(1, 2, 5), 1))
  })
  names(s) <- sprintf("m%04d", seq_len(nb))
  s
}

s1 <- big(10000, 31, 1)
add("big", speedup_suite(s1))
add("big_bh", speedup_suite(s1, p_adjust = "BH"))
add("big_searched", speedup_suite(s1[1:1500], conf_level = NA))
s2 <- mixed(3000, 2)
add("mixed", speedup_suite(s2))
add("mixed_loose", speedup_suite(s2, rigorous = FALSE, weights = "custom"))
add("mixed_bh90", speedup_suite(s2, conf_level = 0.9, p_adjust = "BH"))
add("mixed_holm", speedup_suite(s2, p_adjust = "holm"))
# the protocol sets and the tolerance on list suites (one protocol, the
# three, the tolerance with and without an adjustment)
add("mixed_median", speedup_suite(s2, protocols = "median"))
add("mixed_three", speedup_suite(s2, protocols = c("mean", "median", "prob")))
add("mixed_prob_mean", speedup_suite(s2[1:800], protocols = c("prob", "mean"), p_adjust = "holm"))
add("mixed_tol", speedup_suite(s2, min_speedup = 1.02))
add("mixed_tol_bh", speedup_suite(s2, min_speedup = 1.02, p_adjust = "BH",
                                  protocols = c("mean", "median", "prob")))
add("mixed_tol_searched", speedup_suite(s2[1:400], min_speedup = 1.02, conf_level = NA))
add("mixed_searched", speedup_suite(s2[1:600], conf_level = NA))
old <- options(speeduptest.suite_chunk = 37)
add("mixed_chunks", speedup_suite(s2, weights = "fraction"))
options(old)
s3 <- s2[1:200]
for (j in seq_along(s3)) s3[[j]]$conf_level <- c(0.9, NA, 0.99, 0.95)[j %% 4 + 1]
add("levels", speedup_suite(s3))
add("levels_equal", speedup_suite(s3, weights = "equal", prop_method = "wilson",
                                   precision = 0.1, significant_only = TRUE))
df <- do.call(rbind, lapply(names(s2)[1:150], function(b) {
  data.frame(benchmark = b, version = rep(c("old", "new"),
                                          c(length(s2[[b]]$x), length(s2[[b]]$y))),
             time = c(s2[[b]]$x, s2[[b]]$y), weight = s2[[b]]$weight)
}))
add("frame", speedup_suite(df))
add("frame_initial", speedup_suite(df, initial = "new", weights = "equal"))
df$time[5] <- NA
add("frame_na", speedup_suite(df))
add("frame_na_rm", speedup_suite(df, na_rm = TRUE))
tm <- as_timings(df[!is.na(df$time), c("benchmark", "version", "time")])
add("timings", speedup_suite(tm))
add("empty", speedup_suite(list()))
add("one", speedup_suite(s1[1]))
add("tiny_runs", speedup_suite(lapply(s1[1:50], function(b) list(x = b$x[1:2], y = b$y[1:3]))))
add("config", speedup_suite(read_speedup_config(
  system.file("extdata", "config.csv", package = "speeduptest"))))


# Suites on timings with the structure columns (the path of real files):
# one process per version (Google Benchmark), a process per run
# (hyperfine), several processes per version (pyperf), a process shared by
# the versions, unknown processes, complete, incomplete and too few
# rounds, processes within rounds, labels as numbers and as text, a third
# version and a lone version; every unit of replication and design, the
# adjustments, searched levels and the tolerance.
structured <- function(nb, seed, types = 1:9, labels = "number") {
  set.seed(seed)
  do.call(rbind, lapply(seq_len(nb), function(j) {
    type <- types[(j - 1L) %% length(types) + 1L]
    f <- sample(c(1, 1.01, 1.05, 0.97), 1)
    base <- runif(1, 1, 20)
    k <- sample(c(3, 5, 8, 12), 1)
    r <- sample(c(1, 2, 4), 1)
    n <- k * r
    ver <- rep(c("old", "new"), each = n)
    pe <- rep(rnorm(2 * k, 0, 0.01), each = r)
    time <- base * exp(pe + rnorm(2 * n, 0, 0.004) - (ver == "new") * log(f))
    proc <- switch(type,
      seq_len(2 * n),                                   # 1 one per run
      rep(1:2, each = n),                               # 2 one per version
      rep(seq_len(2 * k), each = r),                    # 3 processes
      rep(seq_len(k), each = r, times = 2),             # 4 shared
      rep(NA, 2 * n),                                   # 5 unknown
      seq_len(2 * n),                                   # 6 rounds, one per run
      rep(seq_len(2 * k), each = r),                    # 7 processes in rounds
      rep(1:2, each = n),                               # 8 incomplete rounds
      seq_len(2 * n))                                   # 9 too few rounds
    rnd <- switch(type, rep(NA, 2 * n), rep(NA, 2 * n), rep(NA, 2 * n),
                  rep(NA, 2 * n), rep(NA, 2 * n),
                  rep(seq_len(n), 2),
                  rep(rep(seq_len(k), each = r), 2),
                  { q <- rep(seq_len(n), 2); q[sample(2 * n, 2)] <- NA; q[1] <- n + 1L; q },
                  rep(c(1:3, rep(NA, n))[seq_len(n)], 2))
    if (labels == "text") proc <- ifelse(is.na(proc), NA, sprintf("p%03d", proc))
    d <- data.frame(benchmark = sprintf("s%04d", j), version = ver, time = time,
                    process = proc, round = rnd)
    if (j %% 50 == 0) d <- d[d$version == "old", ]
    if (j %% 71 == 0) d$version[1] <- "third"
    d
  }))
}
st1 <- as_timings(structured(450, 3))
st2 <- as_timings(structured(300, 4, labels = "text"))
gb <- as_timings(structured(400, 5, types = 2))
pr <- as_timings(structured(150, 6, types = 3))
ro <- as_timings(structured(150, 7, types = c(6, 7)))
add("st_auto", speedup_suite(st1))
add("st_text", speedup_suite(st2))
add("st_run", speedup_suite(st1, replication = "run"))
add("st_process", speedup_suite(st1, replication = "process"))
add("st_unpaired", speedup_suite(st1, design = "unpaired"))
add("st_paired", speedup_suite(st1, design = "paired"))
add("st_bh", speedup_suite(st1, p_adjust = "BH"))
add("st_holm90", speedup_suite(st2, p_adjust = "holm", conf_level = 0.9))
add("st_searched", speedup_suite(as_timings(structured(90, 8)), conf_level = NA))
add("st_tolerance", speedup_suite(st1, min_speedup = 1.01))
add("st_initial", speedup_suite(st2, initial = "new", weights = "equal"))
add("gb_auto", speedup_suite(gb))
add("gb_run", speedup_suite(gb, replication = "run"))
add("pr_process", speedup_suite(pr, replication = "process", p_adjust = "BH"))
add("ro_paired", speedup_suite(ro, design = "paired"))
add("ro_auto_fraction", speedup_suite(ro, weights = "fraction"))
ts <- structured(120, 9)
ts$timestamp <- as.POSIXct("2026-11-01", tz = "UTC") + sample(nrow(ts))
ts$timestamp[ts$benchmark == "s0007"][2] <- NA
add("st_timestamp", speedup_suite(as_timings(ts)))

# `speeduptest compare` on the structured timings (three versions) and on
# Google Benchmark files: the rows, the verdicts behind them (with every
# part made, the call included) and the three outputs.
complete <- get0("complete_verdict", envir = asNamespace("speeduptest"),
                 ifnotfound = identity)
cmp_run <- function(t, ...) {
  opts <- list(test = "median", alpha = 0.05, s0 = 1, p_adjust = "holm",
               baseline = NULL, replication = NULL, design = NULL)
  o <- list(...)
  opts[names(o)] <- o
  r <- speeduptest:::compare_run(t, opts)
  # the verdict objects of every row (made now where a verdict table made
  # the row at once), without the table itself
  made <- get0("compare_verdicts", envir = asNamespace("speeduptest"),
               ifnotfound = function(rows) attr(rows, "verdicts"))
  vs <- made(r$rows)
  attr(r$rows, "verdicts") <- lapply(vs, function(v) if (!is.null(v)) complete(v))
  for (a in c("story", "tables", "index")) attr(r$rows, a) <- NULL
  r
}
st3 <- structured(300, 10)
st3$version[st3$version == "new" & st3$benchmark > "s0150"] <- "newer"
st3 <- as_timings(st3)
add("cmp_median", cmp_run(st3))
add("cmp_mean_tol", cmp_run(st3, test = "mean", s0 = 1.01, p_adjust = "BH"))
add("cmp_run_unpaired", cmp_run(st3, replication = "run", design = "unpaired",
                                baseline = "new"))
source(file.path("bench", "gbench-file.R"))
gdir <- tempfile()
dir.create(gdir)
gbench_file(file.path(gdir, "base.json"), 300, 12, 1, 1)
gbench_file(file.path(gdir, "new.json"), 300, 12, 1.05, 2)
cli <- function(...) {
  status <- NULL
  out <- utils::capture.output(status <- speeduptest:::cli_compare(c(...)),
                               type = "output")
  list(status = status, out = gsub(gdir, "<dir>", out, fixed = TRUE))
}
g2 <- file.path(gdir, c("base.json", "new.json"))
add("cli_text", cli(g2))
add("cli_json", cli(g2, "--output", "json", "--test", "mean"))
add("cli_md", cli(g2, "--output", "markdown", "--tolerance", "0.02"))
fx <- system.file("extdata", "timings", package = "speeduptest")
add("cli_fixtures", lapply(list(
  "hyperfine-slowdown.json", c("hyperfine-main.json", "hyperfine-branch.json"),
  "hyperfine-three.json", c("gbench-base.json", "gbench-slower.json"),
  c("pyperf-base.json", "pyperf-new.json"), "criterion"),
  function(f) cli(file.path(fx, f))))

if (mode == "record") {
  saveRDS(out, file)
  cat(length(out), "suites recorded\n")
} else {
  ref <- readRDS(file)
  stopifnot(identical(names(ref), names(out)))
  # a build that adds fields to a suite (the long benchmark x protocol
  # table `results` and `protocols`) is compared on the reference's fields
  # (every field the reference has must be identical); the added ones are
  # named
  added <- character()
  for (k in names(out)) {
    a <- ref[[k]]
    b <- out[[k]]
    if (is.list(a) && !is.null(a$result) && is.list(b) && !is.null(b$result)) {
      extra <- setdiff(names(b$result), names(a$result))
      added <- union(added, extra)
      if (length(extra)) out[[k]]$result[extra] <- NULL
    }
  }
  if (length(added)) cat("fields added by this build (not compared):",
                         paste(added, collapse = ", "), "\n")
  diff <- names(out)[!vapply(names(out), function(k) identical(ref[[k]], out[[k]]), NA)]
  cat(length(out), "suites,", length(diff), "differing\n")
  for (k in diff) {
    a <- ref[[k]]
    b <- out[[k]]
    if (!is.list(a) || is.null(a$result) || is.null(b$result)) {
      cat(k, ": the result itself (an error in one build)\n")
      next
    }
    parts <- c(names(a$result)[!vapply(names(a$result), function(f) {
      identical(a$result[[f]], b$result[[f]])
    }, NA)], if (!identical(a$print, b$print)) "print",
    if (!identical(a$files, b$files)) "files")
    cols <- if (!identical(a$result$benchmarks, b$result$benchmarks)) {
      bm <- names(a$result$benchmarks)
      bm[!vapply(bm, function(cc) identical(a$result$benchmarks[[cc]],
                                            b$result$benchmarks[[cc]]), NA)]
    }
    cat(k, ": ", paste(parts, collapse = ", "),
        if (length(cols)) paste0(" (columns ", paste(cols, collapse = ", "), ")"),
        "\n", sep = "")
  }
}
