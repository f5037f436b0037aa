import Cog
import CogTesting
import Testing

private let _stepsCog = Cog<Int>.Manual(name: "history.steps") { 0 }
private let doubledStepsCog = Cog<Int>(name: "history.doubled") { c in c[_stepsCog] * 2 }
private let stepLabelsCog = CogBox<String, Int>(name: "history.label") { c, key in "\(key):\(c[_stepsCog])" }

#if DEBUG
    /// The runtime's bounded debug history: turns, writes, recomputes, notices and effects, by
    /// name and turn, fed by the probe events a recorder sees.
    @Suite("Debug history")
    struct DebugHistoryTests {
        private struct Stepper: Mechanism {
            func operate(_ m: MechanismController) {
                m.run(name: "echo") { c in _ = c[doubledStepsCog] }
            }
        }

        @Test func itNamesEachKindOfWorkWithItsTurn() throws {
            let cogs = Cogs.forTesting(mechanisms: [Stepper()])
            _ = cogs[stepLabelsCog[7]]
            cogs.turn("step") { w in w[_stepsCog] = 1 }
            let entries = cogs.debugHistory.entries
            let step = entries.first { $0.event == .turn && $0.name == "step" }
            let turn = try #require(step).turn
            #expect(turn > 0)
            let inStep = entries.filter { $0.turn == turn }
            #expect(inStep.contains { $0.event == .write && $0.name == "history.steps" })
            #expect(inStep.contains { $0.event == .recompute && $0.name == "history.doubled" })
            #expect(inStep.contains { $0.event == .recompute && $0.name == "history.label[7]" })
            #expect(inStep.contains { $0.event == .notice && $0.name == "history.label[7]" })
            #expect(inStep.contains { $0.event == .effect && $0.name == "Stepper.echo" })
            #expect(cogs.debugHistory.count == entries.count)
        }

        @Test func itKeepsOnlyTheNewestEntriesUpToItsCapacity() {
            let cogs = Cogs.forTesting()
            let capacity = cogs.debugHistory.capacity
            for step in 1...(capacity + 10) { cogs.turn("step \(step)") { w in w[_stepsCog] = step } }
            let history = cogs.debugHistory
            #expect(history.count == capacity)
            #expect(history.entries.last?.name == "history.steps")
            #expect(history.entries.contains { $0.name == "step \(capacity + 10)" })
            #expect(!history.entries.contains { $0.name == "step 1" }, "the oldest entries are gone")
            let turns = history.entries.map(\.turn)
            #expect(turns == turns.sorted(), "oldest first")
        }

        /// An export subscriber's delivery is an offer, not an effect, and it comes before the
        /// turn's reactions, as the public library's history records it (its REACT-20).
        @Test func anExportDeliveryIsAnOfferBeforeTheReactions() async {
            let cogs = Cogs.forTesting(mechanisms: [Stepper()])
            var values = cogs.values(of: _stepsCog).makeAsyncIterator()
            #expect(await values.next() == 0)
            cogs.turn("step") { w in w[_stepsCog] = 1 }
            #expect(await values.next() == 1)
            let entries = cogs.debugHistory.entries
            let turn = entries.first { $0.event == .turn && $0.name == "step" }?.turn
            let inStep = entries.filter { $0.turn == turn }
            let offers = inStep.indices.filter { inStep[$0].event == .offer }
            let effects = inStep.indices.filter { inStep[$0].event == .effect }
            #expect(offers.count == 1)
            #expect(effects.count == 1, "the reaction's run only: \(inStep)")
            #expect(offers.allSatisfy { offer in effects.allSatisfy { offer < $0 } })
            #expect(!entries.contains { $0.event == .effect && $0.name.hasPrefix("export") })
        }
    }
#endif
