/*
 * util.c -- small numerical helpers shared by the tests: mean and variance
 * computed as R computes them, sorting, medians and mid-ranks.
 *
 * st_mean follows R's mean(): a long double sum divided by n, then one
 * refinement pass adding the mean of the residuals, which removes most of
 * the rounding error of the first pass.  st_var is the two-pass
 * (corrected) variance with divisor n - 1, as var() computes it.
 *
 * The rank tests' normal approximations share st_continuity (the 1/2
 * correction towards the null, on the side the alternative looks at) and
 * st_normal_p (the p-value of a standard normal statistic).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <Rmath.h>
#include "speeduptest.h"

/* The interrupt callback (one per process; the R layer sets it once when
 * the package is loaded). */
static int (*interrupt_check)(void) = NULL;

void st_set_interrupt(int (*check)(void))
{
    interrupt_check = check;
}

int st_check_interrupt(void)
{
    return interrupt_check ? interrupt_check() != 0 : 0;
}

void st_result_init(st_result *r)
{
    r->statistic = NAN;
    r->df[0] = r->df[1] = NAN;
    r->p_value = NAN;
    r->conf_int[0] = r->conf_int[1] = NAN;
    r->estimate[0] = r->estimate[1] = NAN;
    r->exact = 0;
    r->status = ST_OK;
}

int st_result_fail(st_result *r, int status)
{
    st_result_init(r);
    r->status = status;
    return status;
}

double st_mean(const double *x, size_t n)
{
    if (n == 0) return NAN;
    long double s = 0.0L;
    for (size_t i = 0; i < n; i++) s += x[i];
    s /= (long double) n;
    long double t = 0.0L;
    for (size_t i = 0; i < n; i++) t += x[i] - s;
    s += t / (long double) n;
    return (double) s;
}

double st_var(const double *x, size_t n, double mean)
{
    if (n < 2) return NAN;
    long double ss = 0.0L;
    for (size_t i = 0; i < n; i++) {
        long double d = x[i] - (long double) mean;
        ss += d * d;
    }
    return (double) (ss / (long double) (n - 1));
}

static int cmp_double(const void *a, const void *b)
{
    double u = *(const double *) a, v = *(const double *) b;
    return (u > v) - (u < v);
}

void st_sort(double *x, size_t n)
{
    qsort(x, n, sizeof(double), cmp_double);
}

double *st_sorted_copy(const double *x, size_t n)
{
    double *s = malloc((n ? n : 1) * sizeof(double));
    if (!s) return NULL;
    for (size_t i = 0; i < n; i++) s[i] = x[i];
    st_sort(s, n);
    return s;
}

double st_median_sorted(const double *xs, size_t n)
{
    if (n == 0) return NAN;
    size_t h = n / 2;
    return (n % 2) ? xs[h] : (xs[h - 1] + xs[h]) / 2.0;
}

int st_is_constant(const double *x, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (x[i] != x[0]) return 0;
    return 1;
}

double st_sorted_tie_term(const double *s, size_t n)
{
    double ties = 0.0;
    size_t i = 0;
    while (i < n) {
        size_t j = i + 1;
        while (j < n && s[j] == s[i]) j++;
        double t = (double) (j - i);
        ties += t * t * t - t;
        i = j;
    }
    return ties;
}

typedef struct {
    double v;
    size_t i;
} st_indexed;

static int cmp_indexed(const void *a, const void *b)
{
    const st_indexed *u = a, *v = b;
    if (u->v < v->v) return -1;
    if (u->v > v->v) return 1;
    return (u->i > v->i) - (u->i < v->i);
}

/*
 * A tie group occupying sorted positions i..j-1 (0-based) shares the
 * ranks i+1..j, whose average is (i + 1 + j) / 2.
 */
int st_midranks(const double *v, size_t n, double *rank, double *tie_term)
{
    for (size_t i = 0; i < n; i++)
        if (isnan(v[i])) return ST_ERR_DOMAIN;    /* no place in an order */
    st_indexed *w = malloc((n ? n : 1) * sizeof(st_indexed));
    if (!w) return ST_ERR_ALLOC;
    for (size_t i = 0; i < n; i++) {
        w[i].v = v[i];
        w[i].i = i;
    }
    qsort(w, n, sizeof(st_indexed), cmp_indexed);
    double ties = 0.0;
    size_t i = 0;
    while (i < n) {
        size_t j = i + 1;
        while (j < n && w[j].v == w[i].v) j++;
        double r = (double) (i + 1 + j) / 2.0;
        for (size_t k = i; k < j; k++) rank[w[k].i] = r;
        double t = (double) (j - i);
        ties += t * t * t - t;
        i = j;
    }
    if (tie_term) *tie_term = ties;
    free(w);
    return ST_OK;
}

double st_continuity(st_alternative alt, int correct, double z)
{
    if (!correct) return 0.0;
    switch (alt) {
    case ST_GREATER: return 0.5;
    case ST_LESS: return -0.5;
    default: return z > 0 ? 0.5 : (z < 0 ? -0.5 : 0.0);
    }
}

double st_normal_p(st_alternative alt, double z)
{
    double lower = pnorm(z, 0.0, 1.0, 1, 0), upper = pnorm(z, 0.0, 1.0, 0, 0);
    switch (alt) {
    case ST_LESS: return lower;
    case ST_GREATER: return upper;
    default: return 2.0 * (lower < upper ? lower : upper);
    }
}

static uint64_t gcd_u64(uint64_t u, uint64_t v)
{
    while (v) {
        uint64_t t = u % v;
        u = v;
        v = t;
    }
    return u;
}

/*
 * Doubled mid-ranks are positive integers; dividing them by their greatest
 * common divisor g (2 without ties) gives the smallest integer "units" with
 * the same subset-sum structure, which keeps the exact distributions'
 * counting tables small.  Values must be whole numbers in [1, 4e15] (exact
 * in a double).
 */
int st_rank_units(const double *rank2, size_t N, uint64_t **units,
                  uint64_t *g)
{
    *units = NULL;
    *g = 1;
    if (N > SIZE_MAX / sizeof(uint64_t)) return ST_ERR_TOO_MANY;
    uint64_t *u = malloc((N ? N : 1) * sizeof(uint64_t));
    if (!u) return ST_ERR_ALLOC;
    uint64_t d = 0;
    for (size_t i = 0; i < N; i++) {
        double r = rank2[i];
        if (!(r >= 1.0 && r <= 4.0e15) || r != floor(r)) {
            free(u);
            return ST_ERR_DOMAIN;
        }
        u[i] = (uint64_t) r;
        d = gcd_u64(u[i], d);
    }
    if (d == 0) d = 1;
    /* sorted through doubles: the units are below 2^53, so exactly */
    double *tmp = malloc((N ? N : 1) * sizeof(double));
    if (!tmp) {
        free(u);
        return ST_ERR_ALLOC;
    }
    for (size_t i = 0; i < N; i++) tmp[i] = (double) (u[i] / d);
    st_sort(tmp, N);
    for (size_t i = 0; i < N; i++) u[i] = (uint64_t) tmp[i];
    free(tmp);
    *units = u;
    *g = d;
    return ST_OK;
}
