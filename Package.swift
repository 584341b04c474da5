// swift-tools-version:6.0
import PackageDescription

// One target per part, so the compiler enforces what may import what:
// the mapping language imports nothing, the JSON reader only its C block scans, the store is the
// only importer of SQLite (GraphImportPostgres the only importer of libpq),
// the engine is the only part that knows all three.
let package = Package(
    name: "graphimport",
    products: [
        .library(name: "GraphImport", targets: ["GraphImport"]),
        .executable(name: "graphimport", targets: ["graphimport"]),
        // The command line as a library: Fuzz/ checks its argument parsing (GraphImportCommand.checkArguments).
        .library(name: "GraphImportCLI", targets: ["GraphImportCLI"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "GraphImportMapping"),
        // String scans of the JSON reader in 16-byte blocks (SSE2), inlined into GraphImportJSON.
        .target(name: "CJSONBlocks"),
        .target(name: "GraphImportJSON", dependencies: ["CJSONBlocks"]),
        .target(name: "GraphImportStore", dependencies: ["CSQLite"]),
        // The PostgreSQL store: the only importer of libpq. Table descriptions come from GraphImportStore.
        // libpq's headers come through CLibPQ; the library itself is opened by CLibPQLoader on the
        // first use of a PostgreSQL store, so that SQLite runs never load it.
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", providers: [.apt(["libpq-dev"])]),
        .target(name: "CLibPQLoader", exclude: ["make-trampolines.py"], linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "GraphImportPostgres", dependencies: ["CLibPQ", "CLibPQLoader", "GraphImportStore"]),
        // SHA-256 blocks on the CPU's SHA instructions, for GraphImport's input fingerprints.
        .target(name: "CSHA256"),
        .target(name: "GraphImport", dependencies: ["GraphImportMapping", "GraphImportJSON", "GraphImportStore", "GraphImportPostgres", "CSHA256"]),
        .target(
            name: "GraphImportCLI", dependencies: ["GraphImport", "GraphImportMapping", "GraphImportJSON", "GraphImportStore", "GraphImportPostgres"]),
        .executableTarget(name: "graphimport", dependencies: ["GraphImportCLI"]),
        .executableTarget(
            name: "hooks-example", dependencies: ["GraphImport", "GraphImportMapping", "GraphImportJSON", "GraphImportStore"],
            path: "Samples/HooksExample"),
        .executableTarget(name: "read-example", dependencies: ["GraphImport", "GraphImportJSON"], path: "Samples/ReadExample"),
        .target(name: "GraphImportTestSupport", path: "Tests/GraphImportTestSupport"),
        // A store of either kind for tests that must hold for SQLite and PostgreSQL alike.
        .target(
            name: "GraphImportStoreTestSupport",
            dependencies: ["GraphImport", "GraphImportJSON", "GraphImportPostgres", "GraphImportStore", "GraphImportTestSupport"],
            path: "Tests/GraphImportStoreTestSupport"),
        .testTarget(name: "GraphImportMappingTests", dependencies: ["GraphImportMapping", "GraphImportTestSupport"]),
        .testTarget(name: "GraphImportJSONTests", dependencies: ["GraphImportJSON", "GraphImportTestSupport"]),
        .testTarget(name: "GraphImportStoreTests", dependencies: ["GraphImportStore", "GraphImportTestSupport"]),
        .testTarget(name: "GraphImportTests", dependencies: ["GraphImport", "GraphImportTestSupport", "GraphImportStoreTestSupport"]),
        .testTarget(
            name: "GraphImportPostgresTests",
            dependencies: ["GraphImportPostgres", "GraphImport", "GraphImportStore", "GraphImportTestSupport", "GraphImportStoreTestSupport"]),
        .testTarget(
            name: "GraphImportCLITests",
            dependencies: [
                "GraphImportCLI", "graphimport", "hooks-example", "read-example", "GraphImportStore", "GraphImportPostgres",
                "GraphImportTestSupport", "GraphImportStoreTestSupport",
            ]),
    ]
)
