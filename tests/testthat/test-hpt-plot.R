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
