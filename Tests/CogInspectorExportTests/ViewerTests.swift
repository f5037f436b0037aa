import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector
@testable import CogInspectorExport

/// The HTML viewer's embedded data, read back the way the page reads it (the keyframe before a
/// turn, then each turn's changes), must give at every turn the graph and marks the DOT export
/// draws; and no recorded string may become markup.
@Suite("HTML viewer")
struct ViewerTests {
    /// What the page draws after the turn at `position`: value text of each live slot, and the edges.
    private func picture(_ data: [String: Any], at position: Int) throws -> (nodes: [Int: String], edges: Set<[Int]>) {
        let keyframes = try #require(data["keyframes"] as? [[String: Any]])
        let turns = try #require(data["turns"] as? [[String: Any]])
        let keyframe = try #require(keyframes.last { ($0["at"] as? Int ?? .max) <= position })
        func text(_ entry: [Any]) -> String { entry[1] as? String ?? "-" }
        var nodes: [Int: String] = [:]
        for entry in try #require(keyframe["nodes"] as? [[Any]]) { nodes[entry[0] as! Int] = text(entry) }
        var edges = Set((try #require(keyframe["edges"] as? [[Int]])))
        let at = try #require(keyframe["at"] as? Int)
        for index in stride(from: at + 1, through: position, by: 1) {
            let turn = turns[index]
            for entry in turn["u"] as? [[Any]] ?? [] { nodes[entry[0] as! Int] = text(entry) }
            for slot in turn["x"] as? [Int] ?? [] { nodes[slot] = nil }
            for edge in turn["ea"] as? [[Int]] ?? [] { edges.insert(edge) }
            for edge in turn["er"] as? [[Int]] ?? [] { edges.remove(edge) }
        }
        return (nodes, edges)
    }

    @Test(arguments: ["tour", "map", "screens", "switching", "service-outage"])
    func everyTurnReadsBackAsTheGraphTheDOTExportDraws(_ name: String) throws {
        try expectEveryTurnReadsBack(try Recording.session(name))
    }

    /// The page's model is built turn by turn from the nodes each turn touched: on a wide graph
    /// whose readers move their edges, every turn still reads back as the whole graph.
    @Test func aWideGraphReadsBackAtEveryTurn() throws {
        try expectEveryTurnReadsBack(try Recording.wide(states: 240, turns: 260))
    }

    private func expectEveryTurnReadsBack(_ session: InspectorSession) throws {
        let html = try ViewerPage.render(session.context(), graphviz: nil).html
        let data = try ViewerPageData.embedded(in: html)
        let labels = try #require(data["nodes"] as? [[Any]]).map { $0[0] as! String }
        let turns = try #require(data["turns"] as? [[String: Any]])
        #expect(turns.count == session.turns.count)
        for (position, sequence) in session.turns.enumerated() {
            let view = GraphView(
                graph: try session.context().graph(after: sequence), turn: sequence, states: session.trace.states,
                annotating: try session.context().turn(sequence))
            let drawn = try picture(data, at: position)
            let expected = Dictionary(uniqueKeysWithValues: view.nodes.map { ($0.label, $0.value?.text ?? "-") })
            #expect(
                Dictionary(uniqueKeysWithValues: drawn.nodes.map { (labels[$0.key], $0.value) }) == expected,
                "nodes after turn \(sequence)")
            let expectedEdges = Set(
                view.edges.filter { $0.change != .removed }.map { edge in
                    [session.context().label(edge.producer), session.context().label(edge.consumer)]
                })
            #expect(
                Set(drawn.edges.map { [labels[$0[0]], labels[$0[1]]] }) == expectedEdges, "edges after \(sequence)")
            let marks = (turns[position]["m"] as? [[Any]] ?? []).map { entry in
                (labels[entry[0] as! Int], (entry[1] as! [String]).filter { $0 != "notified" })
            }.filter { !$0.1.isEmpty }
            let expectedMarks = view.nodes.filter { !$0.marks.isEmpty }.map { ($0.label, $0.marks.map(\.rawValue)) }
            #expect(
                Dictionary(uniqueKeysWithValues: marks) == Dictionary(uniqueKeysWithValues: expectedMarks),
                "marks of turn \(sequence)")
        }
    }

    @Test func turnsAFailureFollowedAreMarked() throws {
        let tour = try String(contentsOf: Recording.directory.appendingPathComponent("tour.cogtrace"), encoding: .utf8)
        var lines = tour.split(separator: "\n").map(String.init)
        lines.insert(
            contentsOf: [
                #"{"type":"failure","after":6,"test":"T.a","kind":"expectation","message":"not nice","file":null,"line":null}"#,
                #"{"type":"failure","after":9,"test":"T.b","kind":"error","message":"thrown","file":null,"line":null}"#,
            ], at: lines.count - 1)
        let session = InspectorSession(trace: try TraceFile.parse(lines.joined(separator: "\n") + "\n"), source: "t")
        let html = try ViewerPage.render(session.context(), graphviz: nil).html
        let turns = try #require(try ViewerPageData.embedded(in: html)["turns"] as? [[String: Any]])
        let marked = turns.filter { $0["f"] != nil }.compactMap { $0["t"] as? Int }
        #expect(marked == [6, 9])
        let failures = try #require(turns.first { $0["t"] as? Int == 9 }?["f"] as? [[Any]])
        #expect(failures.count == 1)
        #expect(failures[0][0] as? String == "T.b" && failures[0][1] as? String == "error")
        #expect(failures[0][2] as? String == "thrown" && failures[0][3] is NSNull)
    }

    @Test func theTourPageIsSmallAndNamesEveryTurn() throws {
        let session = try Recording.session("tour")
        let html = try ViewerPage.render(session.context(), graphviz: nil).html
        #expect(html.utf8.count < 1_000_000)
        // Nothing to fetch: the only address is the SVG namespace, which names and loads nothing.
        let addresses = html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")
        #expect(!addresses.contains("http:") && !addresses.contains("https:") && !addresses.contains("//cdn"))
        let turns = try #require(try ViewerPageData.embedded(in: html)["turns"] as? [[String: Any]])
        #expect(turns.map { $0["t"] as? Int } == session.turns.map(\.rawValue))
    }

    @Test func recordedMarkupStaysInsideTheDataAsEscapedText() throws {
        let hostile = #"</script><script>document.body.dataset.pwned='1'</script><img src=x onerror=alert(1)> & <!--"#
        let json = String(decoding: try JSONEncoder().encode(hostile), as: UTF8.self)
        let tour = try String(contentsOf: Recording.directory.appendingPathComponent("tour.cogtrace"), encoding: .utf8)
        let text = tour.replacingOccurrences(of: #""t":"10001""#, with: #""t":"# + json)
        let session = InspectorSession(trace: try TraceFile.parse(text), source: "hostile")
        let html = try ViewerPage.render(session.context(), graphviz: nil).html
        #expect(html.components(separatedBy: "</script>").count == 3, "only the page's own two script elements end")
        #expect(!html.contains("<img"))
        #expect(!html.contains("<!--"))
        let data = try ViewerPageData.embedded(in: html)
        let turns = try #require(data["turns"] as? [[String: Any]])
        let values = turns.flatMap { $0["u"] as? [[Any]] ?? [] }.compactMap { $0[1] as? String }
        #expect(values.contains(hostile), "the value reads back exactly")
    }

    @Test func theBuiltInLayoutKeepsNodesApartAndDependenciesDownward() throws {
        let session = try Recording.session("map")
        let model = try ViewerModel(session: session.context(), window: session.turns.indices)
        let layout = ViewerLayout.layered(nodes: model.nodes, edges: model.edges)
        for (index, box) in layout.boxes.enumerated() {
            for other in layout.boxes[(index + 1)...] {
                let apart =
                    abs(box.x - other.x) >= (box.width + other.width) / 2
                    || abs(box.y - other.y) >= (box.height + other.height) / 2
                #expect(apart, "overlapping boxes at \(box) and \(other)")
            }
        }
        let downward = model.edges.filter { layout.boxes[$0.producer].y < layout.boxes[$0.consumer].y }
        #expect(downward.count == model.edges.count, "an acyclic graph's edges all point down")
        #expect(layout.width > 0 && layout.height > 0)
    }
}
