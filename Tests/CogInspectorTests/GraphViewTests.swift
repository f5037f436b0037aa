import CogTraceFormat
import Testing

@testable import CogInspector

/// The graph an export draws, checked on the tour's turn 9, where the current ZIP moves from
/// New York to San Francisco, and the escaping that keeps recorded values out of the syntax.
@Suite("Graph views and their renderings")
struct GraphViewTests {
    private func view(_ name: String, turn: Int, focus: String? = nil, depth: Int? = nil) throws -> GraphView {
        let session = try DiffTests.session(name)
        var words = ["--turn", "\(turn)"]
        if let focus { words += ["--focus", focus] }
        if let depth { words += ["--depth", "\(depth)"] }
        return try session.context().graphView(
            try CommandArguments(words, command: "export", valueFlags: ["--turn", "--focus", "--depth"]))
    }

    private func node(_ view: GraphView, _ label: String) throws -> GraphView.Node {
        try #require(view.nodes.first { $0.label == label })
    }

    @Test func turnNineMarksTheWriteTheGatedRecomputeAndTheMovedEdge() throws {
        let view = try view("tour", turn: 9)
        #expect(try node(view, "weather.currentZip").marks == [.written])
        #expect(try node(view, "weather.currentZip").isNotified)
        #expect(try node(view, "weather.isNiceHere").marks == [.gated])
        #expect(try node(view, "weather.isNice[10001]").marks.isEmpty)
        let here = try node(view, "weather.isNiceHere").id
        let added = view.edges.filter { $0.change == .added }
        let removed = view.edges.filter { $0.change == .removed }
        #expect(added.map(\.consumer) == [here] && removed.map(\.consumer) == [here])
        #expect(try added.map(\.producer) == [node(view, "weather.isNice[94105]").id])
        #expect(try removed.map(\.producer) == [node(view, "weather.isNice[10001]").id])
    }

    @Test func keyedStatesOfOneDeclarationShareACluster() throws {
        let clusters = try view("tour", turn: 9).clusters
        #expect(clusters.map(\.declaration) == ["weather.forecast", "weather.isNice", "weather.isSunny"])
        #expect(clusters.allSatisfy { $0.nodes.count == 3 })
    }

    @Test func focusKeepsTheNeighbourhoodWithinTheDepth() throws {
        let near = try view("tour", turn: 9, focus: "weather.isNiceHere", depth: 1)
        #expect(
            Set(near.nodes.map(\.label)) == [
                "weather.isNiceHere", "weather.currentZip", "weather.isNice[94105]", "weather.isNice[10001]",
                "Weather.niceAlert",
            ])
        #expect(near.edges.allSatisfy { edge in near.nodes.contains { $0.id == edge.producer } })
        let wider = try view("tour", turn: 9, focus: "weather.isNiceHere", depth: 2)
        #expect(wider.nodes.count > near.nodes.count)
        #expect(
            try view("tour", turn: 9, focus: "weather.isNiceHere", depth: 0).nodes.map(\.label) == [
                "weather.isNiceHere"
            ])
    }

    @Test func registrationsThatReadStatesAreNodes() throws {
        let view = try view("screens", turn: 9)
        #expect(try node(view, "Weather.niceAlert").kind == .watch)
        #expect(view.nodes.contains { $0.kind == .scope })
        let map = try self.view("map", turn: 9)
        let export = try node(map, "export weather.mapLocation")
        #expect(export.kind == .export && export.marks == [.ran])
    }

    @Test func recordedTextCannotBreakOutOfALabel() {
        #expect(DOTExport.quoted("a \"quoted\" \\ value\nnext") == #""a \"quoted\" \\ value\nnext""#)
        #expect(MermaidExport.text("<b>\"x\" & #1</b>") == "#lt;b#gt;#quot;x#quot; #amp; #35;1#lt;/b#gt;")
        // Each syntax's own escaping shows control characters as text, so no byte of a value
        // reaches a terminal or a renderer raw.
        #expect(DOTExport.quoted("evil\u{1B}]0;title\u{07}") == #""evil\\u{1B}]0;title\\u{7}""#)
        #expect(MermaidExport.text("evil\u{1B}[2J") == "evil\\u{1B}[2J")
    }

    @Test func jsonCarriesKindsValuesAndWhatTheTurnDid() throws {
        let view = try view("tour", turn: 9, focus: "weather.currentZip", depth: 0)
        let document = GraphJSONExport.document(view, title: "t")
        let node = try #require(document["nodes"]?.arrayValue?.first)
        #expect(node["kind"]?.stringValue == "manual" && node["label"]?.stringValue == "weather.currentZip")
        #expect(node["value"]?["j"]?.stringValue == "94105")
        #expect(node["turn"]?["marks"]?.arrayValue == [.string("written")])
        #expect(document["links"]?.arrayValue == [])
    }
}
