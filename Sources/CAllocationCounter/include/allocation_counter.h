#ifndef COG_ALLOCATION_COUNTER_H
#define COG_ALLOCATION_COUNTER_H

#include <stdint.h>

/// How many heap allocations (malloc, calloc, realloc of a new block, and the aligned forms)
/// the calling thread has made since it started. Linked into `cog-bench` only: the target defines
/// the C allocation functions, so the dynamic linker binds every library's calls to them, and
/// each one counts and forwards to glibc's own allocator.
uint64_t cog_allocation_count(void);

#endif
