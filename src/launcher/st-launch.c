/*
 * st-launch.c -- the launcher of measure() (src/measure.c): starts one
 * command, times it, and reports its exit status, wall time, CPU time and
 * peak memory.
 *
 *     st-launch FD exec PATH ARG0 [ARG...]   runs PATH with argv ARG0 ARG...
 *     st-launch FD sh CMD                     runs /bin/sh -c CMD
 *
 * with the launcher's standard input, output and error, waits for it with
 * wait4(), writes one line to the file descriptor FD
 *
 *     st-launch 2 x CODE USER_US SYS_US MAXRSS_BYTES WALL_NS  (it exited)
 *     st-launch 2 s SIGNAL USER_US SYS_US MAXRSS_BYTES WALL_NS (killed)
 *     st-launch 2 e ERRNO                                     (not started)
 *
 * and exits with status 0 (125 when the arguments are wrong, before anything
 * is run).
 *
 * The wall time is the spawn floor of the command and nothing of the
 * launcher: CLOCK_MONOTONIC is read just before posix_spawn() and just after
 * wait4() returns, so it holds the creation of the child (a vfork-style
 * clone in glibc), the exec, the command, its exit and the reaping -- what
 * `hyperfine -N` times around a child -- while the launcher's own exec,
 * dynamic linking and report are outside it.
 *
 * Why a launcher and not a spawn from R: on Linux, exec() records the
 * high-water resident size of the memory the process leaves in the new
 * program's peak (signal->maxrss, what ru_maxrss reports), and a child
 * spawned by R leaves R's memory, so its ru_maxrss is at least R's own peak.
 * The launcher is small when it spawns: the command leaves only the
 * launcher's few hundred kilobytes at its exec(), so the ru_maxrss of the
 * command (and of every process it waited for) is the command's own peak.
 *
 * Process group and signals: the launcher is started in a process group of
 * its own (measure.c asks posix_spawn for it) and the command stays in that
 * group, so measure.c stops the command, and anything it left running in
 * the background, by signalling the group.  The launcher catches SIGTERM,
 * SIGHUP and SIGINT only to survive them (posix_spawn resets caught signals
 * to their defaults in the child): the signal reached the whole group, the
 * launcher goes on waiting until the command has gone, then reports how it
 * ended.  SIGKILL ends the launcher too (then measure.c gets no report and
 * falls back on its own wait4()).
 *
 * Plain C, POSIX only; not linked into the package's shared library (see
 * src/Makevars and src/install.libs.R).
 */
#ifndef _WIN32

#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef __APPLE__
#include <crt_externs.h>
#define environ (*_NSGetEnviron())
#else
extern char **environ;
#endif

static void survive(int sig)
{
    (void) sig;
}

static long long microseconds(struct timeval tv)
{
    return (long long) tv.tv_sec * 1000000LL + (long long) tv.tv_usec;
}

static long long nanoseconds(const struct timespec *a, const struct timespec *b)
{
    return (long long) (b->tv_sec - a->tv_sec) * 1000000000LL +
           (long long) (b->tv_nsec - a->tv_nsec);
}

/* Writes all of buf (the pipe is empty and the line short: one write). */
static void write_all(int fd, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, buf, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return;
        }
        buf += w;
        n -= (size_t) w;
    }
}

static void report_error(int fd, int err)
{
    char line[64];
    snprintf(line, sizeof line, "st-launch 2 e %d\n", err);
    write_all(fd, line, strlen(line));
}

int main(int argc, char **argv)
{
    int shell = argc == 4 && strcmp(argv[2], "sh") == 0;
    int direct = argc >= 5 && strcmp(argv[2], "exec") == 0;
    if (!shell && !direct) {
        fprintf(stderr, "usage: st-launch FD exec PATH ARG0 [ARG...] | st-launch FD sh CMD\n");
        return 125;
    }
    char *end = NULL;
    long fdl = strtol(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || fdl < 0 || fdl > 1000000 ||
        fcntl((int) fdl, F_GETFD) < 0) {
        fprintf(stderr, "st-launch: %s is not an open file descriptor\n", argv[1]);
        return 125;
    }
    int report = (int) fdl;
    /* the command does not inherit the report pipe */
    fcntl(report, F_SETFD, FD_CLOEXEC);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = survive;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    const char *path;
    char **child_argv;
    char *sh_argv[4];
    if (shell) {
        sh_argv[0] = (char *) "sh";
        sh_argv[1] = (char *) "-c";
        sh_argv[2] = argv[3];
        sh_argv[3] = NULL;
        path = "/bin/sh";
        child_argv = sh_argv;
    } else {
        path = argv[3];
        child_argv = argv + 4;
    }

    posix_spawnattr_t attr;
    sigset_t none;
    sigemptyset(&none);
    if (posix_spawnattr_init(&attr) != 0) {
        report_error(report, errno ? errno : ENOMEM);
        return 0;
    }
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);

    struct timespec t0, t1;
    pid_t pid;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = posix_spawn(&pid, path, NULL, &attr, child_argv, environ);
    if (rc != 0) {
        posix_spawnattr_destroy(&attr);
        report_error(report, rc);
        return 0;
    }
    int wstatus = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    pid_t r;
    do {
        r = wait4(pid, &wstatus, 0, &ru);
    } while (r < 0 && errno == EINTR);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    posix_spawnattr_destroy(&attr);

    if (r != pid) {
        report_error(report, errno);
        return 0;
    }
#ifdef __APPLE__
    long long rss = (long long) ru.ru_maxrss;          /* bytes */
#else
    long long rss = 1024LL * (long long) ru.ru_maxrss; /* KiB */
#endif
    char kind = WIFSIGNALED(wstatus) ? 's' : 'x';
    int code = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : WEXITSTATUS(wstatus);
    char line[200];
    snprintf(line, sizeof line, "st-launch 2 %c %d %lld %lld %lld %lld\n", kind, code,
             microseconds(ru.ru_utime), microseconds(ru.ru_stime), rss,
             nanoseconds(&t0, &t1));
    write_all(report, line, strlen(line));
    return 0;
}

#else /* _WIN32: measure() runs no commands there */

int main(void)
{
    return 125;
}

#endif
