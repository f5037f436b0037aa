import Cog
import CogTesting
import Testing

private let _auditCog = Cog<Int>.Manual(name: "audit") { 0 }
private let _rowCogs = CogBox<Int, String>.Manual(name: "row") { 1 }

/// The runtime a misbehaving selector writes through; set by the test that reads it.
private final class Holder {
    var cogs: Cogs?
}
private let holder = Holder()

private let writingSelectorCogs = CogBox<Int, String>(name: "writingSelector") { c, key in
    let row = c[_rowCogs[key]]
    holder.cogs?.turn("sneakyAudit") { w in w[_auditCog] = row }
    return row * 2
}
private let outerCog = Cog<Int>(name: "outer") { c in c[writingSelectorCogs["x"]] + 1 }

@Suite("Writes during computation")
struct WriteDuringComputationTests {
    @Test func aWriteDuringAnAutomaticComputationFailsNamingTheKeyedPath() {
        let cogs = Cogs.forTesting()
        holder.cogs = cogs
        defer { holder.cogs = nil }
        let diagnostics = cogs.collectingDiagnostics {
            #expect(cogs.peek(outerCog) == 3)
        }
        #expect(diagnostics.map { $0.kind } == [.writeDuringComputation])
        #expect(diagnostics.first?.path == ["outer", "writingSelector[x]"])
        #expect(
            diagnostics.first?.message
                == "Cog cannot start turn \"sneakyAudit\" while automatic cog outer -> writingSelector[x] is "
                + "computing. Automatic computation may only read Cog state. Invoke this op outside automatic "
                + "computation, from event handling or a reaction.")
        #expect(cogs.peek(_auditCog) == 0)
    }

    @Test func aWriteDuringAComputationTrapsInProduction() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let cogs = Cogs.forTesting()
                holder.cogs = cogs
                _ = cogs.peek(outerCog)
            }
        }
        let text = result.standardErrorText
        #expect(text.contains("Cog cannot start turn \"sneakyAudit\""), "stderr was: \(text)")
        #expect(text.contains("Automatic computation may only read Cog state"), "stderr was: \(text)")
        #expect(text.contains("automatic cog outer -> writingSelector[x] is computing"), "stderr was: \(text)")
    }
}
