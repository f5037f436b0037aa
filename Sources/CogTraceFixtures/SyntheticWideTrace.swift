import CogTraceFormat
package import Foundation

/// Writes a wide `.cogtrace`: thousands of states in keyed families, like a catalogue or a feed,
/// without running an app. The first family holds the sources; each state of a later family
/// reads states of earlier ones, so the graph has `states × edgesPerState` edges. Each turn
/// writes one source and recomputes its readers; every 100th turn also moves one reader's edge.
/// Deterministic, so every run measures the same file.
package struct SyntheticWideTrace {
    /// What a wide trace is made of.
    package struct Shape: Equatable, Sendable {
        /// States in all, every one a member of a keyed family.
        package var states = 10_000
        /// How many keys a family has: the first family has the most, the others vary between.
        package var keysPerFamily: ClosedRange<Int> = 100...2_000
        /// Edges per state, on average over the whole graph.
        package var edgesPerState = 5
        /// Turns after start-up.
        package var turns = 10_000

        package init() {}
    }

    package let shape: Shape
    package let keyframeInterval = 1_000
    /// Each state's family and key, in id order (id = index + 1).
    private var members: [(family: Int, key: Int)] = []
    /// Each family's declaration.
    private var declarations: [String] = []
    /// The states of the first family (the sources) are ids 1...sourceCount.
    private var sourceCount = 0
    private var readers: [[Int]] = []
    private var values: [Int] = []
    private var graph = GraphSnapshot()
    private var turnsWritten = 0
    private var keyframesWritten = 0
    private var random: UInt64 = 0x9E37_79B9_7F4A_7C15

    package init(shape: Shape) {
        self.shape = shape
    }

    /// Family sizes: the largest first, then a deterministic spread over the range, the last
    /// one taking what is left.
    package static func familySizes(_ shape: Shape) -> [Int] {
        let low = max(1, shape.keysPerFamily.lowerBound)
        let high = max(low, shape.keysPerFamily.upperBound)
        var sizes: [Int] = []
        var left = max(1, shape.states)
        while left > 0 {
            let size = sizes.isEmpty ? high : low + (sizes.count * 7_919) % (high - low + 1)
            sizes.append(min(size, left))
            left -= sizes[sizes.count - 1]
        }
        return sizes
    }

    private static let names = [
        "catalog.item", "catalog.price", "catalog.stock", "feed.post", "feed.score", "map.tile", "map.pin",
        "cart.line", "search.hit", "profile.card",
    ]

    /// The declaration of family `family` (0 is the sources'): `catalog.item`, `catalog.price`,
    /// and so on, with a number after the first round of names.
    package static func declaration(ofFamily family: Int) -> String {
        let round = family / names.count
        return names[family % names.count] + (round == 0 ? "" : "\(round + 1)")
    }

    /// A source's label (the first state) and the label of the last state, a reader in the
    /// last family, whose `why` walks back through the earlier ones.
    package static func landmarks(_ shape: Shape) -> (source: String, reader: String) {
        let sizes = familySizes(shape)
        return (
            "\(declaration(ofFamily: 0))[0]", "\(declaration(ofFamily: sizes.count - 1))[\(sizes[sizes.count - 1] - 1)]"
        )
    }

    private mutating func next(_ bound: Int) -> Int {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((random >> 33) % UInt64(max(bound, 1)))
    }

    /// Writes the trace to `url`; returns its size in bytes.
    package mutating func write(to url: URL) throws -> Int {
        var file = try LineFile(creating: url)
        defer { file.close() }
        TraceHeader(
            runID: "synthetic-wide", title: "synthetic wide \(shape.states) states", clock: "virtual", mode: "ring",
            capacity: max(shape.turns, 1), keyframeInterval: keyframeInterval
        ).jsonValue.write(to: &file.lines)
        file.lines += "\n"
        for info in declareStates() {
            info.jsonValue.write(to: &file.lines)
            file.lines += "\n"
        }
        for sequence in 1...max(shape.turns, 1) {
            if (sequence - 1) % keyframeInterval == 0 {
                graph.keyframeJSONValue(before: sequence).write(to: &file.lines)
                file.lines += "\n"
                keyframesWritten += 1
            }
            let turn = makeTurn(sequence)
            for event in turn.events { graph.apply(event) }
            turn.jsonValue.write(to: &file.lines)
            file.lines += "\n"
            turnsWritten = sequence
            try file.flush(ifLargerThan: 1 << 20)
        }
        TraceTrailer(ok: true, turns: turnsWritten, evicted: 0, dropped: 0, keyframes: keyframesWritten).jsonValue
            .write(to: &file.lines)
        file.lines += "\n"
        try file.flush()
        return file.size
    }

    private func value(_ number: Int) -> TraceValue { TraceValue(text: "\(number)", json: .int(number)) }

    /// The state table, and the graph as it stands after start-up.
    private mutating func declareStates() -> [TraceStateInfo] {
        let sizes = Self.familySizes(shape)
        var infos: [TraceStateInfo] = []
        for (family, size) in sizes.enumerated() {
            let declaration = Self.declaration(ofFamily: family)
            declarations.append(declaration)
            for key in 0..<size {
                members.append((family, key))
                let id = NodeID(members.count)
                infos.append(
                    TraceStateInfo(
                        id: id, label: "\(declaration)[\(key)]", declaration: declaration, key: "\(key)",
                        shape: family == 0 ? .manual : .automatic, valueType: "Int",
                        lifetime: family == 0 ? .app : StateLifetime(rawValue: "whileObserved(30.0 seconds)"),
                        policy: nil))
                values.append(key)
                graph.apply(.stateCreated(state: id, value: value(key)))
            }
        }
        sourceCount = sizes.first ?? 0
        readers = Array(repeating: [], count: members.count)
        let consumers = members.count - sourceCount
        guard consumers > 0 else { return infos }
        let edges = shape.states * max(shape.edgesPerState, 0)
        var familyStart = sourceCount
        for family in 1..<sizes.count {
            for index in familyStart..<(familyStart + sizes[family]) {
                let share = edges / consumers + ((index - sourceCount) < edges % consumers ? 1 : 0)
                var producers: [Int] = []
                var chosen = Set<Int>()
                while producers.count < min(share, familyStart) {
                    let producer = next(familyStart)
                    if chosen.insert(producer).inserted { producers.append(producer) }
                }
                for producer in producers { readers[producer].append(index) }
                graph.apply(
                    .dependencies(consumer: NodeID(index + 1), producers: producers.map { NodeID($0 + 1) }))
            }
            familyStart += sizes[family]
        }
        return infos
    }

    /// Turn `sequence`: a source written, its readers recomputed; every 100th turn one reader
    /// also trades a producer for another.
    private mutating func makeTurn(_ sequence: Int) -> TraceTurn {
        let source = next(max(sourceCount, 1))
        values[source] += 1
        var events: [TraceEvent] = [
            .write(state: NodeID(source + 1), old: value(values[source] - 1), new: value(values[source]))
        ]
        for reader in readers[source].prefix(8) {
            values[reader] += 1
            events.append(
                .recompute(
                    state: NodeID(reader + 1), old: value(values[reader] - 1), new: value(values[reader]),
                    changed: true, trigger: NodeID(source + 1)))
        }
        events.append(.notice(state: NodeID(source + 1)))
        if sequence % 100 == 0, let reader = readers[source].first {
            rewire(reader, events: &events)
        }
        let family = declarations[members[source].family]
        return TraceTurn(
            sequence: TurnNumber(sequence), name: "\(family)[\(members[source].key)] set", origin: .op, cause: nil,
            start: sequence * 1_000, duration: 50, events: events)
    }

    /// Moves one of `reader`'s edges to another producer of an earlier family.
    private mutating func rewire(_ reader: Int, events: inout [TraceEvent]) {
        let id = NodeID(reader + 1)
        guard var producers = graph.states[id]?.dependencies.map({ $0.rawValue - 1 }), let old = producers.first
        else { return }
        var start = 0
        while start < members.count, members[start].family < members[reader].family { start += 1 }
        let replacement = next(start)
        guard !producers.contains(replacement) else { return }
        producers[0] = replacement
        readers[old].removeAll { $0 == reader }
        readers[replacement].append(reader)
        events += [
            .edgeAdded(consumer: id, producer: NodeID(replacement + 1)),
            .edgeRemoved(consumer: id, producer: NodeID(old + 1)),
            .dependencies(consumer: id, producers: producers.map { NodeID($0 + 1) }),
        ]
    }
}
