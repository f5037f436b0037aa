import CogTrace
import CogTraceStore
import Foundation
import Testing

@testable import CogTesting

/// Runs the deliberately failing tests in `DeliberateFailures.swift` through the real runners
/// (this test bundle, started again with `COG_TRACE_DEMO=1`) and checks what they leave behind:
/// a trace per failing test, whose last turn is the last one before the failure, and nothing for
/// a passing test or a known issue.
@Suite("Traces of failing tests", .serialized, .timeLimit(.minutes(5)))
struct TraceOnFailureTests {
    private func run(
        _ arguments: [String], environment extra: [String: String] = [:]
    ) throws
        -> (files: [String: String], output: String, directory: URL)
    {
        let result = try DemoBundle.run(arguments, environment: extra)
        return (result.files, result.output, result.directory)
    }

    private static var testBundle: URL { DemoBundle.executable }

    private func lastTurnName(_ text: String) throws -> String {
        let trace = try TraceFile.parse(text)
        return try trace.turn(try #require(trace.turnSequences.last)).name
    }

    @Test func aFailingSwiftTestingTestLeavesATraceAndAPassingOneNone() throws {
        let result = try run(["--testing-library", "swift-testing", "--filter", "DemoTraceTests"])
        defer { try? FileManager.default.removeItem(at: result.directory) }
        #expect(
            Set(result.files.keys) == [
                "DemoTraceTests.demoExpectationFails.cogtrace", "DemoTraceTests.demoThrows.cogtrace",
            ],
            "\(result.output)")
        for (name, text) in result.files {
            #expect(try lastTurnName(text) == "step 3", "\(name)")
            #expect(try TraceFile.parse(text).warnings.isEmpty)
            let kinds = try TraceFile.parse(text).failures.map(\.kind)
            #expect(kinds == [name.contains("demoThrows") ? .error : .expectation], "\(name)")
        }
        #expect(
            result.output.contains(
                "open it with: swift run coginspect \(result.directory.path)/DemoTraceTests.demoThrows.cogtrace"))
        #expect(result.output.contains("Attached 'DemoTraceTests.demoExpectationFails.cogtrace'"))
        try expectCoginspectOpens(
            result.directory.appendingPathComponent("DemoTraceTests.demoExpectationFails.cogtrace"))
    }

    /// `coginspect` (built beside this bundle) opens the trace with its cursor on the last step.
    private func expectCoginspectOpens(_ file: URL) throws {
        let coginspect = Self.testBundle.deletingLastPathComponent().appendingPathComponent("coginspect")
        let process = Process()
        process.executableURL = coginspect
        process.arguments = [file.path, "-c", "where"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(printed.hasSuffix(": step 3 (op)\n"), "\(printed)")
    }

    @Test func theTraceMarksWhereTheTestFailedAndOpensThere() throws {
        let result = try run(["--testing-library", "swift-testing", "--filter", "DemoMidwayTests"])
        defer { try? FileManager.default.removeItem(at: result.directory) }
        let text = try #require(result.files["DemoMidwayTests.demoFailsAfterTheFirstStep.cogtrace"], "\(result.output)")
        let trace = try TraceFile.parse(text)
        #expect(trace.turnSequences.count == 3, "the whole test is there")
        let failure = try #require(trace.failures.first)
        #expect(trace.failures.count == 1)
        #expect(try trace.turn(failure.after).name == "step 1", "the failure comes after step 1")
        #expect(failure.kind == .expectation)
        #expect(failure.test == "DemoMidwayTests.demoFailsAfterTheFirstStep")
        #expect(failure.message.contains("one doubled is not three"))
        #expect(failure.file?.hasSuffix("DeliberateFailures.swift") == true)
        #expect(failure.line != nil)
        let file = result.directory.appendingPathComponent("DemoMidwayTests.demoFailsAfterTheFirstStep.cogtrace")
        let opened = try coginspect([file.path, "-c", "where", "--json", "-c", "failures"])
        #expect(opened.contains("step 1 (op)"), "it opens at the last turn before the failure:\n\(opened)")
        #expect(opened.contains(#""kind":"expectation""#))
        #expect(opened.contains(#""location":"CogTestingTests/DeliberateFailures.swift:"#), "\(opened)")
    }

    private func coginspect(_ arguments: [String]) throws -> String {
        try DemoBundle.coginspect(arguments)
    }

    @Test func aFailingXCTestLeavesATraceAndAPassingOneNone() throws {
        let result = try run(["CogTestingTests.DemoXCTraceTests"])
        defer { try? FileManager.default.removeItem(at: result.directory) }
        #expect(Set(result.files.keys) == ["DemoXCTraceTests.testDemoAssertionFails.cogtrace"], "\(result.output)")
        let text = try #require(result.files.values.first)
        #expect(try lastTurnName(text) == "step 3")
        let failure = try #require(try TraceFile.parse(text).failures.first)
        #expect(failure.kind == .expectation)
        #expect(failure.file == "DeliberateFailures.swift")
    }

    @Test func theEnvironmentCanRecordEveryTestOrNone() throws {
        let always = try run(
            ["--testing-library", "swift-testing", "--filter", "DemoTraceTests"],
            environment: ["COG_TRACE": "always"])
        defer { try? FileManager.default.removeItem(at: always.directory) }
        #expect(always.files.count == 4, "\(always.files.keys.sorted())")
        let off = try run(
            ["--testing-library", "swift-testing", "--filter", "DemoTraceTests"], environment: ["COG_TRACE": "off"])
        #expect(off.files.isEmpty)
    }

    @Test func aSecondRunNeverOverwritesTheFirst() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cog-traces-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("first".utf8).write(to: directory.appendingPathComponent("A.test.cogtrace"))
        let next = try TraceFileName.reserve(in: directory, for: "A.test")
        #expect(next.lastPathComponent == "A.test-2.cogtrace")
        #expect(try String(contentsOf: directory.appendingPathComponent("A.test.cogtrace"), encoding: .utf8) == "first")
    }
}
