# Classed conditions and the input checks shared by every wrapper.
#
# Every error the package raises inherits from `speeduptest_error` and has a
# subclass naming its kind:
#   speeduptest_error_input  an argument has the wrong type, length or value
#   speeduptest_error_argument  (also _input) an argument the function does
#                            not have, e.g. spelled the base R way (na.rm)
#   speeduptest_error_data   the data cannot support the computation
#                            (too few values, constant sample, ...)
#   speeduptest_error_exact_too_large  (also _data) an exact test asked for
#                            samples whose exact distribution would take
#                            too much time or memory
#   speeduptest_error_file   a file cannot be read or written
# The message always names the argument at fault.

abort <- function(message, class = "input", call = NULL, ...) {
  cnd <- structure(
    class = c(paste0("speeduptest_error_", class), "speeduptest_error",
              "error", "condition"),
    list(message = message, call = call, ...)
  )
  stop(cnd)
}

warn <- function(message, class = "data", call = NULL, ...) {
  cnd <- structure(
    class = c(paste0("speeduptest_warning_", class), "speeduptest_warning",
              "warning", "condition"),
    list(message = message, call = call, ...)
  )
  warning(cnd)
}

# Checks a sample of run times (or any measurements) and returns it as a
# double vector without NA (when na_rm).  `positive` asks for values > 0,
# `min_n` for a minimum length (0 to allow fewer values and let the caller
# decide).
check_sample <- function(x, arg = deparse(substitute(x)), na_rm = FALSE,
                         min_n = 1L, positive = FALSE, call = NULL) {
  if (!is.numeric(x)) {
    abort(sprintf("`%s` must be a numeric vector, not %s.", arg,
                  describe_type(x)), call = call)
  }
  x <- as.double(unclass(x))
  if (anyNA(x)) {
    if (!isTRUE(na_rm)) {
      abort(sprintf("`%s` has %d missing value(s); remove them or set `na_rm = TRUE`.",
                    arg, sum(is.na(x))), call = call)
    }
    x <- x[!is.na(x)]
  }
  if (any(!is.finite(x))) {
    abort(sprintf("`%s` must hold finite values; it has %d infinite value(s).",
                  arg, sum(!is.finite(x))), call = call)
  }
  if (positive && any(x <= 0)) {
    abort(sprintf("`%s` must hold positive values (times or costs); it has %d value(s) <= 0.",
                  arg, sum(x <= 0)), call = call)
  }
  if (length(x) < min_n) {
    abort(sprintf("`%s` must have at least %d value(s), not %d.",
                  arg, min_n, length(x)), class = "data", call = call)
  }
  x
}

check_conf_level <- function(conf_level, arg = "conf_level", call = NULL) {
  if (!is.numeric(conf_level) || length(conf_level) != 1L ||
      is.na(conf_level) || conf_level <= 0 || conf_level >= 1) {
    abort(sprintf("`%s` must be a single number strictly between 0 and 1, not %s.",
                  arg, describe_value(conf_level)), call = call)
  }
  as.double(conf_level)
}

# A risk above 0.5 is most likely a confidence passed as the risk (alpha =
# 0.95 for 95%): allowed, with a warning of class speeduptest_warning_alpha.
check_alpha <- function(alpha, arg = "alpha", call = NULL) {
  alpha <- check_conf_level(alpha, arg = arg, call = call)
  if (alpha > 0.5) {
    warn(sprintf("`%s` = %s is a risk above 0.5 (a confidence of %s): for a %s confidence, use `%s = %s`.",
                 arg, format(alpha), fmt_pct(1 - alpha), fmt_pct(alpha), arg,
                 format(1 - alpha)), class = "alpha", call = call)
  }
  alpha
}

check_flag <- function(x, arg, call = NULL) {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) {
    abort(sprintf("`%s` must be TRUE or FALSE, not %s.", arg, describe_value(x)),
          call = call)
  }
  x
}

# NULL means "automatic" (-1 for the C core).
check_exact <- function(exact, arg = "exact", call = NULL) {
  if (is.null(exact)) return(-1L)
  as.integer(check_flag(exact, arg, call = call))
}

check_number <- function(x, arg, call = NULL, finite = TRUE) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || (finite && !is.finite(x))) {
    abort(sprintf("`%s` must be a single finite number, not %s.", arg,
                  describe_value(x)), call = call)
  }
  as.double(x)
}

# Returns the 0-based code the C core uses for c("two.sided", "less", "greater").
check_alternative <- function(alternative, arg = "alternative", call = NULL) {
  choices <- c("two.sided", "less", "greater")
  if (!is.character(alternative) || length(alternative) < 1L) {
    abort(sprintf("`%s` must be one of %s.", arg,
                  paste0('"', choices, '"', collapse = ", ")), call = call)
  }
  if (identical(alternative, choices)) alternative <- choices[1L]
  i <- pmatch(alternative[1L], choices)
  if (length(alternative) != 1L || is.na(i)) {
    abort(sprintf("`%s` must be one of %s, not %s.", arg,
                  paste0('"', choices, '"', collapse = ", "),
                  describe_value(alternative)), call = call)
  }
  i - 1L
}

alternative_name <- function(code) c("two.sided", "less", "greater")[code + 1L]

# Turns a non-zero status from the C core into a classed error.
check_status <- function(res, what, call = NULL) {
  status <- res$status
  if (is.null(status) || status == 0L) return(invisible(res))
  if (status == 6L) {
    # the user interrupted a long computation in the C core, which stopped
    # cleanly: an interrupt condition for handlers, then a classed error
    signalCondition(structure(class = c("interrupt", "condition"),
                              list(message = "interrupted", call = call)))
    abort(sprintf("%s: interrupted by the user.", what),
          class = "interrupted", call = call)
  }
  msg <- switch(as.character(status),
    "1" = "not enough values",
    "2" = "too many values for this method",
    "3" = "all values are equal",
    "4" = "out of memory",
    "5" = "an argument is outside its domain",
    "unknown failure")
  abort(sprintf("%s: %s.", what, msg),
        class = if (status == 4L) "memory" else "data", call = call)
}

describe_type <- function(x) {
  if (is.null(x)) return("NULL")
  if (is.object(x)) return(sprintf("an object of class <%s>", safe_text(class(x)[1L])))
  switch(typeof(x),
    closure = , builtin = , special = "a function",
    symbol = , language = "an R expression",
    environment = "an environment",
    sprintf("a %s vector", typeof(x)))
}

describe_value <- function(x) {
  if (is.null(x)) return("NULL")
  if (is.atomic(x) && length(x) == 1L) {
    # strings are shown byte-safe (bytes that are not UTF-8 as <xx>) and cut
    if (is.character(x) && !is.na(x)) {
      x <- safe_text(x)
      if (nchar(x, type = "chars", allowNA = TRUE) %in% NA || nchar(x) > 60L) {
        x <- paste0(substr(x, 1L, 57L), "...")
      }
      return(sprintf('"%s"', x))
    }
    return(format(x))
  }
  if (is.atomic(x)) return(sprintf("a %s vector of length %d", typeof(x), length(x)))
  describe_type(x)
}

# A result object (or timings) given to a method: its class promises the
# parts the method reads.  An object built by hand or cut down that lacks
# them is refused with a classed error naming the argument, rather than
# failing deep inside the method.
check_object <- function(x, arg = "x") {
  need <- if (inherits(x, "speedup_timings")) {
    c("benchmark", "version", "time")
  } else if (inherits(x, "speedup_suite")) {
    c("benchmarks", "overall", "problems", "weights")
  } else if (inherits(x, "speeduptest_hpt")) {
    c("confidence", "n", "benchmarks", "problems", "labels")
  } else if (inherits(x, "speedup_verdict")) {
    c("test", "direction", "decision", "p_value", "alpha", "n", "labels")
  } else {
    return(invisible(x))
  }
  miss <- if (is.list(x)) setdiff(need, names(x)) else need
  if (length(miss)) {
    what <- if (inherits(x, "speedup_timings")) "column" else "part"
    abort(sprintf("`%s` is not a complete `%s` object: it lacks the %s%s %s.",
                  arg, class(x)[1L], what, if (length(miss) == 1L) "" else "s",
                  paste0("`", miss, "`", collapse = ", ")))
  }
  invisible(x)
}
