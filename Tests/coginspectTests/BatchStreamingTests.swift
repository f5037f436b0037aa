import Foundation
import Testing

/// Batch answers longer than `OutputPrinter.streamingThreshold` rows are written a batch at a
/// time: the JSON document is the one a whole answer makes, row for row, and the text has every
/// row under one header.
@Suite("Batch answers stream", .timeLimit(.minutes(5)))
struct BatchStreamingTests {
    private static let turns = 15_000

    private func trace() throws -> (URL, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("long.cogtrace")
        try SyntheticTraces.write(turns: Self.turns, to: url)
        return (folder, url)
    }

    /// The rows of the one table in a command's JSON document, and the parts after it.
    private func document(_ url: URL, _ command: String) throws -> (rows: [[String: Any]], parts: [[String: Any]]) {
        let outcome = try Executables.coginspect([url.path, "--json", "-c", command])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.count == 1, "one document")
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let result = try #require(parsed["result"] as? [[String: Any]])
        let flattened = result.flatMap { part in (part["parts"] as? [[String: Any]]) ?? [part] }
        let table = try #require(flattened.first { $0["rows"] != nil })
        return (try #require(table["rows"] as? [[String: Any]]), flattened.filter { $0["rows"] == nil })
    }

    @Test func aLongListingIsOneDocumentWithEveryRow() throws {
        let (folder, url) = try trace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let streamed = try document(url, "turns")
        #expect(streamed.rows.count == Self.turns)
        let whole = try document(url, "turns 1..100")
        #expect(NSArray(array: Array(streamed.rows.prefix(100))).isEqual(to: whole.rows))

        let text = try Executables.coginspect([url.path, "-c", "turns"])
        let lines = text.standardOutput.split(separator: "\n")
        #expect(lines.count == Self.turns + 2, "a header, its rule and every turn")
        #expect(lines.dropFirst(2).allSatisfy { !$0.hasPrefix("turn") && !$0.hasPrefix("---") })
    }

    @Test func aLongHistoryStreamsTheRowsAWholeAnswerHas() throws {
        let (folder, url) = try trace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let streamed = try document(url, "history weather.currentZip")
        #expect(streamed.rows.count > 4_096, "long enough to stream: \(streamed.rows.count) rows")
        // Up to a turn early enough, the answer is short and printed whole: the same first rows.
        let early = try document(url, "history weather.currentZip @3000")
        #expect(early.rows.count < 4_096)
        #expect(NSArray(array: Array(streamed.rows.prefix(early.rows.count))).isEqual(to: early.rows))
        let text = try Executables.coginspect([url.path, "-c", "history weather.currentZip"])
        #expect(text.status == 0)
        let rows = text.standardOutput.split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(rows.count == streamed.rows.count)
    }
}
