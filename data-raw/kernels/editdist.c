/* editdist: Levenshtein distance between pseudo-random DNA strings of
 * length 3000 by dynamic programming with two rows, repeated. */
#include "harness.h"

#define LEN 3000

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 13);
    char *s = harness_alloc(LEN, 1), *t = harness_alloc(LEN, 1);
    int *prev = harness_alloc(LEN + 1, sizeof *prev), *cur = harness_alloc(LEN + 1, sizeof *cur);
    static const char acgt[4] = {'A', 'C', 'G', 'T'};
    for (long i = 0; i < LEN; i++) { s[i] = acgt[harness_rand() & 3]; t[i] = acgt[harness_rand() & 3]; }
    double check = 0.0;
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        t[r % LEN] = acgt[r & 3];
        for (long j = 0; j <= LEN; j++) prev[j] = (int) j;
        for (long i = 1; i <= LEN; i++) {
            cur[0] = (int) i;
            for (long j = 1; j <= LEN; j++) {
                int c = prev[j - 1] + (s[i - 1] != t[j - 1]);
                int d = prev[j] + 1, e = cur[j - 1] + 1;
                c = d < c ? d : c;
                cur[j] = e < c ? e : c;
            }
            int *tmp = prev; prev = cur; cur = tmp;
        }
        check += (double) prev[LEN];
    }
    double t1 = harness_now();
    harness_report(t1 - t0, check);
    free(s); free(t); free(prev); free(cur);
    return 0;
}
