import Cog
import CogTesting
import Testing

/// The agent guide's recipes that need no async work or mechanisms, written as it writes them.
@Suite("Agent guide recipes")
struct AgentGuideRecipeTests {
    @Test func addingATodoClearsTheComposer() {
        let cogs = Cogs.forTesting()

        cogs.typeNewTodoTitle("Buy milk")
        cogs.addTodo(id: TodoID(rawValue: "milk"))

        #expect(cogs.peek(todoIDsCog) == [TodoID(rawValue: "milk")])
        #expect(cogs.peek(newTodoTitleCog) == "")
        #expect(cogs.peek(todoTitleCogs[TodoID(rawValue: "milk")]) == "Buy milk")
    }

    @Test func aBlankComposerAddsNothing() {
        let cogs = Cogs.forTesting()
        cogs.typeNewTodoTitle("   ")
        cogs.addTodo(id: TodoID(rawValue: "blank"))
        #expect(cogs.peek(todoIDsCog).isEmpty)
    }

    @Test func derivedCountFollowsRowsAndOneToggleRecomputesOneRow() {
        let ids = ["a", "b", "c"].map { TodoID(rawValue: $0) }
        let cogs = Cogs.forTesting(seeding: { seeder in
            seeder.seedTodos(ids.map { Todo(id: $0, title: $0.rawValue, isCompleted: false) })
        })
        cogs.selectTodoFilter(.active)
        let spies = ids.map { id in ObservationSpy { _ = cogs[isTodoVisibleCogs[id]] } }
        #expect(cogs[activeTodoCountCog] == 3)
        todoSelectorRuns.visibleRows = [:]

        cogs.toggleTodo(ids[1])

        #expect(cogs.peek(activeTodoCountCog) == 2)
        #expect(todoSelectorRuns.visibleRows == [ids[1]: 1])
        #expect(spies.map(\.changes) == [0, 1, 0])
        #expect(cogs.peek(isTodoVisibleCogs[ids[1]]) == false)
    }

    @Test func aComposedOpIsOneTurn() {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        let followUp = TodoID(rawValue: "write-up")
        cogs.logHike(on: "Ridge", note: "windy", followUp: followUp)
        #expect(cogs.peek(hikeEntriesCog) == [HikeEntry(trail: "Ridge", note: "windy")])
        #expect(cogs.peek(todoTitleCogs[followUp]) == "Write up Ridge")
        #expect(cogs.peek(newTodoTitleCog) == "")
        #expect(log.lines(startingWith: "turn") == ["turn 1 logHike(on:note:followUp:) op"])
    }

    @Test func equalWritesFromARedundantBindingTriggerNobody() {
        let cogs = Cogs.forTesting()
        let spy = ObservationSpy { _ = cogs[todoFilterCog] }
        cogs.selectTodoFilter(.all)
        cogs.selectTodoFilter(.all)
        #expect(spy.changes == 0)
    }
}
