import Cog
import CogTesting
import Testing

/// Links kept in one array the selectors index, so no link holds the next one alive by value.
private final class Chain {
    var links: [Cog<Int>] = []
}

/// A chain of `depth` never-read links over one source; each link reads the one below it.
private func makeChain(depth: Int, named name: String) -> (source: Cog<Int>.Manual, chain: Chain) {
    let source = Cog<Int>.Manual(0, name: "\(name).source")
    let chain = Chain()
    for link in 0..<depth {
        let below = link - 1
        chain.links.append(
            Cog<Int>(
                { [unowned chain] c in below < 0 ? c[source] + 1 : c[chain.links[below]] + 1 },
                name: "\(name).link.\(link)"))
    }
    return (source, chain)
}

/// Reading a long chain cold from its far end nests one first computation per link; past 128
/// the runtime stops with an error that says what to do, before the stack would give out.
@Suite("Cold nesting bound")
struct ColdNestingTests {
    @Test func aColdChainWithinTheBoundSettles() {
        let cogs = Cogs.forTesting()
        let (_, chain) = makeChain(depth: 100, named: "cold.short")
        #expect(cogs.peek(chain.links[99]) == 100)
    }

    @Test func aColdChainPastTheBoundFailsOnceAndSaysWhatToDo() {
        let cogs = Cogs.forTesting()
        let (_, chain) = makeChain(depth: 200, named: "cold.long")
        let diagnostics = cogs.collectingDiagnostics { _ = cogs.peek(chain.links[199]) }
        #expect(diagnostics.map(\.kind) == [.coldNesting])
        let message = diagnostics.first?.message ?? ""
        #expect(message.contains("nested computations"))
        #expect(message.contains("cold.long.link.199"))
        #expect(message.contains("Read the chain from its source end first"))
        #expect(diagnostics.first?.path.count == 129)
    }

    @Test func aWarmChainSettlesFarPastTheBound() {
        let cogs = Cogs.forTesting()
        let (source, chain) = makeChain(depth: 2_000, named: "cold.warm")
        for link in chain.links { _ = cogs.peek(link) }  // each first computation is shallow
        #expect(cogs.peek(chain.links[1_999]) == 2_000)
        cogs.turn { c in c[source] = 1 }
        #expect(cogs.peek(chain.links[1_999]) == 2_001)
    }
}
