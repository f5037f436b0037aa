import Foundation
import Testing

/// `failures` leads from a failure to the turn that set what the test checked: the states the
/// test read just before it, each with the turn that last decided its value, even when the test
/// went on for turns after that and checked at its end.
@Suite("What a failing test read")
struct FailureReadsTests {
    private static let tipJar = Executables.packageRoot.appendingPathComponent(
        "Tests/coginspectTests/Fixtures/TipJarTests.theTotalIncludesTheTip.cogtrace")

    /// The TipJar trace with two more turns that leave the total alone, and the failure (after
    /// the last) preceded by a plain peek of the total.
    private func checkedAtTheEnd() throws -> URL {
        var lines = try String(contentsOf: Self.tipJar, encoding: .utf8).split(separator: "\n").map(String.init)
        let failure = try #require(lines.firstIndex { $0.hasPrefix(#"{"type":"failure""#) })
        let record = lines.remove(at: failure).replacingOccurrences(of: #""after":2"#, with: #""after":4"#)
        let trailer = try #require(lines.firstIndex { $0.hasPrefix(#"{"type":"trailer""#) })
        lines.insert(
            contentsOf: [
                #"{"type":"turn","seq":3,"name":"addNote(_:)","origin":"op","cause":null,"start":0,"duration":0,"events":[]}"#,
                #"{"type":"turn","seq":4,"name":"save()","origin":"op","cause":null,"start":0,"duration":0,"events":[]}"#,
                #"{"type":"idle","after":4,"events":[{"e":"leaseRenewed","s":4,"holder":"peek"}]}"#,
                record,
            ], at: trailer)
        lines[lines.count - 1] = lines[lines.count - 1].replacingOccurrences(of: #""turns":2"#, with: #""turns":4"#)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("end-\(UUID().uuidString).cogtrace")
        try lines.joined(separator: "\n").appending("\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func aCheckAtTheEndLeadsToTheTurnThatSetTheValue() throws {
        let trace = try checkedAtTheEnd()
        defer { try? FileManager.default.removeItem(at: trace) }
        let text = try Executables.coginspect([trace.path, "-c", "failures"])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("read before failure 1 (after turn 4)"), "\(text.standardOutput)")
        let row = try #require(
            text.standardOutput.split(separator: "\n").first { $0.contains("tipJar.totalCents") && $0.contains("4800") }
        )
        #expect(row.contains("2+") && row.contains("chooseTip(percent:)") && row.hasSuffix("yes"), "\(row)")
        let json = try Executables.coginspect([trace.path, "--json", "-c", "failures"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let parts = try #require(document["result"] as? [[String: Any]])
        let section = try #require(parts.first { ($0["section"] as? String)?.hasPrefix("read before failure") == true })
        let table = try #require((section["parts"] as? [[String: Any]])?.first)
        let first = try #require((table["rows"] as? [[String: Any]])?.first)
        #expect((first["last decided"] as? [String: Any])?["turn"] as? Int == 2)
        #expect(first["in the message"] as? Bool == true)
    }

    @Test func aTraceWithoutReadsBeforeItsFailureShowsOnlyTheFailure() throws {
        let text = try Executables.coginspect(["Recordings/tour.cogtrace", "-c", "failures"])
        #expect(text.standardOutput == "the recorded test reported no failure\n")
    }
}
