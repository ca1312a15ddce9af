/* hash: open-addressing hash table with linear probing (2^20 slots):
 * insert 600,000 pseudo-random keys, then look up as many keys, half of
 * them absent; repeated. */
#include "harness.h"

#define SLOTS (1u << 20)
#define NKEYS 600000

static uint64_t mix(uint64_t k)
{
    k ^= k >> 33; k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 5);
    uint64_t *keys = harness_alloc(2 * NKEYS, sizeof *keys);
    uint64_t *table = harness_alloc(SLOTS, sizeof *table);
    uint32_t *vals = harness_alloc(SLOTS, sizeof *vals);
    for (long i = 0; i < 2 * NKEYS; i++) keys[i] = harness_rand() | 1u;
    long found = 0, probes = 0;
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        for (uint32_t s = 0; s < SLOTS; s++) table[s] = 0;
        for (long i = 0; i < NKEYS; i++) {
            uint32_t s = (uint32_t) mix(keys[i] + (uint64_t) r) & (SLOTS - 1);
            while (table[s] != 0 && table[s] != keys[i]) { s = (s + 1) & (SLOTS - 1); probes++; }
            table[s] = keys[i];
            vals[s] = (uint32_t) i;
        }
        for (long i = 0; i < NKEYS; i++) {
            uint64_t k = keys[2 * i % (2 * NKEYS) + (i & 1)];
            uint32_t s = (uint32_t) mix(k + (uint64_t) r) & (SLOTS - 1);
            while (table[s] != 0) {
                if (table[s] == k) { found += vals[s] & 7; break; }
                s = (s + 1) & (SLOTS - 1);
                probes++;
            }
        }
    }
    double t1 = harness_now();
    harness_report(t1 - t0, (double) found + 1e-3 * (double) probes);
    free(keys); free(table); free(vals);
    return 0;
}
