import Foundation

/// The package's committed recordings (`Recordings/`), found from this file's place in the
/// package, so the reader's tests read the files a user opens.
enum RecordingFiles {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recordings", isDirectory: true)
}
