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
    /// The traces written to disk before the test ended, by recorder (`TestTraceGuard`).
    var checkpoints: [ObjectIdentifier: TraceCheckpoint] = [:]
    /// Whether `finish` has run: a test past its time limit is finished by a watchdog, and its
    /// end (if it comes) writes nothing more.
    var isFinished = false

    /// Where the capture says what it wrote or why it could not: standard error, unless a test
    /// of the capture itself listens instead.
    let report: @Sendable (String) -> Void

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
    /// The trace stays in memory while the test runs; `TestTraceGuard` writes it should the
    /// test never end (a crash, a stop, a kill, a stall).
    func record(_ cogs: Cogs, clock: any Clock<Duration>) {
        guard options.policy != .off else { return }
        let recorderClock: RecorderConfiguration.Clock = clock is ContinuousClock ? .monotonic : .virtual(clock)
        var configuration = RecorderConfiguration(
            title: testName, capacity: options.capacity, clock: recorderClock, redactedLabels: options.redactedLabels)
        configuration.testName = testName
        // On CI the trace says which commit, run and job it came from, for `export tables`.
        var metadata = Self.runMetadata
        if !metadata.isEmpty { metadata.test = testName }
        configuration.runMetadata = metadata.isEmpty ? nil : metadata
        let recorder = CogRecorder(configuration: configuration)
        recorder.attach(to: cogs)
        recorderList.withLock { $0.append(recorder) }
        TestTraceGuard.shared.watch(recorder, of: self)
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

    /// Ends the test's traces: written when it failed (or always, if the options say so),
    /// else nothing is left (a checkpoint written meanwhile is removed); prints where written
    /// ones went and how to open them, and returns their paths. Only the first call does
    /// anything; `reason` says why the test is being concluded when it is not its end (a time
    /// limit).
    @discardableResult
    public func finish(testFailed: Bool, reason: String? = nil) -> [URL] {
        guard !isFinished else { return [] }
        isFinished = true
        let keep = options.policy == .always || (testFailed && options.policy == .failures)
        let directory = URL(fileURLWithPath: options.directory, isDirectory: true)
        var written: [URL] = []
        for recorder in recorders {
            TestTraceGuard.shared.forget(recorder)
            let checkpoint = checkpoints.removeValue(forKey: ObjectIdentifier(recorder))
            checkpoint?.close()
            guard keep else {
                if let file = checkpoint?.file { try? FileManager.default.removeItem(at: file) }
                continue
            }
            let bytes = Array(recorder.traceText().utf8)
            do {
                if let file = checkpoint?.file {
                    try TraceFileName.replace(file, with: bytes)
                    written.append(file)
                } else {
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    written.append(try TraceFileName.write(bytes, in: directory, for: testName))
                }
            } catch {
                if let file = checkpoint?.file { try? FileManager.default.removeItem(at: file) }
                Self.reportUnwritableOnce(
                    directory: options.directory, reason: Self.reason(from: error), report: report)
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
    static func reportUnwritableOnce(
        directory: String, reason: String, report: @Sendable (String) -> Void
    ) {
        let first = unwritableReported.withLock { reported in reported.insert(directory).inserted }
        guard first else { return }
        report(
            "cog-trace: cannot write traces into '\(directory)': \(reason); failing tests leave no trace in this run")
    }

    nonisolated private static let unwritableReported = Locked<Set<String>>([])

    /// A file system error's reason, short: the POSIX description when there is one.
    static func reason(from error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
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

/// Holds the running test's capture for the task and its children.
nonisolated package enum CogTraceContext {
    @TaskLocal package static var capture: CogTraceCapture?
}
