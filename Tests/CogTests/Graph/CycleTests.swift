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
        #expect(diagnostics.first?.message == "cycle: head -> link[1] -> head")
    }

    @Test func aCycleTrapsInEveryBuild() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let cogs = Cogs.forTesting()
                _ = cogs.peek(selfReadingCog)
            }
        }
        #expect(result.standardErrorText.contains("cycle: selfReading -> selfReading"))
    }
}
