# Installs the shared library (what R does when this file is absent) and the
# launcher of measure() (src/launcher/st-launch), a program of its own, into
# libs/ of the installed package; measure() finds it with system.file().
dest <- file.path(R_PACKAGE_DIR, paste0("libs", R_ARCH))
dir.create(dest, recursive = TRUE, showWarnings = FALSE)
files <- Sys.glob(paste0("*", SHLIB_EXT))
if (file.exists("symbols.rds")) files <- c(files, "symbols.rds")
launcher <- file.path("launcher", "st-launch")
if (file.exists(launcher)) files <- c(files, launcher)
file.copy(files, dest, overwrite = TRUE)
