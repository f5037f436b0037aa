import CogTraceFormat
import Testing

@testable import CogInspector

/// Moving the cursor says so when it cannot move, and a one-turn diff reads in time order.
@Suite("Travel")
struct TravelTests {
    @Test func stepAndBackAtTheEndsSayTheyCannotMove() throws {
        let session = try DiffTests.session("tour")
        try session.move(to: 25)
        #expect(try session.execute("step")?.report.first == .message("already at the last turn; nothing to step to"))
        try session.move(to: 1)
        #expect(try session.execute("back")?.report.first == .message("already at the first turn; nothing before it"))
        let moved = try #require(try session.execute("step 2"))
        #expect(session.cursor == 3)
        #expect(moved.report.count == 1, "a move that happens needs no note")
    }

    @Test func aOneTurnDiffComparesInTimeOrder() throws {
        let session = try DiffTests.session("tour")
        try session.move(to: 25)
        #expect(try session.execute("diff 9")?.report.first == .message("from turn 9 to turn 25"))
        try session.move(to: 5)
        #expect(try session.execute("diff 9")?.report.first == .message("from turn 5 to turn 9"))
    }

    /// A range that holds no turn says which turns the trace has, as `goto` does; a filter that
    /// matched nothing says only that.
    @Test func anEmptyRangeSaysWhichTurnsThereAre() throws {
        let session = try DiffTests.session("tour")
        #expect(
            try session.execute("turns 30..40")?.report == [.message("no turns in 30..40; the trace has turns 1..25")])
        #expect(try session.execute("play 30..")?.report == [.message("no turns in 30..; the trace has turns 1..25")])
        #expect(try session.execute("turns 5 --name nothing*")?.report == [.message("no turns match")])
    }
}
