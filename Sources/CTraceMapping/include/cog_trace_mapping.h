#ifndef COG_TRACE_MAPPING_H
#define COG_TRACE_MAPPING_H

#include <stdbool.h>
#include <stddef.h>

/// Protects a read-only mapping of a trace file from the file shrinking under it: a read past
/// the file's new end raises SIGBUS, which this module's handler answers by putting zero-filled
/// pages over the rest of the mapping and noting it, so the read goes on (over zeros) and the
/// reader can say the file changed instead of the process dying. Returns the slot to pass to the
/// other calls, or -1 when every slot is taken or the handler cannot be installed (the caller
/// then reads the file into memory instead of mapping it).
int cog_trace_mapping_register(const void *base, size_t length);

/// Stops protecting the mapping of `slot`; called before the mapping is unmapped.
void cog_trace_mapping_unregister(int slot);

/// Whether a read of the mapping of `slot` went past the file's end since it was registered.
bool cog_trace_mapping_was_cut(int slot);

#endif
