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
    write_speedup_report(v, file.path(dir, "s"), config = "suite.csv")
    files <- lapply(c("out", "report", "warning"), function(e) {
      readLines(file.path(dir, paste0("s.", e)))
    })
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
