hostile <- c("<script>alert(1)</script>", "[x](javascript:alert(1))",
             "a\"onmouseover=\"alert(1)", "b&amp;c", "line\nFAIL", "\033[2Jclear",
             "rtl\u202etxt.exe")

site_timings <- function(names = c("alpha", "beta", "gamma"), slower = 2L, n = 20L) {
  set.seed(11)
  k <- length(names)
  eff <- rep(1, k)
  eff[slower] <- 1.08
  as_timings(data.frame(
    benchmark = rep(names, each = 2L * n),
    version = rep(rep(c("old", "new"), each = n), k),
    time = rlnorm(2L * n * k, log(2e-3), 0.01) * rep(rep(c(1, 1), each = n), k) *
      rep(eff, each = 2L * n)^rep(rep(c(0, 1), each = n), k)))
}

read_site <- function(dir) {
  files <- list.files(dir, recursive = TRUE, full.names = TRUE)
  stats::setNames(lapply(files, function(f) readChar(f, file.size(f), useBytes = TRUE)),
                  sub(paste0("^", dir, "/"), "", files))
}

test_that("a comparison site has an index, a page per benchmark and their data", {
  dir <- tempfile("site")
  idx <- report_site(site_timings(), dir)
  expect_true(file.exists(idx))
  files <- list.files(dir, recursive = TRUE)
  expect_setequal(files, c("index.html", "index.csv", "index.json",
                           sprintf("b/%04d.%s", rep(1:3, each = 3), c("html", "csv", "json"))))
  index <- read.csv(file.path(dir, "index.csv"), stringsAsFactors = FALSE)
  expect_equal(index$benchmark, c("alpha", "beta", "gamma"))
  # the same verdict as median_test() on the benchmark's runs
  t <- site_timings()
  v <- median_test(t, benchmark = "beta")
  expect_equal(index$decision[2], v$decision)
  expect_equal(index$direction[2], "slowdown")
  expect_equal(index$conf_low[2], as.double(v$speedup_ci)[1], tolerance = 1e-12)
  page <- paste(readLines(file.path(dir, "b/0002.html"), encoding = "UTF-8"), collapse = "\n")
  # the page says the verdict in the words of its print()
  for (line in format(v)) expect_true(grepl(esc_html(line), page, fixed = TRUE), info = line)
  expect_match(page, "<svg", fixed = TRUE)
  expect_match(page, 'aria-label="Run times of beta', fixed = TRUE)
  expect_match(page, "time (ms)", fixed = TRUE)
  runs <- read.csv(file.path(dir, "b/0002.csv"), stringsAsFactors = FALSE)
  expect_equal(runs$time[runs$version == "old"], as.double(v$x))
  js <- jsonlite::fromJSON(file.path(dir, "b/0002.json"))
  expect_equal(js$verdict, format(v))
  expect_equal(js$runs$time, c(as.double(v$x), as.double(v$y)))
  idx_json <- jsonlite::fromJSON(file.path(dir, "index.json"))
  expect_equal(idx_json$benchmark, index$benchmark)
})

test_that("the index says old and new times with units and the speedup in words", {
  dir <- tempfile("site")
  report_site(site_timings(), dir)
  index <- paste(readLines(file.path(dir, "index.html"), encoding = "UTF-8"), collapse = "\n")
  expect_match(index, "x slower", fixed = TRUE)
  expect_match(index, "2.16 ms \u00b1 ", fixed = TRUE)
  expect_match(index, 'data-reg="1" data-name="beta"', fixed = TRUE)
})

test_that("names from the data never become markup, links or control characters", {
  dir <- tempfile("site")
  report_site(site_timings(hostile, slower = 1L, n = 8L), dir)
  site <- read_site(dir)
  html <- site[grepl("\\.html$", names(site))]
  for (f in names(html)) {
    page <- html[[f]]
    # one script, the site's own (the index), none on the other pages
    expect_equal(lengths(regmatches(page, gregexpr("<script", page, fixed = TRUE))),
                 if (f == "index.html") 1L else 0L, info = f)
    expect_false(grepl("javascript:", gsub("\\(javascript:", "", page), fixed = TRUE), info = f)
    expect_false(grepl("href=\"javascript", page, fixed = TRUE), info = f)
    expect_false(grepl("onmouseover=\"", page, fixed = TRUE), info = f)
    expect_false(grepl("\033", page, fixed = TRUE), info = f)
    expect_false(grepl("\u202e", page, fixed = TRUE, useBytes = TRUE), info = f)
    expect_false(grepl("<a href=\"[^.\"][^\"]*://", page), info = f)
  }
  expect_match(html[["index.html"]], "&lt;script&gt;alert(1)&lt;/script&gt;", fixed = TRUE)
  expect_match(html[["index.html"]], "\\u202e", fixed = TRUE)
  js <- site[["index.json"]]
  expect_false(grepl("\u202e", js, fixed = TRUE, useBytes = TRUE))
  expect_equal(jsonlite::fromJSON(file.path(dir, "index.json"))$benchmark, hostile)
  expect_equal(read.csv(file.path(dir, "index.csv"), stringsAsFactors = FALSE)$benchmark,
               hostile)
})

test_that("every page forbids requests and names nothing on the network", {
  dir <- tempfile("site")
  report_site(site_timings(), dir)
  for (f in list.files(dir, pattern = "\\.html$", recursive = TRUE, full.names = TRUE)) {
    page <- paste(readLines(f, encoding = "UTF-8"), collapse = "\n")
    expect_match(page, "Content-Security-Policy\" content=\"default-src 'none'", fixed = TRUE)
    expect_false(grepl("(src|href)=\"(https?:)?//", page), info = f)
    expect_false(grepl("@import|url\\(", page), info = f)
  }
})

test_that("a benchmark that cannot be analysed keeps its row and costs no other", {
  t <- site_timings()
  t$time[t$benchmark == "gamma"] <- -1
  t <- suppressWarnings(as_timings(as.data.frame(unclass(t))))
  dir <- tempfile("site")
  report_site(t, dir)
  index <- read.csv(file.path(dir, "index.csv"), stringsAsFactors = FALSE)
  good <- read.csv({d <- tempfile("site"); report_site(site_timings(), d); file.path(d, "index.csv")},
                   stringsAsFactors = FALSE)
  expect_equal(index[index$benchmark != "gamma", "decision"],
               good[good$benchmark != "gamma", "decision"])
})

test_that("report_site() refuses what it cannot show", {
  expect_error(report_site(1:3, tempfile()), class = "speeduptest_error_argument")
  expect_error(report_site(list(1), tempfile()), class = "speeduptest_error_argument")
  expect_error(report_site(site_timings(), tempfile(), test = "nope"),
               class = "speeduptest_error")
})

history_for_site <- function(nb = 3L, nc = 30L, path = tempfile(fileext = ".sqlite"),
                             names = sprintf("bench%d", seq_len(nb))) {
  h <- history_open(path)
  set.seed(5)
  for (i in seq_len(nc)) {
    step <- ifelse(seq_len(nb) == 1L & i > nc / 2, 1.05, 1)
    t <- as_timings(data.frame(benchmark = rep(names, each = 3L), version = "v",
                               process = rep(1:3, nb),
                               time = rlnorm(3L * nb, log(rep(step, each = 3L) * 1e-3), 0.005)))
    history_add(h, t, commit = sprintf("c%03d", i), branch = "main", machine = "m1")
  }
  history_changes(h)
  h
}

test_that("a history site draws each series, its changes and a page per change", {
  h <- history_for_site(names = c("<b>bold</b>", "plain", "x\u202ey"))
  on.exit(history_close(h))
  dir <- tempfile("hsite")
  report_site(h, dir, store = "perf history.sqlite")
  ch <- history_changes(h)
  expect_true(nrow(ch) >= 1L)
  expect_true(file.exists(file.path(dir, "c/0001.html")))
  page <- paste(readLines(file.path(dir, "c/0001.html"), encoding = "UTF-8"), collapse = "\n")
  expect_match(page, ch$decision[1], fixed = TRUE)
  expect_match(page, "speeduptest history confirm &#39;perf history.sqlite&#39; 1", fixed = TRUE)
  expect_match(page, ch$range_from[1], fixed = TRUE)
  index <- paste(readLines(file.path(dir, "index.html"), encoding = "UTF-8"), collapse = "\n")
  expect_match(index, "&lt;b&gt;bold&lt;/b&gt;", fixed = TRUE)
  expect_match(index, 'class="spark"', fixed = TRUE)
  series <- paste(readLines(file.path(dir, "b/0001.html"), encoding = "UTF-8"), collapse = "\n")
  expect_match(series, "commit (position in first-parent order)", fixed = TRUE)
  data <- read.csv(file.path(dir, "c/0001.csv"), stringsAsFactors = FALSE)
  expect_true(all(c("before", "after") %in% data$side))
})

test_that("the pages are valid HTML (tidy)", {
  tidy <- Sys.which("tidy")
  if (!nzchar(tidy)) skip("HTML Tidy is not installed (Debian: apt-get install tidy)")
  dir <- tempfile("site")
  report_site(site_timings(hostile, n = 8L), dir)
  h <- history_for_site()
  on.exit(history_close(h))
  report_site(h, dir2 <- tempfile("hsite"))
  pages <- c(list.files(dir, pattern = "html$", recursive = TRUE, full.names = TRUE),
             list.files(dir2, pattern = "html$", recursive = TRUE, full.names = TRUE))
  for (p in pages) {
    out <- suppressWarnings(system2(tidy, c("-q", "-e", "-utf8", shQuote(p)),
                                    stdout = TRUE, stderr = TRUE))
    status <- attr(out, "status") %||% 0L
    expect_true(status < 2L, info = paste(p, paste(out, collapse = "\n")))
    expect_false(any(grepl("Error:", out)), info = paste(out, collapse = "\n"))
  }
})

test_that("in headless Chromium: 3,000 benchmarks, filters, no request, screenshots", {
  skip_on_cran()
  skip_if_no_chromium()
  set.seed(3)
  nb <- 3000L
  n <- 10L
  names <- sprintf("bench_%04d", seq_len(nb))
  slow <- seq_len(nb) %% 50L == 0L
  t <- as_timings(data.frame(
    benchmark = rep(names, each = 2L * n),
    version = rep(rep(c("old", "new"), each = n), nb),
    time = rlnorm(2L * n * nb, log(1e-3), 0.005) *
      rep(ifelse(slow, 1.1, 1), each = 2L * n)^rep(rep(0:1, each = n), nb)))
  dir <- tempfile("site3k")
  report_site(t, dir)
  expect_equal(length(list.files(file.path(dir, "b"), pattern = "html$")), nb)
  url <- paste0("file://", normalizePath(file.path(dir, "index.html")))
  dom <- chromium_dom(url)
  expect_match(dom, sprintf('data-shown="%d"', nb), fixed = TRUE)
  index <- read.csv(file.path(dir, "index.csv"), stringsAsFactors = FALSE)
  slower <- sum(index$direction == "slowdown")
  expect_true(slower >= sum(slow))
  dom <- chromium_dom(paste0(url, "#reg=1"))
  shown <- as.integer(sub('.*data-shown="([0-9]+)".*', "\\1", dom))
  expect_equal(shown, slower)
  expect_equal(lengths(regmatches(dom, gregexpr("<tr data-reg=\"0\"[^>]*hidden", dom))), nb - slower)
  dom <- chromium_dom(paste0(url, "#q=bench_012"))
  expect_match(dom, 'data-shown="10"', fixed = TRUE)
  # no request leaves the folder: the network log holds file: addresses only
  log <- tempfile(fileext = ".json")
  chromium_run(paste0("file://", normalizePath(file.path(dir, "b/0050.html"))),
               c(paste0("--log-net-log=", log), "--virtual-time-budget=2000"))
  if (file.exists(log)) {
    net <- paste(readLines(log, warn = FALSE), collapse = "\n")
    urls <- unique(regmatches(net, gregexpr('"url":"[^"]*"', net))[[1]])
    # Chromium's own services (time, updates, accounts) are the browser's,
    # not the page's: the page's requests are file: (and nothing else)
    own <- grepl('"url":"https?://[^/"]*(google\\.com|googleapis\\.com|gvt1\\.com|gstatic\\.com)[/:"]', urls)
    page <- urls[!own]
    expect_true(all(grepl('"url":"(file:|data:|chrome|about:)', page)),
                info = paste(page, collapse = " "))
  }
  shots <- tempfile("shots")
  dir.create(shots)
  for (w in c(1280L, 390L)) {
    expect_true(chromium_screenshot(file.path(dir, "index.html"),
                                    file.path(shots, sprintf("index-%d.png", w)), w))
    expect_true(chromium_screenshot(file.path(dir, "b/0050.html"),
                                    file.path(shots, sprintf("benchmark-%d.png", w)), w))
  }
  expect_true(all(file.size(list.files(shots, full.names = TRUE)) > 5000))
})

test_that("in headless Chromium: a history of 200 benchmarks x 300 commits", {
  skip_on_cran()
  skip_if_no_chromium()
  h <- history_for_site(nb = 200L, nc = 300L)
  on.exit(history_close(h))
  dir <- tempfile("hsite")
  report_site(h, dir)
  expect_equal(length(list.files(file.path(dir, "b"), pattern = "html$")), 200L)
  url <- paste0("file://", normalizePath(file.path(dir, "index.html")))
  dom <- chromium_dom(paste0(url, "#reg=1"))
  shown <- as.integer(sub('.*data-shown="([0-9]+)".*', "\\1", dom))
  expect_equal(shown, 1L)
  shots <- tempfile("shots")
  dir.create(shots)
  for (w in c(1280L, 390L)) {
    expect_true(chromium_screenshot(file.path(dir, "c/0001.html"),
                                    file.path(shots, sprintf("change-%d.png", w)), w))
    expect_true(chromium_screenshot(file.path(dir, "b/0001.html"),
                                    file.path(shots, sprintf("series-%d.png", w)), w))
  }
})

test_that("speeduptest report and compare --html write the site", {
  t <- site_timings()
  csv <- tempfile(fileext = ".csv")
  write.csv(as.data.frame(unclass(t))[c("benchmark", "version", "time")], csv,
            row.names = FALSE)
  dir <- tempfile("cli-site")
  out <- capture.output(status <- speeduptest_cli(c("report", csv, "--out", dir)))
  expect_identical(as.integer(status), 0L)
  expect_true(file.exists(file.path(dir, "index.html")))
  expect_equal(read.csv(file.path(dir, "index.csv"))$benchmark, c("alpha", "beta", "gamma"))
  dir2 <- tempfile("compare-site")
  out <- capture.output(status <- speeduptest_cli(c("compare", csv, "--html", dir2)))
  expect_identical(as.integer(status), 1L)
  idx <- read.csv(file.path(dir2, "index.csv"), stringsAsFactors = FALSE)
  expect_equal(idx$direction, c("equivalent", "slowdown", "equivalent"))
  # bad input: exit 2 with a message
  err <- capture.output(status <- speeduptest_cli(c("report", csv)), type = "message")
  expect_identical(as.integer(status), 2L)
  h <- history_for_site()
  path <- h$path
  history_close(h)
  dir3 <- tempfile("hist-site")
  out <- capture.output(status <- speeduptest_cli(c("report", "--history", path, "--out", dir3)))
  expect_identical(as.integer(status), 0L)
  expect_true(file.exists(file.path(dir3, "c", "0001.html")))
})

test_that("a site where no benchmark could be analysed still has a page for each", {
  # three versions and no choice: every benchmark is refused, each with
  # its reason on its own page
  dir <- withr::local_tempdir()
  t <- as_timings(cpu_runs)
  index <- report_site(t, dir)
  expect_true(file.exists(index))
  n <- length(unique(cpu_runs$benchmark))
  pages <- list.files(file.path(dir, "b"), pattern = "[.]html$")
  expect_length(pages, n)
  one <- paste(readLines(file.path(dir, "b", pages[1L]), encoding = "UTF-8"), collapse = "\n")
  expect_match(one, "could not be analysed", fixed = TRUE)
  js <- jsonlite::fromJSON(file.path(dir, "b", sub("html$", "json", pages[1L])))
  expect_match(js$error, "3 version", fixed = TRUE)
})
