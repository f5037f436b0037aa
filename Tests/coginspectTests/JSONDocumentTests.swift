import Foundation
import Testing

/// With `--json`, every command prints exactly one JSON document on standard output, good or
/// bad: a result, or an error with its kind and message; `play` prints its turns in one.
@Suite("One JSON document per command")
struct JSONDocumentTests {
    /// Every command `help` lists, bare (most then fail for want of an argument) and with a
    /// working argument, except `quit`, which ends the script.
    @Test func everyCommandGoodOrBadPrintsOneDocument() throws {
        let help = try Executables.coginspect(["Recordings/tour.cogtrace", "--json", "-c", "help"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(help.standardOutput.utf8)) as? [String: Any])
        let sections = (document["result"] as? [[String: Any]]) ?? []
        let names = sections.flatMap { section -> [String] in
            let parts = (section["parts"] as? [[String: Any]]) ?? []
            return parts.flatMap { part in
                ((part["rows"] as? [[String: Any]]) ?? []).compactMap {
                    ($0["command"] as? String)?.split(separator: " ").first.map(String.init)
                }
            }
        }
        #expect(names.count > 25, "help listed \(names)")
        let commands =
            names.filter { $0 != "quit" && $0 != "follow" }
            + [
                "get weather.isNiceHere", "get nope", "why weather.isNiceHere @6", "play 1..3", "turn 99",
                "expect weather.isNiceHere == true", "export dot --to /nonexistent-dir/x.dot", "nosuchcommand",
            ]
        let outcome = try Executables.coginspect(
            ["Recordings/tour.cogtrace", "--json", "--keep-going"] + commands.flatMap { ["-c", $0] })
        let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == commands.count, "\(commands.count) commands printed \(lines.count) lines")
        for (command, line) in zip(commands, lines) {
            let parsed = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(parsed?["schemaVersion"] as? Int == 3, "\(command): \(line)")
            let answered = parsed?["result"] != nil
            let failed = (parsed?["error"] as? [String: Any])?["message"] is String
            #expect(answered != failed, "\(command): one of result or error, not \(line)")
        }
        let play = try #require(lines.dropFirst(commands.count - 5).first)
        #expect(play.contains("\"command\":\"play\""))
        #expect(play.components(separatedBy: #""fields":{"turn":"#).count == 4, "three turns in one document")
    }
}

/// With `--json`, a run that no command answered still prints one document: a trace refused at
/// load, a usage error, a bad setting, each with its kind, message and exit code.
@Suite("One JSON document when no command runs")
struct JSONRefusalTests {
    /// The one document `outcome` printed, checked against its exit status.
    private func refusal(_ outcome: Executables.Outcome, kind: String, status: Int32) throws -> String {
        #expect(outcome.status == status, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.count == 1, "one document, not \(outcome.standardOutput)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 3)
        #expect(document["command"] is NSNull, "no command ran: \(outcome.standardOutput)")
        let error = try #require(document["error"] as? [String: Any])
        #expect(error["kind"] as? String == kind)
        #expect(error["exitCode"] as? Int == Int(status))
        let message = try #require(error["message"] as? String)
        #expect(outcome.standardError.contains(message), "the same message for a person on standard error")
        return message
    }

    @Test func aMissingTraceAnUnknownOptionAndABadSettingEachPrintOneDocument() throws {
        let missing = try Executables.coginspect(["/nonexistent/x.cogtrace", "--json", "-c", "info"])
        #expect(try refusal(missing, kind: "cannotOpenInput", status: 66).contains("/nonexistent/x.cogtrace"))
        let option = try Executables.coginspect(["Recordings/tour.cogtrace", "--json", "--frobnicate"])
        #expect(try refusal(option, kind: "usage", status: 64).contains("'--frobnicate'"))
        let setting = try Executables.coginspect(
            ["Recordings/tour.cogtrace", "--json", "-c", "info"], environment: ["COGINSPECT_MEMORY_MB": "lots"])
        _ = try refusal(setting, kind: "usage", status: 64)
    }

    @Test func aTraceRefusedAtLoadPrintsOneDocument() throws {
        let source = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("Recordings/tour.cogtrace"), encoding: .utf8)
        var bytes = Array(source.split(separator: "\n").prefix(3).joined(separator: "\n").utf8)
        bytes += Array("\n{\"type\":\"turn\",\"name\":\"".utf8) + [0xFF, 0xFE] + Array("\"}\n".utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "refused-\(UUID().uuidString).cogtrace")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try Executables.coginspect([file.path, "--json", "-c", "info"])
        _ = try refusal(outcome, kind: "malformedInput", status: 65)
    }

    @Test func quitPrintsItsDocumentToo() throws {
        let outcome = try Executables.coginspect(["Recordings/tour.cogtrace", "--json", "-c", "info", "-c", "quit"])
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.count == 2, "\(outcome.standardOutput)")
        #expect(lines.last == #"{"schemaVersion":3,"command":"quit","result":[]}"#)
    }

    @Test func withoutJSONARefusalPrintsNothingOnStandardOutput() throws {
        let outcome = try Executables.coginspect(["/nonexistent/x.cogtrace", "-c", "info"])
        #expect(outcome.status == 66)
        #expect(outcome.standardOutput.isEmpty)
    }
}
