#if canImport(Testing)
    import CogTraceFormat
    import Foundation
    import Synchronization

    /// Swift Testing's versioned event stream (ABI v0, JSON Lines), the documented way to learn
    /// a run's results: when the run writes one (`swift test --event-stream-output-path PATH
    /// --event-stream-version 0`, passed on to the test binary), recording takes each test's end
    /// and pass or fail from it rather than from the console, and any issue the console did not
    /// name. A thread of its own reads what the runner appends; what is left is read at exit,
    /// before the traces are written.
    nonisolated final class SwiftTestingEventStream: Sendable {
        private let path: String
        private let ambient: SwiftTestingAmbient
        /// How far the file has been read, and the bytes after the last newline.
        private let reading = Mutex<(offset: UInt64, partial: [UInt8])>((0, []))
        private let stopped = Atomic<Bool>(false)
        /// Held while lines are read and applied, so the last read at exit waits for lines the
        /// reading thread took but has not applied yet (under load it can take them all in one
        /// look just before the run ends, and be applying them as the process exits).
        private let applying = Mutex<Void>(())

        /// How often the reading thread looks for more (milliseconds).
        static let lookInterval = 20

        private init(path: String, ambient: SwiftTestingAmbient) {
            self.path = path
            self.ambient = ambient
        }

        /// The stream the run's arguments name, being read for `ambient`; nil when the run
        /// writes none, or one of another version.
        static func start(
            for ambient: SwiftTestingAmbient, arguments: [String] = CommandLine.arguments
        ) -> SwiftTestingEventStream? {
            guard let path = value(of: "--event-stream-output-path", in: arguments),
                (value(of: "--event-stream-version", in: arguments) ?? "0") == "0"
            else { return nil }
            let stream = SwiftTestingEventStream(path: path, ambient: ambient)
            let thread = Thread { [stream] in
                while !stream.stopped.load(ordering: .relaxed) {
                    stream.readAvailable()
                    usleep(UInt32(lookInterval * 1_000))
                }
            }
            thread.name = "CogTesting.event-stream"
            thread.start()
            return stream
        }

        private static func value(of option: String, in arguments: [String]) -> String? {
            if let index = arguments.firstIndex(of: option), index + 1 < arguments.count { return arguments[index + 1] }
            let prefix = option + "="
            return arguments.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
        }

        /// Reads what is left and stops the reading thread (at exit).
        func readToEnd() {
            stopped.store(true, ordering: .relaxed)
            readAvailable()
        }

        /// Reads the lines appended since the last look and applies each.
        func readAvailable() {
            applying.withLock { _ in readAndApply() }
        }

        private func readAndApply() {
            let lines = reading.withLock { reading -> [[UInt8]] in
                guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
                defer { try? handle.close() }
                let size = (try? handle.seekToEnd()) ?? 0
                // The runner empties the file when it opens it: start over.
                if size < reading.offset { reading = (0, []) }
                guard size > reading.offset else { return [] }
                try? handle.seek(toOffset: reading.offset)
                let data = (try? handle.read(upToCount: Int(size - reading.offset))) ?? Data()
                reading.offset += UInt64(data.count)
                reading.partial.append(contentsOf: data)
                guard let last = reading.partial.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
                let complete = reading.partial[..<last].split(separator: UInt8(ascii: "\n")).map(Array.init)
                reading.partial.removeSubrange(...last)
                return complete
            }
            var ended = false
            for line in lines { ended = ambient.apply(eventLine: line) || ended }
            if ended { Task { @MainActor in self.ambient.finishEnded() } }
        }
    }

    nonisolated extension SwiftTestingAmbient {
        /// Applies one line of the event stream: a recording test's issue, or its end. True when
        /// a test ended.
        func apply(eventLine line: [UInt8]) -> Bool {
            guard let record = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                record["kind"] as? String == "event", let payload = record["payload"] as? [String: Any],
                let kind = payload["kind"] as? String, let testID = payload["testID"] as? String
            else { return false }
            return state.withLock { state in
                guard let live = state.byID[testID] else { return false }
                switch kind {
                case "issueRecorded":
                    let issue = payload["issue"] as? [String: Any] ?? [:]
                    guard issue["isKnown"] as? Bool != true else { return false }
                    // The console, read as it is written, already noted it where it happened
                    // unless its line was not understood.
                    let seen = live.eventIssues.withLock { count in
                        count += 1
                        return count
                    }
                    guard live.test.reportedFailures < seen else { return false }
                    let texts = (payload["messages"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
                    let message = texts.joined(separator: ": ")
                    let location = issue["sourceLocation"] as? [String: Any]
                    let failureKind = Self.kind(of: message)
                    live.test.noteFailure(
                        kind: failureKind, message: message, file: location?["fileID"] as? String,
                        line: location?["line"] as? Int)
                    guard failureKind == .timeLimit else { return false }
                    state.end(live, failed: true, reason: "ran past its time limit")
                    return true
                case "testEnded":
                    state.end(live, failed: live.test.reportedFailures > 0, reason: nil)
                    return true
                default:
                    return false
                }
            }
        }
    }
#endif
