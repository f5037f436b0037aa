import Cog
import CogTestSupport
import Observation

/// A graph written the way the public library's runtime-comparison scenarios write theirs: a
/// test runtime (`Cogs.forTesting()`) per run, declarations made inside the run in the
/// closure-first forms (`Cog<Int>({ c in … }, name:)`, `Cog<Int>.Manual({ 0 }, name:)`), kept in
/// one flat store the selectors reach through an unowned reference, reads at the UI edge inside
/// `withObservationTracking`, one named turn per write, and everything dropped at the end.
///
/// The shapes are this package's (`ScenarioShapes.swift`); only the way of writing them is the
/// scenarios'. What a test suite written like them pays is what this measures.
final class ScenarioGraph {
    /// One declaration, a source or an automatic value.
    private enum Declaration {
        case source(Cog<Int>.Manual)
        case automatic(Cog<Int>)
    }

    /// The declarations in creation order. Selectors reach it unowned: the graph owns it and the
    /// runtime, so no selector keeps it alive past the run.
    private final class Store {
        var declarations: [Declaration] = []

        func read(_ handle: Handle, through reader: Reader<Int>) -> Int {
            switch declarations[handle.index] {
            case .source(let source): reader[source]
            case .automatic(let automatic): reader[automatic]
            }
        }
    }

    /// A declaration's place in the store.
    struct Handle {
        let index: Int
    }

    private let cogs = Cogs.forTesting()
    private let store = Store()
    /// Selector runs so far, counted by every automatic value.
    private(set) var selectorRuns = 0

    nonisolated deinit {}

    /// Declares a source with `initial`, closure first.
    func source(_ initial: Int) -> Handle {
        let handle = Handle(index: store.declarations.count)
        store.declarations.append(.source(Cog<Int>.Manual({ initial }, name: "scenario.source.\(handle.index)")))
        return handle
    }

    /// Declares an automatic value, selector first; `compute` reads other declarations through
    /// the function it is given.
    func automatic(_ compute: @escaping ((Handle) -> Int) -> Int) -> Handle {
        let handle = Handle(index: store.declarations.count)
        let counted = Cog<Int>(
            { [unowned store, unowned self] reader in
                self.selectorRuns += 1
                return compute { store.read($0, through: reader) }
            }, name: "scenario.automatic.\(handle.index)")
        store.declarations.append(.automatic(counted))
        return handle
    }

    /// Reads at the UI edge, as a view would, inside an Observation scope.
    func read(_ handle: Handle) -> Int {
        switch store.declarations[handle.index] {
        case .source(let source):
            withObservationTracking {
                cogs[source]
            } onChange: {
            }
        case .automatic(let automatic):
            withObservationTracking {
                cogs[automatic]
            } onChange: {
            }
        }
    }

    private func source(at handle: Handle) -> Cog<Int>.Manual {
        guard case .source(let source) = store.declarations[handle.index] else {
            preconditionFailure("scenario graphs write sources only")
        }
        return source
    }

    /// Writes a source in a turn of its own.
    func write(_ handle: Handle, _ value: Int) {
        cogs.turn(source(at: handle), to: value, name: "scenario.turn")
    }

    /// Writes several sources in one turn, as a batch.
    func write(_ writes: [(Handle, Int)]) {
        let sources = writes.map { handle, value in (source(at: handle), value) }
        cogs.turn("scenario.batch") { c in
            for (source, value) in sources { c[source] = value }
        }
    }
}
