# The words of every decision, in one place.  Every surface (print, summary,
# format, as.data.frame, tidy/glance, knit_print, plot and autoplot, the
# command line) reads them from here, so that a slowdown is called a
# slowdown everywhere.
#
# A decision is keyed by its direction, the field the verdicts and the
# suites carry: "speedup", "slowdown", "none", "equivalent"; NA when the
# protocol could not decide (insufficient data).
#   words:  the decision in full, the value of every `decision` column;
#   short:  for narrow columns (summary of a suite);
#   symbol: pch of the plots; colour: their colour.
decision_table <- data.frame(
  direction = c("speedup", "slowdown", "none", "equivalent", NA),
  words = c("significant speedup", "significant slowdown",
            "no significant difference", "equivalent", "insufficient data"),
  short = c("speedup", "slowdown", "none", "equiv.", "n/a"),
  pch = c(19L, 15L, 21L, 23L, 4L),
  colour = c("#0072B2", "#D55E00", "black", "#009E73", "#B00000"),
  stringsAsFactors = FALSE
)

decision_row <- function(direction) {
  d <- as.character(direction)
  i <- match(d, decision_table$direction)
  # an unknown direction (none is expected) reads as itself, never silently
  # as another decision
  i[is.na(d)] <- nrow(decision_table)
  i
}

# The decision in words from its direction(s).
decision_words <- function(direction) {
  out <- decision_table$words[decision_row(direction)]
  bad <- is.na(out)
  out[bad] <- as.character(direction)[bad]
  out
}

decision_short <- function(direction) {
  out <- decision_table$short[decision_row(direction)]
  bad <- is.na(out)
  out[bad] <- as.character(direction)[bad]
  out
}

decision_pch <- function(direction) {
  out <- decision_table$pch[decision_row(direction)]
  out[is.na(out)] <- 1L
  out
}

decision_colour <- function(direction) {
  out <- decision_table$colour[decision_row(direction)]
  out[is.na(out)] <- "grey40"
  out
}

# The direction from the old three-valued decision and the slowdown's
# p-value (for objects that carry no direction).
direction_from <- function(decision, p_slowdown, alpha) {
  out <- ifelse(decision == "significant", "speedup",
                ifelse(!is.na(p_slowdown) & p_slowdown <= alpha, "slowdown",
                       "none"))
  out[decision %in% "insufficient data"] <- NA_character_
  out
}

# The p-value the decision rests on: the slowdown test's for a slowdown,
# the speedup test's otherwise.
decision_p <- function(direction, p_speedup, p_slowdown) {
  ifelse(direction %in% "slowdown", p_slowdown, p_speedup)
}

# The interval of the speedup: its level, its estimator, and the words
# that say how it matches the one-sided decision.  Each decision is one
# one-sided test at level alpha (speedup: Ha x > y; slowdown: Ha x < y), so
# the interval printed beside it is the two-sided 1 - 2 alpha interval:
# each end is a one-sided 1 - alpha confidence bound, and the interval
# lies above 1 about when the speedup is significant, below 1 about when
# the slowdown is.
interval_level <- function(alpha) ifelse(alpha < 0.5, 1 - 2 * alpha, NA_real_)

interval_method <- function(test) {
  ifelse(test == "mean", "Fieller", "Hodges-Lehmann on log times")
}

# What the estimate printed beside the interval is.
interval_estimator <- function(test) {
  ifelse(test == "mean", "ratio of the means",
         "Hodges-Lehmann estimate on log times")
}

# "Fieller 90% interval" (mean), "90% interval" (median: the estimator
# already names Hodges-Lehmann).
interval_words <- function(test, level) {
  sprintf("%s%s interval", ifelse(test == "mean", "Fieller ", ""),
          fmt_pct(level))
}

interval_note <- function(alpha) {
  sprintf("each end a one-sided %s bound", fmt_pct(1 - alpha))
}

# "1.19 [1.09, 1.32]": the estimate and its interval, the interval rounded
# outwards and the estimate kept inside it, so that what is printed is
# always ordered low <= estimate <= high.  The command line prints the same.
fmt_estimate_ci <- function(est, ci, digits = 3L) {
  if (length(ci) != 2L || anyNA(ci)) return(fmt_num(est, digits))
  txt <- sub("Inf]", "Inf)", fmt_ci(ci, digits), fixed = TRUE)
  sprintf("%s %s", fmt_num(est, digits), txt)
}
