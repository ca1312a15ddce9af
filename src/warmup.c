/*
 * warmup.c -- warm-up and steady state of the iterations of one process
 * (Barrett, Bolz-Tereick, Killick, Mount and Tratt 2017), with the
 * package's own equivalence test in place of their overlap rule.
 *
 * For one process, its iteration times x_1..x_n in the order they ran:
 *
 * 1. Outliers.  x_i is an outlier when it lies outside
 *      med_i +- k (q90_i - q10_i),
 *    the median and the 10 % and 90 % quantiles (R's type 7) of the w
 *    iterations around it (the window centred on i, shifted inside the
 *    series at its ends; the whole series when n <= w).  Outliers are
 *    marked, not removed: the change-point search sees each at its
 *    window's bound (so one freak iteration does not make a segment of
 *    its own), every other step sees it as it is.
 *
 * 2. Change points by PELT (pelt.c) with the normal mean-and-variance
 *    cost on the times relative to their median (a common scale changes
 *    every segmentation's cost by the same amount), the given penalty and
 *    minimum segment length, searched on a grid of `step` iterations.
 *
 * 3. Segments s_1..s_K.  Segment s_j is equivalent to the last one s_K
 *    when the two one-sided rank-sum tests of the median protocol's
 *    tolerance (tolerance.c: "not more than a factor 1 + margin faster"
 *    and "not more than 1 + margin slower") both reject at alpha
 *    (Schuirmann 1987), as the package judges two versions equivalent.
 *    The steady state starts at the first segment of the longest run of
 *    segments at the end that are all equivalent to s_K.  Classes:
 *      flat            one segment, or every segment equivalent to s_K;
 *      no steady state the steady state starts within the last `steady`
 *                      iterations (a change between segments that are not
 *                      equivalent there);
 *      slowdown        some earlier segment not equivalent to s_K is
 *                      faster (median below s_K's): the steady state is
 *                      not the process's best performance;
 *      warm-up         otherwise: the earlier segments that differ are
 *                      slower.
 *    The steady iteration is the first of the steady state (1 when flat),
 *    the time to steady state the sum of the times before it.
 *
 * A process of fewer than 2 minseg iterations cannot hold a change: its
 * class is ST_WARMUP_TOO_SHORT and all its iterations count as steady.
 *
 * References:
 *   Barrett, E., Bolz-Tereick, C. F., Killick, R., Mount, S. and Tratt, L.
 *     (2017). Virtual machine warmup blows hot and cold. Proceedings of the
 *     ACM on Programming Languages 1(OOPSLA), 52:1-52:27.
 *   Killick, R., Fearnhead, P. and Eckley, I. A. (2012). Optimal detection
 *     of changepoints with a linear computational cost. JASA 107(500).
 *   Schuirmann, D. J. (1987). A comparison of the two one-sided tests
 *     procedure and the power approach for assessing the equivalence of
 *     average bioavailability. J. Pharmacokinetics and Biopharmaceutics
 *     15(6), 657-680.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "speeduptest.h"

/* R's type 7 quantile of an ascending vector */
static double quantile7(const double *s, size_t n, double p)
{
    double h = (double) (n - 1) * p;
    size_t lo = (size_t) floor(h);
    if (lo + 1 >= n) return s[n - 1];
    double f = h - (double) lo;
    if (f == 0) return s[lo];
    double gap = s[lo + 1] - s[lo];
    /* (a gap beyond the largest double: weigh the two ends instead) */
    if (!isfinite(gap)) return (1 - f) * s[lo] + f * s[lo + 1];
    return s[lo] + f * gap;
}

/* the position where v goes in the ascending s[0..k-1] (first >= v) */
static size_t lower_bound(const double *s, size_t k, double v)
{
    size_t lo = 0, hi = k;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid] < v) lo = mid + 1; else hi = mid;
    }
    return lo;
}

int st_warmup_outliers(const double *x, size_t n, size_t window, double k,
                       double *lo, double *hi, int *outlier)
{
    if (n == 0) return ST_OK;
    if (window < 1 || !(k >= 0)) return ST_ERR_DOMAIN;
    /* the sliding window finds each leaving value by bisection: a NaN (no
     * order) would leave it looking past the window's end */
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return ST_ERR_DOMAIN;
    size_t w = window < n ? window : n;
    double *s = st_malloc(w, sizeof(double));
    if (!s) return ST_ERR_ALLOC;
    /* the window of i is [a, a + w) with a = clamp(i - w/2, 0, n - w) */
    size_t a = 0;
    memcpy(s, x, w * sizeof(double));
    st_sort(s, w);
    for (size_t i = 0; i < n; i++) {
        size_t want = i >= w / 2 ? i - w / 2 : 0;
        if (want > n - w) want = n - w;
        while (a < want) {
            /* slide by one: x[a] leaves, x[a + w] enters; only the
             * values between the two places move */
            double v = x[a + w];
            size_t out = lower_bound(s, w, x[a]);
            size_t in = lower_bound(s, w, v);
            if (in > out) {
                memmove(s + out, s + out + 1, (in - 1 - out) * sizeof(double));
                s[in - 1] = v;
            } else {
                memmove(s + in + 1, s + in, (out - in) * sizeof(double));
                s[in] = v;
            }
            a++;
        }
        double med = quantile7(s, w, 0.5);
        double spread = quantile7(s, w, 0.9) - quantile7(s, w, 0.1);
        /* (times near the largest double can make the spread infinite:
         * k = 0 still means bounds at the median) */
        double d = k > 0 ? k * spread : 0;
        lo[i] = med - d;
        hi[i] = med + d;
        outlier[i] = x[i] < lo[i] || x[i] > hi[i];
    }
    free(s);
    return ST_OK;
}

/* The median of x[0 .. n-1] (n >= 1) by selection in buf (room for n). */
static double median_in(const double *x, size_t n, double *buf)
{
    memcpy(buf, x, n * sizeof(double));
    size_t h = n / 2;
    double hiv = st_select_kth(buf, n, h);
    if (n % 2) return hiv;
    /* the largest of the lower half */
    double lov = buf[0];
    for (size_t i = 1; i < h; i++)
        if (buf[i] > lov) lov = buf[i];
    /* adding first overflows near DBL_MAX (as st_median_sorted) */
    double s = lov + hiv;
    return isfinite(s) ? s / 2.0 : lov / 2.0 + hiv / 2.0;
}

int st_warmup_classify(const double *x, size_t n,
                       const st_warmup_options *opt, st_pelt_work *work,
                       st_warmup_result *res, size_t *cpts, int *outlier,
                       double *seg_median)
{
    memset(res, 0, sizeof(*res));
    res->cls = ST_WARMUP_TOO_SHORT;
    res->steady_iteration = 1;
    res->steady_time = 0;
    res->steady_median = NAN;
    if (n == 0) return ST_ERR_TOO_FEW;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]) || x[i] <= 0) return ST_ERR_DOMAIN;
    if (opt->minseg < 2 || opt->step < 1 || !(opt->penalty >= 0) ||
        !(opt->margin >= 0) || !(opt->alpha > 0 && opt->alpha < 1))
        return ST_ERR_DOMAIN;

    int status = ST_OK;
    double *lo = st_malloc(n, sizeof(double));
    double *hi = st_malloc(n, sizeof(double));
    double *y = st_malloc(n, sizeof(double));
    double *buf = st_malloc(n, sizeof(double));
    if (!lo || !hi || !y || !buf) {
        status = ST_ERR_ALLOC;
        goto done;
    }
    status = st_warmup_outliers(x, n, opt->window, opt->outlier_k, lo, hi,
                                outlier);
    if (status != ST_OK) goto done;
    for (size_t i = 0; i < n; i++) res->outliers += (size_t) outlier[i];

    double centre = median_in(x, n, buf);
    for (size_t i = 0; i < n; i++) {
        double v = x[i] < lo[i] ? lo[i] : x[i] > hi[i] ? hi[i] : x[i];
        y[i] = v / centre;
    }
    size_t nc = 0;
    if (n >= 2 * opt->minseg) {
        status = st_pelt(y, n, ST_PELT_MEANVAR, opt->penalty, 0, opt->minseg,
                         opt->step, work, cpts, &nc);
        if (status != ST_OK) goto done;
    }
    res->changes = nc;

    /* segments: [b[j], b[j + 1]) with b[0] = 0, b[K] = n */
    size_t K = nc + 1;
#define SEG_START(j) ((j) == 0 ? 0 : cpts[(j) - 1])
#define SEG_END(j) ((j) == K - 1 ? n : cpts[(j)])
    for (size_t j = 0; j < K; j++) {
        seg_median[j] = median_in(x + SEG_START(j), SEG_END(j) - SEG_START(j),
                                  buf);
    }
    if (n < 2 * opt->minseg) {
        res->steady_median = seg_median[0];
        goto done;
    }
    const double *last = x + SEG_START(K - 1);
    size_t nlast = n - SEG_START(K - 1);
    double s0 = 1 + opt->margin;
    /* equivalence of each earlier segment to the last, from the end */
    size_t first_steady = K - 1;
    int faster = 0, slower = 0, in_run = 1;
    for (size_t jj = K - 1; jj-- > 0;) {
        double p[4];
        int s = st_tolerance_tests(ST_PROTO_MEDIAN, x + SEG_START(jj),
                                   SEG_END(jj) - SEG_START(jj), last, nlast,
                                   0, s0, p);
        if (s == ST_ERR_ALLOC) {
            status = s;
            goto done;
        }
        /* no variability at all (s != ST_OK): equal medians are the same
         * level, others are not */
        int equiv = s == ST_OK ? (p[2] <= opt->alpha && p[3] <= opt->alpha)
                               : seg_median[jj] == seg_median[K - 1];
        if (equiv) {
            if (in_run) first_steady = jj;
        } else {
            in_run = 0;
            if (seg_median[jj] < seg_median[K - 1]) faster = 1;
            else slower = 1;
        }
    }
    size_t steady_start = SEG_START(first_steady);
    size_t steady = opt->steady;
    if (!faster && !slower) {
        res->cls = ST_WARMUP_FLAT;
        steady_start = 0;
    } else if (steady_start + steady > n) {
        res->cls = ST_WARMUP_NO_STEADY;
    } else {
        res->cls = faster ? ST_WARMUP_SLOWDOWN : ST_WARMUP_WARMUP;
    }
    if (res->cls == ST_WARMUP_NO_STEADY) {
        res->steady_iteration = 0;
        res->steady_time = NAN;
        res->steady_median = NAN;
    } else {
        long double t = 0;
        for (size_t i = 0; i < steady_start; i++) t += x[i];
        res->steady_iteration = steady_start + 1;
        res->steady_time = (double) t;
        res->steady_median = median_in(x + steady_start, n - steady_start,
                                       buf);
    }
#undef SEG_START
#undef SEG_END
done:
    free(lo);
    free(hi);
    free(y);
    free(buf);
    return status;
}

/* ==== R entry point ===================================================== */

#include "ffi.h"

static size_t per(const double *v, size_t nv, size_t i)
{
    return (size_t) v[nv == 1 ? 0 : i];
}

/* k processes packed as ffi_read_samples() reads them; penalty, step and
 * steady one per process or one for all; minseg, window, outlier_k,
 * margin, alpha as st_warmup_options.  list(class, steady_iteration (0:
 * none), steady_time, steady_median, changes, outliers (counts),
 * cpts (all change points, process after process), seg_median (one per
 * segment, likewise), outlier (logical, one per value), status). */
SEXP ffi_warmup_classify(SEXP values, SEXP start, SEXP len, SEXP penalty,
                         SEXP minseg, SEXP step, SEXP window, SEXP outlier_k,
                         SEXP steady, SEXP margin, SEXP alpha)
{
    ffi_samples s = ffi_read_samples(values, start, len);
    size_t np, ns, nst, nv;
    const double *pen = ffi_doubles(penalty, &np, "penalty");
    const double *stp = ffi_doubles(step, &ns, "step");
    const double *sty = ffi_doubles(steady, &nst, "steady");
    ffi_doubles(values, &nv, "values");
    if ((np != 1 && np != s.k) || (ns != 1 && ns != s.k) ||
        (nst != 1 && nst != s.k))
        Rf_error("`penalty`, `step` and `steady` must have length 1 or "
                 "one per process.");
    for (size_t i = 0; i < ns; i++)
        if (!(stp[i] >= 1) || stp[i] != floor(stp[i]) || stp[i] > 1e9)
            Rf_error("`step` must hold whole numbers >= 1.");
    for (size_t i = 0; i < nst; i++)
        if (!(sty[i] >= 0) || sty[i] > 1e15)
            Rf_error("`steady` must hold numbers >= 0.");
    st_warmup_options opt;
    int L = ffi_int(minseg, "minseg"), W = ffi_int(window, "window");
    if (L < 2 || W < 1) Rf_error("`minseg` must be >= 2 and `window` >= 1.");
    opt.minseg = (size_t) L;
    opt.window = (size_t) W;
    opt.outlier_k = ffi_double(outlier_k, "outlier_k");
    opt.margin = ffi_double(margin, "margin");
    opt.alpha = ffi_double(alpha, "alpha");

    size_t longest = 0, total = 0;
    for (size_t i = 0; i < s.k; i++) {
        size_t n = (size_t) s.len[i];
        if (n > longest) longest = n;
        total += n;
    }
    const char *names[] = {"class", "steady_iteration", "steady_time",
                           "steady_median", "changes", "outliers", "cpts",
                           "seg_median", "outlier", "process_status",
                           "status"};
    SEXP cls = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) s.k));
    SEXP sit = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) s.k));
    SEXP stt = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) s.k));
    SEXP stm = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) s.k));
    SEXP nch = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) s.k));
    SEXP nou = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) s.k));
    SEXP pst = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) s.k));
    SEXP out = PROTECT(Rf_allocVector(LGLSXP, (R_xlen_t) nv));
    for (size_t i = 0; i < nv; i++) LOGICAL(out)[i] = NA_LOGICAL;

    size_t *cp = (size_t *) R_alloc(longest ? longest : 1, sizeof(size_t));
    double *sm = (double *) R_alloc(longest + 1, sizeof(double));
    int *ol = (int *) R_alloc(longest ? longest : 1, sizeof(int));
    /* change points and segment medians gathered for all processes */
    size_t cap = 64, used = 0;
    double *all_cp = (double *) malloc(cap * sizeof(double));
    double *all_sm = (double *) malloc((cap + s.k) * sizeof(double));
    size_t used_sm = 0, cap_sm = cap + s.k;
    st_pelt_work w;
    if (!all_cp || !all_sm || st_pelt_work_init(&w, longest) != ST_OK) {
        free(all_cp);
        free(all_sm);
        Rf_error("out of memory.");
    }
    int overall = ST_OK;
    for (size_t i = 0; i < s.k; i++) {
        size_t n = (size_t) s.len[i], off = (size_t) s.start[i];
        st_warmup_result r;
        memset(&r, 0, sizeof(r));
        r.cls = ST_WARMUP_TOO_SHORT;
        r.steady_time = r.steady_median = NAN;
        int status = overall;
        if (overall == ST_OK) {
            opt.penalty = pen[np == 1 ? 0 : i];
            opt.step = per(stp, ns, i);
            opt.steady = per(sty, nst, i);
            status = st_warmup_classify(s.values + off, n, &opt, &w, &r, cp,
                                        ol, sm);
            if (status == ST_ERR_ALLOC) {
                st_pelt_work_free(&w);
                free(all_cp);
                free(all_sm);
                Rf_error("out of memory.");
            }
            if (status == ST_ERR_INTERRUPTED ||
                ((i & 63) == 63 && st_check_interrupt()))
                overall = ST_ERR_INTERRUPTED;
        }
        INTEGER(pst)[i] = status;
        INTEGER(cls)[i] = status == ST_OK ? r.cls : NA_INTEGER;
        REAL(sit)[i] = status == ST_OK && r.steady_iteration > 0
                           ? (double) r.steady_iteration : NA_REAL;
        REAL(stt)[i] = status == ST_OK && !isnan(r.steady_time)
                           ? r.steady_time : NA_REAL;
        REAL(stm)[i] = status == ST_OK && !isnan(r.steady_median)
                           ? r.steady_median : NA_REAL;
        INTEGER(nch)[i] = status == ST_OK ? (int) r.changes : NA_INTEGER;
        INTEGER(nou)[i] = status == ST_OK ? (int) r.outliers : NA_INTEGER;
        if (status != ST_OK) {
            INTEGER(nch)[i] = 0;
            continue;
        }
        for (size_t j = 0; j < n; j++) LOGICAL(out)[off + j] = ol[j];
        if (used + r.changes > cap || used_sm + r.changes + 1 > cap_sm) {
            while (used + r.changes > cap) cap *= 2;
            while (used_sm + r.changes + 1 > cap_sm) cap_sm *= 2;
            double *a = (double *) realloc(all_cp, cap * sizeof(double));
            if (a) all_cp = a;
            double *b = a ? (double *) realloc(all_sm, cap_sm * sizeof(double))
                          : NULL;
            if (b) all_sm = b;
            if (!a || !b) {
                st_pelt_work_free(&w);
                free(all_cp);
                free(all_sm);
                Rf_error("out of memory.");
            }
        }
        for (size_t j = 0; j < r.changes; j++) all_cp[used++] = (double) cp[j];
        for (size_t j = 0; j <= r.changes; j++) all_sm[used_sm++] = sm[j];
    }
    st_pelt_work_free(&w);
    SEXP cps = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) used));
    if (used) memcpy(REAL(cps), all_cp, used * sizeof(double));
    SEXP sms = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) used_sm));
    if (used_sm) memcpy(REAL(sms), all_sm, used_sm * sizeof(double));
    free(all_cp);
    free(all_sm);
    SEXP all = PROTECT(Rf_ScalarInteger(overall));
    SEXP vals[] = {cls, sit, stt, stm, nch, nou, cps, sms, out, pst, all};
    SEXP res = ffi_named_list(11, names, vals);
    UNPROTECT(11);
    return res;
}
