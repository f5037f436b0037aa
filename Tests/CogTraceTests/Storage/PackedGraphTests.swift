import CogTraceFormat
import Testing

@testable import CogTrace

/// The packed graph a writer keeps must move exactly as a snapshot does, event by event, and
/// give that snapshot back with its states in the same order (a keyframe's settle marks and
/// every later conversion read it).
@Suite("Packed graph")
struct PackedGraphTests {
    /// A random event over a few dozen ids, so states are created, rerun, released and
    /// created again, and lists grow, shrink and move.
    private func randomEvent(_ generator: inout SplitMix64) -> TraceEvent {
        let id = NodeID(Int.random(in: 1...40, using: &generator))
        let value = TraceValue(rendering: Int.random(in: 0...3, using: &generator))
        let producers = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
            NodeID(Int.random(in: 1...40, using: &generator))
        }
        let holder = ["reaction.a", "watch.b"].randomElement(using: &generator)!
        switch Int.random(in: 0..<20, using: &generator) {
        case 0, 1: return .stateCreated(state: id, value: Bool.random(using: &generator) ? value : nil)
        case 2: return .seeded(state: id, value: value)
        case 3: return .write(state: id, old: value, new: value)
        case 4, 5, 6:
            return .recompute(
                state: id, old: nil, new: value, changed: Bool.random(using: &generator), trigger: nil)
        case 7, 8, 9: return .dependencies(consumer: id, producers: producers)
        case 10: return .leaseAcquired(state: id, holder: holder)
        case 11: return .leaseReleased(state: id, holder: holder)
        case 12: return .graceScheduled(state: id, milliseconds: 10)
        case 13: return .graceExpired(state: id)
        case 14: return .stateReleased(state: id, reason: "released")
        case 15: return .boundaryAttached(state: id)
        case 16: return .generationStarted(state: id, generation: 2, policy: AsyncPolicyName(rawValue: "latest"))
        case 17:
            return .asyncStatus(state: id, kind: .pending, isLoading: true, hasSucceeded: false, error: "timed out")
        case 18: return .registered(registration: NodeID(id.rawValue + 100), name: holder, kind: .reaction)
        default: return .dependencies(consumer: NodeID(id.rawValue + 100), producers: producers)
        }
    }

    /// Whether both hold the same graph, states in the same order.
    private func agree(_ packed: PackedGraph, _ reference: GraphSnapshot) -> Bool {
        let unpacked = packed.snapshot
        return unpacked == reference && unpacked.states.keys == reference.states.keys
    }

    @Test(arguments: 0..<8)
    func applyingEventsMovesItAsASnapshotMoves(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var reference = GraphSnapshot()
        var packed = PackedGraph()
        for step in 0..<4_000 {
            let event = randomEvent(&generator)
            reference.apply(event)
            packed.applyEvent(event)
            if step % 97 == 0 { #expect(agree(packed, reference), "seed \(seed), step \(step), after \(event)") }
        }
        #expect(agree(packed, reference))
        #expect(reference.states.count > 0)
    }

    @Test func aListLeftForTheRunAfterItIsNotedByThatRun() {
        var reference = GraphSnapshot()
        var packed = PackedGraph()
        for event: TraceEvent in [
            .stateCreated(state: 1, value: nil), .stateCreated(state: 2, value: nil),
            .stateCreated(state: 3, value: nil),
            .write(state: 1, old: TraceValue(rendering: 0), new: TraceValue(rendering: 1)),
        ] {
            reference.apply(event)
            packed.applyEvent(event)
        }
        reference.recordDependencies(of: 3, [1, 2], notingVersions: false)
        packed.recordDependencies(of: 3, [1, 2], notingVersions: false)
        #expect(agree(packed, reference), "a list whose versions wait for the run")
        reference.recordRun(of: 3, value: TraceValue(rendering: 7), changed: true)
        packed.recordRun(of: 3, value: TraceValue(rendering: 7), changed: true)
        #expect(agree(packed, reference))
        #expect(packed.snapshot.states[3]?.observedVersions == [1, 0])
    }

    @Test func aGraphLoadedFromAKeyframeKeepsItsShorterSeenVersions() throws {
        let keyframe = try JSONParser.parse(
            #"{"states":[{"id":5,"v":1,"ver":2,"deps":[6,7],"obs":[1],"leases":["watch.w"],"pinned":true},"#
                + #"{"id":6,"v":2,"ver":1,"deps":[],"obs":[]},{"id":7,"v":3,"ver":4,"deps":[],"obs":[],"grace":true}],"#
                + #""registrations":[{"id":9,"name":"watch.w","kind":"watch","deps":[5]}]}"#)
        let loaded = try GraphSnapshot(keyframe: keyframe)
        var packed = PackedGraph(loaded)
        var reference = loaded
        #expect(agree(packed, reference))
        #expect(packed.snapshot.keyframeMembers.description == loaded.keyframeMembers.description)
        for event: TraceEvent in [
            .leaseReleased(state: 5, holder: "watch.w"), .dependencies(consumer: 9, producers: [6]),
            .recompute(state: 5, old: nil, new: TraceValue(rendering: 4), changed: true, trigger: nil),
        ] {
            reference.apply(event)
            packed.applyEvent(event)
        }
        #expect(agree(packed, reference))
    }

    /// Lists that keep growing leave their old room behind; once it outnumbers the room in
    /// use the pools are rewritten, and nothing a state holds may move or change.
    @Test func poolsAreCompactedWithoutChangingTheGraph() {
        var reference = GraphSnapshot()
        var packed = PackedGraph()
        for id in 1...50 {
            reference.recordCreation(of: NodeID(id), value: nil)
            packed.recordCreation(of: NodeID(id), value: nil)
        }
        var compacted = false
        for length in 1...50 {
            for id in 1...50 {
                let producers = (0..<length).map { NodeID(($0 + id) % 50 + 1) }
                reference.recordDependencies(of: NodeID(id), producers)
                let poolBefore = packed.dependencyPool.count
                packed.recordDependencies(of: NodeID(id), producers)
                compacted = compacted || packed.dependencyPool.count < poolBefore
            }
        }
        #expect(compacted, "the pools were never rewritten")
        #expect(agree(packed, reference))
        let used = packed.states.map { $0.value.dependencies.count }.reduce(0, +)
        #expect(packed.dependencyPool.count <= 2 * used + PackedGraph.compactionFloor)
    }

    @Test func aDependencyChangeReadsThePreviousListOfAStateOrARegistration() {
        var packed = PackedGraph()
        packed.applyEvent(.stateCreated(state: 1, value: nil))
        packed.applyEvent(.dependencies(consumer: 1, producers: [2, 3, 4]))
        packed.applyEvent(.registered(registration: 10, name: "reaction.r", kind: .reaction))
        packed.applyEvent(.dependencies(consumer: 10, producers: [1]))

        var added: [NodeID] = []
        var removed: [NodeID] = []
        let stateChange = packed.dependencyChange(of: 1, to: [4, 5])
        stateChange.forEachAdded { added.append($0) }
        stateChange.forEachRemoved { removed.append($0) }
        #expect(stateChange.holder == nil)
        #expect(added == [5] && removed == [2, 3])

        added = []
        removed = []
        let registrationChange = packed.dependencyChange(of: 10, to: [2])
        registrationChange.forEachAdded { added.append($0) }
        registrationChange.forEachRemoved { removed.append($0) }
        #expect(registrationChange.holder == "reaction.r")
        #expect(added == [2] && removed == [1])
    }
}
