/* crc: bitwise (table-free) CRC-32 of a 1 MB buffer, repeated. */
#include "harness.h"

#define LEN (1L << 20)

int main(int argc, char **argv)
{
    long reps = harness_reps(argc, argv, 13);
    unsigned char *buf = harness_alloc(LEN, 1);
    for (long i = 0; i < LEN; i++) buf[i] = (unsigned char) harness_rand();
    double check = 0.0;
    double t0 = harness_now();
    for (long r = 0; r < reps; r++) {
        uint32_t crc = 0xffffffffu ^ (uint32_t) r;
        for (long i = 0; i < LEN; i++) {
            crc ^= buf[i];
            for (int b = 0; b < 8; b++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
        }
        check += (double) (crc ^ 0xffffffffu);
    }
    double t1 = harness_now();
    harness_report(t1 - t0, check);
    free(buf);
    return 0;
}
