// swift-tools-version: 6.1
import PackageDescription

// The arrows of docs/architecture.md, enforced by target dependencies: a module can only
// import what it lists here, so a view model cannot reach GRDB or the storage controller.
let package = Package(
    name: "Carnet",
    // What an app built today targets; nothing in the library needs more (Observation needs
    // these, Synchronization's Mutex would need macOS 15 and iOS 18). Built and tested here on
    // Linux only: docs/embedding.md says what that leaves unchecked.
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        // The layer alone, as `import Carnet`: no process, no dlopen, nothing iOS lacks.
        .library(name: "Carnet", targets: ["Carnet"]),
        // The CardDAV sync: it runs a password command (`Process`) and loads libcurl at run time.
        .library(name: "CarnetSync", targets: ["CarnetSync"]),
        .executable(name: "carnet", targets: ["carnet"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        // YAML for `carnet edit --editor`: a real parser, so quoting, block scalars and errors
        // with line numbers are what people who edit YAML (khard's templates) expect.
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
    ],
    targets: [
        // `import Carnet`: re-exports the layer's modules (the `Carnet` product). Tests/
        // ArchitectureTests holds what it reaches free of the sync and of what iOS lacks.
        .target(
            name: "Carnet",
            dependencies: ["CarnetModels", "CarnetInterchange", "CarnetStorage", "CarnetState", "CarnetViewModels"]),

        // Plain values and their validation; no I/O.
        .target(name: "CarnetModels"),

        // vCard 2.1/3.0/4.0, the CSV dialects, JSON and vdir naming: readers and writers of
        // streams, no I/O of their own. Storage and state never need it; the CLI does.
        .target(name: "CarnetInterchange", dependencies: ["CarnetModels"]),

        // The only code that speaks SQL. migrations/*.sql is compiled into this module by
        // the EmbedMigrations plugin, so a copied `carnet` binary needs no files beside it.
        .target(
            name: "CarnetStorage",
            dependencies: [
                "CarnetModels", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),  // one file-control call, see StorageOptions.Connections
                "CSQLiteSession",
                "CSQLiteConfig",  // Carnet's connections run without triggers: it keeps the search index itself
            ],
            plugins: ["EmbedMigrations"]),
        // SQLite's session extension (compiled into the system libsqlite3, hidden by GRDB's
        // header): the history records each write's changes as a changeset in its transaction.
        .target(name: "CSQLiteSession", linkerSettings: [.linkedLibrary("sqlite3")]),
        // sqlite3_db_config (variadic, so not callable from Swift) for the one setting Carnet changes.
        .systemLibrary(name: "CSQLiteConfig", providers: [.apt(["libsqlite3-dev"])]),

        // The CardDAV client: HTTP through the system's libcurl, loaded only when a sync runs
        // (CCurl), and a small XML reader of its own; it reads and writes through the storage
        // controller, with history. Not Foundation's URLSession and XMLParser: linking them
        // maps libcurl, libxml2 and their forty libraries at every start of every command.
        .target(name: "CCurl"),
        .target(name: "CarnetSync", dependencies: ["CarnetModels", "CarnetInterchange", "CarnetStorage", "CCurl"]),

        // The shared, observable app state of one process.
        .target(name: "CarnetState", dependencies: ["CarnetModels", "CarnetStorage"]),

        // One view model per screen, plus the coordinator. No storage, no GRDB.
        .target(name: "CarnetViewModels", dependencies: ["CarnetModels", "CarnetState"]),

        // The CLI. It imports CarnetStorage only at the composition root, to open the file.
        .executableTarget(
            name: "carnet",
            dependencies: [
                "CarnetModels", "CarnetInterchange", "CarnetStorage", "CarnetSync", "CarnetState", "CarnetViewModels", "CEditLine", "CCurses",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ],
            // The field flags are written from the field description at build time.
            plugins: ["GenerateFieldOptions"]),
        // ncursesw for the full-screen interface, loaded when the screen opens (see its header).
        .target(name: "CCurses"),
        // BSD libedit, for line editing in `carnet interactive` on a terminal (`make deps`).
        .systemLibrary(name: "CEditLine", providers: [.apt(["libedit-dev"])]),

        // One seeded generator for the benchmark, the stress tool and generated-input tests.
        .target(name: "SeededRandom", path: "Support/SeededRandom"),
        // The programs the tests start, found on PATH; the tests that need a missing one skipped.
        .target(name: "TestTools", path: "Support/TestTools"),
        // The `.needs("radicale")` trait of the test targets (Swift Testing: kept out of the
        // benchmark, which uses the servers too).
        .target(name: "TestNeeds", dependencies: ["TestTools"], path: "Support/TestNeeds"),
        // Temp directories and helpers the test targets share.
        .target(name: "CarnetTestSupport", dependencies: ["CarnetModels", "TestTools"], path: "Support/CarnetTestSupport"),
        // Real CardDAV servers on loopback for the sync tests and the benchmark (`make deps`):
        // Radicale, and Xandikos as the second server, behind one protocol the fixtures use.
        .target(name: "DAVTestServer", dependencies: ["TestTools"], path: "Support/DAVTestServer"),
        .target(name: "RadicaleServer", dependencies: ["DAVTestServer", "TestTools"], path: "Support/RadicaleServer"),
        .target(name: "XandikosServer", dependencies: ["DAVTestServer", "TestTools"], path: "Support/XandikosServer"),
        // The one scripted CardDAV server, behind the same protocol: it answers as a real
        // server's quirk does where no server installed here shows that quirk (see its header).
        .target(name: "ScriptedDAVServer", dependencies: ["DAVTestServer", "TestTools"], path: "Support/ScriptedDAVServer"),

        // `make bench`: Carnet's layers against the raw SQLite C API in the same run.
        .executableTarget(
            name: "CarnetBenchmarks",
            dependencies: [
                "CarnetModels", "CarnetStorage", "CarnetState", "CarnetViewModels", "SeededRandom", "CSQLiteConfig",
                "CarnetInterchange", "CarnetSync", "RadicaleServer", "CarnetTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/CarnetBenchmarks"),
        // `make stress`: SIGKILLed writers and concurrent processes against one file.
        .executableTarget(
            name: "carnet-stress",
            dependencies: [
                "SeededRandom", "CarnetModels", "CarnetStorage", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Stress"),
        // The startup floor `carnet quote` is compared with: a Swift "hello, world".
        .executableTarget(name: "Hello", path: "Benchmarks/Hello"),

        .executableTarget(name: "EmbedMigrationsTool", path: "BuildTools/EmbedMigrationsTool"),
        // Reads ContactFields.all and writes one CLI option per field (`FieldFlags`).
        .executableTarget(name: "FieldOptionsTool", dependencies: ["CarnetModels"], path: "BuildTools/FieldOptionsTool"),
        .plugin(
            name: "GenerateFieldOptions",
            capability: .buildTool(),
            dependencies: ["FieldOptionsTool"]),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["EmbedMigrationsTool"]),

        .testTarget(name: "CarnetModelsTests", dependencies: ["CarnetModels", "SeededRandom", "CarnetTestSupport", "TestNeeds"]),
        // The codecs, and the corpus of real exports in Tests/Fixtures/RealExports.
        .testTarget(name: "CarnetInterchangeTests", dependencies: ["CarnetModels", "CarnetInterchange", "CarnetTestSupport", "TestNeeds"]),
        .testTarget(
            name: "CarnetStorageTests",
            dependencies: [
                "CarnetModels", "CarnetStorage", "SeededRandom", "CarnetTestSupport", "TestNeeds", .product(name: "GRDB", package: "GRDB.swift"),
                // The importers' fuzz test feeds what the readers make to the storage controller.
                "CarnetInterchange",
            ]),
        // Sync against a real Radicale and a real Xandikos started by each test (no mock server).
        .testTarget(
            name: "CarnetSyncTests",
            dependencies: [
                "CarnetModels", "CarnetInterchange", "CarnetStorage", "CarnetSync", "CarnetTestSupport", "DAVTestServer", "RadicaleServer",
                "XandikosServer", "ScriptedDAVServer", "TestNeeds",
            ]),
        .testTarget(name: "CarnetStateTests", dependencies: ["CarnetModels", "CarnetStorage", "CarnetState", "CarnetTestSupport", "TestNeeds"]),
        // Depends on `carnet` so that the live screens' test can run it as another process.
        .testTarget(
            name: "CarnetViewModelsTests",
            dependencies: ["CarnetModels", "CarnetStorage", "CarnetState", "CarnetViewModels", "CarnetTestSupport", "TestNeeds", "carnet"]),
        // Runs the built `carnet` binary as a person would (it depends on it so it is built first).
        .testTarget(
            name: "CLITests",
            dependencies: ["carnet", "RadicaleServer", "CarnetModels", "CarnetStorage", "CarnetState", "CarnetViewModels", "TestNeeds"],
            exclude: ["Golden"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["carnet", "carnet-stress", "TestNeeds"]),
        // Reads Sources/ as text: the design's rules that the compiler cannot see.
        .testTarget(name: "ArchitectureTests"),
    ]
)

// `make docs`: the DocC catalogs of the library modules. The plugin is a dependency only then, so
// the build and the tests neither fetch nor resolve it.
if Context.environment["CARNET_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
