# Headless Chromium for the report site's tests: the path of the browser,
# or NULL when it is not installed (the tests then skip and say why).
chromium_path <- function() {
  for (p in c(Sys.getenv("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser",
              Sys.which("chromium"))) {
    if (nzchar(p) && file.exists(p)) return(p)
  }
  NULL
}

skip_if_no_chromium <- function() {
  if (is.null(chromium_path())) {
    skip("headless Chromium is not installed (Debian: apt-get install chromium); the site was not opened in a browser")
  }
}

# Runs Chromium headless on `url` with the flags this machine needs (no
# background networking, a new profile); `args` adds --screenshot,
# --dump-dom, --window-size, --log-net-log.  Returns standard output.
chromium_run <- function(url, args = character(), timeout = 120) {
  profile <- tempfile("chromium-profile")
  dir.create(profile)
  on.exit(unlink(profile, recursive = TRUE), add = TRUE)
  flags <- c("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--hide-scrollbars",
             "--disable-dev-shm-usage", paste0("--user-data-dir=", profile), args, url)
  out <- suppressWarnings(system2(chromium_path(), shQuote(flags), stdout = TRUE,
                                  stderr = FALSE, timeout = timeout))
  out
}

# A screenshot of `file` at a width x height window into `png`.
chromium_screenshot <- function(file, png, width, height = 900) {
  chromium_run(paste0("file://", normalizePath(file)),
               c(paste0("--screenshot=", png), sprintf("--window-size=%d,%d", width, height)))
  file.exists(png) && file.size(png) > 0
}

# The DOM of a page after its scripts ran (url may carry a #fragment).
chromium_dom <- function(url) {
  paste(chromium_run(url, c("--dump-dom", "--virtual-time-budget=2000")), collapse = "\n")
}
