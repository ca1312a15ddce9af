/*
 * measure.h -- running and timing shell commands (measure.c).  Plain C:
 * nothing here touches an R object.
 */
#ifndef SPEEDUPTEST_MEASURE_H
#define SPEEDUPTEST_MEASURE_H

#include <stddef.h>

/* Outcome of st_run_command(). */
enum {
    ST_RUN_OK = 0,            /* the command ran and exited (any status)   */
    ST_RUN_TIMEOUT = 1,       /* killed after `timeout` seconds            */
    ST_RUN_INTERRUPTED = 2,   /* killed because the callback said so       */
    ST_RUN_SPAWN_FAILED = 3   /* /bin/sh could not be started (see error)  */
};

typedef struct {
    double wall;          /* seconds, CLOCK_MONOTONIC                       */
    double user, sys;     /* CPU seconds of the command and its children    */
    double max_rss;       /* peak resident set size, bytes                  */
    double rss_floor;     /* the caller's own peak at the start, bytes: on
                             Linux the kernel carries it across exec, so
                             without the launcher a max_rss not above it is
                             not the command's                              */
    double start_time;    /* CLOCK_REALTIME at the start, seconds since 1970 */
    int exit_status;      /* exit code, 128 + signal when killed, -1 unknown */
    int signal;           /* terminating signal, 0 when it exited           */
    int timed_out;
    int interrupted;
    int error;            /* errno of a failure to start or wait, or
                             ST_ERR_NO_REPORT                               */
    int launched;         /* 1 when the launcher reported: user, sys and
                             max_rss are the shell's own (max_rss exact)    */
} st_run;

/* st_run.error when the launcher exited without reporting. */
#define ST_ERR_NO_REPORT (-1)
/* st_run.error when the output file could not be opened:
 * ST_ERR_OUTPUT_BASE - errno. */
#define ST_ERR_OUTPUT_BASE (-1000)

/* Returns nonzero when the run should be abandoned (user interrupt). */
typedef int (*st_interrupt_fn)(void *data);

/* The versions' order in `rounds` rounds of k, each a uniform random
 * permutation drawn as R's sample.int(k) draws it from unif_index(n), a
 * uniform index in 0..n-1 (measure-plan.c). */
int st_rounds_order(int k, int rounds, double (*unif_index)(double), int *pool, int *out);

double st_monotonic_now(void);
double st_clock_resolution(void);
double st_realtime_now(void);   /* seconds since 1970 */
void st_cpu_self(double *user, double *sys);   /* this process's CPU seconds */
double st_clock_tick(long tries);
void st_run_init(st_run *r);
/* Runs the program `path` with argv `args` (NULL-terminated) or, when path
 * is NULL, `/bin/sh -c args[0]`, with output discarded (output NULL or "")
 * or appended to the file `output`; timeout in seconds (<= 0 or infinite:
 * none); `launcher` (NULL or "": none) is the path of st-launch, which
 * starts and times the command and reports its exact peak memory;
 * `interrupted` (may be NULL) is called at least every 100 ms.  What the
 * command leaves in its process group is killed when it ends. */
int st_run_command(const char *path, char *const *args, const char *output,
                   double timeout, const char *launcher, st_interrupt_fn interrupted,
                   void *data, st_run *res);

/* The launcher as a server (st-launch serve): started once, it runs and
 * times every command of a measurement (see src/launcher/st-launch.c). */
typedef struct {
    int pid;   /* the server's process, -1 when none */
    int req;   /* write end of its requests */
    int rep;   /* read end of its reports */
} st_server;

/* Starts the server; 0, or an errno value. */
int st_server_start(const char *launcher, st_server *s);
/* Runs one command through the server, as st_run_command(); the timeout is
 * enforced by the server, an interrupt is passed on to it. */
int st_server_run(st_server *s, const char *path, char *const *args, const char *output,
                  double timeout, st_interrupt_fn interrupted, void *data, st_run *res);
/* A command of a batch: `path` with argv `args` (NULL-terminated), or, when
 * path is NULL, `/bin/sh -c args[0]`. */
typedef struct {
    const char *path;
    char *const *args;
} st_command;

/* Runs the steps (indices into cmds) back to back in the server, with one
 * output and timeout; res (nstep entries) gets each run's outcome, *done
 * how many ran.  The batch ends at the first run that does not exit with
 * status 0 (see its exit_status) or cannot start, times out or is stopped.
 * Returns ST_RUN_OK, or the outcome of the run that ended it; an interrupt
 * asked for by `interrupted` gives ST_RUN_INTERRUPTED even when the
 * batch had ended before the server saw it. */
int st_server_batch(st_server *s, const st_command *cmds, int ncmd, const int *steps,
                    int nstep, const char *output, double timeout,
                    st_interrupt_fn interrupted, void *data, st_run *res, int *done);
/* Sends one stop byte, as an interrupt does (for the tests of the race of
 * an interrupt with the end of a run). */
int st_server_stop_byte(st_server *s);
/* Ends the server (end of file on its requests; SIGKILL after a second). */
void st_server_stop(st_server *s);

/* Splits a command line that needs no shell into words: writes them, each
 * ended by a NUL, to out (out_size >= strlen(cmd) + 1) and their offsets in
 * out to starts; returns the number of words, or -1 when the command needs
 * the shell (or has more than max_words words, or none). */
int st_split_command(const char *cmd, char *out, size_t out_size, int *starts,
                     int max_words);

#endif
