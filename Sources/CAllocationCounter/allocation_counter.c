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
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static __thread uint64_t allocations;

static inline void count_one(void) { allocations += 1; }

uint64_t cog_allocation_count(void) { return allocations; }

// With COG_BENCH_EXACT_ALLOCATIONS=1, every request is rounded so that glibc's chunk is a
// multiple of 32 bytes. glibc hands out a free chunk whole when what is left over would be
// under 32 bytes, so a block's usable size (which Swift's arrays read to set their capacity)
// depended on which chunks happened to be free, and so did how often an array grew: a run's
// count moved by a few from one run to the next. With every chunk a multiple of 32, a leftover
// is either nothing or big enough to split, and the usable size is the request's.
static int exact_sizes;

__attribute__((constructor)) static void read_mode(void) {
    const char *mode = getenv("COG_BENCH_EXACT_ALLOCATIONS");
    exact_sizes = mode != NULL && strcmp(mode, "1") == 0;
}

// A request whose chunk (request + 8 bytes of header, rounded up to 16) is a multiple of 32.
static inline size_t rounded(size_t size) {
    if (!exact_sizes || size > ((size_t)1 << 40)) return size;
    return (size + 8 + 31) / 32 * 32 - 8;
}

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(rounded(size));
}

void *calloc(size_t count, size_t size) {
    count_one();
    if (exact_sizes && size != 0 && count > ((size_t)1 << 40) / size) return __libc_calloc(count, size);
    return __libc_calloc(1, rounded(count * size));
}

void *realloc(void *pointer, size_t size) {
    if (pointer == NULL) count_one();
    return __libc_realloc(pointer, rounded(size));
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, rounded(size));
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, rounded(size));
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    // posix_memalign's own contract: a power of two, a multiple of sizeof(void *).
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count_one();
    void *pointer = __libc_memalign(alignment, rounded(size));
    if (pointer == NULL) return ENOMEM;
    *out = pointer;
    return 0;
}
