/*
 * changes.c -- change points along one series of a history, with a
 * finite-sample guarantee: Lean Bonferroni changepoint detection (LBD) of
 * Jang and Walther (2024) on exact rank-sum tests, and the figures of a
 * change (its ratio with the Hodges-Lehmann interval, the tolerance tests)
 * from the data either side of it.
 *
 * A series holds k commits in first-parent order; commit c has the
 * per-process values value[start[c]] .. value[start[c + 1] - 1].  A change
 * "at c" (its first bad commit) means the commits before c and the commits
 * from c on have different laws.
 *
 * The scan.  A triplet is a window of commits [a, b) split at its middle
 * m = a + ceil((b - a) / 2); its local test is the two-sided exact
 * Wilcoxon-Mann-Whitney rank-sum test of the processes of [a, m) against
 * those of [m, b).  Without a change inside the window every process of it
 * has the same law, so the test's p-value is exact (given the ties, the
 * permutation law of the mid-rank sum); a rejection certifies a change
 * whose first bad commit lies in a + 1 .. b - 1.  The windows come from
 * the sparse multiscale collection of the paper:
 *   - level l holds windows of 2^l to 2^(l+1) - 1 commits on a grid of
 *     spacing d_l = ceil(2^l / sqrt(2 log(e k / 2^l))): every window whose
 *     ends are multiples of d_l (counted back from the newest commit, so
 *     that the head of the series is covered at every level) and whose
 *     length is u d_l with ceil(2^l / d_l) <= u <= ceil(2^(l+1) / d_l) - 1;
 *   - levels 1 .. s_k - 1, s_k = ceil(log2(log k)), form block 1 and each
 *     higher level is a block of its own, up to l = floor(log2 k) - 1
 *     (windows up to the whole series; the paper stops at k / 4 for its
 *     optimality theory, the guarantee holds for any fixed collection);
 *   - weighted Bonferroni: a triplet of block B, among |B| triplets, is
 *     tested at level alpha / (H * B * |B|), H = sum_{b <= Bmax} 1 / b;
 *   - a triplet whose halves hold too few processes to reach its level
 *     (2 / choose(N, n) > level: two commits of three processes can never
 *     give a p-value below 0.1) is left out, and the levels are shared
 *     again among the others (empty blocks removed, the rest renumbered)
 *     until none is left out.  The counts of processes are the design,
 *     not the data, so the collection stays fixed in advance.
 * The levels add up to alpha, so with probability at least 1 - alpha no
 * triplet without a change inside its window rejects: every reported
 * range holds a change.  The reported changes are disjoint certified
 * ranges, taken shortest first (each then minimal: it contains no other
 * certified range); their count is a lower bound of the number of changes,
 * at the same confidence.  The windows are tested by increasing length,
 * and one whose range meets a range already taken is skipped, which
 * changes nothing in the answer and saves most of the long windows around
 * a change.  Each change's p-value is that of
 * its triplet times alpha over the triplet's level (the Bonferroni-
 * adjusted p-value, at most alpha).
 *
 * A step beyond a margin.  With a margin delta > 0 (the log of the
 * tolerance, on log times) a triplet tests the hypothesis "the levels of
 * its halves differ by at most delta": the exact one-sided rank-sum test
 * of the first half shifted by delta towards the second, in the direction
 * the halves' means point to, its p-value doubled (at least the two-sided
 * 2 min(p_up, p_down) whichever direction is taken).  Under a location
 * shift of at most delta each one-sided test is conservative (the rank
 * sum is stochastically monotone in the shift), so with probability at
 * least 1 - alpha every reported range holds a change beyond delta; a
 * slow drift of the level within delta gives none.
 *
 * The cost of the exact tests.  The exact law of a rank sum with ties
 * grows as the fourth power of the sample: a half of more than max_half
 * (128) processes is tested on max_half of them, evenly spaced in commit
 * order (a choice made without looking at the values, so the test stays
 * exact).  From 17 processes in a window on, a triplet whose normal-
 * approximation p-value exceeds 20 times its level is not counted exactly
 * (this can only lose a rejection, never add one, and far in the tails the
 * exact law, bounded, is lighter than the normal one); one whose p-value
 * is below its level by Serfling's (1974) bound for sampling without
 * replacement is rejected without the count, its exact p-value counted
 * only if it is reported.
 *
 * The figures of a change.  Around the changes' first bad commits
 * c_1 < ... < c_r, change i compares the processes of [c_{i-1}, c_i) (the
 * old code) with those of [c_i, c_{i+1}) (the new), c_0 = 0 and
 * c_{r+1} = k: the ratio new / old is exp of the Hodges-Lehmann shift of
 * the log times with its two-sided 1 - 2 alpha interval (each end a
 * one-sided 1 - alpha bound, as the median protocol's), and the four
 * one-sided rank-sum tests of the tolerance s0 (tolerance.c).
 *
 * References
 *   Jang, J. and Walther, G. (2024). Fast and optimal changepoint detection
 *     and localization using Bonferroni triplets. arXiv:2410.14866.
 *   Serfling, R. J. (1974). Probability inequalities for the sum in
 *     sampling without replacement. Annals of Statistics 2, 39-48.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <Rmath.h>
#include "speeduptest.h"

#define SCAN_MAX_HALF 128
#define SCAN_SCREEN 20.0
#define SCAN_EXACT_ALWAYS 16

/* ---- the collection of triplets ------------------------------------------ */

/* ceil(log2(log k)) for k >= 2 (1 below e^2 / ... as the formula gives). */
static int scan_small_levels(size_t k)
{
    double lk = log((double) k);
    if (lk <= 1.0) return 0;
    return (int) ceil(log2(lk));
}

static size_t scan_spacing(size_t k, int l)
{
    double ml = ldexp(1.0, l);
    double d = ceil(ml / sqrt(2.0 * log(M_E * (double) k / ml)));
    return d < 1.0 ? 1 : (size_t) d;
}

/* The windows of level l: calls fn(a, b, arg) for each; returns the count. */
static size_t scan_level(size_t k, int l,
                         void (*fn)(size_t, size_t, void *), void *arg)
{
    size_t d = scan_spacing(k, l);
    size_t ml = (size_t) 1 << l;
    size_t ulo = (ml + d - 1) / d, uhi = (2 * ml + d - 1) / d - 1;
    size_t cells = k / d, off = k - cells * d, count = 0;
    for (size_t u = ulo; u <= uhi && u <= cells; u++) {
        if (u * d < 2) continue;
        for (size_t j = 0; j + u <= cells; j++) {
            if (fn) fn(off + j * d, off + (j + u) * d, arg);
            count++;
        }
    }
    return count;
}

/* The block of each level (0: not scanned) and the blocks' count. */
static int scan_blocks(size_t k, int *block_of, int max_level)
{
    if (k < 4) return 0;
    int top = (int) floor(log2((double) k)) - 1;
    if (top > max_level) top = max_level;
    int first_big = scan_small_levels(k);
    if (first_big < 2) first_big = 2;
    int nb = 0;
    for (int l = 0; l <= max_level; l++) block_of[l] = 0;
    for (int l = 1; l <= top; l++) {
        block_of[l] = l < first_big ? 1 : l - first_big + 2;
        if (block_of[l] > nb) nb = block_of[l];
    }
    return nb;
}

#define SCAN_MAX_LEVEL 62

typedef struct {
    st_scan_triplet *t;
    size_t n;
    int level;
} grid_fill;

static void grid_add(size_t a, size_t b, void *arg)
{
    grid_fill *g = arg;
    st_scan_triplet *t = &g->t[g->n++];
    t->from = a;
    t->to = b;
    t->split = a + (b - a + 1) / 2;
    t->scale = g->level;
}

/* The number of processes a half [a, b) is tested on. */
static size_t half_count(const size_t *start, size_t a, size_t b, size_t cap)
{
    size_t n = start[b] - start[a];
    return n < cap ? n : cap;
}

/* The levels of the triplets t[0 .. n - 1] whose keep flag is set: the
 * blocks that hold any, renumbered 1, 2, ... in order, share alpha with
 * weights 1 / B, each among its triplets. */
static void grid_levels(st_scan_triplet *t, size_t n, const char *keep,
                        double alpha)
{
    size_t per_block[SCAN_MAX_LEVEL + 2] = {0};
    int rank[SCAN_MAX_LEVEL + 2] = {0};
    for (size_t i = 0; i < n; i++)
        if (keep[i]) per_block[t[i].block]++;
    int nb = 0;
    double h = 0.0;
    for (int b = 1; b <= SCAN_MAX_LEVEL + 1; b++)
        if (per_block[b]) {
            rank[b] = ++nb;
            h += 1.0 / nb;
        }
    for (size_t i = 0; i < n; i++) {
        int b = t[i].block;
        t[i].level = keep[i] ? alpha / (h * rank[b] * (double) per_block[b])
                             : 0.0;
    }
}

int st_scan_grid(const size_t *start, size_t k, double alpha,
                 size_t max_half, st_scan_triplet **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    if (!(alpha > 0 && alpha < 1)) return ST_ERR_DOMAIN;
    int block_of[SCAN_MAX_LEVEL + 1];
    int nb = scan_blocks(k, block_of, SCAN_MAX_LEVEL);
    if (nb == 0) return ST_OK;
    size_t total = 0;
    for (int l = 1; l <= SCAN_MAX_LEVEL; l++)
        if (block_of[l]) total += scan_level(k, l, NULL, NULL);
    if (total == 0) return ST_OK;
    st_scan_triplet *t = st_malloc(total, sizeof(st_scan_triplet));
    char *keep = st_malloc(total, 1);
    double *lmin = st_malloc(total, sizeof(double));
    if (!t || !keep || !lmin) {
        free(t);
        free(keep);
        free(lmin);
        return ST_ERR_ALLOC;
    }
    grid_fill g = {t, 0, 0};
    for (int l = 1; l <= SCAN_MAX_LEVEL; l++) {
        if (!block_of[l]) continue;
        size_t first = g.n;
        g.level = l;
        scan_level(k, l, grid_add, &g);
        for (size_t i = first; i < g.n; i++) t[i].block = block_of[l];
    }
    /* With the processes' counts known (they are the design, not the
     * data), a triplet whose smallest attainable p-value, 2 / choose(N, n)
     * without ties, exceeds its level can never reject: it is dropped and
     * the levels shared again among the others, until none is dropped. */
    for (size_t i = 0; i < g.n; i++) {
        keep[i] = 1;
        lmin[i] = -INFINITY;
        if (start) {
            double n = (double) half_count(start, t[i].from, t[i].split,
                                           max_half);
            double m = (double) half_count(start, t[i].split, t[i].to,
                                           max_half);
            lmin[i] = log(2.0) - lchoose(n + m, n);
        }
    }
    size_t kept = g.n;
    for (;;) {
        grid_levels(t, g.n, keep, alpha);
        size_t dropped = 0;
        for (size_t i = 0; i < g.n; i++)
            if (keep[i] && lmin[i] > log(t[i].level)) {
                keep[i] = 0;
                dropped++;
            }
        if (!dropped) break;
        kept -= dropped;
        if (kept == 0) break;
    }
    size_t j = 0;
    for (size_t i = 0; i < g.n; i++)
        if (keep[i]) t[j++] = t[i];
    free(keep);
    free(lmin);
    if (j == 0) {
        free(t);
        return ST_OK;
    }
    *out = t;
    *len = j;
    return ST_OK;
}

/* ---- the local tests ------------------------------------------------------ */

/* The values of commits [a, b), thinned to at most cap evenly spaced ones
 * (in commit order), copied to buf; returns their count. */
static size_t half_values(const double *value, const size_t *start,
                          size_t a, size_t b, size_t cap, double *buf)
{
    size_t lo = start[a], n = start[b] - lo;
    if (n <= cap) {
        memcpy(buf, value + lo, n * sizeof(double));
        return n;
    }
    for (size_t i = 0; i < cap; i++)
        buf[i] = value[lo + (size_t) (((double) i + 0.5) * (double) n /
                                      (double) cap)];
    return cap;
}

typedef struct {
    double *xs, *ys, *rank2;   /* buffers of max_half, max_half, 2 max_half */
    size_t cap;
    double margin;             /* the shift a rejection must exceed */
} scan_work;

/* The two-sided p-value of the triplet t, or a bound of it: *p and
 * *exact (1: counted; 0: Serfling's bound, only set when it is <= level;
 * -1: not computed, the triplet cannot reject).  force: always count. */
static int triplet_p(const double *value, const size_t *start,
                     const st_scan_triplet *t, scan_work *w, int force,
                     double *p, int *exact)
{
    *p = 1.0;
    *exact = -1;
    size_t n = half_values(value, start, t->from, t->split, w->cap, w->xs);
    size_t m = half_values(value, start, t->split, t->to, w->cap, w->ys);
    if (n == 0 || m == 0) return ST_OK;
    size_t N = n + m;
    double level = t->level;
    /* the smallest p-value the sizes allow (no ties) */
    if (!force && log(2.0) - lchoose((double) N, (double) n) > log(level))
        return ST_OK;
    st_sort(w->xs, n);
    st_sort(w->ys, m);
    /* With a margin, the direction is the one the halves' means point to
     * and the p-value twice that one-sided test's, at the shift: at least
     * the two-sided p-value 2 min(p_up, p_down) of the hypothesis "the
     * halves differ by at most the margin", whichever direction is taken. */
    int dir = 0;
    double d = 0.0;
    if (w->margin > 0) {
        double sx = 0.0, sy = 0.0;
        for (size_t i = 0; i < n; i++) sx += w->xs[i];
        for (size_t i = 0; i < m; i++) sy += w->ys[i];
        dir = sy / (double) m >= sx / (double) n ? -1 : 1;
        d = (double) dir * w->margin;
    }
    long double rs;
    double tie;
    int s = st_merge_ranks(w->xs, n, d, w->ys, m, &rs, &tie, w->rank2);
    if (s != ST_OK) return s;
    double dn = (double) n, dm = (double) m, dN = (double) N;
    double dev = (double) rs - dn * (dN + 1.0) / 2.0;
    double var = dn * dm / 12.0 * ((dN + 1.0) - tie / (dN * (dN - 1.0)));
    if (!(var > 0) || (dir != 0 && (double) dir * dev <= 0.0)) {
        *p = 1.0;
        *exact = 1;
        return ST_OK;
    }
    if (!force && N > SCAN_EXACT_ALWAYS) {
        double z = fabs(dev) / sqrt(var);
        double pn = 2.0 * pnorm(z, 0.0, 1.0, 0, 0);
        if (pn > SCAN_SCREEN * level) return ST_OK;
        /* Serfling: the sum of n scores drawn without replacement from N
         * scores in [lo, hi] exceeds its mean by t with probability at most
         * exp(-2 t^2 / (n (1 - (n - 1) / N) (hi - lo)^2)); the rank sum of
         * the smaller sample is the mirror of the other's. */
        double lo = w->rank2[0], hi = w->rank2[0];
        for (size_t i = 1; i < N; i++) {
            if (w->rank2[i] < lo) lo = w->rank2[i];
            if (w->rank2[i] > hi) hi = w->rank2[i];
        }
        double range = (hi - lo) / 2.0, nk = dn < dm ? dn : dm;
        double bound = 2.0 * exp(-2.0 * dev * dev /
                                 (nk * (1.0 - (nk - 1.0) / dN) * range *
                                  range));
        if (bound <= level) {
            *p = bound;
            *exact = 0;
            return ST_OK;
        }
    }
    double le, ge;
    s = st_exact_tails(ST_RANK_SUM, w->rank2, N, n, 2.0 * (double) rs, &le,
                       &ge);
    if (s != ST_OK) return s;
    double pv = 2.0 * (dir < 0 ? le : dir > 0 ? ge : (le < ge ? le : ge));
    *p = pv > 1.0 ? 1.0 : pv;
    *exact = 1;
    return ST_OK;
}

/* ---- the change's commit within its window -------------------------------- */

/* The split c of [a, b) (a < c < b) with the largest standardised rank sum
 * of the processes of [a, c) against those of [c, b), all of them. */
static int best_split(const double *value, const size_t *start, size_t a,
                      size_t b, size_t *best)
{
    size_t lo = start[a], N = start[b] - lo;
    *best = a + 1;
    double *rank = st_malloc(N, sizeof(double));
    if (!rank) return ST_ERR_ALLOC;
    int s = st_midranks(value + lo, N, rank, NULL);
    if (s != ST_OK) {
        free(rank);
        return s;
    }
    double dN = (double) N, sum = 0.0, top = -1.0;
    for (size_t c = a + 1; c < b; c++) {
        for (size_t i = start[c - 1]; i < start[c]; i++) sum += rank[i - lo];
        double n = (double) (start[c] - lo), m = dN - n;
        double z = fabs(sum - n * (dN + 1.0) / 2.0) / sqrt(n * m);
        if (z > top) {
            top = z;
            *best = c;
        }
    }
    free(rank);
    return ST_OK;
}

/* ---- the scan --------------------------------------------------------------- */

typedef struct {
    size_t lo, hi;       /* first bad commits certified: lo .. hi */
    size_t idx;          /* the triplet */
    double p, adj;       /* its p-value (or bound) and p * alpha / level */
    int exact;
} scan_hit;

/* Shortest range first, then the smaller adjusted p-value, then along
 * the series. */
static int cmp_hit(const void *u, const void *v)
{
    const scan_hit *a = u, *b = v;
    size_t la = a->hi - a->lo, lb = b->hi - b->lo;
    if (la != lb) return la < lb ? -1 : 1;
    if (a->adj != b->adj) return a->adj < b->adj ? -1 : 1;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

static int cmp_change(const void *u, const void *v)
{
    const st_scan_change *a = u, *b = v;
    return (a->from > b->from) - (a->from < b->from);
}

/* 1 when lo .. hi meets one of the n ranges taken. */
static int range_taken(const st_scan_change *c, size_t n, size_t lo,
                       size_t hi)
{
    for (size_t j = 0; j < n; j++)
        if (lo <= c[j].to - 1 && c[j].from + 1 <= hi) return 1;
    return 0;
}

typedef struct {
    size_t len, idx;
} scan_key;

static int cmp_key(const void *u, const void *v)
{
    const scan_key *a = u, *b = v;
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* The indices ord[0 .. n-1] by increasing window length (then index). */
static int scan_sort_by_length(size_t *ord, size_t n,
                               const st_scan_triplet *t)
{
    scan_key *key = st_malloc(n, sizeof(scan_key));
    if (!key) return ST_ERR_ALLOC;
    for (size_t i = 0; i < n; i++) {
        key[i].len = t[i].to - t[i].from;
        key[i].idx = i;
    }
    qsort(key, n, sizeof(scan_key), cmp_key);
    for (size_t i = 0; i < n; i++) ord[i] = key[i].idx;
    free(key);
    return ST_OK;
}

static int check_series(const double *value, const size_t *start, size_t k)
{
    if (start[0] != 0) return ST_ERR_DOMAIN;
    for (size_t c = 0; c < k; c++)
        if (start[c + 1] <= start[c]) return ST_ERR_DOMAIN;
    for (size_t i = 0; i < start[k]; i++)
        if (!isfinite(value[i])) return ST_ERR_DOMAIN;
    return ST_OK;
}

int st_scan_changes(const double *value, const size_t *start, size_t k,
                    double alpha, const st_scan_options *opt,
                    st_scan_change **changes, size_t *n_changes)
{
    *changes = NULL;
    *n_changes = 0;
    if (k == 0) return ST_ERR_TOO_FEW;
    int s = check_series(value, start, k);
    if (s != ST_OK) return s;
    scan_work w;
    w.cap = opt && opt->max_half >= 2 ? opt->max_half : SCAN_MAX_HALF;
    w.margin = opt ? opt->margin : 0.0;
    if (!(w.margin >= 0) || !isfinite(w.margin)) return ST_ERR_DOMAIN;
    st_scan_triplet *t;
    size_t nt;
    s = st_scan_grid(start, k, alpha, w.cap, &t, &nt);
    if (s != ST_OK || nt == 0) return s;
    w.xs = st_malloc(4 * w.cap, sizeof(double));
    scan_hit *hits = st_malloc(nt, sizeof(scan_hit));
    if (!w.xs || !hits) {
        free(w.xs);
        free(hits);
        free(t);
        return ST_ERR_ALLOC;
    }
    w.ys = w.xs + w.cap;
    w.rank2 = w.ys + w.cap;
    /* The ranges taken: the shortest first, each disjoint from those
     * already taken (a shortest range contains no other, so each is
     * minimal); among ranges of one length, the smaller adjusted p-value
     * first, then along the series.  So the windows are tested by
     * increasing length, and a window whose range meets a range already
     * taken is not tested at all: its answer could not change the
     * choice. */
    size_t *ord = st_malloc(nt, sizeof(size_t));
    st_scan_change *out = st_malloc(nt, sizeof(st_scan_change));
    if (!ord || !out) s = ST_ERR_ALLOC;
    size_t nout = 0;
    if (s == ST_OK) {
        s = scan_sort_by_length(ord, nt, t);
    }
    size_t g0 = 0, done = 0;
    while (s == ST_OK && g0 < nt) {
        size_t len = t[ord[g0]].to - t[ord[g0]].from, g1 = g0, nh = 0;
        while (g1 < nt && t[ord[g1]].to - t[ord[g1]].from == len) g1++;
        for (size_t q = g0; q < g1 && s == ST_OK; q++) {
            if ((++done & 255) == 0 && st_check_interrupt()) {
                s = ST_ERR_INTERRUPTED;
                break;
            }
            size_t i = ord[q];
            size_t lo = t[i].from + 1, hi = t[i].to - 1;
            if (range_taken(out, nout, lo, hi)) continue;
            double p;
            int ex;
            s = triplet_p(value, start, &t[i], &w, 0, &p, &ex);
            if (s == ST_OK && ex >= 0 && p <= t[i].level) {
                scan_hit *h = &hits[nh++];
                h->lo = lo;
                h->hi = hi;
                h->idx = i;
                h->p = p;
                h->adj = p * alpha / t[i].level;
                h->exact = ex;
            }
        }
        if (s == ST_OK && nh > 0) qsort(hits, nh, sizeof(scan_hit), cmp_hit);
        for (size_t q = 0; q < nh && s == ST_OK; q++) {
            if (range_taken(out, nout, hits[q].lo, hits[q].hi)) continue;
            const st_scan_triplet *tr = &t[hits[q].idx];
            double p = hits[q].p;
            if (!hits[q].exact) {
                int ex;
                s = triplet_p(value, start, tr, &w, 1, &p, &ex);
                if (s != ST_OK) break;
            }
            st_scan_change *c = &out[nout++];
            c->from = tr->from;
            c->to = tr->to;
            c->split = tr->split;
            c->p_local = p;
            /* p / level first: at p == level it is 1 exactly, so a
             * change found at its level never reports more than alpha
             * (p * alpha / level can round above it) */
            double adj = p / tr->level * alpha;
            c->p_value = adj > 1.0 ? 1.0 : adj;
            s = best_split(value, start, tr->from, tr->to, &c->first_bad);
        }
        g0 = g1;
    }
    if (s == ST_OK) qsort(out, nout, sizeof(st_scan_change), cmp_change);
    free(ord);
    free(w.xs);
    free(hits);
    free(t);
    if (s != ST_OK || nout == 0) {
        free(out);
        return s;
    }
    *changes = out;
    *n_changes = nout;
    return ST_OK;
}

/* ---- the figures of the changes --------------------------------------------- */

int st_change_figures(const double *value, const size_t *start, size_t k,
                      const size_t *first_bad, size_t r, double alpha,
                      double s0, st_change_figure *out)
{
    int s = check_series(value, start, k);
    if (s != ST_OK) return s;
    if (!(alpha > 0 && alpha < 0.5) || !(s0 >= 1) || !isfinite(s0))
        return ST_ERR_DOMAIN;
    for (size_t i = 0; i < r; i++)
        if (first_bad[i] < 1 || first_bad[i] >= k ||
            (i > 0 && first_bad[i] <= first_bad[i - 1]))
            return ST_ERR_DOMAIN;
    for (size_t i = 0; i < start[k]; i++)
        if (!(value[i] > 0)) return ST_ERR_DOMAIN;
    for (size_t i = 0; i < r; i++) {
        st_change_figure *f = &out[i];
        f->ratio = f->conf[0] = f->conf[1] = NAN;
        f->p[0] = f->p[1] = f->p[2] = f->p[3] = NAN;
        size_t a = i > 0 ? first_bad[i - 1] : 0, c = first_bad[i];
        size_t b = i + 1 < r ? first_bad[i + 1] : k;
        const double *old = value + start[a], *new = value + start[c];
        size_t n_old = start[c] - start[a], n_new = start[b] - start[c];
        f->n_before = n_old;
        f->n_after = n_new;
        double *lg = st_malloc(n_old + n_new, sizeof(double));
        if (!lg) return ST_ERR_ALLOC;
        for (size_t j = 0; j < n_old + n_new; j++) lg[j] = log(old[j]);
        st_result hl;
        st_wilcoxon_options o = {0};
        o.interval_only = 1;
        s = st_wilcoxon_test(lg + n_old, n_new, lg, n_old, ST_TWO_SIDED, 0.0,
                             -1, 1, 1, 1.0 - 2.0 * alpha, &o, &hl);
        free(lg);
        if (s == ST_OK) {
            f->ratio = exp(hl.estimate[0]);
            f->conf[0] = exp(hl.conf_int[0]);
            f->conf[1] = exp(hl.conf_int[1]);
        } else if (s == ST_ERR_ALLOC || s == ST_ERR_INTERRUPTED) {
            return s;
        }
        s = st_tolerance_tests(ST_PROTO_MEDIAN, old, n_old, new, n_new, 0, s0,
                               f->p);
        if (s == ST_ERR_ALLOC || s == ST_ERR_INTERRUPTED) return s;
        if (st_check_interrupt()) return ST_ERR_INTERRUPTED;
    }
    return ST_OK;
}

/* ---- R entry points --------------------------------------------------------- */
#include "ffi.h"

/* start (doubles, length k + 1) as sizes, checked against the values. */
static size_t *read_start(SEXP start, size_t nv, size_t *k)
{
    size_t ns;
    const double *st = ffi_doubles(start, &ns, "start");
    if (ns < 1) Rf_error("`start` must have at least one element.");
    size_t *out = (size_t *) R_alloc(ns, sizeof(size_t));
    for (size_t i = 0; i < ns; i++) {
        double v = st[i];
        if (!(v >= 0 && v <= (double) nv) || v != floor(v))
            Rf_error("`start` is out of range.");
        out[i] = (size_t) v;
    }
    if (out[ns - 1] != nv) Rf_error("`start` must end at the values' count.");
    *k = ns - 1;
    return out;
}

/* ffi_scan_changes(value, start, alpha, margin): list(status, from, to, split,
 * first_bad, p_value, p_local), commits 0-based. */
SEXP ffi_scan_changes(SEXP value, SEXP start, SEXP alpha, SEXP margin)
{
    size_t nv, k;
    const double *v = ffi_doubles(value, &nv, "value");
    size_t *st = read_start(start, nv, &k);
    double a = ffi_double(alpha, "alpha");
    st_scan_options opt = {0};
    opt.margin = ffi_double(margin, "margin");
    st_scan_change *ch;
    size_t nc;
    int s = st_scan_changes(v, st, k, a, &opt, &ch, &nc);
    if (s != ST_OK) nc = 0;
    static const char *names[] = {"status", "from", "to", "split",
                                  "first_bad", "p_value", "p_local"};
    SEXP vals[7];
    vals[0] = PROTECT(Rf_ScalarInteger(s));
    for (int j = 1; j < 7; j++)
        vals[j] = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) nc));
    for (size_t i = 0; i < nc; i++) {
        REAL(vals[1])[i] = (double) ch[i].from;
        REAL(vals[2])[i] = (double) ch[i].to;
        REAL(vals[3])[i] = (double) ch[i].split;
        REAL(vals[4])[i] = (double) ch[i].first_bad;
        REAL(vals[5])[i] = ch[i].p_value;
        REAL(vals[6])[i] = ch[i].p_local;
    }
    free(ch);
    SEXP out = ffi_named_list(7, names, vals);
    UNPROTECT(7);
    return out;
}

/* ffi_scan_grid(start, alpha): the triplets of a series whose commits'
 * values start at `start` (length k + 1; the counts of processes): list(from,
 * to, split, scale, block, level). */
SEXP ffi_scan_grid(SEXP start, SEXP alpha)
{
    size_t ns, k;
    const double *sd = ffi_doubles(start, &ns, "start");
    if (ns < 1 || !(sd[ns - 1] >= 0 && sd[ns - 1] <= 1e15))
        Rf_error("`start` is out of range.");
    size_t *st = read_start(start, (size_t) sd[ns - 1], &k);
    st_scan_triplet *t;
    size_t nt;
    int s = st_scan_grid(st, k, ffi_double(alpha, "alpha"), SCAN_MAX_HALF,
                         &t, &nt);
    if (s != ST_OK) Rf_error("the scan's triplets: status %d.", s);
    static const char *names[] = {"from", "to", "split", "scale", "block",
                                  "level"};
    SEXP vals[6];
    for (int j = 0; j < 6; j++)
        vals[j] = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) nt));
    for (size_t i = 0; i < nt; i++) {
        REAL(vals[0])[i] = (double) t[i].from;
        REAL(vals[1])[i] = (double) t[i].to;
        REAL(vals[2])[i] = (double) t[i].split;
        REAL(vals[3])[i] = t[i].scale;
        REAL(vals[4])[i] = t[i].block;
        REAL(vals[5])[i] = t[i].level;
    }
    free(t);
    SEXP out = ffi_named_list(6, names, vals);
    UNPROTECT(6);
    return out;
}

/* ffi_change_figures(value, start, first_bad, alpha, s0): list(status,
 * n_before, n_after, ratio, conf_low, conf_high, p_speedup, p_slowdown,
 * p_not_faster, p_not_slower); first_bad 0-based commits, ascending. */
SEXP ffi_change_figures(SEXP value, SEXP start, SEXP first_bad, SEXP alpha,
                        SEXP s0)
{
    size_t nv, k, r;
    const double *v = ffi_doubles(value, &nv, "value");
    size_t *st = read_start(start, nv, &k);
    const double *fb = ffi_doubles(first_bad, &r, "first_bad");
    size_t *c = (size_t *) R_alloc(r ? r : 1, sizeof(size_t));
    for (size_t i = 0; i < r; i++) {
        if (!(fb[i] >= 0 && fb[i] < (double) k) || fb[i] != floor(fb[i]))
            Rf_error("`first_bad` is out of range.");
        c[i] = (size_t) fb[i];
    }
    st_change_figure *f =
        (st_change_figure *) R_alloc(r ? r : 1, sizeof(st_change_figure));
    int s = st_change_figures(v, st, k, c, r, ffi_double(alpha, "alpha"),
                              ffi_double(s0, "s0"), f);
    static const char *names[] = {"status", "n_before", "n_after", "ratio",
                                  "conf_low", "conf_high", "p_speedup",
                                  "p_slowdown", "p_not_faster",
                                  "p_not_slower"};
    SEXP vals[10];
    vals[0] = PROTECT(Rf_ScalarInteger(s));
    for (int j = 1; j < 10; j++)
        vals[j] = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t) r));
    for (size_t i = 0; i < r; i++) {
        int ok = s == ST_OK;
        REAL(vals[1])[i] = ok ? (double) f[i].n_before : NAN;
        REAL(vals[2])[i] = ok ? (double) f[i].n_after : NAN;
        REAL(vals[3])[i] = ok ? f[i].ratio : NAN;
        REAL(vals[4])[i] = ok ? f[i].conf[0] : NAN;
        REAL(vals[5])[i] = ok ? f[i].conf[1] : NAN;
        for (int j = 0; j < 4; j++) REAL(vals[6 + j])[i] = ok ? f[i].p[j] : NAN;
    }
    SEXP out = ffi_named_list(10, names, vals);
    UNPROTECT(10);
    return out;
}
