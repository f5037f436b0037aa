import CTraceMapping
import CogTraceFormat
import Foundation
import Synchronization

/// A trace file's bytes: mapped from the file, so the reader keeps only its indexes in the heap
/// and the kernel pages the text in as it is read (and out again: see `releaseResidentPages`),
/// or held in an array (a text parsed in memory, a file still being written, which a follower
/// extends).
struct TraceBytes: Sendable {
    /// The file mapped read-only; unmapped when the last copy of the bytes goes.
    ///
    /// `@unchecked Sendable`: the mapping is `PROT_READ` and never written, so any thread may
    /// read it at once; `munmap` runs only in `deinit`, when no copy (and so no reader) is left.
    /// A read past the end of a file that shrank meanwhile reads zeros (`CTraceMapping` puts
    /// zero pages there), and `cutShort` says so.
    private final class Mapping: @unchecked Sendable {
        let base: UnsafeRawPointer
        let count: Int
        /// The bytes read since the resident pages were last given back.
        let touched = Atomic<Int>(0)
        /// The `CTraceMapping` slot that protects the mapping.
        let slot: Int32
        /// The mapped file, kept open to tell its size now.
        let descriptor: Int32

        init(base: UnsafeRawPointer, count: Int, slot: Int32, descriptor: Int32) {
            self.base = base
            self.count = count
            self.slot = slot
            self.descriptor = descriptor
        }

        /// The file's size now, when it is smaller than what was mapped, or when a read found
        /// the mapping's end gone: what it holds past that size can no longer be read.
        var cutShort: TraceFileChange? {
            var status = stat()
            let now = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
            guard now < count || cog_trace_mapping_was_cut(slot) else { return nil }
            return TraceFileChange(mappedSize: count, sizeNow: now)
        }

        deinit {
            cog_trace_mapping_unregister(slot)
            munmap(UnsafeMutableRawPointer(mutating: base), count)
            close(descriptor)
        }
    }

    private enum Storage: Sendable {
        case array([UInt8])
        case mapped(Mapping)
    }

    private var storage: Storage

    /// Bytes held in an array.
    init(_ array: [UInt8]) { storage = .array(array) }

    /// The file at `descriptor` (of `size` bytes) mapped read-only; nil when the system will not
    /// map it (an empty file, a file system without mapping).
    static func mapping(_ descriptor: Int32, size: Int) -> TraceBytes? {
        guard size > 0 else { return nil }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let address, address != MAP_FAILED else { return nil }
        let kept = dup(descriptor)
        let slot = kept >= 0 ? cog_trace_mapping_register(address, size) : -1
        guard slot >= 0 else {
            // Unprotected, a file cut shorter under the mapping would kill the process: read it.
            if kept >= 0 { close(kept) }
            munmap(address, size)
            return nil
        }
        var bytes = TraceBytes([])
        bytes.storage = .mapped(Mapping(base: UnsafeRawPointer(address), count: size, slot: slot, descriptor: kept))
        return bytes
    }

    /// For a mapped file that shrank since it was mapped, how: its bytes past the new end read
    /// as zeros. Nil for bytes in an array, which nothing changes under.
    var cutShort: TraceFileChange? {
        guard case .mapped(let mapping) = storage else { return nil }
        return mapping.cutShort
    }

    /// Whether the bytes are a mapped file.
    var isMapped: Bool {
        if case .mapped = storage { return true }
        return false
    }

    var count: Int {
        switch storage {
        case .array(let array): array.count
        case .mapped(let mapping): mapping.count
        }
    }

    var isEmpty: Bool { count == 0 }

    subscript(position: Int) -> UInt8 {
        switch storage {
        case .array(let array): array[position]
        case .mapped(let mapping):
            mapping.base.load(fromByteOffset: Self.checked(position, mapping.count), as: UInt8.self)
        }
    }

    /// The bytes of `range` as an array slice (a copy, for a mapped file): what one line's
    /// parse reads.
    subscript(range: Range<Int>) -> ArraySlice<UInt8> {
        switch storage {
        case .array(let array): return array[range]
        case .mapped(let mapping):
            precondition(range.lowerBound >= 0 && range.upperBound <= mapping.count, "a range past the trace's end")
            return ArraySlice(
                UnsafeBufferPointer(
                    start: mapping.base.assumingMemoryBound(to: UInt8.self) + range.lowerBound, count: range.count))
        }
    }

    /// Calls `body` with the bytes in place.
    func withUnsafeBufferPointer<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        switch storage {
        case .array(let array):
            // `withUnsafeBufferPointer` rethrows untyped; the typed error is carried out by hand.
            let outcome: Swift.Result<Result, Failure> = array.withUnsafeBufferPointer { buffer in
                do throws(Failure) {
                    return .success(try body(buffer))
                } catch {
                    return .failure(error)
                }
            }
            return try outcome.get()
        case .mapped(let mapping):
            return try body(
                UnsafeBufferPointer(start: mapping.base.assumingMemoryBound(to: UInt8.self), count: mapping.count))
        }
    }

    /// Adds bytes at the end (a followed file growing); a mapped file is copied into an array first.
    mutating func append(contentsOf arrived: [UInt8]) {
        switch storage {
        case .array(var array):
            storage = .array([])
            array.append(contentsOf: arrived)
            storage = .array(array)
        case .mapped(let mapping):
            var array = [UInt8](
                UnsafeBufferPointer(start: mapping.base.assumingMemoryBound(to: UInt8.self), count: mapping.count))
            array.append(contentsOf: arrived)
            storage = .array(array)
        }
    }

    /// The bytes as an array (a copy, for a mapped file).
    var array: [UInt8] {
        switch storage {
        case .array(let array): array
        case .mapped(let mapping):
            [UInt8](UnsafeBufferPointer(start: mapping.base.assumingMemoryBound(to: UInt8.self), count: mapping.count))
        }
    }

    /// The bytes up to the first line feed: the header's line.
    var firstLine: [UInt8] {
        withUnsafeBufferPointer { buffer in Array(buffer.prefix { $0 != 0x0A }) }
    }

    /// Whether the last line that is not blank is a trailer record: the writer finished, so
    /// the file will not change (a file still being written is read into memory instead of
    /// mapped, as a mapping of a file cut shorter under it would fault).
    var endsWithTrailer: Bool {
        withUnsafeBufferPointer { buffer in
            var end = buffer.count
            while end > 0, buffer[end - 1] == 0x0A || buffer[end - 1] == 0x0D || buffer[end - 1] == 0x20 { end -= 1 }
            var start = end
            while start > 0, buffer[start - 1] != 0x0A, end - start < 4096 { start -= 1 }
            return buffer[start..<end].starts(with: Array(#"{"type":"trailer""#.utf8))
        }
    }

    /// Notes that a scan read `count` more bytes, and once that passes `residentLimit`, gives
    /// the pages read back to the kernel (they stay in its cache, and a later read maps them
    /// again): a walk over a 4 GB file then keeps a few hundred MB resident, not 4 GB.
    func noteRead(_ count: Int) {
        guard case .mapped(let mapping) = storage else { return }
        let total = mapping.touched.wrappingAdd(count, ordering: .relaxed).newValue
        // One thread of those passing the limit together gives the pages back.
        guard total >= Self.residentLimit,
            mapping.touched.compareExchange(expected: total, desired: 0, ordering: .relaxed).exchanged
        else { return }
        releaseResidentPages()
    }

    /// Gives every resident page of a mapped file back to the kernel: nothing is lost (the
    /// mapping is read-only and private), the next read faults the page in again.
    func releaseResidentPages() {
        guard case .mapped(let mapping) = storage else { return }
        madvise(UnsafeMutableRawPointer(mutating: mapping.base), mapping.count, MADV_DONTNEED)
    }

    /// How many bytes a scan reads between two releases of the resident pages.
    static let residentLimit = 64 << 20

    private static func checked(_ position: Int, _ count: Int) -> Int {
        precondition(position >= 0 && position < count, "a position past the trace's end")
        return position
    }
}
