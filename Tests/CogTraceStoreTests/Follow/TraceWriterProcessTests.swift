import Foundation
import Testing

@testable import CogTraceFormat
@testable import CogTraceStore

/// The writer named in a stream's header: alive while it runs, ended when no process has its id
/// or the one that has it started at another time, and never judged from another machine.
@Suite("Trace writer process")
struct TraceWriterProcessTests {
    @Test func thisProcessIsAlive() {
        let current = TraceWriterProcess.current
        #expect(current.pid == Int(getpid()))
        #expect(current.started > 0, "Linux says when a process started")
        #expect(!current.hasEnded)
    }

    @Test func aProcessIdReusedByAnotherProcessIsAnEndedWriter() {
        var reused = TraceWriterProcess.current
        reused.started += 1
        #expect(reused.hasEnded)
    }

    @Test func aProcessThatExitedHasEnded() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        let pid = Int(child.processIdentifier)
        child.waitUntilExit()
        let writer = TraceWriterProcess(pid: pid, started: 1, host: TraceWriterProcess.current.host)
        #expect(writer.hasEnded)
    }

    @Test func aWriterOnAnotherMachineIsNeverJudged() {
        var elsewhere = TraceWriterProcess.current
        elsewhere.host += ".elsewhere"
        elsewhere.started += 1
        #expect(!elsewhere.hasEnded)
    }

    @Test func theHeaderCarriesItAndAHeaderWithoutItReads() throws {
        var header = TraceHeader(
            runID: "r", title: "t", clock: "monotonic", mode: "stream", capacity: 1, keyframeInterval: 1)
        header.writer = TraceWriterProcess(pid: 42, started: 7, host: "box")
        let read = try #require(TraceHeader(jsonValue: header.jsonValue))
        #expect(read.writer == header.writer)
        header.writer = nil
        #expect(try #require(TraceHeader(jsonValue: header.jsonValue)).writer == nil)
    }
}
