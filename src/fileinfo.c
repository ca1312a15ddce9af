/*
 * fileinfo.c -- what a path names, before anything opens it.
 *
 * Opening a FIFO for reading blocks until a writer appears, and a character
 * device such as /dev/urandom never reaches end of file, so the readers of
 * timing files and configurations must not open a path before they know it
 * is a regular file.  R's file.info() does not tell a FIFO or a device from
 * a regular file; stat(2) does (POSIX, <sys/stat.h>: the S_IS* macros on
 * st_mode).  stat() follows symbolic links, so a link is judged by what it
 * points to.  Nothing here opens the file.
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

/* Kinds of path (the R side names them in the same order). */
enum {
    ST_PATH_MISSING = 0,
    ST_PATH_REGULAR = 1,
    ST_PATH_FOLDER = 2,
    ST_PATH_FIFO = 3,
    ST_PATH_CHAR_DEVICE = 4,
    ST_PATH_BLOCK_DEVICE = 5,
    ST_PATH_SOCKET = 6,
    ST_PATH_OTHER = 7,
    ST_PATH_DENIED = 8
};

/* The kind of `path`; its size in bytes goes to *size (regular files, else
 * 0).  A path that exists but cannot be stat'ed or read is ST_PATH_DENIED. */
static int st_path_kind(const char *path, double *size)
{
    struct stat sb;
    *size = 0;
    if (stat(path, &sb) != 0)
        return errno == ENOENT || errno == ENOTDIR ? ST_PATH_MISSING : ST_PATH_DENIED;
    if (S_ISREG(sb.st_mode)) {
        *size = (double) sb.st_size;
        return access(path, R_OK) == 0 ? ST_PATH_REGULAR : ST_PATH_DENIED;
    }
    if (S_ISDIR(sb.st_mode)) return ST_PATH_FOLDER;
    if (S_ISFIFO(sb.st_mode)) return ST_PATH_FIFO;
    if (S_ISCHR(sb.st_mode)) return ST_PATH_CHAR_DEVICE;
    if (S_ISBLK(sb.st_mode)) return ST_PATH_BLOCK_DEVICE;
#ifdef S_ISSOCK
    if (S_ISSOCK(sb.st_mode)) return ST_PATH_SOCKET;
#endif
    return ST_PATH_OTHER;
}

/* ---- R entry points -------------------------------------------------------- */
#include "ffi.h"

/* list(kind, size) of each path (a character vector, already expanded). */
SEXP ffi_path_kind(SEXP paths)
{
    if (TYPEOF(paths) != STRSXP) Rf_error("`paths` must be a character vector");
    R_xlen_t n = XLENGTH(paths);
    SEXP kind = PROTECT(Rf_allocVector(INTSXP, n));
    SEXP size = PROTECT(Rf_allocVector(REALSXP, n));
    for (R_xlen_t i = 0; i < n; i++) {
        SEXP p = STRING_ELT(paths, i);
        if (p == NA_STRING) {
            INTEGER(kind)[i] = ST_PATH_MISSING;
            REAL(size)[i] = 0;
            continue;
        }
        INTEGER(kind)[i] = st_path_kind(R_ExpandFileName(Rf_translateChar(p)),
                                        &REAL(size)[i]);
    }
    const char *names[] = {"kind", "size"};
    SEXP values[] = {kind, size};
    SEXP out = ffi_named_list(2, names, values);
    UNPROTECT(2);
    return out;
}
