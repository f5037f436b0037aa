import Foundation
import Testing

/// `coginspect DIR -c flaky` on a folder of runs of one test: copies of the tour, the failing
/// ones with two forecasts arriving in the other order and a failure recorded.
@Suite("flaky at the command line")
struct FlakyCommandTests {
    private static let tour = try! String(
        contentsOf: Executables.packageRoot.appendingPathComponent("Recordings/tour.cogtrace"), encoding: .utf8)

    /// A folder holding `passing` copies of the tour and `failing` ones with turns 7 and 8
    /// exchanged and a failure before the trailer.
    private func runs(passing: Int, failing: Int) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flaky-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lines = Self.tour.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for number in 1...passing {
            try Self.tour.write(
                to: folder.appendingPathComponent("run-p\(number).cogtrace"), atomically: true, encoding: .utf8)
        }
        let seven = try #require(lines.firstIndex { $0.hasPrefix(#"{"type":"turn","seq":7,"#) })
        let eight = try #require(lines.firstIndex { $0.hasPrefix(#"{"type":"turn","seq":8,"#) })
        let (a, b) = (lines[seven], lines[eight])
        // `{"type":"turn","seq":N` is 22 characters for a one-digit N: each keeps its number.
        lines[seven] = String(a.prefix(22) + b.dropFirst(22))
        lines[eight] = String(b.prefix(22) + a.dropFirst(22))
        let trailer = try #require(lines.firstIndex { $0.hasPrefix(#"{"type":"trailer""#) })
        lines.insert(
            #"{"type":"failure","after":25,"test":"TourTests.theTour","kind":"expectation","message":"late forecast"}"#,
            at: trailer)
        for number in 1...failing {
            try lines.joined(separator: "\n").write(
                to: folder.appendingPathComponent("run-f\(number).cogtrace"), atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test func theRaceIsNamedInTextAndJSON() throws {
        let folder = try runs(passing: 4, failing: 2)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try Executables.coginspect([folder.path, "-c", "flaky"])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(
            text.standardOutput.contains(
                "2 failing and 4 passing runs part first at turn 7 (step 7): every failing run differs there from "
                    + "every passing run"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("in every failing run, in no passing run\n  "))
        #expect(text.standardOutput.contains("turn 'weather.forecast[98101] success'"))
        // docs/comparing.md shows this run's output, cut at its first `…`.
        let doc = try String(
            contentsOf: Executables.packageRoot.appendingPathComponent("docs/comparing.md"), encoding: .utf8
        ).components(separatedBy: "\n")
        let start = try #require(doc.firstIndex(of: "$ coginspect runs/ -c flaky"))
        let shown = Array(doc[(start + 1)...].prefix { $0 != "…" && $0 != "```" })
        #expect(shown.count > 8)
        #expect(Array(text.standardOutput.components(separatedBy: "\n").prefix(shown.count)) == shown)
        let json = try Executables.coginspect([folder.path, "--json", "-c", "flaky"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let result = try #require(document["result"] as? [[String: Any]])
        let fields = try #require(result.first?["fields"] as? [String: Any])
        #expect((fields["parts at"] as? [String: Any])?["turn"] as? Int == 7)
        #expect(fields["failing runs"] as? [String] == ["run-f1", "run-f2"])
        #expect((fields["passing runs"] as? [String])?.count == 4)
    }

    @Test func oneTraceOrOneKindOfRunIsRefusedSayingWhatItNeeds() throws {
        let folder = try runs(passing: 2, failing: 1)
        defer { try? FileManager.default.removeItem(at: folder) }
        let alone = try Executables.coginspect([folder.appendingPathComponent("run-p1.cogtrace").path, "-c", "flaky"])
        #expect(alone.status != 0)
        #expect(alone.standardError.contains("flaky compares several recordings of one test"), "\(alone.standardError)")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("run-f1.cogtrace"))
        let passing = try Executables.coginspect([folder.path, "-c", "flaky"])
        #expect(passing.status != 0)
        #expect(
            passing.standardError.contains("of the 2 open, 0 failed and 2 passed"), "\(passing.standardError)")
        let other = try Executables.coginspect([folder.path, "-c", "turns"])
        #expect(other.standardError.contains("'flaky'"), "the multi-trace refusal lists flaky: \(other.standardError)")
    }
}
