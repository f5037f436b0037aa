// swift-tools-version: 6.2
import PackageDescription

/// Library targets run on the MainActor by default, as the Cog documents describe.
let libraryIsolation: [SwiftSetting] = [
    .defaultIsolation(MainActor.self),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

let package = Package(
    name: "CogInspector",
    products: [
        .library(name: "Cog", targets: ["Cog"]),
        .library(name: "CogTesting", targets: ["CogTesting"]),
        .library(name: "CogTrace", targets: ["CogTrace"]),
        .library(name: "CogInspector", targets: ["CogInspector"]),
        .executable(name: "coginspect", targets: ["coginspect"]),
        .executable(name: "cog-bench", targets: ["cog-bench"]),
        .executable(name: "weather", targets: ["weather"]),
        .library(name: "Weather", targets: ["Weather"]),
    ],
    targets: [
        .target(name: "Cog", swiftSettings: libraryIsolation),
        .target(name: "CogTesting", dependencies: ["Cog", "CogTrace"], swiftSettings: libraryIsolation),
        .target(name: "CogTrace", dependencies: ["Cog"], swiftSettings: libraryIsolation),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "CogInspector", dependencies: ["CogTrace", "CSQLite"], swiftSettings: libraryIsolation),
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        .executableTarget(name: "coginspect", dependencies: ["CogInspector", "CogTrace", "CReadline"],
                          swiftSettings: libraryIsolation),
        .target(name: "Weather", dependencies: ["Cog"], swiftSettings: libraryIsolation),
        .executableTarget(
            name: "weather", dependencies: ["Weather", "Cog", "CogTesting", "CogTrace"], swiftSettings: libraryIsolation),
        .executableTarget(
            name: "cog-bench", dependencies: ["Cog", "CogTrace", "CogInspector"], swiftSettings: libraryIsolation),
        .testTarget(name: "CogTests", dependencies: ["Cog", "CogTesting"], swiftSettings: libraryIsolation),
        .testTarget(name: "CogTestingTests", dependencies: ["CogTesting", "CogTrace"], swiftSettings: libraryIsolation),
        .testTarget(name: "CogTraceTests", dependencies: ["CogTrace", "Cog", "CogTesting"], swiftSettings: libraryIsolation),
        .testTarget(
            name: "WeatherTests", dependencies: ["Weather", "weather", "Cog", "CogTesting", "CogTrace"],
            swiftSettings: libraryIsolation),
        .testTarget(
            name: "CogInspectorTests", dependencies: ["CogInspector", "CogTrace"], exclude: ["Fixtures"],
            swiftSettings: libraryIsolation),
        .testTarget(
            name: "coginspectTests", dependencies: ["coginspect"], exclude: ["Fixtures"], swiftSettings: libraryIsolation),
        .testTarget(name: "CogBenchTests", dependencies: ["cog-bench", "Cog"], swiftSettings: libraryIsolation),
    ],
    swiftLanguageModes: [.v6]
)
