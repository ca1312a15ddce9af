/*
 * cache.c -- the one init/free pair of st_cache (layout in cache.h), the
 * memo of the tables and constants the tests compute once for many calls
 * (memo functions: Michie 1968).
 *
 * A cache starts empty (all zero) and is filled by the tests that use it,
 * each keying its entry by what the entry depends on; st_cache_free
 * releases everything it holds and leaves it empty again, ready for
 * further use.
 *
 * Reference: Michie, D. (1968). "Memo" functions and machine learning.
 * Nature 218, 19-22.
 */
#include <stdlib.h>
#include <string.h>
#include "cache.h"

void st_cache_init(st_cache *c)
{
    memset(c, 0, sizeof *c);
}

void st_cache_free(st_cache *c)
{
    if (!c) return;
    free(c->ranksum.prob);
    free(c->ranksum.tails);
    free(c->smirnov.p);
    free(c->smirnov.blocks);
    if (c->shapiro)
        for (size_t n = 0; n < ST_CACHE_SHAPIRO_N; n++) free(c->shapiro[n]);
    free(c->shapiro);
    for (size_t n = 0; n <= c->kendall.built; n++) free(c->kendall.cdf[n]);
    free(c->kendall.p);
    st_cache_init(c);
}
