/*
 * pelt.c -- change points in a series by Pruned Exact Linear Time search
 * (PELT: Killick, Fearnhead and Eckley 2012).
 *
 * The series x_1..x_n is cut into segments by change points
 * 0 = tau_0 < tau_1 < ... < tau_m < tau_{m+1} = n (a change point is the
 * last index of the segment before it) so as to minimise
 *
 *   sum_{i=0}^{m} [ C(x_{tau_i + 1 .. tau_{i+1}}) + beta ] - beta,
 *
 * C the cost of a segment, beta the penalty on each change.  With
 * F(t) the optimal value for x_1..x_t and F(0) = -beta,
 *
 *   F(t) = min_{tau in R_t} [ F(tau) + C(x_{tau+1..t}) + beta ],
 *
 * and the last change of the optimum at t is the minimising tau.  PELT's
 * pruning: a tau with F(tau) + C(x_{tau+1..t}) > F(t) can never be the
 * last change of an optimum beyond t (for costs with C(a..b) + C(b+1..c)
 * <= C(a..c), true of both costs here), so it leaves R_t for good; the
 * search stays exact and is linear in n when changes keep arriving.
 *
 * A minimum segment length L: every segment holds at least L values, so
 * F(t) for L <= t < 2L is the cost of one segment, and candidate tau at t
 * are those with t - tau >= L (the newest one, t - L, joins R_t when t is
 * reached).
 *
 * Costs (twice the negative maximised normal log-likelihood, from the
 * segment's sum S, sum of squares Q and length k):
 *   mean and variance:  k (log(2 pi) + log(s2) + 1),  s2 = (Q - S^2/k)/k,
 *                       the maximum-likelihood variance, floored at 1e-11
 *                       so a constant segment has a finite cost;
 *   mean (variance 1):  Q - S^2 / k.
 * The MBIC of Zhang and Siegmund (2007) adds log(k) to each segment's cost
 * (its penalty part on the number of changes is the caller's beta).
 *
 * On a grid.  Without changes the candidate set is never pruned (a split
 * always fits at least as well as no split), so the search costs n^2 / 2
 * segment costs on a flat series.  With a step b > 1 the search runs over
 * the changes at g_j = min(j b, n) only: the same recursion on the grid
 * points, each segment's cost still from all its values (the cumulative
 * sums at the grid points), so it is the exact optimum among segmentations
 * whose changes lie on the grid, at (n / b)^2 / 2 costs.  Each change found
 * is then moved to the best single split of the values between its
 * neighbouring changes within b - 1 of it (a local refinement: the result
 * is close to, not always equal to, the unrestricted optimum).
 *
 * With a step of 1 the conventions are those of the CRAN package
 * changepoint (Killick and Eckley 2014), whose cpts() this reproduces
 * exactly: the sums are
 * cumulative sums accumulated in long double as R's cumsum(), the
 * arithmetic is done in the same order, among equal optima the earliest
 * candidate wins, and a candidate is kept while
 * F(tau) + C + beta <= F(t) + beta.
 *
 * References:
 *   Killick, R., Fearnhead, P. and Eckley, I. A. (2012). Optimal detection
 *     of changepoints with a linear computational cost. Journal of the
 *     American Statistical Association 107(500), 1590-1598.
 *   Killick, R. and Eckley, I. A. (2014). changepoint: an R package for
 *     changepoint analysis. Journal of Statistical Software 58(3).
 *   Zhang, N. R. and Siegmund, D. O. (2007). A modified Bayes information
 *     criterion with applications to the analysis of comparative genomic
 *     hybridization data. Biometrics 63(1), 22-32.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "speeduptest.h"

#define PELT_LOG_2PI 1.837877066409345483560659472811 /* log(2 pi) */

static double pelt_cost(st_pelt_cost cost, int mbic, double s, double q,
                        int k)
{
    double c;
    if (cost == ST_PELT_MEAN) {
        c = q - (s * s) / k;
    } else {
        double s2 = (q - ((s * s) / k)) / k;
        if (s2 <= 0) s2 = 0.00000000001;
        c = k * (PELT_LOG_2PI + log(s2) + 1);
    }
    return mbic ? c + log((double) k) : c;
}

int st_pelt_work_init(st_pelt_work *w, size_t n)
{
    memset(w, 0, sizeof(*w));
    if (n == 0) return ST_OK;
    if (n > ((size_t) -1) / 4 / sizeof(double) - 1) return ST_ERR_ALLOC;
    w->cap = n;
    w->s = (double *) malloc((n + 1) * sizeof(double));
    w->q = (double *) malloc((n + 1) * sizeof(double));
    w->f = (double *) malloc((n + 1) * sizeof(double));
    w->like = (double *) malloc((n + 1) * sizeof(double));
    w->last = (size_t *) malloc((n + 1) * sizeof(size_t));
    w->cand = (size_t *) malloc((n + 1) * sizeof(size_t));
    if (!w->s || !w->q || !w->f || !w->like || !w->last || !w->cand) {
        st_pelt_work_free(w);
        return ST_ERR_ALLOC;
    }
    return ST_OK;
}

void st_pelt_work_free(st_pelt_work *w)
{
    free(w->s);
    free(w->q);
    free(w->f);
    free(w->like);
    free(w->last);
    free(w->cand);
    memset(w, 0, sizeof(*w));
}

/* C(x_{a+1..b}) from the cumulative sums */
static inline double seg_cost(const double *S, const double *Q, size_t a,
                              size_t b, st_pelt_cost cost, int mbic)
{
    return pelt_cost(cost, mbic, S[b] - S[a], Q[b] - Q[a], (int) (b - a));
}

/* The best single split c of x_{p+1..q} with c within (lo, hi) and
 * segments of at least minseg: the one of least C(p..c) + C(c..q), the
 * earliest among equals, or `keep` when it is as good. */
static size_t refine_change(const double *S, const double *Q, size_t p,
                            size_t q, size_t keep, size_t lo, size_t hi,
                            size_t minseg, st_pelt_cost cost, int mbic)
{
    size_t from = lo > p + minseg ? lo : p + minseg;
    size_t to = hi + minseg < q ? hi : q - minseg;
    double best = seg_cost(S, Q, p, keep, cost, mbic) +
                  seg_cost(S, Q, keep, q, cost, mbic);
    size_t at = keep;
    for (size_t c = from; c <= to; c++) {
        double v = seg_cost(S, Q, p, c, cost, mbic) +
                   seg_cost(S, Q, c, q, cost, mbic);
        if (v < best) {
            best = v;
            at = c;
        }
    }
    return at;
}

int st_pelt(const double *x, size_t n, st_pelt_cost cost, double penalty,
            int mbic, size_t minseg, size_t step, st_pelt_work *work,
            size_t *cpts, size_t *ncpts)
{
    *ncpts = 0;
    if (n == 0) return ST_ERR_TOO_FEW;
    if (minseg < 1 || step < 1 || isnan(penalty) || penalty < 0 ||
        !isfinite(penalty))
        return ST_ERR_DOMAIN;
    if ((size_t) n > (size_t) 2147483647) return ST_ERR_TOO_MANY;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return ST_ERR_DOMAIN;
    /* one segment is the only segmentation when two cannot fit */
    if (n < 2 * minseg) return ST_OK;

    st_pelt_work own;
    st_pelt_work *w = work;
    if (w == NULL || w->cap < n) {
        int status = st_pelt_work_init(&own, n);
        if (status != ST_OK) return status;
        w = &own;
    }
    double *S = w->s, *Q = w->q, *F = w->f, *like = w->like;
    size_t *last = w->last, *cand = w->cand;

    long double as = 0, aq = 0;
    S[0] = 0;
    Q[0] = 0;
    for (size_t i = 0; i < n; i++) {
        as += x[i];
        aq += x[i] * x[i];
        S[i + 1] = (double) as;
        Q[i + 1] = (double) aq;
    }

    /* The search runs over the grid points g_j = min(j step, n); F, last
     * and the candidates are indexed by j (with step 1, g_j = j). */
    size_t m = (n + step - 1) / step;     /* grid points after 0 */
#define G(j) ((j) * step < n ? (j) * step : n)
    const double beta = penalty;
    F[0] = -beta;
    last[0] = 0;
    size_t nc = 1, next = 1;
    cand[0] = 0;
    int status = ST_OK;
    for (size_t j = 1; j <= m; j++) {
        size_t t = G(j);
        if ((j & 1023) == 0 && st_check_interrupt()) {
            status = ST_ERR_INTERRUPTED;
            break;
        }
        if (t < 2 * minseg) {
            /* only one segment fits: its cost (INFINITY below minseg) */
            F[j] = t < minseg ? INFINITY : seg_cost(S, Q, 0, t, cost, mbic);
            last[j] = 0;
            continue;
        }
        /* the newest candidates: every g_i that leaves minseg values
         * before t and could end a segment itself */
        while (next < j && t - G(next) >= minseg) {
            if (G(next) >= minseg) cand[nc++] = next;
            next++;
        }
        double best = 0;
        size_t which = 0;
        for (size_t i = 0; i < nc; i++) {
            size_t tau = G(cand[i]);
            like[i] = F[cand[i]] + seg_cost(S, Q, tau, t, cost, mbic) + beta;
            if (i == 0 || like[i] < best) {
                best = like[i];
                which = i;
            }
        }
        F[j] = best;
        last[j] = cand[which];
        /* prune: keep tau while F(tau) + C + beta <= F(t) + beta */
        size_t kept = 0;
        double bound = best + beta;
        for (size_t i = 0; i < nc; i++)
            if (like[i] <= bound) cand[kept++] = cand[i];
        nc = kept;
    }

    if (status == ST_OK) {
        size_t k = 0;
        size_t at = last[m];
        while (at != 0) {
            cpts[k++] = G(at);
            at = last[at];
        }
#undef G
        /* reverse into increasing order */
        for (size_t i = 0; i < k / 2; i++) {
            size_t tmp = cpts[i];
            cpts[i] = cpts[k - 1 - i];
            cpts[k - 1 - i] = tmp;
        }
        /* on a grid: each change moved to its best place within a step
         * either side, its neighbours held */
        if (step > 1) {
            for (size_t i = 0; i < k; i++) {
                size_t p = i ? cpts[i - 1] : 0;
                size_t q = i + 1 < k ? cpts[i + 1] : n;
                size_t lo = cpts[i] > step ? cpts[i] - step + 1 : 1;
                cpts[i] = refine_change(S, Q, p, q, cpts[i], lo,
                                        cpts[i] + step - 1, minseg, cost,
                                        mbic);
            }
        }
        *ncpts = k;
    }
    if (w == &own) st_pelt_work_free(&own);
    return status;
}

/* ==== R entry point ===================================================== */

#include "ffi.h"

/* k series packed as ffi_read_samples() reads them; cost 0 (mean and
 * variance) or 1 (mean); penalty and step one per series or one for all;
 * mbic and minseg as st_pelt.  list(cpts = list of integer vectors,
 * series_status
 * (one per series), status (ST_ERR_INTERRUPTED when the user stopped it,
 * the series not reached then say so too)). */
SEXP ffi_pelt(SEXP values, SEXP start, SEXP len, SEXP cost, SEXP penalty,
              SEXP mbic, SEXP minseg, SEXP step)
{
    ffi_samples s = ffi_read_samples(values, start, len);
    size_t npen;
    const double *pen = ffi_doubles(penalty, &npen, "penalty");
    int c = ffi_int(cost, "cost");
    int mb = ffi_flag(mbic, "mbic");
    int L = ffi_int(minseg, "minseg");
    if (c != ST_PELT_MEANVAR && c != ST_PELT_MEAN)
        Rf_error("`cost` must be 0 or 1.");
    if (L < 1) Rf_error("`minseg` must be at least 1.");
    if (npen != 1 && npen != s.k)
        Rf_error("`penalty` must have length 1 or one per series.");
    size_t nstep;
    const double *stp = ffi_doubles(step, &nstep, "step");
    if (nstep != 1 && nstep != s.k)
        Rf_error("`step` must have length 1 or one per series.");
    for (size_t i = 0; i < nstep; i++)
        if (!(stp[i] >= 1) || stp[i] != floor(stp[i]) || stp[i] > 1e9)
            Rf_error("`step` must hold whole numbers >= 1.");
    size_t longest = 0;
    for (size_t i = 0; i < s.k; i++)
        if ((size_t) s.len[i] > longest) longest = (size_t) s.len[i];

    SEXP out = PROTECT(Rf_allocVector(VECSXP, (R_xlen_t) s.k));
    SEXP st = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) s.k));
    size_t *cp = (size_t *) R_alloc(longest ? longest : 1, sizeof(size_t));
    st_pelt_work w;
    if (st_pelt_work_init(&w, longest) != ST_OK) Rf_error("out of memory.");
    int overall = ST_OK;
    for (size_t i = 0; i < s.k; i++) {
        size_t n = (size_t) s.len[i], m = 0;
        int status = overall;
        if (overall == ST_OK) {
            status = st_pelt(s.values + (size_t) s.start[i], n,
                             (st_pelt_cost) c, pen[npen == 1 ? 0 : i], mb,
                             (size_t) L, (size_t) stp[nstep == 1 ? 0 : i],
                             &w, cp, &m);
            if (status == ST_ERR_ALLOC) {
                st_pelt_work_free(&w);
                Rf_error("out of memory.");
            }
            if (status == ST_ERR_INTERRUPTED ||
                ((i & 255) == 255 && st_check_interrupt()))
                overall = ST_ERR_INTERRUPTED;
        }
        INTEGER(st)[i] = status;
        SEXP v = Rf_allocVector(INTSXP, (R_xlen_t) m);
        SET_VECTOR_ELT(out, (R_xlen_t) i, v);
        for (size_t j = 0; j < m; j++) INTEGER(v)[j] = (int) cp[j];
    }
    st_pelt_work_free(&w);
    SEXP all = PROTECT(Rf_ScalarInteger(overall));
    const char *names[] = {"cpts", "series_status", "status"};
    SEXP vals[] = {out, st, all};
    SEXP res = ffi_named_list(3, names, vals);
    UNPROTECT(3);
    return res;
}
