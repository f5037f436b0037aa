// swift-tools-version: 6.2
import PackageDescription

/// The runtime, its test support and the sample app run on the MainActor by default, as the Cog
/// design asks: declarations, ops and app code are main-actor code.
let mainActorCode: [SwiftSetting] = [
    .defaultIsolation(MainActor.self),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The trace format, the recorder's storage and the inspector are plain data and algorithms with
/// no actor of their own; they are nonisolated by default.
let plainCode: [SwiftSetting] = [
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "CogInspector",
    products: [
        .library(name: "Cog", targets: ["Cog"]),
        .library(name: "CogTesting", targets: ["CogTesting"]),
        .library(name: "CogTrace", targets: ["CogTrace"]),
        .library(name: "CogTraceFormat", targets: ["CogTraceFormat"]),
        .library(name: "CogTraceStore", targets: ["CogTraceStore"]),
        .library(name: "CogInspector", targets: ["CogInspector"]),
        .library(name: "CogInspectorExport", targets: ["CogInspectorExport"]),
        .executable(name: "coginspect", targets: ["coginspect"]),
    ],
    targets: [
        // Runtime.
        .target(name: "Cog", swiftSettings: mainActorCode),
        // Trace format: records, values, events and their JSON codec. Knows nothing of the runtime or of files.
        .target(name: "CogTraceFormat", swiftSettings: plainCode),
        // Trace store: reading a trace file (mapped), its sidecar index, following a growing file, comparing two.
        .target(name: "CogTraceStore", dependencies: ["CogTraceFormat", "CTraceMapping"], swiftSettings: plainCode),
        // Turns a read past the end of a mapped trace that shrank under its reader into zeros and a flag.
        .target(name: "CTraceMapping"),
        // Recorder: a probe on the runtime that writes the format.
        .target(name: "CogTrace", dependencies: ["Cog", "CogTraceFormat", "CogTraceStore"], swiftSettings: plainCode),
        // A scripted, deterministic run of a runtime: a clock moved by hand, work the script answers,
        // the replay of a recording. The sample app's scripted scenarios run on it; tests get it re-exported.
        .target(
            name: "CogScripting", dependencies: ["Cog", "CogTrace", "CogTraceFormat", "CogTraceStore"],
            swiftSettings: mainActorCode),
        // Test support with no test framework: `Cogs.forTesting`, trace capture, the scripting module re-exported.
        .target(
            name: "CogTestSupport",
            dependencies: ["Cog", "CogScripting", "CogTrace", "CogTraceFormat", "CogTraceStore", "CCogTraceGuard"],
            swiftSettings: mainActorCode),
        // The Swift Testing trait and the XCTest base class, over the support module.
        .target(
            name: "CogTesting", dependencies: ["CogTestSupport", "CogTraceFormat", "CCogTestingHooks"],
            swiftSettings: mainActorCode),
        // A load-time hook and a tap on C stderr, so `COG_TRACE` records suites nobody edited.
        .target(name: "CCogTestingHooks"),
        // Closes the running tests' traces with how they ended when a signal stops the process.
        .target(name: "CCogTraceGuard"),
        // Inspector engine: commands over the format only, never the runtime (its front end is CogInspectFrontEnd).
        .target(
            name: "CogInspector", dependencies: ["CogTraceFormat", "CogTraceStore", "CogCommandLine"],
            swiftSettings: plainCode),
        // The engine's commands that link SQLite (`sql`, `export sqlite|tables`) or carry the viewer (`export html`).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "CogInspectorExport",
            dependencies: [
                "CogInspector", "CogTraceFormat", "CogTraceStore", "CogCommandLine", "CSQLite", "CChildProcess",
                "CZlib",
            ],
            resources: [.embedInCode("Viewer/Assets/viewer.css"), .embedInCode("Viewer/Assets/viewer.js")],
            swiftSettings: plainCode),
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        // What every tool shares: exit statuses, usage errors, and the escaping of trace text.
        .target(name: "CogCommandLine", swiftSettings: plainCode),
        // Starting a helper program (Graphviz's dot) that the kernel ends when the inspector ends.
        .target(name: "CChildProcess"),
        // The terminal front end: options, batch and follow runs, the prompt; `coginspect` is its main.
        .target(
            name: "CogInspectFrontEnd",
            dependencies: [
                "CogInspector", "CogInspectorExport", "CogTraceFormat", "CogTraceStore", "CogCommandLine", "CReadline",
            ],
            swiftSettings: plainCode),
        .executableTarget(name: "coginspect", dependencies: ["CogInspectFrontEnd"], swiftSettings: plainCode),
        // Sample app, its scripted scenarios and its command.
        .target(name: "Weather", dependencies: ["Cog"], swiftSettings: mainActorCode),
        .target(
            name: "WeatherScenarios",
            dependencies: [
                "Weather", "Cog", "CogScripting", "CogTrace", "CogTraceFormat", "CogTraceStore", "CogCommandLine",
            ],
            swiftSettings: mainActorCode),
        .executableTarget(
            name: "weather", dependencies: ["WeatherScenarios", "CogCommandLine"], swiftSettings: mainActorCode),
        // Generated traces of any size, for tests and the bench alike.
        .target(name: "CogTraceFixtures", dependencies: ["CogTraceFormat"], swiftSettings: plainCode),
        // Benchmarks.
        .target(
            name: "CogBench",
            dependencies: [
                "Cog", "CogTestSupport", "CogTrace", "CogTraceFixtures", "CogTraceStore", "CogInspector",
                "CogInspectorExport",
                "CogCommandLine",
            ],
            swiftSettings: mainActorCode),
        // Counting allocation functions, linked into the bench's executable only.
        .target(name: "CAllocationCounter"),
        .executableTarget(
            name: "cog-bench", dependencies: ["CogBench", "CAllocationCounter", "CogCommandLine"],
            swiftSettings: mainActorCode),
        // Tests, one target per module.
        .testTarget(name: "CogTests", dependencies: ["Cog", "CogTesting"], swiftSettings: mainActorCode),
        .testTarget(
            name: "CogTestingTests",
            dependencies: [
                "CogTesting", "CogTestSupport", "Cog", "CogTrace", "CogTraceStore", "CogTraceFormat", "CCogTraceGuard",
            ],
            swiftSettings: mainActorCode),
        // A client of the runtime without MainActor default isolation, as apps may build.
        .testTarget(name: "CogClientTests", dependencies: ["Cog", "CogTesting", "CogTrace"], swiftSettings: plainCode),
        .testTarget(name: "CogTraceFormatTests", dependencies: ["CogTraceFormat"], swiftSettings: plainCode),
        .testTarget(
            name: "CogTraceStoreTests", dependencies: ["CogTraceStore", "CogTraceFormat"], swiftSettings: plainCode),
        .testTarget(
            name: "CogTraceTests", dependencies: ["CogTrace", "CogTraceFormat", "CogTraceStore", "Cog", "CogTesting"],
            swiftSettings: mainActorCode),
        .testTarget(
            name: "WeatherTests",
            dependencies: [
                "Weather", "WeatherScenarios", "Cog", "CogTesting", "CogTrace", "CogTraceStore", "CogCommandLine",
            ],
            swiftSettings: mainActorCode),
        .testTarget(
            name: "CogInspectorTests",
            dependencies: ["CogInspector", "CogInspectorExport", "CogTraceFormat", "CogTraceStore"],
            exclude: ["Fixtures"],
            swiftSettings: plainCode),
        .testTarget(
            name: "CogInspectorExportTests",
            dependencies: [
                "CogInspectorExport", "CogInspector", "CogTraceFixtures", "CogTraceFormat", "CogTraceStore",
            ],
            swiftSettings: plainCode),
        .testTarget(
            name: "coginspectTests", dependencies: ["CogTraceFixtures"], exclude: ["Fixtures"],
            swiftSettings: plainCode),
        .testTarget(
            name: "CogTraceFixturesTests", dependencies: ["CogTraceFixtures", "CogTraceFormat", "CogTraceStore"],
            swiftSettings: plainCode),
        .testTarget(
            name: "CogInspectFrontEndTests", dependencies: ["CogInspectFrontEnd", "CogCommandLine"],
            swiftSettings: plainCode),
        .testTarget(
            name: "CogBenchTests",
            dependencies: ["CogBench", "Cog", "CogTrace", "CogTraceFormat", "CogTraceStore", "CogCommandLine"],
            swiftSettings: mainActorCode),
    ],
    swiftLanguageModes: [.v6]
)
