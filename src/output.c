/*
 * output.c -- the command line's report written to the standard output,
 * with its write errors seen.
 *
 * R writes its console output with stdio and ignores the errors: a report
 * sent to a full device (/dev/full: ENOSPC), to a closed descriptor (EBADF)
 * or to a pipe whose reader left (EPIPE) is lost while the process exits
 * with the status of its decision, and a CI job reads a performance result
 * where there was an I/O error.  The command line therefore writes its
 * report itself, with write(2) on descriptor 1 (POSIX): every byte is
 * written, retried after EINTR and after a partial write, or the call
 * returns the errno of the failure, which the R side turns into an error
 * and the exit status 2.
 */
#include <errno.h>
#include <string.h>
#ifdef _WIN32
#include <io.h>
#define st_write _write
#else
#include <unistd.h>
#define st_write write
#endif

/* Writes the `len` bytes of `buf` to descriptor `fd`: 0 when all were
 * written, else the errno of the failure. */
static int st_write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        unsigned int chunk = len > (1u << 30) ? (1u << 30) : (unsigned int) len;
        long w = (long) st_write(fd, buf, chunk);
        if (w < 0) {
            if (errno == EINTR) continue;
            return errno ? errno : EIO;
        }
        if (w == 0) return EIO;
        buf += w;
        len -= (size_t) w;
    }
    return 0;
}

/* ---- R entry points -------------------------------------------------------- */
#include "ffi.h"

/* Writes the strings of `text` (in the native encoding, as cat()) to the
 * standard output, one a line.  NA when every byte was written, else the
 * system's message for the failure. */
SEXP ffi_write_stdout(SEXP text)
{
    if (TYPEOF(text) != STRSXP) Rf_error("`text` must be a character vector");
    R_xlen_t n = XLENGTH(text);
    int err = 0;
    for (R_xlen_t i = 0; i < n && !err; i++) {
        SEXP s = STRING_ELT(text, i);
        const char *c = s == NA_STRING ? "NA" : Rf_translateChar(s);
        err = st_write_all(1, c, strlen(c));
        if (!err) err = st_write_all(1, "\n", 1);
    }
    return Rf_ScalarString(err ? Rf_mkChar(strerror(err)) : NA_STRING);
}
