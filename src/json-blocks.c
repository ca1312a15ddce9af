/*
 * json-blocks.c -- the elements of one array of a JSON text, found by a
 * scan of its bytes, so that a parser can read them in blocks.
 *
 * A Google Benchmark file is one object whose "benchmarks" array holds
 * tens of thousands of records.  jsonlite's parser (yajl's tree) grows an
 * array one element at a time, copying it each time it reallocates, and
 * keeps the whole tree in memory before R's objects are made; the same
 * records parsed as many arrays of some hundreds cost a fraction of that.
 * This file finds where the elements of the array begin and end, without
 * parsing a value: it follows the lexical structure of JSON (RFC 8259)
 * only, strings (with their escapes) and the nesting of objects and
 * arrays, and notes the commas that separate the elements of the wanted
 * array (those at its own depth, outside strings).
 *
 * The scan is a filter, not a validator: it answers "clean" only for a
 * text that the blocks can reproduce, and leaves every doubt to the
 * parser of the whole text.  Clean means:
 *   - the text is one object (after optional white space: no byte order
 *     mark), followed by white space only;
 *   - every byte is valid UTF-8 (no overlong form, surrogate or code point
 *     above U+10FFFF) and none is 0;
 *   - outside strings, only JSON's white space, structural characters,
 *     number characters (digits, - + . e E) and lower-case letters (true,
 *     false, null) appear: no comment, NaN or Infinity that some parsers
 *     accept;
 *   - no control character inside a string;
 *   - the object has exactly one member whose key is the given key, byte
 *     for byte, no key of the object holds an escape (which could spell
 *     the key another way), and that member's value is an array;
 *   - nesting at most ST_JSON_DEPTH deep.
 * Whether the text is valid JSON is then the parser's to say: the caller
 * parses the text with the array emptied ("[]") and each block "[" + the
 * bytes of some consecutive elements and their commas + "]"; if each
 * parse succeeds and each block has as many elements as the scan counted,
 * the whole text is valid (a value replaced by another in the same place
 * of the grammar) and its parse is the parse of the rest with the array's
 * elements put back, in order.  Any failure sends the caller back to the
 * parse of the whole text, with its own answer or error.
 */
#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ffi.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#define ST_JSON_DEPTH 512

/* The length of the valid UTF-8 sequence starting at s (at most n bytes
 * available), or 0 when it is not valid (RFC 3629's table). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) { len = 3; lo = 0xA0; }
    else if (c >= 0xE1 && c <= 0xEC) len = 3;
    else if (c == 0xED) { len = 3; hi = 0x9F; }
    else if (c >= 0xEE && c <= 0xEF) len = 3;
    else if (c == 0xF0) { len = 4; lo = 0x90; }
    else if (c >= 0xF1 && c <= 0xF3) len = 4;
    else if (c == 0xF4) { len = 4; hi = 0x8F; }
    else return 0;
    if (len > n) return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    return len;
}

static int json_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* a byte that may stand outside strings, other than white space and the
 * structural characters handled by the scan */
static int json_bare(unsigned char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' ||
        c == 'E' || (c >= 'a' && c <= 'z');
}

/* See speeduptest.h. */
int st_json_array_find(const unsigned char *buf, size_t len, const char *key,
                       size_t klen, st_json_array *out)
{
    out->open = out->close = 0;
    out->n = 0;
    out->comma = NULL;
    out->clean = 0;
    size_t cap = 0, ncomma = 0;
    size_t *comma = NULL;
    /* the kind of each open container: '{' or '[' */
    unsigned char stack[ST_JSON_DEPTH];
    int depth = 0;
    /* in the top object, whether the next string is a key */
    int want_key = 0;
    /* the wanted array: 0 not met, 1 its key just read, 2 inside it (at
     * depth 2), 3 closed */
    int state = 0;
    int content = 0; /* a byte of an element met inside the array */
    int done = 0;    /* the top object closed */
    size_t i = 0;
    while (i < len && json_ws(buf[i])) i++;
    if (i == len || buf[i] != '{') return ST_OK;
    while (i < len) {
        unsigned char c = buf[i];
        if (done) {
            if (!json_ws(c)) goto unclean;
            i++;
            continue;
        }
        if (c == '"') {
            size_t start = ++i;
            int escaped = 0;
            for (;;) {
                if (i >= len) goto unclean;
                unsigned char d = buf[i];
                if (d == '"') break;
                if (d < 0x20) goto unclean;
                if (d == '\\') {
                    escaped = 1;
                    if (i + 1 >= len || buf[i + 1] < 0x20 || buf[i + 1] >= 0x80) goto unclean;
                    i += 2;
                    continue;
                }
                size_t u = utf8_len(buf + i, len - i);
                if (u == 0) goto unclean;
                i += u;
            }
            /* buf[start .. i) is the string's content, buf[i] its quote */
            if (depth == 1 && want_key) {
                if (escaped) goto unclean;
                if (i - start == klen && memcmp(buf + start, key, klen) == 0) {
                    if (state != 0) goto unclean;
                    state = 1;
                }
                want_key = 0;
            } else if (state == 2 && depth == 2) {
                content = 1;
            }
            i++;
            continue;
        }
        if (json_ws(c)) {
            i++;
            continue;
        }
        if (state == 1 && c != ':') {
            /* the first byte of the wanted member's value */
            if (c != '[') goto unclean;
            state = 2;
            out->open = i;
            stack[depth++] = '[';
            i++;
            continue;
        }
        switch (c) {
        case '{':
        case '[':
            if (state == 2 && depth == 2) content = 1;
            if (depth == ST_JSON_DEPTH) goto unclean;
            stack[depth++] = c;
            if (depth == 1) want_key = 1;
            break;
        case '}':
        case ']':
            if (depth == 0 || stack[depth - 1] != (c == '}' ? '{' : '[')) goto unclean;
            if (state == 2 && depth == 2) {
                out->close = i;
                state = 3;
            }
            depth--;
            if (depth == 0) done = 1;
            break;
        case ',':
            if (depth == 0) goto unclean;
            if (depth == 1) want_key = 1;
            if (state == 2 && depth == 2) {
                if (ncomma == cap) {
                    size_t nc = cap ? 2 * cap : 1024;
                    size_t *p = realloc(comma, nc * sizeof(size_t));
                    if (!p) {
                        free(comma);
                        return ST_ERR_ALLOC;
                    }
                    comma = p;
                    cap = nc;
                }
                comma[ncomma++] = i;
            }
            break;
        case ':':
            if (depth == 0) goto unclean;
            break;
        default:
            if (!json_bare(c)) goto unclean;
            if (state == 2 && depth == 2) content = 1;
            break;
        }
        i++;
    }
    if (!done || state != 3) goto unclean;
    out->n = ncomma + (content || ncomma ? 1 : 0);
    out->comma = comma;
    out->clean = 1;
    return ST_OK;
unclean:
    free(comma);
    out->open = out->close = 0;
    return ST_OK;
}

/* ---- the members a reader needs ------------------------------------------- */

/* A reader that uses a few members of each record (Google Benchmark's
 * runs: a dozen members, of which the reader takes eight) need not have
 * the others parsed: each one is a value made by the parser and then
 * dropped.  st_json_block_keep() writes a block's text with, in each
 * element that is an object, only the members the reader wants, and the
 * others left out where leaving them out cannot change what a parser of
 * the whole text says: the parse of the written text is then the parse of
 * the block with those members taken out of each record, the other
 * members in their order (duplicates included), or an error exactly when
 * the block is not valid JSON.  A member is left out only when
 *   - its key holds no escape (an escape could spell a wanted key) and is
 *     not one of the wanted keys, byte for byte;
 *   - its value is a plain scalar that any JSON parser reads without error
 *     (RFC 8259 section 6's number grammar, true, false, null, or a string
 *     without escape: the scan has already found the text's strings free
 *     of control characters and invalid UTF-8);
 *   - it stands between the record's braces as `"key" : value` followed by
 *     a comma or the closing brace, with white space only between them.
 * Any other member is written as it is (the parser judges it); an element
 * whose members cannot be told apart (not an object, an empty or
 * malformed one) is written whole.  White space between the tokens the
 * writer puts together is not written.  The text written is never longer
 * than the block's bytes plus the two brackets.
 *
 * A parser still makes each record a named list: its member names are
 * parsed, looked up and kept, one string per member.  When every element of
 * a block is an object whose members allow it (no key with an escape, no
 * wanted key twice, every other member one that can be left out), each is
 * written instead as the array of the wanted members' values, in the order
 * of the keys, null where a key is missing: the same values, parsed as an
 * unnamed list, for a reader that takes a missing member and a null alike
 * (ffi_gbench_runs()).  The array is written only when it is no longer
 * than the element.  A wanted value is written as it is in both forms, so
 * the parse of the block fails exactly when the block is not JSON. */

/* The offset of the closing quote of the string whose opening quote is at
 * buf[i], or `to` when it does not close before `to`; *esc is set when the
 * string holds a backslash. */
static size_t json_string_end(const unsigned char *buf, size_t i, size_t to, int *esc)
{
    *esc = 0;
    for (i++; i < to && buf[i] != '"'; i++) {
        if (buf[i] == '\\') {
            *esc = 1;
            i++;
        }
    }
    return i < to ? i : to;
}

/* The offset of the first comma or closing bracket at the nesting depth
 * of buf[i], outside strings, or `to`: the end of the value (or element)
 * that starts at buf[i]. */
static size_t json_value_end(const unsigned char *buf, size_t i, size_t to)
{
    int depth = 0, esc;
    for (; i < to; i++) {
        unsigned char c = buf[i];
        if (c == '"') {
            i = json_string_end(buf, i, to, &esc);
            if (i == to) return to;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth == 0) return i;
            depth--;
        } else if (c == ',' && depth == 0) {
            return i;
        }
    }
    return to;
}

static int json_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* Whether s[0 .. n) is a plain scalar: a number of JSON's grammar
 * (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), true, false, null, or
 * a string without escape. */
static int json_plain_scalar(const unsigned char *s, size_t n)
{
    if (n == 0) return 0;
    if (s[0] == '"') {
        if (n < 2 || s[n - 1] != '"') return 0;
        for (size_t i = 1; i + 1 < n; i++)
            if (s[i] == '"' || s[i] == '\\') return 0;
        return 1;
    }
    if ((n == 4 && memcmp(s, "true", 4) == 0) || (n == 5 && memcmp(s, "false", 5) == 0) ||
        (n == 4 && memcmp(s, "null", 4) == 0))
        return 1;
    size_t i = 0, d;
    if (s[i] == '-') i++;
    if (i == n) return 0;
    if (s[i] == '0') {
        i++;
    } else if (s[i] >= '1' && s[i] <= '9') {
        while (i < n && json_digit(s[i])) i++;
    } else {
        return 0;
    }
    if (i < n && s[i] == '.') {
        d = ++i;
        while (i < n && json_digit(s[i])) i++;
        if (i == d) return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        d = i;
        while (i < n && json_digit(s[i])) i++;
        if (i == d) return 0;
    }
    return i == n;
}

/* A member of an object: its key's quotes at buf[ks] and buf[kq], whether
 * the key holds an escape, its value buf[vs .. vt) (without white space
 * around it). */
typedef struct {
    size_t ks, kq, vs, vt;
    int esc;
} json_member;

#define ST_JSON_MEMBERS 64

/* The members of the element buf[a .. b) (white space around it trimmed)
 * into m[0 .. ST_JSON_MEMBERS): their number, or -1 when the element is
 * not an object of at most that many members of the form `"key" : value`
 * separated by commas, white space only between them. */
static int json_members(const unsigned char *buf, size_t a, size_t b, json_member *m)
{
    if (b - a < 2 || buf[a] != '{' || buf[b - 1] != '}') return -1;
    size_t i = a + 1, end = b - 1;
    int n = 0;
    for (;;) {
        while (i < end && json_ws(buf[i])) i++;
        if (i >= end || buf[i] != '"' || n == ST_JSON_MEMBERS) return -1;
        json_member *x = &m[n++];
        x->ks = i;
        x->kq = json_string_end(buf, i, end, &x->esc);
        if (x->kq >= end) return -1;
        for (i = x->kq + 1; i < end && json_ws(buf[i]); i++) {}
        if (i >= end || buf[i] != ':') return -1;
        for (i++; i < end && json_ws(buf[i]); i++) {}
        size_t ve = json_value_end(buf, i, end);
        if (ve < end && buf[ve] != ',') return -1;
        x->vs = i;
        x->vt = ve;
        while (x->vt > x->vs && json_ws(buf[x->vt - 1])) x->vt--;
        if (ve >= end) return n;
        i = ve + 1;
    }
}

/* The index of the member's key among keys[0 .. nk), or -1. */
static int json_key_index(const unsigned char *buf, const json_member *x,
                          const char *const *keys, const size_t *klen, int nk)
{
    size_t len = x->kq - x->ks - 1;
    for (int k = 0; k < nk; k++)
        if (len == klen[k] && memcmp(buf + x->ks + 1, keys[k], len) == 0) return k;
    return -1;
}

/* One element buf[a .. b) written to out with the wanted members only (see
 * above); the number of bytes written (at most b - a). */
static size_t json_element_keep(const unsigned char *buf, size_t a, size_t b,
                                const char *const *keys, const size_t *klen, int nk,
                                unsigned char *out)
{
    json_member m[ST_JSON_MEMBERS];
    while (a < b && json_ws(buf[a])) a++;
    while (b > a && json_ws(buf[b - 1])) b--;
    int n = json_members(buf, a, b, m);
    if (n < 0) {
        memcpy(out, buf + a, b - a);
        return b - a;
    }
    size_t o = 0;
    out[o++] = '{';
    for (int j = 0; j < n; j++) {
        const json_member *x = &m[j];
        if (!x->esc && json_plain_scalar(buf + x->vs, x->vt - x->vs) &&
            json_key_index(buf, x, keys, klen, nk) < 0)
            continue;
        if (o > 1) out[o++] = ',';
        memcpy(out + o, buf + x->ks, x->kq + 1 - x->ks);
        o += x->kq + 1 - x->ks;
        out[o++] = ':';
        memcpy(out + o, buf + x->vs, x->vt - x->vs);
        o += x->vt - x->vs;
    }
    out[o++] = '}';
    return o;
}

/* One element buf[a .. b) written to out as the array of the values of
 * keys[0 .. nk) in that order (null where the key is missing): the number
 * of bytes written (at most b - a), or 0 when the element cannot be
 * written so (not an object of members, a key with an escape, a wanted
 * key twice, another member's value not a plain scalar, or a row longer
 * than the element). */
static size_t json_element_row(const unsigned char *buf, size_t a, size_t b,
                               const char *const *keys, const size_t *klen, int nk,
                               unsigned char *out)
{
    json_member m[ST_JSON_MEMBERS];
    int slot[ST_JSON_MEMBERS];
    while (a < b && json_ws(buf[a])) a++;
    while (b > a && json_ws(buf[b - 1])) b--;
    int n = json_members(buf, a, b, m);
    if (n < 0 || nk > ST_JSON_MEMBERS) return 0;
    for (int k = 0; k < nk; k++) slot[k] = -1;
    for (int j = 0; j < n; j++) {
        if (m[j].esc) return 0;
        int k = json_key_index(buf, &m[j], keys, klen, nk);
        if (k < 0) {
            if (!json_plain_scalar(buf + m[j].vs, m[j].vt - m[j].vs)) return 0;
        } else {
            if (slot[k] >= 0) return 0;
            slot[k] = j;
        }
    }
    size_t need = 2 + (size_t) (nk > 0 ? nk - 1 : 0);
    for (int k = 0; k < nk; k++)
        need += slot[k] < 0 ? 4 : m[slot[k]].vt - m[slot[k]].vs;
    if (need > b - a) return 0;
    size_t o = 0;
    out[o++] = '[';
    for (int k = 0; k < nk; k++) {
        if (k) out[o++] = ',';
        if (slot[k] < 0) {
            memcpy(out + o, "null", 4);
            o += 4;
        } else {
            const json_member *x = &m[slot[k]];
            memcpy(out + o, buf + x->vs, x->vt - x->vs);
            o += x->vt - x->vs;
        }
    }
    out[o++] = ']';
    return o;
}

/* See speeduptest.h. */
size_t st_json_block_keep(const unsigned char *buf, size_t from, size_t to,
                          const char *const *keys, const size_t *klen, int nk,
                          int *rows, unsigned char *out)
{
    size_t o = 0, i = from;
    int as_rows = *rows;
    out[o++] = '[';
    for (;;) {
        size_t e = json_value_end(buf, i, to);
        if (o > 1) out[o++] = ',';
        if (as_rows) {
            size_t w = e < to && buf[e] != ',' ? 0 :
                json_element_row(buf, i, e, keys, klen, nk, out + o);
            if (w == 0) {
                /* an element that is not such a record: the block as
                 * objects */
                *rows = 0;
                return st_json_block_keep(buf, from, to, keys, klen, nk, rows, out);
            }
            o += w;
        } else {
            o += json_element_keep(buf, i, e, keys, klen, nk, out + o);
        }
        if (e >= to) break;
        /* a closing bracket at the top of a block: the block is not clean
         * (the scan's elements are balanced), written as it is */
        if (buf[e] != ',') {
            memcpy(out + o, buf + e, to - e);
            o += to - e;
            break;
        }
        i = e + 1;
    }
    out[o++] = ']';
    return o;
}

/* ---- .Call entry point ---------------------------------------------------- */

/* A new CHARSXP (UTF-8) of `pre`, the bytes buf[from .. to), `post` and
 * the bytes tail[0 .. tlen). */
static SEXP json_piece(const unsigned char *buf, size_t from, size_t to, const char *pre,
                       const char *post, const unsigned char *tail, size_t tlen)
{
    size_t lp = strlen(pre), lq = strlen(post), lb = to - from;
    size_t total = lp + lb + lq + tlen;
    if (total > (size_t) INT_MAX) Rf_error("a piece of the JSON text is too long");
    char *s = R_alloc(total, 1);
    memcpy(s, pre, lp);
    memcpy(s + lp, buf + from, lb);
    memcpy(s + lp + lb, post, lq);
    if (tlen) memcpy(s + lp + lb + lq, tail, tlen);
    return Rf_mkCharLenCE(s, (int) total, CE_UTF8);
}

/* Asks the kernel for huge pages (2 MiB) under the bytes p[0 .. n) where
 * it offers them (Linux, MADV_HUGEPAGE): a file of megabytes read into
 * fresh memory otherwise costs a page fault every 4 KiB. */
static void json_advise_huge(unsigned char *p, size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t) 1 << 21;
    uintptr_t s = ((uintptr_t) p + huge - 1) & ~(huge - 1);
    uintptr_t e = ((uintptr_t) p + n) & ~(huge - 1);
    if (e > s) (void) madvise((void *) s, e - s, MADV_HUGEPAGE);
#else
    (void) p;
    (void) n;
#endif
}

/* The bytes of the regular file `path` (one string) as a raw vector, when
 * it holds exactly `size` bytes (the size stat(2) gave); NULL when it
 * cannot be read or its size has changed. */
SEXP ffi_json_file(SEXP path, SEXP size)
{
    (void) ffi_string(path, "path");
    double s = ffi_double(size, "size");
    if (!(s >= 0 && s <= (double) R_XLEN_T_MAX) || s != floor(s))
        Rf_error("`size` must be a number of bytes");
    SEXP raw = PROTECT(Rf_allocVector(RAWSXP, (R_xlen_t) s));
    json_advise_huge(RAW(raw), (size_t) s);
    int more;
    ptrdiff_t got = st_read_file(R_ExpandFileName(Rf_translateChar(STRING_ELT(path, 0))),
                                 RAW(raw), (size_t) s, &more);
    UNPROTECT(1);
    return got == (ptrdiff_t) s && !more ? raw : R_NilValue;
}

/* The JSON text `raw` (a raw vector) cut for a parse in blocks at the
 * array that is the value of the top object's member `key`
 * (st_json_array_find()): list(rest, from, to, counts) where rest is the
 * text with the array emptied ("[]"), and block b holds counts[b]
 * consecutive elements (`block` each, the last fewer), the bytes
 * raw[from[b] .. to[b]) (0-based offsets, doubles), which
 * ffi_json_block_text() makes a text; NULL when the text is not clean. */
SEXP ffi_json_blocks(SEXP raw, SEXP key, SEXP block)
{
    size_t len;
    const unsigned char *buf = ffi_raw(raw, &len, "raw");
    const char *k = ffi_string(key, "key");
    int bs = ffi_int(block, "block");
    if (bs < 1) Rf_error("`block` must be a positive number of elements");
    st_json_array a;
    int status = st_json_array_find(buf, len, k, strlen(k), &a);
    if (status == ST_ERR_ALLOC) Rf_error("out of memory");
    if (!a.clean) return R_NilValue;
    size_t nb = a.n == 0 ? 0 : (a.n - 1) / (size_t) bs + 1;
    /* the bounds are computed before any R allocation, which could end the
     * call: the scan's memory is freed first */
    double *bounds = nb ? malloc(2 * nb * sizeof(double)) : NULL;
    int *counts = nb ? malloc(nb * sizeof(int)) : NULL;
    if (nb && (!bounds || !counts)) {
        free(bounds);
        free(counts);
        free(a.comma);
        Rf_error("out of memory");
    }
    for (size_t b = 0; b < nb; b++) {
        size_t first = b * (size_t) bs, last = first + (size_t) bs - 1;
        if (last > a.n - 1) last = a.n - 1;
        bounds[2 * b] = (double) (first == 0 ? a.open + 1 : a.comma[first - 1] + 1);
        bounds[2 * b + 1] = (double) (last == a.n - 1 ? a.close : a.comma[last]);
        counts[b] = (int) (last - first + 1);
    }
    free(a.comma);
    SEXP rest = PROTECT(Rf_allocVector(STRSXP, 1));
    SEXP from = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) nb));
    SEXP to = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) nb));
    SEXP cnt = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) nb));
    for (size_t b = 0; b < nb; b++) {
        REAL(from)[b] = bounds[2 * b];
        REAL(to)[b] = bounds[2 * b + 1];
        INTEGER(cnt)[b] = counts[b];
    }
    free(bounds);
    free(counts);
    SET_STRING_ELT(rest, 0, json_piece(buf, 0, a.open, "", "[]", buf + a.close + 1,
                                       len - a.close - 1));
    const char *names[] = {"rest", "from", "to", "counts"};
    SEXP vals[] = {rest, from, to, cnt};
    SEXP out = ffi_named_list(4, names, vals);
    UNPROTECT(4);
    return out;
}

/* The text "[" raw[from .. to) "]" (offsets 0-based): a block of
 * ffi_json_blocks(); with `keep` (a character vector, not NULL), each
 * record written with the members of those keys only, where the others can
 * be left out, and with `rows` TRUE each as the array of their values when
 * every record of the block can be (st_json_block_keep()): the text then
 * has the attribute "rows", TRUE when its records are such arrays. */
SEXP ffi_json_block_text(SEXP raw, SEXP from, SEXP to, SEXP keep, SEXP rows)
{
    size_t len;
    const unsigned char *buf = ffi_raw(raw, &len, "raw");
    double f = ffi_double(from, "from"), t = ffi_double(to, "to");
    if (!(f >= 0 && f <= t && t <= (double) len) || f != floor(f) || t != floor(t))
        Rf_error("`from` and `to` must be offsets in `raw`, in order");
    if (keep != R_NilValue && (TYPEOF(keep) != STRSXP || XLENGTH(keep) > 64))
        Rf_error("`keep` must be NULL or at most 64 keys");
    SEXP out = PROTECT(Rf_allocVector(STRSXP, 1));
    if (keep == R_NilValue) {
        SET_STRING_ELT(out, 0, json_piece(buf, (size_t) f, (size_t) t, "[", "]", NULL, 0));
    } else {
        int nk = (int) XLENGTH(keep);
        const char *keys[64];
        size_t klen[64];
        for (int k = 0; k < nk; k++) {
            keys[k] = CHAR(STRING_ELT(keep, k));
            klen[k] = STRING_ELT(keep, k) == NA_STRING ? SIZE_MAX : strlen(keys[k]);
        }
        size_t cap = (size_t) (t - f) + 2;
        if (cap > (size_t) INT_MAX) Rf_error("a piece of the JSON text is too long");
        unsigned char *s = (unsigned char *) R_alloc(cap, 1);
        int as_rows = ffi_flag(rows, "rows");
        size_t n = st_json_block_keep(buf, (size_t) f, (size_t) t, keys, klen, nk,
                                      &as_rows, s);
        SET_STRING_ELT(out, 0, Rf_mkCharLenCE((const char *) s, (int) n, CE_UTF8));
        Rf_setAttrib(out, Rf_install("rows"), Rf_ScalarLogical(as_rows));
    }
    UNPROTECT(1);
    return out;
}
