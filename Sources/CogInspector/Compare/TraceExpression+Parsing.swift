import CogTraceFormat

extension TraceExpression {
    /// Reads an expression such as `weather.isNice[10001] == true and not changed weather.currentZip`.
    /// - Parameters:
    ///   - text: the expression; one pair of surrounding quotes is ignored.
    ///   - resolve: finds the state a label names, or throws the inspector's unknown-state error.
    /// - Throws: `InspectorError` quoting the part that could not be read.
    static func parse(
        _ text: String, resolve: @escaping (String) throws(InspectorError) -> NodeID,
        isLabel: @escaping (String) -> Bool
    ) throws(InspectorError) -> TraceExpression {
        var parser = ExpressionParser(
            tokens: try ExpressionLexer.tokens(of: text.trimmed.unquoted), resolve: resolve,
            isLabel: isLabel)
        guard !parser.tokens.isEmpty else {
            throw InspectorError("an expression is needed, e.g. 'weather.isNice[10001] == true'")
        }
        let expression = try parser.parseOr()
        if let extra = parser.peek {
            throw InspectorError("unexpected '\(extra)' in expression; expected 'and', 'or' or the end")
        }
        return expression
    }
}

/// Splits an expression into words, operators, parentheses and quoted strings. A state label
/// keeps its brackets whole, so a key may hold any character but a space.
enum ExpressionLexer {
    static func tokens(of text: String) throws(InspectorError) -> [String] {
        var tokens: [String] = []
        var characters = Array(text)[...]
        while let character = characters.first {
            if character.isWhitespace {
                characters = characters.dropFirst()
            } else if character == "(" || character == ")" {
                tokens.append(String(character))
                characters = characters.dropFirst()
            } else if "=!<>".contains(character) {
                let two = String(characters.prefix(2))
                let isPair = two.count == 2 && two.allSatisfy { "=!<>".contains($0) }
                let symbol = isPair ? two : String(character)
                guard TraceExpression.Comparison(rawValue: symbol) != nil else {
                    throw InspectorError("unknown operator '\(symbol)'; expected ==, !=, <, <=, > or >=")
                }
                tokens.append(symbol)
                characters = characters.dropFirst(symbol.count)
            } else if character == "\"" || character == "'" {
                guard let close = characters.dropFirst().firstIndex(of: character) else {
                    throw InspectorError("unterminated quote in expression '\(text)'")
                }
                tokens.append(String(characters[characters.startIndex...close]))
                characters = characters[(close + 1)...]
            } else {
                var word = ""
                var depth = 0
                while let next = characters.first, !next.isWhitespace,
                    depth > 0 || !("=!<>()".contains(next))
                {
                    if next == "[" { depth += 1 }
                    if next == "]" { depth = max(0, depth - 1) }
                    word.append(next)
                    characters = characters.dropFirst()
                }
                tokens.append(word)
            }
        }
        return tokens
    }
}

/// A recursive-descent reader over the lexer's tokens: `or` binds loosest, then `and`, then `not`.
struct ExpressionParser {
    let tokens: [String]
    let resolve: (String) throws(InspectorError) -> NodeID
    let isLabel: (String) -> Bool
    private var position = 0
    /// How deep `not` and parentheses nest now; bounded so no input can exhaust the stack.
    private var nesting = 0
    static let maxNesting = 64

    init(
        tokens: [String], resolve: @escaping (String) throws(InspectorError) -> NodeID,
        isLabel: @escaping (String) -> Bool
    ) {
        self.tokens = tokens
        self.resolve = resolve
        self.isLabel = isLabel
    }

    var peek: String? { position < tokens.count ? tokens[position] : nil }

    private mutating func next(_ expected: String) throws(InspectorError) -> String {
        guard let token = peek else { throw InspectorError("expression ends early; expected \(expected)") }
        position += 1
        return token
    }

    mutating func parseOr() throws(InspectorError) -> TraceExpression {
        var expression = try parseAnd()
        while peek == "or" {
            position += 1
            expression = .or(expression, try parseAnd())
        }
        return expression
    }

    private mutating func parseAnd() throws(InspectorError) -> TraceExpression {
        var expression = try parseUnary()
        while peek == "and" {
            position += 1
            expression = .and(expression, try parseUnary())
        }
        return expression
    }

    private mutating func parseUnary() throws(InspectorError) -> TraceExpression {
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= Self.maxNesting else {
            throw InspectorError("expression nests deeper than \(Self.maxNesting) levels of 'not' and parentheses")
        }
        switch try next("a condition") {
        case "not":
            return .not(try parseUnary())
        case "(":
            let inner = try parseOr()
            guard try next("')'") == ")" else { throw InspectorError("expected ')' in expression") }
            return inner
        case "changed": return .changed(try state(try next("a state after 'changed'"), allowsPath: false))
        case "exists": return .exists(try state(try next("a state after 'exists'"), allowsPath: false))
        case "leased": return .leased(try state(try next("a state after 'leased'"), allowsPath: false))
        case "status":
            let reference = try state(try next("a state after 'status'"), allowsPath: false)
            let comparison = try comparison()
            guard comparison == .equal || comparison == .notEqual else {
                throw InspectorError("a status compares with == or !=, not '\(comparison.rawValue)'")
            }
            let word = try next("a status such as success or failure")
            let kind = AsyncStatusKind(rawValue: word)
            guard kind.isKnown else {
                let known = AsyncStatusKind.known.map(\.rawValue).joined(separator: ", ")
                throw InspectorError("unknown status '\(word)'; expected \(known)")
            }
            return .status(reference, comparison, kind)
        case let word:
            let reference = try state(word, allowsPath: true)
            let comparison = try comparison()
            return .compare(reference, comparison, literal(try next("a value to compare with")))
        }
    }

    private mutating func comparison() throws(InspectorError) -> TraceExpression.Comparison {
        let token = try next("a comparison (==, !=, <, <=, >, >=)")
        guard let comparison = TraceExpression.Comparison(rawValue: token) else {
            throw InspectorError("expected a comparison (==, !=, <, <=, >, >=) but found '\(token)'")
        }
        return comparison
    }

    /// The state a word names: the longest prefix that is a label, the rest a field path.
    private func state(_ word: String, allowsPath: Bool) throws(InspectorError) -> TraceExpression.StateReference {
        if allowsPath, let (label, path) = TraceExpression.StateReference.split(word, isLabel: isLabel) {
            return .init(id: try resolve(label), label: label, path: path)
        }
        return .init(id: try resolve(word), label: word, path: "")
    }

    private func literal(_ token: String) -> TraceExpression.Literal {
        if let quote = token.first, quote == "\"" || quote == "'", token.count >= 2 {
            return .text(String(token.dropFirst().dropLast()))
        }
        switch token {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "nil", "null": return .null
        default: return Double(token).map { .number($0, text: token) } ?? .text(token)
        }
    }
}
