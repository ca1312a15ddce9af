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
 * is the launcher as a server, started once by measure() for all its runs.
 * It reads batches from REQ_FD; a batch is a list of commands and the
 * sequence of them to run, back to back, each in a process group of its
 * own, with the same timeout and output.  It keeps one line per run,
 *
 *     st-launch 3 x|s CODE USER_US SYS_US MAXRSS_BYTES WALL_NS TIMED_OUT STOPPED START_NS
 *     st-launch 3 e ERRNO     (the command could not be started)
 *     st-launch 3 o ERRNO     (the output file could not be opened)
 *
 * (START_NS: CLOCK_REALTIME at the spawn), ends the batch at the first run
 * that does not exit with status 0 (or cannot start, times out or is
 * stopped), and only then writes the lines and `st-launch 3 end` to REP_FD:
 * the caller sleeps while the commands run and reads the batch at its end.
 * It serves until REQ_FD (a socket) is closed.
 *
 * The request stream: a batch is the byte 'R', a 32-bit length L (native
 * byte order) and L bytes: the timeout in seconds (a double; not above 0 or
 * not finite: none), the 32-bit counts of commands C and of steps S, S
 * 32-bit indices of commands, the output file ("": /dev/null), then per
 * command a 32-bit flag (1: run `/bin/sh -c ARG0`), a 32-bit count of
 * strings N and the program's path ("" for the shell) and N strings of its
 * argv; every string ends with a NUL.  While a command runs, a byte 'k'
 * on REQ_FD asks to stop it (the caller sends one when the user
 * interrupts); end of file stops it and ends the server.  A 'k' that
 * arrives after its run has ended (the user interrupted just as the
 * command exited) is read before the next batch and dropped, so it can
 * neither stop the next run nor be read as part of a request.  A stopped
 * run (timeout or request) gets SIGTERM in its whole process group, then
 * SIGKILL 0.5 s later.
 *
 * Descriptors: the server closes every descriptor above 2 it inherited
 * but its two ends (R's open connections, say), and opens /dev/null and the
 * output file close-on-exec, so a command starts with its standard input,
 * output and error and nothing else.  The output file is opened by the
 * server with O_NONBLOCK (then made blocking again), so a FIFO that has
 * no reader is refused at once with ENXIO instead of blocking the server
 * (and the caller with it); a reader that stops reading blocks only the
 * command, which the timeout stops.
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
 * wait4() returns (for a run stopped by its timeout or an interrupt, when it
 * was stopped), so it holds the creation of the child (a vfork-style clone
 * in glibc), the exec, the command, its exit and the reaping -- what
 * `hyperfine -N` times around a child: it reads its clock before
 * Command::spawn() and after wait() returns -- while the launcher's own
 * exec, dynamic linking and report are outside it.
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

/* ---- descriptors -------------------------------------------------------- */

/* Closes every descriptor above 2 but `keep1` and `keep2` (-1: none), so
 * that nothing the caller (R) had open reaches the commands: close_range(2)
 * where the kernel has it, else the list in /proc/self/fd, else every
 * number up to the limit of open files (at most 65536). */
static void close_others(int keep1, int keep2)
{
    int lo = keep1 < keep2 ? keep1 : keep2, hi = keep1 < keep2 ? keep2 : keep1;
#if defined(__linux__) && defined(SYS_close_range)
    {
        /* the ranges between the kept ones (lo may be -1) */
        int ok = 1;
        unsigned int from = 3;
        int keeps[2] = {lo, hi};
        for (int k = 0; k < 2 && ok; k++) {
            if (keeps[k] < 3) continue;
            if ((unsigned int) keeps[k] > from &&
                syscall(SYS_close_range, from, (unsigned int) keeps[k] - 1, 0) != 0) ok = 0;
            from = (unsigned int) keeps[k] + 1;
        }
        if (ok && syscall(SYS_close_range, from, ~0U, 0) == 0) return;
    }
#endif
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536) max = 65536;
    for (int fd = 3; fd < (int) max; fd++) {
        if (fd != keep1 && fd != keep2) close(fd);
    }
}

/* ---- the server --------------------------------------------------------- */

/* Bytes of the request stream (see the header comment). */
#define REQ_BEGIN 'R'
#define REQ_STOP 'k'

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

/* The reports of a batch, kept until it ends (the caller is not woken
 * while the commands run). */
typedef struct {
    char *buf;
    size_t len, cap;
} report_buf;

static void report_add(report_buf *b, const char *line)
{
    size_t n = strlen(line);
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 4096;
        while (cap < b->len + n + 1) cap *= 2;
        char *nb = (char *) realloc(b->buf, cap);
        if (!nb) return;
        b->buf = nb;
        b->cap = cap;
    }
    memcpy(b->buf + b->len, line, n);
    b->len += n;
}

static void report_errno(report_buf *b, char kind, int err)
{
    char line[64];
    snprintf(line, sizeof line, "st-launch 3 %c %d\n", kind, err);
    report_add(b, line);
}

/* One command of a batch: the shell flag and its strings in the request. */
typedef struct {
    int shell;
    const char *path;
    char **argv;
} spec;

/* Runs one command (the outcome goes to `out`): returns 0 to go on with
 * the batch, 1 to end it (the command failed, was stopped or timed out, or
 * could not be started), 2 when the caller has gone. */
static int run_one(const spec *sp, int outfd, int nullfd, double timeout, int req,
                   report_buf *out)
{
    char *sh_argv[4];
    const char *path = sp->path;
    char **argv = sp->argv;
    if (sp->shell) {
        sh_argv[0] = (char *) "sh";
        sh_argv[1] = (char *) "-c";
        sh_argv[2] = sp->argv[0];
        sh_argv[3] = NULL;
        path = "/bin/sh";
        argv = sh_argv;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    if (posix_spawn_file_actions_init(&fa) != 0) {
        report_errno(out, 'e', ENOMEM);
        return 1;
    }
    if (posix_spawnattr_init(&attr) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        report_errno(out, 'e', ENOMEM);
        return 1;
    }
    /* descriptors opened by the server, close-on-exec there: dup2() gives
     * the command its own copies and nothing else */
    posix_spawn_file_actions_adddup2(&fa, nullfd, 0);
    posix_spawn_file_actions_adddup2(&fa, outfd, 1);
    posix_spawn_file_actions_adddup2(&fa, outfd, 2);
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

    struct timespec t0, t1, wall0;
    pid_t pid;
    clock_gettime(CLOCK_REALTIME, &wall0);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = posix_spawn(&pid, path, &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        report_errno(out, 'e', rc);
        return 1;
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
            /* a stop byte, or end of file: the caller has gone */
            char c;
            ssize_t r;
            do {
                r = read(req, &c, 1);
            } while (r < 0 && errno == EINTR);
            if (r <= 0) gone = 1;
            stopped = 1;
            break;
        }
    }
    /* a run that was stopped ends when it was stopped */
    if (timed_out || stopped) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
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
    /* a run that ended by itself ends when wait4() has returned, as
     * hyperfine stops its clock when wait() returns */
    if (!timed_out && !stopped) clock_gettime(CLOCK_MONOTONIC, &t1);
    if (pidfd >= 0) close(pidfd);
    if (r != pid) {
        report_errno(out, 'e', errno);
        return gone ? 2 : 1;
    }
#ifdef __APPLE__
    long long rss = (long long) ru.ru_maxrss;
#else
    long long rss = 1024LL * (long long) ru.ru_maxrss;
#endif
    char kind = WIFSIGNALED(wstatus) ? 's' : 'x';
    int code = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : WEXITSTATUS(wstatus);
    char line[256];
    snprintf(line, sizeof line, "st-launch 3 %c %d %lld %lld %lld %lld %d %d %lld\n", kind,
             code, microseconds(ru.ru_utime), microseconds(ru.ru_stime), rss,
             nanoseconds(&t0, &t1), timed_out, stopped,
             (long long) wall0.tv_sec * 1000000000LL + (long long) wall0.tv_nsec);
    report_add(out, line);
    if (gone) return 2;
    return (timed_out || stopped || kind != 'x' || code != 0) ? 1 : 0;
}

/* Parses a batch (see the header comment) and runs it; returns 1 when the
 * caller has gone. */
static int serve_batch(int req, int rep, int nullfd, char *msg, size_t len)
{
    report_buf out = {NULL, 0, 0};
    double timeout;
    uint32_t nspec, nstep;
    size_t head = sizeof timeout + 2 * sizeof(uint32_t);
    int gone = 0;
    spec *specs = NULL;
    uint32_t *steps = NULL;
    char **argvs = NULL;
    if (len < head || msg[len - 1] != '\0') goto bad;
    memcpy(&timeout, msg, sizeof timeout);
    memcpy(&nspec, msg + sizeof timeout, sizeof nspec);
    memcpy(&nstep, msg + sizeof timeout + sizeof nspec, sizeof nstep);
    size_t off = head;
    if (nspec < 1 || nspec > len || nstep > len / sizeof(uint32_t) ||
        off + (size_t) nstep * sizeof(uint32_t) > len) goto bad;
    steps = (uint32_t *) malloc(((size_t) nstep + 1) * sizeof(uint32_t));
    specs = (spec *) calloc(nspec, sizeof(spec));
    /* the argv pointers: every string takes at least one byte of the
     * request, so there are fewer strings than bytes after the steps */
    size_t nptr = len - off - (size_t) nstep * sizeof(uint32_t) + nspec;
    argvs = (char **) calloc(nptr, sizeof(char *));
    if (!steps || !specs || !argvs) {
        report_errno(&out, 'e', ENOMEM);
        goto send;
    }
    memcpy(steps, msg + off, (size_t) nstep * sizeof(uint32_t));
    off += (size_t) nstep * sizeof(uint32_t);
    if (off >= len) goto bad;
    const char *output = msg + off;
    off += strlen(output) + 1;
    size_t a = 0;
    for (uint32_t i = 0; i < nspec; i++) {
        uint32_t flag, nargs;
        if (off + 2 * sizeof(uint32_t) > len) goto bad;
        memcpy(&flag, msg + off, sizeof flag);
        memcpy(&nargs, msg + off + sizeof flag, sizeof nargs);
        off += 2 * sizeof(uint32_t);
        if (nargs < 1 || nargs > len || off >= len) goto bad;
        specs[i].shell = (flag & 1u) != 0;
        specs[i].path = msg + off;
        off += strlen(msg + off) + 1;
        specs[i].argv = argvs + a;
        if (a + nargs + 1 > nptr) goto bad;
        for (uint32_t k = 0; k < nargs; k++) {
            if (off >= len) goto bad;
            argvs[a++] = msg + off;
            off += strlen(msg + off) + 1;
        }
        argvs[a++] = NULL;
    }
    for (uint32_t k = 0; k < nstep; k++) {
        if (steps[k] >= nspec) goto bad;
    }
    {
        /* the output file, opened here without blocking: a FIFO without a
         * reader (or any file that would block on open) is refused at once
         * (ENXIO) instead of hanging the spawn */
        int outfd = nullfd;
        if (output[0]) {
            outfd = open(output, O_WRONLY | O_CREAT | O_APPEND | O_NONBLOCK | O_NOCTTY |
                         O_CLOEXEC, 0644);
            if (outfd < 0) {
                report_errno(&out, 'o', errno);
                goto send;
            }
            int fl = fcntl(outfd, F_GETFL);
            if (fl >= 0) fcntl(outfd, F_SETFL, fl & ~O_NONBLOCK);
        }
        for (uint32_t k = 0; k < nstep; k++) {
            int r = run_one(&specs[steps[k]], outfd, nullfd, timeout, req, &out);
            if (r == 2) gone = 1;
            if (r != 0) break;
        }
        if (outfd != nullfd) close(outfd);
    }
    goto send;
bad:
    report_errno(&out, 'e', EINVAL);
send:
    report_add(&out, "st-launch 3 end\n");
    if (out.buf) write_all(rep, out.buf, out.len);
    free(out.buf);
    free(steps);
    free(specs);
    free(argvs);
    return gone;
}

static int serve(int req, int rep)
{
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    int nullfd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (nullfd < 0) return 0;
    for (;;) {
        /* stop bytes that arrived after their run had ended are dropped */
        unsigned char c;
        int r;
        do {
            r = read_exact(req, &c, 1);
        } while (r == 1 && c == REQ_STOP);
        if (r <= 0 || c != REQ_BEGIN) return 0;
        uint32_t len;
        r = read_exact(req, &len, sizeof len);
        if (r <= 0) return 0;
        if (len == 0 || len > (1u << 30)) return 0;
        char *msg = (char *) malloc(len);
        if (!msg) return 0;
        if (read_exact(req, msg, len) != 1) {
            free(msg);
            return 0;
        }
        int gone = serve_batch(req, rep, nullfd, msg, len);
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
        close_others(req, rep);
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
    /* the command inherits nothing but its standard descriptors */
    close_others(report, -1);
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
