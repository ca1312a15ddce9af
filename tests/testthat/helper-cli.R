# Running the installed `speeduptest` script the way a user does: as a
# program (its first lines make the shell exec this R's Rscript, found first
# on the PATH, with the base package only). On Windows Rscript runs it.

script_cmd <- function(script) {
  if (.Platform$OS.type == "windows") file.path(R.home("bin"), "Rscript") else script
}

script_pre <- function(script) {
  if (.Platform$OS.type == "windows") c("--default-packages=base", shQuote(script)) else
    character()
}

script_env <- function() {
  c(paste0("R_LIBS=", paste(.libPaths(), collapse = .Platform$path.sep)),
    paste0("PATH=", paste(R.home("bin"), Sys.getenv("PATH"), sep = .Platform$path.sep)))
}
