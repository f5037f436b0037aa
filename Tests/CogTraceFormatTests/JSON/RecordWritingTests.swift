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
        .recompute(
            state: 6, old: TraceValue(rendering: Int.min), new: TraceValue(rendering: 1_234_567), changed: true,
            trigger: 12_345),
        .recompute(state: 6, old: .redacted, new: TraceValue(rendering: -7), changed: false, trigger: nil),
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

    /// What `write` appends to a buffer that already holds a byte, so an append that
    /// overwrote instead would show.
    private func written(_ write: (inout ByteBuffer) -> Void) -> [UInt8] {
        var buffer = ByteBuffer(capacity: 1)
        buffer.append(UInt8(ascii: "x"))
        write(&buffer)
        let bytes = buffer.bytes
        #expect(bytes.first == UInt8(ascii: "x"))
        return Array(bytes.dropFirst())
    }

    @Test func everyEventKindWritesWhatItsJSONValueWrites() throws {
        for event in everyKind {
            let output = written { event.write(to: &$0) }
            #expect(output == bytes(of: event.jsonValue), "\(event.kind)")
            let parsed = try JSONParser.parse(String(decoding: output, as: UTF8.self))
            #expect(try TraceEvent(jsonValue: parsed) == event.settlingValues, "\(event.kind)")
        }
    }

    @Test func eventsWrittenIntoAnArrayAsTheyComeMatchTheArrayOfEvents() {
        let turn = TraceTurn(
            sequence: 3, name: "t", origin: TurnOrigin(rawValue: "op"), cause: nil, start: 1, duration: 2,
            events: everyKind, after: [])
        let streamed = written { output in
            turn.write(to: &output) { array in
                for event in everyKind {
                    switch event {
                    case .stateCreated(let state, let value): array.appendCreated(state: state, value: value)
                    case .write(let state, let old, let new): array.appendWrite(state: state, old: old, new: new)
                    case .recompute(let state, let old, let new, let changed, let trigger):
                        array.appendRecompute(state: state, old: old, new: new, changed: changed, trigger: trigger)
                    case .notice(let state): array.appendNotice(state: state)
                    case .reactionRun(let registration): array.appendReactionRun(registration: registration)
                    default: array.append(event)
                    }
                }
            }
        }
        #expect(streamed == bytes(of: turn.jsonValue))
        let idle = TraceTurn(
            sequence: 3, name: "", origin: TurnOrigin(rawValue: ""), cause: nil, start: 0, duration: 0, events: [],
            after: everyKind)
        let idleWritten = written { output in
            TraceTurn.writeIdle(after: 3, to: &output) { array in
                for event in everyKind { array.append(event) }
            }
        }
        #expect(idleWritten == bytes(of: idle.afterJSONValue!))
    }

    @Test func aStringIsPlainExactlyWhenNoByteNeedsEscaping() {
        // Every length from empty past two words: short strings are padded to a word, long ones
        // end with a word that overlaps the one before.
        #expect([UInt8]().withUnsafeBufferPointer { JSONValue.isPlain($0) })
        for length in 1...19 {
            #expect(
                Array(repeating: UInt8(ascii: "a"), count: length).withUnsafeBufferPointer { JSONValue.isPlain($0) })
            for byte in UInt8(0)...UInt8(255) {
                for position in 0..<length {
                    var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = byte
                    let needsEscape = byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C
                    let plain = bytes.withUnsafeBufferPointer { JSONValue.isPlain($0) }
                    if plain == needsEscape {
                        Issue.record("byte \(byte) at \(position) of \(length): plain is \(plain)")
                    }
                }
            }
        }
    }

    @Test func aBufferGrowsPastItsCapacityKeepingEveryByte() {
        var buffer = ByteBuffer(capacity: 1)
        var expected: [UInt8] = []
        var edges = [0, 9, 10, 99, 100, 101, 999, 1_000, 9_999, Int.max, Int.min, -1, -9, -10, -100]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            edges += [power - 1, power, power + 1, -power]
        }
        for round in 0..<2_000 {
            let number = round < edges.count ? edges[round] : round % 7 == 0 ? Int.min + round : round * 7_919 - 5_000
            buffer.appendDecimal(number)
            expected += Array(String(number).utf8)
            buffer.append(UInt8(ascii: ","))
            expected.append(UInt8(ascii: ","))
            buffer.appendMemberName("key", afterComma: round % 2 == 0)
            expected += Array((round % 2 == 0 ? ",\"key\":" : "\"key\":").utf8)
        }
        let count = buffer.count
        #expect(count == expected.count)
        let bytes = buffer.bytes
        #expect(bytes == expected)
        buffer.removeAll()
        let isEmpty = buffer.isEmpty
        #expect(isEmpty)
        buffer.append("after")
        let text = buffer.text
        #expect(text == "after")
    }

    /// Reserving room keeps the bytes a buffer holds; an emptied buffer takes new room instead
    /// (made on the thread that fills it), which holds every byte of what it was reserved for.
    @Test func reservingRoomKeepsHeldBytesAndFillsNewRoomWhole() {
        var buffer = ByteBuffer(capacity: 1)
        buffer.append("held")
        buffer.reserveCapacity(1 << 16)
        let kept = buffer.text
        #expect(kept == "held")
        buffer.removeAll()
        buffer.reserveCapacity(1 << 20)
        let pattern = (0..<251).map { UInt8($0) }
        var expected: [UInt8] = []
        while expected.count + pattern.count <= 1 << 20 {
            pattern.withUnsafeBufferPointer { buffer.append($0) }
            expected += pattern
        }
        let bytes = buffer.bytes
        #expect(bytes == expected)
        buffer.removeAll()
        buffer.reserveCapacity(8)
        buffer.append("again")
        let text = buffer.text
        #expect(text == "again")
    }

    /// Short runs are copied as two words that may overlap: every length, after every amount
    /// already held, lands exactly its bytes and nothing past them.
    @Test func runsOfEveryLengthAppendExactlyTheirBytes() {
        let source = (0..<40).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        for held in 0..<17 {
            for length in 0...source.count {
                var buffer = ByteBuffer(capacity: 1)
                let before = Array(repeating: UInt8(ascii: "-"), count: held)
                before.withUnsafeBufferPointer { buffer.append($0) }
                source.withUnsafeBufferPointer { buffer.append(UnsafeBufferPointer(rebasing: $0[..<length])) }
                buffer.append(UInt8(ascii: "|"))
                let bytes = buffer.bytes
                #expect(bytes == before + source.prefix(length) + [UInt8(ascii: "|")], "held \(held), length \(length)")
            }
        }
    }

    /// An integer's value is written with its digits made once and copied: the same bytes as
    /// its members, for every size of number.
    @Test func anIntegerValueWritesWhatItsMembersWrite() {
        var numbers = [0, 9, 10, -1, Int.max, Int.min]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            numbers += [power - 1, power, -power - 1]
        }
        for number in numbers {
            let value = TraceValue(rendering: number)
            let spelled = written { value.write(to: &$0) }
            let membered = written { output in JSONObjectWriter.write(to: &output) { value.addMembers(to: &$0) } }
            #expect(spelled == membered)
            #expect(String(decoding: spelled, as: UTF8.self) == #"{"t":"\#(number)","j":\#(number)}"#)
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

    @Test func aTurnAndAStateRecordWriteWhatTheirJSONValuesWrite() {
        let turn = TraceTurn(
            sequence: 7, name: hostile, origin: TurnOrigin(rawValue: "op"), cause: 3, start: 120, duration: 45,
            events: everyKind, after: Array(everyKind.prefix(5)))
        #expect(written { turn.write(to: &$0) } == bytes(of: turn.jsonValue))
        let quiet = TraceTurn(
            sequence: 8, name: "", origin: TurnOrigin(rawValue: "op"), cause: nil, start: 0, duration: 0, events: [],
            after: [])
        #expect(quiet.afterJSONValue == nil)
        #expect(written { quiet.write(to: &$0) } == bytes(of: quiet.jsonValue))
        let state = TraceStateInfo(
            id: 4, label: hostile + "[1]", declaration: hostile, key: "1", shape: .automatic, valueType: "Int",
            lifetime: StateLifetime(rawValue: "app"), policy: nil)
        #expect(written { writeState(state, to: &$0) } == bytes(of: state.jsonValue))
    }

    /// A recorder writes a state's head from its declaration and key, never making the label;
    /// the pieces escaped apart must spell the label escaped whole, hostile text on either side.
    @Test(arguments: [nil, "1", hostile, "", "]\"["])
    func aStateHeadFromItsDeclarationAndKeyWritesWhatItsLabelWrites(key: String?) {
        for declaration in [hostile, "plain.name", ""] {
            let label = key.map { declaration + "[" + $0 + "]" } ?? declaration
            let state = TraceStateInfo(
                id: 1_234, label: label, declaration: declaration, key: key, shape: .automatic, valueType: "Int",
                lifetime: StateLifetime(rawValue: "app"), policy: nil)
            #expect(
                written {
                    writeState(state, to: &$0)
                } == bytes(of: state.jsonValue))
        }
    }
}

/// A state record as a recorder spells it: head from the declaration and key, then the tail.
private func writeState(_ state: TraceStateInfo, to output: inout ByteBuffer) {
    TraceStateInfo.writeHead(id: state.id.rawValue, declaration: state.declaration, key: state.key, to: &output)
    TraceStateInfo.writeTail(
        shape: state.shape.rawValue, valueType: state.valueType, lifetime: state.lifetime.rawValue,
        policy: state.policy?.rawValue, to: &output)
}
