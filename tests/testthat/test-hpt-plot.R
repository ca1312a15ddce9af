# plot() of the HPT and of the r-Speedup.

test_that("plot() of an HPT returns the confidence curve", {
  h <- hpt(splash2_hpt, higher_is_better = TRUE)
  out <- draw_png(h)
  expect_false(out$visible)
  cur <- out$value
  expect_named(cur, c("gamma", "confidence"))
  expect_equal(cur$confidence[1L], h$confidence)
  expect_gt(max(cur$gamma), 1)
  cur2 <- draw_png(h, gamma = c(1.5, 1), width = 7, height = 5, res = 96,
                   units = "in")$value
  expect_identical(cur2$gamma, c(1, 1.5))
  expect_equal(cur2$confidence[2L],
               hpt(splash2_hpt, higher_is_better = TRUE, speedup = 1.5)$confidence)
  expect_error(plot(h, gamma = c(1, -1)), class = "speeduptest_error_input")
})

test_that("plot() of an r-Speedup marks it", {
  x <- splash2_hpt
  x$score[x$machine == "X"] <- 1.76 * x$score[x$machine == "X"]
  sp <- hpt_speedup(x, higher_is_better = TRUE)
  cur <- draw_png(sp, width = 7, height = 5, res = 96, units = "in")$value
  expect_true(all(cur$confidence[cur$gamma <= sp$speedup] >= 0.95 - 1e-12))
  none <- sp
  none$test <- NULL
  expect_error(plot(none), class = "speeduptest_error_data")
})

test_that("autoplot() of an HPT names the benchmarks on the axis, never in the panel", {
  skip_if_not_installed("ggplot2")
  h <- hpt(splash2_hpt, higher_is_better = TRUE)
  p <- ggplot2::autoplot(h)
  geoms <- vapply(p$layers, function(l) class(l$geom)[1L], "")
  # no text drawn at d = 0 over the bars (it was clipped at the panel's edge)
  expect_false("GeomText" %in% geoms)
  b <- ggplot2::ggplot_build(p)
  labs <- b$layout$panel_params[[1L]]$y$get_labels()
  expect_identical(labs, rev(as.character(h$benchmarks$benchmark)))
  expect_identical(b$layout$panel_params[[2L]]$y$get_labels(),
                   c("0.00", "0.25", "0.50", "0.75", "1.00"))
  # ties are marked on the axis
  expect_true("GeomPoint" %in% geoms)
  # long names are cut in the middle and stay distinct
  d <- splash2_hpt
  d$benchmark <- paste0("a_benchmark_with_a_rather_long_name_", d$benchmark)
  labs <- ggplot2::ggplot_build(ggplot2::autoplot(hpt(d, higher_is_better = TRUE)))$
    layout$panel_params[[1L]]$y$get_labels()
  expect_true(all(nchar(labs) <= 28L))
  expect_identical(anyDuplicated(labs), 0L)
})
