# plan_runs(): the runs (and processes) needed to see a given change, by
# simulation from the observed samples (SPEC section 10).  The simulation
# is st_power_sim in src/tolerance.c.

#' How many runs are needed to detect a given speedup
#'
#' Finds the smallest number of runs of each version with which the
#' Speedup-Test protocol ([median_test()] or [mean_test()], with the same
#' `alpha`, `min_speedup` and `rigorous`) declares a true speedup of
#' `speedup` with probability at least `power`.
#'
#' The power at a number of runs is found by simulation from the observed
#' samples: each replicate draws the runs with replacement from the observed
#' run times of each version, brought to one location (for the mean
#' protocol, `x / mean(x)` and `y / mean(y)`; for the median protocol, whose
#' rank test sees the shift of the whole distribution, `y` is moved by the
#' Hodges-Lehmann estimate of the shift of the log times onto `x`), divides
#' the new code's by `speedup`,
#' and runs the whole protocol (its checks, its rigorous stop and its final
#' test against the tolerance) on them.  The search doubles the number of
#' runs until the power is reached, then bisects; every number of runs is
#' tried on replicates drawn from the same random stream, so the estimated
#' power grows smoothly with the runs.  The random numbers are the package's
#' own generator (in C), seeded by `seed`: R's random number stream
#' (`.Random.seed`) is neither used nor changed, and the same call gives the
#' same answer.
#'
#' A speedup below 1 plans for a slowdown of that size (the protocol must
#' declare the slowdown).  A change within the tolerance (between
#' `1 / min_speedup` and `min_speedup`) can never be declared: an error.
#'
#' **Processes.**  When `x` holds timings with a `process` column and
#' several runs in a process, the process is the unit of replication (the
#' runs of one process are not independent replicates): the protocol runs
#' on the per-process centres, and the answer is the number of processes of
#' each version (`processes`), with `runs` = processes times the typical
#' runs per process observed.
#'
#' The estimate is as good as the samples are representative: with few
#' runs the spread they show is itself uncertain (a pilot of 30 runs can
#' misjudge the runs needed by a third).
#'
#' @param x Run times of the initial code, a formula, timings (as in
#'   [median_test()]), or a `speedup_verdict` (its samples, test, alpha and
#'   tolerance are used unless given).
#' @param y Run times of the new code (with numeric `x`).
#' @param speedup The true speedup to detect (old time / new time): 1.01 is
#'   a 1 % speedup.
#' @param power The probability of declaring it.
#' @param test The protocol, by name (see [speeduptest_protocols]):
#'   `"median"` (default), `"mean"`, ....
#' @param alpha The protocol's risk level.
#' @param min_speedup The protocol's tolerance (see [tolerance]).
#' @param rigorous As in [median_test()].
#' @param reps Replicates per number of runs tried (the standard error of a
#'   power of 0.8 is 0.4 / sqrt(reps)).
#' @param max_runs The largest number of runs of each version tried. The
#'   work is bounded before the search starts: a search that could draw
#'   more than 4e9 run times (`reps * 2 * max_runs * (2 + log2(max_runs))`,
#'   about five minutes) is refused; the search checks for interrupts.
#' @param seed Seed of the simulation's own random numbers.
#' @param data,initial,benchmark,versions,na_rm With a formula or timings
#'   `x`, as in [median_test()].
#' @return An object of class `speedup_plan`: a list with `runs` (of each
#'   version; `NA` when even `max_runs` do not reach the power),
#'   `processes` (`NA` without processes), `power` (the simulated power at
#'   `runs`), `speedup`, `target_power`, `test`, `alpha`, `min_speedup`,
#'   `reps`, `seed`, `n`, `m` (the observed sizes) and `unit` (`"run"` or
#'   `"process"`).  It prints as a sentence.
#' @seealso [tolerance] (the `detectable` speedup of a verdict).
#' @examples
#' set.seed(7)
#' old <- rlnorm(40, log(10), 0.02)
#' new <- rlnorm(40, log(10), 0.02)
#' plan_runs(old, new, speedup = 1.02, reps = 200)
#' @export
plan_runs <- function(x, y = NULL, speedup = 1.01, power = 0.8,
                      test = protocol_choices(), alpha = 0.05,
                      min_speedup = 1, rigorous = TRUE, reps = 1000L,
                      max_runs = 10000L, seed = 1L, data = NULL,
                      initial = NULL, benchmark = NULL, versions = NULL,
                      na_rm = FALSE) {
  process <- NULL
  if (inherits(x, "speedup_verdict")) {
    v <- x
    if (missing(test)) test <- v$test
    if (missing(alpha)) alpha <- v$alpha
    if (missing(min_speedup) && !is.null(v$min_speedup)) min_speedup <- v$min_speedup
    if (missing(rigorous)) rigorous <- v$rigorous
    x <- v$x
    y <- v$y
  } else {
    na_rm <- check_flag(na_rm, "na_rm")
    if (inherits(x, "speedup_timings") && !is.null(x[["process"]])) {
      process <- timings_process_pair(x, benchmark, versions, initial)
    }
    parts <- pair_samples(x, y, data, na_rm, initial, benchmark, versions)
    x <- parts$x
    y <- parts$y
  }
  test <- check_choice(test, protocol_choices(), "test")
  alpha <- check_alpha(alpha)
  rigorous <- check_flag(rigorous, "rigorous")
  min_speedup <- check_min_speedup(min_speedup)
  speedup <- check_positive(speedup, "speedup")
  if (speedup <= min_speedup && speedup >= 1 / min_speedup) {
    abort(sprintf("`speedup` = %s is within the tolerance (`min_speedup` = %s): no number of runs declares it; ask for a change beyond %s.",
                  format(speedup), format(min_speedup), format(min_speedup)))
  }
  power <- check_between(power, "power", alpha, 1)
  reps <- check_whole(reps, "reps", 20, plan_max_draws)
  max_runs <- check_whole(max_runs, "max_runs", 3, plan_max_draws)
  check_plan_work(reps, max_runs)
  seed <- check_number(seed, "seed")
  x <- check_sample(x, "x", na_rm = na_rm, min_n = 2L, positive = TRUE)
  y <- check_sample(y, "y", na_rm = na_rm, min_n = 2L, positive = TRUE)
  n_obs <- length(x)
  m_obs <- length(y)
  per_process <- NA_real_
  unit <- "run"
  if (!is.null(process)) {
    centre <- protocol_info(test)$centre_fun
    px <- split(process$x, process$px)
    py <- split(process$y, process$py)
    if (length(px) >= 2L && length(py) >= 2L &&
        max(lengths(c(px, py))) > 1L) {
      x <- vapply(px, centre, 0)
      y <- vapply(py, centre, 0)
      per_process <- stats::median(lengths(c(px, py)))
      unit <- "process"
    }
  }
  r <- plan_samples(x, y, test)
  want <- if (speedup > 1) 1L else 2L
  sim <- function(k) {
    k <- as.double(k)
    res <- .Call(ffi_power_sim, r$x, r$y, as.double(speedup), protocol_code(test),
                 alpha, rigorous, min_speedup, want, k, k, as.double(reps), seed,
                 r$smooth)
    check_status(res, "plan_runs()")
    res$power
  }
  found <- plan_search(sim, power, max_runs)
  runs <- found$runs
  achieved <- found$power
  processes <- NA_real_
  if (unit == "process") {
    processes <- runs
    runs <- runs * per_process
  }
  structure(list(runs = runs, processes = processes, power = achieved,
                 speedup = speedup, target_power = power, test = test,
                 alpha = alpha, min_speedup = min_speedup, reps = reps,
                 seed = seed, n = n_obs, m = m_obs, unit = unit,
                 max_runs = max_runs, runs_per_process = per_process),
            class = "speedup_plan")
}

# The run times plan_runs() may draw in one call (about 75 ns each: some 5
# minutes of CPU), and the bound on its work checked before it starts.
plan_max_draws <- 4e9

# The search tries the sizes 3, 6, 12, ... up to max_runs, then bisects
# (at most log2(max_runs) sizes below the last): at most
# reps * 2 * max_runs * (2 + log2(max_runs)) run times are drawn.  Refused
# before anything runs when that passes plan_max_draws.
check_plan_work <- function(reps, max_runs) {
  draws <- reps * 2 * max_runs * (2 + log2(max_runs))
  if (draws > plan_max_draws) {
    abort(sprintf("`reps` = %s with `max_runs` = %s would simulate up to %s run times, more than the %s plan_runs() allows (about %s minutes); lower `max_runs` or `reps`.",
                  format(reps, big.mark = ",", scientific = FALSE),
                  format(max_runs, big.mark = ",", scientific = FALSE),
                  format(signif(draws, 2)), format(plan_max_draws),
                  format(round(plan_max_draws * 75e-9 / 60))),
          class = "input")
  }
  invisible(draws)
}

# The smallest number of runs whose simulated power sim(k) reaches
# `power`.  At most plan_small_runs runs the rigorous protocols may stop
# ("insufficient data": Shapiro-Wilk or Kolmogorov-Smirnov reject more
# often as the runs grow), so the power need not grow with the runs there:
# every size from 3 to plan_small_runs is simulated (one call), and the
# smallest that reaches the power is the answer.  Beyond it no stop
# applies and the power grows with the runs: doubling, then bisection on
# whole numbers of runs.  list(runs, power): runs NA when max_runs do not
# reach the power (power: the power at max_runs).
plan_search <- function(sim, power, max_runs) {
  small <- seq.int(3, min(plan_small_runs, max_runs))
  p_small <- sim(small)
  hit <- which(p_small >= power)
  if (length(hit)) return(list(runs = small[hit[1L]], power = p_small[hit[1L]]))
  lo <- max(small)
  if (lo >= max_runs) return(list(runs = NA_real_, power = p_small[length(small)]))
  hi <- min(max_runs, 2 * lo)
  p_hi <- sim(hi)
  while (p_hi < power && hi < max_runs) {
    lo <- hi
    hi <- min(max_runs, hi * 2)
    p_hi <- sim(hi)
  }
  if (p_hi < power) return(list(runs = NA_real_, power = p_hi))
  while (hi - lo > 1) {
    mid <- floor((lo + hi) / 2)
    p_mid <- sim(mid)
    if (p_mid >= power) {
      hi <- mid
      p_hi <- p_mid
    } else {
      lo <- mid
    }
  }
  list(runs = hi, power = p_hi)
}

# The rigorous protocols stop with 30 runs or fewer of a sample that fails
# their check (ST_SMALL_RUNS in src/protocol.c: "large" is more than 30):
# the sizes up to 31 are all simulated.
plan_small_runs <- 31

# The two samples the simulation draws from, brought to one location as
# the protocol's final test sees location, and the smoothing of the
# smoothed bootstrap (src/tolerance.c): the mean protocol by the means
# (each sample's log times shrink toward their own mean, and the factor a
# gives the law drawn from the mean 1 exactly); the median protocol (a
# rank test) by the Hodges-Lehmann shift of the log times, so that the
# versions drawn differ by exactly the speedup asked for (centring each
# sample on its own median would leave a spurious shift between them of
# the order of the noise / sqrt(runs)), both shrinking toward one point,
# which keeps that shift.
plan_samples <- function(x, y, test) protocol_call(test, "plan_samples", x, y)

plan_samples_mean <- function(x, y) {
  x <- x / mean(x)
  y <- y / mean(y)
  list(x = x, y = y,
       smooth = c(plan_smooth(x, mean(log(x)), TRUE),
                  plan_smooth(y, mean(log(y)), TRUE)))
}

plan_samples_median <- function(x, y) {
  hl <- wilcoxon_test(log(x), log(y), conf_int = TRUE)$estimate[[1L]]
  mx <- stats::median(x)
  x <- x / mx
  y <- y * exp(hl) / mx
  c0 <- mean(log(c(x, y)))
  list(x = x, y = y, smooth = c(plan_smooth(x, c0), plan_smooth(y, c0)))
}

# The smoothed bootstrap's {c0, k, h, a} for the relative run times r (see
# src/tolerance.c): the bandwidth h of the log times by Silverman's rule
# (0.9 min(sd, IQR / 1.34) n^(-1/5); the sd when the IQR is 0), the shrink
# k that gives the drawn log times the observed sd, and a = 1, or with
# keep_mean the factor that makes the mean of the law drawn from 1
# (E exp(k h Z) = exp((k h)^2 / 2)).
plan_smooth <- function(r, c0, keep_mean = FALSE) {
  l <- log(r)
  s <- if (length(l) >= 2L) stats::sd(l) else 0
  if (!is.finite(s)) s <- 0
  spread <- min(s, stats::IQR(l) / 1.34)
  if (!(spread > 0)) spread <- s
  h <- 0.9 * spread * length(l)^(-1 / 5)
  sn2 <- mean((l - c0)^2)
  k <- if (sn2 + h^2 > 0) s / sqrt(sn2 + h^2) else 1
  a <- if (keep_mean) 1 / (mean(exp(c0 + k * (l - c0))) * exp((k * h)^2 / 2)) else 1
  c(c0, k, h, a)
}

# With timings holding a `process` column: the two samples with the
# process of each run.
timings_process_pair <- function(t, benchmark, versions, initial) {
  df <- as.data.frame(unclass(t), stringsAsFactors = FALSE)
  bs <- unique(as.character(df$benchmark))
  if (is.null(benchmark)) {
    if (length(bs) != 1L) return(NULL)
    benchmark <- bs
  }
  df <- df[df$benchmark == benchmark, , drop = FALSE]
  lev <- if (!is.null(versions)) versions else {
    l <- if (is.factor(df$version)) levels(droplevels(df$version)) else unique(as.character(df$version))
    if (!is.null(initial)) c(initial, setdiff(l, initial)) else l
  }
  if (length(lev) < 2L) return(NULL)
  ix <- df$version == lev[1L]
  iy <- df$version == lev[2L]
  list(x = df$time[ix], px = df$process[ix], y = df$time[iy], py = df$process[iy])
}

#' @rdname plan_runs
#' @param ... Ignored.
#' @export
format.speedup_plan <- function(x, ...) {
  what <- if (x$speedup >= 1) sprintf("a %s speedup", fmt_change(x$speedup))
          else sprintf("a %s slowdown", fmt_change(1 / x$speedup))
  tol <- if (x$min_speedup != 1) sprintf(", tolerance %s", fmt_change(x$min_speedup)) else ""
  head <- if (is.na(x$runs)) {
    sprintf("More than %s runs of each version would be needed to detect %s with probability %s.",
            format(x$max_runs), what, format(x$target_power))
  } else if (x$unit == "process") {
    sprintf("About %s processes of each version (%s runs, %s a process) would detect %s with probability %s.",
            format(x$processes), format(x$runs), format(x$runs_per_process), what,
            format(x$target_power))
  } else {
    sprintf("About %s runs of each version would detect %s with probability %s.",
            format(x$runs), what, format(x$target_power))
  }
  c(strwrap(head, width = 79),
    strwrap(sprintf("(Speedup-Test for the %s at alpha = %s%s; simulated power %s from %s replicates resampled from the %d and %d observed %ss, seed %s.)",
                    protocol_info(x$test)$label, format(x$alpha), tol,
                    fmt_num(x$power, 3L), format(x$reps),
                    x$n, x$m, x$unit, format(x$seed)), width = 79))
}

#' @rdname plan_runs
#' @export
print.speedup_plan <- function(x, ...) {
  cat(esc_text(format(x)), sep = "\n")
  invisible(x)
}

# The printed advice of a verdict that declares nothing: how many runs
# would detect a change 1 % beyond the tolerance (plan_runs() with fewer
# replicates; "" when the data could already detect it).
plan_advice <- function(v) {
  d <- v$detectable
  s0 <- if (is.null(v$min_speedup)) 1 else v$min_speedup
  target <- s0 * 1.01
  if (is.null(d) || is.na(d) || d <= target || v$n < 2L || v$m < 2L) return(character())
  # The runs from the normal approximation `detectable` rests on (a print
  # stays instant; plan_runs() simulates from the observed runs): the
  # standard error scales as sqrt(1/n + 1/m), and the detectable change
  # in the protocol's scale (plan_effect: log(s / s0) for the median,
  # 1 - s0 / s for the mean) in it.
  g <- function(s) protocol_call(v$test, "plan_effect", v, s, s0)
  ratio <- g(target) / g(d)
  k <- ceiling(2 / ((1 / v$n + 1 / v$m) * ratio^2))
  if (!is.finite(k) || k > 1e7) {
    return(sprintf("more than 10 million runs of each would be needed to detect a %s speedup",
                   fmt_change(target)))
  }
  sprintf("about %s runs of each would detect a %s speedup (plan_runs() simulates it)",
          format(k, big.mark = ","), fmt_change(target))
}

plan_effect_median <- function(v, s, s0) log(s / s0)

plan_effect_mean <- function(v, s, s0) 1 - s0 / s
