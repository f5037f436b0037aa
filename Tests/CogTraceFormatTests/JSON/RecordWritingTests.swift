import Testing

@testable import CogTraceFormat

/// Text meant to trip an encoder: quotes, backslashes, control and separator characters,
/// non-ASCII letters and emoji.
private let hostile = "a\"b\\c\n\t\u{1}\u{7F}\u{85}\u{2028}é🙂</script>"

private var value: TraceValue { TraceValue(pending: hostile) }
private var number: TraceValue { TraceValue(pending: -42) }

/// One event of every kind, with hostile text and both present and absent optionals.
private var everyKind: [TraceEvent] {
    [
        .stateCreated(state: 1, value: value), .stateCreated(state: 2, value: nil), .seeded(state: 3, value: number),
        .write(state: 4, old: number, new: value),
        .write(state: 4, old: TraceValue(rendering: Int.min), new: TraceValue(rendering: 7)),
        .recompute(
            state: 6, old: TraceValue(rendering: true), new: TraceValue(rendering: -0.5), changed: true, trigger: 1),
        .writeDiscarded(state: 5, value: .redacted),
        .recompute(state: 6, old: nil, new: value, changed: true, trigger: nil),
        .recompute(state: 6, old: value, new: number, changed: false, trigger: 9),
        .edgeAdded(consumer: 7, producer: 8), .edgeRemoved(consumer: 7, producer: 8),
        .dependencies(consumer: 7, producers: [8, 9, 10]), .dependencies(consumer: 7, producers: []),
        .unregistered(registration: 11), .boundaryAttached(state: 12), .notice(state: 13),
        .offer(state: 14, subscriber: 15, value: value), .reactionRun(registration: 16),
        .watchRun(registration: 17, old: nil, new: value), .watchRun(registration: 17, old: value, new: number),
        .leaseAcquired(state: 18, holder: hostile), .leaseReleased(state: 18, holder: "w"),
        .leaseRenewed(state: 18, holder: "peek"), .graceScheduled(state: 19, milliseconds: 30_250),
        .graceExpired(state: 19), .stateReleased(state: 19, reason: "graceExpired"),
        .generationStarted(state: 20, generation: 3, policy: AsyncPolicyName(rawValue: "latest")),
        .generationCancelled(state: 20, generation: 2), .generationAccepted(state: 20, generation: 3, outcome: hostile),
        .generationRejected(state: 20, generation: 1),
        .asyncStatus(
            state: 20, kind: AsyncStatusKind(rawValue: "failure"), isLoading: false, hasSucceeded: true, error: hostile),
        .asyncStatus(
            state: 20, kind: AsyncStatusKind(rawValue: "success"), isLoading: true, hasSucceeded: false, error: nil),
        .refreshResolved(state: 20, generation: nil, outcome: "released"),
        .refreshResolved(state: 20, generation: 4, outcome: "success"),
        .registered(registration: 21, name: hostile, kind: RegistrationKind(rawValue: "watch")),
        .scopeOpened(registration: 22, name: "Probe.entry", identity: hostile),
        .scopeOpened(registration: 22, name: "Probe.entry", identity: nil), .scopeRetired(registration: 22),
        .taskStarted(registration: 23, name: hostile), .taskCancelled(registration: 23),
        .taskFinished(registration: 23),
        .turnDropped(name: hostile, reason: "its scope retired"),
        .diagnostic(kind: "cycle", message: hostile, path: ["a", hostile, "a"]),
    ]
}

/// Records are written straight into bytes on the recorder's paths and built as `JSONValue`s
/// elsewhere; both must give the same bytes, which a reader then parses back.
@Suite("Writing records without building JSON values")
struct RecordWritingTests {
    private func bytes(of json: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        json.write(to: &output)
        return output
    }

    @Test func everyEventKindWritesWhatItsJSONValueWrites() throws {
        for event in everyKind {
            var written: [UInt8] = [UInt8(ascii: "x")]
            event.write(to: &written)
            #expect(written == [UInt8(ascii: "x")] + bytes(of: event.jsonValue), "\(event.kind)")
            let parsed = try JSONParser.parse(String(decoding: written.dropFirst(), as: UTF8.self))
            #expect(try TraceEvent(jsonValue: parsed) == event.settlingValues, "\(event.kind)")
        }
    }

    @Test func aValueKeptAsBitsRendersAsTheSameValueBoxedWould() {
        for number in [0, -1, 42, Int.max, Int.min] {
            #expect(TraceValue(rendering: number) == TraceValue(pending: number))
            #expect(TraceValue(rendering: number).text == TraceValue(pending: number).text)
        }
        for flag in [true, false] { #expect(TraceValue(rendering: flag) == TraceValue(pending: flag)) }
        for double in [0.5, -0.0, 1e300, .infinity] {
            #expect(TraceValue(rendering: double).text == TraceValue(pending: double).text)
        }
    }

    @Test func aTurnAndItsIdleRecordWriteWhatTheirJSONValuesWrite() {
        let turn = TraceTurn(
            sequence: 7, name: hostile, origin: TurnOrigin(rawValue: "op"), cause: 3, start: 120, duration: 45,
            events: everyKind, after: Array(everyKind.prefix(5)))
        var written: [UInt8] = []
        turn.write(to: &written)
        #expect(written == bytes(of: turn.jsonValue))
        var idle: [UInt8] = []
        #expect(turn.writeAfter(to: &idle))
        #expect(idle == bytes(of: turn.afterJSONValue!))
        let quiet = TraceTurn(
            sequence: 8, name: "", origin: TurnOrigin(rawValue: "op"), cause: nil, start: 0, duration: 0, events: [],
            after: [])
        var nothing: [UInt8] = []
        #expect(!quiet.writeAfter(to: &nothing))
        #expect(nothing.isEmpty)
        quiet.write(to: &nothing)
        #expect(nothing == bytes(of: quiet.jsonValue))
    }
}
