#define _GNU_SOURCE
#include "cog_trace_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// MARK: Slots

enum { SLOT_COUNT = 256, TEST_JSON_CAPACITY = 1024, TAIL_CAPACITY = 8192, RECORD_CAPACITY = 4096 };
enum { SLOT_FREE = 0, SLOT_FILLING = 1, SLOT_LIVE = 2 };

struct slot {
    _Atomic int state;
    _Atomic int descriptor;
    _Atomic long last_turn;
    char test_json[TEST_JSON_CAPACITY];
};

static struct slot slots[SLOT_COUNT];

int cog_trace_guard_register(int descriptor, const char *test_json) {
    size_t length = strlen(test_json);
    if (length >= TEST_JSON_CAPACITY || descriptor < 0) return -1;
    for (int index = 0; index < SLOT_COUNT; index++) {
        int expected = SLOT_FREE;
        if (!atomic_compare_exchange_strong(&slots[index].state, &expected, SLOT_FILLING)) continue;
        memcpy(slots[index].test_json, test_json, length + 1);
        atomic_store(&slots[index].descriptor, descriptor);
        atomic_store(&slots[index].last_turn, 0);
        atomic_store(&slots[index].state, SLOT_LIVE);
        return index;
    }
    return -1;
}

void cog_trace_guard_turn_ended(int slot, long turn) {
    if (slot >= 0 && slot < SLOT_COUNT) atomic_store_explicit(&slots[slot].last_turn, turn, memory_order_relaxed);
}

void cog_trace_guard_unregister(int slot) {
    if (slot < 0 || slot >= SLOT_COUNT) return;
    atomic_store(&slots[slot].descriptor, -1);
    atomic_store(&slots[slot].state, SLOT_FREE);
}

static bool write_all(int descriptor, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(descriptor, bytes, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return false;
        bytes += written;
        count -= (size_t)written;
    }
    return true;
}

// MARK: Standard error, passed through a pipe

static int saved_stderr = -1;
static int pipe_read = -1;
static int pipe_write = -1;
static char tail[TAIL_CAPACITY];
static _Atomic size_t tail_length;
/// Set by the forwarding thread between taking bytes from the pipe and keeping them in `tail`,
/// so the handler waits for bytes in its hands rather than miss them.
static _Atomic int forwarding;
static _Atomic int closing;
static pthread_mutex_t forward_lock = PTHREAD_MUTEX_INITIALIZER;

static void remember(char *into, size_t *length, size_t capacity, const char *bytes, size_t count) {
    if (count >= capacity) {
        memcpy(into, bytes + count - capacity, capacity);
        *length = capacity;
        return;
    }
    if (*length + count > capacity) {
        size_t drop = *length + count - capacity;
        memmove(into, into + drop, *length - drop);
        *length -= drop;
    }
    memcpy(into + *length, bytes, count);
    *length += count;
}

static void *forward_stderr(void *unused) {
    (void)unused;
    char buffer[65536];
    for (;;) {
        struct pollfd ready = {.fd = pipe_read, .events = POLLIN};
        if (poll(&ready, 1, -1) < 0 && errno != EINTR) return NULL;
        // A moment for the rest of a burst (a runner prints line by line) to arrive, so that it
        // is passed on in one read and one write rather than a pair per line.
        struct timespec gather = {.tv_sec = 0, .tv_nsec = 500000};
        nanosleep(&gather, NULL);
        pthread_mutex_lock(&forward_lock);
        if (atomic_load(&closing)) {
            pthread_mutex_unlock(&forward_lock);
            return NULL;
        }
        atomic_store(&forwarding, 1);
        ssize_t count = read(pipe_read, buffer, sizeof buffer);
        if (count > 0) {
            write_all(saved_stderr, buffer, (size_t)count);
            size_t length = atomic_load(&tail_length);
            remember(tail, &length, TAIL_CAPACITY, buffer, (size_t)count);
            atomic_store(&tail_length, length);
        }
        atomic_store(&forwarding, 0);
        pthread_mutex_unlock(&forward_lock);
        if (count == 0) return NULL;
    }
}

/// At exit, standard error is the real one again and what the pipe still holds is passed on.
static void restore_stderr_at_exit(void) {
    pthread_mutex_lock(&forward_lock);
    atomic_store(&closing, 1);
    dup2(saved_stderr, STDERR_FILENO);
    close(pipe_write);
    char buffer[4096];
    ssize_t count;
    while ((count = read(pipe_read, buffer, sizeof buffer)) > 0) write_all(saved_stderr, buffer, (size_t)count);
    pthread_mutex_unlock(&forward_lock);
}

static bool capture_stderr(void) {
    if (isatty(STDERR_FILENO)) return false;
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return false;
    saved_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (saved_stderr < 0) {
        close(ends[0]);
        close(ends[1]);
        return false;
    }
    pipe_read = ends[0];
    pipe_write = ends[1];
    fcntl(pipe_read, F_SETFL, fcntl(pipe_read, F_GETFL) | O_NONBLOCK);
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    bool started = pthread_create(&thread, &attributes, forward_stderr, NULL) == 0;
    pthread_attr_destroy(&attributes);
    if (!started || dup2(pipe_write, STDERR_FILENO) < 0) {
        close(pipe_read);
        close(pipe_write);
        close(saved_stderr);
        saved_stderr = pipe_read = pipe_write = -1;
        return false;
    }
    atexit(restore_stderr_at_exit);
    return true;
}

// MARK: The record a signal writes

struct text {
    char bytes[RECORD_CAPACITY];
    size_t length;
};

static void put(struct text *text, const char *bytes, size_t count) {
    if (text->length + count > RECORD_CAPACITY) count = RECORD_CAPACITY - text->length;
    memcpy(text->bytes + text->length, bytes, count);
    text->length += count;
}

static void put_string(struct text *text, const char *string) { put(text, string, strlen(string)); }

static void put_number(struct text *text, long number) {
    char digits[24];
    size_t count = 0;
    unsigned long magnitude = number < 0 ? (unsigned long)(-(number + 1)) + 1 : (unsigned long)number;
    do {
        digits[sizeof digits - 1 - count++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0 && count < sizeof digits - 1);
    if (number < 0) digits[sizeof digits - 1 - count++] = '-';
    put(text, digits + sizeof digits - count, count);
}

/// The length of the valid UTF-8 sequence at `bytes` (at most `available` long), or 0.
static size_t utf8_length(const unsigned char *bytes, size_t available) {
    unsigned char first = bytes[0];
    size_t length = first >= 0xF0 && first <= 0xF4 ? 4 : first >= 0xE0 ? 3 : first >= 0xC2 && first < 0xE0 ? 2 : 0;
    if (length == 0 || length > available) return 0;
    for (size_t index = 1; index < length; index++) {
        if ((bytes[index] & 0xC0) != 0x80) return 0;
    }
    // C1 controls (U+0080–U+009F) are escaped like the C0 ones.
    if (length == 2 && first == 0xC2 && bytes[1] < 0xA0) return 0;
    return length;
}

/// `bytes` as a JSON string literal: control characters escaped, invalid UTF-8 as U+FFFD.
static void put_json_string(struct text *text, const char *bytes, size_t count) {
    static const char hex[] = "0123456789abcdef";
    put(text, "\"", 1);
    const unsigned char *input = (const unsigned char *)bytes;
    for (size_t index = 0; index < count;) {
        unsigned char byte = input[index];
        if (byte == '"' || byte == '\\') {
            char escaped[2] = {'\\', (char)byte};
            put(text, escaped, 2);
            index++;
        } else if (byte >= 0x20 && byte < 0x7F) {
            put(text, (const char *)&byte, 1);
            index++;
        } else if (byte >= 0x80) {
            size_t length = utf8_length(input + index, count - index);
            if (length > 0) {
                put(text, (const char *)input + index, length);
                index += length;
            } else {
                bool c1 = byte == 0xC2 && index + 1 < count && input[index + 1] >= 0x80 && input[index + 1] < 0xA0;
                unsigned int scalar = c1 ? input[index + 1] : 0xFFFD;
                char escaped[6] = {'\\', 'u', hex[(scalar >> 12) & 15], hex[(scalar >> 8) & 15], hex[(scalar >> 4) & 15],
                                   hex[scalar & 15]};
                put(text, escaped, 6);
                index += scalar == 0xFFFD ? 1 : 2;
            }
        } else {
            char escaped[6] = {'\\', 'u', '0', '0', hex[byte >> 4], hex[byte & 15]};
            put(text, escaped, 6);
            index++;
        }
    }
    put(text, "\"", 1);
}

static const char *signal_name(int signal) {
    switch (signal) {
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    default: return "a signal";
    }
}

static bool is_stop(int signal) { return signal == SIGTERM || signal == SIGINT; }

/// Where in `haystack` the last occurrence of `needle` starts, or -1.
static long last_occurrence(const char *haystack, size_t length, const char *needle) {
    size_t count = strlen(needle);
    if (count > length) return -1;
    for (size_t start = length - count + 1; start-- > 0;) {
        if (memcmp(haystack + start, needle, count) == 0) return (long)start;
    }
    return -1;
}

/// The fatal message the Swift runtime printed last (`FILE:LINE: Fatal error: …`), split into
/// its message and, when the line starts with one, its location.
struct fatal_message {
    const char *message;
    size_t message_length;
    const char *file;
    size_t file_length;
    long line;
};

static bool find_fatal_message(const char *bytes, size_t length, struct fatal_message *found) {
    static const char *const markers[] = {"Fatal error", "Precondition failed", "Assertion failed", "Unexpectedly found nil"};
    long best = -1;
    for (size_t index = 0; index < sizeof markers / sizeof markers[0]; index++) {
        long at = last_occurrence(bytes, length, markers[index]);
        if (at > best) best = at;
    }
    if (best < 0) return false;
    size_t start = (size_t)best;
    while (start > 0 && bytes[start - 1] != '\n') start--;
    size_t end = (size_t)best;
    while (end < length && bytes[end] != '\n') end++;
    // The message starts at the line's first marker (`Fatal error: Unexpectedly found nil…`).
    for (size_t index = 0; index < sizeof markers / sizeof markers[0]; index++) {
        long at = last_occurrence(bytes + start, end - start, markers[index]);
        if (at >= 0 && (long)start + at < best) best = (long)start + at;
    }
    *found = (struct fatal_message){.message = bytes + best, .message_length = end - (size_t)best, .line = -1};
    // `FILE:LINE: Fatal error: …`: the prefix before the marker is the location.
    size_t prefix = (size_t)best - start;
    if (prefix >= 4 && bytes[best - 2] == ':' && bytes[best - 1] == ' ') {
        size_t colon = (size_t)best - 2;
        size_t digits = colon;
        while (digits > start && bytes[digits - 1] >= '0' && bytes[digits - 1] <= '9') digits--;
        if (digits < colon && digits > start + 1 && bytes[digits - 1] == ':') {
            long line = 0;
            for (size_t index = digits; index < colon && line < 100000000; index++) line = line * 10 + (bytes[index] - '0');
            found->file = bytes + start;
            found->file_length = digits - 1 - start;
            found->line = line;
        }
    }
    return true;
}

/// What standard error said last: the forwarder's tail, then whatever is still in the pipe.
static size_t recent_stderr(char *into) {
    size_t length = 0;
    if (pipe_read < 0) return 0;
    for (int waits = 0; waits < 50 && atomic_load(&forwarding); waits++) {
        struct timespec pause = {.tv_sec = 0, .tv_nsec = 1000000};
        nanosleep(&pause, NULL);
    }
    length = atomic_load(&tail_length);
    if (length > TAIL_CAPACITY) length = TAIL_CAPACITY;
    memcpy(into, tail, length);
    char buffer[1024];
    ssize_t count;
    while ((count = read(pipe_read, buffer, sizeof buffer)) > 0) {
        write_all(saved_stderr, buffer, (size_t)count);
        remember(into, &length, TAIL_CAPACITY, buffer, (size_t)count);
    }
    return length;
}

/// Whether the file ends with a newline (or is empty).
static bool ends_with_newline(int descriptor) {
    struct stat status;
    if (descriptor < 0 || fstat(descriptor, &status) != 0 || status.st_size == 0) return true;
    char last = '\n';
    return pread(descriptor, &last, 1, status.st_size - 1) != 1 || last == '\n';
}

static int mark_slots(int signal, int first, int end);

static int mark_all(int signal) { return mark_slots(signal, 0, SLOT_COUNT); }

static int mark_slots(int signal, int first, int end) {
    static char recent[TAIL_CAPACITY];
    static struct text record;
    struct fatal_message fatal = {0};
    bool has_fatal = !is_stop(signal) && find_fatal_message(recent, recent_stderr(recent), &fatal);
    int marked = 0;
    for (int index = first; index < end; index++) {
        if (atomic_load(&slots[index].state) != SLOT_LIVE) continue;
        int descriptor = atomic_load(&slots[index].descriptor);
        record.length = 0;
        // A record cut short by the signal is ended first, so this one is a line of its own.
        if (!ends_with_newline(descriptor)) put_string(&record, "\n");
        put_string(&record, "{\"type\":\"failure\",\"after\":");
        put_number(&record, atomic_load(&slots[index].last_turn));
        put_string(&record, ",\"test\":");
        put_string(&record, slots[index].test_json);
        put_string(&record, is_stop(signal) ? ",\"kind\":\"terminated\",\"message\":" : ",\"kind\":\"crash\",\"message\":");
        if (is_stop(signal)) {
            put_string(&record, "\"not finished: terminated by ");
            put_string(&record, signal_name(signal));
            put_string(&record, "\"");
        } else if (has_fatal) {
            put_json_string(&record, fatal.message, fatal.message_length);
        } else {
            put_string(&record, "\"crashed with ");
            put_string(&record, signal_name(signal));
            put_string(&record, "\"");
        }
        put_string(&record, ",\"file\":");
        if (has_fatal && fatal.file != NULL) {
            put_json_string(&record, fatal.file, fatal.file_length);
            put_string(&record, ",\"line\":");
            put_number(&record, fatal.line);
        } else {
            put_string(&record, "null,\"line\":null");
        }
        put_string(&record, ",\"signal\":\"");
        put_string(&record, signal_name(signal));
        put_string(&record, "\"}\n");
        if (descriptor >= 0 && atomic_load(&slots[index].state) == SLOT_LIVE &&
            write_all(descriptor, record.bytes, record.length)) {
            marked++;
        }
    }
    return marked;
}

// MARK: The rescue, on a thread of the guard's own

static cog_trace_guard_rescue_function _Atomic rescue_function;
static int rescue_pipe[2] = {-1, -1};
static _Atomic unsigned long rescues_requested;
static _Atomic unsigned long rescues_done;
static _Thread_local int is_rescue_thread;

void cog_trace_guard_set_rescue(cog_trace_guard_rescue_function rescue) { atomic_store(&rescue_function, rescue); }

static void *run_rescues(void *unused) {
    (void)unused;
    is_rescue_thread = 1;
    for (;;) {
        unsigned char signal;
        ssize_t count = read(rescue_pipe[0], &signal, 1);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return NULL;
        cog_trace_guard_rescue_function rescue = atomic_load(&rescue_function);
        if (rescue != NULL) rescue(signal);
        atomic_fetch_add(&rescues_done, 1);
    }
}

static void start_rescue_thread(void) {
    if (pipe2(rescue_pipe, O_CLOEXEC) != 0) return;
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&thread, &attributes, run_rescues, NULL) != 0) {
        close(rescue_pipe[0]);
        close(rescue_pipe[1]);
        rescue_pipe[0] = rescue_pipe[1] = -1;
    }
    pthread_attr_destroy(&attributes);
}

/// Asks the rescue thread to run and waits for it: a byte down a pipe, then short sleeps.
static void request_rescue(int signal) {
    if (rescue_pipe[1] < 0 || is_rescue_thread || atomic_load(&rescue_function) == NULL) return;
    unsigned long ticket = atomic_fetch_add(&rescues_requested, 1) + 1;
    unsigned char byte = (unsigned char)signal;
    if (!write_all(rescue_pipe[1], (const char *)&byte, 1)) return;
    for (int waits = 0; waits < 300 && atomic_load(&rescues_done) < ticket; waits++) {
        struct timespec pause = {.tv_sec = 0, .tv_nsec = 10000000};
        nanosleep(&pause, NULL);
    }
}

static int handle(int signal) {
    request_rescue(signal);
    return mark_all(signal);
}

bool cog_trace_guard_mark_for_testing(int slot, int signal) {
    return slot >= 0 && slot < SLOT_COUNT && mark_slots(signal, slot, slot + 1) == 1;
}

// MARK: The handler

static const int guarded_signals[] = {SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGTERM, SIGINT};
static struct sigaction previous_actions[NSIG];
static _Atomic int handling;
static _Atomic int installed;

static void guard_handler(int signal, siginfo_t *info, void *context) {
    int saved_errno = errno;
    if (atomic_exchange(&handling, 1) == 0) {
        handle(signal);
        // What is printed from here on (the runtime's backtrace, the runner's last words) goes
        // straight to the real standard error: nothing forwards the pipe any more.
        if (saved_stderr >= 0) dup2(saved_stderr, STDERR_FILENO);
    }
    struct sigaction previous = previous_actions[signal];
    sigaction(signal, &previous, NULL);
    if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction != NULL) {
        previous.sa_sigaction(signal, info, context);
    } else if (previous.sa_handler == SIG_DFL) {
        // Blocked while this handler runs, so it is delivered, with its default action, as the
        // handler returns.
        raise(signal);
    } else if (previous.sa_handler != SIG_IGN) {
        previous.sa_handler(signal);
    }
    errno = saved_errno;
}

void cog_trace_guard_install(void) {
    if (atomic_exchange(&installed, 1) != 0) return;
    capture_stderr();
    start_rescue_thread();
    for (size_t index = 0; index < sizeof guarded_signals / sizeof guarded_signals[0]; index++) {
        int signal = guarded_signals[index];
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = guard_handler;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
        sigemptyset(&action.sa_mask);
        sigaction(signal, &action, &previous_actions[signal]);
        // A signal the process was started ignoring (SIGINT under `nohup`) stays ignored.
        if (is_stop(signal) && previous_actions[signal].sa_handler == SIG_IGN) {
            sigaction(signal, &previous_actions[signal], NULL);
        }
    }
}
