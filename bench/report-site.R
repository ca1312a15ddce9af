# The report site (report_site()): the time to build it for a suite of
# benchmarks, and screenshots of its pages in headless Chromium at desktop
# and phone widths.
#
#   R_LIBS=<lib> Rscript bench/report-site.R [benchmarks] [screenshot folder]
#
# Prints the CPU and elapsed time of report_site() on timings of N
# benchmarks (20 runs of each of two versions), repeated 3 times (median and
# range), beside the load average, and the time of speedup_suite() on the
# same timings (the analysis alone) as the ratio; then where the time of
# one site goes (Rprof: the advice's plans, the verdict objects they read,
# the printed lines, the verdict table, the site's own work); then the time of
# report_site() on a history of 200 benchmarks x 300 commits (as the tests
# build it; skipped with a third argument "nohistory"); then writes the
# screenshots index-1280.png, index-390.png, benchmark-1280.png,
# benchmark-390.png, change-1280.png, change-390.png of a comparison and of
# a history (with a regression) into the folder.
suppressPackageStartupMessages(library(speeduptest))
args <- commandArgs(trailingOnly = TRUE)
nb <- if (length(args) >= 1L) as.integer(args[1L]) else 3000L
shots <- if (length(args) >= 2L) args[2L] else file.path(tempdir(), "report-shots")
set.seed(1)
n <- 20L
b <- rep(sprintf("bench_%04d", seq_len(nb)), each = 2L * n)
v <- rep(rep(c("old", "new"), each = n), nb)
eff <- rep(ifelse(seq_len(nb) %% 20L == 0L, 1.05, 1), each = 2L * n)
t <- as_timings(data.frame(benchmark = b, version = v,
                           time = rlnorm(length(b), log(1e-3), 0.02) * ifelse(v == "new", eff, 1)))
load <- function() tryCatch(readLines("/proc/loadavg", n = 1L), error = function(e) "?")
cpu <- function(expr) {
  tm <- system.time(expr)
  c(cpu = tm[["user.self"]] + tm[["sys.self"]], elapsed = tm[["elapsed"]])
}
site <- suite <- NULL
for (r in 1:3) {
  dir <- tempfile("site")
  site <- rbind(site, cpu(report_site(t, dir)))
  suite <- rbind(suite, cpu(speedup_suite(t)))
  unlink(dir, recursive = TRUE)
}
med <- function(m, col) sprintf("%.2f s (%.2f-%.2f)", stats::median(m[, col]),
                                min(m[, col]), max(m[, col]))
cat(sprintf("report_site(), %d benchmarks: CPU %s, elapsed %s; load %s\n", nb,
            med(site, "cpu"), med(site, "elapsed"), load()))
cat(sprintf("speedup_suite() on the same timings: CPU %s; ratio %.1f\n", med(suite, "cpu"),
            stats::median(site[, "cpu"]) / stats::median(suite[, "cpu"])))
# where the time of one site goes (Rprof): the advice's plans (every plan
# of a site goes through site_advice()), the verdict objects the plans
# read, the verdicts' printed lines from the table, the verdict table, and
# the site's own work (pictures, pages, files)
prof <- tempfile("site-prof")
dir <- tempfile("site")
Rprof(prof, interval = 0.01)
report_site(t, dir)
Rprof(NULL)
unlink(dir, recursive = TRUE)
tot <- summaryRprof(prof)$by.total
share <- function(f) if (f %in% rownames(tot)) tot[f, "total.time"] else 0
all_t <- share("report_site")
parts <- c("plans of the advice (site_advice)" = share("site_advice"),
           "verdict objects for the plans (verdict_table_primed)" = share("verdict_table_primed"),
           "printed lines from the table (verdict_table_lines)" = share("verdict_table_lines"),
           "the verdict table (verdict_table)" = share("verdict_table"),
           "the site's own work (site_write)" = share("site_write"))
cat(sprintf("Rprof of one site, %.1f s sampled:\n", all_t))
for (i in seq_along(parts)) {
  cat(sprintf("  %-55s %5.2f s (%2.0f %%)\n", names(parts)[i], parts[[i]],
              100 * parts[[i]] / all_t))
}

if (!identical(args[3L], "nohistory")) {
  # the history of the tests: 200 benchmarks x 300 commits, 3 processes
  # each, one 5 % regression in the first benchmark
  h <- history_open(tempfile(fileext = ".sqlite"))
  hb <- sprintf("bench%d", 1:200)
  built <- cpu(for (i in 1:300) {
    step <- ifelse(seq_along(hb) == 1L & i > 150, 1.05, 1)
    x <- as_timings(data.frame(benchmark = rep(hb, each = 3L), version = "v",
                               process = rep(1:3, length(hb)),
                               time = rlnorm(3L * length(hb), log(rep(step, each = 3L) * 1e-3), 0.005)))
    history_add(h, x, commit = sprintf("c%03d", i), branch = "main", machine = "m1")
  })
  changes <- cpu(invisible(history_changes(h)))
  hist <- NULL
  for (r in 1:3) {
    dir <- tempfile("hsite")
    hist <- rbind(hist, cpu(report_site(h, dir)))
    unlink(dir, recursive = TRUE)
  }
  cat(sprintf("report_site(), history of 200 x 300: CPU %s, elapsed %s (store filled in %.1f s, changes found in %.1f s of CPU); load %s\n",
              med(hist, "cpu"), med(hist, "elapsed"), built[["cpu"]], changes[["cpu"]], load()))
  history_close(h)
}

chromium <- Sys.which("chromium")
if (!nzchar(chromium)) {
  cat("no chromium: no screenshots\n")
  quit(status = 0)
}
dir.create(shots, showWarnings = FALSE, recursive = TRUE)
shot <- function(file, png, width) {
  prof <- tempfile("profile")
  dir.create(prof)
  system2(chromium, shQuote(c("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                              "--no-first-run", "--disable-background-networking",
                              "--disable-component-update", "--disable-sync",
                              "--hide-scrollbars", paste0("--user-data-dir=", prof),
                              sprintf("--window-size=%d,1000", width),
                              paste0("--screenshot=", png),
                              paste0("file://", normalizePath(file)))),
          stdout = FALSE, stderr = FALSE)
  unlink(prof, recursive = TRUE)
}
dir <- tempfile("site")
report_site(t[t$benchmark %in% sprintf("bench_%04d", 1:40), ], dir)
h <- history_open(tempfile(fileext = ".sqlite"))
for (i in 1:60) {
  x <- as_timings(data.frame(benchmark = rep(c("parse", "render", "solve"), each = 3L),
                             version = "v", process = rep(1:3, 3L),
                             time = rlnorm(9L, log(rep(c(1e-3, 2e-3, ifelse(i > 40, 5.25e-3, 5e-3)),
                                                       each = 3L)), 0.005)))
  history_add(h, x, commit = sprintf("%07x", 1e6 + i * 7919), branch = "main", machine = "ci-1")
}
invisible(history_changes(h))
hdir <- tempfile("hsite")
report_site(h, hdir)
for (w in c(1280L, 390L)) {
  shot(file.path(dir, "index.html"), file.path(shots, sprintf("index-%d.png", w)), w)
  shot(file.path(dir, "b", "0020.html"), file.path(shots, sprintf("benchmark-%d.png", w)), w)
  shot(file.path(hdir, "index.html"), file.path(shots, sprintf("history-index-%d.png", w)), w)
  shot(file.path(hdir, "b", "0003.html"), file.path(shots, sprintf("series-%d.png", w)), w)
  shot(file.path(hdir, "c", "0001.html"), file.path(shots, sprintf("change-%d.png", w)), w)
}
cat("screenshots in", shots, ":", paste(list.files(shots), collapse = " "), "\n")
