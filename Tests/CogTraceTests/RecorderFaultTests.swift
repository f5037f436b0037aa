import Cog
import CogTraceStore
import Foundation
import Testing

@testable import CogTesting
@testable import CogTrace

private let _counterCog = Cog<Int>.Manual(name: "faults.counter") { 0 }
private let doubledCog = Cog<Int>(name: "faults.doubled") { c in c[_counterCog] * 2 }

/// What a recorder does when its file goes wrong: the app carries on, the fault is reported once,
/// and what was written still opens, saying it is incomplete.
@Suite("Recorder faults", .serialized)
struct RecorderFaultTests {
    private func runtime(recordingWith recorder: CogRecorder) -> Cogs {
        let cogs = Cogs.forTesting()
        recorder.attach(to: cogs)
        _ = cogs[doubledCog]
        return cogs
    }

    private func ticks(_ cogs: Cogs, _ range: ClosedRange<Int>) {
        for tick in range { cogs.turn("tick \(tick)") { c in c[_counterCog] = tick } }
    }

    @Test func aFullDiskStopsStreamingOnceAndTheAppCarriesOn() throws {
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "full"))
        let cogs = runtime(recordingWith: recorder)
        try recorder.startStreaming(to: URL(fileURLWithPath: "/dev/full"))
        ticks(cogs, 1...20)
        #expect(recorder.faults == [RecorderFault(path: "/dev/full", reason: "No space left on device")])
        #expect(cogs[doubledCog] == 40, "the app kept running")
        #expect(recorder.retainedTurnCount == 20, "the ring kept recording")
        recorder.finishStreaming()
        #expect(recorder.faults.count == 1, "reported once")
    }

    @Test func aFileRemovedMidStreamIsNoticedAndWhatWasWrittenStillOpens() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("removed.cogtrace")
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "removed"))
        let cogs = runtime(recordingWith: recorder)
        try recorder.startStreaming(to: url)
        ticks(cogs, 1...5)
        recorder.flushStream()
        let copy = directory.appendingPathComponent("kept.cogtrace")
        try FileManager.default.copyItem(at: url, to: copy)
        try FileManager.default.removeItem(at: url)
        ticks(cogs, 6...10)
        #expect(recorder.faults.map(\.reason) == ["the file was removed while streaming"])
        #expect(cogs[doubledCog] == 20)
        recorder.finishStreaming()

        let partial = try TraceFile.load(contentsOf: copy)
        #expect(partial.turnCount == 5)
        #expect(partial.trailer == nil)
        #expect(partial.warnings.map(\.message).contains { $0.contains("may be incomplete") })
    }

    @Test func aFileThatCannotBeCreatedIsRefusedWithTheReason() {
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "nowhere"))
        #expect(throws: RecorderFault(path: "/proc/no-such-dir/x.cogtrace", reason: "No such file or directory")) {
            try recorder.startStreaming(to: URL(fileURLWithPath: "/proc/no-such-dir/x.cogtrace"))
        }
        let directory = FileManager.default.temporaryDirectory
        #expect(throws: RecorderFault(path: directory.path, reason: "Is a directory")) {
            try recorder.startStreaming(to: directory)
        }
    }

    /// Root may write in /sys by its permissions, yet the kernel refuses to create a file there:
    /// a refusal no look ahead foresees, so (for root) the writer's thread meets it on opening
    /// and it becomes the stream's fault; anyone else is refused at once. Either way the reason
    /// is the system's, and the app carries on.
    @Test func aFileRefusedOnlyWhenOpenedBecomesTheStreamsFault() throws {
        let path = "/sys/kernel/cog-inspector-\(getpid()).cogtrace"
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "sysfs"))
        let cogs = runtime(recordingWith: recorder)
        do {
            try recorder.startStreaming(to: URL(fileURLWithPath: path))
        } catch {
            #expect(error == RecorderFault(path: path, reason: "Permission denied"))
            return
        }
        ticks(cogs, 1...3)
        #expect(recorder.faults == [RecorderFault(path: path, reason: "Permission denied")])
        #expect(cogs[doubledCog] == 6, "the app kept running")
        recorder.finishStreaming()
        #expect(recorder.faults.count == 1, "reported once")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(arguments: [
        ("trace.cogtrace", "."), ("/trace.cogtrace", "/"), ("runs/today/trace.cogtrace", "runs/today"),
        ("/tmp/trace.cogtrace", "/tmp"),
    ])
    func theFolderLookedAtBeforeCreatingIsWhatComesBeforeTheLastSlash(path: String, folder: String) {
        #expect(OpenedTrace.folder(of: path) == folder)
    }

    @Test func aTraceDirectoryThatCannotBeCreatedLeavesTheTestRunning() {
        let messages = Locked<[String]>([])
        let capture = CogTraceCapture(
            testName: "Faults.directory",
            options: CogTraceOptions(policy: .always, directory: "/proc/cannot/create"),
            report: { message in messages.withLock { $0.append(message) } })
        let cogs = CogTraceContext.$capture.withValue(capture) { Cogs.forTesting() }
        ticks(cogs, 1...3)
        #expect(capture.finish(testFailed: true).isEmpty)
        #expect(messages.withLock { $0 }.count == 1)
        #expect(
            messages.withLock { $0 }.first?.hasPrefix("cog-trace: cannot write traces into '/proc/cannot/create': ")
                == true)
        #expect(cogs[doubledCog] == 6)
    }
}
