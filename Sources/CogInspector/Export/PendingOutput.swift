/// A file an export has made ready but not yet put in place: `InspectorSession.execute`
/// commits it only once the command has answered and no interrupt came, so an export stopped
/// at any point, up to its very last check, writes nothing.
package struct PendingOutput {
    /// Puts the file in place (writes it, or renames a finished temporary file over the target).
    let commit: () throws(InspectorError) -> Void
    /// Throws away what was made ready (a temporary file), when the command is not answered.
    let discard: () -> Void

    /// `bytes` to be written to `output`.
    init(_ bytes: [UInt8], to output: OutputFile) {
        commit = { () throws(InspectorError) in try output.write(bytes) }
        discard = {}
    }

    /// A finished file at `temporary` to be renamed over `output` (or removed).
    package init(temporary: String, to output: OutputFile) {
        commit = { () throws(InspectorError) in try output.commit(temporary) }
        discard = { output.discard(temporary) }
    }

    /// Several outputs that go in place together (`export tables`).
    package init(all outputs: [PendingOutput], cleanup: @escaping () -> Void = {}) {
        commit = { () throws(InspectorError) in for output in outputs { try output.commit() } }
        discard = {
            for output in outputs { output.discard() }
            cleanup()
        }
    }
}

extension CommandContext {
    /// Has `output` put in place once the command has answered and no interrupt came.
    package func writeWhenAnswered(_ output: PendingOutput) {
        pendingOutputs.append(output)
    }
}
