# The order of measure()'s runs (R/measure-plan.R, src/measure-plan.c) and
# how each step is made (measure_step_exec(), R/measure.R).

# The reference: one sample.int() per round, as R draws it.
rounds_by_sample <- function(k, rounds) {
  as.integer(unlist(lapply(seq_len(rounds), function(i) sample.int(k))))
}

test_that("interleaved rounds are sample.int()'s permutations, seed for seed", {
  old <- RNGkind()
  on.exit(suppressWarnings(RNGkind(old[1L], old[2L], old[3L])), add = TRUE)
  for (kind in c("Rejection", "Rounding")) {
    suppressWarnings(RNGkind("Mersenne-Twister", "Inversion", kind))
    for (k in c(1L, 2L, 3L, 5L, 8L, 100L)) {
      for (rounds in c(1L, 2L, 7L, 40L)) {
        set.seed(1000L * k + rounds)
        want <- rounds_by_sample(k, rounds)
        after_want <- .Random.seed
        set.seed(1000L * k + rounds)
        got <- rounds_order(k, rounds, "interleaved")
        expect_identical(got, want)
        # the generator is left where sample.int() leaves it
        expect_identical(.Random.seed, after_want)
      }
    }
  }
  suppressWarnings(RNGkind(old[1L], old[2L], old[3L]))
  # every round is a permutation of the versions
  set.seed(3)
  o <- matrix(rounds_order(6L, 500L, "interleaved"), nrow = 6L)
  expect_true(all(apply(o, 2L, function(r) identical(sort(r), 1:6))))
  # uniform over the places: each version is first in about 1/6 of rounds
  first <- tabulate(o[1L, ], 6L)
  expect_gt(stats::chisq.test(first)$p.value, 1e-4)
  expect_identical(rounds_order(3L, 0L, "interleaved"), integer())
})

test_that("the order's entry point refuses sizes it cannot hold", {
  expect_error(.Call(ffi_rounds_order, 0L, 3L))
  expect_error(.Call(ffi_rounds_order, 2L, -1L))
  expect_error(.Call(ffi_rounds_order, 100000L, 100000L))
  expect_error(.Call(ffi_rounds_order, "a", 3L))
})

# The step kinds as they were found one step at a time.
step_exec_by_loop <- function(steps, ctx, fast) {
  m <- length(steps$role)
  exec <- rep("each", m)
  cmd <- integer(m)
  if (!fast || !m) return(list(exec = exec, cmd = cmd))
  server <- !is.null(ctx$server)
  for (k in seq_len(m)) {
    role <- steps$role[k]
    what <- switch(role,
      run = , warmup = ctx$versions[[steps$ver[k]]],
      setup = ctx$setup, cleanup = ctx$cleanup,
      cal_shell = ctx$timer$shell$spawn$shell, cal_direct = ctx$timer$shell$spawn$direct)
    id <- what$cmd_id %||% NA_integer_
    if (server && !is.na(id)) {
      exec[k] <- "cmd"
      cmd[k] <- id
    } else if (role %in% c("run", "warmup") && what$kind != "command") {
      exec[k] <- "R"
    }
  }
  list(exec = exec, cmd = cmd)
}

test_that("every step is made the way the one-step-at-a-time rule made it", {
  versions <- list(list(kind = "command", cmd_id = 1L), list(kind = "R"),
                   list(kind = "command", cmd_id = 2L), list(kind = "function"))
  hooks <- list(NULL, list(kind = "command", cmd_id = 3L), list(kind = "R"))
  roles <- c("run", "warmup", "setup", "cleanup", "cal_shell", "cal_direct")
  set.seed(36)
  for (trial in 1:60) {
    ctx <- list(versions = versions,
                setup = hooks[[sample.int(3L, 1L)]],
                cleanup = hooks[[sample.int(3L, 1L)]],
                server = if (trial %% 3L) "launcher",
                timer = list(shell = list(spawn = list(
                  shell = list(kind = "command", cmd_id = 4L),
                  direct = if (trial %% 2L) list(kind = "command", cmd_id = 5L)))))
    m <- sample(0:40, 1L)
    steps <- list(role = sample(roles, m, replace = TRUE),
                  ver = sample.int(length(versions), m, replace = TRUE))
    for (fast in c(TRUE, FALSE)) {
      expect_identical(measure_step_exec(steps, ctx, fast),
                       step_exec_by_loop(steps, ctx, fast))
    }
  }
})
