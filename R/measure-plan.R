# The plan of measure()'s runs: the order of the versions in the warm-up
# and the measured batches (interleaved rounds, random, or blocks).

# Version indices for `rounds` rounds of `k` versions.
rounds_order <- function(k, rounds, order) {
  if (rounds <= 0L) return(integer())
  switch(order,
    interleaved = .Call(ffi_rounds_order, as.integer(k), as.integer(rounds)),
    random = sample(rep(seq_len(k), rounds)),
    blocks = rep(seq_len(k), each = rounds))
}

# A list of batches of version indices (the warm-up batch first, with
# `warmup = TRUE`); in sequential mode one batch per look.
measure_plan <- function(k, runs, warmup, order, until, max_runs) {
  warm_order <- if (order == "blocks") "blocks" else order
  batches <- list(list(idx = rounds_order(k, warmup, warm_order), warmup = TRUE,
                       look = NA_integer_))
  if (until == "fixed") {
    batches[[2L]] <- list(idx = rounds_order(k, runs, order), warmup = FALSE,
                          look = NA_integer_)
    looks <- integer()
  } else {
    looks <- sequential_looks(max_runs)
    prev <- 0L
    for (j in seq_along(looks)) {
      batches[[j + 1L]] <- list(idx = rounds_order(k, looks[j] - prev, order),
                                warmup = FALSE, look = j)
      prev <- looks[j]
    }
  }
  total <- sum(vapply(batches, function(b) length(b$idx), 1L))
  list(batches = batches, looks = looks, total = total, k = k)
}
