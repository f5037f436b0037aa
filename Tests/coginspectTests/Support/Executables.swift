import Foundation

/// Runs the package's real executables, as a user would, from the package root.
enum Executables {
    /// The package root, found from this file's location.
    nonisolated static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where `swift build` put the products.
    static var productsDirectory: URL {
        Bundle.main.bundleURL
    }

    /// Where this target's golden files live.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    struct Outcome {
        let status: Int32
        /// Whether the program exited (rather than died of a signal).
        var exited = true
        let standardOutput: String
        let standardError: String
    }

    /// Runs `coginspect` with `arguments` in the package root, feeding `input` on standard input.
    static func coginspect(
        _ arguments: [String], input: String = "", environment: [String: String] = [:]
    ) throws
        -> Outcome
    {
        try run(
            productsDirectory.appendingPathComponent("coginspect"), arguments, input: input, environment: environment)
    }

    /// The program `name` on `PATH`, if it is installed.
    nonisolated static func onPath(_ name: String) -> URL? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Every committed recording, by name.
    nonisolated static var recordings: [String] {
        let directory = packageRoot.appendingPathComponent("Recordings")
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".cogtrace") }.sorted().map { "Recordings/\($0)" }
    }

    static func run(
        _ executable: URL, _ arguments: [String], input: String = "", environment: [String: String] = [:],
        directory: URL = packageRoot
    )
        throws -> Outcome
    {
        let process = Process()
        // COLUMNS lays text out for a width; a test asks for one or gets none, whatever the shell exported.
        var inherited = ProcessInfo.processInfo.environment
        inherited["COLUMNS"] = nil
        process.environment = inherited.merging(environment) { $1 }
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        standardInput.fileHandleForWriting.write(Data(input.utf8))
        try standardInput.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, exited: process.terminationReason == .exit,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }
}
