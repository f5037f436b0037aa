import Testing
@testable import CogInspector

@Suite("Rendering")
struct RendererTests {
    private let result = CommandResult(command: "state", report: [
        .section("values", [.table(columns: ["state", "value"], rows: [["evil\u{1B}[2J", "a\tb\u{7}"]])]),
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

    @Test func settingsAcceptWhatTheySayAndRefuseTheRest() throws {
        var settings = InspectorSettings()
        try settings.set("color", to: "on")
        try settings.set("width", to: "80")
        #expect(settings.color == .on)
        #expect(settings.valueWidth == 80)
        #expect(throws: InspectorError("color must be auto, on or off, not 'blue'")) { try settings.set("color", to: "blue") }
        #expect(throws: InspectorError("unknown setting 'colour'; expected one of width, color, format")) {
            try settings.set("colour", to: "on")
        }
    }
}
