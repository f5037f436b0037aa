#define _GNU_SOURCE
#include "cog_child_process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

pid_t cog_spawn_bound_child(const char *path, char *const argv[], int input, int output, int error) {
    pid_t parent = getpid();
    // A pipe reports whether exec failed: it closes on a successful exec (close-on-exec).
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return -1;
    pid_t child = fork();
    if (child < 0) {
        int saved = errno;
        close(report[0]);
        close(report[1]);
        errno = saved;
        return -1;
    }
    if (child == 0) {
        // Only async-signal-safe calls from here to exec: the parent has other threads.
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        // The parent may have died before the request above took effect.
        if (getppid() != parent) _exit(127);
        if (dup2(input, 0) < 0 || dup2(output, 1) < 0 || dup2(error, 2) < 0) {
            int failure = errno;
            (void)!write(report[1], &failure, sizeof failure);
            _exit(127);
        }
        execv(path, argv);
        int failure = errno;
        (void)!write(report[1], &failure, sizeof failure);
        _exit(127);
    }
    close(report[1]);
    int failure = 0;
    ssize_t got;
    do {
        got = read(report[0], &failure, sizeof failure);
    } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == (ssize_t)sizeof failure) {
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
        errno = failure;
        return -1;
    }
    return child;
}

ssize_t cog_write_without_sigpipe(int fd, const void *bytes, size_t count) {
    sigset_t pipe_only, previous;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);
    ssize_t written = write(fd, bytes, count);
    int saved = errno;
    if (written < 0 && saved == EPIPE) {
        // Take the SIGPIPE this write raised, unless one was already pending before it.
        sigset_t pending;
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE) && !sigismember(&previous, SIGPIPE)) {
            struct timespec now = {0, 0};
            while (sigtimedwait(&pipe_only, NULL, &now) < 0 && errno == EINTR) {}
        }
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    errno = saved;
    return written;
}

int cog_pipe_closing_on_exec(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}
