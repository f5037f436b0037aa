import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector
@testable import CogInspectorExport

/// What the viewer page embeds beyond the graph: each turn's change list (the engine's lines,
/// grouped as `turn N` groups them), failures in full, the work after a turn, windows of a long
/// recording, and a second recording to compare with.
@Suite("HTML viewer: changes, windows and comparison")
struct ViewerChangeListTests {
    /// `[group title: [(line, label of the node it selects, field lines)]]` of one turn record,
    /// its strings looked up in the page's table of lines.
    private func changeList(_ turn: [String: Any], in data: [String: Any]) -> [(String, [(String, String?, [String])])]
    {
        let labels = (data["nodes"] as? [[Any]] ?? []).map { $0[0] as? String ?? "" }
        let lines = data["lines"] as? [String] ?? []
        return (turn["c"] as? [[Any]] ?? []).map { group in
            let entries = (group[2] as? [[Any]] ?? []).map { entry -> (String, String?, [String]) in
                let indices = entry.compactMap { $0 as? Int }
                let slot = indices[1]
                return (lines[indices[0]], slot >= 0 ? labels[slot] : nil, indices.dropFirst(2).map { lines[$0] })
            }
            return (lines[group[0] as? Int ?? 0], entries)
        }
    }

    @Test(arguments: ["tour", "heat-advisory", "service-outage"])
    func everyTurnsChangeListIsWhatTurnPrints(_ name: String) throws {
        let session = try Recording.session(name)
        let data = try ViewerPageData.embedded(in: try ViewerPage.render(session.context(), graphviz: nil).html)
        let turns = try #require(data["turns"] as? [[String: Any]])
        for (position, sequence) in session.turns.enumerated() {
            let printed: [(String, [String])] = try session.context().describeTurn(sequence).compactMap { report in
                guard case .section(let title, let parts) = report, case .events(let events)? = parts.first else {
                    return nil
                }
                return (title, events.map(\.description))
            }
            let embedded = changeList(turns[position], in: data)
            #expect(embedded.map(\.0) == printed.map(\.0), "groups of turn \(sequence)")
            #expect(embedded.map { $0.1.map(\.0) } == printed.map(\.1), "lines of turn \(sequence)")
        }
    }

    @Test func theTourTurnNineListsTheWriteAndTheEdgesEachSelectingItsNode() throws {
        let session = try Recording.session("tour")
        let data = try ViewerPageData.embedded(in: try ViewerPage.render(session.context(), graphviz: nil).html)
        let turns = try #require(data["turns"] as? [[String: Any]])
        let nine = changeList(try #require(turns.first { $0["t"] as? Int == 9 }), in: data)
        let writes = try #require(nine.first { $0.0 == "writes" }?.1)
        #expect(writes.map(\.0) == ["write weather.currentZip: 10001 → 94105"])
        #expect(writes.map(\.1) == ["weather.currentZip"])
        let edges = try #require(nine.first { $0.0 == "edges" }?.1)
        #expect(
            edges.map(\.0) == [
                "edge added: weather.isNiceHere reads weather.isNice[94105]",
                "edge removed: weather.isNiceHere no longer reads weather.isNice[10001]",
            ])
        #expect(edges.allSatisfy { $0.1 == "weather.isNiceHere" })
    }

    @Test func aStructuredValueIsDiffedFieldByField() throws {
        let session = try Recording.session("heat-advisory")
        let data = try ViewerPageData.embedded(in: try ViewerPage.render(session.context(), graphviz: nil).html)
        let turns = try #require(data["turns"] as? [[String: Any]])
        let entries = turns.flatMap { changeList($0, in: data).flatMap(\.1) }
        let changed = try #require(entries.first { $0.0.hasPrefix("published weather.forecast[10001]: clear 75°F") })
        #expect(!changed.2.isEmpty, "\(changed.0)")
        #expect(changed.2.allSatisfy { $0.hasPrefix(".") && $0.contains(" → ") }, "\(changed.2)")
        #expect(!changed.2.contains { $0.hasPrefix(".condition") && $0.contains("\"clear\" → \"clear\"") })
        // A value that is not structured says everything in its line.
        let plain = try #require(entries.first { $0.0.hasPrefix("write weather.currentZip") })
        #expect(plain.2.isEmpty)
    }

    @Test func workAfterATurnIsItsOwnGroupAndMarksItsNodes() throws {
        let session = try Recording.session("tour")
        let data = try ViewerPageData.embedded(in: try ViewerPage.render(session.context(), graphviz: nil).html)
        let labels = try #require(data["nodes"] as? [[Any]]).map { $0[0] as! String }
        let turns = try #require(data["turns"] as? [[String: Any]])
        for (position, sequence) in session.turns.enumerated() {
            let turn = try session.context().turn(sequence)
            let touched = (turns[position]["a"] as? [Int] ?? []).map { labels[$0] }
            let expected = Set(
                turn.after.compactMap { $0.state ?? $0.registration }.map { session.context().label($0) })
            #expect(Set(touched) == expected.intersection(labels), "after turn \(sequence)")
            let groups = changeList(turns[position], in: data)
            #expect(groups.contains { $0.0 == "after the turn" } == turn.after.contains { !isDependencies($0) })
        }
    }

    private func isDependencies(_ event: TraceEvent) -> Bool {
        if case .dependencies = event { return true }
        return false
    }

    @Test func aWindowHoldsItsTurnsOnlyAndDrawsThemAsTheWholeRecordingDoes() throws {
        let session = try Recording.session("tour")
        let whole = try ViewerPageData.embedded(in: try ViewerPage.render(session.context(), graphviz: nil).html)
        let window = try ViewerPageData.embedded(
            in:
                try ViewerPage.render(session.context(), ViewerPage.Request(window: 5..<12, layout: .init())).html)
        let turns = try #require(window["turns"] as? [[String: Any]])
        #expect(turns.compactMap { $0["t"] as? Int } == Array(6...12))
        let shown = try #require(window["window"] as? [String: Any])
        #expect(shown["first"] as? Int == 6 && shown["last"] as? Int == 12 && shown["of"] as? Int == 25)
        // Values after each turn of the window are those the whole page has there, by label.
        for position in 0..<turns.count {
            #expect(
                try values(window, at: position) == values(whole, at: position + 5),
                "after turn \(position + 6)")
        }
    }

    /// Label → value text after the turn at `position`, read as the page reads it.
    private func values(_ data: [String: Any], at position: Int) throws -> [String: String] {
        let labels = try #require(data["nodes"] as? [[Any]]).map { $0[0] as! String }
        let keyframes = try #require(data["keyframes"] as? [[String: Any]])
        let turns = try #require(data["turns"] as? [[String: Any]])
        let keyframe = try #require(keyframes.last { ($0["at"] as? Int ?? .max) <= position })
        var nodes: [Int: String] = [:]
        for entry in try #require(keyframe["nodes"] as? [[Any]]) {
            nodes[entry[0] as! Int] = entry[1] as? String ?? "-"
        }
        for index in stride(from: (keyframe["at"] as? Int ?? 0) + 1, through: position, by: 1) {
            for entry in turns[index]["u"] as? [[Any]] ?? [] { nodes[entry[0] as! Int] = entry[1] as? String ?? "-" }
            for slot in turns[index]["x"] as? [Int] ?? [] { nodes[slot] = nil }
        }
        return Dictionary(uniqueKeysWithValues: nodes.map { (labels[$0.key], $0.value) })
    }

    @Test func aLongRecordingExportsTheWindowAroundTheCursorAndSaysSo() throws {
        let session = try Recording.session("tour")
        var notes: [Report] = []
        #expect(try session.context().viewerWindow(nil, size: 30, notes: &notes) == 0..<25)
        #expect(notes.isEmpty)
        _ = try session.execute("goto 12")
        #expect(try session.context().viewerWindow(nil, size: 10, notes: &notes) == 6..<16)
        let note = try #require(notes.first)
        guard case .message(let text) = note else {
            Issue.record("a note, not \(note)")
            return
        }
        #expect(text.contains("has 25 turns: the page shows the 10 turns 7..16 around the cursor (turn 12)"), "\(text)")
        #expect(text.contains("--turns A..B"))
        _ = try session.execute("goto 25")
        #expect(try session.context().viewerWindow(nil, size: 10, notes: &notes) == 15..<25, "the window stays inside")
        #expect(try session.context().viewerWindow(TurnNumber(3)...TurnNumber(5), notes: &notes) == 2..<5)
    }

    @Test func aSecondRecordingIsEmbeddedWithTheFirstDivergence() throws {
        let session = try Recording.session("tour")
        let tour = try String(contentsOf: Recording.directory.appendingPathComponent("tour.cogtrace"), encoding: .utf8)
        // The other run names turn 11 differently: the recordings part ways there.
        var lines = tour.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let eleventh = try #require(lines.firstIndex { $0.contains(#""seq":11,"#) })
        lines[eleventh] = lines[eleventh].replacingOccurrences(of: "selectLocation(_:)", with: "pickLocation(_:)")
        let other = InspectorSession(trace: try TraceFile.parse(lines.joined(separator: "\n")), source: "other")
        let html = try ViewerPage.render(
            session.context(),
            ViewerPage.Request(
                window: session.turns.indices, layout: .init(), other: (other.context(), other.turns.indices))
        ).html
        let data = try ViewerPageData.embedded(in: html)
        let drawn = try #require(data["other"] as? [String: Any])
        #expect((drawn["turns"] as? [[String: Any]])?.count == 25)
        #expect(drawn["source"] as? String == "other")
        let divergence = try #require(data["divergence"] as? [String: Any])
        let expected = try #require(try TraceComparison(session.trace, other.trace).firstDivergence)
        #expect(divergence["agree"] as? Bool == false)
        #expect(divergence["turn"] as? Int == expected.turn?.rawValue && expected.turn == 11)
        #expect(divergence["lines"] as? [String] == expected.lines)
        let same = try ViewerPageData.embedded(
            in:
                try ViewerPage.render(
                    session.context(),
                    ViewerPage.Request(
                        window: session.turns.indices, layout: .init(),
                        other: (session.context(), session.turns.indices))
                ).html)
        #expect((same["divergence"] as? [String: Any])?["agree"] as? Bool == true)
    }
}
