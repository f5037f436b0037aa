#include "cog_trace_mapping.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// Slots are claimed and released by readers and read by the handler: every field is atomic, and
// a slot's range is published (`base` last) only once `length` is set.
enum { SLOT_COUNT = 64 };

struct slot {
    _Atomic uintptr_t base;
    _Atomic size_t length;
    _Atomic int cut;
    _Atomic int claimed;
};

static struct slot slots[SLOT_COUNT];
static struct sigaction previous_action;
static _Atomic int installed;

/// The slot whose mapping holds `address`, or -1.
static int slot_holding(uintptr_t address) {
    for (int index = 0; index < SLOT_COUNT; index++) {
        uintptr_t base = atomic_load(&slots[index].base);
        if (base == 0) continue;
        size_t length = atomic_load(&slots[index].length);
        if (address >= base && address - base < length) return index;
    }
    return -1;
}

/// Async-signal-safe: atomics, `sysconf` of a constant, `mmap`, `sigaction` and `raise` only.
static void handler(int signal, siginfo_t *info, void *context) {
    int saved_errno = errno;
    uintptr_t address = (uintptr_t)info->si_addr;
    int index = slot_holding(address);
    if (index >= 0) {
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t base = atomic_load(&slots[index].base);
        uintptr_t end = base + atomic_load(&slots[index].length);
        uintptr_t start = address & ~(page - 1);
        size_t length = ((end + page - 1) & ~(page - 1)) - start;
        // Zero pages over the faulting page and everything after it: the file ends before them,
        // so none of them can be read from it any more.
        void *placed = mmap((void *)start, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (placed != MAP_FAILED) {
            atomic_store(&slots[index].cut, 1);
            errno = saved_errno;
            return;
        }
    }
    // Not a read of a protected mapping: whoever handled SIGBUS before handles it.
    sigaction(signal, &previous_action, NULL);
    if ((previous_action.sa_flags & SA_SIGINFO) && previous_action.sa_sigaction != NULL) {
        previous_action.sa_sigaction(signal, info, context);
    } else if (previous_action.sa_handler == SIG_DFL) {
        // Blocked while this handler runs, so delivered with its default action as it returns.
        raise(signal);
    } else if (previous_action.sa_handler != SIG_IGN) {
        previous_action.sa_handler(signal);
    }
    errno = saved_errno;
}

static bool install(void) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&installed, &expected, 1)) return atomic_load(&installed) == 2;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = handler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&action.sa_mask);
    bool done = sigaction(SIGBUS, &action, &previous_action) == 0;
    atomic_store(&installed, done ? 2 : 3);
    return done;
}

int cog_trace_mapping_register(const void *base, size_t length) {
    if (base == NULL || length == 0) return -1;
    // A second thread installing at once waits for the first to finish.
    while (atomic_load(&installed) == 1) {}
    if (!install()) return -1;
    for (int index = 0; index < SLOT_COUNT; index++) {
        int free_slot = 0;
        if (!atomic_compare_exchange_strong(&slots[index].claimed, &free_slot, 1)) continue;
        atomic_store(&slots[index].cut, 0);
        atomic_store(&slots[index].length, length);
        atomic_store(&slots[index].base, (uintptr_t)base);
        return index;
    }
    return -1;
}

void cog_trace_mapping_unregister(int slot) {
    if (slot < 0 || slot >= SLOT_COUNT) return;
    atomic_store(&slots[slot].base, 0);
    atomic_store(&slots[slot].length, 0);
    atomic_store(&slots[slot].claimed, 0);
}

bool cog_trace_mapping_was_cut(int slot) {
    if (slot < 0 || slot >= SLOT_COUNT) return false;
    return atomic_load(&slots[slot].cut) != 0;
}
