// swift-tools-version: 6.2
import PackageDescription

// A client of Cog whose tests know nothing of recording: no trait, no base class, only
// `Cogs.forTesting()`. `COG_TRACE=failures swift test` records its failing tests all the same.
let package = Package(
    name: "Checkout",
    dependencies: [.package(name: "CogInspector", path: "../..")],
    targets: [
        .target(
            name: "Checkout", dependencies: [.product(name: "Cog", package: "CogInspector")],
            swiftSettings: [.defaultIsolation(MainActor.self)]),
        .testTarget(
            name: "CheckoutTests",
            dependencies: ["Checkout", .product(name: "CogTesting", package: "CogInspector")],
            swiftSettings: [.defaultIsolation(MainActor.self)]),
    ]
)
