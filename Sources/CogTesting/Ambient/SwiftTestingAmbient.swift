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
        static let shared = SwiftTestingAmbient(installsTap: true, report: CogTraceCapture.printToStandardError)

        /// Whether the first capture installs the console tap (only the shared registry does).
        private let installsTap: Bool
        /// Where the registry's own messages go.
        private let report: @Sendable (String) -> Void

        /// The runner's event stream being read, when the run writes one.
        let eventStream = Locked<SwiftTestingEventStream?>(nil)

        /// A registry; `installsTap` false for one a test feeds console lines by hand.
        init(installsTap: Bool, report: @escaping @Sendable (String) -> Void) {
            self.installsTap = installsTap
            self.report = report
        }

        /// A recording test the runner has not yet said has ended.
        final class Live: Sendable {
            /// Its id's description (module, type, function and place).
            let key: String
            let test: AmbientTest
            /// How the console names the test: its function name, or its display name in quotes.
            let consoleName: String
            let sourceFileName: String
            let sourceFileID: String
            let sourceLine: Int
            /// Issues the event stream reported for it so far.
            let eventIssues = Locked(0)

            init(key: String, test: AmbientTest, consoleName: String, source: SourceLocation) {
                self.key = key
                self.test = test
                self.consoleName = consoleName
                self.sourceFileName = source.fileName
                self.sourceFileID = source.fileID
                self.sourceLine = source.line
            }
        }

        struct State {
            /// Live tests by their id's description (module, type, function and place).
            var byID: [String: Live] = [:]
            /// Live tests by the name the console prints; two tests may share one.
            var byConsoleName: [String: [Live]] = [:]
            /// Tests whose end was read and whose traces wait for the MainActor.
            var ended: [(live: Live, failed: Bool, reason: String?)] = []
            /// Console bytes after the last newline.
            var partialLine: [UInt8] = []
            /// The test whose issue was the last line read, for the detail lines under it.
            var lastIssue: AmbientTest?
            var tapInstalled = false
            /// Whether a MainActor task to write ended tests' traces is already on its way.
            var finishScheduled = false
            /// Names the console prints across lines (a display name holding a line break), as
            /// printed and as read: the bytes are folded onto one line before lines are split.
            var foldedNames: [(printed: [UInt8], folded: [UInt8])] = []
            /// Whether results come from the runner's event stream (`SwiftTestingEventStream`);
            /// the console is then not read for them.
            var readsEventStream = false
            /// How many test ends the console has been read to say.
            var endsRead = 0
            /// With the event stream read for results, the ends the console said, by the name it
            /// prints (pass or fail, in order): at exit, a test whose end the stream has not
            /// delivered yet (the runner may still hold the stream's last events in a buffer it
            /// writes out only as the process ends) takes its end from here.
            var consoleEnds: [String: [Bool]] = [:]

            mutating func end(_ live: Live, failed: Bool, reason: String?) {
                endsRead += 1
                ended.append((live, failed, reason))
                byConsoleName[live.consoleName]?.removeAll { $0 === live }
                if byConsoleName[live.consoleName]?.isEmpty == true { byConsoleName[live.consoleName] = nil }
                byID[live.key] = nil
            }
        }

        let state = Locked(State())

        /// The capture of `test`, made when the test first asks.
        @MainActor func capture(for test: Test, options: CogTraceOptions) -> CogTraceCapture {
            // A test's id is computed from its type's name each time it is asked for: once here.
            let id = test.id
            let key = String(describing: id)
            let made = state.withLock { state -> (CogTraceCapture, installTap: Bool) in
                if let live = state.byID[key] { return (live.test.capture, false) }
                let name = id.nameComponents.map { $0.hasSuffix("()") ? String($0.dropLast(2)) : $0 }
                    .joined(separator: ".")
                let capture = CogTraceCapture(testName: name, options: options)
                let printed = test.displayName.map { "\"\($0)\"" } ?? test.name
                let folded = Self.folded(printed)
                if folded != printed { state.foldedNames.append((Array(printed.utf8), Array(folded.utf8))) }
                let live = Live(
                    key: key, test: AmbientTest(capture: capture),
                    consoleName: SwiftTestingConsoleLine.stripEscapes(folded), source: test.sourceLocation)
                state.byID[key] = live
                state.byConsoleName[live.consoleName, default: []].append(live)
                defer { state.tapInstalled = true }
                return (capture, !state.tapInstalled)
            }
            if made.installTap, installsTap {
                // The event stream, when the run writes one, says how each test ended; the console
                // is still read for where each issue happened, since it is read as it is written.
                if let stream = SwiftTestingEventStream.start(for: self) {
                    state.withLock { $0.readsEventStream = true }
                    eventStream.withLock { $0 = stream }
                }
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
        /// `stderr` (the stream's lock is held). Most lines are about tests that do not record,
        /// or are not about a test at all, and are passed over before any parsing.
        func consume(_ bytes: UnsafeBufferPointer<UInt8>) {
            var ended = false
            state.withLock { state in
                state.partialLine.append(contentsOf: bytes)
                for (printed, folded) in state.foldedNames {
                    state.partialLine = Self.replacing(printed, with: folded, in: state.partialLine)
                }
                guard let lastNewline = state.partialLine.lastIndex(of: UInt8(ascii: "\n")) else { return }
                defer { state.partialLine.removeSubrange(...lastNewline) }
                guard !state.byID.isEmpty else { return }
                let lines = state.partialLine[..<lastNewline].split(separator: UInt8(ascii: "\n"))
                for line in lines {
                    guard Self.mayConcernATest(line) else {
                        state.lastIssue = nil
                        continue
                    }
                    let named = state.byConsoleName
                    let event = SwiftTestingConsoleLine.parse(String(decoding: line, as: UTF8.self)) { name in
                        named[String(name)] != nil
                    }
                    ended = read(event, into: &state) || ended
                }
                if ended {
                    ended = !state.finishScheduled
                    state.finishScheduled = true
                }
            }
            if ended { Task { @MainActor in self.finishEnded() } }
        }

        /// `name` with its line breaks shown as `⏎`, so a line that prints it stays one line.
        static func folded(_ name: String) -> String {
            String(name.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? "⏎" : Character($0) })
        }

        /// `bytes` with every occurrence of `pattern` replaced by `replacement`.
        static func replacing(_ pattern: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8] {
            guard !pattern.isEmpty, bytes.count >= pattern.count else { return bytes }
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                if bytes[index] == pattern[0], bytes[index...].starts(with: pattern) {
                    result.append(contentsOf: replacement)
                    index += pattern.count
                } else {
                    result.append(bytes[index])
                    index += 1
                }
            }
            return result
        }

        /// Whether a line holds `Test ` (an issue or an end) or `↳` (a detail under an issue).
        private static func mayConcernATest(_ line: ArraySlice<UInt8>) -> Bool {
            let test = Array("Test ".utf8)
            let arrow = Array("↳".utf8)
            var index = line.startIndex
            while index + arrow.count <= line.endIndex {
                if line[index] == test[0], line[index...].starts(with: test) { return true }
                if line[index] == arrow[0], line[index...].starts(with: arrow) { return true }
                index += 1
            }
            return false
        }

        /// Applies one parsed line; true when a test ended.
        private func read(_ event: SwiftTestingConsoleLine?, into state: inout State) -> Bool {
            guard let event else {
                state.lastIssue = nil
                return false
            }
            switch event {
            case .detail(let text):
                if let test = state.lastIssue, !test.appendToLastFailure(text) { state.lastIssue = nil }
                return false
            case .issue(let name, let file, let line, let message):
                state.lastIssue = nil
                guard let live = Self.pick(issueOf: file, line: line, among: state.byConsoleName[name] ?? []) else {
                    return false
                }
                let kind = Self.kind(of: message)
                // The console names the file only; the test's own file gives it its module.
                let fileID = file == live.sourceFileName ? live.sourceFileID : file
                live.test.noteFailure(kind: kind, message: message, file: fileID, line: line)
                state.lastIssue = live.test
                guard kind == .timeLimit else { return false }
                // The runner waits for a test past its limit to end, which a stuck test never
                // does: its traces are written now.
                state.end(live, failed: true, reason: "ran past its time limit")
                return true
            case .ended(let name, let failed):
                state.lastIssue = nil
                guard !state.readsEventStream else {
                    state.consoleEnds[name, default: []].append(failed)
                    return false
                }
                let named = state.byConsoleName[name] ?? []
                guard let live = named.first(where: { ($0.test.reportedFailures > 0) == failed }) ?? named.first
                else { return false }
                state.end(live, failed: failed, reason: nil)
                return true
            }
        }

        /// Writes the traces of every test that ended.
        @MainActor func finishEnded() {
            let ended = state.withLock { state in
                defer {
                    state.ended.removeAll()
                    state.finishScheduled = false
                }
                return state.ended
            }
            for (live, failed, reason) in ended { live.test.finish(failed: failed, reason: reason) }
        }

        /// Ends the tests the console never said had ended (at exit): their traces are kept, since
        /// nothing says they passed, and one line says why. When no end was read at all, the
        /// runner's wording is not what the tap knows (a newer toolchain): then every trace is
        /// kept rather than a failing test's lost quietly. Returns how many were ended.
        @MainActor @discardableResult func finishUnended() -> Int {
            let (unended, anyEndRead, fromConsole) = state.withLock { state in
                defer {
                    state.byID.removeAll()
                    state.byConsoleName.removeAll()
                    state.consoleEnds.removeAll()
                }
                var unended: [Live] = []
                var fromConsole: [(Live, Bool)] = []
                for live in state.byID.values.sorted(by: { $0.key < $1.key }) {
                    if var ends = state.consoleEnds[live.consoleName], !ends.isEmpty {
                        let failed = ends.removeFirst()
                        state.consoleEnds[live.consoleName] = ends
                        fromConsole.append((live, failed))
                    } else {
                        unended.append(live)
                    }
                }
                return (unended, state.endsRead > 0 || !fromConsole.isEmpty, fromConsole)
            }
            for (live, failed) in fromConsole { live.test.finish(failed: failed, reason: nil) }
            guard !unended.isEmpty else { return fromConsole.count }
            if anyEndRead {
                let names = unended.map { "'\($0.test.capture.testName)'" }.joined(separator: ", ")
                report(
                    "cog-trace: could not tell how \(names) ended; keeping \(unended.count == 1 ? "its trace" : "their traces")"
                )
            } else {
                report("cog-trace: could not tell which tests failed; keeping every trace")
            }
            for live in unended { live.test.finish(failed: true, reason: "ended without the runner saying how") }
            return fromConsole.count + unended.count
        }

        /// The live test an issue line names, among those the console names alike: the one whose
        /// source file holds the issue, declared closest above it.
        private static func pick(issueOf file: String?, line: Int?, among named: [Live]) -> Live? {
            guard named.count > 1, let file, let line else { return named.first }
            let above = named.filter { $0.sourceFileName == file && $0.sourceLine <= line }
            return above.max { $0.sourceLine < $1.sourceLine } ?? named.first
        }

        static func kind(of message: String) -> TraceFailure.Kind {
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
        SwiftTestingAmbient.shared.eventStream.withLock { $0 }?.readToEnd()
        if Thread.isMainThread {
            MainActor.assumeIsolated {
                SwiftTestingAmbient.shared.finishEnded()
                SwiftTestingAmbient.shared.finishUnended()
            }
            return
        }
        let written = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                SwiftTestingAmbient.shared.finishEnded()
                SwiftTestingAmbient.shared.finishUnended()
            }
            written.signal()
        }
        _ = written.wait(timeout: .now() + .seconds(30))
    }
#endif
