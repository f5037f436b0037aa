public import Cog
import CogTrace

/// One of the app's declarations as a replay test knows it: by the label a trace gives its
/// states, with a way to read any of them and, for a source, to write a recorded value back.
///
/// An app keeps its `.Manual` sources private and publishes `.readOnly`; `source(_:)` takes that
/// projection, so the test writes what the app's own ops wrote without the app exposing more.
public struct CogReplayDeclaration {
    /// The label without a key: `tipJar.totalCents`, `weather.forecast`.
    public let declaration: String
    /// Reads the state with the key whose trace text is given (nil for a keyless state).
    let read: (Cogs, String?) throws -> Void
    /// Writes recorded values back, for a source.
    let writer: CogSourceWriter?
    /// Whether replay can write (and seed) this declaration's states.
    public var isWritable: Bool { writer != nil }
    /// Starts a refresh of the state with the given key text, for an async state.
    var refresh: ((Cogs, String?) throws -> Void)? = nil

    /// A keyless state replay reads to check its value: an automatic `Cog`, an async state, or a
    /// source's projection read only.
    public static func state(_ reference: some CogReference) -> Self {
        Self(declaration: reference.address.traceLabel, read: { cogs, _ in _ = cogs.peek(reference) }, writer: nil)
    }

    /// A keyed family replay reads to check its values; keys are read back from their trace text.
    public static func family<Value, Key: Decodable>(_ box: CogBox<Value, Key>) -> Self {
        Self(
            declaration: box.traceLabel, read: { cogs, text in _ = cogs.peek(box[try key(text, as: Key.self)]) },
            writer: nil)
    }

    /// A keyed async family replay reads, refreshes when the recording does, and answers with
    /// the recorded outcomes.
    public static func family<Value, Key: Decodable>(_ box: CogBox<Value, Key>.Async) -> Self {
        Self(
            declaration: box.traceLabel, read: { cogs, text in _ = cogs.peek(box[try key(text, as: Key.self)]) },
            writer: nil, refresh: { cogs, text in cogs.refresh(box[try key(text, as: Key.self)]) })
    }

    /// A keyless async state replay reads, refreshes when the recording does, and answers with
    /// the recorded outcomes.
    public static func state<Reference: CogAsyncReference>(_ reference: Reference) -> Self {
        Self(
            declaration: reference.address.traceLabel, read: { cogs, _ in _ = cogs.peek(reference) }, writer: nil,
            refresh: { cogs, _ in cogs.refresh(reference) })
    }

    /// A keyless source replay writes with the recorded values, through the projection the app publishes.
    public static func source<Value: Decodable>(_ projection: Cog<Value>.Projection) -> Self {
        Self(
            declaration: projection.address.traceLabel, read: { cogs, _ in _ = cogs.peek(projection) },
            writer: CogSourceWriter(projecting: projection))
    }

    /// A keyless source replay writes, given as the declaration itself (an app that publishes it).
    public static func source<Value: Decodable>(_ source: Cog<Value>.Manual) -> Self {
        Self.source(source.readOnly)
    }

    /// A keyed source replay writes, through the projection the app publishes.
    public static func source<Value: Decodable, Key: Decodable>(_ projection: CogBox<Value, Key>.Projection) -> Self {
        let writer = CogSourceWriter(projecting: projection)
        return Self(
            declaration: writer.declaration,
            read: { cogs, text in _ = cogs.peek(projection[try key(text, as: Key.self)]) },
            writer: writer)
    }

    /// A keyed source's family, as the projection the app publishes: replay writes and seeds it
    /// with the recorded values, as `source(_:)` does.
    public static func family<Value: Decodable, Key: Decodable>(_ projection: CogBox<Value, Key>.Projection) -> Self {
        source(projection)
    }

    /// A keyed source's family whose values replay cannot decode: read to check them only, the
    /// recording's writes to it left to the app.
    @_disfavoredOverload
    public static func family<Value, Key: Decodable>(_ projection: CogBox<Value, Key>.Projection) -> Self {
        Self(
            declaration: projection.traceLabel,
            read: { cogs, text in _ = cogs.peek(projection[try key(text, as: Key.self)]) }, writer: nil)
    }

    /// A key's trace text read back as `type`.
    private static func key<Key: Decodable>(_ text: String?, as type: Key.Type) throws -> Key {
        guard let text else { throw ReplayError("a keyed family's state has no key in the recording") }
        return try RecordedValueDecoder(value: nil).key(text, as: type)
    }
}
