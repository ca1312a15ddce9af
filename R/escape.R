# Names from input files (benchmark, version and baseline names, commands,
# labels) are data: wherever they are written they must stay text.  One
# escaping function per kind of output:
#
#   esc_text()      a terminal or a log: control characters, ANSI escape
#                   sequences, bidirectional controls and line separators
#                   shown as visible escapes ("\n", "\r", "\033", "\u202e"),
#                   so that a name can neither recolour or clear the
#                   terminal, nor forge a line, nor reorder what follows it.
#   esc_md()        Markdown (GitHub-flavoured, CommonMark, pandoc): the
#                   visible escapes of esc_text(), then a backslash before
#                   each character that can start markup anywhere in a
#                   line, \ ` * _ [ ] < > ! & | ~ # $ ^ : { } (CommonMark
#                   section 2.4: any ASCII punctuation may be escaped, and
#                   the escaped character is literal text), before the "."
#                   of "www." and before what would start a list item or a
#                   setext heading at the start of the text (- + = "1." "1)"),
#                   so that no name can add emphasis, a link (":" and
#                   "www." end GFM's autolinks), an image, raw HTML, an
#                   entity, a code span, math, a heading, a list item or a
#                   table cell.  The other characters ( ) . , - / stay
#                   readable: without "[" and "]" parentheses make no link.
#                   "@" is
#                   written "<span>@</span>", so that a name mentions nobody
#                   and is no e-mail link (GitHub's autolinks and mentions
#                   look at one run of text; an entity or a backslash is
#                   decoded before they look).
#   esc_html()      HTML text and attribute values: & < > " ' as entities,
#                   after the visible escapes of esc_text().
#   esc_json_text() the text of a JSON document made by jsonlite: jsonlite
#                   escapes the C0 controls; this escapes what it leaves raw
#                   (DEL, the C1 controls, the bidirectional controls, U+2028
#                   and U+2029) as \uXXXX.  These characters can occur only
#                   inside JSON strings, so the whole document can be
#                   passed.  The names keep their characters: a reader of
#                   the JSON gets them back exactly.
#
# Text that is not valid UTF-8 shows its bad bytes as "<e9>", as everywhere
# in the package (bytes_safe()), in every output, so that each stays valid
# UTF-8.  NA stays NA.

# The characters that move or hide text: the bidirectional embeddings,
# overrides and isolates (U+202A-U+202E, U+2066-U+2069), the marks (U+200E,
# U+200F, U+061C), the line and paragraph separators (U+2028, U+2029), the
# zero-width characters and the byte order mark (U+200B-U+200D, U+FEFF) and
# the C1 controls (U+0080-U+009F), with DEL.
esc_hidden_class <- "(*UTF)[\\x{7f}-\\x{9f}\\x{61c}\\x{200b}-\\x{200f}\\x{2028}-\\x{202e}\\x{2066}-\\x{2069}\\x{feff}]"

# x as UTF-8 text: strings marked in another encoding are converted, and the
# bytes of a string that is not valid UTF-8 are written "<e9>".
esc_utf8 <- function(x) {
  x <- as.character(x)
  if (!length(x)) return(character())
  na <- is.na(x)
  # native strings of a UTF-8 locale and bytes are taken as UTF-8, their
  # bad bytes written before enc2utf8() (which leaves "bytes" strings as
  # they are)
  enc <- Encoding(x)
  raw_utf8 <- enc == "bytes" | (enc == "unknown" & isTRUE(l10n_info()[["UTF-8"]]))
  bad <- !na & raw_utf8 & !validUTF8(x)
  if (any(bad)) x[bad] <- vapply(x[bad], esc_bytes, "", USE.NAMES = FALSE)
  x[!bad] <- enc2utf8(x[!bad])
  bad <- !na & !validUTF8(x)
  if (any(bad)) x[bad] <- vapply(x[bad], esc_bytes, "", USE.NAMES = FALSE)
  Encoding(x[!na]) <- "UTF-8"
  x
}

# One string that is not valid UTF-8: its valid UTF-8 sequences kept, every
# other byte written "<e9>".
esc_bytes <- function(s) {
  b <- charToRaw(s)  # charToRaw() reads the bytes whatever the mark
  out <- character()
  i <- 1L
  n <- length(b)
  while (i <= n) {
    lead <- as.integer(b[i])
    len <- if (lead < 0x80) 1L else if (lead >= 0xc2 && lead < 0xe0) 2L else
      if (lead >= 0xe0 && lead < 0xf0) 3L else if (lead >= 0xf0 && lead < 0xf5) 4L else 0L
    if (len > 0L && i + len - 1L <= n) {
      chunk <- rawToChar(b[i:(i + len - 1L)])
      if (validUTF8(chunk)) {
        out <- c(out, chunk)
        i <- i + len
        next
      }
    }
    out <- c(out, sprintf("<%02x>", lead))
    i <- i + 1L
  }
  out <- paste(out, collapse = "")
  Encoding(out) <- "UTF-8"
  out
}

# The visible escape of each character of `chars` (single characters):
# "\n", "\r", "\t", the other C0 controls in octal ("\033" for ESC, "\000"
# cannot occur in R strings), the others as "\uXXXX".
esc_visible <- function(chars) {
  cp <- vapply(chars, utf8ToInt, 0L, USE.NAMES = FALSE)
  out <- ifelse(cp < 0x20 | cp == 0x7f, sprintf("\\%03o", cp), sprintf("\\u%04x", cp))
  out[cp == 0x0a] <- "\\n"
  out[cp == 0x0d] <- "\\r"
  out[cp == 0x09] <- "\\t"
  out
}

# Replaces every match of the Perl class `cls` in x by its visible escape.
esc_replace <- function(x, cls) {
  ok <- !is.na(x)
  hit <- ok
  hit[ok] <- grepl(cls, x[ok], perl = TRUE)
  for (i in which(hit)) {
    m <- gregexpr(cls, x[i], perl = TRUE)
    regmatches(x[i], m) <- list(esc_visible(regmatches(x[i], m)[[1L]]))
  }
  x
}


# keep_tabs: tabs left as they are, for the files whose lines the package
# indents with tabs (the original tool's .warning).
esc_text <- function(x, keep_tabs = FALSE) {
  x <- esc_utf8(x)
  c0 <- if (keep_tabs) "[\\x{00}-\\x{08}\\x{0a}-\\x{1f}]|" else "[\\x{00}-\\x{1f}]|"
  esc_replace(x, paste0("(*UTF)", c0, sub("(*UTF)", "", esc_hidden_class, fixed = TRUE)))
}

# A message of several lines (joined by "\n"): each line through esc_text().
# For the messages of errors, whose own lines the package writes.
esc_text_lines <- function(x) {
  vapply(strsplit(esc_utf8(x), "\n", fixed = TRUE),
         function(l) paste(esc_text(l), collapse = "\n"), "")
}

# The ASCII punctuation that starts markup anywhere in a line.
esc_md_punct <- "([\\\\`*_\\[\\]<>!&|~#$^:{}])"

esc_md <- function(x) {
  x <- esc_text(x)
  ok <- !is.na(x)
  x[ok] <- gsub(esc_md_punct, "\\\\\\1", x[ok], perl = TRUE)
  x[ok] <- gsub("(?i)(www)\\.", "\\1\\\\.", x[ok], perl = TRUE)
  x[ok] <- sub("^([-+=])", "\\\\\\1", x[ok], perl = TRUE)
  x[ok] <- sub("^([0-9]+)([.)])", "\\1\\\\\\2", x[ok], perl = TRUE)
  x[ok] <- gsub("@", "<span>@</span>", x[ok], fixed = TRUE)
  x
}

esc_html <- function(x) {
  x <- esc_text(x)
  ok <- !is.na(x)
  s <- x[ok]
  s <- gsub("&", "&amp;", s, fixed = TRUE)
  s <- gsub("<", "&lt;", s, fixed = TRUE)
  s <- gsub(">", "&gt;", s, fixed = TRUE)
  s <- gsub("\"", "&quot;", s, fixed = TRUE)
  s <- gsub("'", "&#39;", s, fixed = TRUE)
  x[ok] <- s
  x
}

esc_json_text <- function(x) {
  x <- esc_utf8(x)
  ok <- !is.na(x)
  for (i in which(ok)) {
    if (!grepl(esc_hidden_class, x[i], perl = TRUE)) next
    m <- gregexpr(esc_hidden_class, x[i], perl = TRUE)
    cp <- vapply(regmatches(x[i], m)[[1L]], utf8ToInt, 0L, USE.NAMES = FALSE)
    regmatches(x[i], m) <- list(sprintf("\\u%04x", cp))
  }
  x
}

# jsonlite::toJSON() of `x`, its strings made valid UTF-8 first (esc_utf8()),
# and the characters it leaves raw escaped (esc_json_text()).  The writer of
# every JSON document the package makes from input names.
json_text <- function(x, ...) {
  x <- esc_utf8_tree(x)
  esc_json_text(as.character(jsonlite::toJSON(x, ...)))
}

# esc_utf8() over every character vector (and names) of a nested list.
esc_utf8_tree <- function(x) {
  if (is.list(x)) {
    nm <- names(x)
    a <- attributes(x)
    x <- lapply(x, esc_utf8_tree)
    attributes(x) <- a
    if (!is.null(nm)) names(x) <- esc_utf8(nm)
    return(x)
  }
  if (is.character(x) || is.factor(x)) {
    a <- attributes(x)
    if (is.factor(x)) {
      levels(x) <- esc_utf8(levels(x))
      return(x)
    }
    y <- esc_utf8(x)
    attributes(y) <- a
    return(y)
  }
  x
}
