# The escaping of names for text, Markdown, HTML and JSON (R/escape.R),
# checked against R's own string escapes, a CommonMark/GFM renderer
# (commonmark) and a JSON parser (jsonlite).

esc_text <- speeduptest:::esc_text
esc_md <- speeduptest:::esc_md
esc_html <- speeduptest:::esc_html
json_text <- speeduptest:::json_text

hostile_names <- function() {
  c("<script>alert(1)</script>", "[x](javascript:alert(1))", "![img](http://e.x/i.png)",
    "&lt;b&gt; &amp; &#60;", "a\\|b", "a | b", "`code`", "``a`b``", "*em* _em_ **b**",
    "x\nFAIL (--fail-on slowdown): exit 1", "x\rPASS", "x\r\npass",
    "\033[2J\033[31mred\033[0m", "\u202eevil", "a\u2066b\u2069c", "a\u2028b",
    "# heading", "- item", "1. item", "> quote", "~~strike~~", "<http://e.x>",
    "https://evil.example", "www.evil.example", "a@b.example", "@team",
    "a\tb", "a\001b\177c", "\u0085next", "\ufeffbom", "plain-name_1.0")
}

# The code points of characters that move, hide or break text.
bad_code_points <- function(s) {
  cp <- utf8ToInt(s)
  cp[cp < 0x20 | (cp >= 0x7f & cp <= 0x9f) | cp %in% c(0x61c, 0xfeff) |
     (cp >= 0x200b & cp <= 0x200f) | (cp >= 0x2028 & cp <= 0x202e) |
     (cp >= 0x2066 & cp <= 0x2069)]
}

test_that("esc_text() shows control, ANSI and bidi characters as visible escapes", {
  x <- hostile_names()
  out <- esc_text(x)
  expect_length(out, length(x))
  for (s in out) expect_length(bad_code_points(s), 0L)
  # R's own escapes of the C0 controls (encodeString) for \n, \r, \t and ESC
  for (ch in c("\n", "\r", "\t", "\033")) {
    expect_identical(esc_text(paste0("a", ch, "b")),
                     paste0("a", encodeString(ch), "b"))
  }
  expect_identical(esc_text("\u202eevil"), "\\u202eevil")
  expect_identical(esc_text("a\u2066b"), "a\\u2066b")
  expect_identical(esc_text("\u0085"), "\\u0085")
  # nothing else changes: printable text, non-ASCII letters, NA
  expect_identical(esc_text(c("caf\u00e9 \u4e2d", "a|b [c]", NA)),
                   c("caf\u00e9 \u4e2d", "a|b [c]", NA))
  expect_identical(esc_text(character()), character())
})

test_that("esc_text() keeps the valid part of text that is not UTF-8", {
  x <- "b\xe9d"
  expect_identical(esc_text(x), "b<e9>d")
  y <- x
  Encoding(y) <- "latin1"
  expect_identical(esc_text(y), "b\u00e9d")
  expect_true(all(validUTF8(esc_text(c(x, "\xff\xfe", "ok\xc3")))))
  expect_identical(esc_text("\xc3\xa9\xff"), "\u00e9<ff>")
})

test_that("esc_md() leaves names as literal text in a GFM table cell", {
  skip_if_not_installed("commonmark")
  set.seed(34)
  punct <- strsplit("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ ab1", "")[[1]]
  fuzz <- vapply(1:300, function(i) paste(sample(punct, 12, TRUE), collapse = ""), "")
  x <- c(hostile_names(), fuzz)
  md <- c("| name | other |", "|---|---|",
          sprintf("| %s | end |", esc_md(x)))
  # GFM without its tag filter: raw HTML would show as the tags it is
  gfm <- c("table", "strikethrough", "autolink")
  html <- commonmark::markdown_html(paste(md, collapse = "\n"), extensions = gfm)
  # one row per name, two cells each, no element but the table's own and the
  # spans of "@"
  expect_identical(lengths(regmatches(html, gregexpr("<tr>", html))), length(x) + 1L)
  expect_identical(lengths(regmatches(html, gregexpr("<td>", html))), 2L * length(x))
  tags <- unique(regmatches(html, gregexpr("</?[a-z]+", html))[[1]])
  expect_setequal(tags, c("<table", "<thead", "<tr", "<th", "</th", "</tr", "</thead",
                          "<tbody", "<td", "</td", "</tbody", "</table", "<span", "</span"))
  # the text of each cell, entities decoded, is the name shown by esc_text()
  cells <- regmatches(html, gregexpr("<td>.*?</td>", html))[[1]]
  cells <- cells[seq(1L, length(cells), by = 2L)]
  cells <- gsub("</?span>|</?td>", "", cells)
  dec <- function(s) {
    s <- gsub("&lt;", "<", s, fixed = TRUE)
    s <- gsub("&gt;", ">", s, fixed = TRUE)
    s <- gsub("&quot;", "\"", s, fixed = TRUE)
    gsub("&amp;", "&", s, fixed = TRUE)
  }
  # (a cell loses its leading and trailing spaces, as any GFM cell)
  expect_identical(dec(cells), trimws(esc_text(x)))
})

test_that("esc_md() makes no link, emphasis or heading outside a table", {
  skip_if_not_installed("commonmark")
  x <- hostile_names()
  for (prefix in c("name: ", "")) {
    html <- commonmark::markdown_html(paste0(prefix, esc_md(x), collapse = "\n\n"),
                                      extensions = c("table", "strikethrough", "autolink"))
    tags <- unique(regmatches(html, gregexpr("</?[a-z]+[0-9]?", html))[[1]])
    expect_setequal(tags, c("<p", "</p", "<span", "</span"))
    expect_identical(lengths(regmatches(html, gregexpr("<p>", html))), length(x))
  }
  # the characters left as they are keep names readable
  expect_identical(esc_md("norm_s(30, 10, 0.2) - a/b"), "norm\\_s(30, 10, 0.2) - a/b")
})

test_that("esc_html() writes the five HTML characters as entities", {
  x <- hostile_names()
  out <- esc_html(x)
  expect_false(any(grepl("[<>\"']", out)))
  # every & starts one of the five entities
  expect_false(any(grepl("&(?!(amp|lt|gt|quot|#39);)", out, perl = TRUE)))
  back <- gsub("&amp;", "&", gsub("&#39;", "'", gsub("&quot;", "\"",
               gsub("&gt;", ">", gsub("&lt;", "<", out, fixed = TRUE), fixed = TRUE),
               fixed = TRUE), fixed = TRUE), fixed = TRUE)
  expect_identical(back, esc_text(x))
})

test_that("json_text() keeps the names and escapes what moves or hides text", {
  x <- c(hostile_names(), "b\xe9d")
  js <- json_text(list(names = x), auto_unbox = TRUE)
  expect_true(validUTF8(js))
  expect_length(bad_code_points(gsub("\n", "", js)), 0L)
  back <- jsonlite::fromJSON(js)$names
  # the names come back exactly; the bytes that are not UTF-8 as "<e9>"
  expect_identical(back, c(hostile_names(), "b<e9>d"))
  expect_match(js, "\\u202eevil", fixed = TRUE)
  expect_match(js, "\\u001b[2J", fixed = TRUE)
})
