import CogTraceFormat
import Dispatch
import Synchronization

/// A checksum of every byte of a trace's first `size` bytes, fast enough to verify a
/// gigabyte-sized trace each time its sidecar index is reopened: the bytes are cut into
/// regions hashed on every core at once, four 64-bit lanes each (a multiply-rotate round per
/// word, as the xxHash family does), and the regions' hashes are folded in order. Any changed,
/// moved or swapped byte changes it (short of a collision, about 2^-64); it is not a defence
/// against someone forging an index.
enum TraceChecksum {
    /// How many bytes one region covers: big enough that starting a region costs nothing,
    /// small enough that two cores share a 100 MB trace evenly.
    static let regionLength = 4 << 20

    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9

    /// The checksum of `bytes[0..<size]` (`size` at most `bytes.count`).
    static func of(_ bytes: TraceBytes, covering size: Int) -> UInt64 {
        let size = min(max(size, 0), bytes.count)
        let regions = (size + regionLength - 1) / regionLength
        let hashes = Mutex([UInt64](repeating: 0, count: regions))
        let stripes = min(regions, 8)
        DispatchQueue.concurrentPerform(iterations: stripes) { stripe in
            var region = stripe
            while region < regions {
                let range = (region * regionLength)..<min(size, (region + 1) * regionLength)
                let hash = bytes.withUnsafeBufferPointer { buffer in
                    regionHash(
                        UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[range])), seed: UInt64(region))
                }
                // Hashing a mapped file pages it in: the pages are given back as a scan's are.
                bytes.noteRead(range.count)
                hashes.withLock { $0[region] = hash }
                region += stripes
            }
        }
        return hashes.withLock { hashes in
            var total = mix(UInt64(size) &* prime3)
            for hash in hashes { total = mix(total ^ hash) &* prime1 }
            return total
        }
    }

    /// One region's hash: four lanes over 32-byte blocks, then the remaining bytes one by one.
    private static func regionHash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var lanes = (seed &+ prime1 &+ prime2, seed &+ prime2, seed, seed &- prime1)
        let blocks = bytes.count / 32
        for block in 0..<blocks {
            let offset = block * 32
            lanes.0 = round(lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            lanes.1 = round(lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            lanes.2 = round(lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            lanes.3 = round(lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
        }
        var hash = rotate(lanes.0, 1) &+ rotate(lanes.1, 7) &+ rotate(lanes.2, 12) &+ rotate(lanes.3, 18)
        hash ^= UInt64(bytes.count)
        for offset in (blocks * 32)..<bytes.count {
            hash = rotate(hash ^ (UInt64(bytes[offset]) &* prime3), 11) &* prime1
        }
        return mix(hash)
    }

    @inline(__always)
    private static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        rotate(lane &+ word &* prime2, 31) &* prime1
    }

    @inline(__always)
    private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    /// Spreads every bit of `value` over all the others, so lanes and regions fold well.
    private static func mix(_ value: UInt64) -> UInt64 {
        var value = value
        value ^= value >> 33
        value = value &* prime2
        value ^= value >> 29
        value = value &* prime3
        return value ^ (value >> 32)
    }

    /// A checksum computed on other threads while the caller goes on; `wait()` gives it.
    final class Background: Sendable {
        private let group = DispatchGroup()
        private let result = Mutex<UInt64>(0)

        /// Starts computing the checksum of `bytes[0..<size]`.
        init(_ bytes: TraceBytes, covering size: Int) {
            DispatchQueue.global().async(group: group) {
                let checksum = TraceChecksum.of(bytes, covering: size)
                self.result.withLock { $0 = checksum }
            }
        }

        /// The checksum, once computed (at once, after the first wait).
        @discardableResult
        func wait() -> UInt64 {
            group.wait()
            return result.withLock { $0 }
        }
    }
}
