package import Foundation

/// Finding a helper program (Graphviz's `dot`) the way a shell would: the first executable of
/// that name in a directory of `PATH`.
package enum ProgramSearch {
    /// The program `name` on `PATH` (or `/usr/bin:/bin` when `PATH` is unset), if it is there.
    package static func onPath(_ name: String) -> URL? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
