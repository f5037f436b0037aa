import CogTraceFormat
import CogTraceStore

extension CommandContext {
    /// `find PATTERN`: the states whose label matches, the turns whose name matches (every turn
    /// of the recording, read on every core), and the values at the cursor whose text matches.
    /// At a prompt that streams (`streamsTables`) the turns come a batch at a time; read whole,
    /// that answer is the batch answer; `firstBatch` is how many turns the first batch reads.
    func find(_ pattern: String, firstBatch: Int = 8_192) throws(InspectorError) -> [Report] {
        let matcher = TextMatcher(pattern)
        let states = trace.states.values.filter { matcher.matches($0.label) }
            .sorted { $0.label < $1.label }.map { [Cell.state(StateReference(id: $0.id, label: $0.label))] }
        let statesSection: [Report] =
            states.isEmpty ? [] : [.section("states", [.table(columns: ["state"], rows: states)])]
        if streamsTables {
            let values = try valuesMatching(pattern)
            return statesSection + [
                streamedTurns(
                    matching: pattern, statesFound: !states.isEmpty, values: values, firstBatch: firstBatch)
            ]
        }
        // A turn that cannot say its name is left out, and the answer warns of it.
        let headings = trace.readingHeadings(self.turns)
        // Ctrl-C stops the reading between batches; what it left unread is not an answer.
        if interruptRequested() { throw .interrupted }
        let turns = try Self.rows(
            of: self.turns, headings: headings, matching: pattern, undecodable: &searchedUndecodable,
            interrupted: interruptRequested)
        let values = try valuesMatching(pattern)
        let turnsSection: [Report] =
            turns.isEmpty ? [] : [.section("turns", [.table(columns: Self.foundTurnColumns, rows: turns)])]
        let reports = statesSection + turnsSection + values
        return reports.isEmpty ? [.message(Self.nothingMatches(pattern))] : reports
    }

    static let foundTurnColumns = ["turn", "name"]

    /// The rows of the turns among `sequences` whose name matches, from their `headings`; a turn
    /// whose heading cannot be read goes to `undecodable`.
    /// - Throws: `InspectorError.interrupted` when `interrupted` says so (it is asked now and then:
    ///   matching a name is slow next to reading it).
    private static func rows(
        of sequences: [TurnNumber], headings: [Result<TurnHeading, TraceReadError>], matching pattern: String,
        undecodable: inout [(turn: TurnNumber, error: TraceReadError)], interrupted: () -> Bool
    ) throws(InspectorError) -> [[Cell]] {
        var rows: [[Cell]] = []
        let matcher = TextMatcher(pattern)
        for (offset, (sequence, heading)) in zip(sequences, headings).enumerated() {
            if offset % 16_384 == 0, interrupted() { throw .interrupted }
            switch heading {
            case .success(let heading):
                if matcher.matches(heading.name) {
                    rows.append([.turn(TurnReference(sequence)), .text(heading.name)])
                }
            case .failure(let error):
                undecodable.append((sequence, error))
            }
        }
        return rows
    }

    static func nothingMatches(_ pattern: String) -> String { "nothing matches '\(pattern)'" }

    /// The section of values at the cursor whose text matches, if any.
    private func valuesMatching(_ pattern: String) throws(InspectorError) -> [Report] {
        let graph = try graph()
        let matcher = TextMatcher(pattern)
        let rows = graph.states.keys.sorted().compactMap { id -> [Cell]? in
            guard let value = graph.states[id]?.value, matcher.matches(value.text) else { return nil }
            return [.state(reference(id)), .value(value)]
        }
        return rows.isEmpty
            ? [] : [.section("values at turn \(cursor)", [.table(columns: ["state", "value"], rows: rows)])]
    }

    /// The matching turns as a stream under the title "turns": names read on every core in
    /// growing batches (`firstBatch` turns, four times more each time up to `streamBatchLimit`), each
    /// batch's matches given as soon as it is read. What follows the rows is what a batch answer
    /// has after them: the values section, or that nothing matches, then the undecodable turns.
    private func streamedTurns(
        matching pattern: String, statesFound: Bool, values: [Report], firstBatch: Int
    ) -> Report {
        var position = 0
        var batch = max(firstBatch, 1)
        var undecodable: [(turn: TurnNumber, error: TraceReadError)] = []
        var interrupted = false
        let stream = TableRowStream(
            title: "turns", minimumWidths: ["\(turns.last ?? 0)".count, 0],
            produce: { [self] in
                guard position < turns.count else { return nil }
                if interruptRequested() {
                    interrupted = true
                    return nil
                }
                let sequences = Array(turns[position..<min(turns.count, position + batch)])
                position += sequences.count
                batch = min(batch * 4, Self.streamBatchLimit)
                do {
                    return try Self.rows(
                        of: sequences, headings: trace.readingHeadings(sequences), matching: pattern,
                        undecodable: &undecodable, interrupted: interruptRequested)
                } catch {
                    interrupted = true
                    return nil
                }
            },
            finish: { hadRows in
                if interrupted {
                    return [.warning("stopped by Ctrl-C: the recording goes on past the turns above")] + values
                }
                let found = hadRows || statesFound || !values.isEmpty
                return (found ? values : [.message(Self.nothingMatches(pattern))])
                    + Self.undecodableWarnings(undecodable, through: nil)
            })
        return .streamedTable(columns: Self.foundTurnColumns, rows: stream)
    }
}
