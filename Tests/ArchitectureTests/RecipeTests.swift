import Foundation
import Testing

/// The recipes of docs/architecture.md and the map of docs/files.md name files and symbols; a
/// rename leaves them naming what is gone. Every path they give in backticks exists, and every
/// symbol they give in backticks is declared in Sources/, Support/ or Tests/: a type
/// (`StorageController`), a member of it (`ContactFields.all`, `SearchIndex.add(_:id:_:)`,
/// `StorageController(path:options:migrations:)`) with its argument labels when they are given,
/// or a function (`runCarnet(arguments:terminal:)`). Other backticked text (a command line,
/// SQL, a field's key) is prose and is not read. And the storage controller's DocC page files
/// every public member of it under a topic.
@Suite struct RecipeTests {
    static let root = LayeringRulesTests.root
    static let pages = ["docs/architecture.md", "docs/files.md"]
    /// Where a path a page gives may start.
    static let pathRoots: Set<String> = [
        "Sources", "Support", "Tests", "migrations", "Plugins", "docs", "Scripts", "BuildTools", "Examples", "Benchmarks", "Stress",
    ]
    /// Names the pages use that come from the packages Carnet depends on (or that a rule keeps
    /// out of its code), not from its code.
    static let external: Set<String> = ["ParsableCommand", "ParsableArguments", "UserDefaults", "NotificationCenter"]
    /// Words a page may put in backticks that look like a call.
    static let keywords: Set<String> = ["throws", "rethrows", "try", "some", "any"]

    /// One backticked token of a page, and where it is.
    struct Mention: CustomStringConvertible {
        let page: String
        let line: Int
        let token: String
        var description: String { "\(page):\(line): `\(token)`" }
    }

    /// The backticked tokens of `page`, outside fenced code blocks.
    static func mentions(in page: String) throws -> [Mention] {
        let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        var found: [Mention] = []
        var fenced = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            if fenced { continue }
            let parts = line.split(separator: "`", omittingEmptySubsequences: false)
            for (i, part) in parts.enumerated() where i % 2 == 1 && i < parts.count - 1 {
                found.append(Mention(page: page, line: index + 1, token: String(part)))
            }
        }
        return found
    }

    // MARK: What the code declares

    /// Every Swift file of Sources/, Support/ and Tests/ with its comment lines blanked out, and
    /// of BuildTools/, whose generators write the declarations of types the build makes
    /// (`FieldFlags`).
    static let code: [(path: String, text: String)] = ["Sources", "Support", "Tests", "BuildTools"].flatMap { folder in
        LayeringRulesTests.swiftFiles(under: folder).map { path, lines in
            (path, lines.map { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? "" : String($0) }.joined(separator: "\n"))
        }
    }

    /// The files that declare or extend each type, by its name (and a nested type by its last name too).
    static let typeFiles: [String: Set<String>] = {
        var files: [String: Set<String>] = [:]
        let regex = try! NSRegularExpression(pattern: #"\b(?:class|struct|enum|protocol|actor|typealias|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)"#)
        for (path, text) in code {
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let name = String(text[Range(match.range(at: 1), in: text)!])
                files[name, default: []].insert(path)
                if let last = name.split(separator: ".").last { files[String(last), default: []].insert(path) }
            }
        }
        return files
    }()

    /// The names of the repository's files and folders (not .build's, not .git's).
    static let fileNames: Set<String> = {
        var names: Set<String> = []
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return names }
        while let item = walker.nextObject() as? String {
            if item == ".build" || item == ".git" || item.hasPrefix(".build/") || item.hasPrefix(".git/") {
                walker.skipDescendants()
                continue
            }
            names.insert((item as NSString).lastPathComponent)
        }
        return names
    }()

    /// The modules and folders: a folder's name (a target's, a family of commands'), and what
    /// the code imports.
    static let modules: Set<String> = {
        var names = fileNames.filter { !$0.contains(".") }
        let regex = try! NSRegularExpression(pattern: #"^\s*(?:@testable\s+|@_exported\s+)?import\s+([A-Za-z_][A-Za-z0-9_]*)"#, options: .anchorsMatchLines)
        for (_, text) in code {
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        return names
    }()

    static func text(of path: String) -> String { code.first { $0.path == path }?.text ?? "" }

    /// The parameters of every declaration of `name` (`init` for an initializer) in `files`:
    /// each one's argument label and whether it has a default value.
    static func signatures(of name: String, in files: [String]) -> [[(label: String, defaulted: Bool)]] {
        let head = name == "init" ? #"\binit[?!]?"# : #"\b(?:func|case)\s+"# + NSRegularExpression.escapedPattern(for: name)
        let regex = try! NSRegularExpression(pattern: head + #"\s*(?:<[^>{]*>)?\s*\("#)
        var found: [[(label: String, defaulted: Bool)]] = []
        for path in files {
            let text = Self.text(of: path)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let open = Range(match.range, in: text)!.upperBound
                found.append(parameters(text[open...]))
            }
        }
        return found
    }

    /// The parameters of a declaration, from just after its `(` to the matching `)`.
    static func parameters(_ text: Substring) -> [(label: String, defaulted: Bool)] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        var quoted = false
        var previous: Character = " "
        for character in text {
            defer { previous = character }
            if quoted {
                if character == "\"" { quoted = false }
                current.append(character)
                continue
            }
            switch character {
            case "\"": quoted = true
            case "(", "[", "<", "{": depth += 1
            case ")" where depth == 0:
                if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { parts.append(current) }
                return parts.map { part in
                    let label = part.split(separator: ":", maxSplits: 1).first?.split(whereSeparator: \.isWhitespace).first ?? ""
                    let type = part.split(separator: ":", maxSplits: 1).dropFirst().first ?? ""
                    return (String(label), type.replacingOccurrences(of: "->", with: "").contains("="))
                }
            case ">" where previous == "-": break  // a function type's arrow
            case ")", "]", ">", "}": depth -= 1
            case "," where depth == 0:
                parts.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        return []
    }

    /// Whether a call with `labels` fits a declaration: the labels in order, every parameter
    /// left out having a default value.
    static func fits(_ labels: [String], _ declared: [(label: String, defaulted: Bool)]) -> Bool {
        var given = labels[...]
        for parameter in declared {
            if given.first == parameter.label {
                given = given.dropFirst()
            } else if !parameter.defaulted {
                return false
            }
        }
        return given.isEmpty
    }

    /// Whether `member` is declared in `files`: a property, a function, a case, a nested type.
    static func declares(_ member: String, in files: [String]) -> Bool {
        if member == "init" || member == "init?" { return !signatures(of: "init", in: files).isEmpty }
        let name = NSRegularExpression.escapedPattern(for: member)
        let regex = try! NSRegularExpression(pattern: #"\b(?:func|var|let|class|struct|enum|protocol|typealias)\s+"# + name + #"\b|\bcase\s+(?:\w+(?:\([^)]*\))?\s*,\s*)*"# + name + #"\b"#)
        return files.contains { path in
            let text = Self.text(of: path)
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
    }

    static func appears(_ word: String) -> Bool {
        let regex = try! NSRegularExpression(pattern: #"\b"# + NSRegularExpression.escapedPattern(for: word) + #"\b"#)
        return code.contains { regex.firstMatch(in: $0.text, range: NSRange($0.text.startIndex..., in: $0.text)) != nil }
    }

    // MARK: Reading a token

    static let symbol = try! NSRegularExpression(pattern: #"^([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*\??)*)(?:\((.*)\))?$"#)

    /// What is wrong with what `token` names, or nil when it exists (or is not a path or a symbol).
    static func problem(with token: String) -> String? {
        if token.isEmpty || token.contains(where: \.isWhitespace) || token.contains("…") || token.contains("*") || token.contains("NN") {
            return nil
        }
        if let first = token.split(separator: "/").first, token.contains("/"), pathRoots.contains(String(first)) {
            return FileManager.default.fileExists(atPath: root.appendingPathComponent(token).path) ? nil : "no such file or folder"
        }
        // A file by its name alone: `SOURCES.md`.
        if token.first!.isUppercase, token.range(of: #"^[A-Za-z0-9_+-]+\.(md|swift|sql|py|sh)$"#, options: .regularExpression) != nil {
            return fileNames.contains(token) ? nil : "no file of that name in the repository"
        }
        // `DraftEditor<Record>` names DraftEditor.
        let plain = token.replacingOccurrences(of: #"<[^<>]*>"#, with: "", options: .regularExpression)
        guard let match = symbol.firstMatch(in: plain, range: NSRange(plain.startIndex..., in: plain)) else { return nil }
        func group(_ i: Int) -> String? { Range(match.range(at: i), in: plain).map { String(plain[$0]) } }
        let head = group(1)!
        let members = (group(2) ?? "").split(separator: ".").map(String.init)
        let arguments = group(3)
        // `(path:options:)` is a list of labels; `(RecordConflict)` or `(.reload)` is prose about one.
        let labels: [String]? = arguments.flatMap { text in
            text.isEmpty ? [] : text.range(of: #"^(?:[A-Za-z_][A-Za-z0-9_]*:)+$"#, options: .regularExpression) != nil
                ? text.split(separator: ":").map(String.init) : nil
        }

        guard head.first!.isUppercase else {
            // A function by itself: `runCarnet(arguments:terminal:)`, `save()`.
            guard members.isEmpty, arguments != nil, !keywords.contains(head) else { return nil }
            let files = code.map(\.path)
            let declared = signatures(of: head, in: files)
            if declared.isEmpty { return "no func or case \(head) in Sources/, Support/ or Tests/" }
            if let labels, !declared.contains(where: { fits(labels, $0) }) { return "no func \(head) takes (\(labels.map { $0 + ":" }.joined()))" }
            return nil
        }
        guard let files = typeFiles[head].map({ Array($0).sorted() }) else {
            if members.isEmpty && arguments == nil && (modules.contains(head) || external.contains(head)) { return nil }
            return "no type \(head) is declared in Sources/, Support/ or Tests/"
        }
        guard let member = members.first else {
            // `StateController(storage:)`: an initializer.
            if let labels, !signatures(of: "init", in: files).contains(where: { fits(labels, $0) }) {
                return "no init of \(head) takes (\(labels.map { $0 + ":" }.joined()))"
            }
            return nil
        }
        guard declares(member, in: files) else { return "\(head) has no member \(member) (looked in \(files.joined(separator: ", ")))" }
        if members.count == 1, let labels {
            let name = member.hasPrefix("init") ? "init" : member
            if !signatures(of: name, in: files).contains(where: { fits(labels, $0) }) {
                return "no \(head).\(member) takes (\(labels.map { $0 + ":" }.joined()))"
            }
        }
        for deeper in members.dropFirst() where !appears(deeper.replacingOccurrences(of: "?", with: "")) {
            return "\(deeper) appears nowhere in Sources/, Support/ or Tests/"
        }
        return nil
    }

    // MARK: Tests

    @Test func everyPathAndSymbolTheRecipesNameExists() throws {
        let mentions = try Self.pages.flatMap(Self.mentions(in:))
        #expect(mentions.count > 200, "the pages lost their backticks, or the reading did")
        for mention in mentions {
            if let problem = Self.problem(with: mention.token) {
                Issue.record("\(mention): \(problem)")
            }
        }
    }

    /// The reading itself: what it takes as a symbol, and what it lets pass as prose.
    @Test func theReadingIsStrictAboutSymbolsAndLeavesProseAlone() {
        #expect(Self.problem(with: "Sources/NoSuchModule/File.swift") != nil)
        #expect(Self.problem(with: "NoSuchTypeAnywhere") != nil)
        #expect(Self.problem(with: "StorageController.noSuchMember") != nil)
        #expect(Self.problem(with: "StorageController.moveContact(id:toBook:)") == nil)
        #expect(Self.problem(with: "StorageController.moveContact(id:to:)") != nil)
        #expect(Self.problem(with: "StateController(storage:)") == nil)
        #expect(Self.problem(with: "runCarnet(arguments:terminal:)") == nil)
        #expect(Self.problem(with: "runCarnet(arguments:)") != nil)
        #expect(Self.problem(with: "carnet sync status") == nil)
        #expect(Self.problem(with: "migrations/00NN_what.sql") == nil)
        #expect(Self.problem(with: "version") == nil)
    }

    // MARK: The storage controller's topics

    /// `text` with its comments and string literals blanked (line breaks kept), so the braces and
    /// parentheses left are the code's.
    static func codeOnly(_ text: String) -> String {
        let chars = Array(text)
        var out = ""
        var i = 0
        func blank(to end: Int) {
            for c in chars[i..<min(end, chars.count)] { out.append(c == "\n" ? "\n" : " ") }
            i = min(end, chars.count)
        }
        func find(_ what: String, from start: Int) -> Int {
            let needle = Array(what)
            var j = start
            while j + needle.count <= chars.count {
                if Array(chars[j..<(j + needle.count)]) == needle { return j + needle.count }
                j += 1
            }
            return chars.count
        }
        while i < chars.count {
            let c = chars[i], next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            if c == "/" && next == "/" {
                blank(to: find("\n", from: i) - 1)
            } else if c == "/" && next == "*" {
                blank(to: find("*/", from: i + 2))
            } else if c == "\"" && next == "\"" && i + 2 < chars.count && chars[i + 2] == "\"" {
                blank(to: find("\"\"\"", from: i + 3))
            } else if c == "\"" {
                // To the closing quote, over escapes and interpolations (which may hold strings).
                var j = i + 1, depth = 0
                while j < chars.count {
                    if chars[j] == "\\" && j + 1 < chars.count && chars[j + 1] == "(" { depth += 1; j += 2; continue }
                    if chars[j] == "\\" { j += 2; continue }
                    if depth > 0 && chars[j] == "(" { depth += 1 }
                    if depth > 0 && chars[j] == ")" { depth -= 1 }
                    if depth == 0 && chars[j] == "\"" { break }
                    j += 1
                }
                blank(to: j + 1)
            } else {
                out.append(c)
                i += 1
            }
        }
        return out
    }

    /// Every public member of `StorageController`, as a DocC link names it relative to the type
    /// (`insertContact(_:uid:bookID:)`, `path`), with where it is declared.
    static func storageControllerMembers() -> [(link: String, at: String)] {
        let declaration = try! NSRegularExpression(pattern: #"^(?:@\w+(?:\([^)]*\))?\s+)*(?:nonisolated\s+)?public\s+(?:(?:static|final|nonisolated|convenience|override)\s+)*(func|var|let|init|struct|enum|class|typealias)\b\s*([A-Za-z_][A-Za-z0-9_]*)?"#)
        let opener = try! NSRegularExpression(pattern: #"^(?:public\s+)?(?:final\s+)?(?:extension|class)\s+StorageController\b"#)
        var members: [(link: String, at: String)] = []
        for (path, _) in code where path.hasPrefix("Sources/CarnetStorage/") {
            guard let raw = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else { continue }
            let text = codeOnly(raw)
            var depth = 0
            var scopes: [(depth: Int, isController: Bool)] = []
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                let range = NSRange(trimmed.startIndex..., in: trimmed)
                if let scope = scopes.last, scope.isController, scope.depth == depth,
                   let match = declaration.firstMatch(in: trimmed, range: range) {
                    let kind = String(trimmed[Range(match.range(at: 1), in: trimmed)!])
                    let name = Range(match.range(at: 2), in: trimmed).map { String(trimmed[$0]) } ?? ""
                    var link = name
                    if kind == "func" || kind == "init" {
                        // The parameters, from the declaration's first `(` after its name and generics.
                        let end = trimmed.distance(from: trimmed.startIndex, to: Range(match.range, in: trimmed)!.upperBound)
                        let first = line.firstIndex { !$0.isWhitespace } ?? line.startIndex
                        var rest = text[text.index(first, offsetBy: end)...]
                        if rest.first == "<" { rest = rest[rest.index(after: rest.firstIndex(of: ">")!)...] }
                        rest = rest.drop { $0 == "?" || $0 == "!" || $0 == " " }
                        let labels = rest.first == "(" ? parameters(rest.dropFirst()).map { $0.label + ":" } : []
                        link = (kind == "init" ? "init" : name) + "(" + labels.joined() + ")"
                    }
                    members.append((link, "\(path):\(index + 1)"))
                }
                let opens = opener.firstMatch(in: trimmed, range: range) != nil
                var opened = false
                for character in line {
                    if character == "{" {
                        depth += 1
                        scopes.append((depth, opens && !opened))
                        opened = true
                    } else if character == "}" {
                        depth -= 1
                        scopes.removeLast()
                    }
                }
            }
        }
        return members
    }

    static let topicsPage = "Sources/CarnetStorage/CarnetStorage.docc/StorageController.md"

    /// The storage controller's DocC page lists every public member once, under a topic, and
    /// nothing that is not one: a member added without a topic would land in DocC's catch-all.
    @Test func everyPublicMemberOfTheStorageControllerHasATopic() throws {
        let members = Self.storageControllerMembers()
        #expect(members.count > 80, "the reading of the storage controller found \(members.count) public members")
        let page = try String(contentsOf: Self.root.appendingPathComponent(Self.topicsPage), encoding: .utf8)
        var listed: [String: Int] = [:]
        for (index, line) in page.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.hasPrefix("- ``") {
            let link = line.dropFirst(4).prefix { $0 != "`" }
            #expect(listed[String(link)] == nil, "\(Self.topicsPage):\(index + 1): ``\(link)`` is listed twice")
            listed[String(link)] = index + 1
        }
        for member in members where listed[member.link] == nil {
            Issue.record("\(member.at): public \(member.link) is under no topic of \(Self.topicsPage)")
        }
        let declared = Set(members.map(\.link))
        for (link, line) in listed where !declared.contains(link) {
            Issue.record("\(Self.topicsPage):\(line): ``\(link)`` is no public member of StorageController")
        }
    }
}
