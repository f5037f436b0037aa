import CogTraceFormat
import Foundation
import Testing

@testable import CogTraceStore

/// A test's trace that never got its trailer reads as how the test ended: `died` when nothing
/// says more, the signal's record when one was written, and either way with what the runtime was
/// still waiting on.
@Suite("Reading the trace of a test that never ended")
struct UnfinishedTestTraceReadingTests {
    /// A test's checkpoint: three turns, then a quote whose generation 1 started at turn 4.
    static func checkpoint(host: String = "another-machine", ending: String = "") -> String {
        let lines = [
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"CogTrace 1.1","run":"virtual:T.t","title":"T.t","clock":"virtual","mode":"stream","capacity":100,"keyframeEvery":1000,"writer":{"pid":1,"started":1,"host":"\#(host)"},"test":"T.t"}"#,
            #"{"type":"state","id":1,"label":"shop.count","decl":"shop.count","key":null,"shape":"manual","valueType":"Int","lifetime":"app","policy":null}"#,
            #"{"type":"state","id":2,"label":"shop.quote","decl":"shop.quote","key":null,"shape":"async","valueType":"Int","lifetime":"app","policy":"latest"}"#,
            #"{"type":"keyframe","before":1,"states":[],"registrations":[]}"#,
            #"{"type":"turn","seq":1,"name":"add 1","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"created","s":1,"v":{"t":"0","j":0}},{"e":"write","s":1,"old":{"t":"0","j":0},"new":{"t":"1","j":1}}]}"#,
            #"{"type":"turn","seq":2,"name":"add 2","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"1","j":1},"new":{"t":"3","j":3}}]}"#,
            #"{"type":"turn","seq":3,"name":"add 3","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"3","j":3},"new":{"t":"6","j":6}}]}"#,
            #"{"type":"idle","after":3,"events":[{"e":"created","s":2,"v":{"t":"0","j":0}}]}"#,
            #"{"type":"turn","seq":4,"name":"shop.quote pending","origin":"asyncCompletion","cause":null,"start":0,"duration":0,"events":[{"e":"generationStarted","s":2,"g":1,"policy":"latest"}]}"#,
        ]
        return lines.joined(separator: "\n") + "\n" + ending
    }

    @Test func aCheckpointWithNothingAfterReadsAsDied() throws {
        let trace = try TraceFile.parse(Self.checkpoint())
        #expect(trace.isCutShortTest)
        let failure = try #require(trace.failures.last)
        #expect(failure.kind == .died)
        #expect(failure.after == 4)
        #expect(
            failure.message == "the process died while the test ran; waiting on shop.quote generation 1 (since turn 4)")
    }

    @Test func aSignalsRecordSaysHowAndNoDeathIsAdded() throws {
        let record =
            #"{"type":"failure","after":4,"test":"T.t","kind":"terminated","message":"not finished: terminated by SIGTERM","file":null,"line":null,"signal":"SIGTERM"}"#
        let trace = try TraceFile.parse(Self.checkpoint(ending: record + "\n"))
        #expect(trace.failures.map(\.kind) == [.terminated])
        #expect(trace.failures.first?.signal == "SIGTERM")
        #expect(trace.failures.first?.message.hasSuffix("; waiting on shop.quote generation 1 (since turn 4)") == true)
    }

    @Test func aFinishedTraceOrOneStillBeingWrittenIsNotCutShort() throws {
        let trailer = #"{"type":"trailer","ok":true,"turns":4,"evicted":0,"dropped":0,"keyframes":1}"#
        #expect(try TraceFile.parse(Self.checkpoint(ending: trailer + "\n")).failures.isEmpty)
        // This process, on this machine, is still writing it.
        let live = Self.checkpoint(host: TraceWriterProcess.hostName).replacingOccurrences(
            of: #""pid":1,"started":1"#,
            with: #""pid":\#(TraceWriterProcess.current.pid),"started":\#(TraceWriterProcess.current.started)"#)
        let trace = try TraceFile.parse(live)
        #expect(!trace.isCutShortTest)
        #expect(trace.failures.isEmpty)
    }
}
