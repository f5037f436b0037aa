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
