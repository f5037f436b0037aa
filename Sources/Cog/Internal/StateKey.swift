/// The key of a keyed state as the runtime holds it: an `Int` as itself, any other key boxed in
/// `AnyHashable`.
///
/// Most keys are integers (ids, indices, rows). Found by an `AnyHashable`, an integer key cost a
/// dynamic cast at every comparison (the box makes `1` and `Int8(1)` equal by converting both),
/// about a third of a keyed read. A declaration's keys all have one type, so its states are all
/// of one form and an integer never meets a boxed key in one table.
@usableFromInline
nonisolated struct StateKey: Hashable {
    /// The key, when it is an `Int`.
    @usableFromInline let integer: Int
    /// Any other key; nil for an `Int`.
    @usableFromInline let boxed: AnyHashable?

    /// Holds `key`, an `Int` without boxing it. Only a key whose static type is `Int`: an
    /// `AnyHashable` or optional key is boxed as it always was, so `AnyHashable(3)` and
    /// `AnyHashable(Int8(3))` still name one state. Inlined into a declaration's subscript,
    /// where the key's type is known and the check costs nothing.
    @inlinable
    init<Key: Hashable>(_ key: Key) {
        if Key.self == Int.self {
            integer = unsafeBitCast(key, to: Int.self)
            boxed = nil
        } else {
            integer = 0
            boxed = AnyHashable(key)
        }
    }

    @inlinable
    static func == (lhs: StateKey, rhs: StateKey) -> Bool {
        lhs.integer == rhs.integer && lhs.boxed == rhs.boxed
    }

    @inlinable
    func hash(into hasher: inout Hasher) {
        if let boxed {
            hasher.combine(boxed)
        } else {
            hasher.combine(integer)
        }
    }

    /// The key as the declaration's selector or starting value receives it.
    func value<Key>(as type: Key.Type) -> Key {
        if let boxed { return boxed.base as! Key }
        return integer as! Key
    }

    /// The key as labels and traces show it: its description, with the common key types rendered
    /// without the dynamic casts `String(describing:)` makes.
    var text: String {
        guard let boxed else { return String(integer) }
        switch boxed.base {
        case let text as String: return text
        default: return String(describing: boxed.base)
        }
    }
}
