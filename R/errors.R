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
#   speeduptest_error_unsupported  a protocol asked for a capability it
#                            lacks (a paired twin, tolerance tests, ...)
# The message always names the argument at fault, and the condition's call
# names the exported function the user called (see user_call()), so that R
# prints `Error in median_test() : ...`, unless the code raising it gives
# another call.

abort <- function(message, class = "input", call = NULL, ...) {
  if (is.null(call)) call <- user_call()
  cnd <- structure(
    class = c(paste0("speeduptest_error_", class), "speeduptest_error",
              "error", "condition"),
    list(message = message, call = call, ...)
  )
  stop(cnd)
}

warn <- function(message, class = "data", call = NULL, ...) {
  if (is.null(call)) call <- user_call()
  cnd <- structure(
    class = c(paste0("speeduptest_warning_", class), "speeduptest_warning",
              "warning", "condition"),
    list(message = message, call = call, ...)
  )
  warning(cnd)
}

# The exported function the user called, as a call holding its name only
# (`quote(median_test())`): the outermost frame on the stack whose function
# is an export of the package or one of its S3 methods, a method named by
# its generic as the user typed it (`print()` for print.speedup_verdict,
# `median_test()` for median_test.default).  NULL when no such frame is on
# the stack.  Computed only when a condition is raised: a walk over the
# frames, with a lookup by name for each frame of the package.
user_call <- function() {
  ns <- environment(user_call)
  for (i in seq_len(sys.nframe())) {
    f <- sys.function(i)
    if (!identical(environment(f), ns)) next
    name <- export_name(f, sys.call(i), sys.frame(i), ns)
    if (!is.null(name)) return(as.call(list(as.name(name))))
  }
  NULL
}

# The name under which the user calls `f`, a function of the namespace `ns`
# called as `call` in `frame`: its own name for an export, its generic's
# for an S3 method; NULL for an internal function.
export_name <- function(f, call, frame, ns) {
  tab <- export_table(ns)
  head <- call[[1L]]
  if (is.call(head) && length(head) == 3L &&
      (identical(head[[1L]], quote(`::`)) || identical(head[[1L]], quote(`:::`)))) {
    head <- head[[3L]]
  }
  name <- if (is.symbol(head)) as.character(head) else ""
  if (!nzchar(name) || !exists(name, envir = ns, inherits = FALSE)) {
    # called under another name (a variable holding it, FUN in lapply()):
    # found by identity
    for (nm in names(tab$shown)) {
      if (identical(get0(nm, envir = ns, inherits = FALSE), f)) {
        name <- nm
        break
      }
    }
  }
  shown <- tab$shown[name]
  if (is.na(shown)) return(NULL)
  if (!shown %in% tab$exports) {
    # a method: its generic as dispatched (`>` for Ops), else its own
    g <- get0(".Generic", envir = frame, inherits = FALSE)
    if (is.character(g) && length(g) == 1L && !is.na(g)) shown <- g
  }
  unname(shown)
}

# The functions of `ns` a user calls, read once: `shown`, the name an error
# shows for each export and S3 method (named by their own names), and
# `exports`.
export_table <- function(ns) {
  if (is.null(export_cache$table)) {
    m <- getNamespaceInfo(ns, "S3methods")
    exports <- getNamespaceExports(ns)
    exports <- exports[vapply(exports, function(nm) {
      is.function(get0(nm, envir = ns, inherits = FALSE))
    }, TRUE)]
    export_cache$table <- list(
      exports = exports,
      shown = c(stats::setNames(exports, exports), stats::setNames(m[, 1L], m[, 3L])))
  }
  export_cache$table
}
export_cache <- new.env(parent = emptyenv())

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
        class = switch(name %||% "", alloc = "memory", unsupported = "unsupported",
                       "data"), call = call)
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

