import CogCommandLine
import CogInspector
import Foundation

/// Where each node of the viewer's graph sits: computed once, over every node and edge the
/// recording ever has, so scrubbing from turn to turn never moves a node. Graphviz's `dot` lays
/// it out when it is installed (its `-Tplain` output gives the centres); otherwise a layered
/// layout of its own, so the viewer works on a machine without Graphviz.
struct ViewerLayout {
    /// A node's box: its centre and size, in pixels.
    struct Box: Equatable {
        var x: Double
        var y: Double
        let width: Double
        let height: Double
    }

    /// Which engine placed the nodes.
    enum Engine: String {
        case dot, layered
    }

    let engine: Engine
    let boxes: [Box]
    let width: Double
    let height: Double

    /// The width and height a node needs for its label and a short value line.
    static func size(of node: GraphView.Node) -> (width: Double, height: Double) {
        let characters = max(node.label.count, 14)
        return (Double(min(characters, 48)) * 7 + 24, 46)
    }

    /// Lays out `nodes` and `edges` (slots into `nodes`) as `engine` asks: with `dot` when it
    /// finishes within the limit, else with the built-in layered layout and a note in `notes`
    /// saying why. An interrupt during `dot` throws `.interrupted` and leaves no `dot` running.
    static func compute(
        nodes: [GraphView.Node], edges: [(producer: Int, consumer: Int)], engine: EngineChoice,
        interruptRequested: @Sendable () -> Bool = { false }, notes: inout [String]
    ) throws(InspectorError) -> ViewerLayout {
        guard let graphviz = engine.graphviz else { return layered(nodes: nodes, edges: edges) }
        if !engine.isExplicit, nodes.count > automaticNodeLimit || edges.count > automaticEdgeLimit {
            notes.append(
                "laid out by the built-in layered layout: \(nodes.count) states and \(edges.count) edges are past "
                    + "what Graphviz lays out in bounded time by default (\(automaticNodeLimit) states, "
                    + "\(automaticEdgeLimit) edges); --layout dot tries it, for up to \(engine.timeLimitText)")
            return layered(nodes: nodes, edges: edges)
        }
        let text = dotInput(nodes: nodes, edges: edges)
        let helper = HelperProgram(program: graphviz, arguments: ["-Tplain"])
        let outcome = try helper.run(
            input: Array(text.utf8), timeLimit: engine.timeLimit, interruptRequested: interruptRequested)
        switch outcome {
        case .finished(0, let output):
            if let laidOut = dotLayout(nodes: nodes, plain: String(decoding: output, as: UTF8.self)) {
                return laidOut
            }
            notes.append("laid out by the built-in layered layout: Graphviz's dot wrote no layout it could read")
        case .finished(let status, _):
            notes.append("laid out by the built-in layered layout: Graphviz's dot failed (exit status \(status))")
        case .timedOut:
            notes.append(
                "laid out by the built-in layered layout: Graphviz's dot did not finish within "
                    + "\(engine.timeLimitText) (\(nodes.count) states, \(edges.count) edges) and was stopped; "
                    + "--layout-seconds N gives it longer")
        case .notStarted(let reason):
            notes.append("laid out by the built-in layered layout: Graphviz's dot could not start (\(reason))")
        }
        return layered(nodes: nodes, edges: edges)
    }

    /// Graphs larger than this are laid out by the built-in layout unless `--layout dot` asks
    /// for Graphviz: `dot` on a dense graph of a few thousand nodes runs for minutes.
    static let automaticNodeLimit = 1_500
    /// The edge count past which the default layout is the built-in one.
    static let automaticEdgeLimit = 6_000

    /// Which layout an export asked for, and how long Graphviz may take.
    struct EngineChoice {
        /// `dot` to use, or nil for the built-in layout.
        var graphviz: URL?
        /// Whether `--layout dot` asked for Graphviz (so size alone does not skip it).
        var isExplicit = false
        /// How long `dot` may run before the built-in layout is used instead.
        var timeLimit: Duration = .seconds(10)

        var timeLimitText: String {
            let (seconds, attoseconds) = timeLimit.components
            let fraction = Double(attoseconds) / 1e18
            return fraction == 0 ? "\(seconds) s" : "\(Double(seconds) + fraction) s"
        }
    }

    /// `dot` on the PATH, if it is installed.
    static var graphvizOnPath: URL? { ProgramSearch.onPath("dot") }

    // MARK: Graphviz

    /// The graph as `dot` input: fixed-size boxes, each keyed family in a cluster.
    private static func dotInput(nodes: [GraphView.Node], edges: [(producer: Int, consumer: Int)]) -> String {
        var text =
            "digraph viewer {\n  graph [rankdir=TB, nodesep=0.35, ranksep=0.55];\n  node [shape=box, fixedsize=true];\n"
        var clusters: [String: [Int]] = [:]
        var order: [String] = []
        for (slot, node) in nodes.enumerated() {
            guard let declaration = node.declaration, node.key != nil else { continue }
            if clusters[declaration] == nil { order.append(declaration) }
            clusters[declaration, default: []].append(slot)
        }
        func line(_ slot: Int) -> String {
            let size = size(of: nodes[slot])
            return "n\(slot) [width=\(size.width / 72), height=\(size.height / 72)];\n"
        }
        var clustered = Set<Int>()
        for (index, declaration) in order.enumerated() {
            guard let members = clusters[declaration], members.count > 1 else { continue }
            text += "  subgraph cluster_\(index) {\n"
            for slot in members {
                text += "    " + line(slot)
                clustered.insert(slot)
            }
            text += "  }\n"
        }
        for slot in nodes.indices where !clustered.contains(slot) { text += "  " + line(slot) }
        for edge in edges { text += "  n\(edge.producer) -> n\(edge.consumer);\n" }
        return text + "}\n"
    }

    /// The boxes `dot -Tplain` placed, or nil when its output misses a node.
    private static func dotLayout(nodes: [GraphView.Node], plain: String) -> ViewerLayout? {
        var boxes = nodes.map { node in
            let size = size(of: node)
            return Box(x: .nan, y: .nan, width: size.width, height: size.height)
        }
        var height = 0.0
        var width = 0.0
        for row in plain.split(separator: "\n") {
            let words = row.split(separator: " ")
            if words.first == "graph", words.count >= 4, let w = Double(words[2]), let h = Double(words[3]) {
                width = w * 72
                height = h * 72
            } else if words.first == "node", words.count >= 4, words[1].hasPrefix("n"),
                let slot = Int(words[1].dropFirst()), boxes.indices.contains(slot),
                let x = Double(words[2]), let y = Double(words[3])
            {
                boxes[slot].x = x * 72
                boxes[slot].y = height - y * 72
            }
        }
        guard width > 0, width.isFinite, height.isFinite, boxes.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            return nil
        }
        let margin = 20.0
        for index in boxes.indices {
            boxes[index].x += margin
            boxes[index].y += margin
        }
        return ViewerLayout(engine: .dot, boxes: boxes, width: width + 2 * margin, height: height + 2 * margin)
    }
}
