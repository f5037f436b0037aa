import Cog
import CogTrace
import Foundation
import Testing

@testable import CogBench

/// The streamed runs' files: made empty before the timed runs, handed out once each, and
/// replaced by the stream that opens them.
@Suite("Stream files")
struct StreamFilesTests {
    @Test func preparedFilesExistEmptyAndAreHandedOutOnce() throws {
        let files = StreamFiles()
        files.prepare(3)
        let urls = (0..<3).map { _ in files.next() }
        #expect(Set(urls).count == 3)
        for url in urls {
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
            #expect(size == 0, "\(url.lastPathComponent)")
        }
        // Past the prepared ones, a new name with no file behind it.
        let extra = files.next()
        #expect(!urls.contains(extra))
        #expect(!FileManager.default.fileExists(atPath: extra.path))
        files.removeAll()
        #expect(urls.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) })
    }

    @Test func aStreamReplacesThePreparedFile() throws {
        let files = StreamFiles()
        files.prepare(1)
        let url = files.next()
        let cogs = Cogs()
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "prepared"))
        recorder.attach(to: cogs)
        try recorder.startStreaming(to: url)
        let shape = KairoUnstable(turns: 5)
        #expect(shape.run(on: cogs) == shape.expectedSelectorRuns)
        recorder.finishStreaming()
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.first?.hasPrefix(#"{"type":"header""#) == true)
        #expect(lines.last?.contains(#""ok":true"#) == true)
        files.removeAll()
    }
}
