import Foundation
import Testing

@testable import CogInspector
@testable import CogInspectorExport

/// The viewer's script lives in Swift strings; a JavaScript parser reads it whole, so a syntax
/// error shows here rather than as a blank page. Needs Node.js (`node --check` only parses).
@Suite(
    "Viewer script syntax", .enabled(if: NodeJS.executable != nil, "needs node to parse the viewer's script")
)
struct ViewerScriptSyntaxTests {
    /// `node --check` on `source`: its exit status and what it said.
    private func check(_ source: String) throws -> (status: Int32, message: String) {
        let node = try #require(NodeJS.executable)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-\(UUID().uuidString).js")
        defer { try? FileManager.default.removeItem(at: file) }
        try source.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = node
        process.arguments = ["--check", file.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }

    @Test func theScriptParses() throws {
        let outcome = try check(ViewerScript.source)
        #expect(outcome.status == 0, "\(outcome.message)")
    }

    @Test func aBrokenScriptIsCaught() throws {
        // The check can fail: the same script with one brace too many does not parse.
        #expect(try check(ViewerScript.source + "\n}").status != 0)
    }
}

/// Node.js, when it is installed: it parses the viewer's script.
enum NodeJS {
    static let executable: URL? = ["node", "nodejs"].lazy.compactMap { name -> URL? in
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }.first
}
