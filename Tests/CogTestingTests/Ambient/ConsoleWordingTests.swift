import Cog
import CogTestSupport
import CogTraceStore
import Foundation
import Testing

@testable import CogTesting

/// The console tap is the fallback for telling failing Swift Testing tests from passing ones:
/// when the runner's wording is not what it knows, no failing test loses its trace quietly.
@Suite("Reading the runner's console", .timeLimit(.minutes(5)))
struct ConsoleWordingTests {
    /// A registry fed by hand, recording this test into a fresh directory, with one turn made.
    @MainActor private func recordThisTest() throws -> (SwiftTestingAmbient, Locked<[String]>, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cog-wording-\(UUID().uuidString)")
        let said = Locked<[String]>([])
        let ambient = SwiftTestingAmbient(installsTap: false) { message in said.withLock { $0.append(message) } }
        let test = try #require(Test.current)
        let capture = ambient.capture(
            for: test, options: CogTraceOptions(policy: .failures, directory: directory.path))
        let counter = Cog<Int>.Manual(name: "wording.count") { 0 }
        let cogs = CogTraceContext.$capture.withValue(capture) { Cogs.forTesting() }
        cogs.turn(counter, to: 1)
        return (ambient, said, directory)
    }

    private func feed(_ ambient: SwiftTestingAmbient, _ line: String) {
        let bytes = Array(line.utf8)
        bytes.withUnsafeBufferPointer { ambient.consume($0) }
    }

    @Test @MainActor func aChangedWordingKeepsEveryTraceAndSaysSo() throws {
        let (ambient, said, directory) = try recordThisTest()
        defer { try? FileManager.default.removeItem(at: directory) }
        feed(ambient, "✘ Test aChangedWordingKeepsEveryTraceAndSaysSo() did not pass (0.004 s, 1 issue)\n")
        ambient.finishEnded()
        #expect(ambient.finishUnended() == 1)
        #expect(said.withLock { $0 } == ["cog-trace: could not tell which tests failed; keeping every trace"])
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files == ["ConsoleWordingTests.aChangedWordingKeepsEveryTraceAndSaysSo.cogtrace"])
        let trace = try TraceFile.load(contentsOf: directory.appendingPathComponent(try #require(files.first)))
        #expect(trace.trailer != nil, "the kept trace is complete")
        #expect(trace.turnCount == 1)
    }

    @Test @MainActor func theKnownWordingEndsThePassingTestAndKeepsNothing() throws {
        let (ambient, said, directory) = try recordThisTest()
        defer { try? FileManager.default.removeItem(at: directory) }
        feed(ambient, "✔ Test theKnownWordingEndsThePassingTestAndKeepsNothing() passed after 0.004 seconds.\n")
        ambient.finishEnded()
        #expect(ambient.finishUnended() == 0)
        #expect(said.withLock { $0 }.isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).isEmpty)
    }
}
