import Cog
import CogTesting
import Testing

/// The agent guide's shapes (AgentGuideShapes.swift) doing what the guide says they do.
@Suite("The public library's agent guide, as code")
struct AgentGuideShapesTests {
    @Test func shelvingABookClearsTheDraft() {
        let cogs = Cogs.forTesting()
        cogs.typeDraftTitle("Middlemarch")
        cogs.shelveBook(id: BookID(rawValue: "middlemarch"))
        #expect(cogs.peek(bookIDsCog) == [BookID(rawValue: "middlemarch")])
        #expect(cogs.peek(draftTitleCog) == "")
        #expect(cogs.peek(unreadBookCountCog) == 1)
        cogs.finishBook(BookID(rawValue: "middlemarch"))
        #expect(cogs.peek(unreadBookCountCog) == 0)
        cogs.selectShelfFilter(.read)
        #expect(cogs.peek(shelfFilterCog) == .read)
    }

    @Test func theMechanismRestoresTheSavedShelfAndSavesChanges() {
        var saved: [ShelfSnapshot] = []
        let cogs = Cogs.forTesting(mechanisms: [
            ShelfMechanism(store: ShelfStore(load: { .fixture }, save: { saved.append($0) }))
        ])
        #expect(cogs.peek(bookIDsCog) == ShelfSnapshot.fixture.books.map(\.id))
        #expect(saved.isEmpty, "installing is not a change to save")
        cogs.selectShelfFilter(.all)
        #expect(saved.last?.filter == .all)
    }

    @Test func theGatedScopeTicksOnlyWhileReading() async {
        let clock = TestClock()
        let cogs = Cogs.forTesting(mechanisms: [ReadingTimerMechanism(clock: clock)])
        cogs.startReading()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)
        #expect(cogs.peek(readingSecondsCog) == 1)
        cogs.stopReading()
        for _ in 0..<100 where clock.activeSleeperCount > 0 { await Task.yield() }
        #expect(clock.activeSleeperCount == 0, "the tick task ended with the scope")
    }

    @Test func navigationOpsWriteWholeDestinations() {
        let cogs = Cogs.forTesting()
        cogs.open(.book(BookID(rawValue: "dune"), author: "Herbert"))
        #expect(cogs.peek(libraryPathCogs[.shelf]) == [.author("Herbert"), .book(BookID(rawValue: "dune"))])
        cogs.selectLibraryTab(.shelf)
        #expect(cogs.peek(libraryPathCogs[.shelf]).isEmpty, "reselecting pops to the root")
    }

    @Test func aReviewLoadsAndItsStatusReadsAsTheGuideShows() async {
        let cogs = Cogs.forTesting()
        let id = BookID(rawValue: "dune")
        #expect(cogs.status.peek(bookReviewCogs[id]).isLoading)
        cogs.refreshReview(for: id)
        for _ in 0..<1_000 where cogs.peek(bookReviewCogs[id]) == nil { await Task.yield() }
        #expect(cogs.peek(bookReviewCogs[id]) == Review(stars: 4))
        let review = cogs.status.peek(bookReviewCogs[id])
        #expect(review.hasSucceeded && review.error == nil)
    }

    @Test func theAppAssemblesOnce() {
        Cogs.withAssembledCogs(mechanisms: [ShelfMechanism(store: ShelfStore(load: { nil }, save: { _ in }))]) {
            cogs in
            #expect(Cogs.isAssembledCogs(cogs))
            #expect(cogs.peek(bookIDsCog).isEmpty)
        }
    }
}
