import CogTraceFormat
import CogTraceStore

extension InspectorSession {
    /// What could complete `prefix` when the words before it on the line are `words`: command
    /// names first, then the command's options, setting names, turn numbers or state labels.
    public func completions(for prefix: String, after words: [String]) -> [String] {
        guard let first = words.first else { return catalog.commands.map(\.name).filter { $0.hasPrefix(prefix) } }
        guard let spec = try? catalog.resolve(first) else { return [] }
        let candidates: [String]
        if prefix.hasPrefix("-") {
            candidates = spec.valueFlags.union(spec.switches).sorted()
        } else if let previous = words.last, previous == "--touching" || previous == "--focus" {
            candidates = trace.states.values.map(\.label)
        } else if let previous = words.last, previous == "--only" {
            candidates = GraphDiff.Aspect.allCases.map(\.rawValue)
        } else if let previous = words.last, previous == "--turn" || previous == "--from" {
            candidates = turns.map(String.init)
        } else if let completions = spec.completions {
            candidates = completions(words.count - 1)
        } else {
            switch spec.name {
            case "set": candidates = words.count == 1 ? InspectorSettings.names : []
            case "show": candidates = ["settings"]
            case "help": candidates = catalog.commands.map(\.name)
            case "turn", "goto", "turns", "play", "diff": candidates = turns.map(String.init)
            case "export": candidates = words.count == 1 ? catalog.exportFormats.map(\.name) : []
            case "step", "back", "info", "first", "last", "where", "quit", "find": candidates = []
            default: candidates = trace.states.values.map(\.label)
            }
        }
        return candidates.filter { $0.hasPrefix(prefix) && Self.canBeTyped($0) }.sorted()
    }

    /// Whether a candidate can be typed as one word: no whitespace, no control character (C0,
    /// DEL, C1) and no invisible format character (bidi overrides, zero widths). A label from
    /// a trace that holds one is left out of completion rather than handed to the terminal or
    /// the shell, where it would act or split into several candidates; `state` still lists it,
    /// escaped.
    static func canBeTyped(_ candidate: String) -> Bool {
        candidate.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator: false
            default: true
            }
        }
    }
}
