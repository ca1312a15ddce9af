# Names from untrusted files stay text in every output: the battery's corpus
# of hostile names (tests/battery/battery-lib.R, section 9), each kind in
# every output (compare's text, Markdown and JSON, knit_print(), print() and
# summary()), the role (benchmark, version, baseline name) taking turns.  The
# full battery runs every kind in every role: Rscript tests/battery/run.R
# --filter '^inject/'

inject_lib <- function() {
  for (p in c(test_path("..", "battery", "battery-lib.R"),
              file.path("..", "battery", "battery-lib.R"))) {
    if (file.exists(p)) return(p)
  }
  ""
}

test_that("hostile names add no markup, line or control character to any output", {
  skip_on_cran()
  skip_if_not_installed("knitr")
  lib <- inject_lib()
  skip_if(!nzchar(lib), "the battery is not in this copy of the sources")
  b <- new.env()
  sys.source(lib, envir = b)
  fix <- tempfile("inject")
  dir.create(fix)
  on.exit(unlink(fix, recursive = TRUE), add = TRUE)
  env <- b$battery_fixture_env_light(fix)
  cases <- b$battery_inject_cases()
  ids <- vapply(cases, `[[`, "", "id")
  kinds <- names(b$battery_inject_names())
  roles <- c("benchmark", "version", "baseline")
  outs <- c("text", "markdown", "json", "knit", "print")
  pick <- character()
  for (i in seq_along(kinds)) for (j in seq_along(outs)) {
    pick <- c(pick, sprintf("inject/%s/%s/%s", outs[j], roles[(i + j) %% 3L + 1L], kinds[i]))
  }
  expect_true(all(pick %in% ids))
  for (k in cases[match(pick, ids)]) {
    o <- b$battery_eval(k, env)
    expect(o$outcome == "ok", sprintf("%s: %s: %s", k$id, o$outcome, o$msg))
  }
})

test_that("the injection check finds what a raw name would do", {
  lib <- inject_lib()
  skip_if(!nzchar(lib), "the battery is not in this copy of the sources")
  b <- new.env()
  sys.source(lib, envir = b)
  out <- function(kind, text, names = character(), status_lines = 0L) {
    structure(list(kind = kind, text = text, names = names, status = 0L,
                   status_lines = status_lines), class = "battery_output")
  }
  expect_null(b$injection_problem(out("text", c("a  speedup 1.1", "pass (x)"), status_lines = 1L)))
  expect_match(b$injection_problem(out("text", c("x", "FAIL (x)", "pass (x)"), status_lines = 1L)),
               "status lines")
  expect_match(b$injection_problem(out("text", "a\033[2Jb")), "U\\+001B")
  expect_match(b$injection_problem(out("text", "\u202eevil")), "U\\+202E")
  expect_match(b$injection_problem(out("markdown", c("| a | b |", "|---|---|", "| x | y | z |"))),
               "splits into 3 cells")
  expect_null(b$injection_problem(out("markdown", c("| a | b |", "|---|---|", "| x\\|z | y |"))))
  expect_match(b$injection_problem(out("markdown", c("| a | b |", "|---|---|", "| x\\\\|z | y |"))),
               "splits")
  skip_if_not_installed("commonmark")
  expect_match(b$injection_problem(out("markdown", "name [x](javascript:1)")), "<a")
  expect_match(b$injection_problem(out("markdown", "name <script>")), "<script")
  expect_match(b$injection_problem(out("json", '{"a": "b"}', names = "c")), "lost the name")
})
