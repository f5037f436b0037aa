public import CogTraceFormat

/// A value a replay would have to rebuild from its JSON but that was recorded as text only (its
/// type is not `Encodable`): a source seeded before the first turn or written by an op, or an
/// async state's result.
public struct TextOnlyInput: Equatable, Sendable {
    /// How the value came in.
    public enum Kind: String, Sendable {
        case seeded = "seeded source"
        case written = "written source"
        case asyncResult = "async result"
    }

    /// The declaration, as the trace names it (`shop.quote`).
    public let declaration: String
    /// The value's type, as the trace names it (`TaxQuote`).
    public let valueType: String
    /// How the value came in.
    public let kind: Kind
    /// The first turn that needs it (0: before the first turn).
    public let firstTurn: TurnNumber

    /// `shop.quote (async result, TaxQuote, first at turn 4)`.
    public var description: String {
        "\(declaration) (\(kind.rawValue), \(valueType), first at turn \(firstTurn))"
    }
}

extension TraceFile {
    /// Every declaration whose values a replay of turns through `last` must rebuild but that were
    /// recorded as text only, one per declaration and kind, in declaration order: what the
    /// generated test lists up front and what a replay refuses at its start rather than midway.
    /// - Throws: `TraceReadError` when a turn cannot be decoded.
    public func textOnlyInputs(through last: TurnNumber) throws(TraceReadError) -> [TextOnlyInput] {
        var found: [String: TextOnlyInput] = [:]
        func note(_ id: NodeID, _ value: TraceValue, _ kind: TextOnlyInput.Kind, _ turn: TurnNumber) {
            guard value.json == nil, !value.isRedacted, let info = states[id] else { return }
            let key = "\(info.declaration) \(kind.rawValue)"
            if found[key] == nil {
                found[key] = TextOnlyInput(
                    declaration: info.declaration, valueType: info.valueType, kind: kind, firstTurn: turn)
            }
        }
        for state in graphBeforeFirstTurn.map({ Array($0.states.values) }) ?? [] {
            guard let value = state.value, states[state.id]?.shape == .manual else { continue }
            note(state.id, value, .seeded, 0)
        }
        for sequence in turnSequences where sequence <= last {
            let turn = try self.turn(sequence)
            switch turn.origin {
            case .op:
                for case .write(let id, _, let value) in turn.events where states[id]?.shape == .manual {
                    note(id, value, .written, sequence)
                }
            case .asyncCompletion:
                for case .write(let id, _, let value) in turn.events where states[id]?.shape == .async {
                    note(id, value, .asyncResult, sequence)
                }
            default: break
            }
        }
        return found.values.sorted { ($0.declaration, $0.kind.rawValue) < ($1.declaration, $1.kind.rawValue) }
    }
}
