import Cog
import CogTesting
import Testing

private struct FeedLost: Error {}

@Suite("Async streams", .timeLimit(.minutes(5)))
struct AsyncStreamTests {
    @Test func eachChangedElementPublishesAndEqualElementsMakeNoTurn() async {
        let prices = ControlledStream<Int>()
        let priceCog = Cog<Int>.Async(default: 0, name: "price") { _ in prices.stream() }
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        let spy = ObservationSpy { _ = cogs[priceCog] }
        let feed = await prices.nextStart()
        await feed.yield(10)
        await feed.yield(10)
        await feed.yield(11)
        #expect(cogs.peek(priceCog) == 11)
        #expect(spy.changes == 1)
        #expect(
            log.lines(startingWith: "turn") == [
                "turn 1 price pending asyncCompletion", "turn 2 price success asyncCompletion",
                "turn 3 price success asyncCompletion",
            ])
    }

    @Test func naturalEndPublishesNothingAndStartsNothing() async {
        let prices = ControlledStream<Int>()
        let priceCog = Cog<Int>.Async(default: 0, name: "price") { _ in prices.stream() }
        let cogs = Cogs.forTesting()
        _ = cogs[priceCog]
        let feed = await prices.nextStart()
        await feed.yield(3)
        let log = EventLog.attached(to: cogs)
        await feed.finish()
        #expect(log.lines.isEmpty)
        #expect(prices.startCount == 1)
        #expect(cogs.status.peek(priceCog).kind == .success)
        #expect(cogs.peek(priceCog) == 3)
    }

    @Test func anEmptyStreamStaysPendingOnItsDefault() async {
        let prices = ControlledStream<Int>()
        let priceCog = Cog<Int>.Async(default: -1, name: "price") { _ in prices.stream() }
        let cogs = Cogs.forTesting()
        _ = cogs.peek(priceCog)
        await prices.nextStart().finish()
        let price = cogs.status.peek(priceCog)
        #expect(price.kind == .pending)
        #expect(price.value == -1)
        #expect(price.hasSucceeded == false)
    }

    @Test func aCurrentErrorPublishesFailureAndKeepsTheLastValue() async {
        let prices = ControlledStream<Int>()
        let priceCog = Cog<Int>.Async(default: 0, name: "price") { _ in prices.stream() }
        let cogs = Cogs.forTesting()
        _ = cogs.peek(priceCog)
        let feed = await prices.nextStart()
        await feed.yield(7)
        await feed.fail(FeedLost())
        let price = cogs.status.peek(priceCog)
        #expect(price.kind == .failure)
        #expect(price.value == 7)
        #expect(price.error is FeedLost)
        #expect(prices.startCount == 1)
    }

    @Test func anErrorBeforeTheFirstElementFailsTheRefreshHandle() async {
        let prices = ControlledStream<Int>()
        let priceCog = Cog<Int>.Async(default: 0, name: "price") { _ in prices.stream() }
        let cogs = Cogs.forTesting()
        let handle = cogs.refresh(priceCog)
        await prices.nextStart().fail(FeedLost())
        #expect(await handle.outcome.name == "failure")
    }

    @Test func theFirstElementResolvesTheRefreshAndALaterErrorCannotChangeIt() async {
        let prices = ControlledStream<Int>()
        let priceCog = Cog<Int>.Async(default: 0, name: "price") { _ in prices.stream() }
        let cogs = Cogs.forTesting()
        let handle = cogs.refresh(priceCog)
        let feed = await prices.nextStart()
        await feed.yield(1)
        await feed.fail(FeedLost())
        #expect(await handle.outcome.name == "success")
    }

    @Test func aReplacedStreamIsCancelledSilently() async {
        let prices = ControlledStream<Int>()
        let _symbolCog = Cog<String>.Manual(name: "symbol") { "A" }
        let priceCog = Cog<Int>.Async(default: 0, name: "price") { c in
            _ = c[_symbolCog]
            return prices.stream()
        }
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        _ = cogs[priceCog]
        let first = await prices.nextStart()
        await first.yield(1)
        cogs.turn { c in c[_symbolCog] = "B" }
        let second = await prices.nextStart()
        #expect(first.isTerminated)
        await second.yield(2)
        #expect(cogs.peek(priceCog) == 2)
        #expect(log.lines(startingWith: "turn").contains { $0.contains("failure") } == false)
    }
}
