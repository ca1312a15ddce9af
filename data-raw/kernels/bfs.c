/* bfs: breadth-first search from several sources on a random sparse graph
 * (200,000 vertices, 1,600,000 directed edges, compressed sparse rows). */
#include "harness.h"

#define NV 200000
#define NE 1600000

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 15);
    long *deg = harness_alloc(NV + 1, sizeof *deg);
    long *off = harness_alloc(NV + 1, sizeof *off);
    long *src = harness_alloc(NE, sizeof *src), *dst = harness_alloc(NE, sizeof *dst);
    long *adj = harness_alloc(NE, sizeof *adj);
    long *dist = harness_alloc(NV, sizeof *dist), *queue = harness_alloc(NV, sizeof *queue);
    for (long e = 0; e < NE; e++) {
        src[e] = (long) (harness_rand() % NV);
        /* mostly local edges plus a few long ones, like a mesh with shortcuts */
        long d = (harness_rand() % 8 == 0) ? (long) (harness_rand() % NV)
                                          : (src[e] + (long) (harness_rand() % 64) + 1) % NV;
        dst[e] = d;
        deg[src[e]]++;
    }
    for (long v = 0; v < NV; v++) off[v + 1] = off[v] + deg[v];
    for (long v = 0; v < NV; v++) deg[v] = off[v];
    for (long e = 0; e < NE; e++) adj[deg[src[e]]++] = dst[e];
    double check = 0.0;
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        for (long v = 0; v < NV; v++) dist[v] = -1;
        long s = (r * 7919) % NV, qh = 0, qt = 0;
        dist[s] = 0; queue[qt++] = s;
        while (qh < qt) {
            long v = queue[qh++];
            for (long k = off[v]; k < off[v + 1]; k++) {
                long w = adj[k];
                if (dist[w] < 0) { dist[w] = dist[v] + 1; queue[qt++] = w; }
            }
        }
        long sum = 0;
        for (long v = 0; v < NV; v++) sum += dist[v];
        check += (double) sum;
    }
    double t1 = harness_now();
    harness_report(t1 - t0, check);
    free(deg); free(off); free(src); free(dst); free(adj); free(dist); free(queue);
    return 0;
}
