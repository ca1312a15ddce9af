# Classed conditions: the errors and warnings the package raises, and the
# C core's status turned into one.  The argument checks are in R/checks.R.
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

# Turns a non-zero status from the C core into a classed error.
check_status <- function(res, what, call = NULL) {
  status <- res$status
  if (is.null(status) || status == 0L) return(invisible(res))
  if (identical(st_code_name("status", status), "interrupted")) {
    # the user interrupted a long computation in the C core, which stopped
    # cleanly: an interrupt condition for handlers, then a classed error
    signalCondition(structure(class = c("interrupt", "condition"),
                              list(message = "interrupted", call = call)))
    abort(sprintf("%s: interrupted by the user.", what),
          class = "interrupted", call = call)
  }
  name <- st_code_name("status", status)
  msg <- status_words[name]
  if (is.na(msg)) msg <- "unknown failure"
  abort(sprintf("%s: %s.", what, msg),
        class = if (identical(name, "alloc")) "memory" else "data", call = call)
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

