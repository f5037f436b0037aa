import Testing
import Observation
@testable import Cog
import CogTesting

private let _countCog = Cog<Int>.Manual(name: "count") { 0 }
private let doubleCog = Cog<Int>(name: "double") { c in c[_countCog] * 2 }

@Test func smoke() {
    let cogs = Cogs.forTesting()
    #expect(cogs.peek(doubleCog) == 0)
    cogs.turn { c in c[_countCog] = 3 }
    #expect(cogs.peek(doubleCog) == 6)
    let spy = ObservationSpy { _ = cogs[doubleCog] }
    cogs.turn { c in c[_countCog] = 4 }
    #expect(spy.changes == 1)
}

@Test func trapsOnSecondAssembly() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await MainActor.run {
            _ = Cogs.assemble()
            _ = Cogs.assemble()
        }
    }
}
