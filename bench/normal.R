# Times the normal-theory tests against their stats twins.
# Run: Rscript bench/normal.R   (with speeduptest installed)
library(speeduptest)

# median seconds per call over enough repetitions to last ~0.05 s
per_call <- function(f) {
  reps <- 1L
  repeat {
    t <- system.time(for (i in seq_len(reps)) f())[["elapsed"]]
    if (t > 0.05 || reps >= 1e5) break
    reps <- reps * 4L
  }
  median(vapply(1:3, function(k)
    system.time(for (i in seq_len(reps)) f())[["elapsed"]] / reps, 0))
}

set.seed(1)
rows <- list()
for (n in c(1e3, 1e4, 1e5, 1e6)) {
  x <- rlnorm(n)
  y <- rlnorm(n, 0.01)
  cases <- list(
    t_test = c(function() t_test(x, y), function() t.test(x, y)),
    t_test_pooled = c(function() t_test(x, y, var_equal = TRUE),
                      function() t.test(x, y, var.equal = TRUE)),
    f_test = c(function() f_test(x, y), function() var.test(x, y))
  )
  if (n <= 5000) {
    xs <- x[seq_len(min(n, 5000))]
    cases$shapiro_wilk <- c(function() shapiro_wilk(xs), function() shapiro.test(xs))
  }
  for (nm in names(cases)) {
    ours <- per_call(cases[[nm]][[1]])
    theirs <- per_call(cases[[nm]][[2]])
    rows[[length(rows) + 1]] <- data.frame(
      test = nm, n = n, speeduptest_ms = 1e3 * ours, stats_ms = 1e3 * theirs,
      ratio = theirs / ours)
  }
}
x <- rlnorm(5000)
rows[[length(rows) + 1]] <- data.frame(
  test = "shapiro_wilk", n = 5000,
  speeduptest_ms = 1e3 * per_call(function() shapiro_wilk(x)),
  stats_ms = 1e3 * per_call(function() shapiro.test(x)), ratio = NA)
out <- do.call(rbind, rows)
out$ratio <- out$stats_ms / out$speeduptest_ms
out <- out[order(out$test, out$n), ]
print(format(out, digits = 3), row.names = FALSE)
cat("ratio > 1: speeduptest is faster than the stats twin\n")
