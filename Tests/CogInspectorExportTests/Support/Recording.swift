import CogInspector
import CogInspectorExport
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
}
