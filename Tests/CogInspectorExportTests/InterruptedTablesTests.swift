import CogTraceFormat
import CogTraceStore
import Foundation
import Testing

@testable import CogInspector
@testable import CogInspectorExport

/// `export tables` is all or nothing: interrupted after some tables are written, it leaves no
/// file and no directory of its own, and an earlier export it was replacing with `--force`
/// stays as it was.
@Suite("An interrupted export tables")
struct InterruptedTablesTests {
    private let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("interrupted-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// A trace of 1,000 turns, each writing one state: tables long enough for a Ctrl-C check.
    private static func session() throws -> InspectorSession {
        let header =
            #"{"type":"header","format":"cogtrace","version":"1.1","minReader":"1.0","producer":"t","run":"r","title":"t","clock":"virtual","mode":"ring","capacity":10000,"keyframeEvery":10000}"#
        let state =
            #"{"type":"state","id":1,"label":"counter","decl":"counter","key":null,"shape":"manual","valueType":"Int","lifetime":"app","policy":null}"#
        let turns = (1...1_000).map {
            #"{"type":"turn","seq":\#($0),"name":"tick","origin":"op","cause":null,"start":0,"duration":0,"events":[{"e":"write","s":1,"old":{"t":"\#($0 - 1)","j":\#($0 - 1)},"new":{"t":"\#($0)","j":\#($0)}}]}"#
        }
        let trailer = #"{"type":"trailer","ok":true,"turns":1000,"evicted":0,"dropped":0,"keyframes":0}"#
        let text = ([header, state] + turns + [trailer]).joined(separator: "\n") + "\n"
        return InspectorSession(trace: try TraceFile.parse(text), source: "ticks.cogtrace", catalog: .standard)
    }

    /// Every file and directory under `url`, relative to it, sorted.
    private func contents(of url: URL) -> [String] {
        let paths = FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String] ?? []
        return paths.sorted()
    }

    @Test func aNewExportLeavesNothing() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = try Self.session()
        // The first check comes after 256 rows: some tables are written by then, none is kept.
        let target = directory.appendingPathComponent("fleet")
        #expect(throws: InspectorError.interrupted) {
            try session.execute("export tables \(target.path)", call: CommandCall(interruptRequested: { true }))
        }
        #expect(!FileManager.default.fileExists(atPath: target.path), "\(contents(of: directory))")
        #expect(contents(of: directory).isEmpty)
    }

    @Test func aForcedExportThatIsInterruptedKeepsTheEarlierOne() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = try Self.session()
        let target = directory.appendingPathComponent("fleet")
        _ = try session.execute("export tables \(target.path)")
        let before = contents(of: target)
        let turnsFile = try #require(before.first { $0.hasPrefix("turns/") && $0.hasSuffix(".jsonl") })
        let written = try Data(contentsOf: target.appendingPathComponent(turnsFile))
        #expect(throws: InspectorError.interrupted) {
            try session.execute("export tables \(target.path) --force", call: CommandCall(interruptRequested: { true }))
        }
        #expect(contents(of: target) == before)
        #expect(try Data(contentsOf: target.appendingPathComponent(turnsFile)) == written)
    }
}
