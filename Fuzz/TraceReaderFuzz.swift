// libFuzzer entry for the trace reader: any bytes are loaded as a `.cogtrace`, then every turn
// is decoded and the graph rebuilt after it. A crash, a hang or a runaway allocation is a finding;
// a thrown `TraceReadError` is the reader doing its job. Built by `Scripts/fuzz`, not by SwiftPM.
import CogTraceFormat
import CogTraceStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // libFuzzer calls on the main thread, where the reader's MainActor types live.
    MainActor.assumeIsolated {
        guard let file = try? TraceFile.parse(bytes: bytes) else { return }
        for sequence in file.turnSequences.prefix(200) {
            _ = try? file.turn(sequence)
            _ = try? file.snapshot(after: sequence)
        }
    }
    return 0
}
