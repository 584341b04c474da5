// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for graphimport's parsers of untrusted text and of its command line. A package of its own so that
// `swift build` / `swift test` at the root never build them: they link only with -sanitize=fuzzer.
// Build and run them with `Fuzz/run` (see README.md).
let package = Package(
    name: "graphimport-fuzz",
    products: [
        .executable(name: "FuzzJSON", targets: ["FuzzJSON"]),
        .executable(name: "FuzzMap", targets: ["FuzzMap"]),
        .executable(name: "FuzzArguments", targets: ["FuzzArguments"]),
    ],
    dependencies: [
        .package(name: "graphimport", path: "..")
    ],
    targets: [
        // Declares libFuzzer's driver; the library itself comes with -sanitize=fuzzer.
        .systemLibrary(name: "CLibFuzzer", path: "Sources/CLibFuzzer"),
        .executableTarget(name: "FuzzJSON", dependencies: ["CLibFuzzer", .product(name: "GraphImport", package: "graphimport")]),
        .executableTarget(name: "FuzzMap", dependencies: ["CLibFuzzer", .product(name: "GraphImport", package: "graphimport")]),
        .executableTarget(name: "FuzzArguments", dependencies: ["CLibFuzzer", .product(name: "GraphImportCLI", package: "graphimport")]),
    ]
)
