import Cog
import CogTesting
import Testing

@Suite("Status lens", .timeLimit(.minutes(5)))
struct StatusLensTests {
    @Test func eachStatusFieldIsTrackedOnItsOwnAtTheUIEdge() async {
        let work = ControlledWork<Int>()
        let countCog = Cog<Int>.Async(default: 0, name: "count") { _ in work.run() }
        let cogs = Cogs.forTesting()
        let succeeded = ObservationSpy { _ = cogs.status[countCog].hasSucceeded }
        let loading = ObservationSpy { _ = cogs.status[countCog].isLoading }
        let bound = ObservationSpy { _ = cogs.status[countCog] }
        await work.nextStart().succeed(1)
        #expect(succeeded.changes == 1)
        #expect(loading.changes == 1)

        cogs.refresh(countCog)
        await work.nextStart().succeed(2)
        #expect(succeeded.changes == 1)
        #expect(loading.changes == 2)
        #expect(bound.changes == 0, "binding the status tracks no field until one is read")
    }

    @Test func aSelectorReadingTheStatusFollowsEveryStatusChange() async {
        let work = ControlledWork<Int>()
        let countCog = Cog<Int>.Async(default: 0, name: "count") { _ in work.run() }
        var plainRuns = 0
        var statusRuns = 0
        let labelCog = Cog<String>(name: "label") { c in
            plainRuns += 1
            return "\(c[countCog])"
        }
        let spinnerCog = Cog<Bool>(name: "spinner") { c in
            statusRuns += 1
            return c.status[countCog].isLoading
        }
        let cogs = Cogs.forTesting()
        let labels = ObservationSpy {
            _ = cogs[labelCog]
            _ = cogs[spinnerCog]
        }
        await work.nextStart().succeed(5)
        #expect(plainRuns == 2)
        cogs.refresh(countCog)
        await work.nextStart().succeed(5)
        #expect(plainRuns == 2, "derive from the plain read to stay calm across reloads")
        #expect(statusRuns == 4)
        #expect(labels.changes >= 1)
    }

    @Test func statusPeekWorksFromOps() async {
        let work = ControlledWork<Int>()
        let countCog = Cog<Int>.Async(default: 0, name: "count") { _ in work.run() }
        let cogs = Cogs.forTesting()
        let ops: any CogOps = cogs
        #expect(ops.status.peek(countCog).isLoading)
        await work.nextStart().succeed(9)
        #expect(ops.status.peek(countCog).value == 9)
    }

    @Test func aRefreshRequestedByASelectorFails() {
        let work = ControlledWork<Int>()
        let countCog = Cog<Int>.Async(default: 0, name: "count") { _ in work.run() }
        let holder = RuntimeHolder()
        let refreshingCog = Cog<Int>(name: "refreshing") { c in
            holder.cogs?.refresh(countCog)
            return 1
        }
        let cogs = Cogs.forTesting()
        holder.cogs = cogs
        let diagnostics = cogs.collectingDiagnostics { _ = cogs.peek(refreshingCog) }
        #expect(
            diagnostics.map(\.message) == [
                "Cog cannot start turn \"refresh(_:)\" while automatic cog refreshing is computing. Automatic "
                    + "computation may only read Cog state. Invoke this op outside automatic computation, from event "
                    + "handling or a reaction."
            ])
    }
}

private final class RuntimeHolder {
    var cogs: Cogs?
}
