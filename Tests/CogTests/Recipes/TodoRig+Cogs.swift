import Cog

/// The selected visibility filter.
private let _todoFilterCog = Cog<TodoFilter>.Manual(name: "todo.filter") { .all }
/// Read-only selected filter.
let todoFilterCog = _todoFilterCog.readOnly

private let _todoIDsCog = Cog<[TodoID]>.Manual(name: "todo.ids") { [] }
private let _todoTitleCogs = CogBox<String, TodoID>.Manual(name: "todo.title") { "" }
private let _todoIsCompletedCogs = CogBox<Bool, TodoID>.Manual(name: "todo.isCompleted") { false }
private let _newTodoTitleCog = Cog<String>.Manual(name: "todo.newTitle") { "" }

let todoIDsCog = _todoIDsCog.readOnly
let todoTitleCogs = _todoTitleCogs.readOnly
let todoIsCompletedCogs = _todoIsCompletedCogs.readOnly
let newTodoTitleCog = _newTodoTitleCog.readOnly

/// Counts selector runs so tests can see that one toggle recomputes one row.
final class TodoSelectorRuns {
    var activeCount = 0
    var visibleRows: [TodoID: Int] = [:]
}
let todoSelectorRuns = TodoSelectorRuns()

/// Number of incomplete todos.
let activeTodoCountCog = Cog<Int>(name: "todo.activeCount") { c in
    todoSelectorRuns.activeCount += 1
    let todoIDs = c[todoIDsCog]
    return todoIDs.reduce(into: 0) { count, id in
        let todoIsCompleted = c[todoIsCompletedCogs[id]]
        if !todoIsCompleted { count += 1 }
    }
}

/// Whether one row passes the filter, keyed so a toggle updates one row.
let isTodoVisibleCogs = CogBox<Bool, TodoID>(name: "todo.isVisible") { c, id in
    todoSelectorRuns.visibleRows[id, default: 0] += 1
    let todoFilter = c[todoFilterCog]
    let todoIsCompleted = c[todoIsCompletedCogs[id]]
    return switch todoFilter {
    case .all: true
    case .active: !todoIsCompleted
    case .completed: todoIsCompleted
    }
}

extension CogOps {
    /// Selects the visibility filter.
    func selectTodoFilter(_ filter: TodoFilter) {
        turn(_todoFilterCog, to: filter)
    }

    /// Types into the composer.
    func typeNewTodoTitle(_ title: String) {
        turn(_newTodoTitleCog, to: title)
    }

    /// Commits the composer as a new row and clears it in one turn.
    func addTodo(id: TodoID) {
        turn { c in
            let newTodoTitle = c[_newTodoTitleCog].normalizedTodoTitle
            guard !newTodoTitle.isEmpty else { return }
            c[_todoIDsCog] = c[_todoIDsCog] + [id]
            c[_todoTitleCogs[id]] = newTodoTitle
            c[_todoIsCompletedCogs[id]] = false
            c[_newTodoTitleCog] = ""
        }
    }

    /// Flips one row's completion.
    func toggleTodo(_ id: TodoID) {
        turn { c in c[_todoIsCompletedCogs[id]] = !c[_todoIsCompletedCogs[id]] }
    }
}

extension CogSeeder {
    /// Places saved todos without a turn, for tests.
    func seedTodos(_ todos: [Todo]) {
        seed(_todoIDsCog, to: todos.map(\.id))
        for todo in todos {
            seed(_todoTitleCogs[todo.id], to: todo.title)
            seed(_todoIsCompletedCogs[todo.id], to: todo.isCompleted)
        }
    }
}
