import CogTraceFormat
import Foundation

/// The event kinds one scan has met, each with a small code: a record spells its kind as text
/// (`"recompute"`), and a scan over millions of events compares a fingerprint, not strings.
struct EventKindTable {
    /// The most kinds the table codes; later ones all get code 0.
    static let capacity = 127

    /// Kind names, in the order met: code `n` is `names[n - 1]`.
    private(set) var names: [[UInt8]] = []
    /// The same names as strings, made once each.
    private(set) var strings: [String] = []
    private var fingerprints: [UInt32] = []

    /// A table that knows nothing yet.
    init() {}

    /// A table that gives `names` the codes 1, 2, … in order, so scans seeded alike agree on
    /// the codes of the kinds they share.
    init(seeding names: [String]) {
        for name in names.prefix(Self.capacity) {
            let bytes = Array(name.utf8)
            _ = bytes.withUnsafeBufferPointer { code(of: 0..<bytes.count, in: $0) }
        }
    }

    /// The code (from 1) of the kind spelled by `range` of `bytes`, adding it when new; 0 once
    /// the table is full.
    mutating func code(of range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let name = UnsafeBufferPointer(rebasing: bytes[range])
        // Length and three bytes rule out almost every other kind before the bytes are compared.
        let fingerprint =
            name.isEmpty
            ? 0
            : UInt32(truncatingIfNeeded: name.count) << 24 | UInt32(name[0]) << 16
                | UInt32(name[name.count / 2]) << 8 | UInt32(name[name.count - 1])
        for (index, known) in fingerprints.enumerated() where known == fingerprint {
            let same =
                names[index].count == name.count
                && names[index].withUnsafeBytes { known in
                    guard let known = known.baseAddress, let base = name.baseAddress else { return name.isEmpty }
                    return memcmp(known, base, name.count) == 0
                }
            if same { return index + 1 }
        }
        guard names.count < Self.capacity else { return 0 }
        names.append(Array(name))
        strings.append(String(decoding: name, as: UTF8.self))
        fingerprints.append(fingerprint)
        return names.count
    }

    /// The kind's name for `code`, or "?" for code 0.
    func name(_ code: Int) -> String {
        code == 0 ? "?" : strings[code - 1]
    }
}
