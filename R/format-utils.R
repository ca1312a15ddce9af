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
    if (v > 0 && round(v, digits) == 0) return(sprintf("%.1e", v))
    if (v == 0) return("0")
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
# confidence of 1 - 8e-12 does not show as 1.  It keeps the risk `alpha` as
# an attribute, since 1 - alpha rounds to 1 in double precision once alpha
# is below about 1e-16.  Arithmetic, comparisons and as.numeric() give plain
# numbers.
new_confidence <- function(x, alpha = 1 - x) {
  structure(x, alpha = alpha, class = "speeduptest_confidence")
}

# A plain vector: class and attributes dropped, names kept.
plain_number <- function(x) {
  out <- as.vector(unclass(x))
  names(out) <- names(x)
  out
}

#' @export
format.speeduptest_confidence <- function(x, digits = 4L, ...) {
  v <- plain_number(x)
  a <- attr(x, "alpha")
  out <- fmt_confidence(v, digits = digits)
  if (!is.null(a) && length(a) == length(v)) {
    tiny <- !is.na(v) & !is.na(a) & a > 0 & round(v, digits) >= 1
    out[tiny] <- sprintf("1 - %.1e", a[tiny])
  }
  out
}

#' @export
print.speeduptest_confidence <- function(x, digits = 4L, ...) {
  out <- format(x, digits = digits)
  if (!is.null(names(x))) names(out) <- names(x)
  print(noquote(out))
  if (length(x) == 1L && is.na(plain_number(x))) {
    slow <- attr(x, "slowdown")
    cat(wrap_lines(if (is.null(slow)) {
      "No confidence level declares a speedup."
    } else if (is.na(plain_number(slow))) {
      "No confidence level declares a speedup, nor a slowdown."
    } else {
      sprintf("No level declares a speedup: a %s, up to confidence %s.",
              decision_words("slowdown"), format(slow, digits = digits))
    }, exdent = 2L), sep = "\n")
  }
  invisible(x)
}

#' @export
Ops.speeduptest_confidence <- function(e1, e2) {
  e1 <- plain_number(e1)
  if (missing(e2)) get(.Generic)(e1) else get(.Generic)(e1, plain_number(e2))
}

#' @export
Math.speeduptest_confidence <- function(x, ...) get(.Generic)(plain_number(x), ...)

#' @export
as.double.speeduptest_confidence <- function(x, ...) plain_number(x)

# The p-value columns of as.data.frame() of verdicts and suites: numbers
# that print with three significant digits and stay readable in
# knitr::kable(), which rounds plain numeric columns to a number of decimals
# (a p-value of 1e-20 would show as 0).  Arithmetic and comparisons give
# plain numbers; round() keeps significant digits, as a p-value needs.
new_p_value <- function(x) structure(as.double(x), class = "speeduptest_p_value")

#' @export
format.speeduptest_p_value <- function(x, digits = 3L, ...) {
  if (is.null(digits) || is.na(digits)) digits <- 3L
  digits <- min(max(as.integer(digits), 1L), 15L)
  out <- vapply(plain_number(x), fmt_p, "", digits = digits)
  names(out) <- names(x)
  out
}

#' @export
print.speeduptest_p_value <- function(x, ...) {
  print(noquote(format(x, ...)))
  invisible(x)
}

#' @export
`[.speeduptest_p_value` <- function(x, i) new_p_value(plain_number(x)[i])

#' @export
Ops.speeduptest_p_value <- function(e1, e2) {
  e1 <- plain_number(e1)
  if (missing(e2)) get(.Generic)(e1) else get(.Generic)(e1, plain_number(e2))
}

#' @export
Math.speeduptest_p_value <- function(x, ...) {
  if (.Generic == "round") return(new_p_value(signif(plain_number(x), ...)))
  get(.Generic)(plain_number(x), ...)
}

#' @export
as.double.speeduptest_p_value <- function(x, ...) plain_number(x)

#' @export
as.data.frame.speeduptest_p_value <- function(x, row.names = NULL, optional = FALSE,
                                              ..., nm = deparse1(substitute(x))) {
  out <- list(x)
  if (!optional) names(out) <- nm
  structure(out, row.names = if (is.null(row.names)) .set_row_names(length(x)) else row.names,
            class = "data.frame")
}

# Gives the p-value columns (names with the word "p_value") of a data frame the
# class speeduptest_p_value.
classed_p_values <- function(df) {
  for (nm in grep("(^|_)p_value($|_)", names(df), value = TRUE)) {
    if (is.numeric(df[[nm]])) df[[nm]] <- new_p_value(df[[nm]])
  }
  df
}

# Figures as the original tool printed them: rounded to 3 decimals, no
# trailing zeros.
fmt3 <- function(x) round_text(x, 3L)

# as.character(round(x, digits)), "NA" for a missing value.  Each distinct
# rounded value is converted once (the conversion to 15 significant digits
# costs about a microsecond a value, and a suite's notes repeat a few
# hundred rounded values over thousands of rows); as.character() works
# value by value, so indexing gives the same strings.  (as.character()
# of doubles defers the conversion to the first use of each element, and a
# subset of it stays deferred: c() makes the distinct strings once.)
# For a plain double vector, the distinct rounded values and each value's
# position among them come from one pass of C (ffi_round_index,
# src/round-text.c: R's round(), and unique() and match() in one hash).
round_text <- function(x, digits) {
  if (is.double(x) && is.null(attributes(x))) {
    ri <- .Call(ffi_round_index, x, as.double(digits))
    return(c(as.character(ri[[1L]]), "NA")[ri[[2L]]])
  }
  r <- round(x, digits)
  u <- unique(r)
  out <- c(as.character(u), character())[match(r, u)]
  out[is.na(x)] <- "NA"
  out
}

# round_text() as coded pieces of lazy_rows() (R/suite-notes.R): a
# function of x giving each value's position among the distinct rounded
# values' strings ("NA" last), or the strings themselves when x is not a
# plain double vector.  The strings are made once for all the vectors the
# function is given (a suite's protocols round many of the same figures).
round_coder <- function(digits) {
  values <- double()
  text <- character()
  function(x) {
    if (!is.double(x) || !is.null(attributes(x))) return(round_text(x, digits))
    ri <- .Call(ffi_round_index, x, as.double(digits))
    u <- ri[[1L]]
    at <- match(u, values)
    new <- which(is.na(at))
    if (length(new)) {
      at[new] <- length(values) + seq_along(new)
      values <<- c(values, u[new])
      text <<- c(text, as.character(u[new]))
    }
    coded(c(at, length(values) + 1L)[ri[[2L]]], c(text, "NA"))
  }
}

# formatC(format = "fg", flag = "#") writes a value of at least 1e-4 in
# absolute value whose "%#.*g" form has no exponent as that form; sprintf()
# makes it at a fraction of formatC()'s cost, and formatC() writes the rest
# (0, the non-finite, the small, those "%g" would write with an exponent,
# and those next to a power of ten).
# The result keeps the attributes of `v`, as formatC() keeps them.
fmt_num <- function(v, digits = 3L) {
  x <- as.double(unclass(v))
  out <- sprintf("%#.*g", as.integer(digits), x)
  # formatC() rounds a value just below a power of ten up to it (99.95 to
  # "100." where "%#.3g" gives "99.9"): those go to formatC() too
  a <- abs(x)
  slow <- !is.finite(x) | a < 1e-4 | grepl("e", out, fixed = TRUE) |
    a / 10^floor(log10(a)) >= 10 - 0.6 * 10^(1 - digits)
  if (any(slow)) {
    out[slow] <- trimws(formatC(x[slow], digits = digits, format = "fg", flag = "#"))
  }
  out <- sub("\\.$", "", out)
  out[is.na(x)] <- "NA"
  out[is.infinite(x)] <- ifelse(x[is.infinite(x)] > 0, "Inf", "-Inf")
  attributes(out) <- attributes(v)
  out
}

# Rounds outwards (lower end down, upper end up) so that the printed
# interval contains the computed one: a lower end of 0.9998 prints as 0.999,
# not as 1.00.
fmt_ci <- function(ci, digits = 3L) {
  out <- function(v, dir) {
    if (is.na(v) || !is.finite(v) || v == 0) return(fmt_num(v, digits))
    p <- 10^(floor(log10(abs(v))) - digits + 1L)
    fmt_num(dir(v / p) * p, digits)
  }
  sprintf("[%s, %s]", out(ci[1L], floor), out(ci[2L], ceiling))
}

# A p-value with `digits` significant digits in every range ("0.0312",
# "4.03e-05"); 0 only when it is exactly 0.
fmt_p <- function(p, digits = 3L) {
  if (is.na(p)) return("NA")
  if (p == 0) return("0")
  if (p < 1e-4) return(formatC(p, format = "e", digits = digits - 1L))
  fmt_num(p, digits)
}

# fmt_p() of each value of a vector: the same strings, each branch made
# for its values at once (formatC() and fmt_num() write each value on its
# own).
fmt_p_each <- function(p, digits = 3L) {
  p <- as.double(p)
  out <- rep("NA", length(p))
  zero <- !is.na(p) & p == 0
  tiny <- !is.na(p) & !zero & p < 1e-4
  rest <- !is.na(p) & !zero & !tiny
  out[zero] <- "0"
  if (any(tiny)) out[tiny] <- formatC(p[tiny], format = "e", digits = digits - 1L)
  if (any(rest)) out[rest] <- fmt_num(p[rest], digits)
  out
}

fmt_pct <- function(conf) {
  if (length(conf) != 1L || !is.double(conf)) {
    return(paste0(format(100 * conf, digits = 6), "%"))
  }
  # one level is written for every verdict of a suite or a job: each
  # distinct value formatted once (keyed by its exact bits and the options
  # format() reads)
  key <- paste(sprintf("%a", conf), getOption("scipen"), getOption("OutDec"))
  out <- fmt_pct_cache[[key]]
  if (is.null(out)) {
    out <- paste0(format(100 * conf, digits = 6), "%")
    if (length(fmt_pct_cache) < 1000L) assign(key, out, envir = fmt_pct_cache)
  }
  out
}
fmt_pct_cache <- new.env(parent = emptyenv())
