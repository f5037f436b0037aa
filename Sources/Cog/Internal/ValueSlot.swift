#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Room for one value, as a state keeps its value and its staged write.
///
/// On Linux the standard library's `allocate(capacity:)` asks the C allocator for an aligned
/// block (`memalign`) for every type, which costs about twice a plain `malloc`; every state pays
/// it once. glibc's and musl's `malloc` return blocks aligned to at least two words (16 bytes
/// on a 64-bit platform), so a value needing no more than that gets a plain block.
@usableFromInline
nonisolated enum ValueSlot {
    /// The largest alignment `malloc` is relied on to give: two words.
    private static let mallocAlignment = 2 * MemoryLayout<Int>.size

    /// An uninitialized slot for one `Value`.
    @usableFromInline
    static func allocate<Value>(_ type: Value.Type) -> UnsafeMutablePointer<Value> {
        #if canImport(Glibc) || canImport(Musl)
            if MemoryLayout<Value>.alignment <= mallocAlignment,
                let block = malloc(max(MemoryLayout<Value>.size, 1))
            {
                return block.bindMemory(to: Value.self, capacity: 1)
            }
        #endif
        return .allocate(capacity: 1)
    }

    /// Puts `value` in `slot`: assigned over the value there, or initializing the slot (and
    /// noting it) when `isInitialized` is false.
    @inlinable
    static func put<Value>(_ value: Value, in slot: UnsafeMutablePointer<Value>, isInitialized: inout Bool) {
        if isInitialized {
            slot.pointee = value
        } else {
            slot.initialize(to: value)
            isInitialized = true
        }
    }

    /// Frees a slot `allocate` gave (its value already deinitialized).
    @usableFromInline
    static func deallocate<Value>(_ slot: UnsafeMutablePointer<Value>) {
        #if canImport(Glibc) || canImport(Musl)
            if MemoryLayout<Value>.alignment <= mallocAlignment {
                free(slot)
                return
            }
        #endif
        slot.deallocate()
    }
}
