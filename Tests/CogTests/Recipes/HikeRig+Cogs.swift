import Cog

/// A second rig whose op composes the Todo rig's: the agent guide's "compose ops across files".
struct HikeEntry: Equatable, Sendable {
    let trail: String
    let note: String
}

private let _hikeEntriesCog = Cog<[HikeEntry]>.Manual(name: "hike.entries") { [] }
let hikeEntriesCog = _hikeEntriesCog.readOnly

extension CogOps {
    /// Logs a hike and adds a follow-up todo in one settled turn, through the Todo rig's ops.
    func logHike(on trail: String, note: String, followUp: TodoID) {
        turn { c in
            c[_hikeEntriesCog] = [HikeEntry(trail: trail, note: note)] + c[_hikeEntriesCog]
            self.typeNewTodoTitle("Write up \(trail)")
            self.addTodo(id: followUp)
        }
    }
}
