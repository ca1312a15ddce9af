/*
 * cache.c -- the one init/free pair of st_cache (layout in cache.h).
 *
 * A cache starts empty (all zero) and is filled by the tests that use it;
 * st_cache_free releases everything it holds and leaves it empty again,
 * ready for further use.
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
