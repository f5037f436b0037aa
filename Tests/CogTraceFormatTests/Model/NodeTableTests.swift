import Testing

@testable import CogTraceFormat

/// A small seeded generator, so a failing sequence of operations repeats.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

@Suite("Node table")
struct NodeTableTests {
    /// Ids as traces have them (counting up from 1), with negative and enormous ones mixed in
    /// as a hand-edited file might.
    private static func someID(_ generator: inout SeededGenerator) -> NodeID {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: NodeID(-Int.random(in: 0...50, using: &generator))
        case 1: NodeID(Int.random(in: 1_000_000_000...1_000_000_050, using: &generator))
        case 2: NodeID(Int.max - Int.random(in: 0...3, using: &generator))
        default: NodeID(Int.random(in: 0...3_000, using: &generator))
        }
    }

    private static func expectSame(_ table: NodeTable<Int>, _ model: [NodeID: Int]) {
        #expect(table.count == model.count)
        #expect(table.isEmpty == model.isEmpty)
        #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) }) == model)
        #expect(Set(table.keys) == Set(model.keys))
        #expect(table.values.sorted() == model.values.sorted())
        for id in model.keys { #expect(table[id] == model[id]) }
    }

    @Test(arguments: [1, 2, 3, 4])
    func everyOperationAgreesWithADictionary(seed: UInt64) {
        var generator = SeededGenerator(state: seed)
        var table = NodeTable<Int>()
        var model: [NodeID: Int] = [:]
        for step in 0..<6_000 {
            let id = Self.someID(&generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0, 1:
                table[id] = step
                model[id] = step
            case 2:
                table[id] = nil
                model[id] = nil
            case 3:
                // In place through optional chaining: changes a value that is there, adds none.
                table[id]? += 1
                model[id]? += 1
            case 4:
                #expect(table.removeValue(forKey: id) == model.removeValue(forKey: id))
            default:
                #expect(table[id] == model[id])
            }
            if step % 500 == 0 { Self.expectSame(table, model) }
        }
        Self.expectSame(table, model)
        // Emptied, it holds nothing and reads nothing back.
        for id in model.keys { table[id] = nil }
        #expect(table.isEmpty)
        for id in model.keys { #expect(table[id] == nil) }
    }

    @Test func equalityIgnoresTheOrderValuesArrivedIn() {
        var forward = NodeTable<String>()
        var backward = NodeTable<String>()
        let ids = [3, 1, 2, -7, 1_000_000_000_000, 40].map { NodeID($0) }
        for id in ids { forward[id] = "\(id)" }
        for id in ids.reversed() { backward[id] = "\(id)" }
        #expect(forward == backward)
        backward[NodeID(40)] = "changed"
        #expect(forward != backward)
        backward[NodeID(40)] = nil
        #expect(forward != backward)
        #expect(forward.count == backward.count + 1)
    }

    @Test func settingNilThroughModifyRemovesTheValue() {
        var table: NodeTable<[Int]> = [NodeID(5): [1, 2], NodeID(9): [3]]
        table[NodeID(5)]?.append(3)
        #expect(table[NodeID(5)] == [1, 2, 3])
        func clear(_ value: inout [Int]?) { value = nil }
        clear(&table[NodeID(5)])
        #expect(table[NodeID(5)] == nil)
        #expect(table.count == 1)
        #expect(table.keys == [NodeID(9)])
        // Lending out an absent id and leaving it absent adds nothing.
        table[NodeID(77)]?.append(1)
        #expect(table.count == 1)
    }

    @Test func farIDsMoveNearWhenTheTableGrowsToReachThem() {
        var table = NodeTable<Int>()
        // 5,000 is beyond what an empty table reaches; it starts far.
        table[NodeID(5_000)] = 1
        for raw in 1...2_000 { table[NodeID(raw)] = raw }
        #expect(table[NodeID(5_000)] == 1)
        table[NodeID(5_000)] = 2
        #expect(table[NodeID(5_000)] == 2)
        #expect(table.count == 2_001)
        table.removeValue(forKey: NodeID(5_000))
        #expect(table[NodeID(5_000)] == nil)
        #expect(table.count == 2_000)
    }
}
