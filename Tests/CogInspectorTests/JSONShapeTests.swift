import CogInspectorExport
import CogTraceFormat
import Foundation
import Testing

@testable import CogInspector

/// Every command's `--json` document on the tour, checked against the shapes docs/inspector.md
/// documents: a schema version, a command name, and result parts of the known kinds whose cells
/// are typed (turns and states as objects, recorded values as objects, counts as numbers).
@Suite("JSON shapes")
struct JSONShapeTests {
    static let commands = [
        "info", "help", "help why", "show settings", "failures", "turns 1..8", "turns --touching weather.isNiceHere",
        "turn 6", "goto 6", "step", "back", "first", "last", "where", "play 1..3", "get weather.forecast[10001]",
        "get weather.isNiceHere", "state weather.is*", "deps weather.isNiceHere", "users weather.currentZip",
        "leases", "async weather.forecast[10001]", "find heat", "why weather.isNiceHere",
        "history weather.isNiceHere", "diff 8 9", "diff 5 6 --only values", "bisect weather.isNiceHere == true",
        "expect weather.isNiceHere == true", "bisect weather.isNiceHere == 7", "export json --turn 6",
        "sql SELECT seq, name FROM turns LIMIT 3", "history Weather.niceAlert", "turns --touching Weather.niceAlert",
        "get Weather.niceAlert", "deps Weather.niceAlert", "why Weather.niceAlert",
        "get weather.forecast[10001].temperatureF", "clear",
    ]
    static let partKeys: Set<String> = [
        "message", "fields", "columns", "lines", "section", "document", "chain", "events", "changes",
        "playback", "verdict", "warning",
    ]

    @Test func everyCommandsDocumentHasTheDocumentedShape() throws {
        let session = try DiffTests.session("tour", catalog: .standard)
        let renderer = ReportRenderer()
        var checked = 0
        for command in Self.commands {
            try session.move(to: 6)
            let result = try #require(try session.execute(command), "\(command)")
            let document = try JSONParser.parse(renderer.json(result))
            #expect(document["schemaVersion"] == .int(ReportRenderer.jsonSchemaVersion), "\(command)")
            #expect(document["command"]?.stringValue == result.command, "\(command)")
            let parts = try #require(document["result"]?.arrayValue, "\(command)")
            for part in parts { try checkPart(part, command) }
            checked += 1
        }
        #expect(checked == Self.commands.count)
    }

    @Test func turnsVersionsAndValuesAreTypedWhereTheIssueAsked() throws {
        let session = try DiffTests.session("tour")
        try session.move(to: 6)
        let renderer = ReportRenderer()
        let why = try JSONParser.parse(renderer.json(try #require(try session.execute("why weather.isNiceHere"))))
        let link = try #require(why["result"]?.arrayValue?.first?["chain"]?["links"]?.arrayValue?.first)
        #expect(link["turn"] == .object([("turn", .int(6)), ("afterTurn", .bool(false))]))
        #expect(link["value"]?["json"] == .bool(true))
        #expect(link["old"]?["json"] == .bool(false))
        #expect(link["root"] == .bool(false))
        #expect(link["trigger"]?["label"] == .string("weather.isNice[10001]"))
        let get = try JSONParser.parse(renderer.json(try #require(try session.execute("get weather.forecast[10001]"))))
        let fields = try #require(get["result"]?.arrayValue?.first?["fields"])
        #expect(fields["version"]?.intValue != nil)
        #expect(fields["value"]?["json"]?["temperatureF"] == .int(75))
        let history = try JSONParser.parse(
            renderer.json(try #require(try session.execute("history weather.isNiceHere"))))
        let first = try #require(history["result"]?.arrayValue?.first?["rows"]?.arrayValue?.first)
        #expect(first["turn"] == .object([("turn", .int(5)), ("afterTurn", .bool(true))]))
    }

    private func checkPart(_ part: JSONValue, _ command: String) throws {
        let keys = Set((part.objectValue ?? []).map(\.0))
        #expect(!keys.intersection(Self.partKeys).isEmpty, "\(command): unknown part \(part.jsonText)")
        if let rows = part["rows"]?.arrayValue {
            let columns = try #require(part["columns"]?.arrayValue).compactMap(\.stringValue)
            for row in rows {
                #expect((row.objectValue ?? []).map(\.0) == columns, "\(command): a row keys its cells by column")
                for (column, cell) in row.objectValue ?? [] { checkCell(cell, column, command) }
            }
        }
        if let fields = part["fields"]?.objectValue {
            for (name, cell) in fields { checkCell(cell, name, command) }
        }
        for link in part["chain"]?.arrayValue ?? [] {
            checkState(link["state"], command)
            #expect(link["cause"]?.stringValue != nil, "\(command): a link says its cause")
            if let turn = link["turn"], turn != .null { checkTurn(turn, command) }
        }
        for event in part["events"]?.arrayValue ?? [] {
            checkTurn(event["turn"], command)
            #expect(event["event"]?["e"]?.stringValue != nil, "\(command): an event keeps its trace form")
        }
        for change in part["changes"]?.arrayValue ?? [] {
            checkState(change["subject"], command)
            #expect(GraphDiff.Aspect(rawValue: change["aspect"]?.stringValue ?? "") != nil, "\(command)")
        }
        for nested in part["parts"]?.arrayValue ?? [] { try checkPart(nested, command) }
    }

    /// Columns and fields that name a turn, a state or a value hold the typed objects.
    private func checkCell(_ cell: JSONValue, _ name: String, _ command: String) {
        switch name {
        case "turn", "started",
            "cursor" where cell.objectValue != nil:
            checkTurn(cell, command)
        case "state", "dependency", "reader": checkState(cell, command)
        case "value" where cell != .null:
            #expect(cell["text"]?.stringValue != nil, "\(command): '\(name)' is a recorded value object")
        case "version", "generation", "events", "turns", "states", "capacity", "width":
            #expect(cell.intValue != nil, "\(command): '\(name)' is a number, not \(cell.jsonText)")
        case "loading", "pinned", "finished", "has succeeded":
            #expect(cell.boolValue != nil, "\(command): '\(name)' is a boolean, not \(cell.jsonText)")
        default: break
        }
    }

    private func checkTurn(_ turn: JSONValue?, _ command: String) {
        #expect(
            turn?["turn"]?.intValue != nil && turn?["afterTurn"]?.boolValue != nil,
            "\(command): a turn is {turn, afterTurn}, not \(turn?.jsonText ?? "nothing")")
    }

    private func checkState(_ state: JSONValue?, _ command: String) {
        #expect(
            state?["id"]?.intValue != nil && state?["label"]?.stringValue != nil,
            "\(command): a state is {id, label}, not \(state?.jsonText ?? "nothing")")
    }
}
