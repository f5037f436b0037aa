import CogTraceStore
import Foundation
import Synchronization
import Testing

@testable import CogInspector
@testable import CogInspectorExport

/// An export that an interrupt reaches at any point, up to its very last check, writes nothing:
/// whichever layout drew it, the page is thrown away rather than left complete behind an exit
/// of 130.
@Suite("An interrupted export leaves nothing")
struct InterruptedExportTests {
    private static let tour = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recordings/tour.cogtrace")

    /// A Ctrl-C check that answers no for its first `count` questions and yes from then on, and
    /// counts them.
    private final class LateInterrupt: Sendable {
        let asked = Atomic<Int>(0)
        let answersNoFor: Int
        init(answersNoFor: Int) { self.answersNoFor = answersNoFor }
        var check: @Sendable () -> Bool {
            { [self] in asked.wrappingAdd(1, ordering: .relaxed).oldValue >= answersNoFor }
        }
    }

    @Test(arguments: ["export html --layout layered", "export dot", "export json", "export mermaid", "export test"])
    func anInterruptAtTheLastCheckWritesNoFile(_ command: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("late-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = try TraceFile.load(contentsOf: Self.tour)
        // How many times the export asks, when nothing interrupts it (once what a first answer
        // checks and keeps, the trace's structure, is kept).
        _ = try InspectorSession(trace: trace, source: "tour", catalog: .standard).execute("info")
        let counting = LateInterrupt(answersNoFor: .max)
        let probe = folder.appendingPathComponent("probe.out")
        _ = try InspectorSession(trace: trace, source: "tour", catalog: .standard)
            .execute("\(command) --to \(probe.path)", call: CommandCall(interruptRequested: counting.check))
        let checks = counting.asked.load(ordering: .relaxed)
        #expect(checks > 0)
        // Interrupted at each of its last few checks, it leaves nothing.
        for late in max(0, checks - 3)..<checks {
            let target = folder.appendingPathComponent("\(late).out")
            let interrupt = LateInterrupt(answersNoFor: late)
            #expect(throws: InspectorError.interrupted, "interrupted at check \(late + 1) of \(checks)") {
                try InspectorSession(trace: trace, source: "tour", catalog: .standard)
                    .execute("\(command) --to \(target.path)", call: CommandCall(interruptRequested: interrupt.check))
            }
            #expect(!FileManager.default.fileExists(atPath: target.path), "check \(late + 1) of \(checks)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left == ["probe.out"], "no temporary file is left: \(left)")
    }
}
