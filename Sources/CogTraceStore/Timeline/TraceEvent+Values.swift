package import CogTraceFormat

extension TraceEvent {
    /// Whether this event gave `state` a new value.
    package func setsValue(of state: NodeID) -> Bool {
        switch self {
        case .write(state, _, _), .seeded(state, _): true
        case .stateCreated(state, let value): value != nil
        case .recompute(state, _, let new, let changed, _): changed && new != nil
        default: false
        }
    }

    /// The value this event gave its state, if any.
    package var newValue: TraceValue? {
        switch self {
        case .write(_, _, let new), .seeded(_, let new): new
        case .stateCreated(_, let value): value
        case .recompute(_, _, let new, _, _): new
        default: nil
        }
    }

    /// The value its state had before this event, if it says.
    package var oldValue: TraceValue? {
        switch self {
        case .write(_, let old, _): old
        case .recompute(_, let old, _, _, _): old
        default: nil
        }
    }
}
