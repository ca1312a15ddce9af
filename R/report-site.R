# report_site(): a folder of static HTML pages for a comparison (timings,
# verdicts, the verdicts of `speeduptest compare`) or for a history.
#
# The site is built from one model: a data frame with a row per benchmark
# (or per series of a history) and, per row, what its page shows.  The
# pages are written by report-site-html.R and the pictures by
# report-site-svg.R.  Every page holds its styles and its script inline and
# sets a Content-Security-Policy that forbids any request (no network, no
# server: the folder opens from disk or from any static host).  Files are
# named by position (b/0001.html), never after a benchmark, whose name is
# data.

#' Write a static HTML report site
#'
#' Writes a folder of HTML pages that a person opens in a browser: an index
#' with one row per benchmark (its decision, the speedup with its interval,
#' the old and new times with their units, the caveats, a small history line
#' for a history) with filters (regressions only, a text search) that work
#' from disk; a page per benchmark with the runs in recorded order and the
#' distributions of each version, and the verdict in the words of its
#' `print()`; for a history, the per-commit process values with the stable
#' stretches and every detected change, and a page per change with the
#' values before and after, the ratio and its interval, the commit range,
#' its triage state and the command that re-tests it.  Each page links its
#' data as CSV and JSON.
#'
#' The pages need no server and request nothing from the network: styles,
#' scripts and pictures (SVG) are inside each page, and a
#' Content-Security-Policy forbids any other request.  Benchmark and version
#' names are escaped as text everywhere (`esc_html()`), and files are named
#' by position, never by a name from the data.
#'
#' @param x Timings ([read_timings()], [as_timings()], [measure()]), a
#'   verdict ([median_test()], [mean_test()]), a named list of verdicts, or
#'   a history ([history_open()]).
#' @param dir The folder to write (created; files of an earlier site in it
#'   are replaced).
#' @param test With timings: the protocol of each benchmark's verdict
#'   (`"median"` or `"mean"`).
#' @param alpha,min_speedup With timings: the risk and the tolerance of
#'   each verdict, as in [median_test()].
#' @param title The title of the index page; `NULL` chooses one.
#' @param store With a history: the name of the store shown in the command
#'   that re-tests a change (`NULL`: its path).
#' @param ... Passed to the protocol with timings; unused otherwise.
#' @return The path of the index page, invisibly.
#' @seealso `speeduptest report` and `speeduptest compare --html DIR`
#'   ([speeduptest_cli()]).
#' @examples
#' # O0 against O3 on each benchmark of the bundled runs
#' t <- as_timings(cpu_runs[cpu_runs$version != "O1", ])
#' index <- report_site(t, file.path(tempdir(), "site"))
#' @export
report_site <- function(x, dir, ...) UseMethod("report_site")

#' @rdname report_site
#' @export
report_site.default <- function(x, dir, ...) {
  abort(sprintf("`x` is %s: report_site() takes timings, a verdict, a list of verdicts or a history.",
                class(x)[1L]), class = "argument")
}

#' @rdname report_site
#' @export
report_site.speedup_timings <- function(x, dir, test = "median", alpha = 0.05,
                                        min_speedup = 1, title = NULL, ...) {
  test <- check_choice(test, report_protocols(), "test")
  fun <- get(paste0(test, "_test"), mode = "function")
  attrs <- attributes(x)[c("source", "run_order")]
  cols <- unclass(x)
  attributes(cols) <- list(names = names(x))
  idx <- split(seq_along(cols$benchmark), factor(cols$benchmark, levels = unique(cols$benchmark)))
  # each benchmark's rows as timings (its columns subset by `[`, as a data
  # frame's rows are, at a fraction of `[.data.frame`'s cost)
  # without other arguments, the verdict of each benchmark is the
  # protocol's run on what timings_pair() gives, taken from the columns
  direct <- !...length() && is.null(cols[["warmup"]])
  call <- substitute(f(x = sub, alpha = alpha, min_speedup = min_speedup),
                     list(f = as.name(paste0(test, "_test"))))
  parts <- lapply(names(idx), function(b) if (direct) {
    tryCatch(site_pair(cols, idx[[b]], b, attrs$run_order), error = function(e) NULL)
  })
  # the verdict of benchmark j (or the error that stopped it)
  analyse <- function(j) {
    ix <- idx[[j]]
    tryCatch(if (is.null(parts[[j]])) {
      sub <- structure(lapply(cols, `[`, ix), class = class(x), source = attrs$source,
                       run_order = attrs$run_order, row.names = seq_along(ix))
      fun(sub, alpha = alpha, min_speedup = min_speedup, ...)
    } else {
      run_structured(test, parts[[j]], alpha, TRUE, FALSE, call, "auto", "auto",
                     min_speedup = min_speedup)
    }, error = function(e) e)
  }
  if (!length(idx)) {
    abort("`x`: a list of verdicts must be named after the benchmarks.", class = "argument")
  }
  pages <- site_timings_pages(test, parts, analyse, alpha, min_speedup)
  dir <- report_dir(dir)
  site_write(dir, report_model_pages(pages, names(idx)), title %||% sprintf(
    "%d benchmarks: %s", length(idx), attrs$source %||% "timings"))
}

# What the page of each benchmark of timings prints (as
# site_verdict_parts() gives it): the verdict of each benchmark by
# analyse(j), read as a page.  parts: what site_pair() gives of each
# benchmark (NULL where the verdict is made from the benchmark's rows).
# The verdicts come from the verdict table of the whole comparison
# (R/verdict-table.R), their printed lines from its columns
# (verdict_table_pages_lines(), R/verdict-lines.R).
site_timings_pages <- function(test, parts, analyse, alpha, min_speedup) {
  # the advice of each undecided verdict planned by the normal
  # approximation, not simulated benchmark by benchmark (R/plan-runs.R)
  op <- options(speeduptest.plan_method = "normal")
  on.exit(options(op), add = TRUE)
  tab <- verdict_table(test, parts, alpha, min_speedup, analyse = analyse)
  verdict_table_pages_lines(tab)
}

# What timings_pair(sub, NULL, NULL, NULL, FALSE) gives for the rows `ix`
# of benchmark `b` (`sub`: those rows as timings without marked warm-ups),
# made from the columns `cols` of the timings; NULL when the benchmark has
# not two versions (timings_pair() then says why).
site_pair <- function(cols, ix, b, run_order) {
  ver <- cols$version[ix]
  lev <- if (is.factor(ver)) levels(droplevels(ver)) else unique(as.character(ver))
  if (length(lev) != 2L) return(NULL)
  ver <- as.character(ver)
  keep <- ver %in% lev
  row_id <- which(keep)
  ix <- ix[keep]
  ver <- ver[keep]
  run <- if (is.null(cols$run)) seq_along(ix) else cols$run[ix]
  ts <- cols$timestamp
  if (!is.null(ts)) ts <- ts[ix]
  has_ts <- !is.null(ts) && inherits(ts, "POSIXct") && length(ts) > 0L && !anyNA(ts)
  o <- if (has_ts) order(as.double(ts), run) else order(run)
  ver <- ver[o]
  time <- cols$time[ix][o]
  global <- has_ts || identical(run_order, "global")
  pos <- seq_along(time)
  i1 <- ver == lev[1L]
  i2 <- ver == lev[2L]
  proc <- cols[["process"]]
  if (!is.null(proc)) proc <- proc[ix][o]
  rnd <- cols[["round"]]
  if (!is.null(rnd)) rnd <- rnd[ix][o]
  list(x = time[i1], y = time[i2], labels = lev,
       data_name = sprintf("%s: %s vs %s", b, lev[1L], lev[2L]),
       baseline = sprintf('"%s" (%s)', lev[1L], "first version in the timings"),
       positions = if (global) list(x = pos[i1], y = pos[i2]),
       process = if (!is.null(proc)) list(x = proc[i1], y = proc[i2]),
       round = if (!is.null(rnd)) list(x = rnd[i1], y = rnd[i2]),
       rows = list(x = row_id[o][i1], y = row_id[o][i2]))
}

#' @rdname report_site
#' @export
report_site.speedup_verdict <- function(x, dir, title = NULL, ...) {
  name <- x$data_name %||% "benchmark"
  report_site.list(stats::setNames(list(x), name[1L]), dir, title = title)
}

#' @rdname report_site
#' @export
report_site.list <- function(x, dir, title = NULL, ...) {
  if (!length(x) || is.null(names(x)) || anyNA(names(x))) {
    abort("`x`: a list of verdicts must be named after the benchmarks.", class = "argument")
  }
  ok <- vapply(x, function(v) inherits(v, "speedup_verdict") || inherits(v, "error"), TRUE)
  if (!all(ok)) {
    abort(sprintf("`x`: element %d is neither a verdict nor an error.", which(!ok)[1L]),
          class = "argument")
  }
  dir <- report_dir(dir)
  model <- report_model_verdicts(x)
  site_write(dir, model, title %||% sprintf("%d benchmarks", length(x)))
}

#' @rdname report_site
#' @export
report_site.speedup_history <- function(x, dir, title = NULL, store = NULL, ...) {
  dir <- report_dir(dir)
  model <- report_model_history(x, store %||% x$path %||% "history.sqlite")
  site_write(dir, model, title %||% "History of the benchmarks")
}

# The protocols a site can be made with: those a verdict can be asked of
# by name.
report_protocols <- function() {
  p <- c("median", "mean", "prob")
  p[vapply(paste0(p, "_test"), exists, TRUE, envir = topenv(environment()))]
}

report_dir <- function(dir) {
  dir <- check_string(dir, "dir")
  for (d in file.path(dir, c("", "b", "c"))) {
    if (!dir.exists(d) && !dir.create(d, recursive = TRUE, showWarnings = FALSE)) {
      abort(sprintf("`dir`: cannot create the folder \"%s\".", esc_text(d)), class = "io")
    }
  }
  normalizePath(dir)
}

# Each version's times as the PR comment of `compare` writes them: the
# median and the spread (mad()) with units, "" without a finite time.
# med and spread: the median and mad() of each sample's finite times (NA:
# none, and a spread of one time).
site_time_spread <- function(med, spread) {
  out <- rep("", length(med))
  ok <- !is.na(med)
  out[ok] <- trimws(fmt_time(med[ok]))
  both <- ok & !is.na(spread)
  out[both] <- sprintf("%s %s %s", out[both], compare_pm(), trimws(fmt_time(spread[both])))
  out
}

# The median and mad() of the finite times of each sample of the list
# `s`, for all the samples at once: a matrix of two rows (NA, NA for a
# sample without a finite time; the spread NA for one time).
site_centres <- function(s) {
  v <- unlist(s, use.names = FALSE)
  ok <- is.finite(v)
  len <- tabulate(rep.int(seq_along(s), lengths(s))[ok], length(s))
  v <- v[ok]
  med <- site_medians(v, len)
  mad <- 1.4826 * site_medians(abs(v - rep.int(med, len)), len)
  mad[len < 2L] <- NA_real_
  rbind(med, mad, deparse.level = 0L)
}

# median() of each sample of the list `s` (NA for a sample holding NA).
site_sample_medians <- function(s) {
  v <- unlist(s, use.names = FALSE)
  len <- lengths(s)
  na <- is.na(v)
  if (!any(na)) return(site_medians(v, len))
  g <- rep.int(seq_along(s), len)
  out <- site_medians(v[!na], tabulate(g[!na], length(s)))
  out[unique(g[na])] <- NA_real_
  out
}

# What the page of each verdict prints, for all the verdicts of a site,
# in the shape of verdict_table_pages() (R/verdict-table.R, the verdicts
# of a table): their decisions, directions ("none" without one), whether
# each declares a speedup, speedups (the interval's estimate, else the
# observed ratio) and intervals, caveats and advice (lists of sentences),
# the two samples and their names, the lines of their print (escaped, by
# verdict_lines_of()), and the message of each error (NA for a verdict).
# This is the one place the site reads verdict objects.
site_verdict_parts <- function(verdicts) {
  n <- length(verdicts)
  # the parts of the verdicts the pages read, made for all at once
  verdicts_prime(verdicts)
  out <- list(decision = rep(NA_character_, n), direction = rep(NA_character_, n),
              significant = rep(NA, n), speedup = rep(NA_real_, n),
              conf_low = rep(NA_real_, n), conf_high = rep(NA_real_, n),
              caveats = vector("list", n), advice = vector("list", n),
              x = vector("list", n), y = vector("list", n), labels = vector("list", n),
              lines = vector("list", n), error = rep(NA_character_, n))
  for (i in seq_len(n)) {
    v <- verdicts[[i]]
    if (inherits(v, "error")) {
      out$error[i] <- conditionMessage(v)
      next
    }
    ci <- as.double(v$speedup_ci)
    out$decision[i] <- v$decision
    out$direction[i] <- if (is.na(v$direction)) "none" else v$direction
    out$significant[i] <- v$significant
    out$speedup[i] <- or_na(attr(v$speedup_ci, "estimate"), v$speedup)
    out$conf_low[i] <- ci[1L]
    out$conf_high[i] <- ci[2L]
    out$caveats[i] <- list(v$caveats)
    if (!isTRUE(v$significant)) out$advice[i] <- list(v$advice)
    out$x[[i]] <- as.double(v$x)
    out$y[[i]] <- as.double(v$y)
    out$labels[i] <- list(as.character(v$labels))
  }
  # the lines of every verdict's print (the advice of their plans made
  # for all at once: site_advice()), escaped in one call
  ok <- which(is.na(out$error))
  lines <- verdict_lines_of(verdicts[ok])
  esc <- esc_text(unlist(lines, use.names = FALSE))
  out$lines[ok] <- group_lines(esc, rep.int(seq_along(ok), lengths(lines)), length(ok))
  out
}

# The model of a comparison of verdicts: a row per benchmark, and its page
# (the verdict's lines and the two samples, or the error).
report_model_verdicts <- function(verdicts) {
  # the advice of each undecided verdict planned by the normal
  # approximation, not simulated benchmark by benchmark (R/plan-runs.R)
  op <- options(speeduptest.plan_method = "normal")
  on.exit(options(op), add = TRUE)
  report_model_pages(site_verdict_parts(verdicts), names(verdicts))
}

# The model of a comparison from what its pages print (p: as
# site_verdict_parts() or verdict_table_pages() give it), for all the
# benchmarks at once; `names`: the benchmarks.
report_model_pages <- function(p, names) {
  n <- length(names)
  err <- !is.na(p$error)
  ok <- which(!err)
  decision <- p$decision
  direction <- p$direction
  decision[err] <- "not analysed"
  direction[err] <- "error"
  # the caveats, then the advice of a verdict that declares no speedup
  caveats <- p$error
  sig <- vapply(p$significant, isTRUE, TRUE)
  text <- Map(function(cv, ad, s) c(cv, if (!s) ad), p$caveats[ok], p$advice[ok], sig[ok])
  caveats[ok] <- site_paste_groups(unlist(text, use.names = FALSE), lengths(text), " ")
  cx <- cy <- matrix(NA_real_, 2L, n)
  old_median <- new_median <- rep(NA_real_, n)
  if (length(ok)) {
    cx[, ok] <- site_centres(p$x[ok])
    cy[, ok] <- site_centres(p$y[ok])
    old_median[ok] <- site_sample_medians(p$x[ok])
    new_median[ok] <- site_sample_medians(p$y[ok])
  }
  # the two names of each verdict's samples ("old" and "new" when equal)
  labs <- lapply(p$labels, function(l) if (anyDuplicated(l)) c("old", "new") else l)
  pages <- vector("list", n)
  pages[err] <- lapply(p$error[err], function(m) list(kind = "error", message = m))
  pages[ok] <- lapply(ok, function(i) list(
    kind = "verdict", lines = p$lines[[i]],
    samples = stats::setNames(list(p$x[[i]], p$y[[i]]), labs[[i]])))
  rows <- data.frame(id = seq_len(n), benchmark = names,
                     decision = decision, direction = direction, speedup = p$speedup,
                     conf_low = p$conf_low, conf_high = p$conf_high,
                     old = site_time_spread(cx[1L, ], cx[2L, ]),
                     new = site_time_spread(cy[1L, ], cy[2L, ]),
                     old_median = old_median, new_median = new_median,
                     caveats = caveats, spark = rep("", n), stringsAsFactors = FALSE)
  list(kind = "comparison", rows = rows, pages = pages, changes = NULL)
}

# The model of a history: a row per series (benchmark, machine, branch)
# with its last change, and a page per series and per change.
report_model_history <- function(h, store) {
  ser <- history_query(h, paste(
    "SELECT DISTINCT b.name AS benchmark, m.name AS machine, c.branch AS branch",
    "FROM summaries s JOIN benchmarks b ON b.benchmark_id = s.benchmark_id",
    "JOIN machines m ON m.machine_id = s.machine_id",
    "JOIN commits c ON c.commit_id = s.commit_id",
    "ORDER BY b.name, m.name, c.branch"))
  n <- nrow(ser)
  rows <- data.frame(id = seq_len(n),
                     benchmark = if (n) sprintf("%s [%s, %s]", ser$benchmark, ser$machine, ser$branch) else character(),
                     decision = "", direction = "", speedup = NA_real_,
                     conf_low = NA_real_, conf_high = NA_real_, old = "", new = "",
                     old_median = NA_real_, new_median = NA_real_, caveats = "", spark = "",
                     stringsAsFactors = FALSE)
  pages <- vector("list", n)
  changes <- list()
  for (i in seq_len(n)) {
    s <- history_series(h, ser$benchmark[i], ser$machine[i], ser$branch[i])
    med <- vapply(split(s$values$value, s$values$position), stats::median, 0)
    rows$spark[i] <- svg_sparkline(med)
    ch <- s$changes
    pages[[i]] <- list(kind = "series", series = s, first_change = length(changes) + 1L,
                       data = s$values)
    if (nrow(ch)) {
      last <- ch[nrow(ch), ]
      rows$decision[i] <- sprintf("%s (%s..%s)", last$decision, last$range_from, last$range_to)
      rows$direction[i] <- if (grepl("regression", last$decision)) "slowdown" else
        if (grepl("improvement", last$decision)) "speedup" else "none"
      rows$speedup[i] <- 1 / last$ratio
      rows$conf_low[i] <- 1 / last$conf_high
      rows$conf_high[i] <- 1 / last$conf_low
      rows$caveats[i] <- sprintf("%d change(s); the last is %s", nrow(ch), last$state)
    } else {
      rows$decision[i] <- "no change found"
      rows$direction[i] <- "none"
    }
    st <- s$stretches
    if (nrow(st) >= 2L) {
      rows$old[i] <- fmt_time(st$level[nrow(st) - 1L])
      rows$new[i] <- fmt_time(st$level[nrow(st)])
    } else if (nrow(st)) {
      rows$new[i] <- fmt_time(st$level[1L])
    }
    for (j in seq_len(nrow(ch))) {
      lo <- if (j > 1L) ch$pos_first_bad[j - 1L] else -Inf
      hi <- if (j < nrow(ch)) ch$pos_last_good[j + 1L] else Inf
      v <- s$values
      before <- v$value[v$position > lo & v$position <= ch$pos_last_good[j]]
      after <- v$value[v$position >= ch$pos_first_bad[j] & v$position <= hi]
      changes[[length(changes) + 1L]] <- list(
        series = i, row = ch[j, , drop = FALSE], before = before, after = after,
        command = sprintf("speeduptest history confirm %s %s --run 'YOUR BUILD AND RUN COMMAND {commit}'",
                          shell_quote(store), ch$change_id[j]))
    }
  }
  list(kind = "history", rows = rows, pages = pages, changes = changes)
}

# A word for a shell, in single quotes when it needs them.
shell_quote <- function(x) {
  if (grepl("^[A-Za-z0-9_./:=+-]+$", x)) return(x)
  paste0("'", gsub("'", "'\\\\''", x, fixed = TRUE), "'")
}
