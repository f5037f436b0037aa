import CogTraceFormat
import Testing

@testable import CogInspector

@Suite("Rendering")
struct RendererTests {
    private let result = CommandResult(
        command: "state",
        report: [
            .section(
                "values", [.table(columns: ["state", "value"], rows: [[.text("evil\u{1B}[2J"), .text("a\tb\u{7}")]])])
        ])

    @Test func textEscapesEveryControlCharacterInValues() {
        let text = ReportRenderer().text(result)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(text.contains(#"evil\u{1B}[2J"#))
        #expect(text.contains(#"a\tb\u{7}"#))
    }

    @Test func colorStylesOnlyTheRenderersOwnHeadings() {
        let text = ReportRenderer(usesColor: true).text(result)
        #expect(text.hasPrefix("\u{1B}[1mvalues\u{1B}[0m"))
        #expect(text.contains("\u{1B}[1m  state"))
        #expect(text.contains(#"evil\u{1B}[2J"#), "a value's escape sequence stays escaped")
    }

    @Test func jsonEscapesControlCharactersForItsFormat() {
        let json = ReportRenderer().json(result)
        #expect(json.contains(#"evil\u001b[2J"#))
        #expect(json.contains(#"a\tb\u0007"#))
    }

    @Test func jsonKeepsNumbersTurnsStatesAndValuesTyped() throws {
        let value = TraceValue(text: "clear 75°F", json: .object([("temperatureF", .int(75))]))
        let typed = CommandResult(
            command: "get",
            report: [
                .fields([
                    Field("version", .integer(9)), Field("loading", .bool(false)),
                    Field("turn", .turn(TurnReference(5, afterTurn: true))),
                    Field("state", .state(StateReference(id: 3, label: "weather.forecast[10001]"))),
                    Field("value", .value(value)),
                    Field("none", .absent),
                ])
            ])
        let document = try JSONParser.parse(ReportRenderer().json(typed))
        #expect(document["schemaVersion"] == .int(ReportRenderer.jsonSchemaVersion))
        let fields = try #require(document["result"]?.arrayValue?.first?["fields"])
        #expect(fields["version"] == .int(9))
        #expect(fields["loading"] == .bool(false))
        #expect(fields["turn"] == .object([("turn", .int(5)), ("afterTurn", .bool(true))]))
        #expect(fields["state"]?["id"] == .int(3))
        #expect(fields["value"]?["json"]?["temperatureF"] == .int(75))
        #expect(fields["none"] == .null)
    }

    @Test func settingsAcceptWhatTheySayAndRefuseTheRest() throws {
        var settings = InspectorSettings()
        try settings.set("color", to: "on")
        try settings.set("width", to: "80")
        #expect(settings.color == .on)
        #expect(settings.valueWidth == 80)
        #expect(throws: InspectorError("color must be auto, on or off, not 'blue'")) {
            try settings.set("color", to: "blue")
        }
        #expect(throws: InspectorError("unknown setting 'colour'; expected one of width, color, format, columns")) {
            try settings.set("colour", to: "on")
        }
    }
}
