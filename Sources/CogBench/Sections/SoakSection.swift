import Cog
import CogTrace
import CogTraceStore
import Foundation

private let _soakZipCog = Cog<Int>.Manual(name: "soak.currentZip") { 0 }
private let _soakReadingCogs = CogBox<Int, Int>.Manual(name: "soak.reading") { zip in 60 + zip }
private let soakIsNiceCogs = CogBox<Bool, Int>(name: "soak.isNice") { c, zip in
    let reading = c[_soakReadingCogs[zip]]
    return reading > 60 && reading < 90
}
private let soakIsNiceHereCog = Cog<Bool>(name: "soak.isNiceHere") { c in c[soakIsNiceCogs[c[_soakZipCog]]] }

/// A long run: millions of Weather-like turns (a reading arrives for one of a dozen ZIPs, now and
/// then the current ZIP moves) with a ring recorder attached, sampling resident memory as it
/// goes, then writing the ring. Memory must stay flat once the ring is full, and the file holds
/// the last `capacity` turns whatever the run's length.
enum SoakSection {
    static func run(turns: Int, capacity: Int = 10_000) throws -> [Measurement] {
        let cogs = Cogs()
        let recorder = CogRecorder(configuration: RecorderConfiguration(title: "soak", capacity: capacity))
        recorder.attach(to: cogs)
        _ = cogs[soakIsNiceHereCog]
        var samples: [(turn: Int, resident: Int)] = []
        let every = max(turns / 10, 1)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for turn in 1...turns {
                let zip = turn % 12
                if turn % 7 == 0 {
                    cogs.turn(_soakZipCog, to: zip)
                } else {
                    cogs.turn(_soakReadingCogs[zip], to: 55 + (turn * 13) % 45)
                }
                _ = cogs[soakIsNiceHereCog]
                if turn % every == 0 { samples.append((turn, Memory.residentBytes())) }
            }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cog-bench-soak-\(getpid()).cogtrace")
        defer { try? FileManager.default.removeItem(at: url) }
        try recorder.write(to: url)
        let fileBytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        let written = try TraceFile.load(contentsOf: url)
        // The bound itself, checked on every run (the test suite checks it on a short run only).
        let expectedKept = min(turns, capacity)
        guard written.turnCount == expectedKept, recorder.evictedTurnCount == turns - expectedKept,
            written.trailer?.evicted == turns - expectedKept
        else {
            throw BenchFailure(
                "the soak's ring kept \(written.turnCount) turns and evicted \(recorder.evictedTurnCount); "
                    + "expected \(expectedKept) and \(turns - expectedKept)")
        }
        let afterWarmUp = samples.dropFirst()
        let growth = (afterWarmUp.last?.resident ?? 0) - (afterWarmUp.first?.resident ?? 0)
        print("soak (\(turns) turns, ring of \(capacity); resident memory sampled every \(every) turns)")
        print(
            table(
                ["turn", "resident MiB"],
                samples.map { ["\($0.turn)", String(format: "%.1f", Double($0.resident) / 1_048_576)] }))
        print(
            "turns kept \(written.turnCount), evicted \(recorder.evictedTurnCount), file \(fileBytes / 1024) KiB, "
                + "resident growth after the first sample \(growth / 1024) KiB, \(format(elapsed.milliseconds / 1_000)) s"
        )
        print()
        return [
            Measurement(
                section: "soak", name: "\(turns) turns", variant: "resident growth after warm-up", unit: "bytes",
                samples: [Double(growth)]),
            Measurement(
                section: "soak", name: "\(turns) turns", variant: "file size", unit: "bytes",
                samples: [Double(fileBytes)]),
            Measurement(
                section: "soak", name: "\(turns) turns", variant: "turns kept", unit: "turns",
                samples: [Double(written.turnCount)]),
            Measurement(
                section: "soak", name: "\(turns) turns", variant: "ns per turn", unit: "ns/turn",
                samples: [elapsed.milliseconds * 1e6 / Double(turns)]),
        ]
    }
}
