import CogInspector
import CogInspectorExport
import CogTraceFixtures
import CogTraceFormat
import CogTraceStore
import Foundation

/// The committed recordings, opened as `coginspect` opens them: with every command and format.
enum Recording {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recordings")

    /// A session on `Recordings/NAME.cogtrace` with the standard catalog.
    static func session(_ name: String) throws -> InspectorSession {
        let url = directory.appendingPathComponent("\(name).cogtrace")
        return InspectorSession(trace: try TraceFile.load(contentsOf: url), source: name, catalog: .standard)
    }

    /// A session on a small wide trace: keyed families whose readers move their edges, written
    /// to a temporary file and read back as `coginspect` reads it.
    static func wide(states: Int, turns: Int) throws -> InspectorSession {
        var shape = SyntheticWideTrace.Shape()
        shape.states = states
        shape.keysPerFamily = 10...40
        shape.turns = turns
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wide-\(UUID().uuidString).cogtrace")
        defer { try? FileManager.default.removeItem(at: url) }
        var writer = SyntheticWideTrace(shape: shape)
        _ = try writer.write(to: url)
        return InspectorSession(trace: try TraceFile.load(contentsOf: url), source: "wide", catalog: .standard)
    }
}
