import CogTraceFormat

/// What a command found, as values: rendering to text or JSON is a separate step.
public indirect enum Report: Equatable {
    /// A sentence.
    case message(String)
    /// Named fields, in order.
    case fields([(String, String)])
    /// Rows under column names.
    case table(columns: [String], rows: [[String]])
    /// Plain lines (a chain, a list).
    case lines([String])
    /// A titled part of a longer report.
    case section(String, [Report])
    /// A document in its own format (DOT, Mermaid, JSON), printed exactly as it is.
    case document(String)

    public static func == (lhs: Report, rhs: Report) -> Bool {
        switch (lhs, rhs) {
        case (.message(let a), .message(let b)): a == b
        case (.fields(let a), .fields(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.table(let ac, let ar), .table(let bc, let br)): ac == bc && ar == br
        case (.lines(let a), .lines(let b)): a == b
        case (.section(let at, let ab), .section(let bt, let bb)): at == bt && ab == bb
        case (.document(let a), .document(let b)): a == b
        default: false
        }
    }
}

/// One command's result: what it was, and its report.
public struct CommandResult: Equatable {
    /// The command's full name, e.g. `get`.
    public let command: String
    public let report: [Report]

    public init(command: String, report: [Report]) {
        self.command = command
        self.report = report
    }
}
