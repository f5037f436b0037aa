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

    /// Lays out `nodes` and `edges` (slots into `nodes`), with `dot` at `graphviz` when given
    /// and it succeeds, else with the built-in layered layout.
    static func compute(
        nodes: [GraphView.Node], edges: [(producer: Int, consumer: Int)], graphviz: URL?
    ) -> ViewerLayout {
        if let graphviz, let laidOut = dotLayout(nodes: nodes, edges: edges, dot: graphviz) { return laidOut }
        return layered(nodes: nodes, edges: edges)
    }

    /// `dot` on the PATH, if it is installed.
    static var graphvizOnPath: URL? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { URL(fileURLWithPath: String($0)).appendingPathComponent("dot") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    // MARK: Graphviz

    private static func dotLayout(
        nodes: [GraphView.Node], edges: [(producer: Int, consumer: Int)], dot: URL
    ) -> ViewerLayout? {
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
        text += "}\n"
        guard let plain = run(dot, arguments: ["-Tplain"], input: text) else { return nil }
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
        guard width > 0, boxes.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        let margin = 20.0
        for index in boxes.indices {
            boxes[index].x += margin
            boxes[index].y += margin
        }
        return ViewerLayout(engine: .dot, boxes: boxes, width: width + 2 * margin, height: height + 2 * margin)
    }

    /// Runs `program` with `input` on standard input; its standard output, or nil when it fails.
    private static func run(_ program: URL, arguments: [String], input: String) -> String? {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        let standardInput = Pipe()
        let standardOutput = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        // Written from another thread, so a large layout cannot fill both pipes and stall.
        let writer = Thread {
            standardInput.fileHandleForWriting.write(Data(input.utf8))
            try? standardInput.fileHandleForWriting.close()
        }
        writer.start()
        let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: output, as: UTF8.self)
    }
}
