# The protocol descriptors (R/protocol-descriptor.R) give the words of every
# code the C core can return: each branch, step, caveat, decision and
# status has its words, and a verdict of each protocol with any caveat its
# C function can set tells it in a sentence.

codes <- function(kind) speeduptest:::st_codes(kind)
protocols <- speeduptest:::protocols

test_that("every code the core returns has a name and the names are unique", {
  for (kind in c("branch", "step", "caveat", "decision", "status", "protocol",
                 "direction")) {
    tab <- codes(kind)
    expect_true(is.integer(tab) && length(tab) > 0L, info = kind)
    expect_false(anyDuplicated(names(tab)) > 0L, info = kind)
    expect_false(anyDuplicated(unname(tab)) > 0L, info = kind)
  }
  # caveats are bits
  bits <- codes("caveat")
  expect_true(all(bitwAnd(bits, bits - 1L) == 0L))
})

test_that("every branch has its words and belongs to a protocol", {
  b <- names(codes("branch"))
  expect_true(all(b %in% names(speeduptest:::branch_words)))
  used <- unique(unlist(lapply(protocols, `[[`, "branches")))
  expect_setequal(used, b)
  expect_true(all(nzchar(speeduptest:::verdict_branch_words(b))))
})

test_that("every step has its descriptor and belongs to a protocol", {
  s <- names(codes("step"))
  steps <- speeduptest:::protocol_steps
  expect_setequal(names(steps), s)
  used <- unique(unlist(lapply(protocols, `[[`, "steps")))
  expect_setequal(used, s)
  for (k in s) {
    d <- steps[[k]]
    expect_true(is.character(d$role) && nzchar(d$role), info = k)
    expect_true(is.function(d$htest) && is.function(d$path), info = k)
    expect_true(all(c("pass", "fail", "missing") %in% names(d$outcome)), info = k)
  }
  # each protocol's final step is one of its steps' roles
  for (p in protocols) {
    roles <- vapply(steps[p$steps], `[[`, "", "role")
    expect_true(p$final %in% roles)
  }
})

test_that("every caveat bit has its phrase and a protocol that sets it", {
  b <- names(codes("caveat"))
  expect_setequal(names(speeduptest:::suite_phrases), b)
  used <- unique(unlist(lapply(protocols, `[[`, "caveats")))
  expect_setequal(used, b)
})

test_that("decisions, directions and statuses have their words", {
  # each direction of the core is a decision with its words (NA: "na")
  dirs <- names(codes("direction"))
  dirs[dirs == "na"] <- NA
  expect_true(all(dirs %in% speeduptest:::decision_table$direction))
  for (d in codes("decision")) {
    expect_true(nzchar(speeduptest:::decision_outcome(d)))
  }
  st <- setdiff(names(codes("status")), "ok")
  expect_setequal(names(speeduptest:::status_words), st)
  expect_equal(speeduptest:::protocol_code("mean"), codes("protocol")[["mean"]])
  expect_equal(speeduptest:::protocol_code("median"), codes("protocol")[["median"]])
})

# A real verdict of each protocol of the table (its exported function,
# unpaired or paired), with the caveat bits replaced: every bit a protocol
# can set is told in a caveat or an advice that was not there without it.
verdict_of <- function(name) {
  set.seed(3)
  x <- rlnorm(12, 0, 0.05)
  y <- rlnorm(12, -0.02, 0.05)
  p <- protocols[[name]]
  fun <- speeduptest:::protocol_fun(p$test)
  if (identical(p$design, "paired")) fun(x, y, design = "paired") else fun(x, y)
}

with_flags <- function(v, flags) {
  lz <- attr(v, "lazy")
  lz$flags <- flags
  attr(v, "lazy") <- lz
  v
}

test_that("each caveat a protocol can set is told in words", {
  bits <- codes("caveat")
  for (name in names(protocols)) {
    v <- verdict_of(name)
    expect_identical(speeduptest:::verdict_protocol(v), protocols[[name]])
    base <- with_flags(v, 0L)
    said <- c(base$caveats, base$advice)
    for (b in protocols[[name]]$caveats) {
      flags <- bits[[b]]
      # an uncheckable sample is one that is not shown normal
      if (b == "x_uncheckable") flags <- flags + bits[["x_not_normal"]]
      if (b == "y_uncheckable") flags <- flags + bits[["y_not_normal"]]
      w <- with_flags(v, flags)
      # fewer than 3 values are told of the sample that has them
      if (b == "too_few_values") w$n <- 2L
      new <- setdiff(c(w$caveats, w$advice), said)
      expect_true(length(new) >= 1L && all(nzchar(new)), info = paste(name, b))
    }
  }
})

test_that("each verdict's steps are named by their roles and print", {
  for (name in names(protocols)) {
    v <- verdict_of(name)
    roles <- vapply(speeduptest:::protocol_steps[protocols[[name]]$steps],
                    `[[`, "", "role")
    expect_true(length(v$steps) >= 1L)
    expect_true(all(names(v$steps) %in% roles), info = name)
    expect_true(all(vapply(v$steps, inherits, NA, "htest")), info = name)
    out <- utils::capture.output(summary(v))
    expect_true(any(grepl("Route through the flowchart", out)), info = name)
    expect_true(any(grepl(speeduptest:::verdict_branch_words(v$branch), out,
                          fixed = TRUE)) ||
                  any(grepl(substr(speeduptest:::verdict_branch_words(v$branch), 1, 30),
                            out, fixed = TRUE)), info = name)
  }
})

test_that("the parts made when read are those of the complete verdict", {
  set.seed(5)
  v <- mean_test(rlnorm(8), rlnorm(8))   # few runs: caveats and advice
  raw <- unclass(v)
  for (f in c("steps", "caveats", "advice", "detectable", "run_order")) {
    expect_true(f %in% names(raw), info = f)
    expect_null(raw[[f]])
    expect_false(is.null(v[[f]]), info = f)
    expect_identical(eval(call("$", v, f)), v[[f]], info = f)
  }
  full <- speeduptest:::complete_verdict(v)
  expect_null(attr(full, "lazy"))
  expect_identical(names(full), names(raw))
  for (f in names(full)) expect_identical(full[[f]], v[[f]], info = f)
  # a part set by hand is kept
  v$caveats <- "set by hand"
  expect_identical(v$caveats, "set by hand")
})

# ---- the protocol table: what a protocol must declare ---------------------------

test_that("every protocol of the core's table has its descriptor and its words", {
  table <- names(codes("protocol"))
  expect_setequal(speeduptest:::protocol_choices(), table)
  fields <- c("test", "design", "label", "what", "rank", "fun", "centre",
              "centre_fun", "trend_in_core", "extra", "constant", "plot_title",
              "interval", "final", "branches", "steps", "caveats", "calls")
  for (p in table) {
    d <- protocols[[p]]
    expect_false(is.null(d), info = p)
    expect_identical(d$design, "unpaired", info = p)
    for (f in fields) expect_true(f %in% names(d), info = paste(p, f))
    expect_true(d$centre %in% c("mean", "median"), info = p)
    expect_true(all(d$branches %in% names(speeduptest:::branch_words)), info = p)
    expect_true(all(d$steps %in% names(speeduptest:::protocol_steps)), info = p)
    expect_true(is.function(speeduptest:::protocol_fun(p, "default")), info = p)
    # a paired twin, or NULL, declared either way
    expect_true("paired" %in% names(d), info = paste(p, "paired twin declared"))
  }
})

test_that("every protocol of the table has its capabilities, in C and in R", {
  set.seed(7)
  x <- rlnorm(20, 0.02, 0.03)
  y <- rlnorm(20, 0, 0.03)
  caps <- c("detectable", "suite_detectable", "tolerance_candidates",
            "plan_samples", "plan_effect")
  ns <- asNamespace("speeduptest")
  for (p in names(codes("protocol"))) {
    d <- protocols[[p]]
    code <- speeduptest:::protocol_code(p)
    for (cap in c(caps, if (!is.null(d$paired)) "paired_tolerance")) {
      fn <- d$calls[[cap]]
      expect_true(is.character(fn) && is.function(get0(fn, envir = ns)),
                  info = paste(p, cap))
    }
    # its tolerance tests in the core
    res <- .Call(ns$ffi_tolerance_tests, x, y, code, FALSE, 1.02)
    expect_identical(res$status, 0L, info = p)
    expect_false(anyNA(res$p_values), info = p)
    # its paired twin in the core exactly when the descriptor declares one
    res <- .Call(ns$ffi_run_protocol, x, y, code, TRUE, 0.05, TRUE, 0L)
    if (is.null(d$paired)) {
      expect_identical(speeduptest:::st_code_name("status", res$status),
                       "unsupported", info = p)
    } else {
      expect_identical(res$status, 0L, info = p)
      tw <- protocols[[d$paired]]
      expect_identical(tw$design, "paired", info = p)
      expect_true(speeduptest:::st_code_name("branch", res$branch) %in% tw$branches,
                  info = p)
    }
    # its columns in a suite, cut from the long table
    s <- speedup_suite(list(a = list(x = x, y = y), b = list(x = y, y = x)),
                       protocols = p)
    wide <- paste0(p, "_", speeduptest:::suite_long_columns)
    expect_true(all(wide %in% names(s$benchmarks)), info = p)
    expect_identical(s$results$protocol, c(p, p))
    expect_identical(s$results$decision, s$benchmarks[[paste0(p, "_decision")]])
  }
  # an unknown protocol code is an error, never another protocol
  res <- .Call(ns$ffi_tolerance_tests, x, y, 99L, FALSE, 1.02)
  expect_identical(speeduptest:::st_code_name("status", res$status), "domain")
  expect_error(.Call(ns$ffi_run_protocol, x, y, 99L, FALSE, 0.05, TRUE, 0L))
  expect_error(speeduptest:::protocol_info("nonesuch"))
})
