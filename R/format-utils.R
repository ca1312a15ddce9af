# Formatting shared by the print methods: confidences that never round to 1,
# and lines kept within the console width.

# A confidence (or any probability near 1) with `digits` decimals, written
# "1 - 8.0e-12" when rounding would show 1, so that a confidence just below
# 1 is never printed as certainty.
fmt_confidence <- function(x, digits = 4L) {
  vapply(x, function(v) {
    if (is.na(v)) return("NA")
    if (v == 1) return("1")
    if (round(v, digits) >= 1) return(sprintf("1 - %.1e", 1 - v))
    out <- formatC(v, format = "f", digits = digits)
    sub("0+$", "", sub("(\\.[0-9]*[1-9])0+$", "\\1", out))
  }, "")
}

# Wraps the text lines longer than `width` at spaces, continuing them with
# `exdent` spaces more than the line's own indentation.  Lines that are
# parts of a table (`keep`) are left alone.
wrap_lines <- function(lines, width = 80L, exdent = 4L, keep = NULL) {
  out <- vector("list", length(lines))
  for (i in seq_along(lines)) {
    l <- lines[i]
    if (nchar(l) <= width || i %in% keep) {
      out[[i]] <- l
      next
    }
    ind <- nchar(l) - nchar(sub("^ +", "", l))
    # never break "1 - alpha" or "a - b" between a number or word and a dash
    l <- gsub("([[:alnum:])]) ([-+*/<>=]=?) ([[:alnum:](])", "\\1\001\\2\001\\3", l)
    for (target in seq(width + 1L, 20L)) {
      w <- strwrap(l, width = target, indent = ind, exdent = ind + exdent)
      if (all(nchar(w) <= width)) break
    }
    out[[i]] <- gsub("\001", " ", w, fixed = TRUE)
  }
  unlist(out, use.names = FALSE)
}

# A column of confidences with as many decimals as the most precise needs
# (2 to 4), so that 0.5 and 0.93 print as 0.50 and 0.93.
fmt_confidence_column <- function(x) {
  ok <- !is.na(x) & round(x, 4L) < 1
  dec <- 4L
  for (d in 2:3) {
    if (all(abs(round(x[ok], d) - x[ok]) < 1e-9)) {
      dec <- d
      break
    }
  }
  out <- formatC(x, format = "f", digits = dec)
  out[!ok] <- fmt_confidence(x[!ok])
  out
}

# The result of highest_confidence(): a number that prints so that a
# confidence of 1 - 8e-12 does not show as 1.  Arithmetic, comparisons and
# as.numeric() give plain numbers.
new_confidence <- function(x) structure(x, class = "speeduptest_confidence")

#' @export
format.speeduptest_confidence <- function(x, digits = 4L, ...) {
  fmt_confidence(unclass(x), digits = digits)
}

#' @export
print.speeduptest_confidence <- function(x, digits = 4L, ...) {
  out <- format(x, digits = digits)
  if (!is.null(names(x))) names(out) <- names(x)
  print(noquote(out))
  invisible(x)
}

#' @export
Ops.speeduptest_confidence <- function(e1, e2) {
  if (inherits(e1, "speeduptest_confidence")) e1 <- unclass(e1)
  if (!missing(e2) && inherits(e2, "speeduptest_confidence")) e2 <- unclass(e2)
  if (missing(e2)) get(.Generic)(e1) else get(.Generic)(e1, e2)
}

#' @export
Math.speeduptest_confidence <- function(x, ...) get(.Generic)(unclass(x), ...)

#' @export
as.double.speeduptest_confidence <- function(x, ...) as.double(unclass(x))
