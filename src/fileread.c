/*
 * fileread.c -- the bytes of many small files in one pass.
 *
 * A SpeedupTest configuration names two sample files per benchmark and a
 * criterion.rs folder holds two small JSON files per benchmark and version:
 * thousands of files of a few hundred bytes.  Read one at a time through
 * R's connections (readBin), each file costs a connection object, its
 * finalizer and several calls, many times the cost of its bytes.  Here each
 * file is opened, checked and read with open(2), fstat(2) and read(2)
 * (POSIX).  The file is opened without blocking (O_NONBLOCK), so that a
 * path that became a FIFO since the caller's stat(2) does not wait for a
 * writer, and it is read only when fstat() says it is a regular file; at
 * most the number of bytes the caller asks are read, as readBin(path,
 * "raw", n) reads them.
 *
 * The bytes read are then told plain ASCII text or not in one pass per
 * file (no byte above 0x7f and none of the control bytes no text holds,
 * the test of the readers' sniffing), so that the caller parses the plain
 * ones from memory and leaves the others to its careful per-file reader.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_NONBLOCK
#define O_NONBLOCK 0
#endif
#ifndef O_BINARY
#define O_BINARY 0
#endif

/* See speeduptest.h. */
ptrdiff_t st_read_file(const char *path, unsigned char *buf, size_t size, int *more)
{
    if (more) *more = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_BINARY);
    if (fd < 0) return -1;
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return -1;
    }
    size_t got = 0;
    while (got < size) {
        size_t want = size - got;
        if (want > (size_t) 1 << 30) want = (size_t) 1 << 30;
        ssize_t r = read(fd, buf + got, want);
        if (r < 0) {
            if (errno == EINTR) continue;
            close(fd);
            return -1;
        }
        if (r == 0) break;
        got += (size_t) r;
    }
    if (more && got == size) {
        /* whether the file goes on past the bytes asked */
        unsigned char c;
        ssize_t r;
        while ((r = read(fd, &c, 1)) < 0 && errno == EINTR) {}
        *more = r != 0;
    }
    close(fd);
    return (ptrdiff_t) got;
}

/* ---- R entry points -------------------------------------------------------- */
#include "ffi.h"
#include "speeduptest.h"

/* The bytes of each path (a character vector) as a raw vector, at most
 * sizes[i] bytes (a double vector of the same length, the sizes stat(2)
 * gave); NULL where the file cannot be read. */
SEXP ffi_read_files(SEXP paths, SEXP sizes)
{
    if (TYPEOF(paths) != STRSXP) Rf_error("`paths` must be a character vector");
    if (TYPEOF(sizes) != REALSXP || XLENGTH(sizes) != XLENGTH(paths))
        Rf_error("`sizes` must be a double vector as long as `paths`");
    R_xlen_t n = XLENGTH(paths);
    SEXP out = PROTECT(Rf_allocVector(VECSXP, n));
    for (R_xlen_t i = 0; i < n; i++) {
        if (i % 256 == 255) R_CheckUserInterrupt();
        SEXP p = STRING_ELT(paths, i);
        double s = REAL(sizes)[i];
        if (p == NA_STRING || !(s >= 0) || s > (double) R_XLEN_T_MAX) continue;
        R_xlen_t size = (R_xlen_t) s;
        SEXP buf = PROTECT(Rf_allocVector(RAWSXP, size));
        ptrdiff_t got = st_read_file(R_ExpandFileName(Rf_translateChar(p)), RAW(buf),
                                     (size_t) size, NULL);
        if (got >= 0 && (R_xlen_t) got < size) {
            /* the file shrank since its stat: only the bytes there are */
            SEXP part = PROTECT(Rf_allocVector(RAWSXP, (R_xlen_t) got));
            if (got > 0) memcpy(RAW(part), RAW(buf), (size_t) got);
            SET_VECTOR_ELT(out, i, part);
            UNPROTECT(1);
        } else if (got >= 0) {
            SET_VECTOR_ELT(out, i, buf);
        }
        UNPROTECT(1);
    }
    UNPROTECT(1);
    return out;
}

/* 1 when the n > 0 bytes are ASCII text: none above 0x7f and no control
 * byte but tab, newline, vertical tab, form feed, carriage return and
 * escape (bytes 9-13 and 27). */
static int plain_ascii(const unsigned char *b, size_t n)
{
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = b[i];
        if (c >= 0x7f) return 0;
        if (c < 0x20 && !((c >= 9 && c <= 13) || c == 27)) return 0;
    }
    return 1;
}

/* For a list of raw vectors (NULL elements allowed), a logical vector:
 * TRUE where the bytes are plain ASCII text (see plain_ascii()). */
SEXP ffi_plain_ascii(SEXP raws)
{
    if (TYPEOF(raws) != VECSXP) Rf_error("`raws` must be a list");
    R_xlen_t n = XLENGTH(raws);
    SEXP out = PROTECT(Rf_allocVector(LGLSXP, n));
    for (R_xlen_t i = 0; i < n; i++) {
        SEXP r = VECTOR_ELT(raws, i);
        LOGICAL(out)[i] = TYPEOF(r) == RAWSXP && plain_ascii(RAW(r), (size_t) XLENGTH(r));
    }
    UNPROTECT(1);
    return out;
}
