import CogTraceFormat
import Testing

@testable import Cog
@testable import CogTrace

/// A value of no type the log packs as bits, so it is boxed.
private struct Reading: Equatable {
    let city: String
    let temperature: Int
}

private let declaration = CogDeclarationInfo(
    label: "weather.forecast", shape: .async, valueType: "Int", lifetime: "whileObserved(30 seconds)", policy: .latest)

/// Appends `count` events of every kind the log packs, and some it keeps whole, to `log`;
/// returns the events a probe that only implements `record(_:)` would have seen.
private func fill(_ log: inout EventLog, count: Int) -> [CogProbeEvent] {
    var expected: [CogProbeEvent] = []
    let dependencies = ContiguousArray<Dependency>()
    for index in 0..<count {
        let state = CogStateID(index % 40 + 1)
        switch index % 12 {
        case 0:
            var old = index
            var new = index + 1
            log.appendRecompute(state: state, old: &old, new: &new, changed: true, trigger: CogStateID(7))
            expected.append(.recompute(state: state, old: index, new: index + 1, changed: true, trigger: CogStateID(7)))
        case 1:
            var old = "rain"
            var new = "sun \(index)"
            log.appendRecompute(state: state, old: &old, new: &new, changed: false, trigger: nil)
            expected.append(.recompute(state: state, old: "rain", new: "sun \(index)", changed: false, trigger: nil))
        case 2:
            var value = Double(index) / 4
            log.appendFirstRun(state: state, value: &value, trigger: nil)
            expected.append(.recompute(state: state, old: nil, new: Double(index) / 4, changed: true, trigger: nil))
        case 3:
            var old = false
            var new = true
            log.appendWrite(state: state, old: &old, new: &new)
            expected.append(.write(state: state, old: false, new: true))
        case 4:
            var old = Reading(city: "10001", temperature: 64)
            var new = Reading(city: "10001", temperature: index)
            log.appendWrite(state: state, old: &old, new: &new)
            expected.append(
                .write(
                    state: state, old: Reading(city: "10001", temperature: 64),
                    new: Reading(city: "10001", temperature: index)))
        case 5:
            log.appendDependencies(consumer: state, producers: CogProducerList(dependencies))
            expected.append(.dependenciesChanged(consumer: state, producers: []))
        case 6:
            log.append(CogProbeSignal.notice(state: state))
            expected.append(.notice(state: state))
        case 7:
            log.append(CogProbeSignal.leaseRenewed(state: state, holder: "peek"))
            expected.append(.leaseRenewed(state: state, holder: "peek"))
        case 8:
            log.append(CogProbeSignal.graceScheduled(state: state, grace: .milliseconds(30_250)))
            expected.append(.graceScheduled(state: state, grace: .milliseconds(30_250)))
        case 9:
            log.append(CogProbeSignal.reactionRun(registration: state))
            expected.append(.reactionRun(registration: state))
        case 10:
            let event = CogProbeEvent.turnDropped(name: "load \(index)", reason: "its scope 'tab' retired")
            log.append(event)
            expected.append(event)
            let info = CogStateInfo(id: state, declarationInfo: declaration, key: "\(index)")
            var seeded = index * 3
            log.appendStateCreated(info, value: &seeded)
            log.appendStateCreated(info, value: nil as UnsafePointer<Int>?)
            expected.append(.stateCreated(info, value: index * 3))
            expected.append(.stateCreated(info, value: nil))
        default:
            // Identities past 32 bits do not fit a record: kept whole, read back the same.
            let huge = CogStateID(Int(UInt32.max) + index)
            var old = index
            var new = -index
            log.appendRecompute(state: huge, old: &old, new: &new, changed: true, trigger: CogStateID(Int.max))
            log.append(CogProbeSignal.notice(state: huge))
            expected.append(
                .recompute(state: huge, old: index, new: -index, changed: true, trigger: CogStateID(Int.max)))
            expected.append(.notice(state: huge))
        }
    }
    return expected
}

/// Each trace event as one JSON line.
private func texts(_ events: some Sequence<TraceEvent>) -> [String] {
    events.map { event in
        var lines = TraceLines()
        lines.append(event.jsonValue)
        return lines.text
    }
}

/// The trace events the recorder makes of `events` one by one, the way a probe reported them.
private func expectedTexts(_ events: some Sequence<CogProbeEvent>, by recorder: CogRecorder) -> [String] {
    texts(events.compactMap { recorder.trace($0) })
}

/// What the log holds in `range`, copied out and converted from an empty graph.
private func readBack(_ range: Range<Int>, from recorder: CogRecorder, settling: Bool) -> [String] {
    var converter = TraceConverter(from: GraphSnapshot())
    return texts(converter.convert(recorder.portable(range, settling: settling)))
}

@Suite("Event log")
struct EventLogTests {
    @Test(arguments: [false, true])
    func everyKindReadsBackAsTheProbeReportedIt(settling: Bool) {
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "log"))
        let expected = fill(&recorder.log, count: 1_300)
        #expect(recorder.log.endIndex == expected.count)
        #expect(expected.count > 2 * EventLog.segmentCapacity)
        #expect(
            readBack(0..<recorder.log.endIndex, from: recorder, settling: settling)
                == expectedTexts(expected, by: recorder))
        // A range that starts and ends inside segments, across a boundary.
        #expect(
            readBack(500..<530, from: recorder, settling: settling) == expectedTexts(expected[500..<530], by: recorder))
        if settling { #expect(recorder.portable(0..<recorder.log.endIndex, settling: true).isSettled) }
    }

    /// A writer converts the busiest kinds straight into bytes, without making events: the
    /// bytes and the graph it keeps must be what converting first, then writing, gives.
    @Test(arguments: [false, true])
    func writingStraightFromTheLogGivesWhatConvertingFirstGives(settling: Bool) {
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "log"))
        _ = fill(&recorder.log, count: 240)
        let portable = recorder.portable(0..<recorder.log.endIndex, settling: settling)
        var heading = TraceTurn(
            sequence: 1, name: "fill", origin: TurnOrigin(rawValue: "op"), cause: nil, start: 0, duration: 1,
            events: [], after: [])
        var converting = TraceConverter(from: GraphSnapshot())
        var writing = TraceConverter(from: GraphSnapshot())
        var direct = ByteBuffer()
        writing.write(heading, events: portable, records: portable.records.indices, to: &direct)
        heading.events = converting.convert(portable)
        var expected = ByteBuffer()
        heading.write(to: &expected)
        let (directText, expectedText) = (direct.text, expected.text)
        #expect(directText == expectedText)
        #expect(writing.snapshot == converting.snapshot)
        #expect(!writing.snapshot.states.isEmpty)
    }

    @Test func discardingDropsWholeSegmentsAndKeepsTheRestReadable() {
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "log"))
        let expected = fill(&recorder.log, count: 1_400)
        recorder.log.discard(before: 700)
        // Only the first segment lies wholly before 700.
        #expect(recorder.log.startIndex == EventLog.segmentCapacity)
        #expect(
            readBack(700..<recorder.log.endIndex, from: recorder, settling: false)
                == expectedTexts(expected[700...], by: recorder))
        recorder.log.discard(before: recorder.log.endIndex)
        // The segment still being filled is never dropped.
        #expect(
            recorder.log.startIndex
                == (recorder.log.endIndex - 1) / EventLog.segmentCapacity * EventLog.segmentCapacity)
        // Appending after a discard reuses a spare segment and reads back in order.
        let more = fill(&recorder.log, count: 600)
        let end = recorder.log.endIndex
        #expect(readBack(end - more.count..<end, from: recorder, settling: false) == expectedTexts(more, by: recorder))
    }

    @Test func aRedactedStatesValuesAreRedactedWhetherPackedAsBitsOrBoxed() {
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "log", redactedLabels: ["secret.*"]))
        let info = CogStateInfo(
            id: CogStateID(5),
            declarationInfo: CogDeclarationInfo(
                label: "secret.pin", shape: .manual, valueType: "Int", lifetime: "app", policy: nil), key: nil)
        recorder.noteState(info)
        var seeded = 1234
        recorder.log.appendStateCreated(info, value: &seeded)
        var old = 1234
        var new = 4321
        recorder.log.appendWrite(state: CogStateID(5), old: &old, new: &new)
        var oldText = "a"
        var newText = "b"
        recorder.log.appendRecompute(state: CogStateID(5), old: &oldText, new: &newText, changed: true, trigger: nil)
        let lines = readBack(0..<recorder.log.endIndex, from: recorder, settling: true)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { !$0.contains("1234") && !$0.contains("4321") && !$0.contains("\"b\"") })
        #expect(lines.allSatisfy { $0.contains("redacted") })
    }

    @Test func aProbeThatOnlyRecordsEventsSeesSignalsAsEvents() {
        #expect(
            String(describing: CogProbeSignal.leaseRenewed(state: CogStateID(3), holder: "refresh").event)
                == String(describing: CogProbeEvent.leaseRenewed(state: CogStateID(3), holder: "refresh")))
        #expect(
            String(describing: CogProbeSignal.graceScheduled(state: CogStateID(4), grace: .seconds(2)).event)
                == String(describing: CogProbeEvent.graceScheduled(state: CogStateID(4), grace: .seconds(2))))
    }
}
