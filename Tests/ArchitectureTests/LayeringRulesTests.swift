import Foundation
import Testing

/// The rules of docs/architecture.md that no compiler checks: no singletons or global mutable
/// state, no preference stores or broadcast notifications as data channels, no view model or
/// CLI reaching past its layer.
@Suite struct LayeringRulesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// (file path relative to the root, its lines) for every Swift file under `folder`.
    static func swiftFiles(under folder: String) -> [(String, [Substring])] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { item -> (String, [Substring])? in
            guard let url = item as? URL, url.pathExtension == "swift",
                  let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
            let relative = String(url.path.dropFirst(root.path.count + 1))
            return (relative, text.split(separator: "\n", omittingEmptySubsequences: false))
        }
    }

    /// Lines that are code (not comments) and match `pattern`.
    static func offending(_ pattern: String, under folder: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return swiftFiles(under: folder).flatMap { path, lines in
            lines.enumerated().compactMap { index, line -> String? in
                let code = String(line)
                if code.trimmingCharacters(in: .whitespaces).hasPrefix("//") { return nil }
                let range = NSRange(code.startIndex..., in: code)
                return regex.firstMatch(in: code, range: range) == nil ? nil : "\(path):\(index + 1): \(code)"
            }
        }
    }

    @Test func sourcesExist() {
        #expect(Self.swiftFiles(under: "Sources").count > 10)
    }

    @Test func noSingletons() {
        #expect(Self.offending(#"static\s+(let|var)\s+(shared|default|current|instance)\b"#, under: "Sources") == [])
    }

    @Test func noGlobalMutableState() {
        // A top-level `var` or a `static var` is state every caller shares without being handed it.
        #expect(Self.offending(#"^(public\s+|private\s+|fileprivate\s+|internal\s+)?(nonisolated\(unsafe\)\s+)?var\s"#, under: "Sources/CarnetModels") == [])
        for module in ["CarnetModels", "CarnetInterchange", "CarnetStorage", "CarnetSync", "CarnetState", "CarnetViewModels"] {
            #expect(Self.offending(#"static\s+var\s+\w+\s*(:[^{]*)?=|nonisolated\(unsafe\)"#, under: "Sources/\(module)") == [])
        }
    }

    @Test func noPreferenceStoresOrBroadcastNotifications() {
        #expect(Self.offending(#"UserDefaults|NotificationCenter"#, under: "Sources") == [])
    }

    @Test func viewModelsSeeOnlyStateAndModels() {
        let imports = Self.offending(#"^\s*(@testable\s+)?import\s+\w+"#, under: "Sources/CarnetViewModels")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter {
                !$0.hasSuffix("import CarnetModels") && !$0.hasSuffix("import CarnetState") && !$0.hasSuffix("import Observation")
                    && !$0.hasSuffix("import Foundation")  // dates and calendars (birthdays), a system module
            }
        #expect(imports == [])
    }

    /// The modules each of Sources/'s modules may import: its arrows in docs/architecture.md, and
    /// the system's. SwiftPM lets a target import any module of the package it reaches through
    /// its dependencies, and its import check skips every target above CarnetStorage (whose
    /// sources a plugin generates), so the arrows are checked here.
    static let allowedImports: [String: Set<String>] = [
        "CarnetModels": ["Foundation"],
        // The codecs: plain values in, text out; no storage, no state (the arrow
        // CarnetInterchange ──▶ CarnetModels of docs/architecture.md).
        "CarnetInterchange": ["CarnetModels", "Foundation"],
        // `import Carnet`, the layer an app embeds (the `Carnet` product): its modules, no sync.
        "Carnet": ["CarnetModels", "CarnetInterchange", "CarnetStorage", "CarnetState", "CarnetViewModels", "Observation"],
        "CarnetStorage": ["CarnetModels", "GRDB", "GRDBSQLite", "CSQLiteSession", "CSQLiteConfig", "Foundation"],
        // The CardDAV client: HTTP through libcurl loaded at run time (CCurl), XML read by its own
        // reader, reading and writing through the storage controller (the arrows CarnetSync ──▶
        // CarnetStorage, CarnetInterchange of docs/architecture.md). Not FoundationNetworking or
        // FoundationXML: linking either into `carnet` slows the start of every command.
        "CarnetSync": ["CarnetModels", "CarnetInterchange", "CarnetStorage", "CCurl", "Foundation"],
        "CarnetState": ["CarnetModels", "CarnetStorage", "Observation", "Foundation"],
        "CarnetViewModels": ["CarnetModels", "CarnetState", "Observation", "Foundation"],
        // CCurses: ncursesw for the full screen, loaded when it opens; Observation: the screen
        // redraws when what it read changes.
        "carnet": ["CarnetModels", "CarnetInterchange", "CarnetStorage", "CarnetSync", "CarnetState", "CarnetViewModels", "ArgumentParser", "CEditLine",
                   "CCurses", "Observation", "Yams", "Foundation", "Glibc", "Darwin"],
    ]

    /// The module every import declaration in `folder` names, with where: any attributes and
    /// access level (`@testable`, `@_exported`, `internal import`), and `import struct M.Name`.
    static func importedModules(under folder: String) -> [(module: String, at: String)] {
        let declaration = try! NSRegularExpression(
            pattern: #"^\s*(@\w+\s+)*((public|package|internal|fileprivate|private)\s+)?import\s+((typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)"#)
        return swiftFiles(under: folder).flatMap { path, lines in
            lines.enumerated().compactMap { index, line -> (String, String)? in
                let code = String(line)
                guard let match = declaration.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)),
                      let module = Range(match.range(at: 6), in: code) else { return nil }
                return (String(code[module]), "\(path):\(index + 1)")
            }
        }
    }

    @Test(arguments: allowedImports.keys.sorted())
    func importsFollowTheArrows(module: String) {
        let imports = Self.importedModules(under: "Sources/\(module)")
        #expect(!imports.isEmpty)
        let allowed = Self.allowedImports[module]!
        #expect(imports.filter { !allowed.contains($0.module) }.map { "\($0.at): import \($0.module)" } == [])
    }

    /// The `Carnet` product is what an app on iOS 17 or macOS 14 takes: its modules (read from
    /// Package.swift, so the list cannot drift) use nothing those systems lack or the sync
    /// needs — no `Synchronization` (`Mutex` needs macOS 15 and iOS 18), no `Process` (absent
    /// on iOS), no `dlopen` (the sync's libcurl), no `Glibc` — and none of them is the sync.
    @Test func theLayerProductHoldsNothingAnAppleAppLacks() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let product = try #require(manifest.firstMatch(of: #/\.library\(name: "Carnet", targets: \[([^\]]*)\]\)/#))
        let target = try #require(manifest.firstMatch(of: #/name: "Carnet",\s*dependencies: \[([^\]]*)\]/#))
        func names(_ list: Substring) -> [String] { list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } }
        let modules = names(product.1) + names(target.1)
        #expect(modules.sorted() == ["Carnet", "CarnetInterchange", "CarnetModels", "CarnetState", "CarnetStorage", "CarnetViewModels"])
        #expect(!modules.contains("CarnetSync") && !modules.contains("CCurl"))
        for module in modules {
            #expect(Self.offending(#"\bMutex\b|import\s+Synchronization|\bProcess\b|\bdlopen\b|\bGlibc\b"#, under: "Sources/\(module)") == [], "\(module)")
            #expect(!Self.importedModules(under: "Sources/\(module)").contains { ["CarnetSync", "CCurl"].contains($0.module) })
        }
        #expect(manifest.contains("platforms: [.macOS(.v14), .iOS(.v17)]"))
    }

    @Test func cliNeverTouchesGRDBOrSQL() {
        #expect(Self.offending(#"import\s+GRDB"#, under: "Sources/carnet") == [])
        #expect(Self.offending(#"\b(SELECT|INSERT|UPDATE|DELETE)\s+(\*|INTO|FROM|\w+\s+SET)\b"#, under: "Sources/carnet") == [])
        // The composition root is the one place that names the storage layer.
        let storageImports = Self.offending(#"import\s+CarnetStorage"#, under: "Sources/carnet")
        #expect(storageImports.count <= 1, "\(storageImports)")
    }

    @Test func cliCommandsGoThroughViewModels() {
        // A command hands the state controller to a view model and renders that; it never reads or
        // changes the state itself (the composition root only creates it).
        let direct = Self.offending(#"\bstate\.[a-zA-Z]"#, under: "Sources/carnet").filter { !$0.hasPrefix("Sources/carnet/Run.swift") }
        #expect(direct == [])
    }

    @Test func cliReachesTheProcessOnlyThroughItsConsole() {
        // Streams, terminals and the environment come in through the injected Console, so a
        // command runs the same in a test's process as in its own (main.swift makes the real one,
        // Arguments.swift reads argv).
        let allowed = ["Sources/carnet/Terminal/Console.swift", "Sources/carnet/main.swift", "Sources/carnet/Options/Arguments.swift"]
        let pattern = #"(?<![\w.])(?<!func )print\(|Swift\.print|FileHandle\.standard|(?<![\w.])readLine\(|fflush|isatty|ProcessInfo|STD(IN|OUT|ERR)_FILENO|CommandLine|getenv|\bexit\("#
        let direct = Self.offending(pattern, under: "Sources/carnet").filter { line in !allowed.contains { line.hasPrefix($0 + ":") } }
        #expect(direct == [])
    }

    @Test func sqlLivesOnlyInStorage() {
        for module in ["CarnetModels", "CarnetInterchange", "CarnetSync", "CarnetState", "CarnetViewModels"] {
            #expect(Self.offending(#"\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE TABLE)\b"#, under: "Sources/\(module)") == [])
        }
    }

    @Test func viewModelsHoldOtherScreensOnlyThroughDelegatesOrClosures() {
        // A stored property whose type is another screen's view model is a back-reference to a
        // concrete screen; only the coordinator (which owns navigation) may hold them.
        let screens = ["ContactsViewModel", "ContactDetailViewModel", "EditContactViewModel", "QuoteViewModel", "EditQuoteViewModel"]
        for (path, lines) in Self.swiftFiles(under: "Sources/CarnetViewModels") where !path.hasSuffix("AppCoordinator.swift") {
            for line in lines {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard code.range(of: #"^(public\s+|private\s+)?(private\(set\)\s+)?(weak\s+)?(let|var)\s+\w+\s*:"#, options: .regularExpression) != nil else { continue }
                for screen in screens where code.contains(": \(screen)") || code.contains(": \(screen)?") {
                    Issue.record("\(path): \(code)")
                }
            }
        }
    }
}

extension LayeringRulesTests {
    /// Rows are read by column name (GRDB records and their column enums), never by position:
    /// `row[3]` silently reads the wrong field once a SELECT's columns move.
    @Test func noRowIsDecodedByPosition() {
        #expect(Self.offending(#"\b(row|rows\[\w+\])\[[0-9]+\]|\$[0-9]\[[0-9]+\]|\.decode\([^)]*atIndex: [0-9]"#, under: "Sources") == [])
        // The rule sees what it is meant to see.
        let sample = "let name: String = row[2]"
        let regex = try! NSRegularExpression(pattern: #"\b(row|rows\[\w+\])\[[0-9]+\]"#)
        #expect(regex.firstMatch(in: sample, range: NSRange(sample.startIndex..., in: sample)) != nil)
    }
}

extension LayeringRulesTests {
    /// What every command's start, and a mail client's `carnet query`, runs. The first use of a
    /// dictionary or set keyed by an integer makes the runtime search every protocol conformance
    /// of the binary for `Int: Hashable`, a cost each start would pay: these files look up by a
    /// linear search or a walk in order instead.
    static let startPath = [
        "Sources/carnet/main.swift", "Sources/carnet/Run.swift", "Sources/carnet/Options/DatabaseLocation.swift",
        "Sources/carnet/Commands/Contacts/QueryCommand.swift", "Sources/CarnetStorage/StorageController.swift",
        "Sources/CarnetStorage/StorageController+MailQuery.swift", "Sources/CarnetStorage/StorageOptions.swift",
        "Sources/CarnetStorage/AppMigration.swift", "Sources/CarnetStorage/Internal/FileSetup.swift",
        "Sources/CarnetStorage/Internal/Migration.swift",
    ]

    @Test func theStartPathHasNoIntegerKeyedDictionaryOrSet() throws {
        let pattern = #"\[\s*(U?Int(8|16|32|64)?)\s*:|(Dictionary|Set)<\s*U?Int(8|16|32|64)?\b"#
        let regex = try NSRegularExpression(pattern: pattern)
        var offending: [String] = []
        for path in Self.startPath {
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line)
                if code.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
                if regex.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil {
                    offending.append("\(path):\(index + 1): \(code)")
                }
            }
        }
        #expect(offending == [])
        // The rule sees what it is meant to see.
        for sample in ["var byID: [Int64: String] = [:]", "let seen = Set<Int>()", "Dictionary<Int, Row>"] {
            #expect(regex.firstMatch(in: sample, range: NSRange(sample.startIndex..., in: sample)) != nil, "\(sample)")
        }
    }
}
