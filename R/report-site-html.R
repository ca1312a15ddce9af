# The pages of the report site (report-site.R): the index, a page per
# benchmark (or series) and a page per change, with their data as CSV and
# JSON.  Every text from the data passes through esc_html(); the styles and
# the script are inline, and the Content-Security-Policy below forbids any
# request, so that a page can neither load nor send anything.

site_csp <- paste("default-src 'none'; style-src 'unsafe-inline';",
                  "script-src 'unsafe-inline'; img-src data:; base-uri 'none';",
                  "form-action 'none'")

site_css <- paste(
  "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;",
  "max-width:1100px;padding:12px;color:#222}",
  "h1{font-size:1.4em;margin:.4em 0}h2{font-size:1.15em;margin:1.2em 0 .4em}",
  "table{border-collapse:collapse;width:100%}th,td{padding:4px 6px;border-bottom:1px solid #ddd;",
  "text-align:left;vertical-align:top}th{background:#f4f4f4}",
  ".num{font-variant-numeric:tabular-nums;white-space:nowrap}",
  ".speedup{color:#00734d}.slowdown{color:#b3400a;font-weight:600}.error{color:#777}",
  ".controls{display:flex;flex-wrap:wrap;gap:12px;align-items:center;margin:8px 0}",
  ".controls input[type=search]{font-size:1em;padding:4px;min-width:14em}",
  "svg.plot{width:100%;height:auto;max-width:760px;border:1px solid #eee}",
  "svg .tick{font-size:11px;fill:#333}svg .lab{font-size:12px;fill:#222}",
  "pre{white-space:pre-wrap;background:#f8f8f8;padding:8px;overflow-wrap:anywhere}",
  "td.name{overflow-wrap:anywhere;max-width:22em}nav{margin:6px 0}",
  "@media (max-width:640px){body{font-size:14px;padding:6px}",
  "table.index thead{display:none}table.index tr{display:block;border-bottom:2px solid #ccc;padding:4px 0}",
  "table.index td{display:block;border:0;padding:1px 4px}",
  "table.index td[data-label]::before{content:attr(data-label) ': ';font-weight:600}}",
  sep = "")

# The filters of the index: "regressions only" and a text search over the
# names, both read from the page's address too (#q=text&reg=1), so that a
# filtered view can be linked and tested.
site_js <- paste(
  "(function(){var q=document.getElementById('q'),r=document.getElementById('reg'),",
  "rows=document.querySelectorAll('tbody tr'),n=document.getElementById('shown');",
  "function apply(){var t=q.value.toLowerCase(),o=r.checked,c=0;",
  "for(var i=0;i<rows.length;i++){var e=rows[i];var ok=(!o||e.getAttribute('data-reg')==='1')&&",
  "e.getAttribute('data-name').indexOf(t)>=0;e.hidden=!ok;if(ok)c++;}",
  "n.textContent=String(c);document.body.setAttribute('data-shown',String(c));}",
  "var h=location.hash.replace(/^#/,'').split('&');for(var i=0;i<h.length;i++){",
  "var kv=h[i].split('=');if(kv[0]==='q')q.value=decodeURIComponent(kv[1]||'');",
  "if(kv[0]==='reg')r.checked=kv[1]==='1';}",
  "q.addEventListener('input',apply);r.addEventListener('change',apply);apply();})();",
  sep = "")

# A whole page: `depth` is 0 for the index, 1 for the pages in b/ and c/.
site_page <- function(title, body, script = NULL) {
  c("<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
    sprintf('<meta http-equiv="Content-Security-Policy" content="%s">', site_csp),
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    sprintf("<title>%s</title>", esc_html(title)),
    sprintf("<style>%s</style>", site_css), "</head>", "<body>", body,
    if (!is.null(script)) sprintf("<script>%s</script>", script),
    "</body>", "</html>")
}

site_file <- function(kind, id, ext) sprintf("%s/%04d.%s", kind, id, ext)

site_interval <- function(lo, hi) {
  ifelse(is.finite(lo) & is.finite(hi),
         sprintf("[%s, %s]", trimws(formatC(lo, digits = 3L, format = "fg")),
                 trimws(formatC(hi, digits = 3L, format = "fg"))), "")
}

# The pages are made of escaped UTF-8 text (esc_html() of every name), so
# they are written as bytes.
site_write_lines <- function(lines, path) {
  ok <- tryCatch({
    writeLines(lines, path, useBytes = TRUE)
    TRUE
  }, error = function(e) FALSE, warning = function(w) FALSE)
  if (!ok) abort(sprintf("`dir`: cannot write \"%s\".", esc_text(path)), class = "io")
}

# CSV (RFC 4180): text quoted with its quotes doubled, numbers with 15
# significant digits, NA empty.
site_write_csv <- function(df, path) {
  cols <- lapply(df, function(col) {
    if (is.numeric(col)) {
      out <- formatC(col, digits = 15L, format = "g")
      out[is.na(col)] <- ""
      out
    } else {
      col <- esc_utf8(as.character(col))
      out <- paste0('"', gsub('"', '""', col, fixed = TRUE), '"')
      out[is.na(col)] <- ""
      out
    }
  })
  lines <- c(paste0('"', names(df), '"', collapse = ","),
             if (nrow(df)) do.call(paste, c(unname(cols), sep = ",")))
  site_write_lines(lines, path)
}

# JSON by json_text() (the package's one JSON writer of names); the data of
# a page goes in as lists of columns, the index as rows.
site_write_json <- function(x, path) {
  site_write_lines(json_text(x, auto_unbox = TRUE, digits = NA, na = "null", null = "null"),
                   path)
}

# The whole site; returns the index's path.
site_write <- function(dir, model, title) {
  rows <- model$rows
  if (identical(model$kind, "comparison")) {
    site_verdict_pages(dir, model)
  } else {
    for (i in seq_len(nrow(rows))) site_benchmark_page(dir, model, i)
  }
  for (j in seq_along(model$changes)) site_change_page(dir, model, j)
  site_index(dir, model, title)
}

# ---- the pages of a comparison, made together ------------------------------
#
# A site of a suite has thousands of benchmark pages, so their parts are
# made for all the pages at once (one esc_html(), one formatC(), one
# jsonlite::toJSON() per kind of value), and each page is only pasted
# together.  The pages and their data are byte for byte those that
# site_page(), site_write_csv() and site_write_json() make of one page.

# The JSON literals of strings as jsonlite::toJSON() writes them (NA:
# null): the strings made valid UTF-8 (esc_utf8()), one toJSON() of the
# distinct ones read back literal by literal, and the characters jsonlite
# leaves raw escaped (esc_json_text()).
site_json_strings <- function(x) {
  x <- esc_utf8(x)
  out <- rep("null", length(x))
  ok <- !is.na(x)
  if (!any(ok)) return(out)
  u <- unique(x[ok])
  doc <- as.character(jsonlite::toJSON(u))
  lit <- regmatches(doc, gregexpr('"(?:[^"\\\\]++|\\\\.)*+"', doc, perl = TRUE))[[1L]]
  hidden <- grepl(esc_hidden_class, lit, perl = TRUE)
  if (any(hidden)) lit[hidden] <- esc_json_text(lit[hidden])
  out[ok] <- lit[match(x[ok], u)]
  out
}

# The JSON literals of numbers as jsonlite::toJSON(digits = NA, na =
# "null") writes them, from one call.
site_json_numbers <- function(x) {
  if (!length(x)) return(character())
  doc <- as.character(jsonlite::toJSON(x, digits = NA, na = "null"))
  strsplit(substr(doc, 2L, nchar(doc) - 1L), ",", fixed = TRUE)[[1L]]
}

# The JSON value of each of the groups of count[1], count[2], ...
# consecutive literals: an array, and a group of one literal that literal
# (auto_unbox = TRUE).
site_json_groups <- function(lit, count) {
  out <- paste0("[", site_paste_groups(lit, count, ","), "]")
  one <- count == 1L
  out[one] <- lit[(cumsum(count) - count + 1L)[one]]
  out
}

# CSV fields as site_write_csv() writes them: numbers with 15 significant
# digits, text quoted, NA empty.
site_csv_numbers <- function(x) {
  out <- formatC(x, digits = 15L, format = "g")
  out[is.na(x)] <- ""
  out
}

site_csv_text <- function(x) {
  x <- esc_utf8(as.character(x))
  out <- paste0('"', gsub('"', '""', x, fixed = TRUE), '"')
  out[is.na(x)] <- ""
  out
}

# paste(x[group], collapse = sep) of each of the groups of count[1],
# count[2], ... consecutive elements of x (the core pastes them).
site_paste_groups <- function(x, count, sep = "") {
  .Call(ffi_site_collapse, as.character(x), as.integer(count), sep)
}

# The points (x, y) of each of the groups of count[1], count[2], ...
# consecutive points as one string: paste(sprintf("%s%.1f%s%.1f%s",
# before, x, between, y, after), collapse = sep) of each group, written by
# the core.
site_paste_points <- function(x, y, count, before, between, after, sep) {
  .Call(ffi_site_points, as.double(x), as.double(y), as.integer(count),
        c(before, between, after, sep))
}

# The median() of each of the groups of len[1], len[2], ... consecutive
# values of x (none NA; NA for an empty group), from the core.
site_medians <- function(x, len) {
  .Call(ffi_site_medians, as.double(x), as.integer(len))
}

# Writes each text and a newline to the file of the same position (one
# write each, by the core).
site_write_files <- function(paths, texts) {
  bad <- .Call(ffi_site_write, as.character(paths), as.character(texts))
  if (bad > 0) abort(sprintf("`dir`: cannot write \"%s\".", esc_text(paths[bad])), class = "io")
  invisible()
}

# Every page of a comparison: b/NNNN.html, .csv and .json.
site_verdict_pages <- function(dir, model) {
  r <- model$rows
  p <- model$pages
  n <- nrow(r)
  if (!n) return(invisible())
  ok <- vapply(p, function(q) identical(q$kind, "verdict"), TRUE)
  name_html <- esc_html(r$benchmark)
  head <- paste(c("<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
                  sprintf('<meta http-equiv="Content-Security-Policy" content="%s">', site_csp),
                  '<meta name="viewport" content="width=device-width, initial-scale=1">'),
                collapse = "\n")
  top <- sprintf("%s\n<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n%s\n<h1>%s</h1>",
                 head, name_html, site_css, site_nav(r$id), name_html)
  body <- character(n)
  msg <- vapply(p[!ok], function(q) q$message, "")
  body[!ok] <- sprintf("<p>This benchmark could not be analysed:</p>\n<pre>%s</pre>",
                       esc_html(msg))
  # the verdicts: their lines, the runs of each version and the picture
  # (none when no benchmark could be analysed)
  iv <- which(ok)
  csv <- character(n)
  csv[!ok] <- paste0('"message"\n', site_csv_text(msg))
  num <- site_json_numbers(c(r$speedup, r$conf_low, r$conf_high))
  json <- sprintf('{"benchmark":%s,"decision":%s,"speedup":%s,"conf_low":%s,"conf_high":%s',
                  site_json_strings(r$benchmark), site_json_strings(r$decision),
                  num[seq_len(n)], num[n + seq_len(n)], num[2L * n + seq_len(n)])
  json[!ok] <- sprintf('%s,"error":%s}', json[!ok], site_json_strings(msg))
  if (length(iv)) {
    lines <- lapply(p[iv], `[[`, "lines")
    nl <- lengths(lines)
    lines <- unlist(lines, use.names = FALSE)
    pre <- site_paste_groups(esc_html(lines), nl, "\n")
    labs <- lapply(p[iv], function(q) names(q$samples))
    xs <- lapply(p[iv], function(q) q$samples[[1L]])
    ys <- lapply(p[iv], function(q) q$samples[[2L]])
    lab1 <- vapply(labs, `[`, "", 1L)
    lab2 <- vapply(labs, `[`, "", 2L)
    alt <- sprintf("Run times of %s: %s median %s, %s median %s", esc_text(r$benchmark[iv]),
                   esc_text(lab1), fmt_time(r$old_median[iv]), esc_text(lab2),
                   fmt_time(r$new_median[iv]))
    svg <- svg_runs_many(xs, ys, lab1, lab2, alt)
    body[iv] <- sprintf("<h2>The verdict</h2>\n<pre>%s</pre>\n<h2>Runs in recorded order and distributions</h2>\n%s",
                        pre, svg)
    # the data: the runs (or the message) as CSV and JSON
    nx <- lengths(xs)
    ny <- lengths(ys)
    g <- rep(rep(seq_along(iv), 2L), c(nx, ny))
    o <- order(g)
    version <- rep(c(lab1, lab2), c(nx, ny))[o]
    run <- c(sequence(nx), sequence(ny))[o]
    time <- c(unlist(xs, use.names = FALSE), unlist(ys, use.names = FALSE))[o]
    g <- g[o]
    nr <- nx + ny
    csv[iv] <- paste0('"version","run","time"',
                      site_paste_groups(paste0("\n", site_csv_text(version), ",", site_csv_numbers(run), ",",
                                               site_csv_numbers(time)), nr))
    json[iv] <- sprintf('%s,"verdict":%s,"runs":{"version":%s,"run":%s,"time":%s}}', json[iv],
                        site_json_groups(site_json_strings(lines), nl),
                        site_json_groups(site_json_strings(version), nr),
                        site_json_groups(site_json_numbers(run), nr),
                        site_json_groups(site_json_numbers(time), nr))
  }
  html <- paste0(top, "\n", body, "\n</body>\n</html>")
  # each page's three files, in the order of the pages
  ext <- c("html", "csv", "json")
  site_write_files(file.path(dir, site_file("b", rep(r$id, each = 3L), ext)),
                   rbind(html, csv, json))
  invisible()
}

site_index <- function(dir, model, title) {
  r <- model$rows
  reg <- r$direction == "slowdown"
  cls <- ifelse(r$direction %in% c("speedup", "slowdown", "error"), r$direction, "")
  hist <- identical(model$kind, "history")
  head <- c("benchmark", "decision", if (hist) "speedup of the last change" else "speedup",
            "interval", if (hist) "before" else "old", if (hist) "after" else "new",
            if (hist) "history", "caveats")
  cells <- cbind(
    sprintf('<td class="name" data-label="benchmark"><a href="%s">%s</a></td>',
            site_file("b", r$id, "html"), esc_html(r$benchmark)),
    sprintf('<td data-label="decision" class="%s">%s</td>', cls, esc_html(r$decision)),
    sprintf('<td data-label="speedup" class="num">%s</td>', esc_html(ifelse(is.na(r$speedup), "", fmt_factor_change(r$speedup)))),
    sprintf('<td data-label="interval" class="num">%s</td>', site_interval(r$conf_low, r$conf_high)),
    sprintf('<td data-label="%s" class="num">%s</td>', head[5L], esc_html(r$old)),
    sprintf('<td data-label="%s" class="num">%s</td>', head[6L], esc_html(r$new)),
    if (hist) sprintf("<td>%s</td>", r$spark),
    sprintf('<td data-label="caveats">%s</td>', esc_html(r$caveats)))
  trs <- sprintf('<tr data-reg="%d" data-name="%s">%s</tr>', as.integer(reg),
                 esc_html(tolower(r$benchmark)), apply(cells, 1L, paste, collapse = ""))
  counts <- table(factor(r$direction, levels = c("speedup", "slowdown", "equivalent", "none", "error")))
  body <- c(
    sprintf("<h1>%s</h1>", esc_html(title)),
    sprintf("<p>%d %s: %d faster, %d slower, %d within the tolerance, %d without a decision, %d not analysed. Speedup: old time / new time; the interval is the verdict's own.</p>",
            nrow(r), if (hist) "series" else "benchmarks", counts[["speedup"]],
            counts[["slowdown"]], counts[["equivalent"]], counts[["none"]], counts[["error"]]),
    '<div class="controls" role="search">',
    '<label>Search <input type="search" id="q" aria-label="search the benchmark names"></label>',
    sprintf('<label><input type="checkbox" id="reg"> %s only</label>',
            if (hist) "regressions" else "slowdowns (regressions)"),
    sprintf('<span><span id="shown">%d</span> of %d shown</span>', nrow(r), nrow(r)),
    '<a href="index.csv">index.csv</a> <a href="index.json">index.json</a>', "</div>",
    '<table class="index">', "<thead><tr>", paste0("<th>", esc_html(head), "</th>", collapse = ""),
    "</tr></thead>", "<tbody>", trs, "</tbody></table>")
  site_write_lines(site_page(title, body, site_js), file.path(dir, "index.html"))
  data <- r[setdiff(names(r), "spark")]
  site_write_csv(data, file.path(dir, "index.csv"))
  site_write_json(data, file.path(dir, "index.json"))
  invisible(file.path(dir, "index.html"))
}

site_nav <- function(id, data = TRUE, kind = "b") {
  sprintf('<nav><a href="../index.html">index</a>%s</nav>',
          if (data) sprintf(' &middot; data: <a href="%04d.csv">CSV</a> <a href="%04d.json">JSON</a>', id, id) else "")
}

site_benchmark_page <- function(dir, model, i) {
  r <- model$rows[i, ]
  p <- model$pages[[i]]
  name <- r$benchmark
  body <- c(site_nav(r$id), sprintf("<h1>%s</h1>", esc_html(name)))
  json <- list(benchmark = name, decision = r$decision, speedup = r$speedup,
               conf_low = r$conf_low, conf_high = r$conf_high)
  if (identical(p$kind, "error")) {
    body <- c(body, "<p>This benchmark could not be analysed:</p>",
              sprintf("<pre>%s</pre>", esc_html(p$message)))
    json$error <- p$message
    data <- data.frame(message = p$message)
  } else if (identical(p$kind, "verdict")) {
    alt <- sprintf("Run times of %s: %s", esc_text(name), paste(sprintf(
      "%s median %s", esc_text(names(p$samples)), fmt_time(vapply(p$samples, stats::median, 0))),
      collapse = ", "))
    body <- c(body, "<h2>The verdict</h2>", sprintf("<pre>%s</pre>", paste(esc_html(p$lines), collapse = "\n")),
              "<h2>Runs in recorded order and distributions</h2>",
              svg_runs(p$samples, title = alt))
    data <- p$data
    json$verdict <- p$lines
    json$runs <- as.list(data)
  } else {
    s <- p$series
    ch <- s$changes
    alt <- sprintf("Process values of %s per commit, %d change(s)", esc_text(name), nrow(ch))
    links <- if (nrow(ch)) sprintf(
      '<tr><td><a href="../%s">#%s</a></td><td>%s</td><td>%s..%s</td><td>%s to %s</td><td class="num">%s %s</td><td>%s</td></tr>',
      site_file("c", p$first_change + seq_len(nrow(ch)) - 1L, "html"), ch$change_id,
      esc_html(ch$decision), esc_html(ch$range_from), esc_html(ch$range_to),
      esc_html(ch$last_good), esc_html(ch$first_bad),
      esc_html(fmt_factor_change(1 / ch$ratio)), site_interval(1 / ch$conf_high, 1 / ch$conf_low),
      esc_html(ch$state)) else character()
    body <- c(body, sprintf("<p>Machine %s, branch %s: %d commits, %d processes.</p>",
                            esc_html(s$machine), esc_html(s$branch),
                            length(unique(s$values$position)), nrow(s$values)),
              "<h2>Per-commit process values, stable stretches and changes</h2>",
              svg_history(s, alt),
              "<h2>Changes</h2>",
              if (nrow(ch)) c("<table><thead><tr><th>change</th><th>decision</th><th>range</th><th>last good to first bad</th><th>speedup [interval]</th><th>state</th></tr></thead><tbody>",
                              links, "</tbody></table>") else "<p>No change found.</p>")
    data <- s$values
    json$values <- as.list(data)
    json$changes <- as.list(ch)
  }
  site_write_lines(site_page(name, body), file.path(dir, site_file("b", r$id, "html")))
  site_write_csv(data, file.path(dir, site_file("b", r$id, "csv")))
  site_write_json(json, file.path(dir, site_file("b", r$id, "json")))
}

site_change_page <- function(dir, model, j) {
  ch <- model$changes[[j]]
  r <- ch$row
  name <- model$rows$benchmark[ch$series]
  title <- sprintf("Change #%s of %s", r$change_id, name)
  samples <- list(before = ch$before, after = ch$after)
  alt <- sprintf("Process values of %s before (median %s) and after (median %s) change #%s",
                 esc_text(name), fmt_time(stats::median(ch$before)),
                 fmt_time(stats::median(ch$after)), r$change_id)
  body <- c(
    sprintf('<nav><a href="../index.html">index</a> &middot; <a href="../%s">the series</a> &middot; data: <a href="%04d.csv">CSV</a> <a href="%04d.json">JSON</a></nav>',
            site_file("b", ch$series, "html"), j, j),
    sprintf("<h1>%s</h1>", esc_html(title)),
    "<table><tbody>",
    sprintf("<tr><th>decision</th><td>%s</td></tr>", esc_html(r$decision)),
    sprintf("<tr><th>ratio new / old</th><td class=\"num\">%s %s (%s)</td></tr>",
            formatC(r$ratio, digits = 4L, format = "fg"), site_interval(r$conf_low, r$conf_high),
            esc_html(fmt_factor_change(1 / r$ratio))),
    sprintf("<tr><th>last good, first bad</th><td>%s, %s</td></tr>", esc_html(r$last_good), esc_html(r$first_bad)),
    sprintf("<tr><th>commit range holding the change</th><td>%s .. %s (positions %s to %s)</td></tr>",
            esc_html(r$range_from), esc_html(r$range_to), r$pos_from, r$pos_to),
    sprintf("<tr><th>processes before, after</th><td>%d, %d</td></tr>", r$n_before, r$n_after),
    sprintf("<tr><th>p-value (adjusted)</th><td>%s (%s)</td></tr>", fmt_p(r$p_value), fmt_p(r$p_adjusted)),
    sprintf("<tr><th>method</th><td>%s</td></tr>", esc_html(r$method)),
    sprintf("<tr><th>state</th><td>%s</td></tr>", esc_html(r$state)),
    "</tbody></table>",
    "<h2>Before and after</h2>", svg_runs(samples, title = alt),
    "<h2>Re-test it</h2>",
    "<p>Re-measure the last good against the first bad commit, interleaved and sequentially until decided:</p>",
    sprintf("<pre>%s</pre>", esc_html(ch$command)))
  site_write_lines(site_page(title, body), file.path(dir, site_file("c", j, "html")))
  data <- data.frame(side = rep(c("before", "after"), c(length(ch$before), length(ch$after))),
                     value = c(ch$before, ch$after), stringsAsFactors = FALSE)
  site_write_csv(data, file.path(dir, site_file("c", j, "csv")))
  site_write_json(list(change = as.list(r), values = as.list(data), command = ch$command),
                  file.path(dir, site_file("c", j, "json")))
}
