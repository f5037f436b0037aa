/// The state a value reference names: a declaration and, for a keyed box, a key.
///
/// Apps never build or inspect one; it is how the runtime finds a reference's state.
nonisolated public struct CogAddress<Value> {
    @usableFromInline let descriptor: Descriptor<Value>
    @usableFromInline let key: StateKey?
}

/// A value reference: something that names one readable state, such as an automatic `Cog`, a
/// `.readOnly` projection, or `box[key]`.
///
/// Read it with `c[ref]` in a selector or reaction, `cogs[ref]` at the UI edge, or `peek(ref)`.
nonisolated public protocol CogReference<Value> {
    /// The type a read returns.
    associatedtype Value
    /// The state this reference names.
    var address: CogAddress<Value> { get }
}

/// A reference to a writable source (`.Manual`): a `Writer` may assign it inside a turn.
nonisolated public protocol CogSourceReference<Value>: CogReference {}

/// The reference `box[key]` returns for an automatic box or a read-only projection of a manual box.
nonisolated public struct CogBoxReference<Value>: CogReference {
    public let address: CogAddress<Value>
}

/// The reference `box[key]` returns for a manual box: readable and writable in a turn.
nonisolated public struct CogBoxSourceReference<Value>: CogSourceReference {
    public let address: CogAddress<Value>
}

/// A reference to an async state (`.Async`): readable, and also through the status lens and
/// `refresh`.
nonisolated public protocol CogAsyncReference<Value>: CogReference {}

/// The reference `box[key]` returns for an async box.
nonisolated public struct CogBoxAsyncReference<Value>: CogAsyncReference {
    public let address: CogAddress<Value>
}
