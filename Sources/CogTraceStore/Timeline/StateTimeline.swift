package import CogTraceFormat

/// Every event of the trace indexed by the state or registration it touches (they share one id
/// space), built once on first use: what `history`, `why`, `async` and `leases` walk. The index
/// locates events without decoding them (`TraceEventIndex`); an entry decodes its event when it
/// is read, so an answer pays only for the events it looks at.
package final class StateTimeline {
    /// One event in its turn.
    package struct Entry {
        package let turn: TurnNumber
        /// The event; nil for a kind this reader does not know, or one that could not be decoded
        /// (its turn is then among `undecodable`, and the answer warns).
        package let event: TraceEvent?
        /// True for an event between turns (after `turn`).
        package let isIdle: Bool
        /// Where in its turn's events (or its idle events) it is.
        package let position: Int

        /// An entry for `event` at `position` in turn `turn`'s events, or its idle events.
        package init(turn: TurnNumber, event: TraceEvent?, isIdle: Bool, position: Int) {
            self.turn = turn
            self.event = event
            self.isIdle = isIdle
            self.position = position
        }

        /// Whether it happened before `other` in the recording.
        package func precedes(_ other: Entry) -> Bool { point < other.point }
    }

    /// One subject's events in recording order, each decoded when read.
    package struct Entries: RandomAccessCollection {
        fileprivate let timeline: StateTimeline
        fileprivate let locations: ArraySlice<TraceEventIndex.Location>

        package var startIndex: Int { locations.startIndex }
        package var endIndex: Int { locations.endIndex }

        package subscript(position: Int) -> Entry { timeline.entry(at: locations[position]) }

        package subscript(bounds: Range<Int>) -> Entries { Entries(timeline: timeline, locations: locations[bounds]) }

        /// The entries whose events are of kind `kind` (as records spell it, e.g. `released`),
        /// decoding only those.
        package func only(kind: String) -> [Entry] {
            locations.filter { timeline.index.kind(of: $0) == kind }.map(timeline.entry(at:))
        }

        /// The entries whose events are of one of `kinds` (as records spell them, and any kind
        /// past the index's table, which only decoding tells), decoded on every core when there
        /// are many: `history` reads thousands.
        package func decoded(kinds: Set<String>) -> [Entry] {
            let chosen = locations.filter { location in
                let kind = timeline.index.kind(of: location)
                return kind == "?" || kinds.contains(kind)
            }
            return zip(chosen, timeline.index.events(at: chosen[...])).map { location, result in
                timeline.entry(at: location, decoded: result)
            }
        }

        /// Every entry, decoded on every core when there are many.
        package func decodedAll() -> [Entry] {
            zip(locations, timeline.index.events(at: locations)).map { location, result in
                timeline.entry(at: location, decoded: result)
            }
        }

        /// The turns of the events, without decoding them.
        package var turns: [TurnNumber] { locations.map(timeline.index.turn(of:)) }
    }

    fileprivate let index: TraceEventIndex
    private let trace: TraceFile
    package private(set) var registrationNames: [NodeID: String] = [:]
    /// Registration kinds by id, as first registered.
    package private(set) var registrationKinds: [NodeID: RegistrationKind] = [:]
    /// Turn headings read so far, by turn.
    private var headings: [TurnNumber: TurnHeading] = [:]
    /// The turns whose records could not be decoded, in order, with why: answers that walk the
    /// timeline leave them out and must say so. Grows when reading an entry finds another.
    package private(set) var undecodable: [(turn: TurnNumber, error: TraceReadError)] = []
    /// False when an interrupt stopped the build: the session then does not keep it.
    package let isComplete: Bool

    /// Indexes `trace` now, or takes an index built already (`BackgroundIndex`). With
    /// `subjects`, only their events are indexed (`covers`); the registrations and the
    /// undecodable turns are the whole trace's either way.
    package init(trace: TraceFile, index built: TraceEventIndex? = nil, only subjects: [NodeID]? = nil) {
        self.trace = trace
        guard let index = built ?? TraceEventIndex(trace: trace, only: subjects) else {
            self.index = TraceEventIndex(empty: trace)
            isComplete = false
            return
        }
        self.index = index
        isComplete = true
        undecodable = index.undecodable.map { (trace.turnSequences[$0.turnIndex], $0.error) }
        for (_, event) in index.registrationEvents { note(event) }
    }

    /// Adds what arrived in a followed trace since the index was built or last extended.
    package func extend() { extend(upTo: trace.turnSequences.count) }

    /// How many turns, from the first, the index covers.
    package var indexedTurnCount: Int { index.indexedTurnCount }

    /// Indexes the turns up to position `limit` that are not indexed yet.
    package func extend(upTo limit: Int) {
        let registrationsBefore = index.registrationEvents.count
        let undecodableBefore = index.undecodable.count
        index.extend(upTo: limit)
        for (_, event) in index.registrationEvents[registrationsBefore...] { note(event) }
        for (turnIndex, error) in index.undecodable[undecodableBefore...] {
            let turn = trace.turnSequences[turnIndex]
            if !undecodable.contains(where: { $0.turn == turn }) { undecodable.append((turn, error)) }
        }
    }

    private func note(_ event: TraceEvent) {
        switch event {
        case .registered(let id, let name, let kind):
            registrationNames[id] = name
            if registrationKinds[id] == nil { registrationKinds[id] = kind }
        case .scopeOpened(let id, let name, _):
            registrationNames[id] = name
            if registrationKinds[id] == nil { registrationKinds[id] = .scopeOpening }
        case .taskStarted(let id, let name):
            registrationNames[id] = name
            if registrationKinds[id] == nil { registrationKinds[id] = .task }
        default:
            break
        }
    }

    private func entry(at location: TraceEventIndex.Location) -> Entry {
        entry(at: location, decoded: Result { () throws(TraceReadError) in try index.event(at: location) })
    }

    /// The entry for `location` from its decoded event; a record that failed is listed among
    /// `undecodable`.
    fileprivate func entry(
        at location: TraceEventIndex.Location, decoded: Result<TraceEvent?, TraceReadError>
    ) -> Entry {
        let turn = index.turn(of: location)
        var event: TraceEvent?
        switch decoded {
        case .success(let found):
            event = found
        case .failure(let error):
            if !undecodable.contains(where: { $0.turn == turn }) {
                undecodable.append((turn, error))
                undecodable.sort { $0.turn < $1.turn }
            }
        }
        return Entry(turn: turn, event: event, isIdle: location.isIdle, position: location.position)
    }

    /// Every subject the trace's events name (those it covers, for a timeline of a few).
    package var subjects: [NodeID] { index.subjects }

    /// Whether the timeline holds `subject`'s events: every subject's, unless it was built for
    /// a few.
    package func covers(_ subject: NodeID) -> Bool { index.covers(subject) }

    /// Every event touching `subject`, in recording order.
    package func entries(of subject: NodeID) -> Entries {
        Entries(timeline: self, locations: index.locations(of: subject)?[...] ?? [])
    }

    /// The name, origin and cause of turn `sequence`; nil when its record cannot say.
    package func heading(of sequence: TurnNumber) -> TurnHeading? {
        if let known = headings[sequence] { return known }
        guard let heading = try? trace.turnHeading(sequence) else { return nil }
        headings[sequence] = heading
        return heading
    }

    /// Reads the headings of `turns` that are not read yet, on every core when there are many,
    /// so an answer that names the turn of each of thousands of rows does not read them one by
    /// one.
    package func readHeadings(of turns: [TurnNumber]) {
        let missing = Array(Set(turns.filter { headings[$0] == nil }))
        for (turn, heading) in zip(missing, trace.turnHeadings(missing)) { headings[turn] = heading }
    }

    /// Lets go of the turn headings read so far: a streamed answer names the turn of each row
    /// once, and millions of headings kept would make its memory grow with the answer.
    package func forgetHeadings() {
        headings.removeAll()
    }

    /// The ids of every registration named `name`, in the order they were made: a reaction made
    /// again (a scope reopened, a watch re-registered) gets a new id under the same name.
    package func registrations(named name: String) -> [NodeID] {
        registrationNames.filter { $0.value == name }.keys.sorted()
    }

    /// The events touching `state` up to and including turn `limit` (and its idle events).
    package func entries(of state: NodeID, through limit: TurnNumber) -> Entries {
        let all = entries(of: state)
        return all[all.startIndex..<end(of: all, through: limit)]
    }

    /// The position after the last entry at or before turn `limit`: entries are in turn order,
    /// so a binary search finds it.
    private func end(of entries: Entries, through limit: TurnNumber) -> Int {
        var low = entries.startIndex
        var high = entries.endIndex
        while low < high {
            let middle = (low + high) / 2
            if index.turn(of: entries.locations[middle]) <= limit { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether `event` decided `state`'s value: a write, or a run that gave a value (even one
    /// whose equal result was gated, when a dependency change made it run, since that run is why
    /// the value still holds).
    package static func decides(_ event: TraceEvent, for state: NodeID) -> Bool {
        if case .recompute(state, let old, let new, let changed, let trigger) = event {
            // A run no dependency change caused that gave back the value the state had (an async
            // state's selector run again after its result was published): the value holds from
            // whatever gave it before, so that is the decision.
            if !changed, trigger == nil, old != nil { return false }
            return new != nil
        }
        return event.setsValue(of: state)
    }

    /// The last event at or before `limit` that decided the state's value: a write, or its latest
    /// run (even one whose equal result was gated, since that run is why the value still holds).
    /// Walks back from `limit`, so it costs the distance to that event, not the state's history.
    package func lastDecision(of state: NodeID, through limit: TurnNumber) -> Entry? {
        lastEntry(of: state, before: .through(limit), kinds: Self.decisionKinds) { Self.decides($0, for: state) }
    }

    /// The kinds of event that can decide a state's value, as records spell them.
    package static let decisionKinds: Set<String> = ["write", "seeded", "created", "recompute"]

    /// The newest event of `subject` strictly before `point` (and, with `lowerBound`, strictly
    /// after it) whose kind is among `kinds` and that `matches` accepts. Kinds and places are
    /// read from the index, so other events are passed over without being decoded.
    package func lastEntry(
        of subject: NodeID, before point: TracePoint, after lowerBound: TracePoint? = nil, kinds: Set<String>,
        where matches: (TraceEvent) -> Bool
    ) -> Entry? {
        let all = entries(of: subject)
        var position = end(of: all, through: point.turn)
        while position > all.startIndex {
            position -= 1
            let location = all.locations[position]
            let place = TracePoint(turn: index.turn(of: location), isIdle: location.isIdle, position: location.position)
            if let lowerBound, place <= lowerBound { return nil }
            let kind = index.kind(of: location)
            guard place < point, kind == "?" || kinds.contains(kind) else { continue }
            let entry = all[position]
            if let event = entry.event, matches(event) { return entry }
        }
        return nil
    }

    /// The oldest event of `subject` strictly after `point` and at or before turn `limit` whose
    /// kind is among `kinds` and that `matches` accepts.
    package func firstEntry(
        of subject: NodeID, after point: TracePoint, through limit: TurnNumber, kinds: Set<String>,
        where matches: (TraceEvent) -> Bool
    ) -> Entry? {
        let all = entries(of: subject, through: limit)
        var position = point.turn.rawValue == .min ? all.startIndex : end(of: all, through: point.turn - 1)
        while position < all.endIndex {
            defer { position += 1 }
            let kind = index.kind(of: all.locations[position])
            guard kind == "?" || kinds.contains(kind) else { continue }
            let entry = all[position]
            guard point < entry.point else { continue }
            if let event = entry.event, matches(event) { return entry }
        }
        return nil
    }
}

/// A place in the recording: a turn, whether in its events or the work after it (`N+`), and the
/// position among those. Questions about an earlier moment ask for what happened before one.
package struct TracePoint: Comparable, Hashable {
    package let turn: TurnNumber
    package let isIdle: Bool
    package let position: Int

    /// The place at `position` in turn `turn`'s events (or, with `isIdle`, the work after it).
    package init(turn: TurnNumber, isIdle: Bool, position: Int) {
        self.turn = turn
        self.isIdle = isIdle
        self.position = position
    }

    /// The end of turn `turn` and the work after it.
    package static func through(_ turn: TurnNumber) -> TracePoint {
        TracePoint(turn: turn, isIdle: true, position: .max)
    }

    package static func < (left: TracePoint, right: TracePoint) -> Bool {
        (left.turn, left.isIdle ? 1 : 0, left.position) < (right.turn, right.isIdle ? 1 : 0, right.position)
    }
}

extension StateTimeline.Entry {
    /// Where in the recording the entry's event happened.
    package var point: TracePoint { TracePoint(turn: turn, isIdle: isIdle, position: position) }
}
