# The checks of the arguments of every exported function, in one place.
#
# Each check takes the value and the name of the argument as the user wrote
# it, returns the value normalised (a double, a choice, a path) or raises a
# speeduptest_error_input (R/errors.R) whose message names the argument,
# what it must be and what it was.  The condition's call names the exported
# function the user called (errors.R); a check given `call` uses that one.
# Checks of the structure of one function's data (the columns of a data
# frame, the versions of timings, the lines of a file) stay with that
# function.
#
# Sections: choices among strings; flags; numbers, counts and levels;
# strings, names and paths; objects, environments and hooks; samples;
# arguments in `...`.

# ---- choices among strings ---------------------------------------------------

# The one rule for a string argument that picks among `choices`: an exact
# match, else a unique partial match (pmatch(): "wil" is "wilson"); the
# whole vector of choices (a function's default) means the first.  NA, a
# value that is not a string (a factor included) or of length other than 1
# is refused, and so is a partial match of several choices; the error lists
# the choices and shows the value given.  `context` follows the choices in
# the message (" for the hyperfine file 'x.json'").  Returns the choice; a
# function that needs a code for C takes match(check_choice(...), choices)
# - 1L.
check_choice <- function(x, choices, arg, call = NULL, context = "") {
  if (identical(x, choices)) return(choices[1L])
  text <- is.character(x) && length(x) == 1L && !is.na(x) && validUTF8(x)
  i <- if (text) pmatch(x, choices) else NA_integer_
  if (is.na(i)) {
    several <- if (text && nzchar(x)) choices[startsWith(choices, x)] else character()
    abort(sprintf("%s must be one of %s%s, not %s%s.", arg_label(arg),
                  paste0('"', choices, '"', collapse = ", "), context,
                  describe_value(x),
                  if (length(several) > 1L) {
                    sprintf(", which could be %s",
                            paste0('"', several, '"', collapse = " or "))
                  } else ""),
          call = call)
  }
  choices[i]
}

# A name that must be one of `values`, names found in the data (the
# versions, the benchmarks): a string (or a factor) matched exactly, since
# names from the data are not a fixed list whose abbreviations are known
# ahead.  `what` precedes the list in the message ("the versions ").
# Returns the name as a string.
check_member <- function(x, values, arg, what = "", call = NULL) {
  if (!(is.character(x) || is.factor(x)) || length(x) != 1L || is.na(x) ||
      !(as.character(x) %in% values)) {
    abort(sprintf("%s must be one of %s%s, not %s.", arg_label(arg), what,
                  quote_list(values), describe_value(x)), call = call)
  }
  as.character(x)
}

# An argument as messages name it: `alpha`, or --alpha for an option of the
# command line.
arg_label <- function(arg) if (startsWith(arg, "-")) arg else paste0("`", arg, "`")

# The alternative hypotheses of the component tests, in the order of the C
# core's codes (0, 1, 2).
alternatives <- c("two.sided", "less", "greater")

alternative_name <- function(code) alternatives[code + 1L]

# ---- flags -------------------------------------------------------------------

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

# ---- numbers, counts and levels ----------------------------------------------

check_number <- function(x, arg, call = NULL, finite = TRUE) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || (finite && !is.finite(x))) {
    abort(sprintf("`%s` must be a single finite number, not %s.", arg,
                  describe_value(x)), call = call)
  }
  as.double(x)
}

# A single finite number > 0 (a ratio, a speedup).
check_positive <- function(x, arg, call = NULL) {
  x <- check_number(x, arg, call = call)
  if (x <= 0) {
    abort(sprintf("`%s` must be a positive number, not %s.", arg, describe_value(x)),
          call = call)
  }
  x
}

# A single number strictly between `lower` and `upper` (or up to `upper`
# included, with upper_ok).
check_between <- function(x, arg, lower, upper, call = NULL, upper_ok = FALSE) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || x <= lower ||
      (if (upper_ok) x > upper else x >= upper)) {
    abort(sprintf(if (upper_ok) "`%s` must be a single number in (%s, %s], not %s."
                  else "`%s` must be a single number strictly between %s and %s, not %s.",
                  arg, format(lower), format(upper), describe_value(x)), call = call)
  }
  as.double(x)
}

check_conf_level <- function(conf_level, arg = "conf_level", call = NULL) {
  check_between(conf_level, arg, 0, 1, call = call)
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

# The precision r of the minimal number of benchmarks, strictly inside
# (0, 1) (a half-width of an interval for a proportion).
check_precision <- function(precision, arg = "precision", call = NULL) {
  check_between(precision, arg, 0, 1, call = call)
}

check_min_speedup <- function(s0, arg = "min_speedup", call = NULL) {
  if (!is.numeric(s0) || length(s0) != 1L || is.na(s0) || !is.finite(s0) ||
      s0 < 1) {
    abort(sprintf("`%s` must be a single number >= 1 (1 + the smallest change that matters), not %s.",
                  arg, describe_value(s0)), call = call)
  }
  as.double(s0)
}

check_sd <- function(x, arg, call = NULL) {
  x <- check_number(x, arg, call = call)
  if (x < 0) {
    abort(sprintf("`%s` must be a standard deviation (>= 0), not %s.", arg,
                  describe_value(x)), call = call)
  }
  x
}

# A single whole number from `min` to `max`, returned as a double (rounded:
# a whole number computed as N + a few ulps is N).
check_whole <- function(x, arg, min = 0, max = Inf, call = NULL) {
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) && is.finite(x)
  if (ok) {
    x <- as.double(x)
    ok <- abs(x - round(x)) <= 1e-7 * max(1, abs(x)) && round(x) >= min &&
      round(x) <= max
  }
  if (!ok) {
    range <- if (is.finite(max)) {
      sprintf("from %s to %s", format(min, big.mark = ",", scientific = FALSE),
              format(max, big.mark = ",", scientific = FALSE))
    } else if (min == 0) ">= 0" else sprintf("of at least %s", format(min))
    abort(sprintf("`%s` must be a single whole number %s, not %s.", arg, range,
                  describe_value(x)), call = call)
  }
  round(x)
}

# One or more whole numbers from `min` to `max` (positions, ids), none NA.
check_wholes <- function(x, arg, min = -Inf, max = Inf, call = NULL) {
  ok <- is.numeric(x) && length(x) >= 1L && !anyNA(x) && all(is.finite(x))
  if (ok) {
    x <- as.double(x)
    ok <- all(abs(x - round(x)) <= 1e-7 * pmax(1, abs(x))) && all(round(x) >= min) &&
      all(round(x) <= max)
  }
  if (!ok) {
    abort(sprintf("`%s` must be whole numbers from %s to %s, not %s.", arg,
                  format(min, big.mark = ",", scientific = FALSE),
                  format(max, big.mark = ",", scientific = FALSE), describe_value(x)),
          call = call)
  }
  round(x)
}

# A number of values (a sample size given as a number): a whole number >=
# 0, and at least `min_n` (fewer is an error of class
# speeduptest_error_data).
check_count <- function(x, arg, min_n, call = NULL) {
  x <- check_whole(x, arg, call = call)
  if (x < min_n) {
    abort(sprintf("`%s` must be at least %d, not %s.", arg, min_n,
                  describe_value(x)), class = "data", call = call)
  }
  x
}

# Seconds a run may last: a single number > 0, Inf for no limit.
check_timeout <- function(x, arg, call = NULL) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || x <= 0) {
    abort(sprintf("`%s` must be a single positive number of seconds (Inf for none), not %s.",
                  arg, describe_value(x)), call = call)
  }
  as.double(x)
}

# One or more proportions, each in [0, 1].
check_proportions <- function(x, arg, call = NULL) {
  if (!is.numeric(x) || length(x) < 1L || anyNA(x) || any(x < 0 | x > 1)) {
    abort(sprintf("`%s` must be numbers between 0 and 1, not %s.", arg,
                  describe_value(x)), call = call)
  }
  x
}

# One or more positive numbers, returned sorted.
check_positive_numbers <- function(x, arg, call = NULL) {
  if (!is.numeric(x) || !length(x) || anyNA(x) || any(x <= 0)) {
    abort(sprintf("`%s` must hold positive numbers, not %s.", arg,
                  describe_value(x)), call = call)
  }
  sort(as.double(x))
}

# One series of a history (series_changes()): per-process values (times,
# positive and finite) and the commit position of each (whole numbers in
# first-parent order, any order and repeated for several processes of a
# commit).  Returns the values ordered by position (the processes of a
# commit in the order given), the distinct positions ascending and
# `start`, the offsets of each commit's values (0-based, length + 1).
check_series <- function(value, position, call = NULL) {
  if (!is.numeric(value) || !length(value) || anyNA(value) ||
      any(!is.finite(value)) || any(value <= 0)) {
    abort(sprintf("`value` must hold positive finite times, not %s.",
                  describe_value(value)), call = call)
  }
  if (!is.numeric(position) || anyNA(position) || any(!is.finite(position)) ||
      any(abs(position - round(position)) > 1e-7 * pmax(1, abs(position)))) {
    abort(sprintf("`position` must hold whole numbers (commit positions), not %s.",
                  describe_value(position)), call = call)
  }
  if (length(position) != length(value)) {
    abort(sprintf("`position` must have one element per value (%d), not %d.",
                  length(value), length(position)), call = call)
  }
  position <- round(as.double(position))
  o <- order(position, method = "radix")
  pos <- position[o]
  first <- c(TRUE, pos[-1L] != pos[-length(pos)])
  list(value = as.double(value)[o], position = pos[first],
       start = c(which(first) - 1, length(pos)))
}

# ---- strings, names and paths ------------------------------------------------

# A single string (not NA; "" only with empty_ok); NULL too with null_ok.
check_string <- function(x, arg, call = NULL, null_ok = FALSE, empty_ok = TRUE) {
  if (null_ok && is.null(x)) return(NULL)
  if (!is.character(x) || length(x) != 1L || is.na(x) || (!empty_ok && !nzchar(x))) {
    abort(sprintf("`%s` must be %s%s, not %s.", arg,
                  if (null_ok) "NULL or " else "",
                  if (empty_ok) "a single string" else "a single non-empty string",
                  describe_value(x)), call = call)
  }
  x
}

# The path of one file or folder: a single non-empty string.  `what` says
# what it must be in the message.
check_path <- function(x, arg, call = NULL, what = "a single path") {
  if (!is.character(x) || length(x) != 1L || is.na(x) || !nzchar(x)) {
    abort(sprintf("`%s` must be %s, not %s.", arg, what, describe_value(x)),
          call = call)
  }
  x
}

# Strings, any number of them, none NA (the words of a command line).
check_strings <- function(x, arg, call = NULL) {
  if (!is.character(x) || anyNA(x)) {
    abort(sprintf("`%s` must be a character vector without missing values, not %s.",
                  arg, if (is.character(x)) sprintf("one with %d NA", sum(is.na(x)))
                  else describe_type(x)), call = call)
  }
  x
}

# One or more paths, none NA or empty.
check_paths <- function(x, arg, call = NULL) {
  if (!is.character(x) || !length(x) || anyNA(x) || any(!nzchar(x))) {
    abort(sprintf("`%s` must be one or more file paths, not %s.", arg,
                  if (is.character(x)) describe_value(x) else describe_type(x)),
          call = call)
  }
  x
}

# NULL (discard) or a file to append to, in a folder that exists; returned
# as an absolute path.
check_output_file <- function(output, arg, call = NULL) {
  if (is.null(output)) return(NULL)
  if (!is.character(output) || length(output) != 1L || is.na(output) || !nzchar(output)) {
    abort(sprintf("`%s` must be NULL (discard) or a file name, not %s.", arg,
                  describe_value(output)), call = call)
  }
  output <- normalizePath(output, mustWork = FALSE)
  if (!dir.exists(dirname(output))) {
    abort(sprintf("`%s`: the directory of \"%s\" does not exist.", arg, output),
          class = "file", call = call)
  }
  if (dir.exists(output)) {
    abort(sprintf("`%s` must be a file, not the directory \"%s\".", arg, output),
          class = "file", call = call)
  }
  output
}

# Names (of benchmarks, say): one or more strings without NA; NULL too
# with null_ok.
check_names <- function(x, arg, what = "names", call = NULL, null_ok = FALSE) {
  if (null_ok && is.null(x)) return(NULL)
  if (!is.character(x) || !length(x) || anyNA(x)) {
    abort(sprintf("`%s` must be %s%s, not %s.", arg, if (null_ok) "NULL or " else "",
                  what, describe_value(x)), call = call)
  }
  x
}

# Two different names (of the two versions), without NA.
check_two_names <- function(x, arg, call = NULL) {
  if (!is.character(x) || length(x) != 2L || anyNA(x) || x[1L] == x[2L]) {
    abort(sprintf("`%s` must be two different names, not %s.", arg,
                  describe_value(x)), call = call)
  }
  x
}

# The name of a column of the data frame `data_arg`, given as the argument
# `arg`: a single non-empty string (NULL too with null_ok).
check_column_name <- function(value, arg, data_arg = "data", call = NULL,
                              null_ok = FALSE) {
  if (null_ok && is.null(value)) return(NULL)
  if (!is.character(value) || length(value) != 1L || is.na(value) ||
      !nzchar(value)) {
    abort(sprintf("`%s` must be the name of a column of `%s`%s (a single string), not %s.",
                  arg, data_arg, if (null_ok) " or NULL" else "", describe_value(value)),
          call = call)
  }
  value
}

# A command (a version of measure(), or its setup or cleanup) must be text
# the shell and the search of its program can take: bytes that are not
# valid UTF-8 are refused, shown as <ff> escapes.  `what` names it.
check_command_text <- function(cmd, what, call = NULL) {
  if (!validUTF8(cmd)) {
    abort(sprintf("%s: the command is not valid UTF-8 text: \"%s\".", what,
                  bytes_safe(cmd)), call = call)
  }
  invisible(cmd)
}

# ---- objects, environments and hooks -----------------------------------------

# A result object (or timings) given to a method: its class promises the
# parts the method reads.  An object built by hand or cut down that lacks
# them is refused with a classed error naming the argument, rather than
# failing deep inside the method.
check_object <- function(x, arg = "x", call = NULL) {
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
                  paste0("`", miss, "`", collapse = ", ")), call = call)
  }
  invisible(x)
}

# The result of speedup_suite().
check_suite <- function(suite, arg = "suite", call = NULL) {
  if (!inherits(suite, "speedup_suite")) {
    abort(sprintf("`%s` must be a speedup_suite result, not %s.", arg,
                  describe_type(suite)), call = call)
  }
  invisible(suite)
}

# The version of each run in run order: two distinct labels, none missing.
check_version_labels <- function(version, arg = "version", call = NULL) {
  if (!is.atomic(version) || is.null(version)) {
    abort(sprintf("`%s` must be a vector of version labels, not %s.", arg,
                  describe_type(version)), call = call)
  }
  if (anyNA(version) || length(unique(version)) != 2L) {
    abort(sprintf("`%s` must hold exactly two distinct versions and no missing value.",
                  arg), call = call)
  }
  invisible(version)
}

check_environment <- function(x, arg, call = NULL) {
  if (!is.environment(x)) {
    abort(sprintf("`%s` must be an environment, not %s.", arg, describe_type(x)),
          call = call)
  }
  x
}

# measure()'s `.setup` or `.cleanup`: NULL, a command or a function (with an
# argument: given the version's name).  Returns NULL or the hook as
# list(name, kind, what, label, takes_version).
check_hook <- function(hook, arg, call = NULL) {
  if (is.null(hook)) return(NULL)
  if (is.character(hook) && length(hook) == 1L && !is.na(hook)) {
    check_command_text(hook, sprintf("`%s`", arg), call = call)
    return(list(name = arg, kind = "command", what = hook, label = hook))
  }
  if (is.function(hook)) {
    return(list(name = arg, kind = "function", what = hook, label = arg,
                takes_version = length(formals(hook)) > 0L))
  }
  abort(sprintf("`%s` must be NULL, a shell command or a function, not %s.", arg,
                describe_type(hook)), call = call)
}

# `initial` with a list of benchmarks (or a configuration), whose initial
# code is always `x`: anything else would be silently ignored.
check_list_initial <- function(initial, call = NULL) {
  if (is.null(initial) || identical(initial, "x")) return(invisible(NULL))
  abort(sprintf("`initial` names the initial version of a data frame or of timings; in a list of benchmarks the initial code is `x`, so `initial` must be NULL, not %s.",
                describe_value(initial)), call = call)
}

# The data a formula is evaluated in: a data frame (a list or an
# environment will do).
check_formula_data <- function(data, arg = "data", call = NULL) {
  if (!is.list(data) && !is.environment(data)) {
    abort(sprintf("`%s` must be a data frame, not %s.", arg, describe_type(data)),
          call = call)
  }
  data
}

# ---- samples -----------------------------------------------------------------

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

# A penalty on each change point (pelt_changepoints(), warmup_classify()):
# one of `choices` (a name, as changepoint's `penalty`) or a single number
# >= 0 (changepoint's "Manual").  Returns the name or the number.
check_penalty <- function(x, choices, arg = "penalty", call = NULL) {
  if (is.numeric(x)) {
    x <- check_number(x, arg, call = call)
    if (x < 0) {
      abort(sprintf("`%s` must be a number >= 0 or one of %s, not %s.", arg,
                    paste0('"', choices, '"', collapse = ", "),
                    describe_value(x)), call = call)
    }
    return(x)
  }
  check_choice(x, choices, arg, call = call)
}

# ---- arguments in `...` -------------------------------------------------------

# Errors on anything in `...`.  Arguments spelled the base R way (`na.rm`,
# `conf.level`, `var.equal`, ...) get the package's spelling in an error of
# class speeduptest_error_argument; `fn` names the caller and `formals` its
# arguments (found from the calling frame when not given).
check_dots_empty <- function(..., .fn = NULL, .formals = NULL) {
  if (...length() == 0L) return(invisible())
  if (is.null(.fn) || is.null(.formals)) {
    caller <- sys.call(-1L)
    if (is.null(.fn)) {
      .fn <- if (is.null(caller)) "this function" else
        paste0(sub("\\.(default|formula|speedup_[a-z_]+|speeduptest_[a-z_]+)$", "",
                   deparse1(caller[[1L]])), "()")
    }
    if (is.null(.formals)) .formals <- names(formals(sys.function(-1L)))
  }
  nms <- names(list(...))
  if (is.null(nms)) nms <- rep("", ...length())
  hints <- vapply(nms[nzchar(nms)], argument_hint, "", formals = .formals)
  if (length(hints) && any(nzchar(hints))) {
    named <- nms[nzchar(nms)]
    msg <- sprintf("`%s` is not an argument of %s; %s.", named[nzchar(hints)],
                   .fn, hints[nzchar(hints)])
    abort(paste(msg, collapse = "\n"), class = c("argument", "input"),
          arguments = named[nzchar(hints)])
  }
  what <- if (all(nms == "")) {
    sprintf("%d unnamed argument(s)", ...length())
  } else {
    paste0("`", nms[nms != ""], "`", collapse = ", ")
  }
  abort(sprintf("Unused argument(s) to %s: %s.", .fn, what),
        class = c("argument", "input"),
        arguments = nms)
}

# The package's spelling of an argument given the base R way, as advice
# ("" when there is none).
argument_hint <- function(name, formals) {
  has <- function(a) a %in% formals
  underscored <- gsub(".", "_", name, fixed = TRUE)
  if (name %in% c("conf.level", "conf_level", "level", "confidence") &&
      has("alpha") && !has("conf_level")) {
    return(sprintf("give the risk level instead: `alpha = 1 - %s`", name))
  }
  if (underscored != name && has(underscored)) {
    return(sprintf("use `%s` (this package spells arguments with underscores)",
                   underscored))
  }
  if (name %in% c("margin", "threshold", "tolerance", "min_effect", "delta",
                  "min.speedup") && has("min_speedup")) {
    return("give the smallest speedup that matters as a factor: `min_speedup = 1.01` for 1 %")
  }
  if (name == "p.adjust.method" && has("p_adjust")) {
    return("use `p_adjust`")
  }
  if (name == "paired") {
    return(if (has("x") && has("y"))
      "the runs of the two versions are independent samples here; for paired differences use signed_rank_test() on x - y"
    else "paired samples are not supported here")
  }
  if (name == "alternative" && has("x") && has("y") && has("alpha") &&
      !has("alternative")) {
    return("the Speedup-Test asks whether y is faster than x; swap x and y for the other direction")
  }
  if (name %in% c("var.equal", "var_equal") && !has("var_equal")) {
    return("the protocol chooses Student's or Welch's test itself, from an F-test of the variances")
  }
  ""
}

# A number written on the command line: decimal notation only ("0.05",
# "1", "1.5e-3", "2%" with `percent`), NA for anything else.  as.numeric()
# alone would also read hexadecimal ("0x10" = 16), "Inf", "NaN" and
# surrounding spaces.
parse_decimal <- function(x, percent = FALSE) {
  if (!is.character(x) || length(x) != 1L || is.na(x)) return(NA_real_)
  if (percent) x <- sub("%$", "", x)
  if (!grepl("^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$", x)) return(NA_real_)
  as.numeric(x)
}
