// swift-tools-version: 6.2
import PackageDescription

// A client of Cog as an app would write it: the runtime from this repository (two folders up),
// its state in the `TipJar` target, and tests that record a trace when they fail.
let package = Package(
    name: "TipJar",
    dependencies: [.package(name: "CogInspector", path: "../..")],
    targets: [
        .target(
            name: "TipJar", dependencies: [.product(name: "Cog", package: "CogInspector")],
            swiftSettings: [.defaultIsolation(MainActor.self)]),
        .testTarget(
            name: "TipJarTests",
            dependencies: ["TipJar", .product(name: "CogTesting", package: "CogInspector")],
            swiftSettings: [.defaultIsolation(MainActor.self)]),
    ]
)
