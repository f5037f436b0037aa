#ifndef COG_CHILD_PROCESS_H
#define COG_CHILD_PROCESS_H

#include <sys/types.h>

/// Starts `path` with `argv` (NULL-terminated), its standard input, output and error on the
/// given descriptors, and asks the kernel to kill it when this process dies, however it dies.
/// Returns the child's pid, or -1 with errno set.
pid_t cog_spawn_bound_child(const char *path, char *const argv[], int input, int output, int error);

/// Writes up to `count` bytes to `fd` with SIGPIPE blocked on this thread, so a reader that
/// exited makes the write fail with EPIPE instead of ending this process.
ssize_t cog_write_without_sigpipe(int fd, const void *bytes, size_t count);

/// Makes a pipe whose ends close on exec, so only the child they are handed to inherits them.
int cog_pipe_closing_on_exec(int ends[2]);

#endif
