/*
 * report-site.c -- the bulk work of the report site (R/report-site*.R),
 * made for all the pages of a site in one call each:
 *
 * - the linear binning of many samples onto the grids of their kernel
 *   density estimates, point for point the binning of R's
 *   stats::density() (BinDist, R's src/library/stats/src/massdist.c): each
 *   point's weight 1/n is split between the two grid points around it in
 *   proportion to its distance from each (linear binning, Jones and
 *   Lotwick 1984, "Remark AS R50", Applied Statistics 33, 120-122), on a
 *   grid of 2 * ngrid points of which the upper half stays empty (the zero
 *   padding of the FFT convolution that follows, Silverman 1982, Applied
 *   Statistics 31, 93-99).  The arithmetic and the order of the sums are
 *   BinDist's, so the estimates made from these bins are those of
 *   density(), bit for bit;
 * - the median of each of many samples, as R's median() finds it (the
 *   middle value, or the mean of the middle two as R's mean() makes it: a
 *   long double sum divided by two, then corrected by the long double sum
 *   of the deviations);
 * - the strings of a group of consecutive elements pasted together (the
 *   points of a picture, the lines of a file), and the points of the
 *   pictures written and pasted in one pass (each coordinate as R's
 *   sprintf("%.1f") writes it: C's own "%.1f", "NA", "NaN", "Inf",
 *   "-Inf");
 * - many text files written, each with one write.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "speeduptest.h"

/* The bins of the m samples x[off_j .. off_j + len[j]) (off_j the sum of
 * the lengths before j) on the grids lo[j] .. hi[j] of ngrid points: the
 * column j of y (2 * ngrid doubles a column) as BinDist(x_j, rep(1/n_j,
 * n_j), lo[j], hi[j], ngrid) makes it.  Non-finite values are skipped and
 * keep their share of the weight, as in BinDist. */
int st_site_bin(const double *x, const int *len, size_t m, const double *lo,
                const double *hi, int ngrid, double *y)
{
    if (ngrid < 2) return ST_ERR_DOMAIN;
    size_t off = 0;
    size_t ny = 2 * (size_t) ngrid;
    for (size_t j = 0; j < m; j++) {
        double *yj = y + j * ny;
        int ixmin = 0, ixmax = ngrid - 2;
        double xlo = lo[j], xhi = hi[j];
        double xdelta = (xhi - xlo) / (ngrid - 1);
        double w = 1.0 / len[j];
        for (size_t i = 0; i < ny; i++) yj[i] = 0;
        for (int i = 0; i < len[j]; i++) {
            double xi = x[off + (size_t) i];
            if (!isfinite(xi)) continue;
            double xpos = (xi - xlo) / xdelta;
            if (!(xpos > INT_MIN && xpos < INT_MAX)) continue;
            int ix = (int) floor(xpos);
            double fx = xpos - ix;
            if (ixmin <= ix && ix <= ixmax) {
                yj[ix] += w * (1 - fx);
                yj[ix + 1] += w * fx;
            } else if (ix == -1) {
                yj[0] += w * fx;
            } else if (ix == ixmax + 1) {
                yj[ix] += w * (1 - fx);
            }
        }
        off += (size_t) len[j];
    }
    return ST_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* The median of each of the m samples x[off_j .. off_j + len[j]) of
 * values that are not NaN (NaN for an empty sample); work holds the
 * longest sample. */
int st_site_medians(const double *x, const int *len, size_t m, double *out,
                    double *work)
{
    size_t off = 0;
    for (size_t j = 0; j < m; j++) {
        size_t n = (size_t) len[j];
        if (!n) {
            out[j] = NAN;
            continue;
        }
        memcpy(work, x + off, n * sizeof(double));
        qsort(work, n, sizeof(double), cmp_double);
        size_t half = (n + 1) / 2;
        out[j] = n % 2 ? work[half - 1] : st_mean2(work[half - 1], work[half]);
        off += n;
    }
    return ST_OK;
}

/* Writes the n bytes of text and a newline to path (replacing the file). */
int st_site_write(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return ST_ERR_DOMAIN;
    /* one buffer for the whole file: one write to the system */
    if (n < ((size_t) 1 << 26)) setvbuf(f, NULL, _IOFBF, n + 2);
    int ok = fwrite(text, 1, n, f) == n && fputc('\n', f) != EOF;
    if (fclose(f) != 0) ok = 0;
    return ok ? ST_OK : ST_ERR_DOMAIN;
}

/* ---- .Call entry points ------------------------------------------------ */

#include "ffi.h"

/* The bins of each sample (a 2 ngrid x m matrix); x the samples' values
 * one after the other, len their lengths (each at least 1). */
SEXP ffi_site_bin(SEXP x, SEXP len, SEXP lo, SEXP hi, SEXP ngrid)
{
    size_t nx, m, m2, m3;
    const double *px = ffi_doubles(x, &nx, "x");
    const double *plo = ffi_doubles(lo, &m2, "lo");
    const double *phi = ffi_doubles(hi, &m3, "hi");
    if (TYPEOF(len) != INTSXP) Rf_error("`len` must be an integer vector.");
    m = (size_t) XLENGTH(len);
    if (m2 != m || m3 != m) Rf_error("`lo`, `hi` and `len` must have the same length.");
    const int *pl = INTEGER(len);
    size_t tot = 0;
    for (size_t j = 0; j < m; j++) {
        if (pl[j] < 1) Rf_error("`len` must hold positive lengths.");
        tot += (size_t) pl[j];
    }
    if (tot != nx) Rf_error("`len` must add up to the length of `x`.");
    int k = ffi_int(ngrid, "ngrid");
    if (k < 2 || k > (1 << 20)) Rf_error("`ngrid` must be between 2 and 2^20.");
    if (m > (size_t) R_XLEN_T_MAX / (2 * (size_t) k)) Rf_error("too many samples.");
    SEXP y = PROTECT(Rf_allocMatrix(REALSXP, 2 * k, (int) m));
    int s = st_site_bin(px, pl, m, plo, phi, k, REAL(y));
    if (s != ST_OK) Rf_error("the bins could not be made.");
    UNPROTECT(1);
    return y;
}

/* The median of each sample of values (not NA) given one after the
 * other, len their lengths: NA for an empty sample. */
SEXP ffi_site_medians(SEXP x, SEXP len)
{
    size_t nx;
    const double *px = ffi_doubles(x, &nx, "x");
    if (TYPEOF(len) != INTSXP) Rf_error("`len` must be an integer vector.");
    size_t m = (size_t) XLENGTH(len), tot = 0, most = 1;
    const int *pl = INTEGER(len);
    for (size_t j = 0; j < m; j++) {
        if (pl[j] == NA_INTEGER || pl[j] < 0) Rf_error("`len` must hold lengths.");
        tot += (size_t) pl[j];
        if ((size_t) pl[j] > most) most = (size_t) pl[j];
    }
    if (tot != nx) Rf_error("`len` must add up to the length of `x`.");
    for (size_t i = 0; i < nx; i++)
        if (ISNAN(px[i])) Rf_error("`x` must not hold NA.");
    SEXP out = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) m));
    double *work = (double *) R_alloc(most, sizeof(double));
    st_site_medians(px, pl, m, REAL(out), work);
    double *po = REAL(out);
    for (size_t j = 0; j < m; j++)
        if (!pl[j]) po[j] = NA_REAL;
    UNPROTECT(1);
    return out;
}

/* The bytes of a string as UTF-8 (ASCII and bytes as they are). */
static const char *site_utf8(SEXP s)
{
    cetype_t e = Rf_getCharCE(s);
    const char *c = CHAR(s);
    if (e == CE_UTF8 || e == CE_BYTES) return c;
    for (const unsigned char *u = (const unsigned char *) c; *u; u++)
        if (*u >= 0x80) return Rf_translateCharUTF8(s);
    return c;
}

/* The elements of x pasted together in groups of count[0], count[1], ...
 * consecutive elements, separated by sep: paste(x[group], collapse = sep)
 * for each group (NA as "NA"), as UTF-8. */
SEXP ffi_site_collapse(SEXP x, SEXP count, SEXP sep)
{
    if (TYPEOF(x) != STRSXP) Rf_error("`x` must be a character vector.");
    if (TYPEOF(count) != INTSXP) Rf_error("`count` must be an integer vector.");
    if (TYPEOF(sep) != STRSXP || XLENGTH(sep) != 1 || STRING_ELT(sep, 0) == NA_STRING)
        Rf_error("`sep` must be a string.");
    R_xlen_t n = XLENGTH(x), m = XLENGTH(count);
    const int *pc = INTEGER(count);
    R_xlen_t tot = 0;
    for (R_xlen_t g = 0; g < m; g++) {
        if (pc[g] == NA_INTEGER || pc[g] < 0) Rf_error("`count` must hold counts.");
        tot += pc[g];
    }
    if (tot != n) Rf_error("`count` must add up to the length of `x`.");
    const char *ps = site_utf8(STRING_ELT(sep, 0));
    size_t ls = strlen(ps);
    SEXP out = PROTECT(Rf_allocVector(STRSXP, m));
    R_xlen_t i0 = 0;
    size_t cap = 0;
    char *buf = NULL;
    for (R_xlen_t g = 0; g < m; g++) {
        if ((g & 1023) == 1023) R_CheckUserInterrupt();
        size_t need = 0;
        for (R_xlen_t i = i0; i < i0 + pc[g]; i++) {
            SEXP s = STRING_ELT(x, i);
            need += (s == NA_STRING ? 2 : strlen(site_utf8(s))) + (i > i0 ? ls : 0);
        }
        if (need > INT_MAX) Rf_error("a pasted string would be longer than R allows.");
        if (need + 1 > cap) {
            cap = need + 1;
            buf = R_alloc(cap, 1);
        }
        size_t k = 0;
        for (R_xlen_t i = i0; i < i0 + pc[g]; i++) {
            if (i > i0) {
                memcpy(buf + k, ps, ls);
                k += ls;
            }
            SEXP s = STRING_ELT(x, i);
            const char *c = s == NA_STRING ? "NA" : site_utf8(s);
            size_t l = strlen(c);
            memcpy(buf + k, c, l);
            k += l;
        }
        SET_STRING_ELT(out, g, Rf_mkCharLenCE(buf ? buf : "", (int) k, CE_UTF8));
        i0 += pc[g];
    }
    UNPROTECT(1);
    return out;
}

/* A coordinate as R's sprintf("%.1f", v) writes it, into buf (at least
 * 320 bytes: the longest is -DBL_MAX's 309 digits and ".0"). */
static int site_coord(char *buf, size_t size, double v)
{
    if (ISNA(v)) return snprintf(buf, size, "NA");
    if (ISNAN(v)) return snprintf(buf, size, "NaN");
    if (!R_FINITE(v)) return snprintf(buf, size, v > 0 ? "Inf" : "-Inf");
    return snprintf(buf, size, "%.1f", v);
}

/* The points (x[i], y[i]) of each group of count[0], count[1], ...
 * consecutive points as one string: each point before, x, between, y,
 * after (the coordinates as sprintf("%.1f") writes them), the points of a
 * group separated by sep. */
SEXP ffi_site_points(SEXP x, SEXP y, SEXP count, SEXP parts)
{
    size_t nx, ny;
    const double *px = ffi_doubles(x, &nx, "x");
    const double *py = ffi_doubles(y, &ny, "y");
    if (nx != ny) Rf_error("`x` and `y` must have the same length.");
    if (TYPEOF(count) != INTSXP) Rf_error("`count` must be an integer vector.");
    if (TYPEOF(parts) != STRSXP || XLENGTH(parts) != 4)
        Rf_error("`parts` must be four strings.");
    const char *txt[4];
    size_t len[4];
    for (int k = 0; k < 4; k++) {
        if (STRING_ELT(parts, k) == NA_STRING) Rf_error("`parts` must be four strings.");
        txt[k] = site_utf8(STRING_ELT(parts, k));
        len[k] = strlen(txt[k]);
    }
    R_xlen_t m = XLENGTH(count);
    const int *pc = INTEGER(count);
    size_t tot = 0;
    for (R_xlen_t g = 0; g < m; g++) {
        if (pc[g] == NA_INTEGER || pc[g] < 0) Rf_error("`count` must hold counts.");
        tot += (size_t) pc[g];
    }
    if (tot != nx) Rf_error("`count` must add up to the length of `x`.");
    SEXP out = PROTECT(Rf_allocVector(STRSXP, m));
    size_t i0 = 0, cap = 0;
    char *buf = NULL;
    char cx[320], cy[320];
    for (R_xlen_t g = 0; g < m; g++) {
        if ((g & 1023) == 1023) R_CheckUserInterrupt();
        size_t n = (size_t) pc[g];
        /* the longest the group can be: every coordinate 320 bytes */
        size_t most = n * (len[0] + len[1] + len[2] + len[3] + 640) + 1;
        if (most > cap) {
            cap = most;
            buf = R_alloc(cap, 1);
        }
        size_t k = 0;
        for (size_t i = i0; i < i0 + n; i++) {
            if (i > i0) {
                memcpy(buf + k, txt[3], len[3]);
                k += len[3];
            }
            int lx = site_coord(cx, sizeof cx, px[i]);
            int ly = site_coord(cy, sizeof cy, py[i]);
            memcpy(buf + k, txt[0], len[0]);
            k += len[0];
            memcpy(buf + k, cx, (size_t) lx);
            k += (size_t) lx;
            memcpy(buf + k, txt[1], len[1]);
            k += len[1];
            memcpy(buf + k, cy, (size_t) ly);
            k += (size_t) ly;
            memcpy(buf + k, txt[2], len[2]);
            k += len[2];
        }
        if (k > INT_MAX) Rf_error("a pasted string would be longer than R allows.");
        SET_STRING_ELT(out, g, Rf_mkCharLenCE(buf ? buf : "", (int) k, CE_UTF8));
        i0 += n;
    }
    UNPROTECT(1);
    return out;
}

/* Writes each text (its bytes and a newline) to the file of the same
 * position; returns 0, or the position (from 1) of the first file that
 * could not be written. */
SEXP ffi_site_write(SEXP paths, SEXP texts)
{
    if (TYPEOF(paths) != STRSXP || TYPEOF(texts) != STRSXP ||
        XLENGTH(paths) != XLENGTH(texts))
        Rf_error("`paths` and `texts` must be character vectors of one length.");
    R_xlen_t n = XLENGTH(paths);
    for (R_xlen_t i = 0; i < n; i++) {
        if ((i & 255) == 255) R_CheckUserInterrupt();
        SEXP p = STRING_ELT(paths, i), t = STRING_ELT(texts, i);
        if (p == NA_STRING || t == NA_STRING) return Rf_ScalarReal((double) i + 1);
        const char *path = R_ExpandFileName(Rf_translateChar(p));
        if (st_site_write(path, CHAR(t), (size_t) LENGTH(t)) != ST_OK)
            return Rf_ScalarReal((double) i + 1);
    }
    return Rf_ScalarReal(0);
}
