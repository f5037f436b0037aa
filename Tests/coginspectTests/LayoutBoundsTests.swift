import Foundation
import Testing

/// Graphviz's layout is bounded: a `dot` that never finishes is stopped at the time limit and the
/// page is laid out by the built-in layout, with a note; Ctrl-C, SIGTERM or the inspector's own
/// death during the layout leave no `dot` running, and an interrupted export writes no file. A
/// stand-in `dot` on the PATH (a shell script that records its pid and sleeps) plays Graphviz.
@Suite("Bounded layout", .serialized, .timeLimit(.minutes(5)))
struct LayoutBoundsTests {
    private let folder: URL
    private let page: URL
    private let pidFile: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("layout-bounds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        page = folder.appendingPathComponent("viewer.html")
        pidFile = folder.appendingPathComponent("dot.pid")
        let dot = folder.appendingPathComponent("dot")
        try "#!/bin/sh\necho $$ > '\(pidFile.path)'\nexec sleep 1000\n".write(
            to: dot, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dot.path)
    }

    private var environment: [String: String] {
        ["PATH": folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }

    /// The stand-in's pid, once it has written it.
    private var dotPID: Int32? {
        guard let text = try? String(contentsOf: pidFile, encoding: .utf8), text.hasSuffix("\n") else { return nil }
        return Int32(text.dropLast())
    }

    /// Whether process `pid` has ended: gone, or a zombie nobody reaped yet.
    private static func hasEnded(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        let state = stat.split(separator: ")").last?.split(separator: " ").first
        return state == "Z" || state == "X"
    }

    /// Polls `condition` every 20 ms for up to `seconds`.
    private static func wait(seconds: Double, for condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    @Test func aLayoutPastItsLimitFallsBackWithANote() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try Executables.coginspect(
            ["Recordings/tour.cogtrace", "-c", "export html --layout-seconds 1 --to \(page.path)"],
            environment: environment)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(
            outcome.standardOutput.contains("Graphviz's dot did not finish within 1 s"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("(laid out by layered)"), "\(outcome.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: page.path))
        if let pid = dotPID { #expect(Self.hasEnded(pid), "dot \(pid) outlived its time limit") }
    }

    @Test func theLayoutLimitIsChecked() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        for bad in ["0", "-1", "soon", "nan"] {
            let outcome = try Executables.coginspect(
                ["Recordings/tour.cogtrace", "-c", "export html --layout-seconds \(bad) --to \(page.path)"])
            #expect(outcome.status != 0)
            #expect(outcome.standardError.contains("--layout-seconds takes a number of seconds above 0"))
            #expect(outcome.standardError.contains("'\(bad)'"))
        }
        #expect(!FileManager.default.fileExists(atPath: page.path))
    }

    /// Ctrl-C and SIGTERM during the layout: exit 130, no page, and no `dot` left.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalDuringTheLayoutEndsEverything(_ signal: Int32) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try start()
        #expect(Self.wait(seconds: 60) { dotPID != nil }, "the stand-in dot never started")
        kill(run.processIdentifier, signal)
        run.waitUntilExit()
        #expect(run.terminationReason == .exit && run.terminationStatus == 130)
        #expect(!FileManager.default.fileExists(atPath: page.path), "an interrupted export wrote its page")
        let pid = try #require(dotPID)
        #expect(Self.hasEnded(pid), "dot \(pid) outlived coginspect")
    }

    /// Killed outright (no handler runs), the inspector still takes `dot` with it: the kernel
    /// ends a child whose parent dies.
    @Test func dotDiesWithTheInspector() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try start()
        #expect(Self.wait(seconds: 60) { dotPID != nil }, "the stand-in dot never started")
        kill(run.processIdentifier, SIGKILL)
        run.waitUntilExit()
        let pid = try #require(dotPID)
        #expect(Self.wait(seconds: 30) { Self.hasEnded(pid) }, "dot \(pid) outlived coginspect")
    }

    private func start() throws -> Process {
        let process = Process()
        process.executableURL = Executables.productsDirectory.appendingPathComponent("coginspect")
        process.arguments = ["Recordings/tour.cogtrace", "-c", "export html --to \(page.path)"]
        process.currentDirectoryURL = Executables.packageRoot
        var inherited = ProcessInfo.processInfo.environment
        inherited.merge(environment) { $1 }
        process.environment = inherited
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }
}
