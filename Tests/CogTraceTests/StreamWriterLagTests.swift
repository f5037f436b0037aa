import Dispatch
import Foundation
import Synchronization
import Testing

@testable import CogTrace
@testable import CogTraceFormat

/// How many batches were handed over so far, read from another thread.
nonisolated private final class HandOverCount: Sendable {
    let value = Atomic<Int>(0)
    /// While true, the producer hands over a batch a millisecond, as a busy app's turns come.
    let isPaced = Atomic<Bool>(true)
}

/// Hands `count` one-line batches to `writer` and counts them as they go.
nonisolated private func handOver(
    _ count: Int, of line: JSONValue, to writer: StreamWriter, counting handedOver: HandOverCount
) {
    for _ in 0..<count {
        var batch = StreamBatch()
        batch.append(.line(line))
        _ = writer.write(batch)
        handedOver.value.add(1, ordering: .relaxed)
        if handedOver.isPaced.load(ordering: .relaxed) { usleep(1_000) }
    }
}

/// A writer that cannot keep up may fall behind only so far: the app's thread then waits for it,
/// so what a crash can lose stays bounded however fast turns come.
@Suite("Stream writer lag", .timeLimit(.minutes(5)))
struct StreamWriterLagTests {
    @Test func aStuckWriterMakesTheAppWaitAndLosesNothingOnceItMovesAgain() async throws {
        // A named pipe that nobody reads yet: the writer's thread blocks once the pipe is full.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lag-\(getpid()).fifo").path
        unlink(path)
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let writer = try StreamWriter(
            path: path, writing: .background, startingFrom: SettledSnapshot(settling: GraphSnapshot()))
        let count = 5_000
        let line = JSONValue.string(String(repeating: "x", count: 1_000))
        let handedOver = HandOverCount()
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            handOver(count, of: line, to: writer, counting: handedOver)
            finished.signal()
        }

        // Without the bound the producer would go on handing batches over (held in memory, and
        // all lost in a crash); with it, it waits once the writer is 50 ms behind, and hands
        // nothing over while it waits.
        while !writer.isHoldingTheAppBack { try await Task.sleep(for: .milliseconds(5)) }
        let held = handedOver.value.load(ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(50))
        #expect(writer.isHoldingTheAppBack, "nobody reads the pipe, so the app's thread still waits")
        #expect(handedOver.value.load(ordering: .relaxed) == held, "the app's thread waits while the writer is stuck")
        #expect(held < count)
        handedOver.isPaced.store(false, ordering: .relaxed)

        // Reading lets the writer go on: everything handed over reaches the pipe, in order.
        _ = fcntl(reader, F_SETFL, 0)
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let expected = count * 1_003
        while received < expected {
            let got = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            if got <= 0 { break }
            received += got
        }
        finished.wait()
        writer.close()
        #expect(received == expected)
        #expect(writer.currentFault == nil)
    }
}
