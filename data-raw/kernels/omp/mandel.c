/* mandel (OpenMP): Mandelbrot escape counts on a 600 x 400 grid (at most 256
 * iterations); image rows shared with a static schedule, so the threads get
 * unequal work (the set is not uniform). Counts are stored per row and summed
 * after the timed section. */
#include "../harness.h"

#define W 600
#define H 400
#define MAXIT 256

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 3);
    long *rows = harness_alloc(H, sizeof *rows);
    double check = 0.0;
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        #pragma omp parallel for schedule(static)
        for (long py = 0; py < H; py++) {
            long total = 0;
            for (long px = 0; px < W; px++) {
                double cr = -2.0 + 2.6 * px / W + 1e-4 * r, ci = -1.0 + 2.0 * py / H;
                double zr = 0.0, zi = 0.0;
                int it = 0;
                while (it < MAXIT && zr * zr + zi * zi <= 4.0) {
                    double nz = zr * zr - zi * zi + cr;
                    zi = 2.0 * zr * zi + ci;
                    zr = nz;
                    it++;
                }
                total += it;
            }
            rows[py] += total;
        }
    }
    double t1 = harness_now();
    for (long py = 0; py < H; py++) check += (double) rows[py];
    harness_report(t1 - t0, check);
    free(rows);
    return 0;
}
