import Cog

/// One kept event in 32 bytes with no references, so a segment of them is a single allocation
/// that is freed whole, with nothing to release one by one.
///
/// The busy kinds live here entirely. A value of `Int`, `Bool` or `Double` sits in `old`/`new`
/// as its bits; any other value is boxed once into its segment's `boxed` table and named by
/// index. A dependency list is a run of its segment's `producers`; a lease holder is the address
/// and length of its static string; a grace period is its two words in `old` and `new`; a
/// created state's description is the recorder's, by state. Every other event is kept whole
/// in the segment's `whole` table, which `old` indexes.
struct PackedEvent {
    enum Kind: UInt8 {
        case stateCreated, recompute, write, dependencies, notice, reactionRun, leaseRenewed, graceScheduled, whole
    }

    /// How a value slot (`old` or `new`) holds its value.
    enum Slot: UInt8 {
        case none, int, bool, double, boxed
    }

    var kind: Kind
    /// Bits 0–2: the `old` slot; 3–5: the `new` slot; 6: changed; 7: has a trigger.
    var flags: UInt8 = 0
    var state: UInt32 = 0
    var trigger: UInt32 = 0
    var old: UInt64 = 0
    var new: UInt64 = 0

    init(kind: Kind, state: UInt32) {
        self.kind = kind
        self.state = state
    }

    var oldSlot: Slot { Slot(rawValue: flags & 0b111) ?? .none }
    var newSlot: Slot { Slot(rawValue: (flags >> 3) & 0b111) ?? .none }
    var changed: Bool { flags & 0b0100_0000 != 0 }
    var hasTrigger: Bool { flags & 0b1000_0000 != 0 }

    mutating func setOld(_ slot: Slot, _ bits: UInt64) {
        flags = flags & ~0b111 | slot.rawValue
        old = bits
    }

    mutating func setNew(_ slot: Slot, _ bits: UInt64) {
        flags = flags & ~0b11_1000 | slot.rawValue << 3
        new = bits
    }

    mutating func setChanged(_ changed: Bool, trigger: UInt32?) {
        if changed { flags |= 0b0100_0000 }
        if let trigger {
            flags |= 0b1000_0000
            self.trigger = trigger
        }
    }
}
