import Foundation
import Testing

@testable import CogTraceFormat
@testable import CogTraceStore

/// The event index locates events without decoding them; these tests hold it to the decoder:
/// for every subject, the same events in the same order as decoding every turn gives.
@Suite("Event index")
struct TraceEventIndexTests {
    private static let recordings = RecordingFiles.folder

    /// What the index should hold, from decoding every turn: each subject's events with their
    /// turn, idle flag and place.
    private func decodedView(of trace: TraceFile) throws -> [NodeID: [String]] {
        var view: [NodeID: [String]] = [:]
        for sequence in trace.turnSequences {
            let turn = try trace.turn(sequence)
            for (isIdle, events) in [(false, turn.events), (true, turn.after)] {
                for (position, event) in events.enumerated() {
                    let line = "\(sequence) \(isIdle) \(position) \(event.jsonValue.jsonText)"
                    if let subject = event.state ?? event.registration { view[subject, default: []].append(line) }
                    if case .edgeAdded(_, let producer) = event { view[producer, default: []].append(line) }
                    if case .edgeRemoved(_, let producer) = event { view[producer, default: []].append(line) }
                }
            }
        }
        return view
    }

    private func indexedView(
        of trace: TraceFile, batchSize: Int = TraceEventIndex.batchSize, only subjects: [NodeID]? = nil
    ) throws -> [NodeID: [String]] {
        let index = try #require(TraceEventIndex(trace: trace, only: subjects, batchSize: batchSize))
        return try index.bySubject.mapValues { locations in
            try locations.compactMap { location in
                guard let event = try index.event(at: location) else { return nil }
                return "\(index.turn(of: location)) \(location.isIdle) \(location.position) \(event.jsonValue.jsonText)"
            }
        }
    }

    @Test(arguments: ["tour", "map", "screens", "stale-refresh", "switching", "heat-advisory", "service-outage"])
    func everyRecordingIndexesAsItDecodes(_ name: String) throws {
        let trace = try TraceFile.load(contentsOf: Self.recordings.appendingPathComponent("\(name).cogtrace"))
        let indexed = try indexedView(of: trace)
        #expect(indexed == (try decodedView(of: trace)))
        #expect(!indexed.isEmpty)
        let index = try #require(TraceEventIndex(trace: trace))
        let registered = trace.turnSequences.flatMap { (try? trace.turn($0)).map { $0.events + $0.after } ?? [] }
            .filter { TraceEventIndex.registrationKinds.contains($0.kind) }
        #expect(index.registrationEvents.map(\.event) == registered)
    }

    /// Built batch by batch (three turns at a time here, 32,768 in a real build), the index
    /// merges many workers' parts, whose kind codes start from the kinds met before: it still
    /// holds every subject's events in order, and reading a subject joins its batches once.
    @Test(arguments: ["tour", "heat-advisory", "service-outage"])
    func anIndexMergedFromManyBatchesMatchesTheDecoder(_ name: String) throws {
        let trace = try TraceFile.load(contentsOf: Self.recordings.appendingPathComponent("\(name).cogtrace"))
        let decoded = try decodedView(of: trace)
        #expect(try indexedView(of: trace, batchSize: 3) == decoded)
        let index = try #require(TraceEventIndex(trace: trace, batchSize: 2))
        let subject = try #require(decoded.max { $0.value.count < $1.value.count }?.key)
        #expect(index.locations(of: subject)?.count == decoded[subject]?.count)
        #expect(index.locations(of: subject)?.count == decoded[subject]?.count)
        #expect(Set(index.subjects) == Set(decoded.keys))
        // Each event's kind, read from its code without decoding it, is the decoded event's.
        for (_, locations) in index.bySubject {
            for location in locations {
                #expect(index.kind(of: location) == (try index.event(at: location))?.kind)
            }
        }
        let registered = trace.turnSequences.flatMap { (try? trace.turn($0)).map { $0.events + $0.after } ?? [] }
            .filter { TraceEventIndex.registrationKinds.contains($0.kind) }
        #expect(index.registrationEvents.map(\.event) == registered)
    }

    /// An index of a few subjects (what a first `history` builds) holds exactly their events, as
    /// the decoder gives them, and the whole trace's registrations and undecodable turns.
    @Test(arguments: ["tour", "heat-advisory", "service-outage"])
    func anIndexOfAFewSubjectsHoldsExactlyTheirEvents(_ name: String) throws {
        let trace = try TraceFile.load(contentsOf: Self.recordings.appendingPathComponent("\(name).cogtrace"))
        let decoded = try decodedView(of: trace)
        let busiest = try #require(decoded.max { $0.value.count < $1.value.count }?.key)
        let quietest = try #require(decoded.min { $0.value.count < $1.value.count }?.key)
        let unnamed = NodeID((decoded.keys.map(\.rawValue).max() ?? 0) + 1_000)
        let kept = [busiest, quietest, unnamed]
        let view = try indexedView(of: trace, batchSize: 3, only: kept)
        #expect(view == decoded.filter { kept.contains($0.key) })
        #expect(view.count == 2)
        let index = try #require(TraceEventIndex(trace: trace, only: kept, batchSize: 3))
        let whole = try #require(TraceEventIndex(trace: trace))
        #expect(index.covers(busiest) && index.covers(unnamed))
        #expect(decoded.keys.filter { index.covers($0) }.count == 2)
        #expect(whole.covers(unnamed))
        #expect(index.registrationEvents.map(\.event) == whole.registrationEvents.map(\.event))
        #expect(index.undecodable.map(\.turnIndex) == whole.undecodable.map(\.turnIndex))
    }

    /// Records the scan does not read (an escaped key, a duplicate member, a fractional id, an
    /// event naming nothing) go to the decoder, and the index agrees with it.
    @Test func recordsTheScanCannotReadAreDecodedWhole() throws {
        let lines = [
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"r","title":"t","clock":"virtual","mode":"ring","capacity":10,"keyframeEvery":100}"#,
            #"{"type":"state","id":1,"label":"a","decl":"a","key":null,"shape":"manual","valueType":"Int","lifetime":"app","policy":null}"#,
            #"{"type":"state","id":2,"label":"b","decl":"b","key":null,"shape":"automatic","valueType":"Int","lifetime":"app","policy":null}"#,
            #"{"type":"turn","seq":1,"name":"one","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write","\u0073":1,"old":{"t":"0","j":0},"new":{"t":"1","j":1}}]}"#,
            #"{"type":"turn","seq":2,"name":"two","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"edgeAdded","s":2,"p":1},{"e":"hologram","s":2},{"e":"notice","s":1,"s":1}]}"#,
            #"{"type":"turn","seq":3,"name":"three","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"turnDropped","name":"x","reason":"y"},{"e":"notice","s":2}]}"#,
            #"{"type":"idle","after":3,"events":[{"e":"recompute","s":2,"old":null,"new":{"t":"\"q\\u00e9\"","j":"q\u00e9"},"changed":true,"by":1}]}"#,
            #"{"type":"turn","seq":4,"name":"four","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"notice","s":1.0}]}"#,
            #"{"type":"trailer","ok":true,"turns":4,"evicted":0,"dropped":0,"keyframes":0}"#,
        ]
        let trace = try TraceFile.parse(lines.joined(separator: "\n") + "\n")
        let decoded = try decodedView(of: trace)
        #expect(try indexedView(of: trace) == decoded)
        #expect(decoded[2]?.count == 3)
        // The records decoded whole are filed by subject too when only some subjects are kept.
        #expect(try indexedView(of: trace, only: [1]) == decoded.filter { $0.key == 1 })
        #expect(try indexedView(of: trace, only: [2]) == decoded.filter { $0.key == 2 })
    }

    /// Values whose strings hold escaped quotes and backslashes, brackets and UTF-8 at every
    /// offset a word-at-a-time search can cut are skipped to the right end: each event is found
    /// whole, under its state, as the decoder finds it.
    @Test func stringsWithEscapesAtEveryOffsetIndexAsTheyDecode() throws {
        var lines = [
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"r","title":"t","clock":"virtual","mode":"ring","capacity":10,"keyframeEvery":100}"#,
            #"{"type":"state","id":1,"label":"a","decl":"a","key":null,"shape":"manual","valueType":"String","lifetime":"app","policy":null}"#,
            #"{"type":"state","id":2,"label":"b","decl":"b","key":null,"shape":"automatic","valueType":"String","lifetime":"app","policy":null}"#,
        ]
        let pieces = [#"\""#, #"\\"#, "}", "]{[", "é", #"\u00e9"#, #"\/"#, "x"]
        var sequence = 0
        for piece in pieces {
            for padding in 0..<10 {
                sequence += 1
                let text = String(repeating: "p", count: padding) + piece + String(repeating: "q", count: 9 - padding)
                let value = #"{"t":"\#(text)","j":{"nested":["\#(text)",{"k\#(piece)":"\#(text)"}]}}"#
                lines.append(
                    #"{"type":"turn","seq":\#(sequence),"name":"n\#(text)","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":\#(value),"new":\#(value)},{"e":"notice","s":2}]}"#
                )
                lines.append(
                    #"{"type":"idle","after":\#(sequence),"events":[{"e":"recompute","s":2,"old":null,"new":\#(value),"changed":true,"by":1},{"e":"edgeAdded","s":2,"p":1}]}"#
                )
            }
        }
        let trace = try TraceFile.parse(lines.joined(separator: "\n") + "\n")
        let decoded = try decodedView(of: trace)
        #expect(try indexedView(of: trace) == decoded)
        #expect(decoded[1]?.count == 2 * pieces.count * 10)
        #expect(decoded[2]?.count == 3 * pieces.count * 10)
    }

    /// A record that neither the scan nor the decoder can read is listed, not indexed.
    @Test func anUndecodableTurnIsListedWithItsError() throws {
        let lines = [
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"r","title":"t","clock":"virtual","mode":"ring","capacity":10,"keyframeEvery":100}"#,
            #"{"type":"turn","seq":1,"name":"one","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write"}]}"#,
            #"{"type":"turn","seq":2,"name":"two","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"notice","s":1}]}"#,
        ]
        let trace = try TraceFile.parse(lines.joined(separator: "\n") + "\n")
        let index = try #require(TraceEventIndex(trace: trace))
        #expect(index.undecodable.map(\.turnIndex) == [0])
        #expect(index.undecodable.first?.error.description.contains("event 1") == true)
        #expect(index.bySubject[1]?.count == 1)
        let another = try #require(TraceEventIndex(trace: trace, only: [7]))
        #expect(another.undecodable.map(\.turnIndex) == [0])
        #expect(another.bySubject.isEmpty)
    }
    /// Decoding many events at once (on every core) gives what decoding each alone gives, in
    /// order, including events the build decoded already and a record that fails.
    @Test func decodingManyEventsAtOnceMatchesDecodingEach() throws {
        var lines = [
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"test","run":"r","title":"t","clock":"virtual","mode":"ring","capacity":5000,"keyframeEvery":100000}"#,
            #"{"type":"state","id":1,"label":"a","decl":"a","key":null,"shape":"manual","valueType":"Int","lifetime":"app","policy":null}"#,
        ]
        for sequence in 1...1_500 {
            let event: String
            switch sequence % 500 {
            // The scan leaves an escaped name to the decoder, which reads it at build time.
            case 7: event = #"{"e":"write","\u0073":1,"old":{"t":"0","j":0},"new":{"t":"7","j":7}}"#
            // The scan reads this one; decoding it fails (a write needs its values).
            case 9: event = #"{"e":"write","s":1}"#
            default: event = #"{"e":"write","s":1,"old":{"t":"0","j":0},"new":{"t":"\#(sequence)","j":\#(sequence)}}"#
            }
            lines.append(
                #"{"type":"turn","seq":\#(sequence),"name":"n","origin":"op","cause":null,"start":0,"duration":0,"events":["#
                    + event + "]}")
        }
        let trace = try TraceFile.parse(lines.joined(separator: "\n") + "\n")
        let index = try #require(TraceEventIndex(trace: trace))
        let locations = try #require(index.bySubject[1])
        #expect(locations.count == 1_500)
        func describe(_ result: Result<TraceEvent?, TraceReadError>) -> String {
            switch result {
            case .success(let event): event.map { $0.jsonValue.jsonText } ?? "unknown kind"
            case .failure(let error): "error: \(error)"
            }
        }
        let together = index.events(at: locations[...]).map(describe)
        let alone = locations.map { location in
            describe(Result { () throws(TraceReadError) in try index.event(at: location) })
        }
        #expect(together == alone)
        #expect(together.filter { $0.hasPrefix("error") }.count == 3)
        #expect(together[6].contains(#""j":7"#))
    }
}
