#ifndef COG_TRACE_GUARD_H
#define COG_TRACE_GUARD_H

#include <stdbool.h>
#include <stddef.h>

/// The traces of the tests running in this process, as open file descriptors, so that a fatal
/// signal (a Swift trap, a segmentation fault, an abort) or a stop (SIGTERM, SIGINT) can close
/// each with a record saying how the test ended, before the signal takes its usual course.
/// Everything the handler does is async-signal-safe: it formats into fixed buffers and calls
/// write(2), read(2), sigaction(2) and raise(3) only.

/// Installs the handlers for SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGTERM and
/// SIGINT, keeping the handlers already there (the Swift runtime's backtracer, a runner's) to
/// hand the signal back to. When standard error is not a terminal, it is also passed through a
/// pipe that a thread forwards to the real one, keeping its last bytes, so that the message the
/// Swift runtime prints before a trap (`Fatal error: …`) can go into the record. Idempotent.
void cog_trace_guard_install(void);

/// Registers the open trace `descriptor` of the test whose name is `test_json` (a JSON string
/// literal, quotes included, at most 1,000 bytes): returns its slot, or -1 when every slot is
/// taken. The descriptor is not closed by the guard.
int cog_trace_guard_register(int descriptor, const char *test_json);

/// Says that turn `turn` of the trace in `slot` has ended and is written.
void cog_trace_guard_turn_ended(int slot, long turn);

/// Forgets `slot`; after this returns, the handler writes nothing more to its descriptor.
void cog_trace_guard_unregister(int slot);

/// Work that cannot be done in a signal handler (rendering a test's trace from memory to its
/// file, which allocates and takes locks): the handler asks the guard's own thread to call it
/// and waits for it, at most three seconds, before it writes its records.
typedef void (*cog_trace_guard_rescue_function)(int signal);

/// Sets the rescue the handler asks for (once, before or after installing).
void cog_trace_guard_set_rescue(cog_trace_guard_rescue_function rescue);

/// Writes the record `signal` would write into the trace in `slot` only, without a signal and
/// without a rescue (for the guard's own tests, which share the process with other tests'
/// traces); false when the slot is free or the write failed.
bool cog_trace_guard_mark_for_testing(int slot, int signal);

#endif
