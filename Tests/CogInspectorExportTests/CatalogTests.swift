import CogTraceFormat
import Foundation
import Testing

@testable import CogInspector
@testable import CogInspectorExport

/// The engine alone runs its own commands and formats; the standard catalog adds `sql` and the
/// SQLite and viewer formats in their places, and `export`'s help and errors follow the catalog.
@Suite("Command catalogs")
struct CatalogTests {
    @Test func theCoreCatalogNeedsNoSQLiteAndNoViewer() throws {
        let session = try Recording.session("tour")
        let core = InspectorSession(trace: session.trace, source: "tour")
        #expect(core.catalog.exportFormats.map(\.name) == ["dot", "mermaid", "json", "chrome", "test"])
        #expect(!core.catalog.commands.contains { $0.name == "sql" })
        #expect(throws: InspectorError("unknown command 'sql'; did you mean 'set'?")) {
            try core.execute("sql SELECT 1")
        }
        #expect(throws: InspectorError("unknown export format 'html'; expected dot, mermaid, json, chrome or test")) {
            try core.execute("export html")
        }
        #expect(throws: InspectorError("export needs a format: dot, mermaid, json, chrome or test")) {
            try core.execute("export")
        }
        let help = try #require(try core.execute("help export"))
        let synopsis =
            "export dot|mermaid|json|chrome|test [--turn N] [--focus STATE [--depth D]] [--unfold FAMILY|all] "
            + "[--name NAME] [--check derived|all] [--assembly TYPE] [--to FILE [--force]]"
        #expect(try fields(of: help).first?.value == .text(synopsis))
        #expect(core.completions(for: "", after: ["export"]) == ["chrome", "dot", "json", "mermaid", "test"])
        #expect(try core.execute("export dot --turn 9") != nil)
    }

    @Test func theStandardCatalogAddsItsCommandsInTheirGroups() throws {
        let session = try Recording.session("tour")
        let names = session.catalog.commands.map(\.name)
        let core = CommandCatalog.core.commands.map(\.name)
        let export = try #require(core.firstIndex(of: "export"))
        #expect(names == Array(core[...export]) + ["sql"] + Array(core[(export + 1)...]))
        #expect(
            session.catalog.exportFormats.map(\.name) == [
                "dot", "mermaid", "json", "chrome", "test", "sqlite", "tables", "html",
            ])
        let help = try #require(try session.execute("help export"))
        #expect(
            try fields(of: help).first?.value
                == .text(
                    "export dot|mermaid|json|chrome|test|sqlite|tables|html [--turn N] [--focus STATE [--depth D]] "
                        + "[--unfold FAMILY|all] [--name NAME] [--check derived|all] [--assembly TYPE] [--turns A..B] "
                        + "[--trace OTHER] [--to FILE [--force|--append]]"))
        #expect(session.completions(for: "", after: ["export"]).contains("tables"))
    }

    /// An option one format owns is refused by the others with the format that takes it.
    @Test func aFormatsOwnOptionsGoWithIt() throws {
        let session = try Recording.session("tour")
        #expect(throws: InspectorError("--turns goes with export test FILE.swift or export html")) {
            try session.execute("export dot --turns 3..4")
        }
        #expect(throws: InspectorError("--append goes with export sqlite FILE")) {
            try session.execute("export json --append")
        }
        #expect(throws: InspectorError("--layout goes with export html")) {
            try session.execute("export tables out --layout dot")
        }
    }

    /// Several traces open allow only `flaky` and the formats that write them all.
    @Test func manyTracesAllowOnlyTheFormatsThatCoverThem() throws {
        let session = try Recording.session("tour")
        session.companions = [try Recording.session("map")]
        #expect(
            throws: InspectorError(
                "with 2 traces open, only 'flaky', 'export sqlite FILE' and 'export tables DIR' work; open one trace "
                    + "to run 'export'")
        ) { try session.execute("export dot") }
        let core = InspectorSession(trace: session.trace, source: "tour")
        core.companions = [try Recording.session("map")]
        #expect(throws: InspectorError("with 2 traces open, only 'flaky' works; open one trace to run 'info'")) {
            try core.execute("info")
        }
    }

    private func fields(of result: CommandResult) throws -> [Field] {
        guard case .fields(let fields) = try #require(result.report.first) else {
            Issue.record("help COMMAND answers with fields")
            return []
        }
        return fields
    }
}
