/*
 * ref-wilcox-gmp.c -- an exact reference for the rank-sum test without
 * ties, in GMP's arbitrary-precision integers (used by bench/exact-sweep.R).
 *
 * The counts of the Mann-Whitney statistic W = 0 .. n m are the
 * coefficients of the Gaussian binomial coefficient
 *     prod_{i=1..k} (1 - q^(r+i)) / (1 - q^i),  k = min(n, m), r = max,
 * built here over the whole degree range at every step (no symmetry), with
 * GMP doing the arithmetic.  For each query w it prints P[W <= w] and
 * P[W >= w] as the exact ratios of integers, rounded to double.
 *
 * Build and run (libgmp-dev):
 *   cc -O2 -o ref-wilcox-gmp bench/ref-wilcox-gmp.c -lgmp -lm
 *   ./ref-wilcox-gmp n m w1 w2 ...
 */
#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* a / b rounded to double, also far below DBL_MIN's reach of a / b */
static double ratio(const mpz_t a, const mpz_t b)
{
    if (mpz_sgn(a) == 0) return 0.0;
    long ea, eb;
    double da = mpz_get_d_2exp(&ea, a), db = mpz_get_d_2exp(&eb, b);
    return ldexp(da / db, (int) (ea - eb));
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s n m w...\n", argv[0]);
        return 2;
    }
    long n = atol(argv[1]), m = atol(argv[2]);
    long k = n < m ? n : m, r = n < m ? m : n, D = k * r;
    mpz_t *c = malloc((size_t) (D + 1) * sizeof(mpz_t));
    for (long j = 0; j <= D; j++) mpz_init(c[j]);
    mpz_set_ui(c[0], 1);
    for (long i = 1; i <= k; i++) {
        long Di = i * r;
        /* divide by 1 - q^i: running sums of stride i, as far as degree Di */
        for (long j = i; j <= Di; j++) mpz_add(c[j], c[j], c[j - i]);
        /* multiply by 1 - q^(r+i), truncated at degree Di (exact: the
         * product is a polynomial of that degree) */
        for (long j = Di; j >= r + i; j--) mpz_sub(c[j], c[j], c[j - r - i]);
    }
    mpz_t tot, le, ge;
    mpz_inits(tot, le, ge, NULL);
    for (long j = 0; j <= D; j++) {
        if (mpz_sgn(c[j]) < 0) {
            fprintf(stderr, "negative count at %ld\n", j);
            return 1;
        }
        mpz_add(tot, tot, c[j]);
    }
    for (int a = 3; a < argc; a++) {
        long w = atol(argv[a]);
        mpz_set_ui(le, 0);
        mpz_set_ui(ge, 0);
        for (long j = 0; j <= D; j++) {
            if (j <= w) mpz_add(le, le, c[j]);
            if (j >= w) mpz_add(ge, ge, c[j]);
        }
        printf("%ld %.17g %.17g\n", w, ratio(le, tot), ratio(ge, tot));
    }
    return 0;
}
