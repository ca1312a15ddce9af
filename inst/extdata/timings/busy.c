/* busy N: a deterministic loop of N steps of a linear congruential
   generator, the program the hyperfine fixtures time. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000UL;
  volatile unsigned long state = 12345UL;
  for (unsigned long i = 0; i < n; i++) state = state * 6364136223846793005UL + 1442695040888963407UL;
  printf("%lu\n", (unsigned long) (state & 0xffUL));
  return 0;
}
