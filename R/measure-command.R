# How measure() starts a command: directly (its words split and its program
# found in the PATH) or by `/bin/sh -c`, through the launcher st-launch
# (src/launcher) when it is installed.  The spawn and timing are in
# src/measure.c.

# How a command is run: list(launch = "direct", path, args) with the program
# found in the PATH, or list(launch = "shell", path = NULL, args = cmd).
measure_command_launch <- function(cmd, shell = "auto", name = NULL) {
  as_shell <- list(launch = "shell", path = NULL, args = cmd)
  if (shell == "always") return(as_shell)
  words <- .Call(ffi_split_command, cmd)
  if (is.null(words)) {
    if (shell == "never") {
      abort(sprintf(paste0("Version `%s`: `%s` needs the shell (it has shell syntax or ",
                           "a builtin), and `.shell = \"never\"`."), name, cmd))
    }
    return(as_shell)
  }
  prog <- words[1L]
  path <- measure_find_program(prog)
  if (!nzchar(path)) {
    # not found: the shell reports it (exit status 127)
    if (shell == "never") {
      abort(sprintf("Version `%s`: the program `%s` was not found.", name, prog),
            class = c("command_not_found", "command"))
    }
    return(as_shell)
  }
  list(launch = "direct", path = path, args = words)
}

# The file a program name stands for, as execvp() would find it: a name
# with a slash as it is, else the first executable file of that name in the
# directories of PATH (an empty entry is the working directory); "" when
# there is none.
measure_find_program <- function(prog) {
  if (!nzchar(prog) || nchar(prog, "bytes") > 4096L) return("")
  ok <- function(f) file.exists(f) && !dir.exists(f) && file.access(f, 1L) == 0L
  if (grepl("/", prog, fixed = TRUE)) return(if (ok(prog)) prog else "")
  dirs <- strsplit(Sys.getenv("PATH"), ":", fixed = TRUE)[[1L]]
  for (d in dirs) {
    f <- if (nzchar(d)) file.path(d, prog) else prog
    if (ok(f)) return(f)
  }
  ""
}

measure_launch <- function(versions, shell) {
  lapply(versions, function(v) {
    if (v$kind != "command") return(c(v, list(launch = "R")))
    c(v, measure_command_launch(v$what, shell, v$name))
  })
}

measure_launch_hook <- function(hook) {
  if (is.null(hook) || hook$kind != "command") return(hook)
  c(hook, measure_command_launch(hook$what, "auto", hook$name))
}

# The launcher of the commands (src/launcher/st-launch.c), NA when it is not
# installed (then peaks below R's own are unknown).
measure_launcher <- function() {
  libs <- if (nzchar(.Platform$r_arch)) file.path("libs", .Platform$r_arch) else "libs"
  path <- system.file(libs, "st-launch", package = "speeduptest")
  if (!nzchar(path) || file.access(path, 1L) != 0L) return(NA_character_)
  path
}

# Runs a command as measure_command_launch() decided: the result of
# ffi_run_command.
measure_spawn <- function(v, ctx) {
  if (!is.null(ctx$server)) {
    return(.Call(ffi_launcher_run, ctx$server, v$path, v$args, ctx$output, ctx$timeout))
  }
  .Call(ffi_run_command, v$path, v$args, ctx$output, ctx$timeout, ctx$timer$launcher)
}

# The commands the launcher may run in a measurement, numbered: the
# versions that are commands, the hooks that are commands and the shell's
# calibration commands.  Each of them gets its number as `cmd_id`; the
# table (`paths`, NA for the shell, and `args`) goes with every batch.
measure_command_table <- function(ctx) {
  paths <- character()
  args <- list()
  add <- function(v) {
    if (is.null(v) || !identical(v$kind %||% "command", "command")) return(v)
    paths[length(paths) + 1L] <<- if (is.null(v$path)) NA_character_ else v$path
    args[[length(args) + 1L]] <<- as.character(v$args)
    v$cmd_id <- length(paths)
    v
  }
  ctx$versions <- lapply(ctx$versions, add)
  ctx$setup <- add(ctx$setup)
  ctx$cleanup <- add(ctx$cleanup)
  sp <- ctx$timer$shell$spawn
  if (!is.null(sp)) {
    ctx$timer$shell$spawn$shell <- add(sp$shell)
    if (!is.null(sp$direct)) ctx$timer$shell$spawn$direct <- add(sp$direct)
  }
  ctx$commands <- list(paths = paths, args = args)
  # R code: the calls ffi_eval_runs() evaluates, and each version's number
  r <- vapply(ctx$versions, function(v) v$kind != "command", TRUE)
  ctx$r_calls <- lapply(ctx$versions[r], measure_r_call)
  ctx$r_id <- rep(NA_integer_, length(ctx$versions))
  ctx$r_id[r] <- seq_len(sum(r))
  ctx
}
