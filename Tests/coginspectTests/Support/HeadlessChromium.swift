import Foundation

/// Headless Chromium driven over the DevTools protocol through a pipe
/// (`--remote-debugging-pipe`: JSON messages ended by a NUL byte, commands on the browser's
/// descriptor 3, answers and events on 4), so a test loads a page, evaluates script in it,
/// presses real keys and takes screenshots with no network port and no library.
final class HeadlessChromium {
    /// Why the browser did not do what was asked.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The installed Chromium, if any.
    static let executable: URL? = ["chromium", "chromium-browser", "google-chrome"].lazy.compactMap(Executables.onPath)
        .first

    private let process: pid_t
    private let commands: FileHandle
    private let answers: FileHandle
    private let profile: URL
    private var nextID = 0
    private var buffered = Data()
    private var session: String?

    /// Starts the browser with a window of `width` × `height` and attaches to its page.
    init(width: Int = 1500, height: Int = 950) throws {
        guard let executable = Self.executable else { throw Failure(description: "no chromium on the PATH") }
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        // The browser makes its singleton's folder under TMPDIR and, killed, leaves it there:
        // under the profile, it goes with the profile.
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let toBrowser = Pipe()
        let fromBrowser = Pipe()
        let arguments = [
            executable.path, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
            "--no-first-run", "--hide-scrollbars", "--user-data-dir=\(profile.path)",
            "--window-size=\(width),\(height)",
            "about:blank",
        ]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toBrowser.fileHandleForReading.fileDescriptor, 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser.fileHandleForWriting.fileDescriptor, 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let environment =
            ProcessInfo.processInfo.environment.filter { $0.key != "TMPDIR" }
            .map { "\($0.key)=\($0.value)" } + ["TMPDIR=\(profile.path)"]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for variable in envp { free(variable) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        guard status == 0 else {
            try? FileManager.default.removeItem(at: profile)
            throw Failure(description: "chromium did not start: \(String(cString: strerror(status)))")
        }
        process = pid
        commands = toBrowser.fileHandleForWriting
        answers = fromBrowser.fileHandleForReading
        try? toBrowser.fileHandleForReading.close()
        try? fromBrowser.fileHandleForWriting.close()
        session = try attachToPage()
    }

    deinit {
        kill(process, SIGKILL)
        var status: Int32 = 0
        waitpid(process, &status, 0)
        try? FileManager.default.removeItem(at: profile)
    }

    /// Sends `method` with `parameters` (to the page unless `toBrowser`) and waits for its answer.
    @discardableResult
    func send(_ method: String, _ parameters: [String: Any] = [:], toBrowser: Bool = false) throws -> [String: Any] {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": parameters]
        if !toBrowser, let session { message["sessionId"] = session }
        commands.write(try JSONSerialization.data(withJSONObject: message) + Data([0]))
        while true {
            let answer = try readMessage()
            guard answer["id"] as? Int == nextID else { continue }  // an event, or an older answer
            if let error = answer["error"] as? [String: Any] {
                throw Failure(description: "\(method) failed: \(error["message"] ?? error)")
            }
            return answer["result"] as? [String: Any] ?? [:]
        }
    }

    /// Evaluates `expression` in the page (awaiting it when it is a promise); its value.
    func evaluate(_ expression: String) throws -> Any? {
        let result = try send(
            "Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let exception = result["exceptionDetails"] as? [String: Any] {
            throw Failure(description: "the page threw: \(exception["text"] ?? exception)")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Opens `url` and waits (at most `seconds`) until `ready` evaluates to true.
    func open(_ url: URL, until ready: String, seconds: Double = 20) throws {
        try send("Page.navigate", ["url": url.absoluteString])
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if (try? evaluate(ready)) as? Bool == true { return }
            usleep(50_000)
        }
        throw Failure(description: "\(url.lastPathComponent) was not ready within \(seconds) s")
    }

    /// Presses and releases a key, as the keyboard would (`ArrowRight`, `Home`, …).
    func press(_ key: String, code: Int) throws {
        for type in ["rawKeyDown", "keyUp"] {
            try send(
                "Input.dispatchKeyEvent",
                ["type": type, "key": key, "code": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code])
        }
    }

    /// A PNG of what the window shows.
    func screenshot() throws -> Data {
        let result = try send("Page.captureScreenshot", ["format": "png"])
        guard let base64 = result["data"] as? String, let png = Data(base64Encoded: base64) else {
            throw Failure(description: "no screenshot data")
        }
        return png
    }

    private func attachToPage() throws -> String {
        for _ in 0..<100 {
            let targets = try send("Target.getTargets", toBrowser: true)["targetInfos"] as? [[String: Any]] ?? []
            if let page = targets.first(where: { $0["type"] as? String == "page" }), let id = page["targetId"] {
                let attached = try send("Target.attachToTarget", ["targetId": id, "flatten": true], toBrowser: true)
                if let session = attached["sessionId"] as? String { return session }
            }
            usleep(50_000)
        }
        throw Failure(description: "chromium showed no page to attach to")
    }

    private func readMessage() throws -> [String: Any] {
        while true {
            if let end = buffered.firstIndex(of: 0) {
                let message = buffered[buffered.startIndex..<end]
                buffered = Data(buffered[(end + 1)...])
                return (try JSONSerialization.jsonObject(with: message) as? [String: Any]) ?? [:]
            }
            let chunk = answers.availableData
            guard !chunk.isEmpty else { throw Failure(description: "chromium closed the pipe") }
            buffered += chunk
        }
    }
}
