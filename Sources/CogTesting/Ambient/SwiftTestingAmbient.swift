#if canImport(Testing)
    import CCogTestingHooks
    import CogTestSupport
    import CogTraceFormat
    import Foundation
    import Testing

    /// The Swift Testing tests recorded because `COG_TRACE` asked for the whole suite. A test
    /// joins when it first calls `Cogs.forTesting`; it learns of its failures and its end from
    /// the runner's console, read through a tap on C `stderr` (see `SwiftTestingConsoleLine`),
    /// and its traces are written on the MainActor when the runner prints its end, or, at the
    /// latest, as the process exits.
    nonisolated final class SwiftTestingAmbient: Sendable {
        /// The one registry: the console tap is process-wide.
        static let shared = SwiftTestingAmbient()

        private struct Live {
            let test: AmbientTest
            /// How the console names the test: its function name, or its display name in quotes.
            let consoleName: String
            let sourceFileName: String
            let sourceFileID: String
            let sourceLine: Int
            var end: (failed: Bool, reason: String?)?
        }

        private struct State {
            var live: [Test.ID: Live] = [:]
            /// Console bytes after the last newline.
            var partialLine: [UInt8] = []
            /// The test whose issue was the last line read, for the detail lines under it.
            var lastIssue: AmbientTest?
            var tapInstalled = false
        }

        private let state = Locked(State())

        /// The capture of `test`, made when the test first asks.
        @MainActor func capture(for test: Test, options: CogTraceOptions) -> CogTraceCapture {
            let made = state.withLock { state -> (CogTraceCapture, installTap: Bool) in
                if let live = state.live[test.id], live.end == nil { return (live.test.capture, false) }
                let name = test.id.nameComponents.map { $0.hasSuffix("()") ? String($0.dropLast(2)) : $0 }
                    .joined(separator: ".")
                let capture = CogTraceCapture(testName: name, options: options)
                state.live[test.id] = Live(
                    test: AmbientTest(capture: capture),
                    consoleName: test.displayName.map { "\"\($0)\"" } ?? test.name,
                    sourceFileName: test.sourceLocation.fileName, sourceFileID: test.sourceLocation.fileID,
                    sourceLine: test.sourceLocation.line)
                defer { state.tapInstalled = true }
                return (capture, !state.tapInstalled)
            }
            if made.installTap {
                if cog_console_tap_install(readConsole) {
                    atexit(finishAtExit)
                } else {
                    CogTraceCapture.printToStandardError(
                        "cog-trace: could not read Swift Testing's console; failing tests will not be recorded")
                }
            }
            return made.0
        }

        /// Reads console bytes as the runner writes them: never blocks and never writes to
        /// `stderr` (the stream's lock is held).
        func consume(_ bytes: UnsafeBufferPointer<UInt8>) {
            var ended = false
            state.withLock { state in
                state.partialLine.append(contentsOf: bytes)
                guard let lastNewline = state.partialLine.lastIndex(of: UInt8(ascii: "\n")) else { return }
                let complete = state.partialLine[..<lastNewline]
                let text = String(decoding: complete, as: UTF8.self)
                state.partialLine.removeSubrange(...lastNewline)
                guard !state.live.isEmpty else { return }
                for line in text.split(separator: "\n") { ended = read(line, into: &state) || ended }
            }
            if ended { Task { @MainActor in self.finishEnded() } }
        }

        /// Applies one line; true when a test ended.
        private func read(_ line: Substring, into state: inout State) -> Bool {
            let names = state.live.values.filter { $0.end == nil }.map(\.consoleName)
            guard let event = SwiftTestingConsoleLine.parse(line, testNames: names) else {
                state.lastIssue = nil
                return false
            }
            switch event {
            case .detail(let text):
                if let test = state.lastIssue, !test.appendToLastFailure(text) { state.lastIssue = nil }
                return false
            case .issue(let name, let file, let line, let message):
                state.lastIssue = nil
                guard let id = Self.pick(issueOf: name, file: file, line: line, among: state.live) else { return false }
                let live = state.live[id]!
                let kind = Self.kind(of: message)
                // The console names the file only; the test's own file gives it its module.
                let fileID = file == live.sourceFileName ? live.sourceFileID : file
                live.test.noteFailure(kind: kind, message: message, file: fileID, line: line)
                state.lastIssue = live.test
                guard kind == .timeLimit else { return false }
                // The runner waits for a test past its limit to end, which a stuck test never
                // does: its traces are written now.
                state.live[id]?.end = (true, "ran past its time limit")
                return true
            case .ended(let name, let failed):
                state.lastIssue = nil
                guard let id = Self.pick(endOf: name, failed: failed, among: state.live) else { return false }
                state.live[id]?.end = (failed, nil)
                return true
            }
        }

        /// Writes the traces of every test that ended.
        @MainActor func finishEnded() {
            let ended = state.withLock { state -> [(AmbientTest, Bool, String?)] in
                let done = state.live.filter { $0.value.end != nil }
                for id in done.keys { state.live[id] = nil }
                return done.values.map { ($0.test, $0.end!.failed, $0.end!.reason) }
            }
            for (test, failed, reason) in ended { test.finish(failed: failed, reason: reason) }
        }

        /// The live test an issue line names; when two share a console name, the one whose
        /// source file holds the issue, declared closest above it.
        private static func pick(
            issueOf name: String, file: String?, line: Int?, among live: [Test.ID: Live]
        )
            -> Test.ID?
        {
            let named = live.filter { $0.value.consoleName == name && $0.value.end == nil }
            guard named.count > 1, let file, let line else { return named.first?.key }
            let above = named.filter { $0.value.sourceFileName == file && $0.value.sourceLine <= line }
            return above.max { $0.value.sourceLine < $1.value.sourceLine }?.key ?? named.first?.key
        }

        /// The live test an end line names; when two share a console name, a failed end goes to
        /// one with failures and a passing end to one without.
        private static func pick(endOf name: String, failed: Bool, among live: [Test.ID: Live]) -> Test.ID? {
            let named = live.filter { $0.value.consoleName == name && $0.value.end == nil }
            let fitting = named.first { ($0.value.test.reportedFailures > 0) == failed }
            return fitting?.key ?? named.first?.key
        }

        private static func kind(of message: String) -> TraceFailure.Kind {
            if message.hasPrefix("Expectation failed") { return .expectation }
            if message.hasPrefix("Caught error") { return .error }
            if message.hasPrefix("Time limit was exceeded") { return .timeLimit }
            return .issue
        }
    }

    /// The console tap's callback: hands the bytes to the registry.
    private let readConsole: cog_console_tap_callback = { bytes, count in
        guard let bytes, count > 0 else { return }
        bytes.withMemoryRebound(to: UInt8.self, capacity: count) { start in
            SwiftTestingAmbient.shared.consume(UnsafeBufferPointer(start: start, count: count))
        }
    }

    /// At exit, the traces of tests whose end the runner printed last are written before the
    /// process goes. Swift Testing exits from a thread of its own while the main thread still
    /// runs the MainActor, so the exiting thread asks the main thread to write them and waits,
    /// bounded so a main thread that never answers cannot hold the exit.
    private let finishAtExit: @convention(c) () -> Void = {
        if Thread.isMainThread {
            MainActor.assumeIsolated { SwiftTestingAmbient.shared.finishEnded() }
            return
        }
        let written = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            MainActor.assumeIsolated { SwiftTestingAmbient.shared.finishEnded() }
            written.signal()
        }
        _ = written.wait(timeout: .now() + .seconds(30))
    }
#endif
