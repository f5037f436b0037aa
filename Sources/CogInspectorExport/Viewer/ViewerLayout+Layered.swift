import CogInspector

extension ViewerLayout {
    /// The built-in layout: each node one layer below the deepest node it reads (cycles broken
    /// where a depth-first walk meets them), layers ordered by a few sweeps that move each node
    /// toward the average place of its neighbours, and the states of one keyed declaration kept
    /// side by side.
    static func layered(nodes: [GraphView.Node], edges: [(producer: Int, consumer: Int)]) -> ViewerLayout {
        let count = nodes.count
        var readers = Array(repeating: [Int](), count: count)
        var producers = Array(repeating: [Int](), count: count)
        for edge in edges where edge.producer != edge.consumer {
            readers[edge.producer].append(edge.consumer)
            producers[edge.consumer].append(edge.producer)
        }
        let layer = layers(count: count, readers: readers)
        let depth = (layer.max() ?? -1) + 1
        var rows = Array(repeating: [Int](), count: depth)
        for slot in 0..<count { rows[layer[slot]].append(slot) }
        var place = Array(repeating: 0.0, count: count)
        func renumber() {
            for row in rows { for (index, slot) in row.enumerated() { place[slot] = Double(index) } }
        }
        renumber()
        for sweep in 0..<8 {
            let downward = sweep % 2 == 0
            for index in downward ? Array(rows.indices) : rows.indices.reversed() {
                let neighbours = downward ? producers : readers
                let center: [Int: Double] = Dictionary(
                    uniqueKeysWithValues: rows[index].map { slot in
                        let around = neighbours[slot].map { place[$0] }
                        return (slot, around.isEmpty ? place[slot] : around.reduce(0, +) / Double(around.count))
                    })
                rows[index] = keptTogether(
                    rows[index].sorted { (center[$0] ?? 0, $0) < (center[$1] ?? 0, $1) }, nodes: nodes)
                for (position, slot) in rows[index].enumerated() { place[slot] = Double(position) }
            }
        }
        return placed(rows: rows, nodes: nodes)
    }

    /// The layer of each node: the longest path to it from a node that reads nothing, ignoring
    /// the edges that close a cycle.
    private static func layers(count: Int, readers: [[Int]]) -> [Int] {
        // Depth-first order, iteratively (a long chain must not exhaust the stack).
        var state = Array(repeating: 0, count: count)  // 0 unseen, 1 on the path, 2 done
        var order: [Int] = []
        var acyclic = Array(repeating: [Int](), count: count)
        for root in 0..<count where state[root] == 0 {
            var stack: [(slot: Int, next: Int)] = [(root, 0)]
            state[root] = 1
            while let top = stack.last {
                if top.next < readers[top.slot].count {
                    stack[stack.count - 1].next += 1
                    let reader = readers[top.slot][top.next]
                    if state[reader] == 1 { continue }  // closes a cycle: left out
                    acyclic[top.slot].append(reader)
                    if state[reader] == 0 {
                        state[reader] = 1
                        stack.append((reader, 0))
                    }
                } else {
                    state[top.slot] = 2
                    order.append(top.slot)
                    stack.removeLast()
                }
            }
        }
        var layer = Array(repeating: 0, count: count)
        for slot in order.reversed() {
            for reader in acyclic[slot] { layer[reader] = max(layer[reader], layer[slot] + 1) }
        }
        return layer
    }

    /// `row` with the keyed states of each declaration moved next to the first of them.
    private static func keptTogether(_ row: [Int], nodes: [GraphView.Node]) -> [Int] {
        var groups: [String: [Int]] = [:]
        var order: [String] = []
        for slot in row {
            let group = nodes[slot].key != nil ? nodes[slot].declaration ?? "#\(slot)" : "#\(slot)"
            if groups[group] == nil { order.append(group) }
            groups[group, default: []].append(slot)
        }
        return order.flatMap { groups[$0] ?? [] }
    }

    /// Boxes for `rows`: each row centred on the widest, rows 90 pixels apart.
    private static func placed(rows: [[Int]], nodes: [GraphView.Node]) -> ViewerLayout {
        let gap = 28.0
        let margin = 20.0
        let rowHeight = 96.0
        let widths = rows.map { row in
            row.map { size(of: nodes[$0]).width }.reduce(0, +) + gap * Double(max(row.count - 1, 0))
        }
        let widest = widths.max() ?? 0
        var boxes = Array(repeating: Box(x: 0, y: 0, width: 0, height: 0), count: nodes.count)
        for (index, row) in rows.enumerated() {
            var x = margin + (widest - widths[index]) / 2
            for slot in row {
                let size = size(of: nodes[slot])
                boxes[slot] = Box(
                    x: x + size.width / 2, y: margin + Double(index) * rowHeight + size.height / 2, width: size.width,
                    height: size.height)
                x += size.width + gap
            }
        }
        return ViewerLayout(
            engine: .layered, boxes: boxes, width: widest + 2 * margin,
            height: Double(rows.count) * rowHeight + 2 * margin)
    }
}
