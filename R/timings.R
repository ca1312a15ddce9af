# The speedup_timings class (SPEC section 7): run times in long form, one row
# per run, as the importers (import-*.R), as_timings() and measure() return
# them and as every analysis accepts them.
#
# Columns:
#   benchmark  character: the benchmark (one per program or test case);
#   version    factor: the version of the code, levels in the source's order
#              (the first level is the initial code unless `initial =` says
#              otherwise);
#   time       double: seconds (per iteration when the tool repeats an
#              operation inside a run);
#   run        integer: the run's position in the order the tool recorded
#              it.  When attr(, "run_order") is "global", runs are counted
#              within the benchmark across all its versions (so whether the
#              versions were interleaved can be read off); when it is
#              "sample", they are counted within each (benchmark, version)
#              sample only (separate files, tools that do not tell).
#   process    optional: the operating-system process that produced the run
#              (runs with the same label within a benchmark shared it;
#              NA = unknown), see replication.R;
#   round      optional integer: the interleaved round of the run;
#   ...        whatever the source has: user, sys, max_rss, exit_status,
#              timestamp (POSIXct), iterations, ...
# Attributes:
#   source     character: the tool or function the runs came from;
#   run_order  "global" or "sample", as above;
#   files      the files read, when any; machine: a list describing the
#              computer (measure()).

# Builds a speedup_timings object from its columns.  `version` keeps the
# order of its factor levels, or the order of first appearance.
new_speedup_timings <- function(benchmark, version, time, run = NULL, ...,
                                source = "data frame",
                                run_order = c("sample", "global"),
                                attrs = list()) {
  run_order <- check_choice(run_order, c("sample", "global"), "run_order")
  n <- length(time)
  # rep_len() copies even a vector of the right length (and drops its
  # attributes: a factor becomes its codes)
  if (length(benchmark) != n || !is.null(attributes(benchmark))) {
    benchmark <- rep_len(benchmark, n)
  }
  benchmark <- as.character(benchmark)
  version <- if (is.factor(version)) {
    if (length(version) != n) version <- rep_len(version, n)
    if (factor_levels_clean(version)) version else droplevels(version)
  } else {
    if (length(version) != n || !is.null(attributes(version))) {
      version <- rep_len(version, n)
    }
    version <- as.character(version)
    factor(version, levels = unique(version))
  }
  time <- as.double(time)
  if (is.null(run)) {
    run <- if (run_order == "global") run_within(benchmark) else
      run_within(benchmark, as.integer(version))
  }
  df <- data.frame(benchmark = benchmark, version = version, time = time,
                   run = as.integer(run), stringsAsFactors = FALSE)
  extra <- list(...)
  for (nm in names(extra)) {
    v <- extra[[nm]]
    df[[nm]] <- if (length(v) == n && is.null(attributes(v))) v else rep_len(v, n)
  }
  # the process and round columns need checking only when they are not
  # plain labels and whole numbers already (check_structure_columns()
  # allocates two vectors the length of the table)
  p <- df[["process"]]
  if (!is.null(df[["round"]]) ||
      (!is.null(p) && (!is.atomic(p) || is.factor(p) || is.logical(p) ||
                       is.complex(p) || is.raw(p)))) {
    df <- check_structure_columns(df)
  }
  attr(df, "source") <- source
  attr(df, "run_order") <- run_order
  for (nm in names(attrs)) {
    attr(df, nm) <- if (nm == "problems") rbind(attrs[[nm]], attr(df, nm)) else attrs[[nm]]
  }
  class(df) <- c("speedup_timings", "data.frame")
  df
}

is_speedup_timings <- function(x) inherits(x, "speedup_timings")

# TRUE when droplevels(f) would return the factor `f` as it is: a plain
# factor (integer codes, its levels and class its only attributes) whose
# levels are all used and not NA.  Counting the codes costs far less than
# droplevels(), which converts the codes to text and back.
factor_levels_clean <- function(f) {
  a <- attributes(f)
  typeof(f) == "integer" && length(a) == 2L && identical(a$class, "factor") &&
    is.character(a$levels) && !anyNA(a$levels) &&
    (factor_in_order(f) || all(tabulate(f, length(a$levels)) > 0L))
}

# TRUE when the codes of the factor `f` are 1, ..., k in order (every level
# used, the levels in the order the values first appear), in one pass of C.
factor_in_order <- function(f) {
  .Call(ffi_codes_in_order, f, length(attr(f, "levels")))
}

# The per-sample run order of a timings object: for each row, its position
# within its (benchmark, version) sample, in recorded order.
timings_sample_run <- function(t) {
  key <- paste(t$benchmark, as.integer(t$version), sep = "\r")
  o <- order(key, t$run)
  pos <- integer(nrow(t))
  pos[o] <- stats::ave(seq_along(o), key[o], FUN = seq_along)
  pos
}
