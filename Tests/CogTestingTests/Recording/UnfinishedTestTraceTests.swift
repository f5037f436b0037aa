import CCogTraceGuard
import CogTrace
import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogTestSupport

/// A test that never ends the way tests end still leaves its trace: streamed while it runs,
/// closed by the guard when a signal ends the process, read back when nothing could close it.
@Suite("Traces of tests that never ended", .serialized, .timeLimit(.minutes(5)))
struct UnfinishedTestTraceTests {
    @Test func aCrashAfterThreeTurnsLeavesATraceMarkedWithTheSignalAndTheFatalMessage() throws {
        let result = try DemoBundle.run(
            ["--testing-library", "swift-testing", "--filter", "demoUnfinishedCrash"],
            environment: ["COG_TRACE": "failures", "COG_TRACE_DEMO_UNFINISHED": "crash"])
        defer { try? FileManager.default.removeItem(at: result.directory) }
        #expect(
            result.status == 128 + SIGILL || result.status == 128 + SIGTRAP, "the runner's status: \(result.output)")
        let text = try #require(result.files["DemoUnfinished.demoUnfinishedCrash.cogtrace"], "\(result.output)")
        let trace = try TraceFile.parse(text)
        #expect(trace.turnCount == 3)
        let crash = try #require(trace.failures.first)
        #expect(crash.kind == .crash)
        #expect(crash.signal == "SIGILL" || crash.signal == "SIGTRAP")
        #expect(crash.after == 3)
        #expect(crash.message.hasPrefix("Fatal error: Unexpectedly found nil"), "\(crash.message)")
        #expect(crash.file == "CogTestingTests/AmbientDemos.swift")
        #expect(result.output.contains("Fatal error: Unexpectedly found nil"), "the runtime's message still shows")
    }

    @Test func anXCTestThatCrashesLeavesItsTraceToo() throws {
        let result = try DemoBundle.run(
            ["CogTestingTests.DemoUnfinishedXCTests"],
            environment: ["COG_TRACE": "failures", "COG_TRACE_DEMO_UNFINISHED": "crash"])
        defer { try? FileManager.default.removeItem(at: result.directory) }
        let text = try #require(
            result.files["DemoUnfinishedXCTests.testDemoUnfinishedCrash.cogtrace"], "\(result.output)")
        let trace = try TraceFile.parse(text)
        #expect(trace.turnCount == 3)
        let crash = try #require(trace.failures.first)
        #expect(crash.kind == .crash)
        #expect(crash.after == 3)
        #expect(crash.message.hasPrefix("Fatal error: Unexpectedly found nil"), "\(crash.message)")
    }

    @Test func failingTestsWithAnyNameLeaveATraceInsideTheDirectory() throws {
        let result = try DemoBundle.run(
            ["--testing-library", "swift-testing", "--filter", "DemoHostileNames"],
            environment: ["COG_TRACE": "failures"])
        defer { try? FileManager.default.removeItem(at: result.directory) }
        #expect(result.files.count == 4, "\(result.files.keys.sorted())\n\(result.output)")
        for (name, text) in result.files {
            #expect(name.utf8.count <= TraceFileName.stemLimit + "-99.cogtrace".utf8.count)
            #expect(!name.hasPrefix("."))
            #expect(name.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 })
            let trace = try TraceFile.parse(text)
            #expect(trace.failures.first?.kind == .expectation, "\(name)")
        }
    }

    @Test func aSafeStemIsMadeOfAnyName() {
        #expect(TraceFileName.stem(for: "../../etc/passwd") == "_._.._etc_passwd")
        #expect(TraceFileName.stem(for: "a\nb\u{1B}[2J") == "a_b__2J")
        #expect(TraceFileName.stem(for: "") == "test")
        #expect(TraceFileName.stem(for: String(repeating: "x", count: 300)).count == TraceFileName.stemLimit)
        #expect(TraceFileName.stem(for: "Suite.test(a:b:)") == "Suite.test_a_b__")
    }

    @Test func theGuardWritesOneRecordPerRunningTestAndNoneOnceItEnded() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("guard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("t.cogtrace")
        try Data("{\"type\":\"header\"}\n{\"partial".utf8).write(to: file)
        let descriptor = open(file.path, O_RDWR | O_APPEND)
        defer { close(descriptor) }
        let slot = cog_trace_guard_register(descriptor, JSONValue.string("A.test \"quoted\"\n").jsonText)
        #expect(slot >= 0)
        cog_trace_guard_turn_ended(slot, 7)
        #expect(cog_trace_guard_mark_for_testing(slot, SIGTERM))
        cog_trace_guard_unregister(slot)
        #expect(!cog_trace_guard_mark_for_testing(slot, SIGTERM))
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3, "the cut line is ended before the record: \(lines)")
        let record = try JSONParser.parse(String(lines[2]))
        let failure = try #require(TraceFailure(jsonValue: record))
        #expect(failure.kind == .terminated)
        #expect(failure.after == 7)
        #expect(failure.test == "A.test \"quoted\"\n")
        #expect(failure.signal == "SIGTERM")
    }

    @Test func aStallMarkNamesTheWorkWaitedOn() {
        let message = TestTraceGuard.stallMessage(
            quietSeconds: 2.5,
            waiting: [TracePendingGeneration(state: 7, label: "shop.quote[7]", generation: 2, since: 3)])
        #expect(message == "stalled: no turn for 2.5 s while waiting on shop.quote[7] generation 2 (since turn 3)")
    }
}
