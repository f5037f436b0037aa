import CogTraceFormat
import Testing

@testable import CogInspector

/// Folding keyed families: each folded family is one node with its key count, and its edges are
/// exactly the union of its members' edges, counted; unfolding gives back the states.
@Suite("Folded families")
struct GraphFoldingTests {
    private func view(turn: Int) throws -> GraphView {
        let session = try DiffTests.session("tour")
        return try session.context().graphView(
            try CommandArguments(["--turn", "\(turn)"], command: "export", valueFlags: ["--turn"]))
    }

    /// The node a state is drawn as once `folded` is made: itself, or its family's node.
    private func drawn(_ id: NodeID, in original: GraphView, folded: GraphView) -> NodeID? {
        if folded.nodes.contains(where: { $0.id == id && $0.memberCount == nil }) { return id }
        guard let declaration = original.nodes.first(where: { $0.id == id })?.declaration else { return nil }
        return folded.nodes.first { $0.memberCount != nil && $0.declaration == declaration }?.id
    }

    @Test(arguments: [9, 16, 25])
    func aFoldedFamilysEdgesAreTheUnionOfItsMembersCounted(_ turn: Int) throws {
        let original = try view(turn: turn)
        let folded = original.folded(unfolding: .families([]), threshold: 1)
        let families = original.families.filter { $0.count > 1 }
        #expect(!families.isEmpty)
        for family in families {
            let node = try #require(folded.nodes.first { $0.label == family.declaration + "[*]" })
            #expect(node.memberCount == family.count)
            #expect(!folded.nodes.contains { $0.declaration == family.declaration && $0.key != nil })
        }
        #expect(folded.edges.map(\.count).reduce(0, +) == original.edges.count)
        var expected: [GraphView.Edge: Int] = [:]
        for edge in original.edges {
            let producer = try #require(drawn(edge.producer, in: original, folded: folded))
            let consumer = try #require(drawn(edge.consumer, in: original, folded: folded))
            expected[GraphView.Edge(producer: producer, consumer: consumer, change: edge.change), default: 0] += 1
        }
        let actual = Dictionary(
            folded.edges.map {
                (GraphView.Edge(producer: $0.producer, consumer: $0.consumer, change: $0.change), $0.count)
            },
            uniquingKeysWith: +)
        #expect(actual == expected)
        #expect(folded.edges.count == Set(folded.edges).count)
    }

    @Test func aFamilysMarksAreItsMembersMarks() throws {
        let original = try view(turn: 9)
        let folded = original.folded(unfolding: .families([]), threshold: 1)
        for family in original.families where family.count > 1 {
            let members = original.nodes.filter { $0.declaration == family.declaration && $0.key != nil }
            let node = try #require(folded.nodes.first { $0.label == family.declaration + "[*]" })
            #expect(Set(node.marks) == Set(members.flatMap(\.marks)))
            #expect(node.markedMembers == members.filter { !$0.marks.isEmpty }.count)
            #expect(node.isNotified == members.contains(where: \.isNotified))
        }
    }

    @Test func unfoldingKeepsTheNamedFamiliesAndAllKeepsEverything() throws {
        let original = try view(turn: 9)
        #expect(original.folded(unfolding: .all, threshold: 1) == original)
        #expect(original.folded(unfolding: .families([])) == original, "the tour's families of 3 stay unfolded")
        let partly = original.folded(unfolding: .families(["weather.isNice"]), threshold: 1)
        #expect(partly.nodes.filter { $0.declaration == "weather.isNice" }.count == 3)
        #expect(partly.nodes.contains { $0.label == "weather.forecast[*]" && $0.memberCount == 3 })
    }

    @Test func foldedFamiliesAreDrawnWithCountsInDOTAndMermaid() throws {
        let folded = try view(turn: 9).folded(unfolding: .families([]), threshold: 1)
        let dot = DOTExport.render(folded, title: "t")
        #expect(dot.contains("weather.forecast[*]\\n3 keys"))
        #expect(dot.contains("label=\"×3\""))
        #expect(dot.contains("a folded keyed family"))
        let mermaid = MermaidExport.render(folded, title: "t")
        #expect(mermaid.contains("-->|\"×3\"|"))
        #expect(mermaid.contains("weather.forecast[*]<br/>3 keys"))
    }

    @Test func unknownFamiliesAreNamedWithTheKnownOnes() throws {
        let session = try DiffTests.session("tour").context()
        let view = try view(turn: 9)
        #expect(try session.unfolding("weather.isNice[*]", in: view) == .families(["weather.isNice"]))
        #expect(
            try session.unfolding("weather.forecast, weather.isSunny", in: view)
                == .families(["weather.forecast", "weather.isSunny"]))
        #expect(try session.unfolding("all", in: view) == .all)
        #expect(throws: InspectorError.self) { try session.unfolding("weather.isNise", in: view) }
        do {
            _ = try session.unfolding("weather.isNise", in: view)
        } catch {
            #expect(
                error.message
                    == "unknown family 'weather.isNise'; did you mean 'weather.isNice'? (its families are "
                    + "weather.forecast, weather.isNice, weather.isSunny, or all)")
        }
    }
}
