import Foundation
import Testing

@testable import CogTrace
@testable import CogTraceFormat

/// A writer (on a thread of its own unless told otherwise) into a new temporary file named after
/// `name`, and the file's URL for the test to read and remove.
private func streamWriter(
    _ name: String, writing: RecorderConfiguration.StreamWriting = .background
) throws -> (StreamWriter, URL) {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid()).cogtrace")
    let writer = try StreamWriter(
        path: url.path, writing: writing, startingFrom: SettledSnapshot(settling: GraphSnapshot()))
    return (writer, url)
}

/// The writer's thread gives written batches back emptied, for the app's thread to fill again:
/// a reused batch must hold nothing of what it carried, and reuse must not reorder or lose lines.
@Suite("Stream writer spares", .timeLimit(.minutes(5)))
struct StreamWriterSpareTests {
    @Test func writtenBatchesComeBackEmptyAndEveryLineIsWrittenInOrder() throws {
        let (writer, url) = try streamWriter("spares")
        defer { try? FileManager.default.removeItem(at: url) }
        var next = StreamBatch()
        var handedOver = 0
        var reused = 0
        // Paced as a busy app's turns come, until the writer's thread has given back enough
        // batches (a loaded machine may keep it from running for a while).
        while reused < 20, handedOver < 20_000 {
            if next.capacity > 0 { reused += 1 }
            #expect(next.isEmpty)
            #expect(next.events.isEmpty && next.events.values.isEmpty && next.events.producers.isEmpty)
            next.append(.line(.object([("n", .int(handedOver))])))
            next.events.values.append(TraceValue(settling: "value \(handedOver)"))
            next.events.producers.append(handedOver)
            next = writer.write(next)
            handedOver += 1
            usleep(200)
        }
        writer.close()

        #expect(reused >= 20, "the writer's thread gave batches back")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        #expect(lines == (0..<handedOver).map { "{\"n\":\($0)}" })
        #expect(writer.currentFault == nil)
    }

    @Test func anImmediateWriterHandsBackTheBatchItWroteEmptied() throws {
        let (writer, url) = try streamWriter("spares-now", writing: .immediate)
        defer { try? FileManager.default.removeItem(at: url) }
        var next = StreamBatch()
        for index in 0..<100 {
            #expect(next.isEmpty && next.events.values.isEmpty)
            #expect(index == 0 || next.capacity > 0, "the written batch's storage comes back")
            next.append(.line(.int(index)))
            next.events.values.append(TraceValue(settling: "value \(index)"))
            next = writer.write(next)
        }
        writer.close()
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        #expect(lines == (0..<100).map { "\($0)" })
    }

    @Test func aBigBatchIsNotKeptAsASpare() throws {
        let (writer, url) = try streamWriter("spares-big")
        defer { try? FileManager.default.removeItem(at: url) }
        var big = StreamBatch()
        for index in 0...StreamWriter.spareCapacity { big.append(.line(.int(index))) }
        var next = writer.write(big)
        // Small batches after it: none that comes back has the big one's room.
        for index in 0..<2_000 {
            #expect(next.capacity <= StreamWriter.spareCapacity)
            next.append(.line(.int(index)))
            next = writer.write(next)
            usleep(100)
        }
        writer.close()
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == StreamWriter.spareCapacity + 1 + 2_000)
    }
}
