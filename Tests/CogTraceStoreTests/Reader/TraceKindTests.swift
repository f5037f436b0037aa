import Foundation
import Testing

@testable import CogTraceFormat
@testable import CogTraceStore

/// Kinds are words the trace writes; a word this reader does not know (from a newer writer) is
/// kept and written back as it was, never rejected.
@Suite("Trace kinds")
struct TraceKindTests {
    static let tour = RecordingFiles.folder.appendingPathComponent("tour.cogtrace")

    @Test func unknownKindsFromANewerWriterAreKeptAsWritten() throws {
        let text = try String(contentsOf: Self.tour, encoding: .utf8)
            .replacingOccurrences(of: #""shape":"async""#, with: #""shape":"hologram""#)
            .replacingOccurrences(of: #""origin":"op""#, with: #""origin":"teleport""#)
            .replacingOccurrences(of: #""kind":"watch""#, with: #""kind":"portal""#)
            .replacingOccurrences(of: #""policy":"latest""#, with: #""policy":"eventually""#)
        let trace = try TraceFile.parse(text)
        let shapes = Set(trace.states.values.map(\.shape))
        #expect(shapes.contains(StateShape(rawValue: "hologram")))
        #expect(!StateShape(rawValue: "hologram").isKnown)
        #expect(!shapes.contains(.async))
        #expect(trace.states.values.contains { $0.policy == AsyncPolicyName(rawValue: "eventually") })
        var origins = Set<TurnOrigin>()
        var registrationKinds = Set<RegistrationKind>()
        for sequence in trace.turnSequences {
            let turn = try trace.turn(sequence)
            origins.insert(turn.origin)
            for case .registered(_, _, let kind) in turn.events + turn.after { registrationKinds.insert(kind) }
        }
        #expect(origins.contains(TurnOrigin(rawValue: "teleport")))
        #expect(registrationKinds.contains(RegistrationKind(rawValue: "portal")))
        #expect(!registrationKinds.contains(.watch))
        let info = try #require(trace.states.values.first { $0.shape.rawValue == "hologram" })
        #expect(info.jsonValue["shape"] == .string("hologram"), "written back as it was read")
    }

    @Test func everyKnownKindRoundTripsThroughItsWord() {
        func check<Kind: TraceKind>(_ kinds: [Kind]) -> Int {
            for kind in kinds {
                #expect(Kind(rawValue: kind.rawValue) == kind)
                #expect(kind.isKnown)
                #expect(kind.description == kind.rawValue)
            }
            return kinds.count
        }
        let checked =
            check(StateShape.known) + check(AsyncPolicyName.known) + check(AsyncStatusKind.known)
            + check(RegistrationKind.known) + check(TurnOrigin.known) + check(StateLifetime.known)
        #expect(checked == 4 + 4 + 3 + 7 + 7 + 1)
        #expect(StateLifetime(rawValue: "whileObserved(30.0 seconds)").isKnown)
        #expect(StateLifetime(rawValue: "whileObserved(30.0 seconds)").isWhileObserved)
        #expect(!StateLifetime(rawValue: "forever").isKnown)
        func genericIsKnown<Kind: TraceKind>(_ kind: Kind) -> Bool { kind.isKnown }
        #expect(genericIsKnown(StateLifetime(rawValue: "whileObserved(1.0 seconds)")), "dispatch reaches the override")
    }
}
