/// Turns a recorded value back into a typed one. A replay tool supplies one per write, so the
/// runtime needs no particular encoding.
public protocol CogRecordedValueDecoder {
    /// The recorded value, read as `type`.
    /// - Throws: when the recording holds no value of that type.
    func value<T: Decodable>(as type: T.Type) throws -> T
    /// A state's key, from the text a trace shows for it, read as `type`.
    /// - Throws: when the text is no key of that type.
    func key<T: Decodable>(_ text: String, as type: T.Type) throws -> T
}

/// A writable source declaration with its types erased, so a tool that knows states only by the
/// labels a trace gives them can write recorded values back (as replay verification does).
///
/// The app decides which sources it hands out: a declaration stays private to the file that
/// writes it, and the file passes `CogSourceWriter(_currentZipCog)` to the replay.
public struct CogSourceWriter {
    /// The declaration's label without a key, e.g. `weather.detailNote`.
    public let declaration: String
    /// Whether states of this declaration carry a key.
    public let isKeyed: Bool
    private let stage: (Writer, String?, any CogRecordedValueDecoder) throws -> Void
    private let release: (any CogOps, String?, any CogRecordedValueDecoder) throws -> Void
    private let place: (Cogs, String?, any CogRecordedValueDecoder) throws -> Void

    /// A writer for a keyless source.
    public init<Value: Decodable>(_ source: Cog<Value>.Manual) {
        declaration = source.address.descriptor.label
        isKeyed = false
        stage = { writer, _, decoder in writer[source] = try decoder.value(as: Value.self) }
        release = { cogs, _, _ in cogs.discard(source) }
        place = { cogs, _, decoder in cogs.seed(source, to: try decoder.value(as: Value.self)) }
    }

    /// A writer for a keyed source; the key is read back from its trace text.
    public init<Value: Decodable, Key: Decodable>(_ box: CogBox<Value, Key>.Manual) {
        declaration = box.descriptor.label
        isKeyed = true
        stage = { writer, key, decoder in
            writer[box[try decoder.key(key ?? "", as: Key.self)]] = try decoder.value(as: Value.self)
        }
        release = { cogs, key, decoder in cogs.discard(box[try decoder.key(key ?? "", as: Key.self)]) }
        place = { cogs, key, decoder in
            cogs.seed(box[try decoder.key(key ?? "", as: Key.self)], to: try decoder.value(as: Value.self))
        }
    }

    /// Stages the recorded value for the state with `key` in a turn.
    /// - Throws: what the decoder throws for a value or key it cannot read.
    public func write(_ writer: Writer, key: String?, decoder: any CogRecordedValueDecoder) throws {
        try stage(writer, key, decoder)
    }

    /// Discards the state with `key`, as the app's own op would.
    /// - Throws: what the decoder throws for a key it cannot read.
    public func discard(in cogs: any CogOps, key: String?, decoder: any CogRecordedValueDecoder) throws {
        try release(cogs, key, decoder)
    }

    /// Seeds the state with `key` with the recorded value, before the app's mechanisms start, as
    /// the recorded test's `Cogs.forTesting(seeding:)` did.
    /// - Throws: what the decoder throws for a value or key it cannot read.
    public func seed(in cogs: Cogs, key: String?, decoder: any CogRecordedValueDecoder) throws {
        try place(cogs, key, decoder)
    }
}
