import Cog

// A client module as an app without MainActor default isolation writes it: declarations at file
// scope, an op in an extension, values of its own types. This target builds with no default
// isolation (Package.swift), so it compiles only if declarations can be made from any isolation.

let _stepCountCog = Cog<Int>.Manual(name: "client.stepCount") { 0 }
let stepCountCog = _stepCountCog.readOnly

let doubledStepsCog = Cog<Int>(name: "client.doubledSteps") { c in c[stepCountCog] * 2 }

/// A value type of the client's own, compared with its synthesized `==`.
struct Position: Equatable, Sendable {
    var row: Int
    var column: Int
}

private let _cursorCog = Cog<Position>.Manual(name: "client.cursor") { Position(row: 0, column: 0) }
let cursorCog = _cursorCog.readOnly

let rowCog = Cog<Int>(name: "client.row") { c in c[cursorCog].row }

private let _labelsCog = CogBox<String, Int>.Manual(name: "client.label") { key in "item \(key)" }
let labelsCog = _labelsCog.readOnly

let shoutedLabelCog = CogBox<String, Int>(name: "client.shouted") { c, key in c[labelsCog[key]].uppercased() }

let remoteTotalCog = Cog<Int>.Async(default: -1, name: "client.remoteTotal") { c in
    let steps = c[stepCountCog]
    return .run { steps * 10 }
}

extension CogOps {
    /// Takes a step and moves the cursor one column, in one turn.
    func step() {
        turn("step") { w in
            w[_stepCountCog] += 1
            w[_cursorCog].column += 1
        }
    }

    /// Moves the cursor to the same place it is: an equal write, which `==` discards.
    func stayPut() {
        turn("stay put") { w in w[_cursorCog] = w[_cursorCog] }
    }

    func rename(_ key: Int, to label: String) {
        turn("rename") { w in w[_labelsCog[key]] = label }
    }
}

/// What the client's mechanism saw, for its tests.
@MainActor final class Sightings {
    var rows: [Int] = []
    var totals: [CogStatus<Int>] = []
}

/// A client mechanism: an unnamed reaction and a status watch spelled on the lens.
struct SightingMechanism: Mechanism {
    let sightings: Sightings

    func operate(_ m: MechanismController) {
        m.run { c in sightings.rows.append(c[rowCog]) }
        m.status.watch(remoteTotalCog, initial: .run) { _, new in sightings.totals.append(new) }
    }
}

/// A status read in nonisolated code, as a client's formatting helpers do.
func summary(of status: CogStatus<Int>) -> String {
    "\(status.kind.rawValue) \(status.value)\(status.isLoading ? " loading" : "")\(status.hasSucceeded ? " ok" : "")"
}

/// Elements a stream declaration publishes, handed over as a sequence already made.
let countdownCog = Cog<Int>.Async(default: 0, name: "client.countdown") { _ in
    .stream(
        AsyncStream<Int> { continuation in
            for value in [3, 2, 1] { continuation.yield(value) }
            continuation.finish()
        })
}
