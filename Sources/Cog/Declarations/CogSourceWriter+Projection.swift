/// Writers reached through a source's read-only projection, for test support only: an app keeps
/// its `.Manual` declaration private and publishes `.readOnly`, and a replay test (which sees only
/// what the app publishes) still has to write the recorded values back.
extension CogSourceWriter {
    /// A writer for the keyless source behind `projection`.
    package init<Value: Decodable>(projecting projection: Cog<Value>.Projection) {
        self.init(Cog<Value>.Manual(descriptor: projection.descriptor))
    }

    /// A writer for the keyed source behind `projection`; keys are read back from their trace text.
    package init<Value: Decodable, Key: Decodable>(projecting projection: CogBox<Value, Key>.Projection) {
        self.init(CogBox<Value, Key>.Manual(descriptor: projection.descriptor))
    }
}

extension Cog.Manual {
    /// The source a projection was made from: the same descriptor, so the same state.
    init(descriptor: Descriptor<Value>) {
        self.descriptor = descriptor
    }
}

extension CogBox.Manual {
    /// The box a projection was made from.
    init(descriptor: Descriptor<Value>) {
        self.descriptor = descriptor
    }
}

extension CogAddress {
    /// The declaration's label without a key (`weather.forecast`), so test support can match a
    /// reference with the labels a trace gives its states.
    package var traceLabel: String { descriptor.label }
}

extension CogBox {
    /// The family's label, for test support.
    package var traceLabel: String { descriptor.label }
}

extension CogBox.Async {
    /// The family's label, for test support.
    package var traceLabel: String { descriptor.label }
}

extension CogBox.Projection {
    /// The family's label, for test support.
    package var traceLabel: String { descriptor.label }
}
