/* mandel: Mandelbrot set escape counts on a 600 x 400 grid (at most 256
 * iterations per point), repeated over slightly shifted windows. */
#include "harness.h"

#define W 600
#define H 400
#define MAXIT 256

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 3);
    double check = 0.0;
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        long total = 0;
        for (long py = 0; py < H; py++)
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
        check += (double) total;
    }
    double t1 = harness_now();
    harness_report(t1 - t0, check);
    return 0;
}
