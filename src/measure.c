/*
 * measure.c -- running and timing one command (measure()), and splitting a
 * command line into words when it needs no shell.
 *
 * A run is a program started with its words as argv (a simple command, the
 * way `hyperfine -N` runs it) or `/bin/sh -c CMD` (a command that needs the
 * shell: pipes, redirections, variables, globbing, quoting beyond the plain
 * kinds, reserved words and builtins).  It is started with posix_spawn() in
 * a process group of its own (so that a timeout or an interrupt can stop the
 * command and every process it started), with standard input from /dev/null
 * and standard output and error to /dev/null or appended to a file.  When
 * the command has ended, whatever it left running in its process group
 * (background jobs, `cmd &`) is killed with SIGKILL before the group leader
 * is reaped, so nothing of a run outlives it.
 *
 * Peak memory and the launcher: Linux records the peak of the memory a
 * process leaves at exec() in its ru_maxrss, and a child spawned here leaves
 * the caller's (R's) memory, so its ru_maxrss is at least the caller's own
 * peak (getrusage(RUSAGE_SELF) just before the spawn, returned as
 * rss_floor).  So the command is not spawned directly but through a small
 * program, the launcher (src/launcher/st-launch.c), which spawns it, times
 * it around the child alone (posix_spawn, exec, wait4: the spawn floor) and
 * writes the status, wall time, user and sys times and ru_maxrss of the
 * command back through a pipe (fd given on its command line): the
 * launcher's own start-up is not in the time.  measure() starts the launcher
 * once, as a server (st_server_start(), st_server_batch()): batches of runs
 * go to it over a socket, and it runs them back to back and sends their
 * reports over a pipe when the batch ends, so that the caller neither wakes
 * nor allocates while commands run; it gives each command a process group
 * of its own, enforces the timeout and stops a run when asked (a stop byte
 * that arrives after its run is dropped before the next batch, and the
 * interrupt it stood for is still reported here); a long-lived server is
 * woken at once when its command exits, where a new
 * launcher per run (st_run_command() with a launcher, the fallback) is woken
 * late on a busy machine.  With st_run_command() the launcher is what gets
 * the process group; the command stays in it.  Without a launcher (none
 * installed, or a run that ended without its report) the wall time is taken
 * here around the spawned process and only a max_rss above rss_floor is the
 * command's own peak.
 *
 * Waiting: on Linux a pidfd (pidfd_open(2), Linux >= 5.3) is poll()ed, so
 * the parent wakes as soon as the child exits; elsewhere (or when
 * pidfd_open fails) waitid(WNOHANG) is polled with sleeps growing from 20
 * microseconds to 2 ms.  Either way the parent wakes at least every 100 ms
 * to ask the caller's callback whether the user interrupted, and to enforce
 * the timeout.  Stopping a run sends SIGTERM to the whole process group,
 * then SIGKILL after 0.5 s if it is still alive.
 *
 * Splitting (st_split_command): the words of a command line with no shell
 * syntax in it.  Words are separated by blanks; '...' quotes anything but a
 * quote, "..." anything but $, ` and \ (which need the shell's expansions).
 * Anything else the shell would read specially -- | & ; < > ( ) $ ` \ * ? [
 * ] { } ~ ! a newline or a carriage return, # at the start of a word, = in
 * the first word (an assignment), an unterminated quote, a reserved word or
 * a builtin as the first word (echo, printf, test, kill and pwd included:
 * the shell runs its own, which may print otherwise than the program of
 * that name; true and false with arguments) -- makes the command a shell
 * command.  So a command runs directly only when it is a plain list of
 * words, and then its argv is exactly what `sh -c` would pass.  The check errs on the side of the shell: a command it sends to
 * the shell still runs as written, only with the shell's start-up around
 * it, which measure() then measures and subtracts.
 *
 * Timer: the resolution is what clock_getres() reports and the smallest
 * nonzero difference seen between consecutive clock readings (the blog post
 * "Statistics for performance" in papers/ explains why a run should last far
 * longer than this).
 *
 * R code (ffi_eval_runs, in the .Call layer: it evaluates R objects) is
 * timed as bench::mark times it: the clock is read around a batch of
 * evaluations, with nothing allocated between the readings, and the
 * results are written in place into a matrix made by the caller.
 *
 * The core functions use plain C types only; the .Call entry points are at
 * the end of the file.
 */
#define _GNU_SOURCE
#include "measure.h"

#ifndef _WIN32

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#ifdef __APPLE__
#include <crt_externs.h>
#define environ (*_NSGetEnviron())
#else
extern char **environ;
#endif

/* ---- clocks ------------------------------------------------------------- */

double st_monotonic_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static double realtime_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

double st_realtime_now(void)
{
    return realtime_now();
}

void st_cpu_self(double *user, double *sys)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) {
        *user = *sys = NAN;
        return;
    }
    *user = (double) ru.ru_utime.tv_sec + 1e-6 * (double) ru.ru_utime.tv_usec;
    *sys = (double) ru.ru_stime.tv_sec + 1e-6 * (double) ru.ru_stime.tv_usec;
}

double st_clock_resolution(void)
{
    struct timespec ts;
    if (clock_getres(CLOCK_MONOTONIC, &ts) != 0) return NAN;
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* The smallest nonzero difference between consecutive readings of the
 * monotonic clock over `tries` readings (NAN if the clock never moved). */
double st_clock_tick(long tries)
{
    struct timespec a, b;
    long best = -1;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < tries; i++) {
        clock_gettime(CLOCK_MONOTONIC, &b);
        long d = (long) (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec);
        if (d > 0 && (best < 0 || d < best)) best = d;
        a = b;
    }
    return best < 0 ? NAN : 1e-9 * (double) best;
}

/* ---- waiting for the child ---------------------------------------------- */

static void sleep_seconds(double s)
{
    struct timespec ts;
    ts.tv_sec = (time_t) s;
    ts.tv_nsec = (long) ((s - (double) ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

static int open_pidfd(pid_t pid)
{
#if defined(__linux__) && defined(SYS_pidfd_open)
    return (int) syscall(SYS_pidfd_open, pid, 0);
#else
    (void) pid;
    return -1;
#endif
}

/* Reaps the child if it has exited: 1 when reaped, 0 when still running,
 * -1 on error.  Before the child (the process group's leader) is reaped,
 * what is left in its process group is killed: the zombie keeps the group's
 * number from being reused until then. */
static int try_reap(pid_t pid, int *wstatus, struct rusage *ru)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    int w;
    do {
        w = waitid(P_PID, (id_t) pid, &info, WEXITED | WNOHANG | WNOWAIT);
    } while (w < 0 && errno == EINTR);
    if (w < 0) return -1;
    if (info.si_pid != pid) return 0;
    kill(-pid, SIGKILL);
    pid_t r;
    do {
        r = wait4(pid, wstatus, 0, ru);
    } while (r < 0 && errno == EINTR);
    return r == pid ? 1 : -1;
}

/* Waits up to `seconds` for the child to exit (returns as in try_reap). */
static int wait_child(pid_t pid, int pidfd, double seconds, double *sleep_step,
                      int *wstatus, struct rusage *ru)
{
    int r = try_reap(pid, wstatus, ru);
    if (r != 0) return r;
    if (pidfd >= 0) {
        struct pollfd p;
        p.fd = pidfd;
        p.events = POLLIN;
        p.revents = 0;
        int ms = (int) ceil(seconds * 1000.0);
        if (ms < 0) ms = 0;
        int pr = poll(&p, 1, ms);
        if (pr < 0 && errno != EINTR) return -1;
        return try_reap(pid, wstatus, ru);
    }
    double end = st_monotonic_now() + seconds;
    for (;;) {
        double left = end - st_monotonic_now();
        if (left <= 0) return 0;
        sleep_seconds(*sleep_step < left ? *sleep_step : left);
        if (*sleep_step < 2e-3) *sleep_step *= 2;
        r = try_reap(pid, wstatus, ru);
        if (r != 0) return r;
    }
}

/* Stops the whole process group: SIGTERM, then SIGKILL after 0.5 s; reaps
 * the child (try_reap kills what is left of the group). */
static void stop_group(pid_t pid, int pidfd, int *wstatus, struct rusage *ru)
{
    double step = 20e-6;
    kill(-pid, SIGTERM);
    if (wait_child(pid, pidfd, 0.5, &step, wstatus, ru) == 1) return;
    kill(-pid, SIGKILL);
    while (try_reap(pid, wstatus, ru) == 0) sleep_seconds(1e-3);
}

/* ---- one run ------------------------------------------------------------ */

void st_run_init(st_run *r)
{
    r->wall = r->user = r->sys = r->max_rss = NAN;
    r->start_time = r->rss_floor = NAN;
    r->exit_status = -1;
    r->signal = 0;
    r->timed_out = 0;
    r->interrupted = 0;
    r->error = 0;
    r->launched = 0;
}

static double tv_seconds(struct timeval tv)
{
    return (double) tv.tv_sec + 1e-6 * (double) tv.tv_usec;
}

/* Moves the two ends of a pipe above the standard descriptors (a caller
 * started with one of them closed would get it from pipe(), and the spawn
 * redirects 0, 1 and 2); returns 0, or -1 with both ends closed. */
static int keep_above_stdio(int p[2])
{
    for (int i = 0; i < 2; i++) {
        if (p[i] > 2) continue;
        int moved = fcntl(p[i], F_DUPFD, 3);
        if (moved < 0) {
            close(p[0]);
            close(p[1]);
            return -1;
        }
        close(p[i]);
        p[i] = moved;
    }
    return 0;
}

/* Reads what the launcher wrote to the pipe (non-blocking: the launcher has
 * exited) and fills res; returns 1 when a report was read. */
static int read_report(int fd, st_run *res)
{
    char buf[256];
    size_t len = 0;
    for (;;) {
        ssize_t n = read(fd, buf + len, sizeof buf - 1 - len);
        if (n > 0) {
            len += (size_t) n;
            if (len >= sizeof buf - 1) break;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        break;
    }
    buf[len] = '\0';
    char kind = 0;
    int code = 0;
    long long user = 0, sys = 0, rss = 0, wall = 0;
    int got = sscanf(buf, "st-launch 2 %c %d %lld %lld %lld %lld", &kind, &code, &user,
                     &sys, &rss, &wall);
    if (got >= 2 && kind == 'e') {
        res->error = code;
        return 1;
    }
    if (got != 6 || (kind != 'x' && kind != 's') || wall < 0) return 0;
    res->user = 1e-6 * (double) user;
    res->sys = 1e-6 * (double) sys;
    res->max_rss = (double) rss;
    res->wall = 1e-9 * (double) wall;
    if (kind == 'x') {
        res->exit_status = code;
        res->signal = 0;
    } else {
        res->signal = code;
        res->exit_status = 128 + code;
    }
    res->launched = 1;
    return 1;
}

/* A spawned child's own process group (so the whole group can be
 * stopped), no blocked signals, and the signals this process handles or
 * ignores back to their defaults; with `interactive`, also those a
 * terminal or a pipe sends (INT, QUIT, PIPE, HUP). */
static void spawn_attr_setup(posix_spawnattr_t *attr, int interactive)
{
    sigset_t none, dflt;
    sigemptyset(&none);
    sigemptyset(&dflt);
    if (interactive) {
        sigaddset(&dflt, SIGINT);
        sigaddset(&dflt, SIGQUIT);
        sigaddset(&dflt, SIGPIPE);
        sigaddset(&dflt, SIGHUP);
    }
    sigaddset(&dflt, SIGTERM);
    sigaddset(&dflt, SIGCHLD);
    sigaddset(&dflt, SIGUSR1);
    sigaddset(&dflt, SIGUSR2);
    sigaddset(&dflt, SIGALRM);
    sigaddset(&dflt, SIGXCPU);
    sigaddset(&dflt, SIGXFSZ);
    posix_spawnattr_setpgroup(attr, 0);
    posix_spawnattr_setsigmask(attr, &none);
    posix_spawnattr_setsigdefault(attr, &dflt);
    posix_spawnattr_setflags(attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                   POSIX_SPAWN_SETSIGDEF);
}

int st_run_command(const char *path, char *const *args, const char *output,
                   double timeout, const char *launcher, st_interrupt_fn interrupted,
                   void *data, st_run *res)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    int wstatus = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    st_run_init(res);
    if (!args || !args[0]) {
        res->error = EINVAL;
        return ST_RUN_SPAWN_FAILED;
    }
    size_t nargs = 0;
    while (args[nargs]) nargs++;

    /* The argument vector of what is spawned: the launcher's (up to 4 words
     * before the command's) or the command's own. */
    char **argv = (char **) calloc(nargs + 6, sizeof(char *));
    if (!argv) {
        res->error = ENOMEM;
        return ST_RUN_SPAWN_FAILED;
    }
    if (posix_spawn_file_actions_init(&fa) != 0) {
        free(argv);
        res->error = errno ? errno : ENOMEM;
        return ST_RUN_SPAWN_FAILED;
    }
    if (posix_spawnattr_init(&attr) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        free(argv);
        res->error = errno ? errno : ENOMEM;
        return ST_RUN_SPAWN_FAILED;
    }
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (output && output[0]) {
        posix_spawn_file_actions_addopen(&fa, 1, output,
                                         O_WRONLY | O_CREAT | O_APPEND, 0644);
    } else {
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    }
    posix_spawn_file_actions_adddup2(&fa, 1, 2);

    /* Own process group; no blocked signals; the signals R handles or
     * ignores back to their defaults in the child. */
    spawn_attr_setup(&attr, 1);

    /* The report pipe: the read end stays here (close-on-exec), the write
     * end is inherited by the launcher, which is told its number. */
    int use_launcher = launcher && launcher[0] && access(launcher, X_OK) == 0;
    int rep[2] = {-1, -1};
    char fdarg[24];
    if (use_launcher) {
        if (pipe(rep) != 0 || keep_above_stdio(rep) != 0) {
            use_launcher = 0;
        } else {
            fcntl(rep[0], F_SETFD, FD_CLOEXEC);
            fcntl(rep[0], F_SETFL, O_NONBLOCK);
            snprintf(fdarg, sizeof fdarg, "%d", rep[1]);
        }
    }
    const char *prog;
    size_t k = 0;
    if (use_launcher) {
        prog = launcher;
        argv[k++] = (char *) "st-launch";
        argv[k++] = fdarg;
        if (path) {
            argv[k++] = (char *) "exec";
            argv[k++] = (char *) path;
            for (size_t i = 0; i < nargs; i++) argv[k++] = args[i];
        } else {
            argv[k++] = (char *) "sh";
            argv[k++] = args[0];
        }
    } else if (path) {
        prog = path;
        for (size_t i = 0; i < nargs; i++) argv[k++] = args[i];
    } else {
        prog = "/bin/sh";
        argv[k++] = (char *) "sh";
        argv[k++] = (char *) "-c";
        argv[k++] = args[0];
    }
    argv[k] = NULL;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    /* started directly, the command inherits nothing but 0, 1 and 2 (the
     * launcher closes the rest itself) */
    if (!use_launcher) posix_spawn_file_actions_addclosefrom_np(&fa, 3);
#endif

    struct rusage self;
    if (getrusage(RUSAGE_SELF, &self) == 0) {
#ifdef __APPLE__
        res->rss_floor = (double) self.ru_maxrss;
#else
        res->rss_floor = 1024.0 * (double) self.ru_maxrss;
#endif
    }

    pid_t pid;
    res->start_time = realtime_now();
    double t0 = st_monotonic_now();
    int rc = posix_spawn(&pid, prog, &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    free(argv);
    if (use_launcher) close(rep[1]);
    if (rc != 0) {
        if (use_launcher) close(rep[0]);
        res->error = rc;
        return ST_RUN_SPAWN_FAILED;
    }
    int pidfd = open_pidfd(pid);

    double step = 20e-6;
    int status = ST_RUN_OK;
    for (;;) {
        double slice = 0.1;
        if (timeout > 0 && isfinite(timeout)) {
            double left = t0 + timeout - st_monotonic_now();
            if (left <= 0) {
                stop_group(pid, pidfd, &wstatus, &ru);
                res->timed_out = 1;
                status = ST_RUN_TIMEOUT;
                break;
            }
            if (left < slice) slice = left;
        }
        int w = wait_child(pid, pidfd, slice, &step, &wstatus, &ru);
        if (w == 1) break;
        if (w < 0) {
            res->error = errno;
            stop_group(pid, pidfd, &wstatus, &ru);
            status = ST_RUN_SPAWN_FAILED;
            break;
        }
        if (interrupted && interrupted(data)) {
            stop_group(pid, pidfd, &wstatus, &ru);
            res->interrupted = 1;
            status = ST_RUN_INTERRUPTED;
            break;
        }
    }
    double t1 = st_monotonic_now();
    if (pidfd >= 0) close(pidfd);

    res->wall = t1 - t0;
    res->user = tv_seconds(ru.ru_utime);
    res->sys = tv_seconds(ru.ru_stime);
#ifdef __APPLE__
    res->max_rss = (double) ru.ru_maxrss;
#else
    res->max_rss = 1024.0 * (double) ru.ru_maxrss;
#endif
    if (WIFEXITED(wstatus)) {
        res->exit_status = WEXITSTATUS(wstatus);
    } else if (WIFSIGNALED(wstatus)) {
        res->signal = WTERMSIG(wstatus);
        res->exit_status = 128 + res->signal;
    }
    if (use_launcher) {
        /* The launcher exits 0 after reporting; without a report (it was
         * killed, or could not run) the figures above are the fallback.  A
         * run stopped here keeps the wall time taken here (the time until
         * it was stopped). */
        double own_wall = res->wall;
        int reported = read_report(rep[0], res);
        close(rep[0]);
        if (status != ST_RUN_OK) res->wall = own_wall;
        if (status == ST_RUN_OK && res->error != 0) {
            status = ST_RUN_SPAWN_FAILED;
        } else if (status == ST_RUN_OK && !reported && WIFEXITED(wstatus)) {
            res->error = ST_ERR_NO_REPORT;
            status = ST_RUN_SPAWN_FAILED;
        }
    }
    return status;
}

/* ---- the launcher as a server -------------------------------------------- */

/* Writes all of buf to the request socket (blocking); 0, or -1 with errno.
 * send() with MSG_NOSIGNAL: a server that has died gives EPIPE, not a
 * SIGPIPE to this process (whose handling of SIGPIPE is R's). */
static int write_all_fd(int fd, const char *buf, size_t n)
{
    while (n > 0) {
#ifdef MSG_NOSIGNAL
        ssize_t w = send(fd, buf, n, MSG_NOSIGNAL);
#else
        ssize_t w = write(fd, buf, n);
#endif
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        buf += w;
        n -= (size_t) w;
    }
    return 0;
}

int st_server_start(const char *launcher, st_server *s)
{
    s->pid = -1;
    s->req = s->rep = -1;
    if (!launcher || !launcher[0] || access(launcher, X_OK) != 0) return ENOENT;
    int req[2], rep[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, req) != 0) return errno;
    if (keep_above_stdio(req) != 0) return EMFILE;
#if !defined(MSG_NOSIGNAL) && defined(SO_NOSIGPIPE)
    int one = 1;
    setsockopt(req[1], SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
    if (pipe(rep) != 0 || keep_above_stdio(rep) != 0) {
        int e = errno ? errno : EMFILE;
        close(req[0]);
        close(req[1]);
        return e;
    }
    /* this process keeps the write end of the requests and the read end of
     * the reports; neither goes to the commands it runs itself */
    fcntl(req[1], F_SETFD, FD_CLOEXEC);
    fcntl(rep[0], F_SETFD, FD_CLOEXEC);

    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addclose(&fa, req[1]);
    posix_spawn_file_actions_addclose(&fa, rep[0]);
    spawn_attr_setup(&attr, 0);
    char a1[24], a2[24];
    snprintf(a1, sizeof a1, "%d", req[0]);
    snprintf(a2, sizeof a2, "%d", rep[1]);
    char *argv[5] = {(char *) "st-launch", (char *) "serve", a1, a2, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, launcher, &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(req[0]);
    close(rep[1]);
    if (rc != 0) {
        close(req[1]);
        close(rep[0]);
        return rc;
    }
    s->pid = pid;
    s->req = req[1];
    s->rep = rep[0];
    return 0;
}

void st_server_stop(st_server *s)
{
    if (s->req >= 0) close(s->req);
    if (s->rep >= 0) close(s->rep);
    s->req = s->rep = -1;
    if (s->pid > 0) {
        /* end of file on its requests ends the server; give it a second */
        int status;
        double end = st_monotonic_now() + 1.0;
        pid_t r;
        while ((r = waitpid(s->pid, &status, WNOHANG)) == 0 && st_monotonic_now() < end)
            sleep_seconds(1e-3);
        if (r == 0) {
            kill(s->pid, SIGKILL);
            while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR) {}
        }
    }
    s->pid = -1;
}

/* Kills a server that does not answer, and forgets it. */
static void server_kill(st_server *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGKILL);
        int status;
        while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR) {}
    }
    if (s->req >= 0) close(s->req);
    if (s->rep >= 0) close(s->rep);
    s->req = s->rep = -1;
    s->pid = -1;
}

/* Reads the server's reports of a batch, up to its line `st-launch 3 end`,
 * into a buffer it allocates (*out; the caller frees it), waking every
 * 100 ms to ask `interrupted`.  On an interrupt it sends one stop byte and
 * goes on reading (the server ends the batch); a server that has not ended
 * it 5 s after the stop is killed.  Returns 1 when the batch ended, 0 when
 * the server went away, -1 on error; *asked is set when a stop was sent. */
static int read_batch(st_server *s, char **out, size_t *out_len,
                      st_interrupt_fn interrupted, void *data, int *asked)
{
    size_t len = 0, cap = 1024;
    char *buf = (char *) malloc(cap);
    double asked_at = 0;
    *out = NULL;
    *out_len = 0;
    if (!buf) return -1;
    for (;;) {
        struct pollfd p;
        p.fd = s->rep;
        p.events = POLLIN;
        p.revents = 0;
        int r = poll(&p, 1, 100);
        if (r < 0) {
            if (errno == EINTR) continue;
            free(buf);
            return -1;
        }
        if (r == 0) {
            if (!*asked && interrupted && interrupted(data)) {
                char c = 'k';
                if (write_all_fd(s->req, &c, 1) != 0) {
                    free(buf);
                    return 0;
                }
                *asked = 1;
                asked_at = st_monotonic_now();
            } else if (*asked && st_monotonic_now() - asked_at > 5.0) {
                server_kill(s);
                free(buf);
                return 0;
            }
            continue;
        }
        if (cap - len < 512) {
            char *nb = (char *) realloc(buf, 2 * cap);
            if (!nb) {
                free(buf);
                return -1;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t n = read(s->rep, buf + len, cap - 1 - len);
        if (n < 0) {
            if (errno == EINTR) continue;
            free(buf);
            return -1;
        }
        if (n == 0) {
            free(buf);
            return 0;
        }
        len += (size_t) n;
        buf[len] = '\0';
        static const char end[] = "st-launch 3 end\n";
        size_t el = sizeof end - 1;
        if (len >= el && memcmp(buf + len - el, end, el) == 0) {
            *out = buf;
            *out_len = len;
            return 1;
        }
    }
}

int st_server_batch(st_server *s, const st_command *cmds, int ncmd, const int *steps,
                    int nstep, const char *output, double timeout,
                    st_interrupt_fn interrupted, void *data, st_run *res, int *done)
{
    *done = 0;
    for (int k = 0; k < nstep; k++) st_run_init(&res[k]);
    st_run first;
    st_run_init(&first);
    st_run *err = nstep > 0 ? &res[0] : &first;
    if (s->req < 0 || s->rep < 0) {
        err->error = ST_ERR_NO_REPORT;
        return ST_RUN_SPAWN_FAILED;
    }
    if (ncmd < 1 || nstep < 1) {
        err->error = EINVAL;
        return ST_RUN_SPAWN_FAILED;
    }
    /* the request: 'R', length, timeout, counts, steps, output, commands */
    const char *out = output ? output : "";
    size_t head = sizeof(double) + 2 * sizeof(uint32_t);
    size_t bytes = head + (size_t) nstep * sizeof(uint32_t) + strlen(out) + 1;
    for (int i = 0; i < ncmd; i++) {
        bytes += 2 * sizeof(uint32_t) + strlen(cmds[i].path ? cmds[i].path : "") + 1;
        for (int k = 0; cmds[i].args[k]; k++) bytes += strlen(cmds[i].args[k]) + 1;
    }
    if (bytes > (1u << 30)) {
        err->error = E2BIG;
        return ST_RUN_SPAWN_FAILED;
    }
    char *msg = (char *) malloc(1 + sizeof(uint32_t) + bytes);
    if (!msg) {
        err->error = ENOMEM;
        return ST_RUN_SPAWN_FAILED;
    }
    char *p = msg;
    *p++ = 'R';
    uint32_t u = (uint32_t) bytes;
    memcpy(p, &u, sizeof u);
    p += sizeof u;
    double to = (timeout > 0 && isfinite(timeout)) ? timeout : 0.0;
    memcpy(p, &to, sizeof to);
    p += sizeof to;
    u = (uint32_t) ncmd;
    memcpy(p, &u, sizeof u);
    p += sizeof u;
    u = (uint32_t) nstep;
    memcpy(p, &u, sizeof u);
    p += sizeof u;
    for (int k = 0; k < nstep; k++) {
        u = (uint32_t) steps[k];
        memcpy(p, &u, sizeof u);
        p += sizeof u;
    }
    size_t l = strlen(out) + 1;
    memcpy(p, out, l);
    p += l;
    for (int i = 0; i < ncmd; i++) {
        uint32_t nargs = 0;
        while (cmds[i].args[nargs]) nargs++;
        u = cmds[i].path ? 0u : 1u;
        memcpy(p, &u, sizeof u);
        p += sizeof u;
        memcpy(p, &nargs, sizeof nargs);
        p += sizeof nargs;
        const char *prog = cmds[i].path ? cmds[i].path : "";
        l = strlen(prog) + 1;
        memcpy(p, prog, l);
        p += l;
        for (uint32_t k = 0; k < nargs; k++) {
            l = strlen(cmds[i].args[k]) + 1;
            memcpy(p, cmds[i].args[k], l);
            p += l;
        }
    }
    struct rusage self;
    double floor = NAN;
    if (getrusage(RUSAGE_SELF, &self) == 0) {
#ifdef __APPLE__
        floor = (double) self.ru_maxrss;
#else
        floor = 1024.0 * (double) self.ru_maxrss;
#endif
    }
    int w = write_all_fd(s->req, msg, (size_t) (p - msg));
    free(msg);
    if (w != 0) {
        err->error = errno ? errno : EPIPE;
        return ST_RUN_SPAWN_FAILED;
    }
    char *rep = NULL;
    size_t rep_len = 0;
    int asked = 0;
    int r = read_batch(s, &rep, &rep_len, interrupted, data, &asked);
    if (r != 1) {
        err->error = r == 0 ? ST_ERR_NO_REPORT : errno;
        return asked ? ST_RUN_INTERRUPTED : ST_RUN_SPAWN_FAILED;
    }
    int status = ST_RUN_OK;
    char *line = rep;
    while (line < rep + rep_len && *done < nstep) {
        char *nl = strchr(line, '\n');
        if (!nl) break;
        *nl = '\0';
        if (strcmp(line, "st-launch 3 end") == 0) break;
        st_run *x = &res[*done];
        x->rss_floor = floor;
        char kind = 0;
        int code = 0, timed_out = 0, stopped = 0;
        long long user = 0, sys = 0, rss = 0, wall = 0, start = 0;
        int got = sscanf(line, "st-launch 3 %c %d %lld %lld %lld %lld %d %d %lld", &kind,
                         &code, &user, &sys, &rss, &wall, &timed_out, &stopped, &start);
        (*done)++;
        if (got >= 2 && (kind == 'e' || kind == 'o')) {
            x->error = kind == 'o' ? ST_ERR_OUTPUT_BASE - code : code;
            status = ST_RUN_SPAWN_FAILED;
            break;
        }
        if (got != 9 || (kind != 'x' && kind != 's')) {
            x->error = ST_ERR_NO_REPORT;
            status = ST_RUN_SPAWN_FAILED;
            break;
        }
        x->user = 1e-6 * (double) user;
        x->sys = 1e-6 * (double) sys;
        x->max_rss = (double) rss;
        x->wall = 1e-9 * (double) wall;
        x->start_time = 1e-9 * (double) start;
        if (kind == 'x') {
            x->exit_status = code;
        } else {
            x->signal = code;
            x->exit_status = 128 + code;
        }
        x->launched = 1;
        x->timed_out = timed_out;
        x->interrupted = stopped;
        if (timed_out) status = ST_RUN_TIMEOUT;
        if (stopped) status = ST_RUN_INTERRUPTED;
        line = nl + 1;
    }
    free(rep);
    /* the user's interrupt was consumed: it is reported even when the
     * batch ended before the stop reached the server */
    if (asked) status = ST_RUN_INTERRUPTED;
    return status;
}

int st_server_run(st_server *s, const char *path, char *const *args, const char *output,
                  double timeout, st_interrupt_fn interrupted, void *data, st_run *res)
{
    st_command c;
    c.path = path;
    c.args = args;
    int step = 0, done = 0;
    int status = st_server_batch(s, &c, 1, &step, 1, output, timeout, interrupted, data,
                                 res, &done);
    if (status == ST_RUN_OK && done < 1) {
        res->error = ST_ERR_NO_REPORT;
        status = ST_RUN_SPAWN_FAILED;
    }
    return status;
}

int st_server_stop_byte(st_server *s)
{
    char c = 'k';
    return s->req >= 0 ? write_all_fd(s->req, &c, 1) : -1;
}

#else /* _WIN32: no POSIX processes; measure() runs R code only there */

#include <math.h>
#include <windows.h>

double st_monotonic_now(void)
{
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double) c.QuadPart / (double) f.QuadPart;
}

double st_realtime_now(void)
{
    FILETIME ft;
    GetSystemTimeAsFileTime(&ft);
    unsigned long long t = ((unsigned long long) ft.dwHighDateTime << 32) | ft.dwLowDateTime;
    return (double) t * 1e-7 - 11644473600.0;
}

void st_cpu_self(double *user, double *sys)
{
    *user = *sys = NAN;
}

double st_clock_resolution(void)
{
    LARGE_INTEGER f;
    QueryPerformanceFrequency(&f);
    return 1.0 / (double) f.QuadPart;
}

double st_clock_tick(long tries)
{
    double best = NAN, a = st_monotonic_now();
    for (long i = 0; i < tries; i++) {
        double b = st_monotonic_now();
        if (b > a && (isnan(best) || b - a < best)) best = b - a;
        a = b;
    }
    return best;
}

void st_run_init(st_run *r)
{
    r->wall = r->user = r->sys = r->max_rss = r->start_time = r->rss_floor = NAN;
    r->exit_status = -1;
    r->signal = r->timed_out = r->interrupted = 0;
    r->error = 0;
    r->launched = 0;
}

int st_run_command(const char *path, char *const *args, const char *output,
                   double timeout, const char *launcher, st_interrupt_fn interrupted,
                   void *data, st_run *res)
{
    (void) path; (void) args; (void) output; (void) timeout; (void) launcher; (void) interrupted;
    (void) data;
    st_run_init(res);
    res->error = 38; /* ENOSYS */
    return ST_RUN_SPAWN_FAILED;
}

int st_server_start(const char *launcher, st_server *s)
{
    (void) launcher;
    s->pid = -1;
    s->req = s->rep = -1;
    return 38; /* ENOSYS */
}

void st_server_stop(st_server *s)
{
    s->pid = -1;
    s->req = s->rep = -1;
}

int st_server_batch(st_server *s, const st_command *cmds, int ncmd, const int *steps,
                    int nstep, const char *output, double timeout,
                    st_interrupt_fn interrupted, void *data, st_run *res, int *done)
{
    (void) s; (void) cmds; (void) ncmd; (void) steps; (void) output; (void) timeout;
    (void) interrupted; (void) data;
    *done = 0;
    for (int k = 0; k < nstep; k++) st_run_init(&res[k]);
    if (nstep > 0) res[0].error = 38; /* ENOSYS */
    return ST_RUN_SPAWN_FAILED;
}

int st_server_stop_byte(st_server *s)
{
    (void) s;
    return -1;
}

int st_server_run(st_server *s, const char *path, char *const *args, const char *output,
                  double timeout, st_interrupt_fn interrupted, void *data, st_run *res)
{
    (void) s; (void) path; (void) args; (void) output; (void) timeout;
    (void) interrupted; (void) data;
    st_run_init(res);
    res->error = 38; /* ENOSYS */
    return ST_RUN_SPAWN_FAILED;
}

#endif /* _WIN32 */

/* ---- splitting a command line --------------------------------------------- */

#include <string.h>

/* Words the shell does not look up as programs when they come first:
 * reserved words, builtins that have no program of their own, and the
 * builtins that have a program of the same name that can behave otherwise
 * (dash's `echo` interprets backslashes and knows no -e, where
 * /usr/bin/echo does the reverse; `printf`, `test`, `kill` and `pwd` have
 * options and formats of their own).  `true` and `false` are the same
 * builtin or not when they are given no argument (see st_split_command). */
static const char *const shell_words[] = {
    "echo", "printf", "test", "kill", "pwd", "newgrp", "fc",
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until",
    "do", "done", "in", "function", "select", "time", "{", "}", "[[", "]]", "!",
    ".", ":", "source", "cd", "exec", "exit", "export", "readonly", "return",
    "set", "shift", "trap", "unset", "eval", "alias", "unalias", "umask",
    "ulimit", "wait", "jobs", "fg", "bg", "command", "type", "hash", "read",
    "getopts", "local", "times", "break", "continue", "let", "declare",
    "typeset", "builtin", NULL
};

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Characters that mean something to the shell outside quotes. */
static int is_special(char c)
{
    return strchr("|&;<>()$`\\*?[]{}~!\n\r", c) != NULL;
}

int st_split_command(const char *cmd, char *out, size_t out_size, int *starts,
                     int max_words)
{
    size_t len = strlen(cmd);
    if (out_size < len + 1) return -1;
    size_t o = 0;
    int n = 0;
    size_t i = 0;
    for (;;) {
        while (i < len && is_blank(cmd[i])) i++;
        if (i >= len) break;
        if (n >= max_words) return -1;
        starts[n] = (int) o;
        size_t word_start = i;
        while (i < len && !is_blank(cmd[i])) {
            char c = cmd[i];
            if (c == '\'') {
                size_t j = i + 1;
                while (j < len && cmd[j] != '\'') out[o++] = cmd[j++];
                if (j >= len) return -1;           /* unterminated */
                i = j + 1;
            } else if (c == '"') {
                size_t j = i + 1;
                while (j < len && cmd[j] != '"') {
                    if (cmd[j] == '$' || cmd[j] == '`' || cmd[j] == '\\') return -1;
                    out[o++] = cmd[j++];
                }
                if (j >= len) return -1;
                i = j + 1;
            } else if (is_special(c) || (c == '#' && i == word_start) ||
                       (c == '=' && n == 0)) {
                return -1;
            } else {
                out[o++] = c;
                i++;
            }
        }
        out[o++] = '\0';
        n++;
    }
    if (n == 0) return -1;
    if (n > 1 && (strcmp(out + starts[0], "true") == 0 ||
                  strcmp(out + starts[0], "false") == 0)) return -1;
    for (int w = 0; shell_words[w]; w++) {
        if (strcmp(out + starts[0], shell_words[w]) == 0) return -1;
    }
    return n;
}

/* ---- .Call entry points ------------------------------------------------- */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ffi.h"
#include <R_ext/Utils.h>

static void check_interrupt_once(void *unused)
{
    (void) unused;
    R_CheckUserInterrupt();
}

/* TRUE when the user asked to interrupt; the interrupt is consumed here and
 * the R layer reports it. */
static int r_interrupted(void *unused)
{
    (void) unused;
    return R_ToplevelExec(check_interrupt_once, NULL) == FALSE;
}

static const char *optional_string(SEXP x)
{
    if (TYPEOF(x) == STRSXP && XLENGTH(x) == 1 && STRING_ELT(x, 0) != NA_STRING)
        return Rf_translateChar(STRING_ELT(x, 0));
    return NULL;
}

/* The words of a run's error (st_run.error). */
static const char *run_error_message(int error)
{
    static char buf[300];
    if (error == 0) return "";
    if (error == ST_ERR_NO_REPORT) return "the launcher st-launch did not report";
    if (error <= ST_ERR_OUTPUT_BASE) {
        int e = ST_ERR_OUTPUT_BASE - error;
        snprintf(buf, sizeof buf, "the output file cannot be opened for writing: %s%s",
                 strerror(e), e == ENXIO ? " (a FIFO that no process reads)" : "");
        return buf;
    }
    return strerror(error);
}

/* The list ffi_run_command and ffi_launcher_run return. */
static SEXP run_result(int status, const st_run *r)
{
    static const char *names[] = {
        "status", "wall", "user", "sys", "max_rss", "exit_status", "signal",
        "timed_out", "interrupted", "error", "start_time", "rss_floor", "launched"
    };
    const char *err = run_error_message(r->error);
    SEXP values[13];
    values[0] = PROTECT(Rf_ScalarInteger(status));
    values[1] = PROTECT(Rf_ScalarReal(r->wall));
    values[2] = PROTECT(Rf_ScalarReal(r->user));
    values[3] = PROTECT(Rf_ScalarReal(r->sys));
    values[4] = PROTECT(Rf_ScalarReal(r->max_rss));
    values[5] = PROTECT(Rf_ScalarInteger(r->exit_status));
    values[6] = PROTECT(Rf_ScalarInteger(r->signal));
    values[7] = PROTECT(Rf_ScalarLogical(r->timed_out));
    values[8] = PROTECT(Rf_ScalarLogical(r->interrupted));
    values[9] = PROTECT(Rf_mkString(err));
    values[10] = PROTECT(Rf_ScalarReal(r->start_time));
    values[11] = PROTECT(Rf_ScalarReal(r->rss_floor));
    values[12] = PROTECT(Rf_ScalarLogical(r->launched));
    SEXP res = ffi_named_list(13, names, values);
    UNPROTECT(13);
    return res;
}

/* The argv of a run from R: a character vector without NA. */
static char **run_args(SEXP args, SEXP path)
{
    if (TYPEOF(args) != STRSXP || XLENGTH(args) < 1 || XLENGTH(args) > 100000000)
        Rf_error("`args` must be a character vector.");
    R_xlen_t na = XLENGTH(args);
    for (R_xlen_t i = 0; i < na; i++) {
        if (STRING_ELT(args, i) == NA_STRING) Rf_error("`args` must not hold NA.");
    }
    if (!optional_string(path) && na != 1) Rf_error("A shell command is a single string.");
    char **argv = (char **) R_alloc((size_t) na + 1, sizeof(char *));
    for (R_xlen_t i = 0; i < na; i++)
        argv[i] = (char *) Rf_translateChar(STRING_ELT(args, i));
    argv[na] = NULL;
    return argv;
}

/* path: NULL or NA for a shell command (args its one string), else the
 * program to run with argv args. */
SEXP ffi_run_command(SEXP path, SEXP args, SEXP output, SEXP timeout, SEXP launcher)
{
    char **argv = run_args(args, path);
    const char *prog = optional_string(path);
    const char *out = optional_string(output);
    const char *lau = optional_string(launcher);
    double to = ffi_double(timeout, "timeout");
    st_run r;
    int status = st_run_command(prog, argv, out, to, lau, r_interrupted, NULL, &r);
    return run_result(status, &r);
}

static void server_finalize(SEXP xp)
{
    st_server *s = (st_server *) R_ExternalPtrAddr(xp);
    if (!s) return;
    st_server_stop(s);
    free(s);
    R_ClearExternalPtr(xp);
}

/* Starts the launcher as a server: an external pointer, or NULL when it
 * could not be started. */
SEXP ffi_launcher_start(SEXP launcher)
{
    const char *lau = optional_string(launcher);
    if (!lau) return R_NilValue;
    st_server *s = (st_server *) malloc(sizeof(st_server));
    if (!s) return R_NilValue;
    if (st_server_start(lau, s) != 0) {
        free(s);
        return R_NilValue;
    }
    SEXP xp = PROTECT(R_MakeExternalPtr(s, R_NilValue, R_NilValue));
    R_RegisterCFinalizerEx(xp, server_finalize, TRUE);
    UNPROTECT(1);
    return xp;
}

SEXP ffi_launcher_run(SEXP xp, SEXP path, SEXP args, SEXP output, SEXP timeout)
{
    if (TYPEOF(xp) != EXTPTRSXP || !R_ExternalPtrAddr(xp))
        Rf_error("The launcher is not running.");
    char **argv = run_args(args, path);
    const char *prog = optional_string(path);
    const char *out = optional_string(output);
    double to = ffi_double(timeout, "timeout");
    st_run r;
    int status = st_server_run((st_server *) R_ExternalPtrAddr(xp), prog, argv, out, to,
                               r_interrupted, NULL, &r);
    return run_result(status, &r);
}

/* A batch of commands run back to back by the server (st_server_batch):
 * paths a character vector (NA: the shell), args a list of character
 * vectors, steps the 1-based commands to run.  Returns list(status, done,
 * runs, error): runs a matrix with one row per step and the columns wall,
 * user, sys, max_rss, exit_status, signal, timed_out, interrupted,
 * start_time, rss_floor (only the first `done` rows are filled), error the
 * message of the run that ended the batch.  Everything R allocates is made
 * before the batch is sent or after its reports are read. */
SEXP ffi_launcher_batch(SEXP xp, SEXP paths, SEXP args, SEXP steps, SEXP output,
                        SEXP timeout)
{
    if (TYPEOF(xp) != EXTPTRSXP || !R_ExternalPtrAddr(xp))
        Rf_error("The launcher is not running.");
    if (TYPEOF(paths) != STRSXP || TYPEOF(args) != VECSXP ||
        XLENGTH(paths) != XLENGTH(args) || XLENGTH(paths) < 1 || XLENGTH(paths) > 1000000)
        Rf_error("`paths` and `args` must describe the same commands.");
    if (TYPEOF(steps) != INTSXP || XLENGTH(steps) < 1 || XLENGTH(steps) > 10000000)
        Rf_error("`steps` must be an integer vector.");
    int ncmd = (int) XLENGTH(paths), nstep = (int) XLENGTH(steps);
    const int *st = INTEGER(steps);
    int *idx = (int *) R_alloc((size_t) nstep, sizeof(int));
    for (int k = 0; k < nstep; k++) {
        if (st[k] == NA_INTEGER || st[k] < 1 || st[k] > ncmd)
            Rf_error("`steps` must hold numbers of commands.");
        idx[k] = st[k] - 1;
    }
    st_command *cmds = (st_command *) R_alloc((size_t) ncmd, sizeof(st_command));
    for (int i = 0; i < ncmd; i++) {
        SEXP pi = PROTECT(Rf_ScalarString(STRING_ELT(paths, i)));
        cmds[i].path = optional_string(pi);
        cmds[i].args = run_args(VECTOR_ELT(args, i), pi);
        UNPROTECT(1);
    }
    const char *out = optional_string(output);
    double to = ffi_double(timeout, "timeout");
    SEXP runs = PROTECT(Rf_allocMatrix(REALSXP, nstep, 10));
    st_run *res = (st_run *) R_alloc((size_t) nstep, sizeof(st_run));
    int done = 0;
    int status = st_server_batch((st_server *) R_ExternalPtrAddr(xp), cmds, ncmd, idx, nstep,
                                 out, to, r_interrupted, NULL, res, &done);
    double *m = REAL(runs);
    for (int k = 0; k < nstep; k++) {
        const st_run *x = &res[k];
        double v[10] = {x->wall, x->user, x->sys, x->max_rss, (double) x->exit_status,
                        (double) x->signal, (double) x->timed_out, (double) x->interrupted,
                        x->start_time, x->rss_floor};
        for (int j = 0; j < 10; j++) m[k + (R_xlen_t) j * nstep] = v[j];
    }
    int last = done > 0 ? done - 1 : 0;
    static const char *names[] = {"status", "done", "runs", "error"};
    SEXP values[4];
    values[0] = PROTECT(Rf_ScalarInteger(status));
    values[1] = PROTECT(Rf_ScalarInteger(done));
    values[2] = runs;
    values[3] = PROTECT(Rf_mkString(run_error_message(res[last].error)));
    SEXP ans = ffi_named_list(4, names, values);
    UNPROTECT(4);
    return ans;
}

/* Sends one stop byte to the server, as an interrupt does. */
SEXP ffi_launcher_stop_byte(SEXP xp)
{
    if (TYPEOF(xp) != EXTPTRSXP || !R_ExternalPtrAddr(xp))
        Rf_error("The launcher is not running.");
    return Rf_ScalarLogical(st_server_stop_byte((st_server *) R_ExternalPtrAddr(xp)) == 0);
}

SEXP ffi_launcher_stop(SEXP xp)
{
    if (TYPEOF(xp) == EXTPTRSXP) server_finalize(xp);
    return R_NilValue;
}

/* R code timed as bench::mark times it, in batches: for each step (a
 * 1-based index into `calls`, each a call or an expression evaluated in
 * `env`), `batch` evaluations of it between two readings of the monotonic
 * clock, and getrusage() around them for the CPU time.  `limit` (NULL or a
 * call) is evaluated before each step and `reset` after it (setTimeLimit()
 * for the timeout).  The results are written in place into `out` (a double
 * matrix with one row per step: the batch's wall time, user and sys seconds,
 * and its start as seconds since 1970), and the number of steps done into
 * `count`, so that the steps made before an error or an interrupt (a jump
 * out of this function) are kept; nothing is allocated between the clock
 * readings. */
SEXP ffi_eval_runs(SEXP calls, SEXP env, SEXP steps, SEXP batch, SEXP limit, SEXP reset,
                   SEXP out, SEXP count)
{
    if (TYPEOF(calls) != VECSXP || TYPEOF(steps) != INTSXP || TYPEOF(batch) != INTSXP ||
        XLENGTH(batch) != XLENGTH(calls) || TYPEOF(out) != REALSXP ||
        !Rf_isMatrix(out) || Rf_nrows(out) < XLENGTH(steps) || Rf_ncols(out) != 4 ||
        TYPEOF(count) != INTSXP || XLENGTH(count) != 1 || !Rf_isEnvironment(env))
        Rf_error("ffi_eval_runs: bad arguments.");
    R_xlen_t n = XLENGTH(steps), nc = XLENGTH(calls), nr = Rf_nrows(out);
    const int *st = INTEGER(steps), *b = INTEGER(batch);
    for (R_xlen_t k = 0; k < n; k++) {
        if (st[k] == NA_INTEGER || st[k] < 1 || st[k] > nc || b[st[k] - 1] < 1)
            Rf_error("ffi_eval_runs: bad steps.");
    }
    double *o = REAL(out);
    int *done = INTEGER(count);
    *done = 0;
    for (R_xlen_t k = 0; k < n; k++) {
        SEXP call = VECTOR_ELT(calls, st[k] - 1);
        int reps = b[st[k] - 1];
        if (!Rf_isNull(limit)) Rf_eval(limit, R_BaseEnv);
        double u0, s0, u1, s1;
        st_cpu_self(&u0, &s0);
        double start = st_realtime_now();
        double t0 = st_monotonic_now();
        for (int i = 0; i < reps; i++) Rf_eval(call, env);
        double t1 = st_monotonic_now();
        st_cpu_self(&u1, &s1);
        if (!Rf_isNull(reset)) Rf_eval(reset, R_BaseEnv);
        o[k] = t1 - t0;
        o[k + nr] = u1 - u0;
        o[k + 2 * nr] = s1 - s0;
        o[k + 3 * nr] = start;
        *done = (int) (k + 1);
    }
    return R_NilValue;
}

/* The wall time of `reps` evaluations of R's NULL constant, as
 * ffi_eval_runs times a batch: the harness's own share of a batch. */
SEXP ffi_eval_overhead(SEXP reps)
{
    int n = ffi_int(reps, "reps");
    double t0 = st_monotonic_now();
    for (int i = 0; i < n; i++) Rf_eval(R_NilValue, R_BaseEnv);
    double t1 = st_monotonic_now();
    return Rf_ScalarReal(t1 - t0);
}

SEXP ffi_monotonic_now(void)
{
    return Rf_ScalarReal(st_monotonic_now());
}

SEXP ffi_clock_info(SEXP tries)
{
    static const char *names[] = {"resolution", "tick"};
    SEXP values[2];
    values[0] = PROTECT(Rf_ScalarReal(st_clock_resolution()));
    values[1] = PROTECT(Rf_ScalarReal(st_clock_tick((long) ffi_int(tries, "tries"))));
    SEXP res = ffi_named_list(2, names, values);
    UNPROTECT(2);
    return res;
}

/* The words of a command that needs no shell, or NULL. */
SEXP ffi_split_command(SEXP cmd)
{
    if (TYPEOF(cmd) != STRSXP || XLENGTH(cmd) != 1 || STRING_ELT(cmd, 0) == NA_STRING)
        Rf_error("`cmd` must be a single string.");
    const char *c = Rf_translateChar(STRING_ELT(cmd, 0));
    size_t len = strlen(c);
    char *buf = R_alloc(len + 1, 1);
    int max_words = (int) (len / 2 + 1);
    int *starts = (int *) R_alloc((size_t) max_words, sizeof(int));
    int n = st_split_command(c, buf, len + 1, starts, max_words);
    if (n < 0) return R_NilValue;
    SEXP res = PROTECT(Rf_allocVector(STRSXP, n));
    for (int i = 0; i < n; i++) SET_STRING_ELT(res, i, Rf_mkCharCE(buf + starts[i], CE_NATIVE));
    UNPROTECT(1);
    return res;
}
