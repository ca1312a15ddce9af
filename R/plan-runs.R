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
#' samples, a smoothed bootstrap: each replicate draws runs with
#' replacement from the observed run times of each version, brought to one
#' location (for the mean protocol, `x / mean(x)` and `y / mean(y)`; for
#' the median protocol, whose rank test sees the shift of the whole
#' distribution, `y` is moved by the Hodges-Lehmann estimate of the shift
#' of the log times onto `x`), adds to each log time a normal kernel of
#' Silverman's bandwidth (half of it for the median protocol, whose rank
#' tests only need the ties broken) and shrinks it so that the drawn log
#' times keep the observed spread (Silverman 1986, section 6.4.1), divides
#' the new code's by `speedup`, and runs the whole protocol (its checks, its
#' rigorous stop and its final test against the tolerance) on them.  The
#' spread the samples show is itself uncertain, so each replicate first
#' draws its spread from the law of the true spread given the observed one
#' (a scaled inverse chi-square on `n + m - 2` degrees of freedom): the
#' power is the assurance of O'Hagan, Stevens and Campbell (2005), the
#' power averaged over the spreads the samples could have come from, and a
#' plan from a pilot of 10 runs reaches the power on average instead of
#' falling short of it.  For the mean protocol, whose t-test sees the
#' spread through the variance, the degrees of freedom are those of the
#' chi-square with the variance of the pooled variance given the samples'
#' kurtosis (`2 / (2 / df + kappa c)`, Box 1954; O'Neill 2014): a few
#' heavy-tailed runs misjudge their spread more often than normal runs do
#' (pilots of 10 Student-t3 runs planned for a power of 0.69-0.73 with
#' `n + m - 2`).  The median protocol's rank tests keep `n + m - 2`.
#' Resampling the runs themselves would give the protocol ties the real
#' runs do not have (a resample of 30 from 30 repeats about 11 values),
#' which Shapiro-Wilk and the rank tests see, and the rigorous protocol
#' would stop far more often than it will.
#'
#' With 30 runs or fewer the rigorous protocols may stop ("insufficient
#' data"), so the power need not grow with the runs there: every size from
#' 3 to 31 runs is simulated and the smallest that reaches the power is
#' the answer.  Beyond 31 runs only the final test decides: the search
#' doubles the number of runs until the power is reached, then bisects.
#' When the final test's normal approximation (as `detectable` uses it,
#' see [tolerance]) needs more than 100 runs, that is the answer
#' (`method = "normal"`): the test is then in its normal regime, and
#' simulating thousands of runs would take minutes.  For the mean
#' protocol the approximation's power is averaged over the same law of the
#' spread as the simulation's (the assurance, by quadrature over 512
#' quantiles of the chi-square), so the two methods plan for the same
#' thing.  The median protocol's approximation is made on the very law its
#' simulation draws from: the power of the rank-sum test of k runs of each
#' is about `pnorm((p - 1/2) * sqrt(12 k^2 / (2 k + 1)) - qnorm(1 - alpha))`
#' (Noether 1987), with `p` the probability that a run of the initial code
#' is slower than one of the new code in that law (exact for the smoothed
#' bootstrap's mixture of normals), averaged over the same law of the
#' spread.  (Its standard error is not read off the pilot's
#' Hodges-Lehmann interval: from 10 + 10 runs of a skewed or peaked law the
#' exact interval spans differences far from the peak and overstates it,
#' and such pilots planned for a power near 0.96 beyond 100 runs.)  Every
#' number of runs
#' is tried on replicates drawn from the same random stream, so the
#' estimated power grows smoothly with the runs.  The random numbers are
#' the package's own generator (in C), seeded by `seed`: R's random number
#' stream (`.Random.seed`) is neither used nor changed, and the same call
#' gives the same answer.
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
#' runs per process observed.  A verdict whose unit is the process plans
#' processes the same way.
#'
#' The estimate is as good as the samples are representative: with few
#' runs the spread they show is itself uncertain (a pilot of 30 runs can
#' misjudge the runs needed by a third).
#'
#' @param x Run times of the initial code, a formula, timings (as in
#'   [median_test()]), or a `speedup_verdict` (its samples, unit of
#'   replication, test, alpha and tolerance are used unless given; the
#'   `speedup` is then by default 1 % beyond its tolerance: the plan its
#'   printed advice states).
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
#'   `runs`; the target with `method = "normal"`), `method`
#'   (`"simulation"` or `"normal"`), `speedup`, `target_power`, `test`, `alpha`, `min_speedup`,
#'   `reps`, `seed`, `n`, `m` (the observed sizes) and `unit` (`"run"` or
#'   `"process"`).  It prints as a sentence.
#' @references
#' Box, G. E. P. (1954). Some theorems on quadratic forms applied in the
#' study of analysis of variance problems, I. *The Annals of Mathematical
#' Statistics*, 25(2), 290-302.
#'
#' Joanes, D. N. and Gill, C. A. (1998). Comparing measures of sample
#' skewness and kurtosis. *Journal of the Royal Statistical Society D*,
#' 47(1), 183-189.
#'
#' Noether, G. E. (1987). Sample size determination for some common
#' nonparametric tests. *Journal of the American Statistical Association*,
#' 82(398), 645-647.
#'
#' O'Hagan, A., Stevens, J. W. and Campbell, M. J. (2005). Assurance in
#' clinical trial design. *Pharmaceutical Statistics*, 4(3), 187-201.
#'
#' O'Neill, B. (2014). Some useful moment results in sampling problems.
#' *The American Statistician*, 68(4), 282-296.
#'
#' Silverman, B. W. (1986). *Density Estimation for Statistics and Data
#' Analysis*. Chapman and Hall, London.
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
  call <- match.call()
  call[[1L]] <- plan_runs_impl
  eval(call, parent.frame())
}

# plan_runs() itself; normal_k, when given, is the final test's normal
# plan already made for these samples and arguments (plan_advice_many()
# makes many in one call), used instead of making it again.
plan_runs_impl <- function(x, y = NULL, speedup = 1.01, power = 0.8,
                           test = protocol_choices(), alpha = 0.05,
                           min_speedup = 1, rigorous = TRUE, reps = 1000L,
                           max_runs = 10000L, seed = 1L, data = NULL,
                           initial = NULL, benchmark = NULL, versions = NULL,
                           na_rm = FALSE, normal_k = NULL) {
  process <- NULL
  from_verdict <- NULL
  if (inherits(x, "speedup_verdict")) {
    v <- x
    if (missing(test)) test <- v$test
    if (missing(alpha)) alpha <- v$alpha
    if (missing(min_speedup) && !is.null(v$min_speedup)) min_speedup <- v$min_speedup
    if (missing(rigorous)) rigorous <- v$rigorous
    if (missing(speedup)) speedup <- plan_default_speedup(v)
    from_verdict <- verdict_plan_unit(v)
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
  if (!is.null(from_verdict)) {
    unit <- from_verdict$unit
    per_process <- from_verdict$runs_per_process
  }
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
      n_obs <- length(x)
      m_obs <- length(y)
    }
  }
  # the samples the simulation draws from, made when a size is simulated
  # (a plan by the normal approximation alone never draws)
  delayedAssign("r", plan_samples(x, y, test))
  want <- if (speedup > 1) 1L else 2L
  sim <- function(k) {
    k <- as.double(k)
    res <- .Call(ffi_power_sim, r$x, r$y, as.double(speedup), protocol_code(test),
                 alpha, rigorous, min_speedup, want, k, k, as.double(reps), seed,
                 r$smooth)
    check_status(res, "plan_runs()")
    res$power
  }
  big <- function() {
    if (!is.null(normal_k)) return(normal_k)
    tryCatch(plan_normal(x, y, test, speedup, power, alpha, min_speedup, rigorous,
                         df = r$normal_df, samples = r),
             speeduptest_error = function(e) NA_real_)
  }
  found <- plan_search(sim, power, max_runs, big)
  runs <- found$runs
  achieved <- found$power
  processes <- NA_real_
  if (unit == "process") {
    processes <- runs
    runs <- ceiling(runs * per_process)
  }
  structure(list(runs = runs, processes = processes, power = achieved,
                 method = found$method,
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
# applies, only the final test decides, and the power grows with the runs:
# when the normal approximation of that test (big(), the runs at which it
# reaches the power) asks for more than plan_sim_runs, it is the answer
# (the test is then in its normal regime, and simulating thousands of runs
# would take minutes); else doubling, then bisection on whole numbers of
# runs (from plan_small_runs: the sizes up to it are skipped when the
# approximation asks for more than twice as many).  list(runs, power, method): runs NA when max_runs do not reach the
# power (power: the power at max_runs).
plan_search <- function(sim, power, max_runs, big = NULL) {
  out <- function(runs, p, method = "simulation") {
    list(runs = runs, power = p, method = method)
  }
  k <- if (is.null(big)) NA_real_ else big()
  # the approximation finds that no number of runs reaches the power (Inf:
  # the law drawn from has the new version no faster, P[X > Y] <= 1/2,
  # for too many of the spreads it could have): the simulation, drawing
  # from that law, would try every size up to max_runs in vain (seconds to
  # minutes of a verdict's advice)
  if (identical(k, Inf)) return(out(NA_real_, NA_real_, "normal"))
  # (a report of thousands of verdicts plans each by the approximation:
  # option speeduptest.plan_method = "normal", set by report_site())
  normal_only <- identical(getOption("speeduptest.plan_method"), "normal")
  if (is.finite(k) && (k > plan_sim_runs || normal_only)) {
    if (k > max_runs) return(out(NA_real_, NA_real_, "normal"))
    return(out(k, power, "normal"))
  }
  small <- seq.int(3, min(plan_small_runs, max_runs))
  # the stops only take power away: when the final test alone needs more
  # than twice plan_small_runs, no size up to it reaches the power
  if (is.finite(k) && k > 2 * plan_small_runs && max_runs > plan_small_runs) {
    lo <- plan_small_runs
  } else {
    p_small <- sim(small)
    hit <- which(p_small >= power)
    if (length(hit)) return(out(small[hit[1L]], p_small[hit[1L]]))
    lo <- max(small)
    if (lo >= max_runs) return(out(NA_real_, p_small[length(small)]))
  }
  hi <- min(max_runs, 2 * lo)
  p_hi <- sim(hi)
  while (p_hi < power && hi < max_runs) {
    lo <- hi
    hi <- min(max_runs, hi * 2)
    p_hi <- sim(hi)
  }
  if (p_hi < power) return(out(NA_real_, p_hi))
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
  out(hi, p_hi)
}

# Beyond this many runs plan_runs() answers by the normal approximation.
plan_sim_runs <- 100

# The runs of each version at which the protocol's final test reaches
# `power` for the change `speedup`, by the normal approximation behind a
# verdict's `detectable`, averaged over the spreads the samples could have
# come from as the simulation averages them (the assurance).  The protocol
# on the samples gives d(p), the change it detects with power p at its n
# and m runs; in the protocol's scale g (plan_effect: log(s / s0) for the
# median, 1 - s0 / s for the mean) g(d(p)) = (z_crit + z_p) se, so d at
# the powers 1/2 and pnorm(1) give the standard error se and the critical
# value z_crit of the protocol's own approximation (its t quantiles for
# the mean).  With k runs of each and the true spread sigma = w s (s the
# observed one) the standard error is se w sqrt((2 / k) / (1/n + 1/m)), and
# the power Phi(g(speedup) / that - z_crit).  The assurance averages it
# over w = sqrt(df / q), q a chi-square on the degrees of freedom of the
# observed spread the simulation uses (plan_samples()$normal_df), by the
# midpoint rule on 512 quantiles of q; it grows with k, and the smallest
# k that reaches `power` is found by bisection.  A protocol whose
# descriptor names a plan_normal_law (the median: plan_normal_rank()) is
# planned on the law its simulation draws from instead (samples: that
# plan_samples(), made here when not given).  A slowdown is planned as the
# speedup of its size.
plan_normal <- function(x, y, test, speedup, power, alpha, s0, rigorous,
                        df = NULL, samples = NULL) {
  if (!is.null(protocol_info(test)$calls$plan_normal_law)) {
    if (is.null(samples)) samples <- plan_samples(x, y, test)
    return(protocol_call(test, "plan_normal_law", samples, speedup, power,
                         alpha, s0))
  }
  if (is.null(df)) {
    df <- if (is.null(samples)) plan_samples(x, y, test)$normal_df else samples$normal_df
  }
  s <- if (speedup < 1) 1 / speedup else speedup
  fun <- protocol_fun(test, "default")
  v <- fun(x, y, alpha = alpha, rigorous = FALSE, min_speedup = s0)
  g <- function(s) protocol_call(test, "plan_effect", v, s, s0)
  d1 <- verdict_detectable(v, power = 0.5, alpha = alpha)
  d2 <- verdict_detectable(v, power = stats::pnorm(1), alpha = alpha)
  ok <- function(d) !is.null(d) && !is.na(d) && is.finite(d) && d > s0
  if (!ok(d1) || !ok(d2)) return(NA_real_)
  se <- g(d2) - g(d1)
  crit <- g(d1) / se
  if (!(se > 0) || !is.finite(crit)) return(NA_real_)
  w <- if (df > 0) sqrt(df / stats::qchisq((seq_len(512) - 0.5) / 512, df)) else 1
  h <- 1 / length(x) + 1 / length(y)
  assurance <- function(k) {
    mean(stats::pnorm(g(s) / (se * w * sqrt((2 / k) / h)) - crit))
  }
  # the runs at the observed spread, then doubled until the assurance is
  # reached (none when the power cannot be: w's law has a heavy upper tail,
  # so the assurance may stay below a power near 1)
  lo <- 1
  hi <- max(2, ceiling(2 / (h * (g(s) / (se * (crit + stats::qnorm(power))))^2)))
  while (assurance(hi) < power) {
    lo <- hi
    hi <- 2 * hi
    if (hi > 1e9) return(NA_real_)
  }
  while (hi - lo > 1) {
    mid <- floor((lo + hi) / 2)
    if (assurance(mid) >= power) hi <- mid else lo <- mid
  }
  hi
}

# A verdict's plan is for the change its advice names: 1 % beyond its
# tolerance.
plan_default_speedup <- function(v) {
  s0 <- if (is.null(v$min_speedup)) 1 else v$min_speedup
  s0 * 1.01
}

# The unit a verdict's samples count (its per-process centres with
# processes as the unit) and the runs a process had.
verdict_plan_unit <- function(v) {
  rep <- v$replication
  if (!is.null(rep) && identical(rep$unit, "process") &&
      !is.null(rep$runs) && !is.null(rep$processes)) {
    return(list(unit = "process",
                runs_per_process = sum(rep$runs) / sum(rep$processes)))
  }
  list(unit = "run", runs_per_process = NA_real_)
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
  df <- plan_df(x, y, TRUE)
  list(x = x, y = y,
       smooth = c(plan_smooth(x, mean(log(x)), TRUE),
                  plan_smooth(y, mean(log(y)), TRUE), df),
       normal_df = df)
}

# The degrees of freedom of the observed spread (each replicate draws its
# spread from the law of sigma given them: src/tolerance.c): n + m - 2 for
# normal log times.  With kurtosis = TRUE (the mean protocol, whose t-test
# sees the spread through the variance) the samples' kurtosis counts: the
# degrees of freedom of the
# chi-square that has the variance of the pooled variance s^2 (Box 1954;
# Satterthwaite's moment match).  For a sample of n with excess kurtosis
# kappa, Var(s^2) / sigma^4 = 2 / (n - 1) + kappa / n (O'Neill 2014,
# result 13); pooling the two samples (n - 1 and m - 1 degrees of freedom,
# df = n + m - 2) gives
#   Var(s_p^2) / sigma^4 = 2 / df + kappa c,
#   c = ((n - 1)^2 / n + (m - 1)^2 / m) / df^2,
# and the chi-square on df_eff = 2 / (2 / df + kappa c) degrees of freedom
# has that variance.  kappa is the pooled sample excess kurtosis of the log
# times (each sample about its own mean), with the small-sample correction
# of Joanes and Gill (1998, G2), and 0 when it is negative (a light-tailed
# pilot is not trusted to know its spread better than a normal one).  A
# heavy-tailed pilot of a few runs shows a spread well below the true one
# more often than a chi-square on df allows (of Student's t3 runs, 10 of
# each version: the plans then fell short, a power of 0.69-0.74 where 0.8
# was asked: bench/plan.R); df_eff widens the law of the true spread by
# what the pilot's own tails say.  The median protocol's rank tests do not
# see the spread through the variance (their power depends on the density,
# which a few heavy or skewed runs do not misjudge as the fourth moment
# does): n + m - 2 (with the kurtosis, skewed pilots of 10 runs planned for
# a power of 0.89).
plan_df <- function(x, y, kurtosis = FALSE) {
  n <- length(x)
  m <- length(y)
  df <- n + m - 2
  if (df <= 0) return(0)
  if (!kurtosis) return(df)
  kappa <- plan_kurtosis(log(x), log(y))
  if (!(kappa > 0)) return(df)
  cc <- ((n - 1)^2 / n + (m - 1)^2 / m) / df^2
  2 / (2 / df + kappa * cc)
}

# The pooled excess kurtosis of two samples, each about its own mean, with
# Joanes and Gill's (1998) small-sample correction G2 = ((N + 1) g2 + 6)
# (N - 1) / ((N - 2) (N - 3)) (N = n + m); NA with fewer than 4 values or
# no spread.
plan_kurtosis <- function(lx, ly) {
  d <- c(lx - mean(lx), ly - mean(ly))
  N <- length(d)
  s2 <- sum(d^2)
  if (N < 4L || !(s2 > 0)) return(NA_real_)
  g2 <- N * sum(d^4) / s2^2 - 3
  ((N + 1) * g2 + 6) * (N - 1) / ((N - 2) * (N - 3))
}

plan_samples_median <- function(x, y) {
  hl <- wilcoxon_test(log(x), log(y), conf_int = TRUE)$estimate[[1L]]
  mx <- stats::median(x)
  x <- x / mx
  y <- y * exp(hl) / mx
  c0 <- mean(log(c(x, y)))
  list(x = x, y = y, smooth = c(plan_smooth(x, c0, width = 0.5),
                                plan_smooth(y, c0, width = 0.5),
                                plan_df(x, y)),
       normal_df = 0)
}

# The smoothed bootstrap's {c0, k, h, keep} for the relative run times r
# (see src/tolerance.c): the bandwidth h of the log times by Silverman's
# rule (0.9 min(sd, IQR / 1.34) n^(-1/5); the sd when the IQR is 0), the
# shrink k that gives the drawn log times the observed sd, and keep = 1
# when the law drawn from must have the mean 1 (the core then scales it:
# E exp(k h Z) = exp((k h)^2 / 2)).  width scales the bandwidth: the
# rule's bandwidth makes the law drawn from nearly normal in shape, which
# Shapiro-Wilk must see as it will see fresh runs (the mean protocol), but
# which takes from a rank test the efficiency it has on skewed and
# heavy-tailed run times (pilots of 10 to 100 skewed runs then planned
# for a power of 0.85-0.87 instead of 0.8: bench/plan.R); the median
# protocol's rank tests only need the ties broken, at half the width.
plan_smooth <- function(r, c0, keep_mean = FALSE, width = 1) {
  l <- log(r)
  s <- if (length(l) >= 2L) stats::sd(l) else 0
  if (!is.finite(s)) s <- 0
  spread <- min(s, plan_iqr(l) / 1.34)
  if (!(spread > 0)) spread <- s
  h <- width * 0.9 * spread * length(l)^(-1 / 5)
  sn2 <- mean((l - c0)^2)
  k <- if (sn2 + h^2 > 0) s / sqrt(sn2 + h^2) else 1
  c(c0, k, h, if (keep_mean) 1 else 0)
}

# stats::IQR(l): the type-7 quantiles as quantile.default() computes them,
# without its generic path (a tenth of a plan's cost at 40 + 40 runs).
plan_iqr <- function(l) {
  index <- 1 + max(length(l) - 1, 0) * c(0.25, 0.75)
  lo <- floor(index)
  hi <- ceiling(index)
  x <- sort.int(l)
  qs <- x[lo]
  i <- which(index > lo & x[hi] != qs)
  h <- (index - lo)[i]
  qs[i] <- (1 - h) * qs[i] + h * x[hi[i]]
  qs[2L] - qs[1L]
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
  c(strwrap(paste0(plan_sentence(x), "."), width = 79),
    strwrap(sprintf("(Speedup-Test for the %s at alpha = %s%s; %s, seed %s.)",
                    protocol_info(x$test)$label, format(x$alpha),
                    if (x$min_speedup != 1) sprintf(", tolerance %s", fmt_change(x$min_speedup)) else "",
                    plan_method_words(x), format(x$seed)), width = 79))
}

# "processes" or "runs" (the unit a plan counts), by count.
plan_unit_word <- function(unit, k = 2) {
  if (identical(unit, "process")) {
    if (isTRUE(k == 1)) "process" else "processes"
  } else if (isTRUE(k == 1)) "run" else "runs"
}

# The plan as the sentence of its print and of a verdict's advice (no
# final stop): "About 28 processes of each version (84 runs, 3 a
# process) would detect a 1 % speedup with probability 0.8".
plan_sentence <- function(x, version = "version") {
  what <- if (x$speedup >= 1) sprintf("a %s speedup", fmt_change(x$speedup))
          else sprintf("a %s slowdown", fmt_change(1 / x$speedup))
  big <- function(k) format(k, big.mark = ",", scientific = FALSE)
  each <- if (nzchar(version)) paste("of each", version) else "of each"
  if (is.na(x$runs)) {
    return(sprintf("More than %s %s %s would be needed to detect %s with probability %s",
                   big(x$max_runs), plan_unit_word(x$unit), each, what,
                   format(x$target_power)))
  }
  count <- if (x$unit == "process") {
    sprintf("%s %s %s (%s runs, %s a process)", big(x$processes),
            plan_unit_word("process", x$processes), each, big(x$runs),
            format(signif(x$runs_per_process, 3)))
  } else {
    sprintf("%s %s %s", big(x$runs), plan_unit_word("run", x$runs), each)
  }
  sprintf("About %s would detect %s with probability %s", count, what,
          format(x$target_power))
}

plan_method_words <- function(x) {
  obs <- sprintf("the %d and %d observed %s", x$n, x$m, plan_unit_word(x$unit))
  if (identical(x$method, "normal")) {
    sprintf("normal approximation of the final test from %s (beyond %s %s the plan is not simulated)",
            obs, format(plan_sim_runs), plan_unit_word(x$unit))
  } else {
    sprintf("simulated power %s from %s replicates of a smoothed bootstrap of %s",
            fmt_num(x$power, 3L), format(x$reps), obs)
  }
}

#' @rdname plan_runs
#' @export
print.speedup_plan <- function(x, ...) {
  cat(esc_text(format(x)), sep = "\n")
  invisible(x)
}

# The printed advice of a verdict that declares nothing: how many runs (or
# processes) would detect a change 1 % beyond the tolerance, as
# plan_runs() of the verdict gives it with its defaults (the same plan,
# made once per verdict); nothing when the data could already detect it.
plan_advice <- function(v, normal_k = NULL) {
  if (!plan_advice_wanted(v)) return(character())
  p <- verdict_kept(v, "plan", function(v) {
    tryCatch(plan_runs_impl(v, normal_k = normal_k),
             speeduptest_error = function(e) NULL)
  })
  if (is.null(p)) return(character())
  paste0(sub("^About", "about", sub("^More", "more", plan_sentence(p, ""))),
         if (identical(p$method, "normal")) " (plan_runs(), normal approximation)"
         else " (plan_runs())")
}

# Whether a verdict's advice plans: it declares nothing and its data
# could not already detect the change 1 % beyond its tolerance.
plan_advice_wanted <- function(v) {
  d <- v$detectable
  target <- plan_default_speedup(v)
  !(is.null(d) || is.na(d) || d <= target || v$n < 2L || v$m < 2L)
}

# The advice of many verdicts, as lapply(vs, plan_advice) gives it under
# options(speeduptest.plan_method = "normal") (which it sets while it
# runs): a list of character vectors, each plan kept in its verdict as
# plan_advice() keeps it.  The normal plans of the protocols planned on
# the law their simulation draws from (the median's rank plan) are made in
# one call of the C core (plan_rank_many()); the others, and any verdict
# whose samples that plan cannot use, are planned one by one.  For
# report_site() and compare, which plan thousands of verdicts.
plan_advice_many <- function(vs) {
  op <- options(speeduptest.plan_method = "normal")
  on.exit(options(op), add = TRUE)
  inputs <- lapply(vs, function(v) {
    tryCatch(plan_advice_rank_inputs(v), error = function(e) NULL)
  })
  k <- plan_rank_many(inputs)
  lapply(seq_along(vs), function(i) {
    plan_advice(vs[[i]], normal_k = if (is.na(k[i])) NULL else k[i])
  })
}

# What plan_rank_many() needs for the plan of a verdict's advice, as
# plan_runs(v) makes it (its defaults: the change 1 % beyond the
# tolerance, power 0.8, the verdict's test and alpha); NULL when the
# advice does not plan or the verdict's protocol is not planned so.
plan_advice_rank_inputs <- function(v) {
  if (!identical(protocol_info(v$test)$calls$plan_normal_law, "plan_normal_rank") ||
      !plan_advice_wanted(v)) return(NULL)
  s0 <- if (is.null(v$min_speedup)) 1 else check_min_speedup(v$min_speedup)
  alpha <- check_alpha(v$alpha)
  x <- check_sample(v$x, "x", na_rm = FALSE, min_n = 2L, positive = TRUE)
  y <- check_sample(v$y, "y", na_rm = FALSE, min_n = 2L, positive = TRUE)
  plan_rank_inputs(plan_samples(x, y, v$test), plan_default_speedup(v), 0.8,
                   alpha, s0)
}

plan_effect_median <- function(v, s, s0) log(s / s0)

plan_effect_mean <- function(v, s, s0) 1 - s0 / s

# The median protocol's plan by the normal approximation, from the very law
# its simulation draws from (plan_samples_median(): each version's log
# times a mixture of normals, mean c0 + w k (l_i - c0) and sd w k h, w the
# spread factor).  The rank-sum test of k runs of each rejects with
# probability about Phi((p - 1/2) sqrt(12 k^2 / (2 k + 1)) - z_{1-alpha})
# (Noether 1987), p = P[X > Y / speedup] (with a tolerance s0, the test of
# the shift log s0: P[X > s0 Y / speedup]), and 12 k^2 / (2 k + 1) the
# inverse of the rank-sum statistic's null variance U / k^2.  For the
# mixtures p is exact: the mean over the pairs (i, j) of
# Phi((d_ij + t / w) / s_d), d_ij = mu_x_i - mu_y_j at w = 1, s_d the sd of
# the difference of two kernels, t = log(speedup / s0) (for a slowdown
# -d_ij and t = log(1 / (speedup s0))).  The power is averaged over the
# same law of the spread as the simulation's (the assurance: the midpoint
# rule on 512 quantiles of the chi-square on its degrees of freedom), so
# the two methods plan for the same thing and a plan does not change its
# nature where it crosses plan_sim_runs.  (The point formula from the
# Hodges-Lehmann interval of the pilot, which this replaces, overstates
# the standard error of a peaked law at a few runs: the exact interval of
# 10 + 10 runs spans the differences far from the peak; pilots of 10
# skewed runs then planned for a power of 0.96 where the approximation
# answered, bench/plan.R.)  p(t / w) is computed at 65 points of t / w
# and interpolated (monotone cubic); a sample of more than 256 values is
# represented by 256 of its quantiles.  The arithmetic is in C
# (src/plan-rank.c, one call for many plans: plan_rank_many()).  Inf when
# no number of runs up to 1e9 reaches the power, NA when none can be
# computed (no spread, or no change beyond the tolerance).
plan_normal_rank <- function(r, speedup, power, alpha, s0) {
  plan_rank_many(list(plan_rank_inputs(r, speedup, power, alpha, s0)))
}

# What the C core (src/plan-rank.c) needs of one plan: the thinned
# kernel means mu_x, mu_y of the log times, s_d, t, the direction, the
# spread factors w, z_{1-alpha} and the power; NULL when no power can be
# computed (no spread, or no change beyond the tolerance).
plan_rank_inputs <- function(r, speedup, power, alpha, s0) {
  sm <- r$smooth
  thin <- function(v) {
    if (length(v) <= 256L) return(v)
    stats::quantile(v, (seq_len(256L) - 0.5) / 256L, names = FALSE, type = 7)
  }
  sd_d <- sqrt((sm[2L] * sm[3L])^2 + (sm[6L] * sm[7L])^2)
  if (!is.finite(sd_d) || !(sd_d > 0)) return(NULL)
  slowdown <- speedup < 1
  t <- if (slowdown) log(1 / (speedup * s0)) else log(speedup / s0)
  if (!(t > 0)) return(NULL)
  list(mu_x = thin(sm[1L] + sm[2L] * (log(r$x) - sm[1L])),
       mu_y = thin(sm[5L] + sm[6L] * (log(r$y) - sm[5L])),
       sd_d = sd_d, t = t, slowdown = slowdown,
       w = plan_spread_factors(sm[9L]), z = stats::qnorm(1 - alpha),
       power = power)
}

# The plans of many plan_rank_inputs() in one call: NA where the inputs
# are NULL or the core finds them outside its domain, Inf where no number
# of runs reaches the power.
plan_rank_many <- function(inputs) {
  ok <- !vapply(inputs, is.null, NA)
  out <- rep(NA_real_, length(inputs))
  if (!any(ok)) return(out)
  a <- inputs[ok]
  col <- function(name) lapply(a, `[[`, name)
  num <- function(name) vapply(a, `[[`, 0, name)
  out[ok] <- .Call(ffi_plan_rank, col("mu_x"), col("mu_y"), num("sd_d"),
                   num("t"), vapply(a, `[[`, NA, "slowdown"), col("w"),
                   num("z"), num("power"), plan_rank_nodes)
  out
}

# The spread factors w = sqrt(df / q), q the midpoint quantiles of the
# chi-square on df degrees of freedom (512 of them; 1 when df is 0), kept
# for each df met (a report plans thousands of verdicts of a few sizes).
plan_spread_factors <- function(df) {
  if (!(df > 0)) return(1)
  key <- sprintf("%.17g", df)
  w <- plan_spread_cache[[key]]
  if (is.null(w)) {
    w <- sqrt(df / stats::qchisq((seq_len(512) - 0.5) / 512, df))
    assign(key, w, envir = plan_spread_cache)
  }
  w
}
plan_spread_cache <- new.env(parent = emptyenv())

# The points of t / w at which plan_normal_rank() computes p exactly.
plan_rank_nodes <- 65L
