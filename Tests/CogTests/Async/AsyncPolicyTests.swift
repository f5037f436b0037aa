import Cog
import CogTesting
import Testing

private struct Boom: Error {}

@Suite("Async policies", .timeLimit(.minutes(5)))
struct AsyncPolicyTests {
    @Test func latestCancelsOldWorkSilentlyAndOnlyTheNewestPublishes() async {
        let work = ControlledWork<Int>()
        let _queryCog = Cog<String>.Manual(name: "query") { "a" }
        let resultsCog = Cog<Int>.Async(default: 0, name: "results") { c in
            _ = c[_queryCog]
            return work.run()
        }
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        _ = cogs[resultsCog]
        let first = await work.nextStart()
        cogs.turn("type") { c in c[_queryCog] = "ab" }
        let second = await work.nextStart()
        #expect(first.isCancelled)
        await first.succeed(1)
        await second.succeed(2)
        #expect(cogs.peek(resultsCog) == 2)
        #expect(
            log.lines(startingWith: "start", "cancel", "reject", "accept") == [
                "start results #1 latest", "cancel results #1", "start results #2 latest",
                "reject results #1", "accept results #2 success",
            ])
        #expect(log.lines(startingWith: "turn").contains { $0.contains("failure") } == false)
    }

    @Test func queueRunsInOrderAndAFailurePublishesBeforeTheNextStarts() async {
        let work = ControlledWork<Int>()
        let jobsCog = Cog<Int>.Async(.queue, default: 0, name: "jobs") { _ in work.run() }
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        _ = cogs.peek(jobsCog)
        let second = cogs.refresh(jobsCog)
        let third = cogs.refresh(jobsCog)
        let firstRun = await work.nextStart()
        #expect(work.startCount == 1)
        await firstRun.fail(Boom())
        #expect(cogs.status.peek(jobsCog).kind == .pending)
        let secondRun = await work.nextStart()
        await secondRun.succeed(2)
        #expect(await second.outcome.name == "success")
        if case .success(let value) = await second.outcome {
            #expect(value == 2, "a refresh's outcome carries the value its generation published")
        }
        let thirdRun = await work.nextStart()
        await thirdRun.succeed(3)
        guard case .success(let published) = await third.outcome else {
            Issue.record("the third refresh did not succeed")
            return
        }
        #expect(published == 3)
        #expect(cogs.peek(jobsCog) == 3)
        #expect(
            log.lines(startingWith: "turn") == [
                "turn 1 jobs pending asyncCompletion", "turn 2 jobs failure asyncCompletion",
                "turn 3 jobs pending asyncCompletion", "turn 4 jobs success asyncCompletion",
                "turn 5 jobs pending asyncCompletion", "turn 6 jobs success asyncCompletion",
            ])
    }

    @Test func exhaustLatestFinishesTheCurrentRunThenCatchesUpOnce() async {
        let work = ControlledWork<Int>()
        let syncCog = Cog<Int>.Async(.exhaustLatest, default: 0, name: "sync") { _ in work.run() }
        let cogs = Cogs.forTesting()
        _ = cogs.peek(syncCog)
        let first = await work.nextStart()
        let dropped = cogs.refresh(syncCog)
        let caughtUp = cogs.refresh(syncCog)
        #expect(await dropped.outcome.name == "superseded")
        #expect(first.isCancelled == false)
        await first.succeed(1)
        let catchUp = await work.nextStart()
        await catchUp.succeed(2)
        #expect(await caughtUp.outcome.name == "success")
        #expect(work.startCount == 2)
        #expect(cogs.peek(syncCog) == 2)
    }

    @Test func mergedRunsOverlapAndEachResultIsItsOwnTurn() async {
        let work = ControlledWork<Int>()
        let uploadsCog = Cog<Int>.Async(.merged, default: 0, name: "uploads") { _ in work.run() }
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        _ = cogs.peek(uploadsCog)
        cogs.refresh(uploadsCog)
        let first = await work.nextStart()
        let second = await work.nextStart()
        await second.succeed(20)
        #expect(cogs.peek(uploadsCog) == 20)
        #expect(cogs.status.peek(uploadsCog).isLoading)
        await first.succeed(10)
        #expect(cogs.peek(uploadsCog) == 10)
        #expect(cogs.status.peek(uploadsCog).isLoading == false)
        #expect(log.lines(startingWith: "turn").filter { $0.contains("success") }.count == 2)
    }

    @Test func aDependencyChangeRerunsTheSelectorAndFollowsThePolicy() async {
        let work = ControlledWork<Int>()
        let _pageCog = Cog<Int>.Manual(name: "page") { 1 }
        var selectedPages: [Int] = []
        let pageCog = Cog<Int>.Async(.queue, default: 0, name: "pageContents") { c in
            selectedPages.append(c[_pageCog])
            return work.run()
        }
        let cogs = Cogs.forTesting()
        _ = cogs[pageCog]
        cogs.turn { c in c[_pageCog] = 2 }
        #expect(selectedPages == [1, 2])
        await work.nextStart().succeed(1)
        await work.nextStart().succeed(2)
        #expect(work.startCount == 2)
        #expect(cogs.peek(pageCog) == 2)
    }

    @Test func refreshingANeverReadStatePerformsItsInitialLoadOnce() async {
        let work = ControlledWork<Int>()
        let lazyCog = Cog<Int>.Async(default: 0, name: "lazy") { _ in work.run() }
        let cogs = Cogs.forTesting()
        let handle = cogs.refresh(lazyCog)
        let run = await work.nextStart()
        await run.succeed(5)
        #expect(work.startCount == 1)
        async let firstAwaiter = handle.outcome
        async let secondAwaiter = handle.outcome
        let outcomes = await [firstAwaiter.name, secondAwaiter.name]
        #expect(outcomes == ["success", "success"])
        #expect(cogs.peek(lazyCog) == 5)
    }

    @Test func aSynchronousCogHasNoStatusLens() {
        #expect((Cog<Int>.self as Any.Type) is any CogAsyncReference.Type == false)
        #expect((Cog<Int>.Async.self as Any.Type) is any CogAsyncReference.Type)
    }
}
