#ifndef COG_TESTING_HOOKS_H
#define COG_TESTING_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

/// Receives every byte written to the C `stderr` stream after `cog_console_tap_install`, after
/// the bytes have been passed on to the real standard error. Called on the writing thread with
/// the stream's lock held: it must not block or write to `stderr` itself.
typedef void (*cog_console_tap_callback)(const char *bytes, size_t count);

/// Puts a stream in front of C `stderr` that passes every write on to the stream it replaces
/// and then shows the bytes to `callback`. A test runner that writes its console through C
/// `stderr` (Swift Testing does) is then readable in-process, while writes to file descriptor 2
/// (the Swift runtime's fatal errors, a crash report) still go straight to the terminal.
/// Returns false when the stream could not be made, or a tap is already installed.
bool cog_console_tap_install(cog_console_tap_callback callback);

/// Defined by CogTesting (`@_cdecl`): called once as the test bundle loads, before any test
/// runs, so recording a whole suite needs no call from the tests themselves.
void cog_testing_did_load(void);

#endif
