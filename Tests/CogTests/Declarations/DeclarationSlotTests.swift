import Testing

@testable import Cog

/// Declarations made and dropped at run time (a test's, a benchmark's) give their slots back, so
/// a runtime's slot table stays as small as the declarations alive at once.
@Suite("Declaration slots")
struct DeclarationSlotTests {
    @Test func droppedDeclarationsGiveTheirSlotsBack() {
        var highestPerRound: [Int] = []
        for round in 0..<50 {
            let batch = (0..<100).map { index in Cog<Int>(name: "slots.\(round).\(index)") { _ in index } }
            highestPerRound.append(batch.map(\.descriptor.slot).max() ?? 0)
        }
        // Fifty rounds of a hundred, never more than a hundred alive at once: without reuse the
        // last round's slots would sit about 4,900 above the first's. The margin leaves room for
        // declarations that tests running alongside make meanwhile.
        #expect(highestPerRound.last! < highestPerRound.first! + 1_000, "\(highestPerRound)")
    }

    @Test func aRuntimeStillFindsEveryStateWhenSlotsAreReused() {
        for round in 0..<20 {
            let source = Cog<Int>.Manual(name: "reuse.source.\(round)") { round }
            let doubled = Cog<Int>(name: "reuse.doubled.\(round)") { c in c[source] * 2 }
            let cogs = Cogs()
            #expect(cogs.peek(doubled) == round * 2)
            cogs.turn { c in c[source] = round + 1 }
            #expect(cogs.peek(doubled) == (round + 1) * 2)
        }
    }
}
