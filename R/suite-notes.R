# The report text of a suite: why a benchmark's speedup was not declared
# or may not hold at its level (`notes`), and what chance alone gives over
# many benchmarks (the multiplicity lines of the print and the report).

#' What chance alone gives on a suite
#'
#' Lines about multiplicity for the print and the report of a
#' [speedup_suite()]: without adjustment (`p_adjust = "none"`, the paper's
#' choice) how many significant speedups chance alone gives when nothing
#' changed (about alpha times the number of benchmarks tested, for each
#' protocol), and that the overall gain over the significant benchmarks is
#' computed on a selection; with an adjustment, which one.
#'
#' @param suite A [speedup_suite()] result.
#' @return A character vector of lines (at most 80 characters).
#' @examples
#' set.seed(1)
#' same <- lapply(1:50, function(i) list(x = rlnorm(35), y = rlnorm(35)))
#' names(same) <- paste0("b", 1:50)
#' suite_multiplicity_lines(speedup_suite(same))
#' @export
suite_multiplicity_lines <- function(suite) {
  check_suite(suite)
  mu <- suite$multiplicity
  adj <- if (is.null(suite$p_adjust)) "none" else suite$p_adjust
  if (is.null(mu) || !any(mu$tested > 0)) return(character())
  if (adj != "none") {
    what <- c(holm = "Holm (family-wise error)", BH = "Benjamini-Hochberg (false discovery rate)")[[adj]]
    return(strwrap(sprintf(
      "Multiplicity: the p-values of the %s benchmarks tested were adjusted by %s before each decision.",
      format(max(mu$tested)), what), width = 79))
  }
  first <- suite_protocols(suite, ranked = TRUE)[1L]
  lev <- unique(round(suite$benchmarks[[paste0(first, "_conf_level")]], 6))
  at <- if (length(lev) == 1L) sprintf("at alpha = %s", format(1 - lev)) else "at their levels"
  ef <- mu$expected_false
  same <- all(vapply(ef[-1L], function(e) isTRUE(all.equal(ef[1L], e)), NA))
  exp_txt <- if (same) fmt_num(ef[length(ef)], 2L)
  else and_list(sprintf("%s (%s)", fmt_num(ef, 2L),
                        vapply(mu$protocol, function(p) protocol_info(p)$label, "")))
  c(strwrap(sprintf(
    "Multiplicity (no adjustment): with %s benchmarks tested %s, chance alone gives about %s significant speedups (and as many slowdowns) even if nothing changed; p_adjust = \"BH\" or \"holm\" controls them.",
    format(max(mu$tested)), at, exp_txt), width = 79),
    strwrap("The overall gain over the significant benchmarks is computed on a selection (the benchmarks that passed a test) and overstates the gain.",
            width = 79))
}

# Why a speedup was not declared, or why its level may be wrong.
# directions: NULL, or for each protocol the rows of decision_table of its
# directions (one per benchmark of bm), as new_speedup_suite() has them;
# long: NULL, or the suite's long table of bm (whose benchmark and
# protocol columns are those of notes on every benchmark and protocol).
suite_notes <- function(bm, adjusted = FALSE, protocols = suite_default_protocols,
                        directions = NULL, long = NULL) {
  idx <- list()
  # the sentences as groups of rows, each the pieces of join_rows(), for
  # each note its group and its row in the group (the sentences are made
  # when read: lazy_rows()).  The groups of a protocol share its pieces:
  # each piece is one value per row shown (or one for all), and a note's
  # row in its group is its row among those shown.
  groups <- list()
  sizes <- integer()
  grp <- list()
  # a group of the n rows shown: its number
  add_group <- function(...) {
    groups[[length(groups) + 1L]] <<- list(...)
    sizes[length(groups)] <<- n
    length(groups)
  }
  p_name <- if (adjusted) "adjusted p-value" else "p-value"
  fmt3_coded <- round_coder(3L)
  for (p in protocols) {
    col <- function(name) bm[[paste0(p, "_", name)]]
    dirn <- col("direction")
    gua <- col("guaranteed")
    # every row is shown when none is guaranteed (timings of one process
    # per version): the columns are then read as they are
    all_rows <- !anyNA(gua) && !any(gua)
    show <- if (all_rows) seq_along(gua) else which(!is_word(dirn, "speedup") | !gua)
    n <- length(show)
    if (!n) next
    shown <- if (all_rows) function(v) v else function(v) v[show]
    # the sentences of the rows shown only (most benchmarks show none),
    # joined by join_rows(): the strings of sprintf() and paste0(), at a
    # third and two thirds of their cost on such long sentences
    lev <- shown(col("conf_level"))
    cav <- shown(col("caveats"))
    sp <- shown(bm[[paste0("speedup_", protocol_info(p)$centre)]])
    what <- protocol_info(p)$what
    dirn <- shown(dirn)
    # the pieces are coded (lazy_rows()): each row's position among the
    # distinct strings, made once each (a suite repeats a handful of
    # caveats and a few hundred figures over thousands of rows)
    cav_u <- unique(cav)
    cav_at <- match(cav, cav_u)
    # "<sep><caveats>", or "" without caveats
    tail_cav <- function(sep) {
      out <- cav_u
      nz <- nzchar(cav_u)
      out[nz] <- paste0(sep, cav_u[nz])
      coded(cav_at, out)
    }
    # the kind of each row's sentence: 1 insufficient data (no
    # direction), 3 a speedup, 2 any other direction (not significant)
    d_row <- if (is.null(directions)) decision_row(dirn) else shown(directions[[p]])
    kind <- if (anyNA(d_row)) {
      1L + !is.na(dirn) + is_word(dirn, "speedup")
    } else {
      c(3L, 2L, 2L, 2L, 1L)[d_row]
    }
    counts <- tabulate(kind, 3L)
    # the group of each kind
    gid <- integer(3L)
    if (counts[1L]) {
      gid[1L] <- add_group(what, ": insufficient data", tail_cav(": "))
    }
    # the words of the rows with a decision (each a function of its row's
    # value alone: made for every row shown, read for those)
    sp_txt <- fmt3_coded(sp)
    lev_txt <- coded_distinct(lev, function(u) round_text(u, 4L))
    # (an unknown direction reads as itself: decision_words())
    dw <- if (anyNA(d_row)) decision_words(dirn) else coded(d_row, decision_table$words)
    if (counts[2L]) {
      i <- which(kind == 2L)
      # the p-value the decision used: adjusted when the suite adjusts;
      # the slowdowns' and the equivalences' own in place (decision_p())
      pa <- or_na(col("p_adjusted"), col("p_value"))
      pd <- shown(pa)[i]
      slow <- which(is_word(dirn[i], "slowdown"))
      if (length(slow)) {
        psa <- or_na(col("p_adjusted_slowdown"), col("p_value_slowdown"))
        pd[slow] <- shown(psa)[i[slow]]
      }
      equiv <- which(is_word(dirn[i], "equivalent"))
      pe <- col("p_value_equivalence")
      if (length(equiv) && !is.null(pe)) pd[equiv] <- shown(pe)[i[equiv]]
      pd_txt <- fmt3_coded(pd)
      if (is.integer(pd_txt)) {
        # "" in the rows of the other groups
        at <- rep(length(levels(pd_txt)) + 1L, n)
        at[i] <- pd_txt
        pd_txt <- coded(at, c(levels(pd_txt), ""))
      } else {
        txt <- character(n)
        txt[i] <- pd_txt
        pd_txt <- txt
      }
      gid[2L] <- add_group(what, " = ", sp_txt, ": ", dw, " at confidence ", lev_txt,
                           " (", p_name, " ", pd_txt, ")", tail_cav("; "))
    }
    if (counts[3L]) {
      gid[3L] <- add_group(what, " = ", sp_txt, ": ", dw, " at confidence ", lev_txt,
                           ", but 1 - alpha may not be the correct confidence level: ",
                           coded(cav_at, cav_u))
    }
    idx[[p]] <- show
    grp[[p]] <- gid[kind]
  }
  # benchmark by benchmark, the protocols' notes in their order (benchmark
  # names are unique, so a row's index orders it); when every protocol
  # shows every benchmark, that order is each benchmark's protocols in turn
  k <- length(idx)
  nb <- length(bm$benchmark)
  if (k && nb && all(lengths(idx) == nb) && is.null(attributes(bm$benchmark))) {
    same <- !is.null(long) && k == length(protocols)
    return(new_frame(list(
      benchmark = if (same) long$benchmark else rep(bm$benchmark, each = k),
      protocol = if (same) long$protocol else rep(names(idx), times = nb),
      message = lazy_rows(groups, sizes, interleave_columns(unname(grp)),
                          rep(seq_len(nb), each = k)))))
  }
  at <- c(integer(), unlist(idx, use.names = FALSE))
  o <- order(at)
  proto <- c(character(), rep(names(idx), lengths(idx)))
  g <- c(integer(), unlist(grp, use.names = FALSE))[o]
  r <- c(integer(), unlist(lapply(idx, seq_along), use.names = FALSE))[o]
  new_frame(list(benchmark = bm$benchmark[at[o]], protocol = proto[o],
                 message = lazy_rows(groups, sizes, g, r)))
}

# The rows of text of `groups` (each a list of the pieces of join_rows(),
# plain or coded (coded()), of length 1 or of the group's size `sizes`),
# row r[i] of group g[i] for
# each i:
# a character vector whose strings are made when read (ffi_paste_rows_lazy,
# src/paste.c), or made now by join_rows() when the pieces cannot be
# joined there; the same strings either way.
lazy_rows <- function(groups, sizes, g, r) {
  out <- if (length(g)) .Call(ffi_paste_rows_lazy, groups, sizes, g, r)
  if (is.null(out)) {
    made <- lapply(seq_along(groups), function(k) {
      do.call(join_rows, c(list(sizes[k]), lapply(groups[[k]], uncoded)))
    })
    out <- character(length(g))
    for (k in seq_along(groups)) out[g == k] <- made[[k]][r[g == k]]
  }
  out
}

# x as a coded piece: each value's position among the distinct values,
# whose strings text(u) gives (one value: one string, no hashing).
coded_distinct <- function(x, text) {
  if (length(x) && is.null(attributes(x)) && !anyNA(x) && all(x == x[1L])) {
    return(coded(rep(1L, length(x)), text(x[1L])))
  }
  u <- unique(x)
  coded(match(x, u), text(u))
}

# A coded piece of lazy_rows(): row i's text is levels[code[i]] ("NA" for
# a missing code), as a factor's.
coded <- function(code, levels) {
  attr(code, "levels") <- levels
  code
}

# The text of a piece, coded or not.
uncoded <- function(piece) {
  if (is.integer(piece) && is.character(attr(piece, "levels"))) {
    attr(piece, "levels")[piece]
  } else {
    piece
  }
}

# paste0(...) of character pieces, each of length 1 or n, as n rows: one
# pass of C (ffi_paste_rows, src/paste.c) when the text needs no
# translation, paste0() otherwise; the same strings either way.
join_rows <- function(n, ...) {
  out <- .Call(ffi_paste_rows, list(...), as.double(n))
  if (is.null(out)) out <- paste0(...)
  out
}
