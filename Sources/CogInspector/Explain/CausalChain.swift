public import CogTraceFormat

/// The answer to `why`: a tree of links from the value asked about back to the roots that caused
/// it, each link a step with the values before and after it. Links are in preorder (a link's
/// causes follow it), each naming its parent, so a chain of any depth is a flat list that no
/// renderer walks recursively.
public struct CausalChain: Equatable {
    /// The state (or reaction, watch) asked about.
    public let subject: StateReference
    /// The field of the subject's value asked about (`.temperatureF`), if one.
    public let field: String?
    /// The point asked about: the graph after this turn and the work after it.
    public let at: TurnReference
    /// The links, the subject's first; each link's causes follow it.
    public let links: [CausalLink]
    /// The deepest level shown (the subject's link is level 0).
    public let depthLimit: Int
    /// Links left out because they lie deeper than `depthLimit` or past the default screen.
    public let cut: Int
    /// The depth that would show every link (at least; see `cutIsExact`).
    public let fullDepth: Int
    /// False when the walk past the limit stopped counting before it reached every root.
    public let cutIsExact: Bool
    /// A sentence said before the chain, e.g. that the state was released.
    public let note: String?

    /// Whether every leaf of the chain is a root: a write, a creation, a seed, an async result or
    /// a value held since before the recording (a link shown above, or cut by depth, is not a
    /// leaf of the answer: it stands for a subtree).
    public var endsInRoots: Bool {
        let parents = Set(links.compactMap(\.parent))
        return links.indices.allSatisfy { index in
            parents.contains(index) || links[index].cause.isRoot || links[index].sameAs != nil
                || links[index].causesCut
        }
    }
}

/// One step of a `why` chain: which state, its value before and after the step, the turn and
/// event that made it, and how it relates to the link it explains.
public struct CausalLink: Equatable {
    /// How the link's value came to be.
    public enum Cause: String, Sendable {
        /// An op or mechanism wrote the source.
        case written
        /// An async state published the result of its work.
        case published
        /// A test seeded it before the first turn.
        case seeded
        /// Its initial value when it was created.
        case created
        /// Its selector ran for the first time; every input it read explains it.
        case firstRun = "first run"
        /// Its selector ran again because `trigger` changed.
        case recomputed
        /// A reaction or watch ran because `trigger` changed (or for the first time).
        case reacted = "ran"
        /// It has held its value since before the recording's first turn.
        case heldSinceStart = "held since start"

        /// Whether a chain may end at this cause: nothing recorded explains it further.
        public var isRoot: Bool {
            switch self {
            case .written, .published, .seeded, .created, .heldSinceStart: true
            case .firstRun, .recomputed, .reacted: false
            }
        }
    }

    /// How a link relates to the link it explains (its parent).
    public enum Role: String, Sendable {
        /// The value asked about.
        case subject
        /// The dependency whose change made the parent run.
        case changed
        /// An input the parent's run read (every input of a first run; the rest with `--all`).
        case read
    }

    /// What an async result came from: its generation, when its work started and what that work
    /// read then.
    public struct AsyncWork: Equatable {
        /// The generation whose result was published; nil when the trace does not say.
        public let generation: Int?
        /// The turn its work started in; nil when that was evicted.
        public let started: TurnReference?
        /// What its selector read when the work started, with the values it read.
        public let reads: [(state: StateReference, value: TraceValue?)]

        /// The work in a few words, as every rendering shows it under the link:
        /// `generation 1, started in turn 3, reading weather.service = live`.
        public var summary: String {
            var parts = [generation.map { "generation \($0)" } ?? "generation not recorded"]
            if let started {
                parts.append("started \(started.afterTurn ? "after" : "in") turn \(started.turn)")
                let values = reads.map { "\($0.state.label) = \($0.value?.text ?? "nil")" }
                parts.append(values.isEmpty ? "reading nothing" : "reading \(values.joined(separator: ", "))")
            } else if generation != nil {
                parts.append("its start is not in the recording")
            }
            return parts.joined(separator: ", ")
        }

        /// Equal when the generation, the start and every read and its value are.
        public static func == (left: AsyncWork, right: AsyncWork) -> Bool {
            left.generation == right.generation && left.started == right.started
                && left.reads.map(\.state) == right.reads.map(\.state)
                && left.reads.map(\.value) == right.reads.map(\.value)
        }
    }

    /// Its place in the chain's links, from 0.
    public let index: Int
    /// The link this one explains; nil for the subject's.
    public let parent: Int?
    /// How many links lie between this one and the subject's.
    public let depth: Int
    /// How it relates to its parent.
    public let role: Role
    /// The state whose value this link explains (or the registration, for `why REACTION`).
    public let state: StateReference
    /// The value before this step; nil when it had none (a first run, a creation).
    public let old: TraceValue?
    /// The value after this step: for a cause the parent read, the value it read.
    public let value: TraceValue?
    /// The turn whose event set it; nil when it has held its value since the recording began.
    public let turn: TurnReference?
    /// That turn's name (the op's), when known.
    public let turnName: String?
    /// How the value came to be.
    public let cause: Cause
    /// For a recompute, whether the value changed (false: gated as equal).
    public let changed: Bool
    /// The dependency whose change made it run; its link follows among this one's causes.
    public let trigger: StateReference?
    /// For an async result, the work it came from.
    public let asyncWork: AsyncWork?
    /// For a value held since before the recording, the turns the ring evicted, if any.
    public let evicted: ClosedRange<TurnNumber>?
    /// The index of the link above that already explains this same step ("see above").
    public let sameAs: Int?
    /// True when this link's own causes lie past the depth limit and are not shown.
    public let causesCut: Bool
    /// The event that set it, exactly as the trace records it.
    public let event: TraceEvent?
    /// The step as a sentence (the same in every rendering).
    public let explanation: String

    /// Whether this link is a root: nothing recorded explains it further.
    public var isRoot: Bool { cause.isRoot }
}
