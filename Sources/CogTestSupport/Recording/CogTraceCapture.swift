import Cog
public import CogTrace
public import Foundation

/// The recording of one test: every runtime the test makes with `Cogs.forTesting` gets a
/// recorder, and when the test ends its traces are written if the options say so. The
/// `.cogTrace` trait and `CogTraceTestCase` set one up around each test; code under test never
/// sees it.
public final class CogTraceCapture {
    /// The capture of the test running in this task, if it records.
    nonisolated public static var current: CogTraceCapture? { CogTraceContext.capture }

    /// The options in force, the environment already laid over them.
    public let options: CogTraceOptions
    /// The test's name, which names its files.
    public let testName: String
    /// One recorder per runtime the test made, behind a lock so `turnsEndedNow()` can read them
    /// from any thread.
    private let recorderList = Locked<[CogRecorder]>([])
    nonisolated private var recorders: [CogRecorder] { recorderList.withLock { $0 } }
    /// The traces being streamed to their files, one per recorder that could start one.
    private var streamedFiles: [StreamedFile] = []
    /// Whether `finish` has run: a test past its time limit is finished by a watchdog, and its
    /// end (if it comes) writes nothing more.
    private var isFinished = false

    /// Where the capture says what it wrote or why it could not: standard error, unless a test
    /// of the capture itself listens instead.
    private let report: @Sendable (String) -> Void

    /// A capture for the test named `testName`.
    public convenience init(testName: String, options: CogTraceOptions) {
        self.init(testName: testName, options: options, report: Self.printToStandardError)
    }

    /// A capture that gives its messages to `report` instead of printing them.
    package init(testName: String, options: CogTraceOptions, report: @escaping @Sendable (String) -> Void) {
        self.testName = testName
        self.options = options
        self.report = report
    }

    /// Prints a message of the capture on standard error, where a test runner shows it.
    nonisolated package static let printToStandardError: @Sendable (String) -> Void = { message in
        RuntimeStandardError.write(message + "\n")
    }

    /// What the environment says about the CI run, read once: the environment does not change
    /// while tests run, and a suite recorded by `COG_TRACE` makes a recorder for every test.
    nonisolated private static let runMetadata = TraceRunMetadata.from(environment: ProcessInfo.processInfo.environment)

    /// Attaches a recorder to `cogs`; `Cogs.forTesting` calls this before it starts mechanisms.
    /// The trace is streamed to its file from the start, each turn written as it ends, so a test
    /// that crashes or is killed leaves it (`TestTraceGuard` closes it with how the test ended).
    func record(_ cogs: Cogs, clock: any Clock<Duration>) {
        guard options.policy != .off else { return }
        let recorderClock: RecorderConfiguration.Clock = clock is ContinuousClock ? .monotonic : .virtual(clock)
        var configuration = RecorderConfiguration(
            title: testName, capacity: options.capacity, clock: recorderClock, redactedLabels: options.redactedLabels,
            streamWriting: Self.streamMode == "background" ? .background : .immediate)
        configuration.testName = testName
        // On CI the trace says which commit, run and job it came from, for `export tables`.
        var metadata = Self.runMetadata
        if !metadata.isEmpty { metadata.test = testName }
        configuration.runMetadata = metadata.isEmpty ? nil : metadata
        let recorder = CogRecorder(configuration: configuration)
        recorder.attach(to: cogs)
        let streamed = Self.streamMode == "off" ? nil : startStreaming(recorder)
        recorderList.withLock { $0.append(recorder) }
        if let streamed { streamedFiles.append(streamed) }
    }

    nonisolated static let streamMode = ProcessInfo.processInfo.environment["COG_TRACE_STREAM"] ?? "immediate"

    /// Starts streaming `recorder` to a new file for this test, registered with the guard;
    /// nil when the directory cannot take it (the recorder keeps its ring, and the one line
    /// that says so is printed once per process).
    private func startStreaming(_ recorder: CogRecorder) -> StreamedFile? {
        let directory = URL(fileURLWithPath: options.directory, isDirectory: true)
        let file: URL
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            file = try TraceFileName.reserve(in: directory, for: testName)
        } catch {
            Self.reportUnwritableOnce(directory: options.directory, reason: Self.reason(error), report: report)
            return nil
        }
        recorder.reportsFaults = false
        let pendingWork = recorder.trackPendingWork()
        var entry: TestTraceGuard.Entry?
        do {
            let descriptor = try recorder.startStreaming(to: file) { turn in entry?.turnWritten(turn) }
            entry = descriptor.flatMap {
                TestTraceGuard.shared.register(descriptor: $0, test: testName, pendingWork: pendingWork)
            }
        } catch {
            try? FileManager.default.removeItem(at: file)
            Self.reportUnwritableOnce(directory: options.directory, reason: error.reason, report: report)
            return nil
        }
        return StreamedFile(recorder: recorder, file: file, guardEntry: entry)
    }

    /// Notes a failure the test reported, in every runtime's trace, after the turn that ended
    /// last: where the inspector opens the trace.
    /// - Parameter positions: where each trace stood when the failure happened (from
    ///   `turnsEndedNow()`), when that was not now.
    public func noteFailure(
        kind: TraceFailure.Kind, message: String, file: String? = nil, line: Int? = nil, after positions: [Int]? = nil
    ) {
        for (index, recorder) in recorders.enumerated() {
            let after = positions.flatMap { index < $0.count ? $0[index] : nil }
            recorder.noteFailure(test: testName, kind: kind, message: message, file: file, line: line, after: after)
        }
    }

    /// The last turn each recorded runtime has ended, in recorder order: safe from any thread,
    /// so a test framework's issue handler can say where a failure happened.
    nonisolated public func turnsEndedNow() -> [Int] {
        recorders.map(\.lastEndedTurnNow)
    }

    /// How many runtimes this test recorded.
    public var recordedRuntimeCount: Int { recorders.count }

    /// Ends the test's traces: kept when it failed (or always, if the options say so), removed
    /// otherwise; prints where kept ones went and how to open them, and returns their paths.
    /// Only the first call does anything; `reason` says why the test is being concluded when it
    /// is not its end (a time limit).
    @discardableResult
    public func finish(testFailed: Bool, reason: String? = nil) -> [URL] {
        guard !isFinished else { return [] }
        isFinished = true
        let keep = options.policy == .always || (testFailed && options.policy == .failures)
        var written: [URL] = []
        for streamed in streamedFiles {
            if let entry = streamed.guardEntry { TestTraceGuard.shared.unregister(entry) }
            streamed.recorder.finishStreaming()
            // A test that ended is written as its ring, as it was before streaming: the streamed
            // form (with the writing process in its header) is for a test that never ends.
            if keep, streamed.recorder.faults.isEmpty,
                (try? TraceFileName.replace(streamed.file, with: Array(streamed.recorder.traceText().utf8))) != nil
            {
                written.append(streamed.file)
            } else {
                try? FileManager.default.removeItem(at: streamed.file)
                if keep {
                    let reason = streamed.recorder.faults.first?.reason ?? String(cString: strerror(ENOSPC))
                    Self.reportUnwritableOnce(directory: options.directory, reason: reason, report: report)
                }
            }
        }
        let streamedRecorders = Set(streamedFiles.map { ObjectIdentifier($0.recorder) })
        let unstreamed = recorders.filter { !streamedRecorders.contains(ObjectIdentifier($0)) }
        if keep, !unstreamed.isEmpty {
            let directory = URL(fileURLWithPath: options.directory, isDirectory: true)
            for recorder in unstreamed {
                do {
                    written.append(try TraceFileName.write(Array(recorder.traceText().utf8), in: directory, for: testName))
                } catch {
                    Self.reportUnwritableOnce(directory: options.directory, reason: Self.reason(error), report: report)
                }
            }
        }
        for file in written {
            let why = reason ?? (testFailed ? "failed" : "ran")
            report(
                "cog-trace: '\(testName)' \(why); its graph is in \(file.relativePath)\n"
                    + "  open it with: swift run coginspect \(file.relativePath)")
        }
        return written
    }

    /// Says once per process that traces cannot be written into `directory`, and why: a full
    /// disk fails every test's trace alike, and one line says so.
    private static func reportUnwritableOnce(
        directory: String, reason: String, report: @Sendable (String) -> Void
    ) {
        let first = unwritableReported.withLock { reported in reported.insert(directory).inserted }
        guard first else { return }
        report("cog-trace: cannot write traces into '\(directory)': \(reason); failing tests leave no trace in this run")
    }

    nonisolated private static let unwritableReported = Locked<Set<String>>([])

    /// A file system error's reason, short: the POSIX description when there is one.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileWriteOutOfSpaceError {
            return String(cString: strerror(ENOSPC))
        }
        return nsError.localizedDescription
    }

    /// The traces as bytes, for a runner's attachments.
    package var traces: [(name: String, bytes: [UInt8])] {
        recorders.enumerated().map { index, recorder in
            ("\(testName)\(index == 0 ? "" : "-\(index + 1)").cogtrace", Array(recorder.traceText().utf8))
        }
    }
}

/// A recorder streaming a test's trace to `file`, watched by the guard when it could take it.
struct StreamedFile {
    let recorder: CogRecorder
    let file: URL
    let guardEntry: TestTraceGuard.Entry?
}

/// Holds the running test's capture for the task and its children.
nonisolated package enum CogTraceContext {
    @TaskLocal package static var capture: CogTraceCapture?
}
