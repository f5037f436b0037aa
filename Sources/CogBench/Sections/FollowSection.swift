import CogTraceFixtures
import Foundation
import Synchronization

/// `coginspect --follow` keeping up with a fast writer: a synthetic Weather trace is written at
/// `rate` turns a second (a write every few milliseconds, as a streaming recorder flushes), while
/// the real `coginspect` follows it with `watch weather.currentZip`, which changes every third
/// turn. The lag of a watch line is the time from its turn reaching the file to the line
/// reaching this process through the pipe.
enum FollowSection {
    static func run(seconds: Int, rate: Int) throws -> [Measurement] {
        let inspector = try ProcessRun.inspector(for: "follow")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cog-bench-follow-\(getpid()).cogtrace")
        defer { try? FileManager.default.removeItem(at: url) }
        var trace = SyntheticWeatherTrace(turns: seconds * rate)
        var lines = ""
        trace.writeOpening(to: &lines)
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(lines.utf8))
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        try file.seekToEnd()

        let process = Process()
        process.executableURL = inspector
        process.arguments = ["--follow", url.path, "-c", "watch weather.currentZip"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let seen = Mutex<[(turn: Int, at: ContinuousClock.Instant)]>([])
        let reader = Thread {
            var pending = Data()
            while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
                let now = ContinuousClock.now
                pending += chunk
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = pending[(newline + 1)...]
                    guard line.hasPrefix("turn "), let turn = Int(line.dropFirst(5).prefix { $0.isNumber }) else {
                        continue
                    }
                    seen.withLock { $0.append((turn, now)) }
                }
            }
        }
        reader.start()

        // Written in slices of 5 ms; each slice's turns reach the file in one write, and that
        // write's time is theirs.
        var written: [ContinuousClock.Instant] = [.now]  // by turn; index 0 unused
        let start = ContinuousClock.now
        let total = seconds * rate
        while written.count <= total {
            let due = min(total, Int(Double(rate) * (ContinuousClock.now - start).milliseconds / 1_000))
            if due >= written.count {
                lines.removeAll(keepingCapacity: true)
                for sequence in written.count...due { trace.writeTurn(sequence, to: &lines) }
                try file.write(contentsOf: Data(lines.utf8))
                let now = ContinuousClock.now
                written += Array(repeating: now, count: due - written.count + 1)
            }
            usleep(5_000)
        }
        let writing = ContinuousClock.now - start
        lines.removeAll()
        trace.writeTrailer(to: &lines)
        try file.write(contentsOf: Data(lines.utf8))
        process.waitUntilExit()
        while reader.isExecuting || !reader.isFinished { usleep(10_000) }

        let watchLines = seen.withLock { $0 }
        var lags: [Double] = []
        for line in watchLines where line.turn < written.count {
            let lag: Duration = line.at - written[line.turn]
            lags.append(lag.milliseconds)
        }
        guard !lags.isEmpty else { throw BenchFailure("coginspect --follow printed no watch line") }
        let expected = total / 3
        var measurement = Measurement(section: "follow", name: "watch lag", variant: "\(rate) turns/s", samples: lags)
        measurement.p99 = lags.sorted()[lags.count * 99 / 100]
        print(
            "follow (\(total) turns written at \(rate)/s over \(String(format: "%.1f", writing.milliseconds / 1_000)) s)"
        )
        print(
            table(
                ["watch lines", "expected", "median lag ms", "p99 lag ms", "max lag ms"],
                [
                    [
                        "\(watchLines.count)", "\(expected)", String(format: "%.1f", measurement.median),
                        String(format: "%.1f", measurement.p99), String(format: "%.1f", measurement.max),
                    ]
                ]))
        print(
            "exit status \(process.terminationStatus); kept up: \(measurement.max < 1_000 ? "yes" : "no") (max lag under 1 s)\n"
        )
        return [measurement]
    }
}
