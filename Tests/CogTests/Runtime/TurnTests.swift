import Cog
import CogTesting
import Observation
import Testing

private let _countCog = Cog<Int>.Manual(name: "count") { 0 }
private let _labelCog = Cog<String>.Manual(name: "label") { "" }
private let _scoreCogs = CogBox<Int, String>.Manual(name: "score") { 0 }
private let countTextCog = Cog<String>(name: "countText") { c in
    let count = c[_countCog]
    return "count \(count)"
}

extension CogOps {
    fileprivate func incrementTwice() {
        turn { c in
            c[_countCog] += 1
            c[_countCog] += 1
        }
    }

    fileprivate func relabel(_ label: String) {
        turn(_labelCog, to: label)
    }

    /// Composes another op: its nested turn joins this one.
    fileprivate func incrementAndRelabel() {
        turn { c in
            c[_countCog] += 1
            self.relabel("after \(c[_countCog])")
        }
    }
}

@Suite("Turns")
struct TurnTests {
    @Test func aTurnIsNamedAfterItsOpByDefault() {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        cogs.relabel("x")
        cogs.turn("explicit") { c in c[_countCog] = 5 }
        #expect(log.lines(startingWith: "turn") == ["turn 1 relabel(_:) op", "turn 2 explicit op"])
    }

    @Test func aWriterReadsItsTurnsStagedValues() {
        let cogs = Cogs.forTesting()
        cogs.incrementTwice()
        #expect(cogs.peek(_countCog) == 2)
        cogs.turn { c in
            c[_scoreCogs["ada"]] = 3
            #expect(c[_scoreCogs["ada"]] == 3)
            #expect(c[_scoreCogs["bob"]] == 0)
            #expect(c[countTextCog] == "count 2")
        }
    }

    @Test func nestedTurnsJoinTheOuterTurn() {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        let spy = ObservationSpy {
            _ = cogs[_countCog]
            _ = cogs[_labelCog]
        }
        cogs.incrementAndRelabel()
        #expect(cogs.peek(_labelCog) == "after 1")
        #expect(log.lines(startingWith: "turn") == ["turn 1 incrementAndRelabel() op"])
        #expect(spy.changes == 1)
    }

    @Test func equalFinalValuesAreDiscarded() {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        let spy = ObservationSpy { _ = cogs[_countCog] }
        cogs.turn { c in
            c[_countCog] = 5
            c[_countCog] = 0
        }
        #expect(spy.changes == 0)
        #expect(log.lines(startingWith: "write", "discard-write") == ["discard-write count 0"])
    }

    @Test func aWriterUsedAfterItsTurnFails() {
        let cogs = Cogs.forTesting()
        var escaped: Writer?
        cogs.turn { c in escaped = c }
        let diagnostics = cogs.collectingDiagnostics {
            escaped?[_countCog] = 9
        }
        #expect(diagnostics.map(\.kind) == [.staleWriter])
        #expect(
            diagnostics.first?.message
                == "the writer of turn 1 outlived the turn that created it and was used after that turn ended, "
                + "writing to count; a writer is valid only inside its turn's body, so call turn again and use the "
                + "writer it passes"
        )
        #expect(cogs.peek(_countCog) == 0)
    }

    /// A read through an escaped writer is named as a read: "reading count", the public library's
    /// phrase, not "writing to count".
    @Test func aWriterReadAfterItsTurnSaysItWasARead() {
        let cogs = Cogs.forTesting()
        var escaped: Writer?
        cogs.turn { c in escaped = c }
        let diagnostics = cogs.collectingDiagnostics {
            _ = escaped?[_countCog]
        }
        #expect(diagnostics.map(\.kind) == [.staleWriter])
        let message = diagnostics.first?.message ?? ""
        #expect(message.contains("outlived the turn that created it"))
        #expect(message.contains("reading count"))
        #expect(!message.contains("writing to"))
        #expect(message.contains("call turn again"))
    }

    @Test func aStaleWriterTrapsInProduction() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let cogs = Cogs.forTesting()
                var escaped: Writer?
                cogs.turn { c in escaped = c }
                escaped?[_countCog] = 9
            }
        }
        #expect(result.standardErrorText.contains("outlived the turn that created it"))
        #expect(result.standardErrorText.contains("call turn again"))
    }

    @Test func aTurnRequestedDuringAFlushRunsAfterItInFIFOOrder() {
        let cogs = Cogs.forTesting(mechanisms: [EchoMechanism()])
        let log = EventLog.attached(to: cogs)
        cogs.turn("first") { c in c[_countCog] = 1 }
        #expect(
            log.lines(startingWith: "turn") == [
                "turn 1 first op",
                "turn 2 Echo.echoLabel reactionWriteBack after 1",
                "turn 3 Echo.echoScore reactionWriteBack after 1",
            ])
        #expect(cogs.peek(_labelCog) == "echo 1")
        #expect(cogs.peek(_scoreCogs["echo"]) == 1)
        let ends = log.lines.firstIndex(of: "end 1")!
        let second = log.lines.firstIndex(of: "turn 2 Echo.echoLabel reactionWriteBack after 1")!
        #expect(ends < second)
    }

    @Test func anObserverThatWritesQueuesALaterTurn() {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        let observer = WritingObserver(cogs: cogs)
        cogs.turn("bump") { c in c[_countCog] = 4 }
        #expect(observer.seen == [4])
        #expect(cogs.peek(_labelCog) == "seen 4")
        #expect(log.lines(startingWith: "turn") == ["turn 1 bump op", "turn 2 mirror reactionWriteBack after 1"])
    }
}

/// Registers a reaction that writes twice when `count` changes: both writes must wait for the flush.
private struct EchoMechanism: Mechanism {
    func operate(_ m: MechanismController) {
        m.run(name: "echo") { c in
            let count = c[_countCog]
            guard count > 0 else { return }
            m.turn("echoLabel") { w in w[_labelCog] = "echo \(count)" }
            m.turn("echoScore") { w in w[_scoreCogs["echo"]] = count }
        }
    }
}

/// A UI-like observer whose change handler calls an op, as a SwiftUI action might.
private final class WritingObserver {
    let cogs: Cogs
    var seen: [Int] = []

    init(cogs: Cogs) {
        self.cogs = cogs
        arm()
    }

    private func arm() {
        withObservationTracking {
            _ = cogs[_countCog]
        } onChange: { [weak self] in
            MainActor.assumeIsolated { self?.changed() }
        }
    }

    private func changed() {
        let count = cogs.peek(_countCog)
        seen.append(count)
        cogs.turn("mirror") { c in c[_labelCog] = "seen \(count)" }
        arm()
    }
}
