/* lz: LZ77-style compression loop: for each position of a 1 MB buffer of
 * pseudo-text, find the longest earlier match through a hash of the next
 * three bytes (one candidate per bucket, 64 KB window) and emit a literal or
 * a (length, distance) token; repeated. */
#include "harness.h"
#include <string.h>

#define LEN (1L << 20)
#define HBITS 15

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 46);
    unsigned char *buf = harness_alloc(LEN + 8, 1);
    long *head = harness_alloc(1L << HBITS, sizeof *head);
    static const char *words[] = {"the ", "speedup ", "test ", "of ", "median ", "mean ",
                                  "program ", "runs ", "and ", "a ", "benchmark ", "time "};
    long pos = 0;
    while (pos < LEN) {
        const char *w = words[harness_rand() % 12];
        size_t l = strlen(w);
        for (size_t k = 0; k < l && pos < LEN; k++) buf[pos++] = (unsigned char) w[k];
    }
    double check = 0.0;
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        long tokens = 0, matched = 0;
        for (long h = 0; h < (1L << HBITS); h++) head[h] = -1;
        long i = 0;
        while (i < LEN - 3) {
            uint32_t h = ((uint32_t) buf[i] << 16 | (uint32_t) buf[i + 1] << 8 | buf[i + 2]) * 2654435761u;
            h = (h >> (32 - HBITS)) ^ (uint32_t) (r & 1);
            long cand = head[h], best = 0;
            head[h] = i;
            if (cand >= 0 && i - cand < 65536) {
                while (i + best < LEN && best < 258 && buf[cand + best] == buf[i + best]) best++;
            }
            tokens++;
            if (best >= 3) { matched += best; i += best; } else i++;
        }
        check += (double) tokens + 1e-6 * (double) matched;
    }
    double t1 = harness_now();
    harness_report(t1 - t0, check);
    free(buf); free(head);
    return 0;
}
