/*
 * st-launch.c -- the launcher of measure() (src/measure.c): runs one shell
 * command and reports its exit status, CPU time and peak memory.
 *
 *     st-launch FD CMD
 *
 * runs `/bin/sh -c CMD` with the launcher's standard input, output and error,
 * waits for it with wait4(), writes one line to the file descriptor FD
 *
 *     st-launch 1 x CODE USER_US SYS_US MAXRSS_BYTES    (the shell exited)
 *     st-launch 1 s SIGNAL USER_US SYS_US MAXRSS_BYTES  (killed by a signal)
 *     st-launch 1 e ERRNO                               (/bin/sh not started)
 *
 * and exits with status 0 (125 when the arguments are wrong, before anything
 * is run).
 *
 * Why a launcher: on Linux, exec() records the high-water resident size of
 * the memory the process leaves in the process's peak (signal->maxrss, what
 * ru_maxrss reports), so a command started directly from R reports at least
 * R's own peak.  The launcher is also started from R, and its own peak is
 * inflated that way, but it is a small program when it forks: the shell it
 * starts leaves only the launcher's copy of a few hundred kilobytes at its
 * exec(), so the ru_maxrss of the shell (and of every process the shell
 * waited for) is the command's own peak.
 *
 * Process group and signals: the launcher is started in a process group of
 * its own (measure.c asks posix_spawn for it) and the shell stays in that
 * group, so measure.c stops the command by signalling the group.  The
 * launcher catches SIGTERM, SIGHUP and SIGINT only to survive them: the
 * signal reached the whole group, the launcher goes on waiting until the
 * shell has gone, then reports how it ended.  SIGKILL ends the launcher too
 * (then measure.c gets no report and falls back on its own wait4()).
 *
 * Plain C, POSIX only; not linked into the package's shared library (see
 * src/Makevars and src/install.libs.R).
 */
#ifndef _WIN32

#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static void survive(int sig)
{
    (void) sig;
}

static long long microseconds(struct timeval tv)
{
    return (long long) tv.tv_sec * 1000000LL + (long long) tv.tv_usec;
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

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: st-launch FD CMD\n");
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

    /* exec failures of the child come back through this pipe */
    int errpipe[2];
    if (pipe(errpipe) != 0) {
        char line[64];
        snprintf(line, sizeof line, "st-launch 1 e %d\n", errno);
        write_all(report, line, strlen(line));
        return 0;
    }
    fcntl(errpipe[0], F_SETFD, FD_CLOEXEC);
    fcntl(errpipe[1], F_SETFD, FD_CLOEXEC);

    /* Block the signals the launcher survives until the child has reset
     * them: a signal between fork() and exec() must not be lost. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGINT);
    sigprocmask(SIG_BLOCK, &block, &old);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = survive;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    pid_t pid = fork();
    if (pid == 0) {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(SIGTERM, &dfl, NULL);
        sigaction(SIGHUP, &dfl, NULL);
        sigaction(SIGINT, &dfl, NULL);
        sigprocmask(SIG_SETMASK, &old, NULL);
        char *args[4];
        args[0] = (char *) "sh";
        args[1] = (char *) "-c";
        args[2] = argv[2];
        args[3] = NULL;
        execv("/bin/sh", args);
        int e = errno;
        write_all(errpipe[1], (const char *) &e, sizeof e);
        _exit(127);
    }
    if (pid < 0) {
        char line[64];
        snprintf(line, sizeof line, "st-launch 1 e %d\n", errno);
        write_all(report, line, strlen(line));
        return 0;
    }
    close(errpipe[1]);
    sigprocmask(SIG_SETMASK, &old, NULL);

    int exec_errno = 0;
    ssize_t n;
    do {
        n = read(errpipe[0], &exec_errno, sizeof exec_errno);
    } while (n < 0 && errno == EINTR);
    if (n != (ssize_t) sizeof exec_errno) exec_errno = 0;
    close(errpipe[0]);

    int wstatus = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    pid_t r;
    do {
        r = wait4(pid, &wstatus, 0, &ru);
    } while (r < 0 && errno == EINTR);

    char line[160];
    if (exec_errno != 0) {
        snprintf(line, sizeof line, "st-launch 1 e %d\n", exec_errno);
    } else if (r != pid) {
        snprintf(line, sizeof line, "st-launch 1 e %d\n", errno);
    } else {
#ifdef __APPLE__
        long long rss = (long long) ru.ru_maxrss;          /* bytes */
#else
        long long rss = 1024LL * (long long) ru.ru_maxrss; /* KiB */
#endif
        char kind = WIFSIGNALED(wstatus) ? 's' : 'x';
        int code = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : WEXITSTATUS(wstatus);
        snprintf(line, sizeof line, "st-launch 1 %c %d %lld %lld %lld\n", kind, code,
                 microseconds(ru.ru_utime), microseconds(ru.ru_stime), rss);
    }
    write_all(report, line, strlen(line));
    return 0;
}

#else /* _WIN32: measure() runs no commands there */

int main(void)
{
    return 125;
}

#endif
