# A JSON file read in blocks (src/json-blocks.c, json_blocks_try() and
# json_parse_blocks() in R/read-timings.R, gbench_runs_blocks() in
# R/import-gbench.R) gives what the parse of the whole file gives:
# identical parses, timings, problems and errors, on clean files and on
# files the scan must leave to the whole parse.

ns <- asNamespace("speeduptest")

# A file holding the bytes `bytes` (a raw vector or a string).
blocks_file <- function(bytes) {
  f <- withr::local_tempfile(fileext = ".json", .local_envir = parent.frame())
  if (is.character(bytes)) bytes <- charToRaw(enc2utf8(bytes))
  writeBin(bytes, f)
  f
}

# jsonlite's parse of the whole file, as the reader streams it.
whole_parse <- function(f) {
  con <- file(f, "rb")
  on.exit(close(con))
  jsonlite::parse_json(con)
}

# The value, or the error's class and message, of `expr`.
outcome <- function(expr) {
  tryCatch(withCallingHandlers(expr, warning = function(w) invokeRestart("muffleWarning")),
           error = function(e) list(class = class(e), message = conditionMessage(e)))
}

# read_timings() and the JSON parse of `f` read in blocks (every size,
# several block lengths) and whole: identical answers or errors.
# With `cut` TRUE (FALSE), the parse in blocks must (must not) take the
# file.
expect_blocks_same <- function(f, label = basename(f), ..., cut = NA) {
  whole <- withr::with_options(list(speeduptest.json_block_min = Inf),
                               outcome(read_timings(f, ...)))
  for (len in c(500L, 1L, 2L)) {
    # one block of all the records (as parsed for the format), and many,
    # whose records keep only the members the reader takes
    inblocks <- withr::with_options(list(speeduptest.json_block_min = 0,
                                         speeduptest.json_block = len),
                                    outcome(read_timings(f, ...)))
    expect_identical(inblocks, whole, label = paste(label, "blocks of", len))
  }
  if (length(f) > 1L) return(invisible(whole))
  j <- outcome(whole_parse(f))
  for (block in c(1L, 2L, 3L, 1000L)) {
    p <- ns$json_parse_blocks(f, block_min = 0, block = block)
    if (!is.na(cut)) expect_identical(!is.null(p), cut, label = paste(label, "taken"))
    if (!is.null(p)) expect_identical(p, j, label = paste(label, "block", block))
  }
  invisible(whole)
}

gb_record <- function(i, name = sprintf("BM_%d", (i - 1L) %/% 3L), type = "iteration",
                      extra = "") {
  sprintf('{"name": "%s", "run_name": "%s", "run_type": "%s", "repetitions": 3, "repetition_index": %d, "iterations": %d, "real_time": %.17g, "cpu_time": %.17g, "time_unit": "ns"%s}',
          name, name, type, (i - 1L) %% 3L, 100L + i, 1000 + i / 7, 990 + i / 11, extra)
}

gb_text <- function(records, context = '{"date": "2026", "num_cpus": 2}', sep = ",\n  ",
                    pre = "", post = "\n") {
  paste0(pre, '{\n  "context": ', context, ',\n  "benchmarks": [\n  ',
         paste(records, collapse = sep), '\n  ]\n}', post)
}

# The texts of the blocks of ffi_json_blocks()'s `cut` of `raw`.
block_texts <- function(raw, cut) {
  vapply(seq_along(cut$counts), function(b) {
    .Call(ns$ffi_json_block_text, raw, cut$from[b], cut$to[b], NULL, FALSE)
  }, "")
}

test_that("the scan finds the array's elements and their commas", {
  txt <- '{"a": [1, {"b": "x,]}"}], "benchmarks": [ 1 , "s,\\"]" ,[2,[3]], {"c": {}} ,null], "z": 2}'
  raw <- charToRaw(txt)
  cut <- .Call(ns$ffi_json_blocks, raw, "benchmarks", 2L)
  expect_identical(cut$counts, c(2L, 2L, 1L))
  expect_identical(cut$rest, '{"a": [1, {"b": "x,]}"}], "benchmarks": [], "z": 2}')
  expect_identical(block_texts(raw, cut),
                   c('[ 1 , "s,\\"]" ]', '[[2,[3]], {"c": {}} ]', '[null]'))
  # one block for all, and one element per block
  expect_identical(block_texts(raw, .Call(ns$ffi_json_blocks, raw, "benchmarks", 100L)),
                   '[ 1 , "s,\\"]" ,[2,[3]], {"c": {}} ,null]')
  one <- .Call(ns$ffi_json_blocks, raw, "benchmarks", 1L)
  expect_identical(one$counts, rep(1L, 5L))
  expect_identical(block_texts(raw, one), c("[ 1 ]", '[ "s,\\"]" ]', "[[2,[3]]]", '[ {"c": {}} ]', "[null]"))
  # an empty array: no block
  cut <- .Call(ns$ffi_json_blocks, charToRaw('{"benchmarks": [ \n ]}'), "benchmarks", 3L)
  expect_identical(cut$counts, integer())
  expect_identical(cut$rest, '{"benchmarks": []}')
  # elements spanning what the parser must reject are still cut (the parse
  # of the block refuses them)
  cut <- .Call(ns$ffi_json_blocks, charToRaw('{"benchmarks": [1,,2,]}'), "benchmarks", 10L)
  expect_identical(cut$counts, 4L)
  expect_null(ns$json_parse_blocks(blocks_file('{"benchmarks": [1,,2,]}'), block_min = 0))
})

test_that("texts the scan does not take are left to the whole parse", {
  key <- "benchmarks"
  unclean <- list(
    bom = c(as.raw(c(0xef, 0xbb, 0xbf)), charToRaw('{"benchmarks": [1]}')),
    array = '[{"benchmarks": [1]}]',
    twice = '{"benchmarks": [1], "benchmarks": [2]}',
    escaped_key = '{"bench\\u006darks": [1], "x": 1}',
    escaped_other_key = '{"a\\n": 1, "benchmarks": [1]}',
    not_array = '{"benchmarks": {"a": 1}}',
    missing = '{"context": {"benchmarks": [1]}}',
    as_value = '{"x": "benchmarks", "y": ["benchmarks"]}',
    comment = '{"benchmarks": [1] /* c */}',
    line_comment = '{"benchmarks": [1]} // c',
    nan = '{"benchmarks": [NaN]}',
    infinity = '{"benchmarks": [1], "x": -Infinity}',
    garbage = '{"benchmarks": [1]} x',
    two = '{"benchmarks": [1]} {}',
    truncated = '{"benchmarks": [1, 2',
    unclosed_string = '{"benchmarks": ["a]}',
    mismatched = '{"benchmarks": [1}]',
    control = '{"benchmarks": ["a\tb"]}',
    nul = c(charToRaw('{"benchmarks": ["a'), as.raw(0), charToRaw('"]}')),
    latin1 = c(charToRaw('{"benchmarks": ["caf'), as.raw(0xe9), charToRaw('"]}')),
    overlong = c(charToRaw('{"benchmarks": ["'), as.raw(c(0xc0, 0xaf)), charToRaw('"]}')),
    surrogate = c(charToRaw('{"benchmarks": ["'), as.raw(c(0xed, 0xa0, 0x80)), charToRaw('"]}')),
    too_high = c(charToRaw('{"benchmarks": ["'), as.raw(c(0xf4, 0x90, 0x80, 0x80)),
                 charToRaw('"]}')),
    cut_utf8 = c(charToRaw('{"benchmarks": ["'), as.raw(c(0xe2, 0x82)), charToRaw('"]}')),
    bare_utf8 = c(charToRaw('{"benchmarks": [1], '), as.raw(c(0xc3, 0xa9)), charToRaw('}')),
    deep = paste0('{"benchmarks": [', strrep("[", 600), strrep("]", 600), "]}"),
    empty = "",
    blank = " \n ")
  for (k in names(unclean)) {
    b <- unclean[[k]]
    raw <- if (is.raw(b)) b else charToRaw(b)
    expect_null(.Call(ns$ffi_json_blocks, raw, key, 2L), label = k)
    expect_null(ns$json_parse_blocks(blocks_file(raw), block_min = 0), label = k)
  }
  # clean: valid UTF-8 in strings and escapes in values
  clean <- c(charToRaw('{"x": "\\u00e9\\"\\\\", "benchmarks": ["caf'), as.raw(c(0xc3, 0xa9)),
             charToRaw('", "'), as.raw(c(0xf0, 0x9f, 0x98, 0x80)), charToRaw('"]}'))
  f <- blocks_file(clean)
  expect_identical(ns$json_parse_blocks(f, block_min = 0, block = 1L),
                   whole_parse(f))
})

test_that("Google Benchmark files read in blocks give the timings and problems of the whole parse", {
  recs <- vapply(seq_len(30), gb_record, "")
  agg <- gb_record(0L, "BM_agg_mean", "aggregate", ', "aggregate_name": "mean"')
  err <- gb_record(7L, "BM_2", extra = ', "error_occurred": true, "error_message": "no"')
  files <- list(
    clean = gb_text(recs),
    compact = gsub("[\n ]", "", gb_text(recs)),
    crlf_tabs = gb_text(recs, sep = "\r\n\t,\t"),
    aggregates = gb_text(c(recs[1:10], agg, agg, agg, recs[11:30])),
    aggregates_only = gb_text(c(agg, agg)),
    error = gb_text(c(recs[1:6], err, recs[8:30])),
    not_object = gb_text(c(recs[1:20], "17", recs[21:30])),
    unknown_unit = gb_text(c(recs[1:25], sub('"ns"', '"ks"', recs[26]), recs[27:30])),
    no_name = gb_text(c(recs[1:3], '{"run_type": "iteration", "real_time": 1}', recs[4:30])),
    bad_time = gb_text(c(recs[1:28], sub('"real_time": [0-9.e+]+', '"real_time": "x"', recs[29]),
                         recs[30])),
    unicode_names = gb_text(gsub("BM_", "BM_\u00e9\u4e2d_", recs)),
    escaped_names = gb_text(vapply(seq_len(30), function(i) {
      gb_record(i, name = sprintf('BM_\\"q\\u0041_%d', (i - 1L) %/% 3L))
    }, "")),
    empty = gb_text(character()),
    invalid_in_block = gb_text(c(recs[1:20], '{"name": "BM_x", "real_time": 1,}', recs[21:30])),
    invalid_rest = sub('"num_cpus": 2', '"num_cpus": 2,', gb_text(recs)),
    trailing = gb_text(recs, post = "\n]"),
    no_context = sub('"context": \\{[^}]*\\},', "", gb_text(recs)),
    pyperf_like = gb_text(recs, context = '{}'))
  whole <- c("empty", "invalid_in_block", "invalid_rest", "trailing")
  for (k in names(files)) {
    f <- blocks_file(files[[k]])
    for (metric in list(NULL, "cpu_time")) {
      expect_blocks_same(f, paste(k, metric), metric = metric, cut = !(k %in% whole))
    }
  }
  # the blocks are what read the clean file: a block of runs that is not
  # clean sends the reader to the whole parse
  f <- blocks_file(files$clean)
  used <- new.env()
  used$n <- 0L
  bump <- function() used$n <- used$n + 1L
  suppressMessages(trace("gbench_runs_blocks", bquote(.(bump)()), where = ns, print = FALSE))
  withr::defer(suppressMessages(untrace("gbench_runs_blocks", where = ns)))
  withr::with_options(list(speeduptest.json_block_min = 0), read_timings(f))
  withr::with_options(list(speeduptest.json_block_min = Inf), read_timings(f))
  expect_identical(used$n, 1L)
  bl <- ns$json_blocks_try(blocks_file(files$error), block_min = 0, block = 4L)
  expect_null(ns$gbench_runs_blocks(bl, "real_time"))
  bl <- ns$json_blocks_try(blocks_file(files$aggregates), block_min = 0, block = 4L)
  runs <- ns$gbench_runs_blocks(bl, "real_time")
  j <- whole_parse(blocks_file(files$aggregates))
  u <- ns$gbench_units
  expect_identical(runs, .Call(ns$ffi_gbench_runs, j$benchmarks, "real_time", names(u),
                               unname(u), FALSE, FALSE))
})

test_that("several files and the fixtures read the same in blocks", {
  dir <- system.file("extdata", "timings", package = "speeduptest")
  skip_if(!nzchar(dir), "timing fixtures not installed")
  json <- list.files(dir, pattern = "\\.json$", full.names = TRUE, recursive = TRUE)
  for (f in json) expect_blocks_same(f)
  g <- file.path(dir, c("gbench-base.json", "gbench-slower.json", "gbench-faster.json"))
  expect_blocks_same(g, "three gbench files")
  expect_blocks_same(c(old = g[1], new = g[2]), "two gbench files", metric = "cpu_time")
})

test_that("records keep the members the reader takes, and the parse says what the whole parse says", {
  keep <- c("run_type", "error_occurred", "run_name", "name", "time_unit", "real_time",
            "iterations", "repetition_index")
  u <- ns$gbench_units
  runs <- function(p, rows = FALSE) {
    .Call(ns$ffi_gbench_runs, p, "real_time", names(u), unname(u), TRUE, rows)
  }
  kept <- function(p) lapply(p, function(r) if (is.list(r) && !is.null(names(r))) r[names(r) %in% keep] else r)
  base <- '"name": "BM_1", "run_name": "BM_1", "run_type": "iteration", "iterations": 10, "real_time": 1.5, "time_unit": "us"'
  # members to leave out or keep, plain and not: numbers of the grammar and
  # not, strings with and without escapes, literals, nested values, keys
  # with escapes (one spelling a wanted key), duplicates, broken members
  extras <- c('"threads": 1', '"cpu_time": -0.5e+3', '"cpu_time": 0', '"x": 1E5',
              '"x": 01', '"x": 1.', '"x": -', '"x": .5', '"x": 1e', '"x": 1 2', '"x": +1',
              '"x": tru', '"x": true', '"x": false', '"x": null', '"x": nulll',
              '"s": "plain \u00e9"', '"s": "esc\\u0041\\n"', '"s": "bad\\q"', '"s": "\\u0000"',
              '"o": {"a": [1, {"b": "}"}]}', '"o": []', '"o": {"a": 1,}',
              '"n\\u0061me": "BM_2"', '"thr\\u0065ads": 1', '"name": "BM_3"',
              '"run_name": 5', '"real_time": "x"', '"error_occurred": true',
              '"x" 1', '"x": ', '"x": 1,', ': 1', '"x":1 "y":2', '"a"  :  2  ',
              '"run_type": "aggregate"', '"repetition_index": 3')
  set.seed(36)
  texts <- c(
    vapply(extras, function(e) sprintf('[{%s, %s}, {%s}]', e, base, base), ""),
    vapply(extras, function(e) sprintf('[{%s, %s}]', base, e), ""),
    replicate(300, {
      m <- c(strsplit(base, ", ")[[1]], sample(extras, sample(0:4, 1)))
      r <- paste0("{", paste(sample(m), collapse = sample(c(", ", ",", " ,\n\t"), 1)), "}")
      paste0("[", paste(c(r, if (runif(1) < 0.3) sample(c("{}", "17", "[1,2]", '"s"', "{ }", "{,}"), 1)),
                        collapse = ", "), "]")
    }),
    '[{}]', '[{ }]', '[17, {}]', '[ {"name": "a"} {"name": "b"} ]', '[{"name": "a"}}]')
  rows_seen <- 0L
  for (txt in texts) {
    raw <- charToRaw(enc2utf8(paste0('{"benchmarks": ', txt, '}')))
    cut <- .Call(ns$ffi_json_blocks, raw, "benchmarks", 1000L)
    if (is.null(cut)) next
    full <- .Call(ns$ffi_json_block_text, raw, cut$from[1], cut$to[1], NULL, FALSE)
    part <- .Call(ns$ffi_json_block_text, raw, cut$from[1], cut$to[1], keep, FALSE)
    row <- .Call(ns$ffi_json_block_text, raw, cut$from[1], cut$to[1], keep, TRUE)
    expect_false(attr(part, "rows"))
    expect_lte(nchar(part, "bytes"), nchar(full, "bytes"))
    expect_lte(nchar(row, "bytes"), nchar(full, "bytes"))
    pf <- outcome(jsonlite::parse_json(full))
    pp <- outcome(jsonlite::parse_json(part))
    pr <- outcome(jsonlite::parse_json(row))
    if (!is.null(pf$class)) {
      # not JSON whole: not JSON either with members left out
      expect_false(is.null(pp$class), label = txt)
      expect_false(is.null(pr$class), label = txt)
      next
    }
    expect_identical(kept(pp), kept(pf), label = txt)
    expect_identical(outcome(runs(pp)), outcome(runs(pf)), label = txt)
    if (attr(row, "rows")) {
      rows_seen <- rows_seen + 1L
      # each record the values of the wanted keys in their order, null
      # (NULL) where missing
      expect_identical(pr, lapply(pf, function(r) unname(lapply(keep, function(k) r[[k]]))),
                       label = txt)
      expect_identical(outcome(runs(pr, TRUE)), outcome(runs(pf)), label = txt)
    } else {
      expect_identical(row, part, ignore_attr = TRUE, label = txt)
    }
  }
  # texts written as rows and as objects were both met
  expect_gt(rows_seen, 50L)
  # the wanted members and the others that cannot be left out, in order
  raw <- charToRaw('{"benchmarks": [{"a": 1, "name" : "x" , "o": {"p": 2}, "s": "t", "k\\u0041": 3, "name": "y"}]}')
  cut <- .Call(ns$ffi_json_blocks, raw, "benchmarks", 10L)
  expect_identical(.Call(ns$ffi_json_block_text, raw, cut$from[1], cut$to[1], "name", TRUE),
                   structure('[{"name":"x","o":{"p": 2},"k\\u0041":3,"name":"y"}]', rows = FALSE))
  raw <- charToRaw('{"benchmarks": [{"a": 1, "name" : "x" , "s": "t", "b": 2}, {"b": 1}]}')
  cut <- .Call(ns$ffi_json_blocks, raw, "benchmarks", 10L)
  expect_identical(.Call(ns$ffi_json_block_text, raw, cut$from[1], cut$to[1], c("b", "name"), TRUE),
                   structure('[[2,"x"],[1,null]]', rows = TRUE))
  expect_error(.Call(ns$ffi_json_block_text, raw, cut$from[1], cut$to[1], 1L, FALSE), "keep")
})
