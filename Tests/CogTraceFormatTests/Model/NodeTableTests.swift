import Testing

@testable import CogTraceFormat

@Suite("Node table")
struct NodeTableTests {
    /// A scrambled but repeatable number for step `step` of run `seed`, below `bound`.
    private static func pick(_ step: Int, _ seed: Int, below bound: Int) -> Int {
        var mixed = UInt64(truncatingIfNeeded: step &* 0x9E37_79B9 &+ seed &* 0x85EB_CA6B)
        mixed = (mixed ^ (mixed >> 29)) &* 0xBF58_476D_1CE4_E5B9
        return Int((mixed ^ (mixed >> 32)) % UInt64(bound))
    }

    /// Ids as traces have them (counting up from 1), with negative and enormous ones mixed in
    /// as a hand-edited file might.
    private static func someID(_ step: Int, _ seed: Int) -> NodeID {
        let spread = pick(step, seed &+ 1, below: 3_001)
        switch pick(step, seed &+ 2, below: 10) {
        case 0: return NodeID(-(spread % 51))
        case 1: return NodeID(1_000_000_000 + spread % 51)
        case 2: return NodeID(Int.max - spread % 4)
        default: return NodeID(spread)
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
    func everyOperationAgreesWithADictionary(seed: Int) {
        var table = NodeTable<Int>()
        var model: [NodeID: Int] = [:]
        for step in 0..<6_000 {
            let id = Self.someID(step, seed)
            switch Self.pick(step, seed, below: 6) {
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
        #expect(model.keys.contains { $0.rawValue < 0 }, "no negative id was kept")
        #expect(model.keys.contains { $0.rawValue > 1_000_000 }, "no far id was kept")
        #expect(model.count > 500, "too few ids kept to reach past the near positions")
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
