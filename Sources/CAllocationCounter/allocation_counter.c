// Counting wrappers over glibc's allocator, for cog-bench's allocations per selector run.
// glibc exports its implementation under __libc_* names, so these definitions (which take
// precedence over libc's for every library in the process) count and forward. Each thread
// counts its own allocations in a thread-local counter, so they are safe from any thread and
// from inside glibc itself, and no cache line passes between cores: one counter shared by
// every thread was a locked add on a line the stream writer's thread took from the app's at
// each allocation, which slowed the streamed runs this bench times and no real app's.
#include "allocation_counter.h"

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static __thread uint64_t allocations;

static inline void count_one(void) { allocations += 1; }

uint64_t cog_allocation_count(void) { return allocations; }

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    if (pointer == NULL) count_one();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    // posix_memalign's own contract: a power of two, a multiple of sizeof(void *).
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count_one();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *out = pointer;
    return 0;
}
