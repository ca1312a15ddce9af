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
 *     st-launch serve REQ_FD REP_FD
 *
 * is the launcher as a server, started once by measure() for all its runs:
 * it reads requests from REQ_FD, runs each command in a process group of its
 * own and writes one line per run to REP_FD,
 *
 *     st-launch 3 x|s CODE USER_US SYS_US MAXRSS_BYTES WALL_NS TIMED_OUT STOPPED
 *     st-launch 3 e ERRNO
 *
 * until REQ_FD (a pipe or a socket) is closed.  A request (native byte
 * order) is a 32-bit length L, then L bytes: the timeout in seconds (a
 * double; not above 0 or not finite: none), a 32-bit flag (1: run
 * `/bin/sh -c ARG0`), a 32-bit count of strings, and the strings, each
 * ended by a NUL: the output file ("": to /dev/null), the program's path
 * ("" for the shell), and its argv.  While a command runs, any byte
 * arriving on REQ_FD asks to stop it (the caller sends one when the user
 * interrupts, and no request after it); end of file there stops it and ends
 * the server.  A stopped run (timeout or request)
 * gets SIGTERM in its whole process group, then SIGKILL 0.5 s later.
 *
 * Why a server: a process that has just started is placed behind the
 * running ones by the Linux scheduler, so on a busy machine a new launcher
 * per run is woken late when its command exits (1 to 3 ms late per run on
 * the 2-core machine of bench/README.md: 14 ms for `sleep 0.01` where
 * hyperfine reads 12.5 ms); the server, like hyperfine, has slept long
 * enough when its command ends to be woken at once.
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
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

/* ---- the server --------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
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

/* Reads exactly n bytes: 1, 0 at end of file, -1 on error. */
static int read_exact(int fd, void *buf, size_t n)
{
    char *p = (char *) buf;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r == 0) return 0;
        if (r < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += r;
        n -= (size_t) r;
    }
    return 1;
}

/* 1 when the child has exited (not reaped), 0 when it runs, -1 on error. */
static int has_exited(pid_t pid)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    int w;
    do {
        w = waitid(P_PID, (id_t) pid, &info, WEXITED | WNOHANG | WNOWAIT);
    } while (w < 0 && errno == EINTR);
    if (w < 0) return -1;
    return info.si_pid == pid ? 1 : 0;
}

/* Waits up to `seconds` for the child to exit, watching `ctl` (may be -1)
 * for a byte or end of file: returns 1 (exited), 0 (time up), 2 (ctl has
 * something), -1 (error). */
static int wait_exit(pid_t pid, int pidfd, int ctl, double seconds)
{
    double end = now_seconds() + seconds;
    double step = 20e-6;
    for (;;) {
        int e = has_exited(pid);
        if (e != 0) return e;
        double left = end - now_seconds();
        if (left <= 0) return 0;
        struct pollfd p[2];
        int np = 0;
        if (pidfd >= 0) {
            p[np].fd = pidfd;
            p[np].events = POLLIN;
            p[np].revents = 0;
            np++;
        }
        if (ctl >= 0) {
            p[np].fd = ctl;
            p[np].events = POLLIN;
            p[np].revents = 0;
            np++;
        }
        /* without a pidfd, poll in growing steps up to 2 ms */
        double slice = pidfd >= 0 ? left : (step < left ? step : left);
        if (step < 2e-3) step *= 2;
        int ms = (int) (slice * 1000.0 + 0.999);
        if (ms > 100000) ms = 100000;
        int r = poll(p, (nfds_t) np, ms);
        if (r < 0 && errno != EINTR) return -1;
        if (r > 0 && ctl >= 0 && p[np - 1].revents) {
            if (has_exited(pid) == 1) return 1;
            return 2;
        }
    }
}

static void serve_error(int rep, int err)
{
    char line[64];
    snprintf(line, sizeof line, "st-launch 3 e %d\n", err);
    write_all(rep, line, strlen(line));
}

/* Runs one request; returns 0 to go on, 1 when the caller has gone. */
static int serve_one(int req, int rep, char *msg, size_t len)
{
    double timeout;
    uint32_t flags, nstr;
    size_t head = sizeof timeout + 2 * sizeof(uint32_t);
    if (len < head) {
        serve_error(rep, EINVAL);
        return 0;
    }
    memcpy(&timeout, msg, sizeof timeout);
    memcpy(&flags, msg + sizeof timeout, sizeof flags);
    memcpy(&nstr, msg + sizeof timeout + sizeof flags, sizeof nstr);
    if (msg[len - 1] != '\0' || nstr < 3 || nstr > len) {
        serve_error(rep, EINVAL);
        return 0;
    }
    char **str = (char **) calloc((size_t) nstr + 4, sizeof(char *));
    if (!str) {
        serve_error(rep, ENOMEM);
        return 0;
    }
    size_t off = head;
    for (uint32_t i = 0; i < nstr; i++) {
        if (off >= len) {
            free(str);
            serve_error(rep, EINVAL);
            return 0;
        }
        str[i] = msg + off;
        off += strlen(msg + off) + 1;
    }
    const char *output = str[0];
    const char *path;
    char **argv;
    char *sh_argv[4];
    if (flags & 1u) {
        sh_argv[0] = (char *) "sh";
        sh_argv[1] = (char *) "-c";
        sh_argv[2] = str[2];
        sh_argv[3] = NULL;
        path = "/bin/sh";
        argv = sh_argv;
    } else {
        path = str[1];
        argv = str + 2;
        str[nstr] = NULL;
    }

    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    if (posix_spawn_file_actions_init(&fa) != 0) {
        free(str);
        serve_error(rep, ENOMEM);
        return 0;
    }
    if (posix_spawnattr_init(&attr) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        free(str);
        serve_error(rep, ENOMEM);
        return 0;
    }
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (output[0]) {
        posix_spawn_file_actions_addopen(&fa, 1, output, O_WRONLY | O_CREAT | O_APPEND,
                                         0644);
    } else {
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    }
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    sigset_t none, dflt;
    sigemptyset(&none);
    sigemptyset(&dflt);
    sigaddset(&dflt, SIGINT);
    sigaddset(&dflt, SIGHUP);
    sigaddset(&dflt, SIGPIPE);
    sigaddset(&dflt, SIGTERM);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &dflt);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                    POSIX_SPAWN_SETSIGDEF);

    struct timespec t0, t1;
    pid_t pid;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = posix_spawn(&pid, path, &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    free(str);
    if (rc != 0) {
        serve_error(rep, rc);
        return 0;
    }
    int pidfd = open_pidfd(pid);
    int timed_out = 0, stopped = 0, gone = 0;
    double start = now_seconds();
    int limited = timeout > 0 && timeout < 1e300;
    for (;;) {
        double slice = 3600;
        if (limited) {
            slice = start + timeout - now_seconds();
            if (slice <= 0) {
                timed_out = 1;
                break;
            }
        }
        int w = wait_exit(pid, pidfd, req, slice);
        if (w == 1 || w < 0) break;
        if (w == 2) {
            char c;
            ssize_t r = read(req, &c, 1);
            if (r == 0) gone = 1;
            stopped = 1;
            break;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (timed_out || stopped) {
        kill(-pid, SIGTERM);
        if (wait_exit(pid, pidfd, -1, 0.5) != 1) kill(-pid, SIGKILL);
    }
    /* the group's leader has exited and is not reaped: its number cannot be
     * reused yet, so what is left in its group is killed now */
    kill(-pid, SIGKILL);
    int wstatus = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    pid_t r;
    do {
        r = wait4(pid, &wstatus, 0, &ru);
    } while (r < 0 && errno == EINTR);
    if (pidfd >= 0) close(pidfd);
    if (r != pid) {
        serve_error(rep, errno);
        return gone;
    }
#ifdef __APPLE__
    long long rss = (long long) ru.ru_maxrss;
#else
    long long rss = 1024LL * (long long) ru.ru_maxrss;
#endif
    char kind = WIFSIGNALED(wstatus) ? 's' : 'x';
    int code = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : WEXITSTATUS(wstatus);
    char line[200];
    snprintf(line, sizeof line, "st-launch 3 %c %d %lld %lld %lld %lld %d %d\n", kind, code,
             microseconds(ru.ru_utime), microseconds(ru.ru_stime), rss,
             nanoseconds(&t0, &t1), timed_out, stopped);
    write_all(rep, line, strlen(line));
    return gone;
}

static int serve(int req, int rep)
{
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    for (;;) {
        uint32_t len;
        int r = read_exact(req, &len, sizeof len);
        if (r <= 0) return 0;
        if (len == 0 || len > (1u << 30)) return 0;
        char *msg = (char *) malloc(len);
        if (!msg) return 0;
        if (read_exact(req, msg, len) != 1) {
            free(msg);
            return 0;
        }
        int gone = serve_one(req, rep, msg, len);
        free(msg);
        if (gone) return 0;
    }
}

static int parse_fd(const char *s)
{
    char *end = NULL;
    long fdl = strtol(s, &end, 10);
    if (end == s || *end != '\0' || fdl < 0 || fdl > 1000000 ||
        fcntl((int) fdl, F_GETFD) < 0) return -1;
    return (int) fdl;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "serve") == 0) {
        int req = parse_fd(argv[2]), rep = parse_fd(argv[3]);
        if (req < 0 || rep < 0) {
            fprintf(stderr, "st-launch: serve needs two open file descriptors\n");
            return 125;
        }
        fcntl(req, F_SETFD, FD_CLOEXEC);
        fcntl(rep, F_SETFD, FD_CLOEXEC);
        return serve(req, rep);
    }
    int shell = argc == 4 && strcmp(argv[2], "sh") == 0;
    int direct = argc >= 5 && strcmp(argv[2], "exec") == 0;
    if (!shell && !direct) {
        fprintf(stderr, "usage: st-launch FD exec PATH ARG0 [ARG...] | st-launch FD sh CMD"
                        " | st-launch serve REQ_FD REP_FD\n");
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
