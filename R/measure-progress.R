# measure()'s progress line: runs done, time elapsed and left and, in
# sequential mode, the current verdict, within 80 columns.

# The progress line, one line of exactly `width` - 1 columns (80 at most),
# so that it keeps its width from one update to the next:
#   [=========>          ] 40/62 runs | 3s, ETA 2s | look 2 of 6: undecided
# The bar's width depends on the terminal's only; the text after it is
# padded to the rest of the line, the status (sequential mode) cut first.
measure_progress_line <- function(done, total, elapsed, status = "",
                                  width = min(80L, getOption("width", 80L))) {
  width <- max(as.integer(width) - 1L, 20L)
  fmt_dur <- function(s) {
    if (!is.finite(s)) return("?")
    s <- round(s)
    if (s < 60) return(sprintf("%ds", s))
    if (s < 3600) return(sprintf("%dm%02ds", s %/% 60, s %% 60))
    sprintf("%dh%02dm", s %/% 3600, (s %% 3600) %/% 60)
  }
  eta <- if (done > 0) elapsed / done * (total - done) else NA_real_
  text <- sprintf(" %d/%d runs | %s, ETA %s", done, total, fmt_dur(elapsed), fmt_dur(eta))
  if (nzchar(status)) text <- paste0(text, " ", status)
  bar_w <- min(20L, max(width - 60L, 5L))
  room <- width - bar_w - 2L
  if (nchar(text) > room) text <- paste0(substr(text, 1L, room - 2L), "..")
  text <- formatC(text, width = -room)
  fill <- if (total > 0) as.integer(floor(bar_w * min(done, total) / total)) else 0L
  bar <- paste0("[", strrep("=", fill), strrep(" ", bar_w - fill), "]")
  paste0(bar, text)
}

measure_progress <- function(plan) {
  closed <- FALSE
  start <- .Call(ffi_monotonic_now)
  id <- cli::cli_progress_bar(
    total = plan$total, format = "{cli::pb_extra$line}",
    extra = list(line = measure_progress_line(0L, plan$total, 0)),
    clear = TRUE, .auto_close = FALSE)
  list(update = function(done, text) {
    line <- measure_progress_line(done, plan$total, .Call(ffi_monotonic_now) - start,
                                  text)
    cli::cli_progress_update(id = id, set = done, extra = list(line = line))
  }, done = function() {
    if (!closed) cli::cli_progress_done(id = id)
    closed <<- TRUE
  })
}
