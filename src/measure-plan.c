/*
 * measure-plan.c -- the order of the runs of measure(): rounds in which
 * every version runs once, in an order drawn afresh for each round.
 *
 * A round's order is a uniform random permutation of the k versions, drawn
 * exactly as R's sample.int(k) draws it, so that a seed gives the same
 * order whichever way it is made: the versions 0..k-1 are kept in a pool;
 * the i-th place takes the pool's element at a uniform index
 * j in 0..(left - 1), and the pool's last element moves into the hole
 * (R's do_sample() without replacement and without weights; the index is
 * R_unif_index(), the sampler of RNGkind()'s sample.kind).  The random
 * numbers are drawn in the same sequence as rounds x sample.int(k) calls,
 * one index per place, so the generator's state afterwards is the same too.
 *
 * The uniform index comes in as a function pointer, so the core does not
 * depend on R's generator and can be driven by any source of indices.
 */
#include <stdlib.h>
#include "measure.h"
#include "ffi.h"
#include <R_ext/Random.h>

/* out[r * k + i] = the 1-based version at place i of round r; pool has k
 * ints of scratch.  Returns ST_OK, or ST_ERR_DOMAIN on bad sizes. */
int st_rounds_order(int k, int rounds, double (*unif_index)(double), int *pool, int *out)
{
    if (k < 1 || rounds < 0) return ST_ERR_DOMAIN;
    for (int r = 0; r < rounds; r++) {
        int *o = out + (size_t) r * (size_t) k;
        for (int i = 0; i < k; i++) pool[i] = i;
        int left = k;
        for (int i = 0; i < k; i++) {
            int j = (int) unif_index((double) left);
            if (j < 0 || j >= left) j = left - 1;   /* a source out of range */
            o[i] = pool[j] + 1;
            pool[j] = pool[--left];
        }
    }
    return ST_OK;
}

/* ---- .Call entry points --------------------------------------------------- */

/* The interleaved order of `rounds` rounds of `k` versions, drawn with R's
 * generator: as.integer(unlist(lapply(seq_len(rounds), function(i)
 * sample.int(k)))). */
SEXP ffi_rounds_order(SEXP k, SEXP rounds)
{
    int nk = ffi_int(k, "k"), nr = ffi_int(rounds, "rounds");
    if (nk < 1 || nk > 1000000 || nr < 0 || (double) nk * nr > 2e9)
        Rf_error("`k` and `rounds` must be a number of versions and of rounds.");
    SEXP ans = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t) nk * nr));
    int *pool = (int *) R_alloc((size_t) nk, sizeof(int));
    GetRNGstate();
    int status = st_rounds_order(nk, nr, R_unif_index, pool, INTEGER(ans));
    PutRNGstate();
    if (status) Rf_error("`k` and `rounds` must be a number of versions and of rounds.");
    UNPROTECT(1);
    return ans;
}
