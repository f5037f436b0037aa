import CogTrace
import CogTraceStore
import Foundation
import Testing

@testable import CogTesting

/// `COG_TRACE=failures` on a suite nobody edited: the demos in `AmbientDemos.swift` have no trait
/// and no recording base class, and run in a subprocess under the real runners.
@Suite("Recording a whole suite from the environment", .serialized, .timeLimit(.minutes(5)))
struct AmbientRecordingTests {
    @Test func onlyTheFailingSwiftTestingTestsThatMadeARuntimeLeaveTraces() throws {
        let result = try DemoBundle.run(
            ["--testing-library", "swift-testing", "--filter", "DemoAmbient"], environment: ["COG_TRACE": "failures"])
        defer { try? FileManager.default.removeItem(at: result.directory) }
        #expect(
            Set(result.files.keys) == [
                "DemoAmbientTests.demoAmbientFailsAfterTheSecondStep.cogtrace",
                "DemoAmbientTests.demoAmbientNamed.cogtrace", "DemoAmbientTwinB.twin.cogtrace",
            ],
            "\(result.output)")
        let text = try #require(result.files["DemoAmbientTests.demoAmbientFailsAfterTheSecondStep.cogtrace"])
        let trace = try TraceFile.parse(text)
        let failure = try #require(trace.failures.first)
        #expect(trace.failures.count == 1)
        #expect(failure.test == "DemoAmbientTests.demoAmbientFailsAfterTheSecondStep")
        #expect(failure.kind == .expectation)
        #expect(failure.message.contains("two doubled is not five"), "the expectation's comment: \(failure.message)")
        #expect(failure.file == "CogTestingTests/AmbientDemos.swift")
        #expect(try trace.turn(failure.after).name == "step 2", "the failure comes after step 2")
        let opened = try DemoBundle.coginspect([
            result.directory.appendingPathComponent("DemoAmbientTests.demoAmbientFailsAfterTheSecondStep.cogtrace")
                .path, "-c", "where",
        ])
        #expect(opened.hasSuffix(": step 2 (op)\n"), "it opens at the failure: \(opened)")

        let thrown = try TraceFile.parse(try #require(result.files["DemoAmbientTests.demoAmbientNamed.cogtrace"]))
        #expect(thrown.failures.map(\.kind) == [.error])
        let twin = try TraceFile.parse(try #require(result.files["DemoAmbientTwinB.twin.cogtrace"]))
        #expect(twin.failures.first?.message.contains("the twin that fails") == true)
    }

    @Test func theRunnersEventStreamTellsFailuresWhenTheRunWritesOne() throws {
        let events = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: events) }
        let result = try DemoBundle.run(
            [
                "--testing-library", "swift-testing", "--filter", "DemoAmbientTests|DemoHostileNames",
                "--event-stream-output-path", events.path, "--event-stream-version", "0",
            ],
            environment: ["COG_TRACE": "failures"])
        defer { try? FileManager.default.removeItem(at: result.directory) }
        #expect(result.files.count == 6, "\(result.files.keys.sorted())\n\(result.output)")
        #expect(!result.output.contains("could not tell"), "every end came from the stream")
        for (name, text) in result.files {
            let failures = try TraceFile.parse(text).failures
            #expect(failures.count == 1, "\(name)")
        }
        let failed = try TraceFile.parse(
            try #require(result.files["DemoAmbientTests.demoAmbientFailsAfterTheSecondStep.cogtrace"]))
        let failure = try #require(failed.failures.first)
        #expect(failure.kind == .expectation)
        #expect(failure.message.contains("two doubled is not five"))
        #expect(failure.file == "CogTestingTests/AmbientDemos.swift")
        #expect(try failed.turn(failure.after).name == "step 2")
    }

    @Test func onlyTheFailingXCTestLeavesATrace() throws {
        let result = try DemoBundle.run(["CogTestingTests.DemoAmbientXCTests"], environment: ["COG_TRACE": "failures"])
        defer { try? FileManager.default.removeItem(at: result.directory) }
        #expect(
            Set(result.files.keys) == ["DemoAmbientXCTests.testDemoAmbientAssertionFails.cogtrace"], "\(result.output)")
        let trace = try TraceFile.parse(try #require(result.files.values.first))
        let failure = try #require(trace.failures.first)
        #expect(failure.kind == .expectation)
        #expect(failure.file == "AmbientDemos.swift")
        #expect(failure.line != nil)
        #expect(try trace.turn(failure.after).name == "step 3")
    }

    @Test func alwaysKeepsPassingTestsAndNoVariableKeepsNothing() throws {
        let always = try DemoBundle.run(
            ["--testing-library", "swift-testing", "--filter", "DemoAmbientTests"], environment: ["COG_TRACE": "always"]
        )
        defer { try? FileManager.default.removeItem(at: always.directory) }
        #expect(always.files.count == 3, "every test that made a runtime: \(always.files.keys.sorted())")
        let none = try DemoBundle.run(
            ["--testing-library", "swift-testing", "--filter", "DemoAmbientTests"], environment: [:],
            unsetting: ["COG_TRACE"])
        defer { try? FileManager.default.removeItem(at: none.directory) }
        #expect(none.files.isEmpty, "without COG_TRACE a test with no trait records nothing")
    }
}
