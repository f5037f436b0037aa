/// The agent guide's Todo app, as a rig written to its conventions.
struct TodoID: Hashable, Sendable, CustomStringConvertible {
    let rawValue: String
    var description: String { rawValue }
}

/// Which todos the list shows.
enum TodoFilter: Equatable, Sendable {
    case all, active, completed
}

/// One saved todo.
struct Todo: Equatable, Sendable {
    let id: TodoID
    var title: String
    var isCompleted: Bool
}

extension String {
    /// The title a composer's text commits as: trimmed of surrounding spaces.
    var normalizedTodoTitle: String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
