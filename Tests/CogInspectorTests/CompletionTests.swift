import CogInspectorExport
import Testing

@testable import CogInspector

/// What Tab offers after each kind of word, for the commands that take more than states.
@Suite("Completion")
struct CompletionTests {
    @Test func exportSqlAndDiffOfferTheirOwnWords() throws {
        let session = try DiffTests.session("tour", catalog: .standard)
        #expect(session.completions(for: "m", after: ["export"]) == ["mermaid"])
        #expect(session.completions(for: "", after: ["export", "dot", "--focus"]).contains("weather.isNiceHere"))
        #expect(session.completions(for: "le", after: ["diff", "8", "9", "--only"]) == ["leases"])
        #expect(session.completions(for: "2", after: ["diff"]) == ["2", "20", "21", "22", "23", "24", "25"])
        #expect(session.completions(for: "rec", after: ["sql", "SELECT", "*", "FROM"]) == ["recomputes"])
        #expect(session.completions(for: "b", after: []) == ["back", "bisect"])
    }
}
