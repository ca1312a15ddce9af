/*
 * fuzz_bulk.c -- the targets of the bulk C files (included by fuzz_core.c,
 * after its reader and CHECK):
 *
 *   paste     ffi_paste_rows (src/paste.c), on an embedded R;
 *   fileread  st_read_file (src/fileread.c, a helper of the file: this file
 *             includes fileread.c and run.sh leaves it out of the core's
 *             files) on files of a temporary directory, and
 *             ffi_read_files on an embedded R;
 *   json      ffi_json_fields (src/json-fields.c), on an embedded R;
 *   site      st_site_bin, st_site_medians, st_site_write (plain C) and
 *             ffi_site_collapse, ffi_site_points (on an embedded R) of
 *             src/report-site.c;
 *   vtable    ffi_verdict_table (src/verdict-table.c), on an embedded R.
 *
 * paste.c, json-fields.c, verdict-table.c and the collapse and points of
 * report-site.c work on R objects only (their work is R's strings and
 * lists), so their targets start an embedded R once (R's signal handlers
 * and C stack check off), build the entry point's arguments from the
 * fuzzer's bytes, call it under R_ToplevelExec (an R error is a clean
 * refusal) and compare its answer with R's own functions (paste0(),
 * paste(), sprintf(), `[[`) or, for the verdict table, with st_protocol
 * and st_tolerance_tests called on each benchmark.  Files are written only
 * under one directory made by mkdtemp(3) in $TMPDIR (or /tmp).
 */
#include <errno.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include "ffi.h"
#include <Rembedded.h>
#define R_INTERFACE_PTRS
#define CSTACK_DEFNS
#include <Rinterface.h>
#include <R_ext/Parse.h>
#include "fileread.c"

/* ---- an embedded R -------------------------------------------------- */

static int r_ready;
static SEXP r_env;

static void r_start(void)
{
    if (r_ready) return;
    char *argv[] = {"R", "--vanilla", "--silent", "--no-echo"};
    R_SignalHandlers = 0;
    Rf_initEmbeddedR(4, argv);
    R_CStackLimit = (uintptr_t) -1;
    r_env = R_GlobalEnv;
    r_ready = 1;
}

/* evaluates the R code text (one expression) in the global environment */
static SEXP r_eval_text(const char *text)
{
    ParseStatus st;
    SEXP s = PROTECT(Rf_mkString(text));
    SEXP e = PROTECT(R_ParseVector(s, 1, &st, R_NilValue));
    CHECK(st == PARSE_OK);
    int err = 0;
    SEXP v = R_tryEval(VECTOR_ELT(e, 0), r_env, &err);
    CHECK(!err);
    UNPROTECT(2);
    return v;
}

/* calls the R function named fun with up to 4 arguments; NULL on error */
static SEXP r_call(const char *fun, int n, SEXP a, SEXP b, SEXP c, SEXP d)
{
    SEXP args[4] = {a, b, c, d};
    SEXP call = PROTECT(Rf_allocVector(LANGSXP, n + 1));
    SETCAR(call, Rf_install(fun));
    SEXP p = CDR(call);
    for (int i = 0; i < n; i++, p = CDR(p)) SETCAR(p, args[i]);
    int err = 0;
    SEXP v = R_tryEvalSilent(call, r_env, &err);
    UNPROTECT(1);
    return err ? NULL : v;
}

static int r_identical(SEXP a, SEXP b)
{
    return R_compute_identical(a, b, 16);
}

/* an entry point called under R_ToplevelExec: an R error is a refusal */
typedef struct {
    int which;
    SEXP a[10];
    SEXP out;
} ffi_call;

static void ffi_call_run(void *data)
{
    ffi_call *c = (ffi_call *) data;
    SEXP *a = c->a;
    switch (c->which) {
    case 0: c->out = ffi_paste_rows(a[0], a[1]); break;
    case 1: c->out = ffi_json_fields(a[0], a[1], a[2]); break;
    case 2: c->out = ffi_read_files(a[0], a[1]); break;
    case 3: c->out = ffi_site_collapse(a[0], a[1], a[2]); break;
    case 4: c->out = ffi_site_points(a[0], a[1], a[2], a[3]); break;
    case 5:
        c->out = ffi_verdict_table(a[0], a[1], a[2], a[3], a[4], a[5], a[6],
                                   a[7], a[8], a[9]);
        break;
    }
    /* kept from the collector until the caller protects it */
    R_PreserveObject(c->out);
}

/* the entry point's answer (preserved: the caller releases it with
 * R_ReleaseObject), or NULL when it raised an R error */
static SEXP ffi_try(ffi_call *c)
{
    c->out = NULL;
    Rboolean ok = R_ToplevelExec(ffi_call_run, c);
    if (!ok) return NULL;
    return c->out;
}

/* A string from the fuzzer: ASCII, UTF-8 or latin1 text, "NA" or a
 * missing value; `marks` allows latin1 (for the entry points that
 * translate). */
static SEXP rd_charsxp(reader *r, int marks)
{
    uint8_t tag = rd_u8(r) % 8;
    static const char *words[] = {"", "a", "NA", " = ", "p|q", "<b>",
                                  "speedup", "\t\n"};
    char buf[64];
    size_t n;
    switch (tag) {
    case 0: return NA_STRING;
    case 1: case 2: case 3:
        return Rf_mkCharCE(words[rd_u8(r) % 8], CE_UTF8);
    case 4: {
        /* printable ASCII */
        n = rd_size(r, 20);
        for (size_t i = 0; i < n; i++) buf[i] = (char) (32 + rd_u8(r) % 95);
        return Rf_mkCharLenCE(buf, (int) n, CE_NATIVE);
    }
    case 5: {
        /* UTF-8: "é", "→", an emoji, ASCII */
        static const char *u[] = {"\xc3\xa9", "\xe2\x86\x92", "\xf0\x9f\x98\x80", "x"};
        n = 0;
        size_t k = rd_size(r, 6);
        for (size_t i = 0; i < k; i++) {
            const char *s = u[rd_u8(r) % 4];
            size_t l = strlen(s);
            memcpy(buf + n, s, l);
            n += l;
        }
        return Rf_mkCharLenCE(buf, (int) n, CE_UTF8);
    }
    case 6:
        if (marks) return Rf_mkCharCE("caf\xe9", CE_LATIN1);
        return Rf_mkCharCE("caf\xc3\xa9", CE_UTF8);
    default: {
        /* any bytes but NUL, in the native encoding (ASCII: C locale) */
        n = rd_size(r, 12);
        for (size_t i = 0; i < n; i++) buf[i] = (char) (1 + rd_u8(r) % 127);
        return Rf_mkCharLenCE(buf, (int) n, CE_NATIVE);
    }
    }
}

/* ---- paste: ffi_paste_rows -------------------------------------------- */

static void fuzz_paste(reader *r)
{
    r_start();
    int nprot = 0;
    size_t k = rd_size(r, 5), n = rd_size(r, 6);
    SEXP pieces = PROTECT(Rf_allocVector(VECSXP, (R_xlen_t) k));
    nprot++;
    int bad_len = 0, bad_text = 0;
    for (size_t j = 0; j < k; j++) {
        uint8_t t = rd_u8(r);
        size_t len = t % 4 == 0 ? 1 : t % 16 == 1 ? rd_size(r, 7) : n;
        if (len != 1 && len != n) bad_len = 1;
        SEXP v = Rf_allocVector(STRSXP, (R_xlen_t) len);
        SET_VECTOR_ELT(pieces, (R_xlen_t) j, v);
        for (size_t i = 0; i < len; i++) {
            SEXP s = rd_charsxp(r, 1);
            SET_STRING_ELT(v, (R_xlen_t) i, s);
        }
        /* a latin1 piece used by some row needs a translation */
        if (len == 1 || len == n)
            for (size_t i = 0; i < len && n > 0; i++)
                if (Rf_getCharCE(STRING_ELT(v, (R_xlen_t) i)) == CE_LATIN1)
                    bad_text = 1;
    }
    /* the number of rows: n, or now and then something else */
    double nr = (double) n;
    uint8_t t = rd_u8(r);
    if (t % 16 == 7) {
        static const double odd[] = {NAN, -1, 2.5, INFINITY, 1e300, 1e18, -0.0, 0};
        uint8_t u = rd_u8(r) % 8;
        nr = u == 7 ? (double) n + 1 : odd[u];
    }
    SEXP n_rows = PROTECT(Rf_ScalarReal(nr));
    nprot++;
    ffi_call c = {0, {pieces, n_rows}, NULL};
    SEXP out = ffi_try(&c);
    if (out == NULL) {
        /* an R error only for an impossible number of rows */
        CHECK(nr != (double) n && !(nr >= 0 && nr <= 1e15));
        UNPROTECT(nprot);
        return;
    }
    PROTECT(out);
    R_ReleaseObject(out);
    nprot++;
    if (nr != (double) n) {
        /* other row counts: refused (not a whole count), or as many rows
         * (n + 1 rows from pieces of one string) */
        if (nr != floor(nr) || !(nr >= 0) || nr > 1e15)
            CHECK(out == R_NilValue);
        else
            CHECK(out == R_NilValue || (TYPEOF(out) == STRSXP &&
                                        (double) XLENGTH(out) == nr));
        UNPROTECT(nprot);
        return;
    }
    if (out == R_NilValue) {
        CHECK(bad_len || bad_text);
        UNPROTECT(nprot);
        return;
    }
    CHECK(!bad_len && !bad_text);
    CHECK(TYPEOF(out) == STRSXP && (size_t) XLENGTH(out) == n);
    /* each row: its bytes are the pieces' bytes one after the other */
    for (size_t i = 0; i < n; i++) {
        const char *row = CHAR(STRING_ELT(out, (R_xlen_t) i));
        size_t total = 0;
        for (size_t j = 0; j < k; j++) {
            SEXP v = VECTOR_ELT(pieces, (R_xlen_t) j);
            SEXP s = STRING_ELT(v, XLENGTH(v) == 1 ? 0 : (R_xlen_t) i);
            const char *c2 = s == NA_STRING ? "NA" : CHAR(s);
            size_t l = strlen(c2);
            CHECK(memcmp(row + total, c2, l) == 0);
            total += l;
        }
        CHECK((size_t) LENGTH(STRING_ELT(out, (R_xlen_t) i)) == total);
    }
    /* and the rows are paste0()'s (with no piece, paste0() gives
     * character(0): then n empty rows) */
    if (k > 0 && n > 0) {
        static SEXP ref_fun;
        if (!ref_fun) {
            ref_fun = r_eval_text("function(pieces, n) do.call(paste0, "
                                  "lapply(pieces, rep_len, n))");
            R_PreserveObject(ref_fun);
            Rf_defineVar(Rf_install("paste_ref"), ref_fun, R_GlobalEnv);
        }
        SEXP ref = r_call("paste_ref", 2, pieces, n_rows, NULL, NULL);
        CHECK(ref != NULL);
        PROTECT(ref);
        nprot++;
        CHECK(r_identical(ref, out));
    }
    UNPROTECT(nprot);
}

/* ---- fileread: st_read_file and ffi_read_files -------------------------- */

static char tmp_dir[4096];

static const char *fuzz_tmp_dir(void)
{
    if (tmp_dir[0]) return tmp_dir;
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    snprintf(tmp_dir, sizeof tmp_dir, "%s/speeduptest-fuzz-XXXXXX", base);
    CHECK(mkdtemp(tmp_dir) != NULL);
    return tmp_dir;
}

static void fuzz_fileread(reader *r)
{
    const char *dir = fuzz_tmp_dir();
    char path[4200], fifo[4200], missing[4200];
    snprintf(path, sizeof path, "%s/sample.txt", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(missing, sizeof missing, "%s/no/such/file", dir);
    unsigned char data[600], back[700];
    size_t n = rd_size(r, 255) + rd_size(r, 255);
    for (size_t i = 0; i < n; i++) data[i] = rd_u8(r);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    CHECK(fwrite(data, 1, n, f) == n);
    CHECK(fclose(f) == 0);
    size_t want = rd_size(r, 255) * 3;
    if (want > sizeof back) want = sizeof back;
    memset(back, 0xAB, sizeof back);
    int more = -1;
    ptrdiff_t got = st_read_file(path, back, want, rd_u8(r) & 1 ? &more : NULL);
    /* at most `want` bytes, the file's first ones; nothing after them;
     * whether the file goes on past them when asked */
    CHECK(got == (ptrdiff_t) (n < want ? n : want));
    CHECK(more == -1 || more == (n > want));
    CHECK(memcmp(back, data, (size_t) got) == 0);
    for (size_t i = (size_t) got; i < sizeof back; i++) CHECK(back[i] == 0xAB);
    /* not a regular file, or none: -1, and no wait on a FIFO */
    CHECK(st_read_file(dir, back, want, NULL) == -1);
    CHECK(st_read_file(missing, back, want, NULL) == -1);
    CHECK(st_read_file("", back, want, NULL) == -1);
    if (access(fifo, F_OK) != 0) CHECK(mkfifo(fifo, 0600) == 0);
    CHECK(st_read_file(fifo, back, want, NULL) == -1);

    /* the entry point: paths (some missing, NA, a directory) and sizes
     * (some NA, negative, fractional, larger than the file) */
    r_start();
    size_t k = rd_size(r, 5);
    SEXP paths = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t) k));
    SEXP sizes = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) k));
    for (size_t i = 0; i < k; i++) {
        uint8_t t = rd_u8(r) % 6;
        const char *p = t == 1 ? missing : t == 2 ? dir : t == 3 ? fifo : path;
        SET_STRING_ELT(paths, (R_xlen_t) i, t == 4 ? NA_STRING : Rf_mkChar(p));
        uint8_t u = rd_u8(r) % 8;
        REAL(sizes)[i] = u == 0 ? NA_REAL : u == 1 ? -1.0 : u == 2 ? 2.5
                       : u == 3 ? R_PosInf : (double) rd_size(r, 255) * 3;
    }
    ffi_call c = {2, {paths, sizes}, NULL};
    SEXP out = ffi_try(&c);
    CHECK(out != NULL);
    PROTECT(out);
    R_ReleaseObject(out);
    CHECK(TYPEOF(out) == VECSXP && (size_t) XLENGTH(out) == k);
    for (size_t i = 0; i < k; i++) {
        SEXP e = VECTOR_ELT(out, (R_xlen_t) i);
        SEXP p = STRING_ELT(paths, (R_xlen_t) i);
        double s = REAL(sizes)[i];
        int readable = p != NA_STRING && strcmp(CHAR(p), path) == 0 &&
                       s >= 0 && isfinite(s);
        if (!readable) {
            CHECK(e == R_NilValue);
            continue;
        }
        size_t w = (size_t) s;
        size_t expect = n < w ? n : w;
        CHECK(TYPEOF(e) == RAWSXP && (size_t) XLENGTH(e) == expect);
        CHECK(memcmp(RAW(e), data, expect) == 0);
    }
    UNPROTECT(3);
}

/* ---- json: ffi_json_fields --------------------------------------------- */

/* the reference: `[[` with exact matching, the kinds of json-fields.c */
static const char *json_ref_code =
    "function(records, keys, types) {\n"
    "  out <- lapply(seq_along(keys), function(k) {\n"
    "    key <- keys[[k]]; ty <- substr(types[[k]], 1, 1)\n"
    "    n <- length(records)\n"
    "    kind <- integer(n)\n"
    "    value <- if (ty == 's') rep(NA_character_, n) else if (ty == 'b')\n"
    "      rep(NA, n) else rep(NA_real_, n)\n"
    "    for (i in seq_len(n)) {\n"
    "      r <- records[[i]]\n"
    "      nm <- if (typeof(r) == 'list') names(r) else NULL\n"
    "      j <- if (is.null(nm)) NA_integer_ else match(key, nm)\n"
    "      if (is.na(j)) next\n"
    "      v <- r[[j]]\n"
    "      ok <- if (ty == 's') is.character(v) else if (ty == 'b')\n"
    "        is.logical(v) else typeof(v) %in% c('double', 'integer')\n"
    "      kind[i] <- if (length(v) == 0) 1L else if (length(v) != 1 || !ok) 3L else 2L\n"
    "      if (kind[i] == 2L) value[i] <- if (ty == 's' || ty == 'b') v else as.double(v)\n"
    "    }\n"
    "    list(kind = kind, value = value)\n"
    "  })\n"
    "  names(out) <- keys\n"
    "  out\n"
    "}";

static SEXP json_value(reader *r)
{
    switch (rd_u8(r) % 14) {
    case 0: return R_NilValue;
    case 1: return Rf_allocVector(STRSXP, 0);
    case 2: return Rf_mkString("x");
    case 3: return Rf_ScalarString(NA_STRING);
    case 4: {
        SEXP v = PROTECT(Rf_allocVector(STRSXP, 2));
        SET_STRING_ELT(v, 0, Rf_mkChar("a"));
        SET_STRING_ELT(v, 1, Rf_mkChar("b"));
        UNPROTECT(1);
        return v;
    }
    case 5: return Rf_ScalarReal(rd_double(r));
    case 6: return Rf_ScalarInteger((int) rd_u8(r) - 128);
    case 7: return Rf_ScalarInteger(NA_INTEGER);
    case 8: return Rf_ScalarLogical(rd_u8(r) & 1);
    case 9: return Rf_ScalarLogical(NA_LOGICAL);
    case 10: return Rf_allocVector(VECSXP, 0);
    case 11: {
        SEXP v = PROTECT(Rf_allocVector(VECSXP, 1));
        SET_VECTOR_ELT(v, 0, Rf_ScalarReal(1));
        UNPROTECT(1);
        return v;
    }
    case 12: {
        SEXP v = Rf_allocVector(REALSXP, 2);
        REAL(v)[0] = 1;
        REAL(v)[1] = 2;
        return v;
    }
    default: return Rf_allocVector(LGLSXP, 0);
    }
}

static void fuzz_json(reader *r)
{
    r_start();
    static SEXP ref_fun;
    if (!ref_fun) {
        ref_fun = r_eval_text(json_ref_code);
        R_PreserveObject(ref_fun);
        Rf_defineVar(Rf_install("json_ref"), ref_fun, R_GlobalEnv);
    }
    static const char *names[] = {"name", "real_time", "a", "NA", "", "b"};
    static const char *types_pal[] = {"s", "n", "b", "", "x", "number"};
    size_t n = rd_size(r, 6);
    SEXP records = PROTECT(Rf_allocVector(VECSXP, (R_xlen_t) n));
    for (size_t i = 0; i < n; i++) {
        uint8_t t = rd_u8(r);
        if (t % 8 == 0) {
            SET_VECTOR_ELT(records, (R_xlen_t) i, json_value(r));
            continue;
        }
        size_t m = rd_size(r, 5);
        SEXP rec = PROTECT(Rf_allocVector(VECSXP, (R_xlen_t) m));
        for (size_t j = 0; j < m; j++) SET_VECTOR_ELT(rec, (R_xlen_t) j, json_value(r));
        if (t % 8 != 1) {
            SEXP nm = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t) m));
            for (size_t j = 0; j < m; j++) {
                uint8_t u = rd_u8(r);
                SET_STRING_ELT(nm, (R_xlen_t) j, u % 9 == 8 ? NA_STRING
                                                 : Rf_mkChar(names[u % 6]));
            }
            Rf_setAttrib(rec, R_NamesSymbol, nm);
            UNPROTECT(1);
        }
        SET_VECTOR_ELT(records, (R_xlen_t) i, rec);
        UNPROTECT(1);
    }
    size_t nk = rd_size(r, 4);
    SEXP keys = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t) nk));
    SEXP types = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t) nk));
    for (size_t k = 0; k < nk; k++) {
        SET_STRING_ELT(keys, (R_xlen_t) k, Rf_mkChar(names[rd_u8(r) % 6]));
        SET_STRING_ELT(types, (R_xlen_t) k, Rf_mkChar(types_pal[rd_u8(r) % 6]));
    }
    ffi_call c = {1, {records, keys, types}, NULL};
    SEXP out = ffi_try(&c);
    CHECK(out != NULL);
    PROTECT(out);
    R_ReleaseObject(out);
    /* the reference maps a type other than "s" and "b" to a number */
    SEXP ref = r_call("json_ref", 3, records, keys, types, NULL);
    CHECK(ref != NULL);
    PROTECT(ref);
    CHECK(r_identical(out, ref));
    UNPROTECT(5);
}

/* ---- site: binning, medians, writing, collapse, points ------------------ */

static const char *site_ref_code =
    "list(collapse = function(x, count, sep) {\n"
    "  at <- cumsum(c(0L, count))\n"
    "  vapply(seq_along(count), function(g)\n"
    "    enc2utf8(paste(x[seq_len(count[g]) + at[g]], collapse = sep)), '')\n"
    "}, points = function(x, y, count, parts) {\n"
    "  p <- paste0(parts[1], sprintf('%.1f', x), parts[2], sprintf('%.1f', y),\n"
    "              parts[3])\n"
    "  if (!length(x)) p <- character(0)\n"
    "  at <- cumsum(c(0L, count))\n"
    "  vapply(seq_along(count), function(g)\n"
    "    enc2utf8(paste(p[seq_len(count[g]) + at[g]], collapse = parts[4])), '')\n"
    "})";

static void fuzz_site_plain(reader *r)
{
    /* binning: up to 4 samples of up to 20 values on grids of 2 .. 33 */
    size_t m = rd_size(r, 4);
    int len[4];
    double x[80], lo[4], hi[4];
    size_t nx = 0;
    for (size_t j = 0; j < m; j++) {
        len[j] = (int) rd_size(r, 20);
        for (int i = 0; i < len[j]; i++) x[nx++] = rd_double(r);
        lo[j] = rd_double(r);
        hi[j] = rd_u8(r) % 4 ? lo[j] + fabs(rd_double(r)) : rd_double(r);
    }
    int ngrid = (int) rd_size(r, 31) + 2;
    double *y = malloc((m ? m : 1) * 2 * (size_t) ngrid * sizeof(double));
    CHECK(st_site_bin(x, len, m, lo, hi, ngrid, y) == ST_OK);
    size_t off = 0;
    for (size_t j = 0; j < m; j++) {
        const double *yj = y + j * 2 * (size_t) ngrid;
        /* the upper half is the zero padding */
        for (int i = ngrid; i < 2 * ngrid; i++) CHECK(yj[i] == 0);
        double sum = 0;
        int inside = 0, finite = 1;
        double delta = (hi[j] - lo[j]) / (ngrid - 1);
        for (int i = 0; i < ngrid; i++) {
            CHECK(yj[i] >= 0 && isfinite(yj[i]));
            sum += yj[i];
        }
        for (int i = 0; i < len[j]; i++) {
            double v = x[off + (size_t) i];
            if (!isfinite(v)) finite = 0;
            else if (v >= lo[j] && v <= hi[j]) inside++;
        }
        /* the bins' weight: at most 1 (each value's 1/n at most once), and
         * 1 when every value is finite and on a grid of a finite positive
         * step */
        CHECK(sum <= 1 + 1e-9);
        if (len[j] > 0 && finite && inside == len[j] && isfinite(delta) &&
            delta >= DBL_MIN && isfinite(lo[j] / delta) && isfinite(hi[j] / delta))
            CHECK(fabs(sum - 1) <= 1e-9);
        off += (size_t) len[j];
    }
    free(y);

    /* medians: up to 4 samples of up to 15 values (no NaN) */
    m = rd_size(r, 4);
    nx = 0;
    for (size_t j = 0; j < m; j++) {
        len[j] = (int) rd_size(r, 15);
        for (int i = 0; i < len[j]; i++) {
            double v = rd_double(r);
            x[nx++] = isnan(v) ? 1.0 : v;
        }
    }
    double med[4], work[16], sorted[16];
    CHECK(st_site_medians(x, len, m, med, work) == ST_OK);
    off = 0;
    for (size_t j = 0; j < m; j++) {
        size_t n = (size_t) len[j];
        if (!n) {
            CHECK(isnan(med[j]));
            continue;
        }
        memcpy(sorted, x + off, n * sizeof(double));
        qsort(sorted, n, sizeof(double), cmp_dbl);
        double a = sorted[(n - 1) / 2], b = sorted[n / 2];
        if (n % 2) {
            CHECK(med[j] == a);
        } else if (isinf(a) && isinf(b) && a != b) {
            /* mean(c(-Inf, Inf)) is NaN */
            CHECK(isnan(med[j]));
        } else {
            /* between the two middle values; the value when they are equal */
            CHECK(a <= med[j] && med[j] <= b);
            if (a == b) CHECK(med[j] == a);
        }
        off += n;
    }

    /* writing: the file holds the bytes and a newline */
    const char *dir = fuzz_tmp_dir();
    char path[4200];
    snprintf(path, sizeof path, "%s/page.html", dir);
    size_t n = rd_size(r, 255) + rd_size(r, 255);
    char text[520], back[530];
    for (size_t i = 0; i < n; i++) text[i] = (char) rd_u8(r);
    CHECK(st_site_write(path, text, n) == ST_OK);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    size_t got = fread(back, 1, sizeof back, f);
    fclose(f);
    CHECK(got == n + 1 && memcmp(back, text, n) == 0 && back[n] == '\n');
    /* a directory, or a file in a folder that does not exist: refused */
    CHECK(st_site_write(dir, text, n) == ST_ERR_DOMAIN);
    snprintf(path, sizeof path, "%s/no/such/page.html", dir);
    CHECK(st_site_write(path, text, n) == ST_ERR_DOMAIN);
}

static SEXP rd_counts(reader *r, size_t total, size_t *ngroups, int *bad)
{
    /* groups adding up to total, now and then wrong (NA, negative, short) */
    int c[48];
    size_t g = 0, left = total;
    while (left > 0 && g < 39) {
        size_t k = rd_size(r, 5);
        if (k > left) k = left;
        c[g++] = (int) k;
        left -= k;
    }
    if (left > 0) c[g++] = (int) left;
    if (rd_u8(r) % 8 == 0) c[g++] = 0;
    *bad = 0;
    uint8_t t = rd_u8(r);
    if (t % 32 == 1 && g > 0) {
        c[0] = NA_INTEGER;
        *bad = 1;
    } else if (t % 32 == 2 && g > 0) {
        c[0] = -1;
        *bad = 1;
    } else if (t % 32 == 3) {
        c[g++] = 1;
        *bad = 1;
    }
    SEXP v = Rf_allocVector(INTSXP, (R_xlen_t) g);
    memcpy(INTEGER(v), c, g * sizeof(int));
    *ngroups = g;
    return v;
}

static void fuzz_site(reader *r)
{
    fuzz_site_plain(r);
    r_start();
    static SEXP ref;
    if (!ref) {
        ref = r_eval_text(site_ref_code);
        R_PreserveObject(ref);
        Rf_defineVar(Rf_install("site_collapse_ref"), VECTOR_ELT(ref, 0), R_GlobalEnv);
        Rf_defineVar(Rf_install("site_points_ref"), VECTOR_ELT(ref, 1), R_GlobalEnv);
    }
    /* collapse: up to 30 strings in groups */
    size_t n = rd_size(r, 30), g;
    int bad;
    SEXP x = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t) n));
    for (size_t i = 0; i < n; i++) SET_STRING_ELT(x, (R_xlen_t) i, rd_charsxp(r, 1));
    SEXP count = PROTECT(rd_counts(r, n, &g, &bad));
    SEXP sep = PROTECT(Rf_ScalarString(rd_charsxp(r, 1)));
    int bad_sep = STRING_ELT(sep, 0) == NA_STRING;
    ffi_call c = {3, {x, count, sep}, NULL};
    SEXP out = ffi_try(&c);
    if (bad || bad_sep) {
        CHECK(out == NULL);
    } else {
        CHECK(out != NULL);
        PROTECT(out);
        R_ReleaseObject(out);
        SEXP want = r_call("site_collapse_ref", 3, x, count, sep, NULL);
        CHECK(want != NULL);
        PROTECT(want);
        CHECK(r_identical(out, want));
        UNPROTECT(2);
    }
    UNPROTECT(3);

    /* points: up to 30 points in groups, the four parts */
    n = rd_size(r, 30);
    SEXP px = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) n));
    SEXP py = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) n));
    for (size_t i = 0; i < n; i++) {
        double v = rd_double(r), w = rd_double(r);
        uint8_t t = rd_u8(r) % 8;
        REAL(px)[i] = t == 1 ? NA_REAL : v;
        REAL(py)[i] = t == 2 ? NA_REAL : w;
    }
    count = PROTECT(rd_counts(r, n, &g, &bad));
    SEXP parts = PROTECT(Rf_allocVector(STRSXP, 4));
    int bad_parts = 0;
    for (int k = 0; k < 4; k++) {
        SEXP s = rd_charsxp(r, 1);
        if (s == NA_STRING) bad_parts = 1;
        SET_STRING_ELT(parts, k, s);
    }
    ffi_call c2 = {4, {px, py, count, parts}, NULL};
    out = ffi_try(&c2);
    if (bad || bad_parts) {
        CHECK(out == NULL);
    } else {
        CHECK(out != NULL);
        PROTECT(out);
        R_ReleaseObject(out);
        SEXP want = r_call("site_points_ref", 4, px, py, count, parts);
        CHECK(want != NULL);
        PROTECT(want);
        CHECK(r_identical(out, want));
        UNPROTECT(2);
    }
    UNPROTECT(4);
}

/* ---- vtable: ffi_verdict_table ----------------------------------------- */

static int same_dbl(double a, double b)
{
    /* NaN and NA alike (the table writes NA where the core leaves NaN) */
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    return a == b;
}

static void fuzz_vtable(reader *r)
{
    r_start();
    size_t nb = rd_size(r, 4);
    double vals[4 * 2 * 16];
    double xs[4], xl[4], ys[4], yl[4], al[4];
    size_t nv = 0;
    for (size_t j = 0; j < nb; j++) {
        for (int side = 0; side < 2; side++) {
            size_t len = rd_size(r, 16);
            (side ? ys : xs)[j] = (double) nv;
            (side ? yl : xl)[j] = (double) len;
            /* mostly positive times with ties, now and then anything */
            int any = rd_u8(r) % 8 == 0;
            double scale = side ? 1.0 : 1.0 + rd_u8(r) % 8 / 10.0;
            for (size_t i = 0; i < len; i++) {
                double v = any ? rd_double(r) : scale * (10.0 + rd_u8(r) % 16);
                vals[nv++] = v;
            }
        }
        uint8_t a = rd_u8(r) % 10;
        al[j] = a == 0 ? NAN : a == 1 ? 0.0 : a == 2 ? 0.5 : a == 3 ? 1.0
              : a == 4 ? -0.1 : 0.01 * (1 + rd_u8(r) % 20);
    }
    int proto = rd_u8(r) % 4; /* 3: not a protocol */
    int rigorous = rd_u8(r) & 1;
    int tmin = rd_u8(r) % 4 == 0 ? 3 + rd_u8(r) % 4 : 0;
    uint8_t s = rd_u8(r) % 4;
    double s0 = s == 0 ? 1.05 : s == 1 ? 0.95 : 1.0;
    /* now and then a start out of range */
    int bad_start = 0;
    if (nb > 0 && rd_u8(r) % 16 == 0) {
        xs[0] = (double) nv + 1;
        bad_start = 1;
    }
    SEXP values = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) nv));
    if (nv) memcpy(REAL(values), vals, nv * sizeof(double));
    SEXP a[10];
    double *cols[5] = {xs, xl, ys, yl, al};
    for (int i = 0; i < 5; i++) {
        a[1 + i] = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) nb));
        if (nb) memcpy(REAL(a[1 + i]), cols[i], nb * sizeof(double));
    }
    SEXP ax_start = a[1], ax_len = a[2], ay_start = a[3], ay_len = a[4], aal = a[5];
    ffi_call c = {5, {values, ax_start, ax_len, ay_start, ay_len,
                      PROTECT(Rf_ScalarInteger(proto)), aal,
                      PROTECT(Rf_ScalarLogical(rigorous)),
                      PROTECT(Rf_ScalarInteger(tmin)),
                      PROTECT(Rf_ScalarReal(s0))}, NULL};
    SEXP out = ffi_try(&c);
    const st_protocol_def *def = st_protocol_find(proto);
    int refused = bad_start || !def || (tmin && !def->trend) ||
                  (s0 != 1.0 && !def->tolerance);
    if (refused) {
        CHECK(out == NULL);
        UNPROTECT(10);
        return;
    }
    CHECK(out != NULL);
    PROTECT(out);
    R_ReleaseObject(out);
    for (size_t j = 0; j < nb; j++) {
        const double *x = vals + (size_t) xs[j], *y = vals + (size_t) ys[j];
        size_t n = (size_t) xl[j], m = (size_t) yl[j];
        st_verdict v;
        memset(&v, 0, sizeof v);
        st_result trend[2];
        st_protocol_options opt = {0};
        opt.trend_min = (size_t) tmin;
        opt.trend = trend;
        int st = st_protocol(proto, x, n, y, m, al[j], rigorous, &opt, &v);
        int *status = INTEGER(VECTOR_ELT(out, 0));
        int *decision = INTEGER(VECTOR_ELT(out, 1));
        int *nsteps = INTEGER(VECTOR_ELT(out, 5));
        double *p = REAL(VECTOR_ELT(out, 6));
        double *ci_lo = REAL(VECTOR_ELT(out, 12)), *ci_hi = REAL(VECTOR_ELT(out, 13));
        CHECK(status[j] == st);
        CHECK(decision[j] == (int) v.decision);
        CHECK(same_dbl(p[j], v.p_value));
        CHECK(same_dbl(ci_lo[j], v.speedup_ci[0]) && same_dbl(ci_hi[j], v.speedup_ci[1]));
        if (st == ST_OK) {
            check_p(v.p_value);
            if (!isnan(v.speedup_ci[0]) && !isnan(v.speedup_ci[1]))
                CHECK(v.speedup_ci[0] <= v.speedup_ci[1]);
        }
        int ns = st == ST_OK ? v.n_steps : 0;
        CHECK(nsteps[j] == ns);
        /* the steps, column-major k x ST_MAX_STEPS */
        SEXP sk = VECTOR_ELT(out, 6 + 16), sp = VECTOR_ELT(out, 6 + 17);
        for (int i = 0; i < ST_MAX_STEPS; i++) {
            size_t at = (size_t) i * nb + j;
            if (i < ns) {
                CHECK(INTEGER(sk)[at] == (int) v.step_kind[i]);
                CHECK(same_dbl(REAL(sp)[at], v.steps[i].p_value));
                check_p(REAL(sp)[at]);
            } else {
                CHECK(INTEGER(sk)[at] == NA_INTEGER && ISNA(REAL(sp)[at]));
            }
        }
        /* the trend tests */
        SEXP tst = VECTOR_ELT(out, 6 + 18), tp = VECTOR_ELT(out, 6 + 19);
        for (int i = 0; i < 2; i++) {
            size_t at = (size_t) i * nb + j;
            if (tmin > 0 && st == ST_OK) {
                CHECK(INTEGER(tst)[at] == trend[i].status);
                if (trend[i].status == ST_OK && (i ? m : n) >= (size_t) tmin)
                    CHECK(same_dbl(REAL(tp)[at], trend[i].p_value));
                else
                    CHECK(ISNA(REAL(tp)[at]));
            } else {
                CHECK(INTEGER(tst)[at] == ST_ERR_TOO_FEW && ISNA(REAL(tp)[at]));
            }
        }
        /* the tolerance's four tests where the final test was reached */
        SEXP tol_st = VECTOR_ELT(out, 6 + 21), tol_p = VECTOR_ELT(out, 6 + 22);
        if (s0 != 1.0 && st == ST_OK && v.decision != ST_INSUFFICIENT) {
            int pooled = v.branch == ST_BRANCH_STUDENT_NORMAL ||
                         v.branch == ST_BRANCH_STUDENT_NOT_NORMAL;
            double p4[4];
            int ts = st_tolerance_tests(proto, x, n, y, m, pooled, s0, p4);
            CHECK(INTEGER(tol_st)[j] == ts);
            for (int i = 0; i < 4; i++) {
                CHECK(same_dbl(REAL(tol_p)[(size_t) i * nb + j], p4[i]));
                if (ts == ST_OK) check_p(p4[i]);
            }
        } else {
            CHECK(INTEGER(tol_st)[j] == ST_ERR_DOMAIN);
        }
    }
    UNPROTECT(11);
}
