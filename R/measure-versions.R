# The versions given to measure() in `...`: commands, functions or R
# expressions, one by one or as one list, with their names; and the
# arguments named like measure()'s options before they took a dot.

# The options measure() had before they took a dot.
measure_old_names <- c("runs", "warmup", "order", "setup", "cleanup", "timeout",
                       "until", "max_runs", "test", "alpha", "output", "progress",
                       "name", "env")

# Splits the arguments in `...` into versions and former options (see the
# section Versions and options): list(versions = <exprs>, options = <values>).
measure_old_options <- function(dots, caller) {
  nms <- names(dots)
  if (is.null(nms)) return(list(versions = dots, options = list()))
  old <- nms %in% measure_old_names
  if (!any(old)) return(list(versions = dots, options = list()))
  unnamed <- !nzchar(nms)
  list_form <- sum(unnamed) == 1L && all(old | unnamed) &&
    measure_is_list_expr(dots[[which(unnamed)]])
  take <- logical(length(dots))
  values <- vector("list", length(dots))
  for (i in which(old)) {
    e <- dots[[i]]
    if (list_form) {
      take[i] <- TRUE
      values[i] <- list(eval(e, caller))
      next
    }
    if (is.symbol(e)) {
      found <- tryCatch(list(eval(e, caller)), error = function(err) NULL)
      if (is.null(found)) next   # not a variable of the caller's: a version
      val <- found[[1L]]
    } else if (is.atomic(e) || is.null(e)) {
      val <- e
    } else {
      next
    }
    choices <- switch(nms[i], order = c("interleaved", "random", "blocks"),
                      until = c("fixed", "decided", "steady"), test = protocol_choices(), NULL)
    option_like <- is.null(val) || is.environment(val) ||
      ((is.numeric(val) || is.logical(val)) && !is.object(val)) ||
      (!is.null(choices) && is.character(val) && length(val) == 1L && val %in% choices)
    if (option_like) {
      take[i] <- TRUE
      values[i] <- list(val)
    }
  }
  options <- values[take]
  names(options) <- nms[take]
  list(versions = dots[!take], options = options)
}

# One version: list(name, kind = "command" / "function" / "expression", what,
# label).
measure_versions <- function(dots, env) {
  exprs <- dots
  if (!length(exprs)) {
    abort("Give at least one version to measure: a command, a function or an expression.")
  }
  nms <- names(exprs)
  if (is.null(nms)) nms <- rep("", length(exprs))
  if (length(exprs) == 1L && !nzchar(nms[1L]) && measure_is_list_expr(exprs[[1L]])) {
    val <- tryCatch(eval(exprs[[1L]], env), error = function(e) NULL)
    if ((is.list(val) || is.character(val)) && !is.null(names(val)) && length(val)) {
      if (any(!nzchar(names(val)))) {
        abort("Every element of the list of versions must be named.")
      }
      out <- lapply(seq_along(val), function(i) {
        measure_version_value(val[[i]], names(val)[i], env, quoted = TRUE)
      })
      return(measure_version_names(out))
    }
  }
  out <- lapply(seq_along(exprs), function(i) {
    e <- exprs[[i]]
    nm <- nms[i]
    if (is.character(e)) return(measure_version_value(e, nm, env))
    if (is.atomic(e) || is.null(e)) {
      abort(sprintf("Version `%s` must be a command (string), a function or an expression, not %s.",
                    if (nzchar(nm)) nm else deparse1(e), describe_value(e)))
    }
    if (is.symbol(e)) {
      val <- tryCatch(eval(e, env), error = function(err) NULL)
      if (is.function(val) || (is.character(val) && length(val) == 1L)) {
        return(measure_version_value(val, if (nzchar(nm)) nm else as.character(e), env))
      }
    }
    if (is.call(e) && identical(e[[1L]], as.name("function"))) {
      return(measure_version_value(eval(e, env), if (nzchar(nm)) nm else deparse1(e), env))
    }
    list(name = if (nzchar(nm)) nm else deparse1(e), kind = "expression",
         what = e, label = deparse1(e))
  })
  measure_version_names(out)
}

# A single unnamed argument is looked at as a possible list of versions only
# when it is a variable or a call to list() or c(): other expressions are
# code to time and must not be run here.
measure_is_list_expr <- function(e) {
  is.symbol(e) ||
    (is.call(e) && is.symbol(e[[1L]]) &&
       as.character(e[[1L]]) %in% c("list", "c", "setNames", "structure"))
}

measure_version_value <- function(val, nm, env, quoted = FALSE) {
  if (is.character(val)) {
    if (length(val) != 1L || is.na(val) || !nzchar(val)) {
      abort(sprintf("Version `%s`: a command must be a single non-empty string.", nm))
    }
    check_command_text(val, sprintf("Version `%s`", bytes_safe(nm)))
    return(list(name = if (nzchar(nm)) nm else val, kind = "command", what = val,
                label = val))
  }
  if (is.function(val)) {
    return(list(name = nm, kind = "function", what = val,
                label = paste(deparse(val), collapse = " ")))
  }
  if (quoted && (is.language(val))) {
    return(list(name = nm, kind = "expression", what = val, label = deparse1(val)))
  }
  abort(sprintf("Version `%s` must be a command (string), a function or an expression, not %s.",
                nm, describe_type(val)))
}

measure_version_names <- function(out) {
  nms <- vapply(out, `[[`, "", "name")
  if (anyDuplicated(nms)) {
    abort(sprintf("Versions must have distinct names; \"%s\" is repeated.",
                  nms[anyDuplicated(nms)]))
  }
  out
}
