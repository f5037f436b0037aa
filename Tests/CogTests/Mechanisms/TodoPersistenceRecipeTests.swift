import Cog
import CogTesting
import Testing

/// The guide's persistence pattern: one snapshot cog, one store capability, install then watch.
struct TodoSnapshot: Equatable, Sendable {
    var titles: [String]
}

struct TodoStore {
    var load: () -> TodoSnapshot?
    var save: (TodoSnapshot) -> Void
}

private let _savedTitlesCog = Cog<[String]>.Manual(name: "persist.titles") { [] }
private let todoSnapshotCog = Cog<TodoSnapshot>(name: "persist.snapshot") { c in
    let titles = c[_savedTitlesCog]
    return TodoSnapshot(titles: titles)
}

extension CogOps {
    fileprivate func installTodos(_ snapshot: TodoSnapshot) {
        turn(_savedTitlesCog, to: snapshot.titles)
    }

    fileprivate func appendTodo(_ title: String) {
        turn { c in c[_savedTitlesCog] = c[_savedTitlesCog] + [title] }
    }
}

private struct TodoMechanism: Mechanism {
    let store: TodoStore

    func operate(_ m: MechanismController) {
        let snapshot = store.load() ?? TodoSnapshot(titles: [])
        m.installTodos(snapshot)

        m.watch(todoSnapshotCog, initial: .skip, name: "persistence") { _, snapshot in
            store.save(snapshot)
        }
    }
}

@Suite("Recipe: persistence")
struct TodoPersistenceRecipeTests {
    @Test func restoresTheSavedDocumentAndSavesOnlyChanges() {
        var saved: [TodoSnapshot] = []
        let cogs = Cogs.forTesting(mechanisms: [
            TodoMechanism(store: TodoStore(load: { TodoSnapshot(titles: ["milk"]) }, save: { saved.append($0) }))
        ])
        #expect(cogs.peek(_savedTitlesCog) == ["milk"])
        #expect(saved.isEmpty, "initial: .skip does not save what was just loaded")

        cogs.appendTodo("eggs")
        #expect(saved == [TodoSnapshot(titles: ["milk", "eggs"])])
        cogs.installTodos(TodoSnapshot(titles: ["milk", "eggs"]))
        #expect(saved.count == 1, "an equal snapshot is not saved again")
    }

    @Test func aWatchHandlersWritesBecomeALaterTurn() {
        let cogs = Cogs.forTesting()
        let log = EventLog.attached(to: cogs)
        cogs.start([EchoWatchMechanism()])
        cogs.appendTodo("a")
        #expect(
            log.lines(startingWith: "turn") == [
                "turn 1 appendTodo(_:) op", "turn 2 EchoWatch.appendTodo(_:) reactionWriteBack after 1",
            ])
        #expect(cogs.peek(_savedTitlesCog) == ["a", "echo"])
        #expect(
            log.lines(startingWith: "watch") == [
                "watch EchoWatch.echo 0 -> 1", "watch EchoWatch.echo 1 -> 2",
            ])
    }

    @Test func watchInitialRunCallsTheHandlerAtRegistration() {
        var calls: [[String]] = []
        let cogs = Cogs.forTesting(mechanisms: [
            ClosureMechanism { m in
                m.watch(_savedTitlesCog, initial: .run, name: "log") { old, new in calls.append(old + ["|"] + new) }
            }
        ])
        #expect(calls == [["|"]])
        cogs.appendTodo("x")
        #expect(calls == [["|"], ["|", "x"]])
    }
}

private let titleCountCog = Cog<Int>(name: "persist.titleCount") { c in c[_savedTitlesCog].count }

/// Appends "echo" once after the first write, from a watch handler.
private struct EchoWatchMechanism: Mechanism {
    func operate(_ m: MechanismController) {
        m.watch(titleCountCog, name: "echo") { [weak m] _, count in
            if count == 1 { m?.appendTodo("echo") }
        }
    }
}

/// A mechanism whose operate is a closure, for small tests.
struct ClosureMechanism: Mechanism {
    var name: String = "Closure"
    let body: (MechanismController) -> Void

    init(name: String = "Closure", _ body: @escaping (MechanismController) -> Void) {
        self.name = name
        self.body = body
    }

    func operate(_ m: MechanismController) {
        body(m)
    }
}
