# One story everywhere: each decision reads the same in every surface
# (print, summary, format, as.data.frame, tidy/glance, knit_print, plot,
# autoplot, the demo and the command line), in the words of
# R/protocol-words.R.

# Normal quantiles in a fixed shuffled order (sorted runs would show a
# trend over the run order).
norm_s <- function(n, mean, sd) {
  v <- mean + sd * stats::qnorm(stats::ppoints(n))
  v[order((seq_len(n) * 37) %% 101)]
}

# The four decisions the protocols reach, on samples of the same shape.
story_pairs <- function() {
  list(
    faster = list(x = norm_s(40, 10, 0.3), y = norm_s(40, 9, 0.3)),
    slower = list(x = norm_s(40, 9, 0.3), y = norm_s(40, 10, 0.3)),
    same = list(x = norm_s(40, 10, 0.3), y = norm_s(40, 10.02, 0.3)),
    few = list(x = c(10, 10.5), y = norm_s(40, 9, 0.3))
  )
}
story_words <- c(faster = "significant speedup", slower = "significant slowdown",
                 same = "no significant difference", few = "insufficient data")

test_that("the words of every decision come from one table", {
  w <- speeduptest:::decision_words(c("speedup", "slowdown", "none",
                                      "equivalent", NA))
  expect_identical(w, c(unname(story_words[1:3]), "equivalent",
                        "insufficient data"))
  # every direction the verdicts and suites carry has its words, its short
  # words and its mark
  tab <- speeduptest:::decision_table
  expect_false(anyNA(tab$words) || anyNA(tab$short) || anyNA(tab$pch))
  expect_identical(anyDuplicated(tab$words), 0L)
  expect_identical(anyDuplicated(tab$short), 0L)
})

test_that("a verdict's decision reads the same in every surface", {
  skip_if_not_installed("knitr")
  pairs <- story_pairs()
  for (test in c("median", "mean")) {
    fun <- if (test == "median") median_test else mean_test
    for (k in names(pairs)) {
      v <- fun(pairs[[k]]$x, pairs[[k]]$y)
      words <- story_words[[k]]
      info <- paste(test, k)
      expect_identical(v$decision, words, info = info)
      # print / format: the headline
      expect_match(format(v)[1L], paste0(": ", words, " at 95% confidence"),
                   fixed = TRUE, info = info)
      # summary
      out <- capture.output(print(summary(v)))
      expect_match(out[1L], words, fixed = TRUE, info = info)
      # as.data.frame, tidy, glance
      expect_identical(as.data.frame(v)$decision, words, info = info)
      expect_identical(tidy(v)$decision, words, info = info)
      gl <- glance(v)
      expect_identical(gl$decision, words, info = info)
      # the p-value of the decision: the slowdown's for a slowdown
      if (k == "slower") {
        expect_identical(gl$p.value, v$p_value_slowdown, info = info)
        expect_lte(gl$p.value, 0.05)
        expect_identical(tidy(v)$alternative, "less")
      } else {
        expect_identical(gl$p.value, v$p_value, info = info)
      }
      # knit_print
      md <- strsplit(knitr::knit_print(v), "\n")[[1L]]
      expect_true(paste0("| decision | ", words, " |") %in% md, info = info)
      # plot: the title
      expect_match(speeduptest:::verdict_plot_title(v), words, fixed = TRUE,
                   info = info)
      # no surface calls a decision "not significant"
      for (txt in list(format(v), out, md)) {
        expect_false(any(grepl("not significant", txt)), info = info)
      }
    }
  }
})

test_that("autoplot() titles a verdict with its decision", {
  skip_if_not_installed("ggplot2")
  pairs <- story_pairs()
  for (k in names(pairs)) {
    v <- median_test(pairs[[k]]$x, pairs[[k]]$y)
    g <- ggplot2::autoplot(v)
    expect_s3_class(g, "ggplot")
    expect_match(g$labels$title, story_words[[k]], fixed = TRUE)
  }
})

test_that("an equivalent verdict reads \"equivalent\" everywhere", {
  skip_if_not_installed("knitr")
  p <- story_pairs()$same
  v <- median_test(p$x, p$y)
  # built by hand from a verdict: the direction that the tolerance tests
  # give, and the decision in its words
  v$direction <- "equivalent"
  v$decision <- speeduptest:::decision_words("equivalent")
  expect_match(format(v)[1L], ": equivalent at 95% confidence", fixed = TRUE)
  expect_identical(glance(v)$decision, "equivalent")
  expect_identical(as.data.frame(v)$decision, "equivalent")
  md <- strsplit(knitr::knit_print(v), "\n")[[1L]]
  expect_true("| decision | equivalent |" %in% md)
  expect_match(speeduptest:::verdict_plot_title(v), "equivalent", fixed = TRUE)
  expect_identical(speeduptest:::decision_short("equivalent"), "equiv.")
})

story_suite <- function() {
  pairs <- story_pairs()
  speedup_suite(pairs)
}

test_that("a suite's decisions read the same in every surface", {
  skip_if_not_installed("knitr")
  s <- suppressWarnings(story_suite())
  bm <- s$benchmarks
  words <- unname(story_words[bm$benchmark])
  for (p in c("median", "mean")) {
    expect_identical(bm[[paste0(p, "_decision")]], words, info = p)
    expect_identical(as.data.frame(s)[[paste0(p, "_decision")]], words, info = p)
    expect_identical(tidy(s, which = p)$decision, words, info = p)
    # summary(): the short words of the same decisions
    out <- capture.output(print(summary(s)))
    short <- speeduptest:::decision_short(bm[[paste0(p, "_direction")]])
    head <- grep(sprintf("S\\(%s\\) +%s +conf\\.", p, p), out)
    expect_length(head, 1L)
    rows <- out[head + seq_len(nrow(bm))]
    expect_identical(vapply(strsplit(trimws(rows), " +"),
                            function(f) f[length(f) - 1L], ""), short, info = p)
    # the notes name the same decisions
    notes <- s$notes[s$notes$protocol == p, ]
    for (i in seq_len(nrow(notes))) {
      expect_match(notes$message[i], story_words[[notes$benchmark[i]]],
                   fixed = TRUE)
    }
    expect_false(any(grepl("not significant", out)))
  }
  # knit_print: the decision column of each table
  md <- strsplit(knitr::knit_print(s), "\n")[[1L]]
  for (b in bm$benchmark) {
    rows <- grep(paste0("^\\| ", b, " \\|"), md, value = TRUE)
    expect_length(rows, 2L)
    expect_true(all(endsWith(rows, paste0("| ", story_words[[b]], " |"))), info = b)
  }
  expect_false(any(grepl("not significant", md)))
})

test_that("plot() and autoplot() of a suite mark each decision", {
  skip_if_not_installed("ggplot2")
  s <- suppressWarnings(story_suite())
  g <- ggplot2::autoplot(s)
  expect_identical(as.character(g$data$decision),
                   unname(story_words[s$benchmarks$benchmark]))
})

test_that("the suite's p-value columns are those of the adjusted decisions", {
  skip_if_not_installed("knitr")
  set.seed(5)
  suite <- lapply(1:12, function(i) list(x = rlnorm(31, log(10), 0.1),
                                         y = rlnorm(31, log(10 * c(0.93, 1, 1.07)[i %% 3 + 1]), 0.1)))
  names(suite) <- paste0("b", 1:12)
  s <- speedup_suite(suite, p_adjust = "BH")
  bm <- s$benchmarks
  td <- tidy(s)
  slow <- bm$median_direction %in% "slowdown"
  expect_true(any(slow))
  expect_identical(td$p.value[!slow], bm$median_p_adjusted[!slow])
  expect_identical(td$p.value[slow], bm$median_p_adjusted_slowdown[slow])
  # each decision agrees with its adjusted p-value
  dec <- td$p.value <= 0.05
  expect_identical(dec[!is.na(dec)],
                   (bm$median_direction %in% c("speedup", "slowdown"))[!is.na(dec)])
  md <- strsplit(knitr::knit_print(s), "\n")[[1L]]
  expect_true(any(grepl("p-value (BH)", md, fixed = TRUE)))
  row <- grep("^\\| b1 \\|", md, value = TRUE)[1L]
  expect_match(row, speeduptest:::md_pval(td$p.value[1L]), fixed = TRUE)
})

test_that("the command line reads each decision, and its figures, as R does", {
  pairs <- story_pairs()
  rows <- do.call(rbind, lapply(names(pairs), function(b) {
    rbind(data.frame(benchmark = b, version = "old", time = pairs[[b]]$x),
          data.frame(benchmark = b, version = "new", time = pairs[[b]]$y))
  }))
  f <- tempfile(fileext = ".csv")
  utils::write.csv(rows, f, row.names = FALSE)
  out <- utils::capture.output(st <- speeduptest:::cli_compare(c(f, "--fail-on", "never",
                                                                    "--tolerance", "0", "--p-adjust", "none")))
  for (b in names(pairs)) {
    line <- grep(paste0("^", b, " "), out, value = TRUE)
    expect_length(line, 1L)
    v <- median_test(pairs[[b]]$x, pairs[[b]]$y)
    expect_match(line, paste0(story_words[[b]], "( \\(.*\\))?$"), info = b)
    shown <- sub("^  speedup(?: of the median)?: ([^(]*) \\(.*$", "\\1",
                 grep("^  speedup", format(v), value = TRUE)[1L], perl = TRUE)
    expect_match(line, paste0("speedup ", trimws(shown), "  "), fixed = TRUE,
                 info = b)
  }
  expect_match(compare_summary(out),
               "1 significant speedup, 1 significant slowdown, 1 no significant difference, 1 insufficient data",
               fixed = TRUE)
})

test_that("the case-study demo calls each decision by its words", {
  skip_on_cran()
  demo_file <- system.file("demo", "case-study.R", package = "speeduptest")
  skip_if(!nzchar(demo_file), "demo not installed")
  out <- utils::capture.output(source(demo_file, local = new.env()))
  expect_false(any(grepl("not significant", out)))
  # the count of slowdowns of each suite is the number of rows that say so
  slow_lines <- grep("^Significant slowdowns", out, value = TRUE)
  counts <- c(as.integer(sub(".*: ([0-9]+) \\(mean\\), ([0-9]+) \\(median\\)",
                             "\\1", slow_lines)),
              as.integer(sub(".*: ([0-9]+) \\(mean\\), ([0-9]+) \\(median\\)",
                             "\\2", slow_lines)))
  expect_true(any(grepl("significant slowdown", out)))
  # (each pair's line of the mean's and of the median's table)
  total <- sum(grepl("significant slowdown\\s*$", out))
  expect_identical(total, sum(counts))
})
