/// What a turn body writes through, conventionally named `c`.
///
/// A writer is valid only while its own turn accumulates: using one afterwards fails. Reads see
/// the values this turn has staged so far, so `c[countCog] += 1` is a correct read-modify-write.
public struct Writer {
    @usableFromInline let graph: Graph
    @usableFromInline let turnID: Int

    /// Reads `ref`: the value staged in this turn if any, else its settled current value.
    @inlinable
    public subscript<Reference: CogReference>(ref: Reference) -> Reference.Value {
        graph.writerRead(ref.address, turnID: turnID)
    }

    /// Reads or stages a source's value. An equal final value is discarded when the turn ends.
    @inlinable
    public subscript<Reference: CogSourceReference>(ref: Reference) -> Reference.Value {
        get { graph.writerRead(ref.address, turnID: turnID) }
        nonmutating set { graph.stage(newValue, for: ref.address, turnID: turnID) }
    }
}
