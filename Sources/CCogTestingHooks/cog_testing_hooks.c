#define _GNU_SOURCE
#include "cog_testing_hooks.h"

#include <stdio.h>

static FILE *original_stderr;
static cog_console_tap_callback tap_callback;

static ssize_t tap_write(void *cookie, const char *bytes, size_t count) {
    (void)cookie;
    size_t written = fwrite(bytes, 1, count, original_stderr);
    fflush(original_stderr);
    tap_callback(bytes, count);
    // Report the whole write as done even when the real stream refused some of it: the caller
    // (a test runner's console) has no better way to recover, and a short count would make
    // stdio retry the rest forever on a full or closed descriptor.
    (void)written;
    return (ssize_t)count;
}

bool cog_console_tap_install(cog_console_tap_callback callback) {
    if (tap_callback != NULL || callback == NULL) return false;
    cookie_io_functions_t functions = {.read = NULL, .write = tap_write, .seek = NULL, .close = NULL};
    FILE *tap = fopencookie(NULL, "w", functions);
    if (tap == NULL) return false;
    setvbuf(tap, NULL, _IONBF, 0);
    tap_callback = callback;
    original_stderr = stderr;
    fflush(original_stderr);
    stderr = tap;
    return true;
}

// Runs as the test bundle is loaded. The test bundle links this object because CogTesting
// depends on it, and CogTesting defines the function it calls.
__attribute__((constructor)) static void cog_testing_hooks_load(void) { cog_testing_did_load(); }
