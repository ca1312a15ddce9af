library(testthat)
library(speeduptest)

test_check("speeduptest")
