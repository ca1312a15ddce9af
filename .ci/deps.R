# Installs what the package needs to be built, tested and checked, skipping
# what is already present: the R packages named in DESCRIPTION (Imports and
# Suggests), plus roxygen2 with "docs", and the programs the live tests use
# (hyperfine, Google Benchmark, the PostgreSQL server of the history
# tests, headless Chromium and HTML Tidy for the report site).  Debian's r-cran-* packages are used when apt-get can install
# them (they come built); the rest comes from CRAN.
args <- commandArgs(trailingOnly = TRUE)
dcf <- read.dcf("DESCRIPTION", fields = c("Imports", "Suggests"))
fields <- if ("runtime" %in% args) "Imports" else c("Imports", "Suggests")
pkgs <- unlist(strsplit(dcf[, fields], ","))
pkgs <- trimws(sub("\\(.*", "", pkgs))
pkgs <- setdiff(pkgs[nzchar(pkgs) & !is.na(pkgs)],
                c("graphics", "grDevices", "stats", "utils", "tools", "methods",
                  "parallel", "grid"))
if ("docs" %in% args) pkgs <- c(pkgs, "roxygen2")
# "vignettes": what R CMD build needs to build the vignettes
if ("vignettes" %in% args) pkgs <- c(pkgs, "knitr", "rmarkdown")
if (!("runtime" %in% args)) pkgs <- c("testthat", pkgs)
pkgs <- unique(pkgs)
have <- function(p) requireNamespace(p, quietly = TRUE)
missing <- pkgs[!vapply(pkgs, have, logical(1))]

root <- identical(Sys.info()[["effective_user"]], "root")
apt <- root && nzchar(Sys.which("apt-get"))
programs <- if ("runtime" %in% args) character() else
  c(hyperfine = "hyperfine", "libbenchmark-dev" = "/usr/include/benchmark/benchmark.h",
    # the PostgreSQL server the history tests start (initdb, pg_ctl), and the
    # client library RPostgres is built against when it comes from CRAN
    postgresql = "/usr/lib/postgresql", "libpq-dev" = "/usr/include/postgresql/libpq-fe.h",
    # the browser that opens the report site, and the HTML validator
    chromium = "chromium", tidy = "tidy")
if ("vignettes" %in% args) programs <- c(programs, pandoc = "pandoc")
need_prog <- names(programs)[!nzchar(Sys.which(programs)) & !file.exists(programs)]

if (apt && (length(missing) || length(need_prog))) {
  system("apt-get update -qq > /dev/null 2>&1")
  debs <- c(paste0("r-cran-", tolower(missing)), need_prog)
  for (d in debs) {
    system(paste("DEBIAN_FRONTEND=noninteractive apt-get install -y -qq", d,
                 "> /dev/null 2>&1"))
  }
  missing <- missing[!vapply(missing, have, logical(1))]
}
if (length(missing)) {
  repos <- getOption("repos")
  if (is.null(repos) || identical(unname(repos["CRAN"]), "@CRAN@")) {
    repos <- c(CRAN = "https://cloud.r-project.org")
  }
  install.packages(missing, repos = repos)
}
if ("vignettes" %in% args && !nzchar(Sys.which("pandoc")) &&
    !nzchar(Sys.getenv("RSTUDIO_PANDOC"))) {
  stop("building the vignettes needs pandoc: install it (https://pandoc.org) and run again.",
       call. = FALSE)
}
