import Cog
import CogTrace
import CogTraceStore
import Foundation
import Testing

@testable import CogTesting

/// A test that runs past its time limit and cannot be cancelled would never end, so it would
/// never write its trace; the trait writes it at the limit. Here the limit is declared (one
/// minute) but reached on a signal the test gives, so the check takes well under a second and
/// does not depend on how loaded the machine is.
@Suite("Traces of tests past their time limit")
struct TimeLimitTraceTests {
    @Test(.timeLimit(.minutes(1)))
    func aTestStuckPastItsLimitLeavesItsTraceAtTheLimit() async throws {
        let requested = FileManager.default.temporaryDirectory.appendingPathComponent("cog-limit-\(UUID().uuidString)")
        let options = CogTraceOptions(directory: requested.path)
        let directory = URL(fileURLWithPath: options.overridden().directory)
        defer { try? FileManager.default.removeItem(at: requested) }
        let (limitReached, reachLimit) = AsyncStream<Void>.makeStream()
        let messages = Locked<[String]>([])
        let (reported, report) = AsyncStream<String>.makeStream()
        let trait = CogTraceTrait(
            options: options,
            waitPastLimit: { _ in
                for await _ in limitReached { return true }
                return false
            },
            report: { message in
                messages.withLock { $0.append(message) }
                report.yield(message)
            })
        let test = try #require(Test.current)
        let testCase = try #require(Test.Case.current)
        var sawTraceWhileStuck = false
        try await trait.provideScope(for: test, testCase: testCase) { @MainActor in
            _ = DeliberateFailure.threeSteps()
            reachLimit.yield()
            // Stuck, as a test waiting on something that never comes, until the watchdog says it
            // wrote the trace: a condition, not a time, so a loaded machine changes nothing.
            for await _ in reported { break }
            let written = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            sawTraceWhileStuck = written.contains { $0.hasSuffix(".cogtrace") }
        }
        #expect(sawTraceWhileStuck, "the trace was written while the test was still running")
        #expect(messages.withLock { $0 }.count == 1)
        #expect(messages.withLock { $0 }.first?.contains("ran past its time limit of 60.0 seconds") == true)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 1, "the test's own end writes nothing more: \(files)")
        let file = try #require(files.first)
        let trace = try TraceFile.load(contentsOf: directory.appendingPathComponent(file))
        #expect(trace.turnSequences.count == 3)
        #expect(try trace.turn(try #require(trace.turnSequences.last)).name == "step 3")
        let failure = try #require(trace.failures.first, "the trace says the test ran out of time")
        #expect(failure.kind == .timeLimit)
        #expect(failure.after == 3)
        #expect(failure.message.contains("ran past its time limit of 60.0 seconds"))
    }
}
