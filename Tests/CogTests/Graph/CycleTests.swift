import Cog
import CogTesting
import Testing

private let _closesLoopCog = Cog<Bool>.Manual(name: "closesLoop") { false }
private let headCog: Cog<Int> = Cog(name: "head") { c in
    c[linkCogs[1]] + 1
}
private let linkCogs: CogBox<Int, Int> = CogBox(name: "link") { c, key in
    let closesLoop = c[_closesLoopCog]
    return closesLoop ? c[headCog] * key : key
}
private let selfReadingCog: Cog<Int> = Cog(name: "selfReading") { c in c[selfReadingCog] + 1 }

/// What `cycleDiagnostic(ifReading:)` answered inside `probingTailCogs`' selector.
@MainActor private var probedCycles: [CogCycleDiagnostic?] = []
private let probingHeadCog: Cog<Int> = Cog(name: "probingHead") { c in c[probingTailCogs[3]] + 1 }
private let probingTailCogs: CogBox<Int, Int> = CogBox(name: "probingTail") { c, key in
    probedCycles.append(c.cycleDiagnostic(ifReading: probingHeadCog))
    probedCycles.append(c.cycleDiagnostic(ifReading: _closesLoopCog))
    return key
}

@Suite("Cycles")
struct CycleTests {
    @Test func aCycleNamesTheWholeKeyedPath() {
        let cogs = Cogs.forTesting()
        #expect(cogs.peek(headCog) == 2)
        let diagnostics = cogs.collectingDiagnostics {
            cogs.turn { c in c[_closesLoopCog] = true }
            _ = cogs.peek(headCog)
        }
        #expect(diagnostics.map(\.kind) == [.cycle])
        #expect(diagnostics.first?.path == ["head", "link[1]", "head"])
        #expect(diagnostics.first?.message == "Cog dependency cycle: head -> link[1] -> head.")
    }

    @Test func aCycleTrapsInEveryBuild() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let cogs = Cogs.forTesting()
                _ = cogs.peek(selfReadingCog)
            }
        }
        #expect(result.standardErrorText.contains("Cog dependency cycle: selfReading -> selfReading."))
    }

    @Test func aSelectorCanAskWhichCycleAReadWouldCloseWithoutClosingIt() {
        let cogs = Cogs.forTesting()
        probedCycles = []
        let diagnostics = cogs.collectingDiagnostics { #expect(cogs.peek(probingHeadCog) == 4) }
        #expect(diagnostics.isEmpty, "asking reads nothing, so no cycle happened")
        #expect(probedCycles.count == 2)
        #expect(probedCycles.first??.path == ["probingHead", "probingTail[3]", "probingHead"])
        #expect(probedCycles.first??.message == "Cog dependency cycle: probingHead -> probingTail[3] -> probingHead.")
        #expect(probedCycles.last == .some(nil), "a state off the running path closes no cycle")
    }
}
