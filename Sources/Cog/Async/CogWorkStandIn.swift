/// Test support: something that answers a runtime's async generations in place of their work,
/// so a replay feeds each generation the outcome a recording shows (no network, no clock).
///
/// When a runtime has one (`Cogs.workStandIn`), every generation that starts from then on awaits
/// it instead of running its work: a one-shot generation takes the first answer, a stream takes
/// answers as elements until it gets nil. Nothing else about the generation changes: its turns,
/// policies, cancellation and status are the runtime's own.
package protocol CogWorkStandIn: AnyObject {
    /// The next answer for generation `generation` of the state labelled `label`: a recorded
    /// value to decode as the state's type, nil for the end of a stream, or a thrown failure.
    /// Called on the generation's task; cancelled with it when the runtime supersedes it.
    func next(for label: String, generation: Int) async throws -> (any CogRecordedValueDecoder)?
}

/// Why a stand-in's answer could not become the state's value.
package struct CogWorkStandInError: Error, CustomStringConvertible {
    package let description: String
}

extension Graph {
    /// The work a generation runs: its own, or, with a stand-in attached, the stand-in's answers
    /// decoded as the state's type.
    func work<Value>(_ body: WorkBody<Value>, of node: AsyncNode<Value>, generation: Int) -> WorkBody<Value> {
        guard let standIn = workStandIn else { return body }
        let label = node.label
        switch body {
        case .run:
            return .run {
                guard let answer = try await standIn.next(for: label, generation: generation) else {
                    throw CogWorkStandInError(description: "no answer for generation \(generation) of '\(label)'")
                }
                return try Self.decode(answer, as: Value.self, for: label)
            }
        case .stream:
            return .stream { sink in
                while let answer = try await standIn.next(for: label, generation: generation) {
                    sink.accept(try Self.decode(answer, as: Value.self, for: label))
                }
            }
        }
    }

    private static func decode<Value>(
        _ answer: any CogRecordedValueDecoder, as type: Value.Type, for label: String
    ) throws -> Value {
        guard let decodable = Value.self as? any Decodable.Type else {
            throw CogWorkStandInError(
                description: "'\(label)' holds \(Value.self), which is not Decodable; a replay cannot rebuild it")
        }
        guard let value = try answer.value(as: decodable) as? Value else {
            throw CogWorkStandInError(description: "the answer for '\(label)' is not a \(Value.self)")
        }
        return value
    }
}
