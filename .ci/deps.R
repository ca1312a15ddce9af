# Installs the packages the package needs to be built, tested and checked,
# from the configured CRAN mirror, skipping those already present.
args <- commandArgs(trailingOnly = TRUE)
need <- c("testthat", "jsonlite", "bench", "microbenchmark")
if ("docs" %in% args) need <- c(need, "roxygen2", "knitr", "rmarkdown")
missing <- need[!vapply(need, requireNamespace, logical(1), quietly = TRUE)]
if (length(missing)) install.packages(missing)
