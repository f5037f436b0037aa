// libFuzzer entry for the command parser and the commands: each input line runs against the
// tour recording, as a person would type it. Lines that would touch the file system (`--to`,
// `export sqlite`, `diff --trace`) or sleep (`--delay`) are skipped, so the fuzzer explores the
// parser and the engine, not the disk. Built by `Scripts/fuzz`, not by SwiftPM.
import CogInspector
import CogInspectorExport
import CogTraceFormat
import CogTraceStore
import Foundation

@MainActor private var tour: TraceFile?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommands(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    MainActor.assumeIsolated {
        if tour == nil {
            let path = ProcessInfo.processInfo.environment["COG_FUZZ_TRACE"] ?? "Recordings/tour.cogtrace"
            tour = try? TraceFile.load(contentsOf: URL(fileURLWithPath: path))
        }
        guard let tour else { fatalError("cannot load the trace the command fuzzer runs against") }
        let session = InspectorSession(trace: tour, source: "fuzz", catalog: .standard)
        for line in text.split(separator: "\n").prefix(20) {
            let lowered = line.lowercased()
            if ["--to", "sqlite", "--trace", "--delay", "sql"].contains(where: { lowered.contains($0) }) { continue }
            _ = try? session.execute(String(line))
            if session.wantsToQuit { break }
        }
    }
    return 0
}
