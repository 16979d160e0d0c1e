// swift-tools-version: 6.1
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder (in your project that is whatever you called
// your Carnet checkout, e.g. "carnet"); this example lives inside that folder, two levels down.
let carnet = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()

// A separate program that embeds Carnet the way any Swift program would: by depending on the
// package and using only its public API. `make test` builds and runs it, so it cannot rot.
let package = Package(
    name: "EmbedCarnet",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(path: carnet.path),
    ],
    targets: [
        .executableTarget(
            name: "EmbedCarnet",
            dependencies: [.product(name: "Carnet", package: carnet.lastPathComponent)]),
    ]
)
