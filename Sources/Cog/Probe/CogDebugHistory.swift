#if DEBUG
    /// What one entry of a runtime's debug history says happened.
    nonisolated public enum CogHistoryEvent: String, Sendable, Equatable {
        /// A turn began, under its name.
        case turn
        /// A source's value changed at a turn's commit.
        case write
        /// An automatic or async state's selector ran.
        case recompute
        /// A state's observers were told it changed.
        case notice
        /// A reaction, watch or scope ran.
        case effect
        /// An export handed a subscriber a value.
        case offer
    }

    /// One thing a runtime did, as its debug history keeps it.
    nonisolated public struct CogHistoryEntry: Sendable, Equatable {
        /// What kind of work it was.
        public let event: CogHistoryEvent
        /// The turn it belongs to, from 1; work between turns (a read that computed) carries the
        /// last turn begun, or 0 before the first.
        public let turn: UInt64
        /// What it is about: a turn's name, a state's label (with its key), a registration's name.
        public let name: String
    }

    /// A runtime's recent history, oldest entry first: at most `capacity` entries, the oldest
    /// dropped as new ones come. Debug builds only; a release build records none and pays nothing.
    nonisolated public struct CogHistory: Sendable {
        /// The most entries it keeps.
        public let capacity: Int
        /// The entries, oldest first.
        public let entries: [CogHistoryEntry]
        /// How many entries it holds now.
        public var count: Int { entries.count }
    }

    /// The probe behind `Cogs.debugHistory`: a bounded ring of names, fed by the same probe
    /// events a recorder gets, so the two never disagree about what happened.
    final class DebugHistoryProbe: CogProbe {
        static let capacity = 1_000

        private var ring: [CogHistoryEntry] = []
        private var oldest = 0
        private var currentTurn: UInt64 = 0
        private var labels: [CogStateID: String] = [:]
        /// For each async state, the name of its value's projection (`forecast.value[home]`): the
        /// public library reads an async value through a derived state of that name, computed when
        /// the async state first runs and again at each status change, and its tests count those.
        private var valueProjectionLabels: [CogStateID: String] = [:]
        /// The export subscribers: their runs hand a value over (`offer`) and are not effects,
        /// as the public library's history counts them.
        private var exportSubscribers: Set<CogStateID> = []

        var history: CogHistory {
            let entries = oldest == 0 ? ring : Array(ring[oldest...] + ring[..<oldest])
            return CogHistory(capacity: Self.capacity, entries: entries)
        }

        private func keep(_ event: CogHistoryEvent, _ name: String) {
            let entry = CogHistoryEntry(event: event, turn: currentTurn, name: name)
            if ring.count < Self.capacity {
                ring.append(entry)
            } else {
                ring[oldest] = entry
                oldest = (oldest + 1) % Self.capacity
            }
        }

        private func label(_ id: CogStateID) -> String { labels[id] ?? "\(id)" }

        private func learn(_ info: CogStateInfo) {
            labels[info.id] = info.label
            guard info.shape == .async else { return }
            let projection = info.declaration + ".value"
            valueProjectionLabels[info.id] = info.key.map { projection + "[" + $0 + "]" } ?? projection
        }

        /// An async state's run or status change is also a computation of its value's projection.
        private func keepRecompute(_ state: CogStateID, isFirstRun: Bool) {
            keep(.recompute, label(state))
            if isFirstRun, let projection = valueProjectionLabels[state] { keep(.recompute, projection) }
        }

        func record(_ event: consuming CogProbeEvent) {
            switch event {
            case .turnBegan(let info):
                currentTurn = UInt64(max(info.id, 0))
                keep(.turn, info.name)
            case .stateCreated(let info, _): learn(info)
            case .registered(let info):
                labels[info.id] = info.name
                if info.kind == .export { exportSubscribers.insert(info.id) }
            case .scopeOpened(let registration, let name, _): labels[registration] = name
            case .write(let state, _, _): keep(.write, label(state))
            case .recompute(let state, let old, _, _, _): keepRecompute(state, isFirstRun: old == nil)
            case .asyncStatus(let state, _, _, _, _):
                if let projection = valueProjectionLabels[state] { keep(.recompute, projection) }
            case .notice(let state): keep(.notice, label(state))
            case .reactionRun(let registration):
                if !exportSubscribers.contains(registration) { keep(.effect, label(registration)) }
            case .offer(let state, _, _): keep(.offer, label(state))
            default: break
            }
        }

        // The typed entry points record names only: no value is boxed for the history.
        func recordStateCreated<Value>(_ info: CogStateInfo, value: UnsafePointer<Value>?) {
            learn(info)
        }

        func recordRecompute<Value>(
            state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>, changed: Bool,
            trigger: CogStateID?
        ) {
            keepRecompute(state, isFirstRun: false)
        }

        func recordFirstRun<Value>(state: CogStateID, value: UnsafePointer<Value>, trigger: CogStateID?) {
            keepRecompute(state, isFirstRun: true)
        }

        func recordWrite<Value>(state: CogStateID, old: UnsafePointer<Value>, new: UnsafePointer<Value>) {
            keep(.write, label(state))
        }

        func recordDependenciesChanged(consumer: CogStateID, producers: borrowing CogProducerList) {}
    }

    extension Cogs {
        /// What this runtime did lately, for a person or a test trying to understand it: the
        /// last thousand turns, writes, recomputes, notices, effects and offers. Debug builds only.
        public var debugHistory: CogHistory { historyProbe.history }
    }
#endif
