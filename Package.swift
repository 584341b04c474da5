// swift-tools-version:6.0
import PackageDescription

// One target per part, so the compiler enforces what may import what:
// the mapping language and the store-neutral schema import nothing, the JSON reader only its
// C block scans, GraphImportStore is the only importer of SQLite and GraphImportPostgres the only
// importer of libpq (neither imports the other), the engine is the only part that knows them all.
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
        // What both stores speak: table descriptions, values, the migration planner, run records,
        // metadata values, the read seam. Neither store owns it.
        .target(name: "GraphImportSchema"),
        .target(name: "GraphImportStore", dependencies: ["CSQLite", "GraphImportSchema"]),
        // The PostgreSQL store: the only importer of libpq. Table descriptions come from GraphImportSchema.
        // libpq's headers come through CLibPQ; the library itself is opened by CLibPQLoader on the
        // first use of a PostgreSQL store, so that SQLite runs never load it.
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", providers: [.apt(["libpq-dev"])]),
        .target(name: "CLibPQLoader", exclude: ["make-trampolines.py"], linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "GraphImportPostgres", dependencies: ["CLibPQ", "CLibPQLoader", "GraphImportSchema"]),
        // SHA-256 blocks on the CPU's SHA instructions, for GraphImport's input fingerprints.
        .target(name: "CSHA256"),
        .target(
            name: "GraphImport",
            dependencies: ["GraphImportMapping", "GraphImportJSON", "GraphImportSchema", "GraphImportStore", "GraphImportPostgres", "CSHA256"]),
        .target(
            name: "GraphImportCLI",
            dependencies: ["GraphImport", "GraphImportMapping", "GraphImportJSON", "GraphImportSchema", "GraphImportStore", "GraphImportPostgres"]),
        .executableTarget(name: "graphimport", dependencies: ["GraphImportCLI"]),
        .executableTarget(
            name: "hooks-example", dependencies: ["GraphImport"],
            path: "Samples/HooksExample"),
        .executableTarget(name: "read-example", dependencies: ["GraphImport"], path: "Samples/ReadExample"),
        .target(name: "GraphImportTestSupport", path: "Tests/GraphImportTestSupport"),
        // A store of either kind for tests that must hold for SQLite and PostgreSQL alike.
        .target(
            name: "GraphImportStoreTestSupport",
            dependencies: ["GraphImport", "GraphImportJSON", "GraphImportPostgres", "GraphImportSchema", "GraphImportStore", "GraphImportTestSupport"],
            path: "Tests/GraphImportStoreTestSupport"),
        .testTarget(name: "GraphImportMappingTests", dependencies: ["GraphImportMapping", "GraphImportTestSupport"]),
        .testTarget(name: "GraphImportJSONTests", dependencies: ["GraphImportJSON", "GraphImportTestSupport"]),
        .testTarget(name: "GraphImportSchemaTests", dependencies: ["GraphImportSchema"]),
        .testTarget(name: "GraphImportStoreTests", dependencies: ["GraphImportSchema", "GraphImportStore", "GraphImportTestSupport"]),
        .testTarget(
            name: "GraphImportTests",
            dependencies: ["GraphImport", "GraphImportSchema", "GraphImportStore", "GraphImportTestSupport", "GraphImportStoreTestSupport"]),
        .testTarget(
            name: "GraphImportPostgresTests",
            dependencies: [
                "GraphImportPostgres", "GraphImport", "GraphImportSchema", "GraphImportStore", "GraphImportTestSupport", "GraphImportStoreTestSupport",
            ]),
        .testTarget(
            name: "GraphImportCLITests",
            dependencies: [
                "GraphImportCLI", "graphimport", "hooks-example", "read-example", "GraphImportSchema", "GraphImportStore", "GraphImportPostgres",
                "GraphImportTestSupport", "GraphImportStoreTestSupport",
            ]),
    ]
)
