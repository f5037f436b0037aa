import CogTraceFormat
import CogTraceStore

/// Renders a whole recording in the Chrome trace event format, which the Perfetto UI and
/// chrome://tracing open: each turn a slice with its writes, recomputes, notices and reactions
/// nested in it, async generations as async slices, flow arrows from a write to what it caused,
/// and numeric states as counters.
///
/// A virtual-clock recording gives many turns the same time and no duration, so turns are laid
/// end to end from their recorded start, and each nested event gets at least a microsecond.
struct ChromeTraceExport {
    let trace: TraceFile
    let label: (NodeID) -> String
    private var events: [JSONValue] = []
    private var nextFlow = 1
    /// Open async slices by state and generation, with their name.
    private var openGenerations: [String: String] = [:]

    init(trace: TraceFile, label: @escaping (NodeID) -> String) {
        self.trace = trace
        self.label = label
    }

    /// The document for every turn of the recording.
    /// - Throws: `TraceReadError` when a turn cannot be decoded.
    mutating func render() throws(TraceReadError) -> String {
        events = [
            metadata("process_name", ["name": "Cog: \(trace.header.title)"], tid: nil),
            metadata("thread_name", ["name": "turns"], tid: 1),
        ]
        var clock = 0
        for sequence in trace.turnSequences {
            if trace.cancellation?() == true { throw TraceFile.cancelled }
            let turn = try trace.turn(sequence)
            // Each turn's start and duration are below 2^53, so one step cannot overflow; the
            // running clock is kept below 2^53 too, where a timeline's numbers stay exact.
            clock = addTurn(turn, from: max(clock, turn.start))
            guard TraceFormat.countRange.contains(clock) else {
                throw TraceReadError(
                    line: 0,
                    message: "turn \(sequence) would end at \(clock) µs on the timeline, past the 2^53 µs it can hold "
                        + "(the turns' durations add up to more than any recording can)")
            }
        }
        for (id, name) in openGenerations.sorted(by: { $0.key < $1.key }) {
            events.append(asyncEvent("e", name: name, id: id, at: clock))
        }
        return JSONValue.object([
            ("traceEvents", .array(events)), ("displayTimeUnit", .string("ms")),
            ("otherData", .object([("title", .string(trace.header.title)), ("clock", .string(trace.header.clock))])),
        ]).jsonText + "\n"
    }

    /// Adds one turn and its nested events starting at `start`; returns where the next may start.
    private mutating func addTurn(_ turn: TraceTurn, from start: Int) -> Int {
        let shown = turn.events.filter(Self.isShown)
        let slot = shown.isEmpty ? 1 : max(1, turn.duration / shown.count)
        let width = max(turn.duration, shown.count * slot, 1)
        events.append(
            slice(
                name: "turn \(turn.sequence) \(turn.name)", category: "turn", at: start, duration: width,
                arguments: [
                    "origin": .string(turn.origin.rawValue), "cause": turn.cause.map(JSONValue.int) ?? .null,
                    "events": .int(turn.events.count),
                ]))
        var written: [NodeID: Int] = [:]
        var causes: [NodeID: NodeID] = [:]
        var time = start
        for event in turn.events {
            guard Self.isShown(event) else {
                addLifecycle(event, at: time)
                continue
            }
            let (name, category, arguments) = describe(event)
            events.append(slice(name: name, category: category, at: time, duration: slot, arguments: arguments))
            switch event {
            case .write(let state, _, let new):
                written[state] = time
                causes[state] = state
                addCounter(state, new, at: time)
            case .recompute(let state, _, let new, _, let trigger):
                if let root = trigger.flatMap({ causes[$0] }), let origin = written[root] {
                    causes[state] = root
                    addFlow(from: origin, to: time)
                }
                if let new { addCounter(state, new, at: time) }
            case .reactionRun, .watchRun:
                if let origin = written.values.min() { addFlow(from: origin, to: time) }
            default: break
            }
            time += slot
        }
        for event in turn.after { addLifecycle(event, at: start + width) }
        return start + width
    }

    private static func isShown(_ event: TraceEvent) -> Bool {
        switch event {
        case .write, .writeDiscarded, .recompute, .notice, .reactionRun, .watchRun, .offer: true
        default: false
        }
    }

    private func describe(_ event: TraceEvent) -> (String, String, [String: JSONValue]) {
        switch event {
        case .write(let state, let old, let new):
            ("write \(label(state))", "write", ["old": .string(old.text), "new": .string(new.text)])
        case .writeDiscarded(let state, let value):
            ("equal write \(label(state))", "write", ["value": .string(value.text)])
        case .recompute(let state, let old, let new, let changed, let trigger):
            (
                "recompute \(label(state))", "recompute",
                [
                    "old": old.map { .string($0.text) } ?? .null, "new": new.map { .string($0.text) } ?? .null,
                    "changed": .bool(changed), "trigger": trigger.map { .string(label($0)) } ?? .null,
                ]
            )
        case .notice(let state): ("notice \(label(state))", "notice", [:])
        case .reactionRun(let registration): ("reaction \(label(registration))", "reaction", [:])
        case .watchRun(let registration, _, let new):
            ("watch \(label(registration))", "reaction", ["new": .string(new.text)])
        case .offer(let state, _, let value): ("offer \(label(state))", "export", ["value": .string(value.text)])
        default: (event.kind, "other", [:])
        }
    }

    /// Async slices begin when a generation starts and end when it is published, cancelled or
    /// its late result rejected; created states with numeric values start their counters.
    private mutating func addLifecycle(_ event: TraceEvent, at time: Int) {
        switch event {
        case .generationStarted(let state, let generation, _):
            let id = "\(state).\(generation)"
            let name = "\(label(state)) generation \(generation)"
            openGenerations[id] = name
            events.append(asyncEvent("b", name: name, id: id, at: time))
        case .generationAccepted(let state, let generation, _), .generationCancelled(let state, let generation),
            .generationRejected(let state, let generation):
            let id = "\(state).\(generation)"
            guard let name = openGenerations.removeValue(forKey: id) else { return }
            events.append(asyncEvent("e", name: name, id: id, at: time))
        case .stateCreated(let state, let value?), .seeded(let state, let value):
            addCounter(state, value, at: time)
        default:
            break
        }
    }

    /// Counters for a value that has numbers in it: a number, a flag (0 or 1), or the numeric
    /// fields of a structured value (`weather.forecast[10001].temperatureF`).
    private mutating func addCounter(_ state: NodeID, _ value: TraceValue, at time: Int) {
        guard let json = value.json else { return }
        var series: [(String, JSONValue)] = []
        switch json {
        case .int, .double: series = [(label(state), json)]
        case .bool(let flag): series = [(label(state), .int(flag ? 1 : 0))]
        case .object(let members):
            series = members.compactMap { name, member in
                switch member {
                case .int, .double: ("\(label(state)).\(name)", member)
                default: nil
                }
            }
        default: break
        }
        for (name, amount) in series {
            events.append(
                .object([
                    ("name", .string(name)), ("ph", .string("C")), ("ts", .int(time)),
                    ("pid", .int(1)), ("tid", .int(1)), ("args", .object([("value", amount)])),
                ]))
        }
    }

    private mutating func addFlow(from origin: Int, to target: Int) {
        let id = nextFlow
        nextFlow += 1
        for (phase, time) in [("s", origin), ("f", target)] {
            var members: [(String, JSONValue)] = [
                ("name", .string("caused")), ("cat", .string("flow")), ("ph", .string(phase)),
                ("id", .int(id)), ("ts", .int(time)), ("pid", .int(1)), ("tid", .int(1)),
            ]
            if phase == "f" { members.append(("bp", .string("e"))) }
            events.append(.object(members))
        }
    }

    private func slice(
        name: String, category: String, at time: Int, duration: Int, arguments: [String: JSONValue]
    ) -> JSONValue {
        .object([
            ("name", .string(name)), ("cat", .string(category)), ("ph", .string("X")), ("ts", .int(time)),
            ("dur", .int(duration)), ("pid", .int(1)), ("tid", .int(1)),
            ("args", .object(arguments.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })),
        ])
    }

    private func asyncEvent(_ phase: String, name: String, id: String, at time: Int) -> JSONValue {
        .object([
            ("name", .string(name)), ("cat", .string("async")), ("ph", .string(phase)), ("id", .string(id)),
            ("ts", .int(time)), ("pid", .int(1)), ("tid", .int(1)),
        ])
    }

    private func metadata(_ name: String, _ arguments: [String: String], tid: Int?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(name)), ("ph", .string("M")), ("ts", .int(0)), ("pid", .int(1)),
        ]
        if let tid { members.append(("tid", .int(tid))) }
        members.append(("args", .object(arguments.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        return .object(members)
    }
}
